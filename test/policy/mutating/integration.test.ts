import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../../src/engine/policy-set.js'

// kubernetes v1.37.2 test/integration/apiserver/cel/mutatingadmissionpolicy_test.go, case by case: the
// policies, bindings, params, request and expected object of each case are the Go test's (the helpers
// mutatingPolicy / mutatingBinding / withMutating* rebuilt as below). The marker-request machinery
// (withMutatingWaitReadyConstraintAndExpression) only waits for a cluster and is left out. The Go test
// compares after wipeUncheckedFields (GVK, resourceVersion, uid, creationTimestamp, managedFields) with
// cmpopts.EquateEmpty; so does `expectObject`.

type J = Record<string, unknown>

const matchEndpointResources: J = {
  resourceRules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['endpoints'] }],
}
const configMapParamKind: J = { apiVersion: 'v1', kind: 'ConfigMap' }

const ac = (expression: string): J => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } })
const jp = (expression: string): J => ({ patchType: 'JSONPatch', jsonPatch: { expression } })

function mutatingPolicy(
  name: string,
  reinvocationPolicy: 'Never' | 'IfNeeded',
  matchConstraints: J,
  paramKind: J | undefined,
  mutations: J[],
  extra: J = {},
): J {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints, ...(paramKind ? { paramKind } : {}), mutations, reinvocationPolicy, ...extra },
  }
}
let bindingSeq = 0
function mutatingBinding(policyName: string, paramRef?: J): J {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicyBinding',
    // the Go helper appends a UUID: policyName + "-binding-" + uuid
    metadata: { name: `${policyName}-binding-${String(++bindingSeq).padStart(4, '0')}` },
    spec: { policyName, ...(paramRef ? { paramRef } : {}) },
  }
}
const configMap = (name: string, data: Record<string, string>, labels?: Record<string, string>): J => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
  data,
})
const endpoints = (metadata: J): J => ({ apiVersion: 'v1', kind: 'Endpoints', metadata })

/** cmpopts.EquateEmpty: empty maps and lists are equal to absent ones. */
function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropEmpty)
  if (v !== null && typeof v === 'object') {
    const out: J = {}
    for (const [k, x] of Object.entries(v as J)) {
      const y = dropEmpty(x)
      if (y !== null && typeof y === 'object' && Object.keys(y as J).length === 0) continue
      out[k] = y
    }
    return out
  }
  return v
}
/** wipeUncheckedFields: GVK, resourceVersion, uid, creationTimestamp, managedFields. */
function wipe(o: J): J {
  const { apiVersion: _a, kind: _k, ...rest } = o
  const m = { ...((rest.metadata as J) ?? {}) }
  for (const f of ['resourceVersion', 'uid', 'creationTimestamp', 'managedFields']) delete m[f]
  return { ...rest, metadata: m }
}

interface Case {
  readonly policies: J[]
  readonly bindings?: J[]
  readonly params?: J[]
  readonly request: J
  readonly expected: J
  readonly operation?: 'CREATE' | 'UPDATE'
  readonly oldObject?: J
  readonly subResource?: string
  readonly extra?: J[]
}
function expectCase(c: Case): void {
  const set = PolicySet.build([...c.policies, ...(c.bindings ?? []), ...(c.params ?? []), ...(c.extra ?? [])])
  expect(set.problems).toEqual([])
  const r = set.validate(c.request, {
    ...(c.operation ? { operation: c.operation } : {}),
    ...(c.oldObject ? { oldObject: c.oldObject } : {}),
    ...(c.subResource ? { subResource: c.subResource } : {}),
  })
  expect(r.status?.message).toBeUndefined()
  expect(r.allowed).toBe(true)
  const got = r.mutatedObject ?? r.builtin?.object ?? c.request
  expect(dropEmpty(wipe(got as J))).toEqual(dropEmpty(wipe(c.expected)))
}

const incrementFoo = '?"foo": optional.of(string(int(object.metadata.annotations["foo"]) + 1))'

describe('mutatingadmissionpolicy_test.go TestMutatingAdmissionPolicy', () => {
  it('basic', () => {
    expectCase({
      policies: [
        mutatingPolicy('basic-policy', 'Never', matchEndpointResources, undefined, [
          ac(`
            Object{
              metadata: Object.metadata{
                annotations: {
                  "my-foo-annotation": "myAnnotationValue"
                }
              }
            }`),
        ]),
      ],
      bindings: [mutatingBinding('basic-policy')],
      request: endpoints({ name: 'basic-policy-object', namespace: 'default' }),
      expected: endpoints({
        name: 'basic-policy-object',
        namespace: 'default',
        annotations: { 'my-foo-annotation': 'myAnnotationValue' },
      }),
    })
  })

  it('multiple policies', () => {
    expectCase({
      policies: [
        mutatingPolicy('multi-policy-1', 'Never', matchEndpointResources, undefined, [
          ac('Object{metadata: Object.metadata{annotations: {"foo1": "foo1Value"}}}'),
        ]),
        mutatingPolicy('multi-policy-2', 'Never', matchEndpointResources, undefined, [
          ac('Object{metadata: Object.metadata{annotations: {"foo2": "foo2Value"}}}'),
        ]),
      ],
      bindings: [mutatingBinding('multi-policy-1'), mutatingBinding('multi-policy-2')],
      request: endpoints({ name: 'multi-policy-object', namespace: 'default' }),
      expected: endpoints({
        name: 'multi-policy-object',
        namespace: 'default',
        annotations: { foo1: 'foo1Value', foo2: 'foo2Value' },
      }),
    })
  })

  it('policy with native param', () => {
    expectCase({
      policies: [
        mutatingPolicy('policy-with-native', 'Never', matchEndpointResources, configMapParamKind, [
          ac('Object{metadata: Object.metadata{annotations: {params.data["key"]: params.data["value"]}}}'),
        ]),
      ],
      bindings: [
        mutatingBinding('policy-with-native', { name: 'policy-with-native-param', parameterNotFoundAction: 'Allow' }),
      ],
      params: [configMap('policy-with-native-param', { key: 'myFooKey', value: 'myFooValue' })],
      request: endpoints({ name: 'policy-with-native-object', namespace: 'default' }),
      expected: endpoints({
        name: 'policy-with-native-object',
        namespace: 'default',
        annotations: { myFooKey: 'myFooValue' },
      }),
    })
  })

  it('policy with multiple params quantified by single binding', () => {
    expectCase({
      policies: [
        mutatingPolicy('multi-param-binding', 'Never', matchEndpointResources, configMapParamKind, [
          ac('Object{metadata: Object.metadata{annotations: params.data}}'),
        ]),
      ],
      bindings: [
        mutatingBinding('multi-param-binding', {
          selector: { matchLabels: { 'multi-param-binding-param': 'true' } },
          namespace: 'default',
          parameterNotFoundAction: 'Allow',
        }),
      ],
      params: [
        configMap(
          'multi-param-binding-param-1',
          { 'multi-param-binding-key1': 'value1' },
          { 'multi-param-binding-param': 'true' },
        ),
        configMap(
          'multi-param-binding-param-2',
          { 'multi-param-binding-key2': 'value2', 'multi-param-binding-key3': 'value3' },
          { 'multi-param-binding-param': 'true' },
        ),
      ],
      request: endpoints({ name: 'multi-param-binding-object', namespace: 'default' }),
      expected: endpoints({
        name: 'multi-param-binding-object',
        namespace: 'default',
        annotations: {
          'multi-param-binding-key1': 'value1',
          'multi-param-binding-key2': 'value2',
          'multi-param-binding-key3': 'value3',
        },
      }),
    })
  })

  it('policy with variables', () => {
    expectCase({
      policies: [
        mutatingPolicy(
          'policy-with-multiple-mutations',
          'Never',
          matchEndpointResources,
          undefined,
          [
            ac('Object{metadata: Object.metadata{annotations: {"foo1": variables.foo1}}}'),
            jp(`[
              JSONPatch{op: "test", path: "/metadata/annotations", value: {"foo1": variables.foo1}},
              JSONPatch{op: "add", path: "/metadata/annotations/foo2", value: variables.foo2},
            ]`),
            ac('Object{metadata: Object.metadata{annotations: {"foo3": "foo3Value"}}}'),
          ],
          {
            variables: [
              { name: 'foo1', expression: '"foo1" + "Value"' },
              { name: 'foo2', expression: 'variables.foo1.replace("1", "2")' },
            ],
          },
        ),
      ],
      bindings: [mutatingBinding('policy-with-multiple-mutations')],
      request: endpoints({ name: 'policy-with-multiple-mutations-object', namespace: 'default' }),
      expected: endpoints({
        name: 'policy-with-multiple-mutations-object',
        namespace: 'default',
        annotations: { foo1: 'foo1Value', foo2: 'foo2Value', foo3: 'foo3Value' },
      }),
    })
  })

  it('match condition matches', () => {
    expectCase({
      policies: [
        mutatingPolicy(
          'policy-match-condition',
          'Never',
          matchEndpointResources,
          undefined,
          [ac('Object{metadata: Object.metadata{labels: {"applied": "updated"}}}')],
          {
            matchConditions: [
              { name: 'test-only', expression: 'object.metadata.?labels["environment"] == optional.of("test")' },
            ],
          },
        ),
      ],
      bindings: [mutatingBinding('policy-match-condition')],
      request: endpoints({ name: 'test-configmap', namespace: 'default', labels: { environment: 'test' } }),
      expected: endpoints({
        name: 'test-configmap',
        namespace: 'default',
        labels: { environment: 'test', applied: 'updated' },
      }),
    })
  })

  it('multiple policies requiring reinvocation', () => {
    const policy = (name: string, reinvocation: 'Never' | 'IfNeeded', applied: string) =>
      mutatingPolicy(name, reinvocation, matchEndpointResources, undefined, [
        ac(`Object{metadata: Object.metadata{annotations: {${incrementFoo}, "${applied}": "true"}}}`),
      ])
    expectCase({
      policies: [
        policy('policy-1', 'IfNeeded', 'firstApplied'),
        policy('policy-2', 'IfNeeded', 'secondApplied'),
        policy('policy-3', 'Never', 'thirdApplied'),
      ],
      bindings: [mutatingBinding('policy-1'), mutatingBinding('policy-2'), mutatingBinding('policy-3')],
      request: endpoints({ name: 'test-configmap', namespace: 'default', annotations: { foo: '0' } }),
      // 0->1, 1->2, 2->3, reinvocation of policy-1 3->4, of policy-2 4->5 (policy-3 is Never)
      expected: endpoints({
        name: 'test-configmap',
        namespace: 'default',
        annotations: { foo: '5', firstApplied: 'true', secondApplied: 'true', thirdApplied: 'true' },
      }),
    })
  })
})

describe('mutatingadmissionpolicy_test.go TestMutatingAdmissionPolicy_Slow', () => {
  it('unbound policy is no-op', () => {
    expectCase({
      policies: [
        mutatingPolicy('unbound-policy', 'Never', matchEndpointResources, undefined, [
          ac('Object{metadata: Object.metadata{annotations: {"foo": "fooValue"}}}'),
        ]),
      ],
      request: endpoints({ name: 'test-configmap', namespace: 'default' }),
      expected: endpoints({ name: 'test-configmap', namespace: 'default' }),
    })
  })

  it('failure policy ignore', () => {
    expectCase({
      policies: [
        mutatingPolicy(
          'policy',
          'Never',
          matchEndpointResources,
          undefined,
          [ac('Object{spec: Object.spec{invalidField: "invalid apply configuration"}}')],
          { failurePolicy: 'Ignore' },
        ),
      ],
      bindings: [mutatingBinding('policy')],
      request: endpoints({ name: 'test-configmap', namespace: 'default' }),
      expected: endpoints({ name: 'test-configmap', namespace: 'default' }),
    })
  })

  it('match condition does not match', () => {
    expectCase({
      policies: [
        mutatingPolicy(
          'policy-no-match-condition',
          'Never',
          matchEndpointResources,
          undefined,
          [ac('Object{metadata: Object.metadata{labels: {"applied": "updated"}}}')],
          {
            matchConditions: [
              { name: 'test-only', expression: 'object.metadata.?labels["environment"] == optional.of("test")' },
            ],
          },
        ),
      ],
      bindings: [mutatingBinding('policy-no-match-condition')],
      request: endpoints({ name: 'test-configmap', namespace: 'default', labels: { environment: 'production' } }),
      expected: endpoints({ name: 'test-configmap', namespace: 'default', labels: { environment: 'production' } }),
    })
  })

  it('some policy conditions match', () => {
    const policy = (name: string, env: string, applied: string) =>
      mutatingPolicy(
        name,
        'Never',
        matchEndpointResources,
        undefined,
        [ac(`Object{metadata: Object.metadata{labels: {"applied": "${applied}"}}}`)],
        {
          matchConditions: [
            { name: 'test-only', expression: `object.metadata.?labels["environment"] == optional.of("${env}")` },
          ],
        },
      )
    expectCase({
      policies: [policy('policy-1', 'production', 'wrong'), policy('policy-2', 'test', 'updated')],
      bindings: [mutatingBinding('policy-1'), mutatingBinding('policy-2')],
      request: endpoints({ name: 'test-configmap', namespace: 'default', labels: { environment: 'test' } }),
      expected: endpoints({
        name: 'test-configmap',
        namespace: 'default',
        labels: { environment: 'test', applied: 'updated' },
      }),
    })
  })

  it('mutate status subresource', () => {
    const set = PolicySet.build([
      mutatingPolicy(
        'subresource-status',
        'Never',
        {
          resourceRules: [
            { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces/status'] },
          ],
        },
        undefined,
        [
          ac(`Object{
            status: Object.status{
              conditions: [Object.status.conditions{
                type: "NamespaceDeletionContentFailure",
                message: "mutated"
              }]
            }
          }`),
        ],
      ),
      mutatingBinding('subresource-status'),
    ])
    expect(set.problems).toEqual([])
    // initialObject {metadata: {name: test-namespace}} as the apiserver stored it (namespace strategy
    // PrepareForCreate: the kubernetes.io/metadata.name label, finalizers [kubernetes], phase Active)
    const stored: J = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'test-namespace', labels: { 'kubernetes.io/metadata.name': 'test-namespace' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    }
    const request: J = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'test-namespace' },
      status: { conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'Unknown' }] },
    }
    const r = set.validate(request, { operation: 'UPDATE', oldObject: stored, subResource: 'status' })
    expect(r.allowed).toBe(true)
    // The Go test's expected object is the stored one: metadata and spec restored from the stored object
    // and phase Active by the status strategy (PrepareForUpdate, after admission; kelp's admission result
    // for a subresource stops before it). Its status.conditions, through toUnstructured, carry the zero
    // metav1.Time as lastTransitionTime: null, as the typed object the policy's result is decoded into does.
    expect((r.mutatedObject?.status as J | undefined)?.conditions).toEqual([
      { type: 'NamespaceDeletionContentFailure', status: 'Unknown', message: 'mutated', lastTransitionTime: null },
    ])
  })

  it('multiple bindings with different params', () => {
    expectCase({
      policies: [
        mutatingPolicy('multi-binding', 'Never', matchEndpointResources, configMapParamKind, [
          ac('Object{metadata: Object.metadata{annotations: params.data}}'),
        ]),
      ],
      bindings: [
        mutatingBinding('multi-binding', {
          name: 'multi-binding-param-1',
          namespace: 'default',
          parameterNotFoundAction: 'Allow',
        }),
        mutatingBinding('multi-binding', {
          name: 'multi-binding-param-2',
          namespace: 'default',
          parameterNotFoundAction: 'Allow',
        }),
      ],
      params: [
        configMap('multi-binding-param-1', { 'multi-binding-key1': 'value1' }),
        configMap('multi-binding-param-2', { 'multi-binding-key2': 'value2', 'multi-binding-key3': 'value3' }),
      ],
      request: endpoints({ name: 'multi-binding-object', namespace: 'default' }),
      expected: endpoints({
        name: 'multi-binding-object',
        namespace: 'default',
        annotations: { 'multi-binding-key1': 'value1', 'multi-binding-key2': 'value2', 'multi-binding-key3': 'value3' },
      }),
    })
  })

  it('multiple params causing reinvocation', () => {
    const mutations = [
      ac('Object{metadata: Object.metadata{annotations: params.data}}'),
      ac(`Object{metadata: Object.metadata{annotations: {${incrementFoo},}}}`),
    ]
    expectCase({
      policies: [
        mutatingPolicy('multi-param-reinvocation', 'IfNeeded', matchEndpointResources, configMapParamKind, mutations),
        mutatingPolicy('policy-with-param-no-reinvoke', 'Never', matchEndpointResources, configMapParamKind, mutations),
      ],
      bindings: [
        mutatingBinding('multi-param-reinvocation', {
          selector: { matchLabels: { 'multi-param-reinvocation': 'true' } },
          parameterNotFoundAction: 'Allow',
        }),
        mutatingBinding('policy-with-param-no-reinvoke', {
          name: 'multi-param-reinvocation-param-3',
          parameterNotFoundAction: 'Allow',
        }),
      ],
      params: [
        configMap('multi-param-reinvocation-param-1', { firstApplied: 'true' }, { 'multi-param-reinvocation': 'true' }),
        configMap(
          'multi-param-reinvocation-param-2',
          { secondApplied: 'true' },
          { 'multi-param-reinvocation': 'true' },
        ),
        configMap('multi-param-reinvocation-param-3', { thirdApplied: 'true' }),
      ],
      request: endpoints({ name: 'multi-param-reinvocation-object', namespace: 'default', annotations: { foo: '0' } }),
      expected: endpoints({
        name: 'multi-param-reinvocation-object',
        namespace: 'default',
        annotations: { firstApplied: 'true', secondApplied: 'true', thirdApplied: 'true', foo: '5' },
      }),
    })
  })
})

describe('mutatingadmissionpolicy_test.go Test_MutatingAdmissionPolicy_CustomResources', () => {
  // versionedCustomResourceDefinition (test/integration/apiserver/cel/admission_policy_test.go): pandas of
  // awesome.bears.com, cluster scoped, v1 (storage) and v2 served, fixtures.AllowAllSchema()
  const allowAll = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
  const subresources = {
    status: {},
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  }
  const crd: J = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'pandas.awesome.bears.com' },
    spec: {
      group: 'awesome.bears.com',
      scope: 'Cluster',
      names: { plural: 'pandas', kind: 'Panda' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: allowAll }, subresources },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: allowAll }, subresources },
      ],
    },
  }
  const set = PolicySet.build([
    crd,
    mutatingPolicy(
      'match-by-match-policy-equivalent',
      'IfNeeded',
      {
        resourceRules: [
          { operations: ['*'], apiGroups: ['awesome.bears.com'], apiVersions: ['v1'], resources: ['pandas'] },
        ],
      },
      undefined,
      [ac('Object{ metadata: Object.metadata{ labels: {"mutated-panda": "true"} } }')],
      { failurePolicy: 'Fail' },
    ),
    mutatingBinding('match-by-match-policy-equivalent'),
  ])
  it.each(['v1', 'v2'])('a %s Panda is mutated (matchPolicy Equivalent)', (v) => {
    expect(set.problems).toEqual([])
    const r = set.validate({ apiVersion: `awesome.bears.com/${v}`, kind: 'Panda', metadata: { name: `${v}-bears` } })
    expect(r.allowed).toBe(true)
    const obj = (r.customResource?.object ?? r.mutatedObject) as J
    expect(((obj.metadata as J).labels as J)['mutated-panda']).toBe('true')
    expect(obj.apiVersion).toBe(`awesome.bears.com/${v}`)
  })
})
