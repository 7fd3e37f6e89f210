import { describe, expect, it } from 'vitest'
import type { ValidatingAdmissionPolicy } from '../../../src/kube/admissionregistration/types.js'
import type { Authorize } from '../../../src/kube/authz/authorizer.js'
import type { AdmissionAttributes } from '../../../src/policy/attributes.js'
import { OutOfBudget, sharedActivation } from '../../../src/policy/cel/condition.js'
import { createAdmissionRequest, createNamespaceObject } from '../../../src/policy/cel/request.js'
import { PolicyValidator } from '../../../src/policy/validating/validator.js'

// validateShared (the dispatcher's path for policies with validations only) must decide exactly as
// validate: same decisions, messages, reasons, errors and budget handling; undefined standing for
// "every validation admits" (validate's all-Admit decisions and no audit annotations).

const namespace = { metadata: { name: 'shop', labels: { 'kubernetes.io/metadata.name': 'shop' } } }
const items = Array.from({ length: 450 }, (_, i) => i)

function attributes(object: Record<string, unknown>): AdmissionAttributes {
  return {
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subResource: '',
    name: 'web',
    namespace: 'shop',
    operation: 'CREATE',
    object,
    oldObject: null,
    userInfo: { username: 'alice', groups: ['dev'] },
    dryRun: false,
  }
}

function policy(
  validations: { expression: string; message?: string; reason?: string }[],
  failurePolicy: 'Fail' | 'Ignore' = 'Fail',
): ValidatingAdmissionPolicy {
  return { metadata: { name: 'p' }, spec: { failurePolicy, validations } } as ValidatingAdmissionPolicy
}

const authorize: Authorize = (a) =>
  a.verb === 'create' ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' }

function both(v: PolicyValidator, object: Record<string, unknown>) {
  const a = attributes(object)
  const full = v.validate({ matchedResource: a.resource, attributes: a, params: null, namespace, authorize })
  const shared = v.validateShared(
    sharedActivation(a, createAdmissionRequest(a), createNamespaceObject(namespace), () => authorize),
  )
  return { full, shared }
}

const cases: [string, ValidatingAdmissionPolicy, Record<string, unknown>][] = [
  [
    'all pass',
    policy([{ expression: 'object.spec.replicas < 10' }, { expression: "request.namespace == 'shop'" }]),
    {
      spec: { replicas: 3 },
    },
  ],
  [
    'deny with message and reason, then pass, then deny without message',
    policy([
      { expression: 'object.spec.replicas < 2', message: ' too many ', reason: 'Forbidden' },
      { expression: "namespaceObject.metadata.name == 'shop'" },
      { expression: 'object.spec.replicas == 1' },
    ]),
    { spec: { replicas: 3 } },
  ],
  [
    'runtime error (no such key), Fail',
    policy([{ expression: 'true' }, { expression: 'object.spec.missing > 1' }]),
    {
      spec: {},
    },
  ],
  [
    'runtime error, Ignore',
    policy([{ expression: 'object.spec.missing > 1' }, { expression: 'false' }], 'Ignore'),
    {
      spec: {},
    },
  ],
  [
    'authorizer',
    policy([
      { expression: "authorizer.group('apps').resource('deployments').namespace('shop').check('create').allowed()" },
      { expression: "authorizer.requestResource.check('delete').allowed()" },
    ]),
    { spec: {} },
  ],
  [
    // 12 × ~0.9M: each within the per-call limit, together over the 10M budget
    'out of budget across validations',
    policy(Array.from({ length: 12 }, () => ({ expression: 'object.items.all(x, object.items.all(y, y >= 0))' }))),
    { items },
  ],
  [
    'per-call cost limit',
    policy([{ expression: 'object.items.all(x, object.items.all(y, object.items.all(z, z >= 0)))' }]),
    {
      items: items.slice(0, 120),
    },
  ],
]

describe('PolicyValidator.validateShared decides as validate', () => {
  for (const [name, p, object] of cases) {
    it(name, () => {
      const v = new PolicyValidator(p)
      expect(v.shared).toBe(true)
      // past 16 runs the programs are on the generated-JavaScript tier (the costly cases run twice)
      const runs = 'items' in object ? 2 : 20
      for (let i = 0; i < runs; i++) {
        const { full, shared } = both(v, object)
        if (shared === undefined) {
          expect(full.auditAnnotations).toEqual([])
          expect(full.decisions.every((d) => d.action === 'Admit' && d.evaluation === 'Admit')).toBe(true)
        } else expect(shared).toEqual(full)
      }
    })
  }

  it('reports running out of budget as validate does', () => {
    const v = new PolicyValidator(cases.find((c) => c[0] === 'out of budget across validations')?.[1] as never)
    expect(both(v, { items }).shared?.decisions).toEqual([
      { action: 'Deny', evaluation: 'Error', message: OutOfBudget },
    ])
  })

  it('is not used for policies with their own inputs', () => {
    const withMessage = {
      metadata: { name: 'p' },
      spec: { validations: [{ expression: 'true', messageExpression: "'m'" }] },
    }
    expect(new PolicyValidator(withMessage as ValidatingAdmissionPolicy).shared).toBe(false)
    const withParams = {
      metadata: { name: 'p' },
      spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] },
    }
    expect(new PolicyValidator(withParams as ValidatingAdmissionPolicy).shared).toBe(false)
  })
})
