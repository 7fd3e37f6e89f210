import { describe, expect, it } from 'vitest'
import { type AdmitResult, PolicySet } from '../../src/engine/policy-set.js'

// The plugin-level tests of apiserver pkg/admission/plugin/policy/validating/admission_test.go
// (release-1.36), run through the engine. Expected values are the Go test's.
//
// Offline adaptation. The Go tests plug a fake compiler (a Go function answering Validate) and a fake
// matcher (DefaultMatch: true) into the real dispatcher; here the policies are real:
// * "matches everything" is a matchConstraints rule of `*` groups, versions, resources and operations;
// * a validator answering Deny with message M is a validation `false` with message M (or a
//   messageExpression when the Go function looks at the params); one answering Admit is `true`;
// * the Go tests' UpdateAndWait / DeleteAndWait are a new PolicySet with the objects then present.
// The param kinds are the Go test's RESTMappings (example.com/v1 ParamsConfig, namespaced;
// ClusterScopedParamsConfig, cluster-scoped), given here as CRDs; a request is a CREATE of a
// ParamsConfig object (attributeRecord(nil, fakeParams, admission.Create)).
// Not transcribed: TestPluginNotReady (informer readiness: no offline counterpart) and the counts of
// compilations and evaluations (numCompiles, evaluations: internals of the Go plugin's cache).

type JSONObject = Record<string, unknown>
const AR = 'admissionregistration.k8s.io/v1'

const paramsCRD = (kind: string, plural: string, scope: 'Namespaced' | 'Cluster') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.example.com` },
  spec: {
    group: 'example.com',
    names: { kind, plural },
    scope,
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
})
const CRDS = [
  paramsCRD('ParamsConfig', 'paramsconfigs', 'Namespaced'),
  paramsCRD('ClusterScopedParamsConfig', 'clusterscopedparamsconfigs', 'Cluster'),
]

const matchEverything = {
  resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }],
}

interface Validation {
  expression: string
  message?: string
  messageExpression?: string
}
interface PolicyOpts {
  name?: string
  paramKind?: { apiVersion: string; kind: string } | null
  validations?: Validation[]
  auditAnnotations?: { key: string; valueExpression: string }[]
  matchConditions?: { name: string; expression: string }[]
}
const paramsGVK = { apiVersion: 'example.com/v1', kind: 'ParamsConfig' }
const clusterScopedParamsGVK = { apiVersion: 'example.com/v1', kind: 'ClusterScopedParamsConfig' }

/** denyPolicy (its fake validator: Deny "Denied"). */
function denyPolicy(o: PolicyOpts = {}): JSONObject {
  const paramKind = o.paramKind === undefined ? paramsGVK : o.paramKind
  return {
    apiVersion: AR,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: o.name ?? 'denypolicy.example.com', resourceVersion: '1' },
    spec: {
      ...(paramKind !== null ? { paramKind } : {}),
      failurePolicy: 'Fail',
      matchConstraints: matchEverything,
      ...(o.matchConditions ? { matchConditions: o.matchConditions } : {}),
      ...(o.auditAnnotations ? { auditAnnotations: o.auditAnnotations } : {}),
      ...(o.validations?.length === 0
        ? {}
        : { validations: o.validations ?? [{ expression: 'false', message: 'Denied' }] }),
    },
  }
}

const fakeParams = {
  apiVersion: 'example.com/v1',
  kind: 'ParamsConfig',
  metadata: { name: 'replicas-test.example.com', namespace: 'default', resourceVersion: '1' },
  maxReplicas: 3,
}

interface BindingOpts {
  name?: string
  policyName?: string
  paramRef?: JSONObject | null
  actions?: string[]
}
/** denyBinding (paramRef to fakeParams, parameterNotFoundAction Deny, actions [Deny]). */
function denyBinding(o: BindingOpts = {}): JSONObject {
  const paramRef =
    o.paramRef === undefined
      ? { name: fakeParams.metadata.name, namespace: fakeParams.metadata.namespace, parameterNotFoundAction: 'Deny' }
      : o.paramRef
  return {
    apiVersion: AR,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: o.name ?? 'denybinding.example.com', resourceVersion: '1' },
    spec: {
      policyName: o.policyName ?? 'denypolicy.example.com',
      ...(paramRef !== null ? { paramRef } : {}),
      validationActions: o.actions ?? ['Deny'],
    },
  }
}
const denyBindingWithNoParamRef = (actions = ['Deny']) => denyBinding({ paramRef: null, actions })

/** The objects must load as a cluster would accept them (`trusted`: the Go fake tracker validates nothing). */
function build(objects: unknown[], trusted = false): PolicySet {
  const set = PolicySet.build([...CRDS, ...objects], trusted ? { trusted: true } : {})
  expect(set.problems.map((p) => p.message)).toEqual([])
  return set
}

/** The error text of Dispatch ('' when admitted). */
const err = (r: AdmitResult) => (r.allowed ? '' : (r.status?.message ?? '<no status>'))

const ValidationFailureKey = 'validation.policy.admission.k8s.io/validation_failure'

describe('TestBasicPolicyDefinitionFailure', () => {
  it('the evaluator is executed and returns a denial; no warnings, no annotations', () => {
    const r = build([fakeParams, denyPolicy(), denyBinding()]).validate(fakeParams)
    expect(r.warnings).toHaveLength(0)
    expect(r.auditAnnotations).toEqual({})
    expect(err(r)).toContain('Denied')
    // the Forbidden status of dispatcher.go (admission.NewForbidden, reason Invalid → 422, the message as a cause)
    const message =
      "ValidatingAdmissionPolicy 'denypolicy.example.com' with binding 'denybinding.example.com' denied request: Denied"
    expect(r.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: `paramsconfigs.example.com "replicas-test.example.com" is forbidden: ${message}`,
      reason: 'Invalid',
      code: 422,
      details: {
        group: 'example.com',
        kind: 'paramsconfigs',
        name: 'replicas-test.example.com',
        causes: [{ message }],
      },
    })
  })
})

describe('TestDefinitionDoesntMatch', () => {
  // The fake matcher matches names of even length; here a matchCondition decides the same
  // (a definition that does not match and a false matchCondition both leave the request alone).
  const policy = denyPolicy({
    matchConditions: [{ name: 'even-length', expression: 'object.metadata.name.size() % 2 == 0' }],
  })
  const set = build([fakeParams, policy, denyBinding()])
  it('a non-matching input passes', () => {
    const nonMatching = {
      apiVersion: 'example.com/v1',
      kind: 'ParamsConfig',
      metadata: { name: 'oddlength', resourceVersion: '1' },
    }
    expect(err(set.validate(nonMatching))).toBe('')
  })
  it('a matching input is denied', () => {
    const matching = {
      apiVersion: 'example.com/v1',
      kind: 'ParamsConfig',
      metadata: { name: 'evenlength', resourceVersion: '1' },
    }
    expect(err(set.validate(matching))).toContain('Denied')
  })
})

describe('TestReconfigureBinding', () => {
  const fakeParams2 = {
    apiVersion: 'example.com/v1',
    kind: 'ParamsConfig',
    metadata: { name: 'replicas-test2.example.com', namespace: 'default', resourceVersion: '2' },
    maxReplicas: 35,
  }
  const denyBinding2 = denyBinding({
    paramRef: { name: fakeParams2.metadata.name, namespace: 'default', parameterNotFoundAction: 'Deny' },
  })
  it('fails first due to the binding unconditionally failing', () => {
    expect(err(build([fakeParams, denyPolicy(), denyBinding()]).validate(fakeParams))).toContain('Denied')
  })
  it('binding pointed at params that do not exist', () => {
    expect(err(build([fakeParams, denyPolicy(), denyBinding2]).validate(fakeParams))).toContain(
      'no params found for policy binding with `Deny` parameterNotFoundAction',
    )
  })
  it('the missing params added: a true policy failure again, not a configuration error', () => {
    expect(err(build([fakeParams, denyPolicy(), denyBinding2, fakeParams2]).validate(fakeParams))).toContain('Denied')
  })
})

describe('TestRemoveDefinition', () => {
  it('a policy in effect stops being in effect when removed', () => {
    expect(err(build([fakeParams, denyPolicy(), denyBinding()]).validate(fakeParams))).toContain('Denied')
    expect(err(build([fakeParams, denyBinding()]).validate(fakeParams))).toBe('')
  })
})

describe('TestRemoveBinding', () => {
  it('a binding in effect denies', () => {
    // (the Go test deletes the binding afterwards and asserts nothing more)
    expect(err(build([fakeParams, denyPolicy(), denyBinding()]).validate(fakeParams))).toContain('Denied')
  })
})

describe('TestInvalidParamSourceGVK', () => {
  it('a paramKind naming an unknown kind is a policy configuration error', () => {
    const bad = denyPolicy({ paramKind: { apiVersion: 'example.com/v1', kind: 'BadParamKind' } })
    expect(err(build([bad, denyBinding()]).validate(fakeParams))).toContain(
      "failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=BadParamKind'",
    )
  })
})

describe('TestInvalidParamSourceInstanceName', () => {
  it('a param that does not exist: not found, not a missing CRD', () => {
    expect(err(build([denyPolicy(), denyBinding()]).validate(fakeParams))).toContain(
      'no params found for policy binding with `Deny` parameterNotFoundAction',
    )
  })
})

describe('TestEmptyParamRef', () => {
  it('the policy is evaluated with null params when the binding has no paramRef', () => {
    // the fake validator admits when given params, denies "Denied" when params is nil
    const policy = denyPolicy({ validations: [{ expression: 'params != null', message: 'Denied' }] })
    expect(err(build([policy, denyBindingWithNoParamRef()]).validate(fakeParams))).toContain('Denied')
  })
})

describe('TestEmptyParamSource', () => {
  it('a policy without paramKind works, with nil params (a paramRef would be ignored)', () => {
    const noParamSourcePolicy = denyPolicy({ paramKind: null })
    expect(err(build([noParamSourcePolicy, denyBindingWithNoParamRef()]).validate(fakeParams))).toContain('Denied')
  })
})

describe('TestMultiplePoliciesSharedParamType', () => {
  const policy1 = (withParams: boolean) =>
    denyPolicy({
      name: 'denypolicy1.example.com',
      paramKind: withParams ? paramsGVK : null,
      validations: [{ expression: 'true' }],
    })
  const policy2 = denyPolicy({
    name: 'denypolicy2.example.com',
    validations: [{ expression: 'false', message: 'Policy2Denied' }],
  })
  const binding1 = (withParams: boolean) =>
    denyBinding({
      name: 'denybinding1.example.com',
      policyName: 'denypolicy1.example.com',
      ...(withParams ? {} : { paramRef: null }),
    })
  const binding2 = denyBinding({ name: 'denybinding2.example.com', policyName: 'denypolicy2.example.com' })
  it('both policies use the param type', () => {
    expect(err(build([fakeParams, policy1(true), binding1(true), policy2, binding2]).validate(fakeParams))).toContain(
      'Denied',
    )
  })
  it('policy1 stops using the param: policy2 keeps behaving normally', () => {
    expect(err(build([fakeParams, policy1(false), binding1(false), policy2, binding2]).validate(fakeParams))).toContain(
      'Policy2Denied',
    )
  })
})

describe('TestNativeTypeParam', () => {
  it('a native-typed (ConfigMap) param is passed, with its kind', () => {
    // the fake validator: Deny "correct type" when given a *v1.ConfigMap, else "Incorrect param type"
    const policy = denyPolicy({
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [
        {
          expression: 'false',
          messageExpression: "params.kind == 'ConfigMap' ? 'correct type' : 'Incorrect param type'",
        },
      ],
    })
    const configMapParam = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'replicas-test.example.com', namespace: 'default', resourceVersion: '1' },
      data: { coolkey: 'coolvalue' },
    }
    expect(err(build([policy, denyBinding(), configMapParam]).validate(fakeParams))).toContain('correct type')
  })
})

describe('validation actions', () => {
  const noParamSourcePolicy = denyPolicy({
    paramKind: null,
    validations: [{ expression: 'false', message: "I'm sorry Dave" }],
  })

  it('TestAuditValidationAction', () => {
    const r = build([noParamSourcePolicy, denyBindingWithNoParamRef(['Audit'])]).validate(fakeParams)
    expect(r.warnings).toHaveLength(0)
    expect(Object.keys(r.auditAnnotations)).toHaveLength(1)
    expect(JSON.parse(r.auditAnnotations[ValidationFailureKey] ?? 'null')).toEqual([
      {
        expressionIndex: 0,
        message: "I'm sorry Dave",
        validationActions: ['Audit'],
        binding: 'denybinding.example.com',
        policy: 'denypolicy.example.com',
      },
    ])
    expect(err(r)).toBe('')
  })

  it('TestWarnValidationAction', () => {
    const r = build([noParamSourcePolicy, denyBindingWithNoParamRef(['Warn'])]).validate(fakeParams)
    expect(r.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'denypolicy.example.com' with binding 'denybinding.example.com': I'm sorry Dave",
    ])
    expect(r.auditAnnotations).toEqual({})
    expect(err(r)).toBe('')
    // kelp's own: the violation carries the warning it added (a report pairs them without writing it again)
    expect(r.violations.map((v) => v.warning)).toEqual(r.warnings)
  })

  it('TestAllValidationActions', () => {
    // Deny and Warn together: API validation refuses it, the Go test's fake tracker does not (trusted)
    const r = build([noParamSourcePolicy, denyBindingWithNoParamRef(['Deny', 'Warn', 'Audit'])], true).validate(
      fakeParams,
    )
    expect(r.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'denypolicy.example.com' with binding 'denybinding.example.com': I'm sorry Dave",
    ])
    expect(Object.keys(r.auditAnnotations)).toHaveLength(1)
    expect(JSON.parse(r.auditAnnotations[ValidationFailureKey] ?? 'null')).toEqual([
      {
        expressionIndex: 0,
        message: "I'm sorry Dave",
        validationActions: ['Deny', 'Warn', 'Audit'],
        binding: 'denybinding.example.com',
        policy: 'denypolicy.example.com',
      },
    ])
    expect(err(r)).toContain("I'm sorry Dave")
  })
})

describe('TestNamespaceParamRefName', () => {
  // paramRef by name, no namespace: the param is looked up in the request's namespace
  const policy = denyPolicy({
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [
      {
        expression: 'false',
        messageExpression:
          "params.kind == 'ConfigMap' ? 'correct type in ' + params.metadata.namespace : 'Incorrect param type'",
      },
    ],
  })
  // parameterNotFoundAction set: the Go table builds the binding without the API's validation, which requires it
  const binding = denyBinding({ paramRef: { name: 'replicas-test.example.com', parameterNotFoundAction: 'Allow' } })
  const cm = (ns: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'replicas-test.example.com', namespace: ns, resourceVersion: '1' },
    data: { coolkey: ns },
  })
  const [configMapParam, configMapParam2, configMapParam3] = [cm('default'), cm('mynamespace'), cm('othernamespace')]
  const set = build([policy, binding, configMapParam, configMapParam2, configMapParam3])
  it('each request sees the param of its own namespace', () => {
    const observed: string[] = []
    for (const req of [configMapParam, configMapParam2, configMapParam3, configMapParam]) {
      const e = err(set.validate(req))
      expect(e).toContain('correct type')
      observed.push(e.slice(e.lastIndexOf(' ') + 1))
    }
    expect(observed).toEqual(['default', 'mynamespace', 'othernamespace', 'default'])
  })
})

describe('TestParamRef', () => {
  const matchingParamName = 'replicas-test.example.com'
  const matchingNamespace = 'mynamespace'
  const nonMatchingNamespace = 'othernamespace'
  const matchingLabels = { doesitmatch: 'yes' }
  const nonmatchingLabels = { doesitmatch: 'no' }
  const otherNonmatchingLabels = { notaffiliated: 'no' }

  type Param = {
    apiVersion: string
    kind: string
    metadata: { name: string; namespace?: string; resourceVersion: string; labels?: Record<string, string> }
  }
  const newParam = (name: string, namespace: string, labels?: Record<string, string>): Param => ({
    apiVersion: 'example.com/v1',
    kind: 'ParamsConfig',
    metadata: { name, namespace: namespace || 'default', resourceVersion: '1', ...(labels ? { labels } : {}) },
  })
  const newClusterScopedParam = (name: string, labels?: Record<string, string>): Param => ({
    apiVersion: 'example.com/v1',
    kind: 'ClusterScopedParamsConfig',
    metadata: { name, resourceVersion: '1', ...(labels ? { labels } : {}) },
  })
  // Create library of params to try to fool the controller
  const params: Param[] = [
    newParam(matchingParamName, 'default', nonmatchingLabels),
    newParam(matchingParamName, matchingNamespace, nonmatchingLabels),
    newParam(matchingParamName, nonMatchingNamespace, nonmatchingLabels),

    newParam(`${matchingParamName}1`, 'default', matchingLabels),
    newParam(`${matchingParamName}1`, matchingNamespace, matchingLabels),
    newParam(`${matchingParamName}1`, nonMatchingNamespace, matchingLabels),

    newParam(`${matchingParamName}2`, 'default', otherNonmatchingLabels),
    newParam(`${matchingParamName}2`, matchingNamespace, otherNonmatchingLabels),
    newParam(`${matchingParamName}2`, nonMatchingNamespace, otherNonmatchingLabels),

    newParam(`${matchingParamName}3`, 'default', otherNonmatchingLabels),
    newParam(`${matchingParamName}3`, matchingNamespace, matchingLabels),
    newParam(`${matchingParamName}3`, nonMatchingNamespace, matchingLabels),

    newClusterScopedParam(matchingParamName, matchingLabels),
    newClusterScopedParam(`${matchingParamName}1`, nonmatchingLabels),
    newClusterScopedParam(`${matchingParamName}2`, otherNonmatchingLabels),
    newClusterScopedParam(`${matchingParamName}3`, matchingLabels),
    newClusterScopedParam(`${matchingParamName}4`, nonmatchingLabels),
    newClusterScopedParam(`${matchingParamName}5`, otherNonmatchingLabels),
  ]
  // The Go test's names are "some param" and "other param"; names with a space are not valid object
  // names, and kelp validates custom resources before admission (the Go fake tracker does not).
  const namespacedRequestObject = newParam('some-param', nonMatchingNamespace)
  const clusterScopedRequestObject = newClusterScopedParam('other-param')

  const id = (p: Param) => `${p.kind}:${p.metadata.namespace ?? ''}/${p.metadata.name}`
  // the fake validator observes its params: each evaluation's Deny names its param
  const observedParams = (r: AdmitResult) =>
    r.violations
      .map((v) => v.message)
      .filter((m) => m.startsWith('Denied by policy '))
      .map((m) => m.slice(17))

  for (const paramIsClusterScoped of [false, true]) {
    for (const nameIsSet of [false, true]) {
      for (const namespaceIsSet of [false, true]) {
        if (paramIsClusterScoped && namespaceIsSet) continue // Skip invalid configuration
        for (const selectorIsSet of [false, true]) {
          if (selectorIsSet && nameIsSet) continue // Skip invalid configuration
          for (const denyNotFound of [false, true]) {
            let name = 'ParamRef'
            if (paramIsClusterScoped) name = `ClusterScoped${name}`
            if (nameIsSet) name += 'WithName'
            else if (selectorIsSet) name += 'WithLabelSelector'
            else name += 'WithEverythingSelector'
            if (namespaceIsSet) name += 'WithNamespace'
            name += denyNotFound ? 'DenyNotFound' : 'AllowNotFound'

            it(name, () => {
              const paramKind = paramIsClusterScoped ? clusterScopedParamsGVK : paramsGVK
              const paramRef: {
                name?: string
                namespace?: string
                selector?: { matchLabels?: Record<string, string> }
                parameterNotFoundAction: string
              } = { parameterNotFoundAction: denyNotFound ? 'Deny' : 'Allow' }
              if (nameIsSet) paramRef.name = matchingParamName
              else if (selectorIsSet) paramRef.selector = { matchLabels: matchingLabels }
              else paramRef.selector = {}
              if (namespaceIsSet) paramRef.namespace = matchingNamespace
              const shouldErrorOnClusterScopedRequests = !namespaceIsSet && !paramIsClusterScoped

              const policy = denyPolicy({
                paramKind,
                validations: [
                  {
                    expression: 'false',
                    messageExpression:
                      "'Denied by policy ' + params.kind + ':' + (has(params.metadata.namespace) ? params.metadata.namespace : '') + '/' + params.metadata.name",
                  },
                ],
              })
              const binding = denyBinding({ paramRef })

              const selects = (p: Param) => {
                if (paramRef.selector === undefined) return true
                const ml = paramRef.selector.matchLabels ?? {}
                // Empty selector matches everything
                if (Object.keys(ml).length === 0) return true
                return Object.entries(ml).every(([k, v]) => p.metadata.labels?.[k] === v)
              }
              const ofKind = (p: Param) => p.apiVersion === paramKind.apiVersion && p.kind === paramKind.kind
              const expectedForNamespaced = params.filter(
                (p) =>
                  ofKind(p) &&
                  !(paramRef.name && p.metadata.name !== paramRef.name) &&
                  !(paramRef.namespace && p.metadata.namespace !== paramRef.namespace) &&
                  // a namespaced kind without paramRef.namespace only matches params of the request's namespace
                  !(
                    !paramIsClusterScoped &&
                    !paramRef.namespace &&
                    p.metadata.namespace !== namespacedRequestObject.metadata.namespace
                  ) &&
                  selects(p),
              )
              const expectedForClusterScoped = shouldErrorOnClusterScopedRequests
                ? []
                : params.filter(
                    (p) =>
                      ofKind(p) &&
                      !(paramRef.name && p.metadata.name !== paramRef.name) &&
                      !(paramRef.namespace && p.metadata.namespace !== paramRef.namespace) &&
                      !(!paramIsClusterScoped && !paramRef.namespace && p.metadata.namespace !== 'default') &&
                      selects(p),
                  )

              const set = build([...params, policy, binding])
              expect(expectedForNamespaced.length).toBeGreaterThan(0) // all test cases should match at least one param
              let r = set.validate(namespacedRequestObject)
              expect(err(r)).toContain('Denied by policy')
              expect(observedParams(r).sort()).toEqual(expectedForNamespaced.map(id).sort())

              r = set.validate(clusterScopedRequestObject)
              if (shouldErrorOnClusterScopedRequests) {
                // Cannot validate cluster-scoped resources against a paramRef that sets namespace
                expect(err(r)).toContain(
                  'failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
                )
              } else {
                expect(expectedForClusterScoped.length).toBeGreaterThan(0)
                expect(err(r)).toContain('Denied by policy')
              }
              expect(observedParams(r).sort()).toEqual(expectedForClusterScoped.map(id).sort())

              // Remove all params matched by namespaced and cluster-scoped validation: NotFoundAction
              const deleted = new Set([...expectedForNamespaced, ...expectedForClusterScoped])
              const after = build([...params.filter((p) => !deleted.has(p)), policy, binding])
              r = after.validate(namespacedRequestObject)
              if (denyNotFound)
                expect(err(r)).toContain('no params found for policy binding with `Deny` parameterNotFoundAction')
              else expect(err(r)).toBe('') // Allow: the policy is skipped
              expect(observedParams(r)).toEqual([])

              r = after.validate(clusterScopedRequestObject)
              if (shouldErrorOnClusterScopedRequests)
                expect(err(r)).toContain(
                  'failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
                )
              else if (denyNotFound)
                expect(err(r)).toContain('no params found for policy binding with `Deny` parameterNotFoundAction')
              else expect(err(r)).toBe('')
              expect(observedParams(r)).toEqual([])
            })
          }
        }
      }
    }
  }
})

describe('TestNamespaceParamRefClusterScopedParamError', () => {
  it('paramRef.namespace with a cluster-scoped paramKind is a configuration error; nothing evaluated', () => {
    // ValidatingAdmissionPolicy as the param type since it is cluster-scoped. The Go test's RESTMapper
    // is given admissionregistration.k8s.io/v1beta1; a 1.36 cluster serves that beta version only when
    // enabled, so the served v1 stands in for it (the outcome is the same: a cluster-scoped kind).
    const policy = denyPolicy({
      paramKind: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy' },
      validations: [{ expression: 'true', message: 'correct type' }],
    })
    // no parameterNotFoundAction (the Go fake tracker does not default it, and the API refuses a v1 binding
    // without it: trusted, as the Go test hands the object to the plugin without the API's validation)
    const binding = denyBinding({
      paramRef: { name: 'other-param-to-use-with-no-label.example.com', namespace: 'mynamespace' },
    })
    const r = build([policy, binding], true).validate(fakeParams)
    expect(err(r)).toContain('paramRef.namespace must not be provided for a cluster-scoped `paramKind`')
    expect(r.violations.filter((v) => v.evaluation === 'Deny')).toEqual([])
  })
})

describe('TestAuditAnnotations', () => {
  it('distinct values of the bindings joined; excluded and errored ones not published; errors deny', () => {
    // The fake validator's annotations: example-key (special-value for replicas-test2, else
    // normal-value) published, excluded-key excluded, error-key an error "example error".
    const policy = denyPolicy({
      validations: [],
      auditAnnotations: [
        {
          key: 'example-key',
          valueExpression: "params.metadata.name == 'replicas-test2.example.com' ? 'special-value' : 'normal-value'",
        },
        { key: 'excluded-key', valueExpression: 'null' },
        // a runtime error whose text carries "example error" (string(): a dyn result does not
        // type-check as [string null_type])
        { key: 'error-key', valueExpression: "string(params.metadata['example error'])" },
      ],
    })
    const withName = (name: string) => ({ ...fakeParams, metadata: { ...fakeParams.metadata, name } })
    const fakeParams2 = withName('replicas-test2.example.com')
    const fakeParams3 = withName('replicas-test3.example.com')
    const ref = (name: string) => ({ name, namespace: 'default', parameterNotFoundAction: 'Deny' })
    const denyBinding2 = denyBinding({ name: 'denybinding2.example.com', paramRef: ref(fakeParams2.metadata.name) })
    const denyBinding3 = denyBinding({ name: 'denybinding3.example.com', paramRef: ref(fakeParams3.metadata.name) })
    const r = build([fakeParams, fakeParams2, fakeParams3, policy, denyBinding(), denyBinding2, denyBinding3]).validate(
      fakeParams,
    )
    expect(Object.keys(r.auditAnnotations)).toHaveLength(1)
    const parts = (r.auditAnnotations['denypolicy.example.com/example-key'] ?? '').split(', ')
    expect(parts).toHaveLength(2)
    expect(parts).toContain('normal-value')
    expect(parts).toContain('special-value')
    expect(err(r)).toContain('example error')
  })
})

describe('Namespace requests carry their own name as namespace', () => {
  // endpoints/handlers/create.go: `if len(namespace) == 0 && scope.Resource == namespaceGVR { namespace = name }`
  // (and requestinfo.go takes it from the path /api/v1/namespaces/<name> for the other verbs), so
  // validating/dispatcher.go special-cases Namespace objects for namespaceObject.
  const policy = {
    apiVersion: AR,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'ns-policy' },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['namespaces'] }],
      },
      validations: [
        {
          expression: 'has(request.namespace) && request.namespace == request.name && namespaceObject == null',
          message: 'namespace not set',
        },
      ],
    },
  }
  const binding = { ...denyBinding({ paramRef: null }), spec: { policyName: 'ns-policy', validationActions: ['Deny'] } }
  const set = build([policy, binding])
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }
  it('CREATE', () => expect(err(set.validate(ns))).toBe(''))
  it('UPDATE', () => expect(err(set.validate(ns, { oldObject: ns }))).toBe(''))
  it('request() sets it', () => {
    const req = set.request(ns)
    expect('error' in req ? req.error : req.namespace).toBe('team-a')
  })
})

describe('dispatcher.go: failurePolicy on configuration errors, reasons and codes', () => {
  // Not a Go test case: the branches of validating/dispatcher.go Dispatch (addConfigError,
  // reasonToCode) that admission_test.go does not reach with its fake compiler.
  const withFailurePolicy = (p: JSONObject, failurePolicy: string) => ({
    ...p,
    spec: { ...(p.spec as JSONObject), failurePolicy },
  })
  it('failurePolicy Ignore drops a policy configuration error (addConfigError)', () => {
    const bad = withFailurePolicy(
      denyPolicy({ paramKind: { apiVersion: 'example.com/v1', kind: 'BadParamKind' } }),
      'Ignore',
    )
    expect(err(build([bad, denyBinding()]).validate(fakeParams))).toBe('')
  })
  it('failurePolicy Ignore drops a binding configuration error (params not found)', () => {
    const policy = withFailurePolicy(denyPolicy(), 'Ignore')
    expect(err(build([policy, denyBinding()]).validate(fakeParams))).toBe('')
  })
  it('a policy-level configuration error names no binding', () => {
    const bad = denyPolicy({ paramKind: { apiVersion: 'example.com/v1', kind: 'BadParamKind' } })
    const r = build([bad, denyBinding()]).validate(fakeParams)
    expect(r.status?.message).toBe(
      `paramsconfigs.example.com "replicas-test.example.com" is forbidden: ValidatingAdmissionPolicy 'denypolicy.example.com' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=BadParamKind'`,
    )
    expect([r.status?.reason, r.status?.code]).toEqual(['Invalid', 422])
  })
  for (const [reason, code] of [
    ['Forbidden', 403],
    ['Invalid', 422],
    ['RequestEntityTooLarge', 413],
  ] as const) {
    it(`reason ${reason} → ${code} (reasonToCode)`, () => {
      const policy = denyPolicy({ paramKind: null })
      ;((policy.spec as JSONObject).validations as JSONObject[])[0] = { expression: 'false', message: 'Denied', reason }
      const r = build([policy, denyBindingWithNoParamRef()]).validate(fakeParams)
      expect([r.status?.reason, r.status?.code]).toEqual([reason, code])
    })
  }
})
