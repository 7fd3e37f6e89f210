import { describe, expect, it } from 'vitest'
import { type AdmitResult, PolicySet } from '../../src/engine/policy-set.js'
import type { Authorize, AuthzRule } from '../../src/kube/authz/authorizer.js'
import { rulesAuthorizer } from '../../src/kube/authz/authorizer.js'

// End-to-end ValidatingAdmissionPolicy tests transcribed from kubernetes
// test/integration/apiserver/cel/validatingadmissionpolicy_test.go (commit b39bf52c, the
// admissionregistration.k8s.io/v1beta1 edition; the objects here are v1, whose schema and semantics
// are the same). Expected texts are the Go test's.
//
// Offline adaptation: the "cluster" is the object list given to PolicySet.build; creating, updating or
// deleting a policy, binding or param is a new PolicySet; a request is PolicySet.validate(object, …).
// The integration harness's readiness machinery (withWaitReadyConstraintAndExpression's marker rule and
// validation, createAndWaitReady's marker Endpoints patch, the polling for "not yet synced") is about
// informer sync and has no offline counterpart; the marker rule and validation are still added to the
// policies, as the Go test does, because they shift expressionIndex (asserted in the Audit case).
// A namespace or object created with generateName gets a fixed generated-looking name.

type JSONObject = Record<string, unknown>

const AR = 'admissionregistration.k8s.io/v1'

interface Rule {
  operations?: string[]
  apiGroups?: string[]
  apiVersions?: string[]
  resources?: string[]
  resourceNames?: string[]
}
type Policy = {
  apiVersion: string
  kind: 'ValidatingAdmissionPolicy'
  metadata: { name: string }
  spec: {
    paramKind?: { apiVersion: string; kind: string }
    matchConstraints?: {
      resourceRules?: Rule[]
      excludeResourceRules?: Rule[]
      objectSelector?: JSONObject
      namespaceSelector?: JSONObject
      matchPolicy?: string
    }
    validations?: { expression: string; message?: string; reason?: string }[]
    auditAnnotations?: { key: string; valueExpression: string }[]
    failurePolicy?: string
  }
}
type Binding = {
  apiVersion: string
  kind: 'ValidatingAdmissionPolicyBinding'
  metadata: { name: string }
  spec: {
    policyName: string
    paramRef?: { name?: string; namespace?: string; parameterNotFoundAction?: string }
    validationActions: string[]
    matchResources?: JSONObject
  }
}

// ---- the Go test's helpers ----

const makePolicy = (name: string): Policy => ({
  apiVersion: AR,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {},
})
const withParams = (pk: { apiVersion: string; kind: string }, p: Policy): Policy => {
  p.spec.paramKind = pk
  return p
}
const configParamKind = () => ({ apiVersion: 'v1', kind: 'ConfigMap' })
const withCRDParamKind = (kind: string, group: string, version: string) => ({ apiVersion: `${group}/${version}`, kind })
const withFailurePolicy = (f: string, p: Policy): Policy => {
  p.spec.failurePolicy = f
  return p
}
const withPolicyMatch = (resource: string, p: Policy): Policy => {
  p.spec.matchConstraints = {
    resourceRules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['*'], resources: [resource] }],
  }
  return p
}
const withNamespaceMatch = (p: Policy) => withPolicyMatch('namespaces', p)
const withConfigMapMatch = (p: Policy) => withPolicyMatch('configmaps', p)
const withExcludePolicyMatch = (resource: string, p: Policy): Policy => {
  p.spec.matchConstraints = {
    ...p.spec.matchConstraints,
    excludeResourceRules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['*'], resources: [resource] }],
  }
  return p
}
const withObjectSelector = (s: JSONObject, p: Policy): Policy => {
  p.spec.matchConstraints = { ...p.spec.matchConstraints, objectSelector: s }
  return p
}
const withNamespaceSelector = (s: JSONObject, p: Policy): Policy => {
  p.spec.matchConstraints = { ...p.spec.matchConstraints, namespaceSelector: s }
  return p
}
const buildExistsSelector = (labels: string[]) => labels.map((key) => ({ key, operator: 'Exists' }))
const withPolicyExistsLabels = (labels: string[], p: Policy): Policy => {
  p.spec.matchConstraints = {
    ...p.spec.matchConstraints,
    objectSelector: { matchExpressions: buildExistsSelector(labels) },
  }
  return p
}
const withValidations = (v: NonNullable<Policy['spec']['validations']>, p: Policy): Policy => {
  p.spec.validations = v
  return p
}
const withAuditAnnotations = (a: NonNullable<Policy['spec']['auditAnnotations']>, p: Policy): Policy => {
  p.spec.auditAnnotations = a
  return p
}
const withWaitReadyConstraintAndExpression = (policy: Policy): Policy => {
  const p = structuredClone(policy)
  p.spec.matchConstraints = {
    ...p.spec.matchConstraints,
    resourceRules: [
      ...(p.spec.matchConstraints?.resourceRules ?? []),
      {
        resourceNames: ['test-marker'],
        operations: ['UPDATE'],
        apiGroups: [''],
        apiVersions: ['v1'],
        resources: ['endpoints'],
      },
    ],
  }
  p.spec.validations = [
    { expression: "object.metadata.name != 'test-marker'", message: 'marker denied; policy is ready' },
    ...(p.spec.validations ?? []),
  ]
  return p
}
const makeBinding = (name: string, policyName: string, paramName: string): Binding => ({
  apiVersion: AR,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: {
    policyName,
    ...(paramName !== ''
      ? { paramRef: { name: paramName, namespace: 'default', parameterNotFoundAction: 'Deny' } }
      : {}),
    validationActions: ['Deny'],
  },
})
const withValidationActions = (actions: string[], b: Binding): Binding => {
  b.spec.validationActions = actions
  return b
}
const withMatchNamespace = (b: Binding, ns: string): Binding => {
  b.spec.matchResources = {
    namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [ns] }] },
  }
  return b
}
const withBindingExistsLabels = (labels: string[], policy: Policy, b: Binding): Binding => {
  b.spec.matchResources = {
    ...structuredClone(policy.spec.matchConstraints),
    objectSelector: { matchExpressions: buildExistsSelector(labels) },
  }
  return b
}
// makeConfigParams creates its ConfigMaps with client.CoreV1().ConfigMaps("default")
const makeConfigParams = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data,
})
const namespace = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { ...labels, 'kubernetes.io/metadata.name': name } },
})
const configMap = (name: string, ns: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, ...(labels ? { labels } : {}) },
})
const secret = (name: string, ns: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: ns, ...(labels ? { labels } : {}) },
})

/** The `Error()` text of the admission error, or '' when admitted (checkExpectedError). */
const errorText = (r: AdmitResult) => (r.allowed ? '' : (r.status?.message ?? '<no status>'))

/** checkExpectedError + checkFailureReason. */
function expectOutcome(r: AdmitResult, err: string, reason?: string) {
  expect(errorText(r)).toBe(err)
  if (err !== '') expect(r.status?.reason).toBe(reason)
}

// fixtures.AllowAllSchema()
const allowAllSchema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }
// versionedCustomResourceDefinition (copied in the Go test from etcd.GetCustomResourceDefinitionData)
const pandasCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'pandas.awesome.bears.com' },
  spec: {
    group: 'awesome.bears.com',
    versions: ['v1', 'v2'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: allowAllSchema,
      subresources: {
        status: {},
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.selector',
        },
      },
    })),
    scope: 'Cluster',
    names: { plural: 'pandas', kind: 'Panda' },
  },
}

/** A PolicySet that must load without problems. */
function build(objects: unknown[], options: Parameters<typeof PolicySet.build>[1] = {}): PolicySet {
  const set = PolicySet.build(objects, options)
  expect(set.problems.map((p) => p.message)).toEqual([])
  return set
}

describe('Test_ValidateNamespace_NoParams', () => {
  const suffixPolicy = (
    validations: NonNullable<Policy['spec']['validations']>,
    failure: string,
    params = false,
  ): Policy => {
    const base = withNamespaceMatch(makePolicy('validate-namespace-suffix'))
    const p = withValidations(validations, withFailurePolicy(failure, base))
    return params ? withParams(configParamKind(), p) : p
  }
  const binding = () => makeBinding('validate-namespace-suffix-binding', 'validate-namespace-suffix', '')
  const prefix =
    "ValidatingAdmissionPolicy 'validate-namespace-suffix' with binding 'validate-namespace-suffix-binding' denied request: "
  const cases: { name: string; policy: Policy; namespace: string; err: string; reason?: string }[] = [
    {
      name: 'namespace name contains suffix enforced by validating admission policy, using object metadata fields',
      policy: suffixPolicy([{ expression: "object.metadata.name.endsWith('k8s')" }], 'Fail'),
      namespace: 'test-k8s',
      err: '',
    },
    {
      name: 'namespace name does NOT contain suffix enforced by validating admission policyusing, object metadata fields',
      policy: suffixPolicy([{ expression: "object.metadata.name.endsWith('k8s')" }], 'Fail'),
      namespace: 'test-foobar',
      err: `namespaces "test-foobar" is forbidden: ${prefix}failed expression: object.metadata.name.endsWith('k8s')`,
      reason: 'Invalid',
    },
    {
      name: 'namespace name does NOT contain suffix enforced by validating admission policy using object metadata fields, AND validating expression returns StatusReasonForbidden',
      policy: suffixPolicy([{ expression: "object.metadata.name.endsWith('k8s')", reason: 'Forbidden' }], 'Fail'),
      namespace: 'forbidden-test-foobar',
      err: `namespaces "forbidden-test-foobar" is forbidden: ${prefix}failed expression: object.metadata.name.endsWith('k8s')`,
      reason: 'Forbidden',
    },
    {
      name: 'namespace name contains suffix enforced by validating admission policy, using request field',
      policy: suffixPolicy([{ expression: "request.name.endsWith('k8s')" }], 'Fail'),
      namespace: 'test-k8s',
      err: '',
    },
    {
      name: 'namespace name does NOT contains suffix enforced by validating admission policy, using request field',
      policy: suffixPolicy([{ expression: "request.name.endsWith('k8s')" }], 'Fail'),
      namespace: 'test-k8s',
      err: '',
    },
    {
      name: 'runtime error when validating namespace, but failurePolicy=Ignore',
      policy: suffixPolicy([{ expression: "object.nonExistentProperty == 'someval'" }], 'Ignore'),
      namespace: 'test-k8s',
      err: '',
    },
    {
      name: 'runtime error when validating namespace, but failurePolicy=Fail',
      policy: suffixPolicy([{ expression: "object.nonExistentProperty == 'someval'" }], 'Fail'),
      namespace: 'test-k8s',
      err: `namespaces "test-k8s" is forbidden: ${prefix}expression 'object.nonExistentProperty == 'someval'' resulted in error: no such key: nonExistentProperty`,
      reason: 'Invalid',
    },
    {
      name: 'runtime error due to unguarded params',
      policy: suffixPolicy([{ expression: 'object.metadata.name.startsWith(params.metadata.name)' }], 'Fail', true),
      namespace: 'test-k8s',
      err: `namespaces "test-k8s" is forbidden: ${prefix}expression 'object.metadata.name.startsWith(params.metadata.name)' resulted in error: no such key: metadata`,
      reason: 'Invalid',
    },
    {
      name: 'with check against unguarded params using has()',
      policy: suffixPolicy(
        [
          {
            expression:
              'has(params.metadata) && has(params.metadata.name) && object.metadata.name.endsWith(params.metadata.name)',
          },
        ],
        'Fail',
        true,
      ),
      namespace: 'test-k8s',
      err: `namespaces "test-k8s" is forbidden: ${prefix}failed expression: has(params.metadata) && has(params.metadata.name) && object.metadata.name.endsWith(params.metadata.name)`,
      reason: 'Invalid',
    },
    {
      name: 'with check against null params',
      policy: suffixPolicy(
        [{ expression: '(params != null && object.metadata.name.endsWith(params.metadata.name))' }],
        'Fail',
        true,
      ),
      namespace: 'test-k8s',
      err: `namespaces "test-k8s" is forbidden: ${prefix}failed expression: (params != null && object.metadata.name.endsWith(params.metadata.name))`,
      reason: 'Invalid',
    },
    {
      name: 'with check against unguarded params using has() and default check',
      policy: suffixPolicy(
        [
          {
            expression:
              "(has(params.metadata) && has(params.metadata.name) && object.metadata.name.startsWith(params.metadata.name)) || object.metadata.name.endsWith('k8s')",
          },
        ],
        'Fail',
        true,
      ),
      namespace: 'test-k8s',
      err: '',
    },
    {
      name: 'with check against null params and default check',
      policy: suffixPolicy(
        [
          {
            expression:
              "(params != null && object.metadata.name.startsWith(params.metadata.name)) || object.metadata.name.endsWith('k8s')",
          },
        ],
        'Fail',
        true,
      ),
      namespace: 'test-k8s',
      err: '',
    },
    {
      name: 'with check against namespaceObject',
      // "because namespace itself is cluster-scoped"
      policy: suffixPolicy([{ expression: 'namespaceObject == null' }], 'Fail', true),
      namespace: 'test-k8s',
      err: '',
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const set = build([withWaitReadyConstraintAndExpression(c.policy), binding()])
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: c.namespace } }
      expectOutcome(set.validate(ns), c.err, c.reason)
    })
  }
})

describe('Test_ValidateAnnotationsAndWarnings', () => {
  const cases: {
    name: string
    policy: Policy
    binding: Binding
    object: string
    err: string
    reason?: string
    auditAnnotations?: Record<string, string>
    warnings?: string[]
  }[] = [
    {
      name: 'with audit annotations',
      policy: withAuditAnnotations(
        [
          { key: 'example-key', valueExpression: "'object name: ' + object.metadata.name" },
          { key: 'exclude-key', valueExpression: 'null' },
        ],
        withParams(
          configParamKind(),
          withFailurePolicy('Fail', withConfigMapMatch(makePolicy('validate-audit-annotations'))),
        ),
      ),
      binding: makeBinding('validate-audit-annotations-binding', 'validate-audit-annotations', ''),
      object: 'test1-k8s',
      err: '',
      auditAnnotations: { 'validate-audit-annotations/example-key': 'object name: test1-k8s' },
    },
    {
      name: 'with audit annotations with invalid expression',
      policy: withAuditAnnotations(
        [{ key: 'example-key', valueExpression: 'string(params.metadata.name)' }], // runtime error, params is null
        withParams(
          configParamKind(),
          withFailurePolicy('Fail', withConfigMapMatch(makePolicy('validate-audit-annotations-invalid'))),
        ),
      ),
      binding: makeBinding('validate-audit-annotations-invalid-binding', 'validate-audit-annotations-invalid', ''),
      object: 'test2-k8s',
      err: `configmaps "test2-k8s" is forbidden: ValidatingAdmissionPolicy 'validate-audit-annotations-invalid' with binding 'validate-audit-annotations-invalid-binding' denied request: expression 'string(params.metadata.name)' resulted in error: no such key: metadata`,
      reason: 'Invalid',
    },
    {
      name: 'with audit annotations with invalid expression and ignore failure policy',
      policy: withAuditAnnotations(
        [{ key: 'example-key', valueExpression: 'string(params.metadata.name)' }], // runtime error, params is null
        withParams(
          configParamKind(),
          withFailurePolicy('Ignore', withConfigMapMatch(makePolicy('validate-audit-annotations-invalid-ignore'))),
        ),
      ),
      binding: makeBinding(
        'validate-audit-annotations-invalid-ignore-binding',
        'validate-audit-annotations-invalid-ignore',
        '',
      ),
      object: 'test3-k8s',
      err: '',
    },
    {
      name: 'with warn validationActions',
      policy: withValidations(
        [{ expression: "object.metadata.name.endsWith('k8s')" }],
        withParams(
          configParamKind(),
          withFailurePolicy('Fail', withConfigMapMatch(makePolicy('validate-actions-warn'))),
        ),
      ),
      binding: withValidationActions(
        ['Warn'],
        makeBinding('validate-actions-warn-binding', 'validate-actions-warn', ''),
      ),
      object: 'test4-nope',
      err: '',
      warnings: [
        "Validation failed for ValidatingAdmissionPolicy 'validate-actions-warn' with binding 'validate-actions-warn-binding': failed expression: object.metadata.name.endsWith('k8s')",
      ],
    },
    {
      name: 'with audit validationActions',
      policy: withValidations(
        [{ expression: "object.metadata.name.endsWith('k8s')" }],
        withParams(
          configParamKind(),
          withFailurePolicy('Fail', withConfigMapMatch(makePolicy('validate-actions-audit'))),
        ),
      ),
      binding: withValidationActions(
        ['Deny', 'Audit'],
        makeBinding('validate-actions-audit-binding', 'validate-actions-audit', ''),
      ),
      object: 'test5-nope',
      err: `configmaps "test5-nope" is forbidden: ValidatingAdmissionPolicy 'validate-actions-audit' with binding 'validate-actions-audit-binding' denied request: failed expression: object.metadata.name.endsWith('k8s')`,
      reason: 'Invalid',
      auditAnnotations: {
        'validation.policy.admission.k8s.io/validation_failure': `[{"message":"failed expression: object.metadata.name.endsWith('k8s')","policy":"validate-actions-audit","binding":"validate-actions-audit-binding","expressionIndex":1,"validationActions":["Deny","Audit"]}]`,
      },
    },
  ]
  cases.forEach((c, i) => {
    it(c.name, () => {
      const ns = `auditannotations-${i}`
      const set = build([
        namespace(ns),
        withWaitReadyConstraintAndExpression(c.policy),
        withMatchNamespace(c.binding, ns),
      ])
      const r = set.validate(configMap(c.object, ns))
      expectOutcome(r, c.err, c.reason)
      // the response code the audit event records
      if (c.err !== '') expect(r.status?.code).toBe(422)
      // checkExpectedWarnings: the set of warnings equals the expected set
      expect(new Set(r.warnings)).toEqual(new Set(c.warnings ?? []))
      // checkAuditEvents with a filter on the expected keys
      const expected = c.auditAnnotations ?? {}
      const filtered = Object.fromEntries(Object.entries(r.auditAnnotations).filter(([k]) => k in expected))
      expect(filtered).toEqual(expected)
    })
  })
})

describe('Test_ValidateNamespace_WithConfigMapParams', () => {
  const policy = () =>
    withValidations(
      [{ expression: 'object.metadata.name.endsWith(params.data.namespaceSuffix)' }],
      withFailurePolicy(
        'Fail',
        withParams(configParamKind(), withNamespaceMatch(makePolicy('validate-namespace-suffix'))),
      ),
    )
  const objects = () => [
    makeConfigParams('validate-namespace-suffix-param', { namespaceSuffix: 'k8s' }),
    withWaitReadyConstraintAndExpression(policy()),
    makeBinding('validate-namespace-suffix-binding', 'validate-namespace-suffix', 'validate-namespace-suffix-param'),
  ]
  it('namespace name contains suffix enforced by validating admission policy', () => {
    expectOutcome(build(objects()).validate(namespace('test-k8s')), '')
  })
  it('namespace name does NOT contain suffix enforced by validating admission policy', () => {
    expectOutcome(
      build(objects()).validate(namespace('test-foo')),
      `namespaces "test-foo" is forbidden: ValidatingAdmissionPolicy 'validate-namespace-suffix' with binding 'validate-namespace-suffix-binding' denied request: failed expression: object.metadata.name.endsWith(params.data.namespaceSuffix)`,
      'Invalid',
    )
  })
})

/** checkForFailedRule + checkFailureReason(Invalid). */
function expectFailedRule(r: AdmitResult) {
  expect(r.allowed).toBe(false)
  expect(errorText(r)).toContain('failed expression')
  expect(errorText(r)).not.toContain('evaluation error')
  expect(r.status?.reason).toBe('Invalid')
}

describe('TestMultiplePolicyBindings', () => {
  let policy = withPolicyExistsLabels(
    ['paramIdent'],
    withParams(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      withPolicyMatch('secrets', withFailurePolicy('Fail', makePolicy('test-policy'))),
    ),
  )
  policy.spec.validations = [
    {
      expression:
        "params.data.autofail != 'true' && (params.data.conditional == 'false' || object.metadata.name.startsWith(params.data.check))",
    },
  ]
  policy = withWaitReadyConstraintAndExpression(policy)
  const set = build([
    policy,
    makeConfigParams('autofail-params', { autofail: 'true' }),
    withBindingExistsLabels(
      ['autofail-binding-label'],
      policy,
      makeBinding('autofail-binding', 'test-policy', 'autofail-params'),
    ),
    makeConfigParams('autopass-params', { autofail: 'false', conditional: 'false' }),
    withBindingExistsLabels(
      ['autopass-binding-label'],
      policy,
      makeBinding('autopass-binding', 'test-policy', 'autopass-params'),
    ),
    makeConfigParams('condpass-params', { autofail: 'false', conditional: 'true', check: 'prefix-' }),
    withBindingExistsLabels(
      ['condpass-binding-label'],
      policy,
      makeBinding('condpass-binding', 'test-policy', 'condpass-params'),
    ),
  ])

  it('autofailing-secret is denied by autofail-binding', () => {
    expectFailedRule(
      set.validate(
        secret('autofailing-secret', 'default', { paramIdent: 'someVal', 'autofail-binding-label': 'true' }),
      ),
    )
  })
  it('autopassing-secret is admitted', () => {
    const r = set.validate(
      secret('autopassing-secret', 'default', { paramIdent: 'someVal', 'autopass-binding-label': 'true' }),
    )
    expect(errorText(r)).toBe('')
  })
  it('prefix-condpassing-secret is admitted', () => {
    const r = set.validate(
      secret('prefix-condpassing-secret', 'default', { paramIdent: 'someVal', 'condpass-binding-label': 'true' }),
    )
    expect(errorText(r)).toBe('')
  })
  it('condfailing-secret is denied', () => {
    expectFailedRule(
      set.validate(
        secret('condfailing-secret', 'default', { paramIdent: 'someVal', 'condpass-binding-label': 'true' }),
      ),
    )
  })
})

describe('Test_PolicyExemption', () => {
  // ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding resources are exempt from policy rules
  // (apiserver generic/plugin.go: admission config resources are excluded from API-based policies).
  const policy = makePolicy('test-policy')
  policy.spec.matchConstraints = {
    resourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
  }
  policy.spec.validations = [{ expression: 'false', message: 'marker denied; policy is ready' }]
  const binding = makeBinding('test-policy-binding', 'test-policy', '')
  const set = build([policy, binding])

  it('the policy catches everything else', () => {
    expect(errorText(set.validate(configMap('x', 'default')))).toContain('marker denied; policy is ready')
  })
  it('an update of the ValidatingAdmissionPolicy is admitted', () => {
    const updated = structuredClone(policy)
    updated.spec.failurePolicy = 'Ignore'
    expect(errorText(set.validate(updated, { oldObject: policy }))).toBe('')
  })
  it('an update of the ValidatingAdmissionPolicyBinding is admitted', () => {
    const updated = structuredClone(binding)
    updated.spec.policyName = 'different-binding'
    expect(errorText(set.validate(updated, { oldObject: binding }))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_UpdateParamKind', () => {
  const objects = (kind: string) => {
    const policy = withValidations(
      [{ expression: 'object.metadata.name.startsWith(params.kind.lowerAscii())', message: 'wrong paramKind' }],
      withParams(
        { apiVersion: 'v1', kind },
        withNamespaceMatch(withFailurePolicy('Fail', makePolicy('allowed-prefixes'))),
      ),
    )
    return [
      configMap('allowed-prefixes', 'default'),
      secret('allowed-prefixes', 'default'),
      withWaitReadyConstraintAndExpression(policy),
      makeBinding('allowed-prefixes-binding', 'allowed-prefixes', 'allowed-prefixes'),
    ]
  }
  it('paramKind ConfigMap: configmap- namespaces allowed, secret- namespaces denied', () => {
    const set = build(objects('ConfigMap'))
    expect(errorText(set.validate(namespace('configmap-x7k2p')))).toBe('')
    const r = set.validate(namespace('secret-x7k2p'))
    expect(errorText(r)).toContain('wrong paramKind')
    expect(r.status?.reason).toBe('Invalid')
  })
  it('paramKind updated to Secret: secret- namespaces allowed, configmap- namespaces denied', () => {
    const set = build(objects('Secret'))
    expect(errorText(set.validate(namespace('configmap-q9w8e')))).toContain('wrong paramKind')
    expect(errorText(set.validate(namespace('secret-q9w8e')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_UpdateParamRef', () => {
  const policy = withWaitReadyConstraintAndExpression(
    withValidations(
      [{ expression: 'object.metadata.name.startsWith(params.metadata.name)', message: 'wrong paramRef' }],
      withParams(configParamKind(), withNamespaceMatch(withFailurePolicy('Fail', makePolicy('allowed-prefixes')))),
    ),
  )
  const params = [configMap('test-1', 'default'), configMap('test-2', 'default')]
  it('paramRef test-1', () => {
    const set = build([...params, policy, makeBinding('allowed-prefixes-binding', 'allowed-prefixes', 'test-1')])
    expect(errorText(set.validate(namespace('test-2-abcde')))).toContain('wrong paramRef')
    expect(errorText(set.validate(namespace('test-1-abcde')))).toBe('')
  })
  it('paramRef updated to test-2', () => {
    const binding = makeBinding('allowed-prefixes-binding', 'allowed-prefixes', '')
    binding.spec.paramRef = { name: 'test-2', namespace: 'default', parameterNotFoundAction: 'Deny' }
    const set = build([...params, policy, binding])
    expect(errorText(set.validate(namespace('test-1-abcde')))).toContain('wrong paramRef')
    expect(errorText(set.validate(namespace('test-2-abcde')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_UpdateParamResource', () => {
  const policy = withWaitReadyConstraintAndExpression(
    withValidations(
      [{ expression: "object.metadata.name.startsWith(params.data['prefix'])", message: 'wrong prefix' }],
      withParams(configParamKind(), withNamespaceMatch(withFailurePolicy('Fail', makePolicy('allowed-prefixes')))),
    ),
  )
  const binding = makeBinding('allowed-prefixes-binding', 'allowed-prefixes', 'allowed-prefix')
  const param = (prefix: string) => ({ ...configMap('allowed-prefix', 'default'), data: { prefix } })
  it('prefix test-1', () => {
    const set = build([param('test-1'), policy, binding])
    expect(errorText(set.validate(namespace('test-2-abcde')))).toContain('wrong prefix')
    expect(errorText(set.validate(namespace('test-1-abcde')))).toBe('')
  })
  it('param updated to prefix test-2', () => {
    const set = build([param('test-2'), policy, binding])
    expect(errorText(set.validate(namespace('test-1-abcde')))).toContain('wrong prefix')
    expect(errorText(set.validate(namespace('test-2-abcde')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_MatchByObjectSelector', () => {
  let policy = withValidations(
    [{ expression: 'false', message: 'matched by object selector!' }],
    withConfigMapMatch(withFailurePolicy('Fail', makePolicy('match-by-object-selector'))),
  )
  policy = withWaitReadyConstraintAndExpression(withObjectSelector({ matchLabels: { foo: 'bar' } }, policy))
  const set = build([policy, makeBinding('match-by-object-selector-binding', 'match-by-object-selector', '')])
  it('a labelled configmap is denied, an unlabelled one admitted', () => {
    expect(errorText(set.validate(configMap('denied', 'default', { foo: 'bar' })))).toContain(
      'matched by object selector!',
    )
    expect(errorText(set.validate(configMap('allowed', 'default')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_MatchByNamespaceSelector', () => {
  // only configmaps in default will be allowed.
  let policy = withValidations(
    [{ expression: 'false', message: 'matched by namespace selector!' }],
    withConfigMapMatch(withFailurePolicy('Fail', makePolicy('match-by-namespace-selector'))),
  )
  policy = withWaitReadyConstraintAndExpression(
    withNamespaceSelector(
      { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['default'] }] },
      policy,
    ),
  )
  const set = build([
    policy,
    makeBinding('match-by-namespace-selector-binding', 'match-by-namespace-selector', ''),
    namespace('not-default'),
  ])
  it('a configmap in not-default is denied, one in default admitted', () => {
    expect(errorText(set.validate(configMap('denied-h4x9z', 'not-default')))).toContain(
      'matched by namespace selector!',
    )
    expect(errorText(set.validate(configMap('allowed', 'default')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_MatchByResourceNames', () => {
  let policy = withValidations(
    [{ expression: 'false', message: 'matched by resource names!' }],
    withConfigMapMatch(withFailurePolicy('Fail', makePolicy('match-by-resource-names'))),
  )
  ;(policy.spec.matchConstraints?.resourceRules?.[0] as Rule).resourceNames = ['matched-by-resource-name']
  policy = withWaitReadyConstraintAndExpression(policy)
  const set = build([policy, makeBinding('match-by-resource-names-binding', 'match-by-resource-names', '')])
  it('the named configmap is denied, another admitted', () => {
    expect(errorText(set.validate(configMap('matched-by-resource-name', 'default')))).toContain(
      'matched by resource names!',
    )
    expect(errorText(set.validate(configMap('not-matched-by-resource-name', 'default')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_MatchWithExcludeResources', () => {
  const policy = withExcludePolicyMatch(
    'configmaps',
    withValidations(
      [{ expression: 'false', message: 'not matched by exclude resources!' }],
      withPolicyMatch('*', withFailurePolicy('Fail', makePolicy('match-by-resource-names'))),
    ),
  )
  const set = build([policy, makeBinding('match-by-resource-names-binding', 'match-by-resource-names', '')])
  it('a secret is denied, a configmap (excluded) admitted', () => {
    expect(errorText(set.validate(secret('not-matched-by-exclude-resourcesb7t2q', 'default')))).toContain(
      'not matched by exclude resources!',
    )
    expect(errorText(set.validate(configMap('matched-by-exclude-resources', 'default')))).toBe('')
  })
})

describe('Test_ValidatingAdmissionPolicy_MatchWithMatchPolicy', () => {
  const pandasPolicy = (name: string, message: string, matchPolicy?: string) => {
    const policy = withValidations([{ expression: 'false', message }], withFailurePolicy('Fail', makePolicy(name)))
    policy.spec.matchConstraints = {
      ...(matchPolicy !== undefined ? { matchPolicy } : {}),
      resourceRules: [
        { operations: ['*'], apiGroups: ['awesome.bears.com'], apiVersions: ['v1'], resources: ['pandas'] },
      ],
    }
    return withWaitReadyConstraintAndExpression(policy)
  }
  const panda = (version: string, name: string) => ({
    apiVersion: `awesome.bears.com/${version}`,
    kind: 'Panda',
    metadata: { name },
  })

  it('Test_ValidatingAdmissionPolicy_MatchWithMatchPolicyEquivalent: v1 and v2 pandas both match', () => {
    const set = build([
      pandasCRD,
      pandasPolicy('match-by-match-policy-equivalent', 'matched by equivalent match policy!'),
      makeBinding('match-by-match-policy-equivalent-binding', 'match-by-match-policy-equivalent', ''),
    ])
    expect(errorText(set.validate(panda('v1', 'v1-bears')))).toContain('matched by equivalent match policy!')
    expect(errorText(set.validate(panda('v2', 'v2-bears')))).toContain('matched by equivalent match policy!')
  })

  it('Test_ValidatingAdmissionPolicy_MatchWithMatchPolicyExact: only v1 pandas match', () => {
    const set = build([
      pandasCRD,
      pandasPolicy('match-by-match-policy-exact', 'matched by exact match policy!', 'Exact'),
      makeBinding('match-by-match-policy-exact-binding', 'match-by-match-policy-exact', ''),
    ])
    expect(errorText(set.validate(panda('v1', 'v1-bears')))).toContain('matched by exact match policy!')
    // v2 pandas is allowed since policy specified match policy Exact and only matched against v1
    expect(errorText(set.validate(panda('v2', 'v2-bears')))).toBe('')
  })
})

describe('deleted then recreated (policy, binding, param resource)', () => {
  const prefixPolicy = (expression: string) =>
    withWaitReadyConstraintAndExpression(
      withValidations(
        [{ expression, message: 'wrong prefix' }],
        withParams(configParamKind(), withNamespaceMatch(withFailurePolicy('Fail', makePolicy('allowed-prefixes')))),
      ),
    )

  it('Test_ValidatingAdmissionPolicy_PolicyDeletedThenRecreated', () => {
    const policy = prefixPolicy("object.metadata.name.startsWith('test')")
    const binding = makeBinding('allowed-prefixes-binding', 'allowed-prefixes', '')
    expect(errorText(build([policy, binding]).validate(namespace('not-test-a1')))).toContain('wrong prefix')
    // policy deleted: not enforced
    expect(errorText(build([binding]).validate(namespace('not-test-a2')))).toBe('')
    // recreated
    expect(errorText(build([binding, policy]).validate(namespace('not-test-a3')))).toContain('wrong prefix')
  })

  it('Test_ValidatingAdmissionPolicy_BindingDeletedThenRecreated', () => {
    const policy = prefixPolicy("object.metadata.name.startsWith('test')")
    const binding = makeBinding('allowed-prefixes-binding', 'allowed-prefixes', '')
    expect(errorText(build([policy, binding]).validate(namespace('not-test-b1')))).toContain('wrong prefix')
    expect(errorText(build([policy]).validate(namespace('not-test-b2')))).toBe('')
    expect(errorText(build([policy, binding]).validate(namespace('not-test-b3')))).toContain('wrong prefix')
  })

  it('Test_ValidatingAdmissionPolicy_ParamResourceDeletedThenRecreated', () => {
    const param = configMap('test', 'default')
    const policy = prefixPolicy('object.metadata.name.startsWith(params.metadata.name)')
    const binding = makeBinding('allowed-prefixes-binding', 'allowed-prefixes', 'test')
    expect(errorText(build([param, policy, binding]).validate(namespace('not-test-c1')))).toContain('wrong prefix')
    // param deleted: the policy is invalid
    expect(errorText(build([policy, binding]).validate(namespace('not-test-c2')))).toContain(
      'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
    )
    // param recreated
    expect(errorText(build([policy, binding, param]).validate(namespace('not-test-c3')))).toContain('wrong prefix')
  })
})

describe('TestCRDParams', () => {
  const resource = {
    apiVersion: 'awesome.bears.com/v1',
    kind: 'Panda',
    metadata: { name: 'config-obj' },
    spec: { nameCheck: 'crd-test-k8s' },
  }
  const objects = () => {
    const policy = withValidations(
      [{ expression: 'params.spec.nameCheck == object.metadata.name' }],
      withNamespaceMatch(
        withParams(
          withCRDParamKind('Panda', 'awesome.bears.com', 'v1'),
          withFailurePolicy('Fail', makePolicy('test-policy')),
        ),
      ),
    )
    const binding = makeBinding('crd-policy-binding', 'test-policy', 'config-obj')
    // remove default namespace since the CRD is cluster-scoped
    if (binding.spec.paramRef) binding.spec.paramRef.namespace = ''
    return [pandasCRD, resource, withWaitReadyConstraintAndExpression(policy), binding]
  }
  it('a rule that uses data from a CRD param resource does NOT pass', () => {
    expectOutcome(
      build(objects()).validate(namespace('incorrect-name')),
      `namespaces "incorrect-name" is forbidden: ValidatingAdmissionPolicy 'test-policy' with binding 'crd-policy-binding' denied request: failed expression: params.spec.nameCheck == object.metadata.name`,
      'Invalid',
    )
  })
  it('a rule that uses data from a CRD param resource that does pass', () => {
    expectOutcome(build(objects()).validate(namespace('crd-test-k8s')), '')
  })
})

describe('TestBindingRemoval', () => {
  const policy = withWaitReadyConstraintAndExpression(
    withValidations(
      [{ expression: 'false', message: 'policy still in effect' }],
      withNamespaceMatch(withFailurePolicy('Fail', makePolicy('test-policy'))),
    ),
  )
  // the policy has no paramKind: the binding's paramRef is ignored
  const binding = makeBinding('test-binding', 'test-policy', 'test-params')
  it('active with the binding, inactive once it is deleted', () => {
    expect(errorText(build([policy, binding]).validate(namespace('check-namespacexk2j9')))).toContain(
      'policy still in effect',
    )
    expect(errorText(build([policy]).validate(namespace('test-namespacepq7r3')))).toBe('')
  })
})

describe('Test_ValidateSecondaryAuthorization', () => {
  // RBAC offline: the PolicyRules granted to the principal become rulesAuthorizer rules (a rule without
  // a subresource grants the main resource only, as RBAC's "resource" vs "resource/subresource").
  interface PolicyRule {
    verbs: string[]
    apiGroups: string[]
    resources: string[]
    resourceNames?: string[]
  }
  const grant = (user: string, rules: PolicyRule[]): AuthzRule[] =>
    rules.flatMap((r) =>
      r.resources.map((res) => {
        const [resource, subresource = ''] = res.split('/')
        return {
          user,
          verb: r.verbs,
          apiGroup: r.apiGroups,
          resource: resource as string,
          subresource,
          ...(r.resourceNames ? { name: r.resourceNames } : {}),
          decision: 'allow' as const,
        }
      }),
    )
  const cases: {
    name: string
    rbac?: PolicyRule
    expression: string
    allowed: boolean
    extraAccount?: { namespace: string; name: string }
    extraAccountRbac?: PolicyRule
  }[] = [
    {
      name: 'principal is allowed to create a specific deployment',
      rbac: {
        verbs: ['create'],
        apiGroups: ['apps'],
        resources: ['deployments/status'],
        resourceNames: ['charmander'],
      },
      expression:
        "authorizer.group('apps').resource('deployments').subresource('status').namespace('default').namespace('default').name('charmander').check('create').allowed()",
      allowed: true,
    },
    {
      name: 'principal is not allowed to create a specific deployment',
      expression:
        "authorizer.group('apps').resource('deployments').subresource('status').namespace('default').name('charmander').check('create').allowed()",
      allowed: false,
    },
    {
      name: 'principal is authorized for custom verb on current resource',
      rbac: { verbs: ['anthropomorphize'], apiGroups: [''], resources: ['namespaces'] },
      expression: "authorizer.requestResource.check('anthropomorphize').allowed()",
      allowed: true,
    },
    {
      name: 'principal is not authorized for custom verb on current resource',
      expression: "authorizer.requestResource.check('anthropomorphize').allowed()",
      allowed: false,
    },
    {
      name: 'serviceaccount is authorized for custom verb on current resource',
      extraAccount: { namespace: 'default', name: 'extra-acct' },
      extraAccountRbac: { verbs: ['anthropomorphize'], apiGroups: [''], resources: ['pods'] },
      expression:
        "authorizer.serviceAccount('default', 'extra-acct').group('').resource('pods').check('anthropomorphize').allowed()",
      allowed: true,
    },
  ]
  const clients = {
    user: { username: 'alice', uid: '1234', groups: ['system:authenticated'] },
    serviceaccount: {
      username: 'system:serviceaccount:default:test-service-acct',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    },
  }
  for (const c of cases) {
    for (const [clientName, user] of Object.entries(clients)) {
      it(`${c.name} / ${clientName}`, () => {
        // Principal is always allowed to create and update namespaces
        const base: PolicyRule[] = [{ verbs: ['create', 'update'], apiGroups: [''], resources: ['namespaces'] }]
        const rules = grant(user.username, [...base, ...(c.rbac ? [c.rbac] : [])])
        if (c.extraAccount) {
          const sa = `system:serviceaccount:${c.extraAccount.namespace}:${c.extraAccount.name}`
          rules.push(...grant(sa, [...base, ...(c.extraAccountRbac ? [c.extraAccountRbac] : [])]))
        }
        const policy = withWaitReadyConstraintAndExpression(
          withValidations(
            [{ expression: c.expression }],
            withFailurePolicy('Fail', withNamespaceMatch(makePolicy('validate-authz'))),
          ),
        )
        const set = build([policy, makeBinding('validate-authz-binding', 'validate-authz', '')], {
          authorize: rulesAuthorizer(rules),
        })
        const r = set.validate(
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'test-authz' } },
          { userInfo: user },
        )
        if (c.allowed) expect(errorText(r)).toBe('')
        else expect(r.status?.reason).toBe('Invalid')
      })
    }
  }
})

describe('TestCRDsOnStartup', () => {
  // The restart of the apiserver has no offline counterpart; the check before and after it is the same:
  // a namespaced CRD param (cr.bar.com/v1 Foo) works with the policy.
  const myCRD = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.cr.bar.com' },
    spec: {
      group: 'cr.bar.com',
      scope: 'Namespaced',
      names: { plural: 'foos', kind: 'Foo' },
      versions: [{ name: 'v1', served: true, storage: true, schema: allowAllSchema }],
    },
  }
  // "a bunch of fake CRDs to make the initial startup sync take a long time"
  const fakeCRDs = Array.from({ length: 100 }, (_, i) => ({
    ...myCRD,
    metadata: { name: `foos${i}.cr.bar.com` },
    spec: { ...myCRD.spec, names: { plural: `foos${i}`, kind: `Foo${i}` } },
  }))
  const param = {
    apiVersion: 'cr.bar.com/v1',
    kind: 'Foo',
    metadata: { name: 'test', namespace: 'default' },
    foo: 'bar',
  }
  it('doCheck: a not-test- namespace is denied with "wrong prefix"', () => {
    const policy = withWaitReadyConstraintAndExpression(
      withValidations(
        [{ expression: 'object.metadata.name.startsWith(params.metadata.name)', message: 'wrong prefix' }],
        withParams(
          withCRDParamKind('Foo', 'cr.bar.com', 'v1'),
          withNamespaceMatch(withFailurePolicy('Fail', makePolicy('allowed-prefixes'))),
        ),
      ),
    )
    const set = build([
      ...fakeCRDs,
      myCRD,
      param,
      policy,
      makeBinding('allowed-prefixes-binding', 'allowed-prefixes', 'test'),
    ])
    expect(errorText(set.validate(namespace('not-test-zz9k1')))).toContain('wrong prefix')
  })
})

describe('TestAuthorizationDecisionCaching', () => {
  // A webhook authorizer answering allowed, with reason = the count of 'test' checks so far; the
  // apiserver's own webhook cache is off, so only the policy plugin's per-request caching authorizer
  // (validating/dispatcher.go NewCachingAuthorizer) can make two identical checks agree.
  const counting = (): Authorize => {
    let nChecks = 0
    return (a) => {
      if (a.verb === 'test') {
        nChecks++
        return { decision: 'Allow', reason: `${nChecks}` }
      }
      return { decision: 'Allow', reason: '' }
    }
  }
  const cases = [
    {
      name: 'hit',
      validations: [
        {
          expression:
            "authorizer.requestResource.check('test').reason() == authorizer.requestResource.check('test').reason()",
        },
      ],
    },
    {
      name: 'miss',
      validations: [
        { expression: "authorizer.requestResource.subresource('a').check('test').reason() == '1'" },
        { expression: "authorizer.requestResource.subresource('b').check('test').reason() == '2'" },
        { expression: "authorizer.requestResource.subresource('c').check('test').reason() == '3'" },
      ],
    },
  ]
  for (const tc of cases) {
    it(tc.name, () => {
      const policy = makePolicy('test-authorization-decision-caching-policy')
      policy.spec.matchConstraints = {
        resourceRules: [
          {
            resourceNames: ['test-authorization-decision-caching-namespace'],
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['namespaces'],
          },
        ],
      }
      policy.spec.validations = tc.validations
      const set = build(
        [
          withWaitReadyConstraintAndExpression(policy),
          makeBinding(`${policy.metadata.name}-binding`, policy.metadata.name, ''),
        ],
        { authorize: counting() },
      )
      const r = set.validate(
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'test-authorization-decision-caching-namespace' } },
        { userInfo: { username: 'alice', uid: '1234', groups: ['system:authenticated'] } },
      )
      expect(errorText(r)).toBe('')
    })
  }
})
