import { describe, expect, it } from 'vitest'
import { isAdmissionStatus, PolicySet } from '../../src/engine/policy-set.js'
import { admissionResponse } from '../../src/webhook/handler.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// AdmitResult.status is the answer's Status whichever step refused (issue 26): it was missing for a built-in
// object's and a custom resource's refusal (only in builtin.status / customResource.status). The codes and
// reasons are the apiserver's: 400 BadRequest for a body that does not decode, 422 Invalid for the registry's
// validation, the admission plugin's Forbidden Status for a policy's Deny.

const crd = widgetCrd({
  schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: 3 } } } },
  },
})
const policy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'no-cm' },
  spec: {
    matchConstraints: {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
    },
    validations: [{ expression: 'false', message: 'no' }],
  },
}
const binding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'no-cm' },
  spec: { policyName: 'no-cm', validationActions: ['Deny'] },
}
const set = PolicySet.build([crd, policy, binding])
const meta = { name: 'x', namespace: 'default' }

describe('AdmitResult.status: one place for the answer', () => {
  it('a built-in body that does not decode: 400 BadRequest, the same as builtin.status', () => {
    const r = set.validate({ apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: 5 } })
    expect(r.allowed).toBe(false)
    expect(r.status).toBeDefined()
    expect(r.status).toEqual(r.builtin?.status)
    expect([r.status?.code, r.status?.reason]).toEqual([400, 'BadRequest'])
    expect(isAdmissionStatus(r.status)).toBe(false)
  })

  it("a built-in the kind's validation refuses: 422 Invalid, the same as builtin.status", () => {
    const r = set.validate({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta, spec: { template: {} } })
    expect(r.allowed).toBe(false)
    expect(r.status).toEqual(r.builtin?.status)
    expect([r.status?.code, r.status?.reason]).toEqual([422, 'Invalid'])
  })

  it('a custom resource its CRD refuses: 422 Invalid, the same as customResource.status', () => {
    const r = set.validate({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta, spec: { size: 5 } })
    expect(r.allowed).toBe(false)
    expect(r.status).toEqual(r.customResource?.status)
    expect([r.status?.code, r.status?.reason]).toEqual([422, 'Invalid'])
    expect(r.status?.message).toBe(
      'Widget.example.com "x" is invalid: spec.size: Invalid value: 5: spec.size in body should be less than or equal to 3',
    )
  })

  it("a policy's Deny: the admission plugin's Status, as before", () => {
    const r = set.validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta })
    expect(isAdmissionStatus(r.status)).toBe(true)
    expect(r.status?.message).toBe(
      `configmaps "x" is forbidden: ValidatingAdmissionPolicy 'no-cm' with binding 'no-cm' denied request: no`,
    )
  })

  it('the webhook answers as before: the registry Status whole, the policy Status by its cause', () => {
    const cr = set.validate({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta, spec: { size: 5 } })
    expect(admissionResponse('u', cr).status).toEqual({
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message: cr.customResource?.status?.message,
      details: (cr.customResource?.status as { details?: unknown } | undefined)?.details,
    })
    const denied = set.validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta })
    expect(admissionResponse('u', denied).status?.message).toBe(
      `ValidatingAdmissionPolicy 'no-cm' with binding 'no-cm' denied request: no`,
    )
  })
})
