import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../../src/engine/policy-set.js'
import type { Authorize } from '../../../src/kube/authz/authorizer.js'

// kubernetes v1.37.2 staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/mutating/
// dispatcher_test.go TestDispatcher, compilation_test.go TestCompilation and plugin_test.go
// TestBasicPatch / TestJSONPatch / TestSSAPatch / TestSSAMapList, row by row (named as in Go). Policies,
// expressions, objects and expected objects are the Go test's; each row runs through PolicySet.
//
// Adaptations (the Go tests drive the plugin's internals):
// - TestCompilation runs the compiled patchers alone, with no decoding, defaulting or native validation:
//   here `builtins: false` (as patch-tables.test.ts), and the object gets a name and namespace (kelp's
//   request needs them; the Go objects have none). The rows' policies have no matchConstraints
//   (compilePolicy is called directly): here they match deployments.
// - TestDispatcher registers a fake defaulter (fakeSetDefaultForDeployment: strategy.type RollingUpdate
//   only) and skips native validation: here `builtins: false` too, so nothing defaults strategy.type; the
//   rows whose input lacks it ("simple patch") are compared without the fake defaulter's field, every other
//   field exactly.
// - plugin_test.go replaces the compiler by fake patchers (annotationPatcher sets the annotations;
//   smdPatcher applies a fixed object with patch.ApplyStructuredMergeDiff), and the policy's expressions are
//   "ignored, but required". Here each fake patcher is the ApplyConfiguration expression that builds the
//   same object. The Go objects have no name: here they are named.
// - reinvocationcontext_test.go TestFullReinvocation, TestPartialReinvocation, TestNoReinvocation are
//   skipped: they call policyReinvokeContext's methods (SetLastPolicyInvocationOutput,
//   RequireReinvokingPreviouslyInvokedPlugins, AddReinvocablePolicyToPreviouslyInvoked,
//   IsOutputChangedSinceLastPolicyInvocation, ShouldReinvoke) in sequences of their own; kelp keeps that
//   state inline in dispatchMutating (src/policy/mutating/dispatcher.ts) with no such object to call.

type J = Record<string, unknown>

/** The typed objects' zero values: empty maps and lists equal absent ones. */
function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropEmpty)
  if (v !== null && typeof v === 'object') {
    const out: J = {}
    for (const [k, x] of Object.entries(v as J)) {
      const y = dropEmpty(x)
      if (y === null || (typeof y === 'object' && Object.keys(y as J).length === 0)) continue
      out[k] = y
    }
    return out
  }
  return v
}

const deploymentRules: J = {
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['*'] }],
}
const ac = (expression: string): J => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } })
const jp = (expression: string): J => ({ patchType: 'JSONPatch', jsonPatch: { expression } })
const policy = (name: string, spec: J): J => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name },
  // reinvocationPolicy is required by validation; the Go policies leave it empty (not IfNeeded)
  spec: { reinvocationPolicy: 'Never', ...spec },
})
const binding = (name: string, policyName: string, extra: J = {}): J => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, ...extra },
})
/** fakeAuthorizer: DecisionAllow for everything. */
const allowAll: Authorize = () => ({ decision: 'Allow', reason: '' })

// ---------------------------------------------------------------------------------------------------
// dispatcher_test.go TestDispatcher

describe('dispatcher_test.go TestDispatcher', () => {
  const d1 = (spec: J, metadata: J = {}): J => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd1', namespace: 'default', ...metadata },
    spec,
  })
  const template = { spec: { volumes: [{ name: 'x' }] } }
  const strategy = { type: 'RollingUpdate' }
  const run = (material: J[], object: J) => {
    const set = PolicySet.build(material, { builtins: false })
    expect(set.problems).toEqual([])
    const r = set.validate(object)
    expect(r.status?.message).toBeUndefined()
    expect(r.allowed).toBe(true)
    const { apiVersion: _a, kind: _k, ...got } = (r.mutatedObject ?? object) as J
    return dropEmpty(got)
  }
  const labelsPolicy = (name: string, labels: string, extra: J = {}) =>
    policy(name, {
      matchConstraints: deploymentRules,
      ...extra,
      mutations: [ac(`Object{\n  metadata: Object.metadata{\n    labels: ${labels}\n  }\n}`)],
    })

  it('simple patch', () => {
    const got = run(
      [
        policy('policy1', {
          matchConstraints: deploymentRules,
          mutations: [ac('Object{\n  spec: Object.spec{\n    replicas: object.spec.replicas + 100\n  }\n}')],
        }),
        binding('binding', 'policy1'),
      ],
      d1({ replicas: 1, template }),
    )
    // expected: replicas 101; strategy.type RollingUpdate is the fake defaulter's (not run here)
    expect(got).toEqual({ metadata: { name: 'd1', namespace: 'default' }, spec: { replicas: 101, template } })
  })

  it('with param', () => {
    const got = run(
      [
        policy('policy1', {
          matchConstraints: deploymentRules,
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          mutations: [
            ac("Object{\n  spec: Object.spec{\n    replicas: object.spec.replicas + int(params.data['key'])\n  }\n}"),
          ],
        }),
        // parameterNotFoundAction set: the Go table builds the binding without the API's validation, which requires it
        binding('binding', 'policy1', {
          paramRef: { name: 'cm1', namespace: 'default', parameterNotFoundAction: 'Allow' },
        }),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', namespace: 'default' }, data: { key: '10' } },
      ],
      d1({ replicas: 1, template, strategy }),
    )
    expect(got).toEqual({
      metadata: { name: 'd1', namespace: 'default' },
      spec: { replicas: 11, template, strategy },
    })
  })

  it('both policies reinvoked', () => {
    const got = run(
      [
        labelsPolicy('policy1', '{"policy1": string(int(object.?metadata.labels["count"].orValue("1")) + 1)}'),
        binding('binding', 'policy1'),
        labelsPolicy('policy2', '{"policy2": string(int(object.?metadata.labels["count"].orValue("1")) + 1)}'),
        // the Go bindings are both named "binding" (distinct keys by policy); kelp's set needs unique names
        binding('binding2', 'policy2'),
      ],
      d1({ template, strategy }),
    )
    expect(got).toEqual({
      metadata: { name: 'd1', namespace: 'default', labels: { policy1: '2', policy2: '2' } },
      spec: { template, strategy },
    })
  })

  it('1st policy sets match condition that 2nd policy matches', () => {
    const got = run(
      [
        labelsPolicy('policy1', '{"environment": "production"}'),
        binding('binding', 'policy1'),
        labelsPolicy('policy2', '{"policy1invoked": "true"}', {
          matchConditions: [
            { name: 'prodonly', expression: 'object.?metadata.labels["environment"].orValue("") == "production"' },
          ],
        }),
        binding('binding2', 'policy2'),
      ],
      d1({ template, strategy }),
    )
    expect(got).toEqual({
      metadata: { name: 'd1', namespace: 'default', labels: { environment: 'production', policy1invoked: 'true' } },
      spec: { template, strategy },
    })
  })

  it('1st policy still does not match after 2nd policy sets match condition', () => {
    const got = run(
      [
        labelsPolicy('policy1', '{"policy1invoked": "true"}', {
          matchConditions: [
            { name: 'prodonly', expression: 'object.?metadata.labels["environment"].orValue("") == "production"' },
          ],
        }),
        binding('binding', 'policy1'),
        labelsPolicy('policy2', '{"environment": "production"}'),
        binding('binding2', 'policy2'),
      ],
      d1({ template, strategy }),
    )
    expect(got).toEqual({
      metadata: { name: 'd1', namespace: 'default', labels: { environment: 'production' } },
      spec: { template, strategy },
    })
  })
})

// ---------------------------------------------------------------------------------------------------
// compilation_test.go TestCompilation

interface CompilationRow {
  readonly name: string
  readonly spec: J
  readonly object: J
  readonly params?: J
  readonly namespace?: string
  readonly expectedErr?: string
  readonly expectedResult?: J
}

const costly =
  'variables.list.all(x1, variables.list.all(x2, variables.list.all(x3, variables.list.all(x4, variables.list.all(x5, variables.list.all(x5, "0123456789" == "0123456789"))))))? 1 : 0'

const compilationRows: CompilationRow[] = [
  {
    name: 'applyConfiguration then jsonPatch',
    spec: {
      mutations: [
        ac('Object{\n  spec: Object.spec{\n    replicas: object.spec.replicas + 100\n  }\n}'),
        jp('[\n  JSONPatch{op: "replace", path: "/spec/replicas", value: object.spec.replicas + 10}\n]'),
      ],
    },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 111 } },
  },
  {
    name: 'jsonPatch then applyConfiguration',
    spec: {
      mutations: [
        jp('[\n  JSONPatch{op: "replace", path: "/spec/replicas", value: object.spec.replicas + 10}\n]'),
        ac('Object{\n  spec: Object.spec{\n    replicas: object.spec.replicas + 100\n  }\n}'),
      ],
    },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 111 } },
  },
  {
    name: 'jsonPatch with variable',
    spec: {
      variables: [{ name: 'desired', expression: '10' }],
      mutations: [jp('[\n  JSONPatch{op: "replace", path: "/spec/replicas", value: variables.desired + 1}, \n]')],
    },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 11 } },
  },
  {
    name: 'apply configuration with variable',
    spec: {
      variables: [{ name: 'desired', expression: '10' }],
      mutations: [ac('Object{\n  spec: Object.spec{\n    replicas: variables.desired + 1\n  }\n}')],
    },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 11 } },
  },
  {
    name: 'apply configuration with params',
    spec: {
      paramKind: { kind: 'ConfigMap', apiVersion: 'v1' },
      mutations: [ac("Object{\n  spec: Object.spec{\n    replicas: int(params.data['k1'])\n  }\n}")],
    },
    params: { data: { k1: '100' } },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 100 } },
  },
  {
    name: 'jsonPatch with excessive cost',
    spec: {
      variables: [{ name: 'list', expression: '[0,1,2,3,4,5,6,7,8,9]' }],
      mutations: [jp(`[\n  JSONPatch{op: "replace", path: "/spec/replicas", \n    value: ${costly}\n  }\n]`)],
    },
    object: { spec: { replicas: 1 } },
    expectedErr: 'operation cancelled: actual cost limit exceeded',
  },
  {
    name: 'applyConfiguration with excessive cost',
    spec: {
      mutations: [ac(`Object{\n  spec: Object.spec{\n    replicas: ${costly}\n  }\n}`)],
      variables: [{ name: 'list', expression: '[0,1,2,3,4,5,6,7,8,9]' }],
    },
    object: { spec: { replicas: 1 } },
    expectedErr: 'operation cancelled: actual cost limit exceeded',
  },
  {
    name: 'request variable',
    spec: {
      mutations: [
        jp(
          `[\n  JSONPatch{op: "replace", path: "/spec/replicas", \n    value: request.kind.group == 'apps' && request.kind.version == 'v1' && request.kind.kind == 'Deployment' ? 10 : 0\n  }\n]`,
        ),
      ],
    },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 10 } },
  },
  {
    name: 'namespace request variable',
    spec: {
      mutations: [
        jp(
          `[\n  JSONPatch{op: "replace", path: "/spec/replicas", \n    value: namespaceObject.metadata.name == 'ns1' ? 10 : 0\n  }\n]`,
        ),
      ],
    },
    namespace: 'ns1',
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 10 } },
  },
  {
    name: 'authorizer check',
    spec: {
      mutations: [
        jp(
          `[\n  JSONPatch{op: "replace", path: "/spec/replicas", \n    value: authorizer.group('').resource('endpoints').check('create').allowed() ? 10 : 0\n  }\n]`,
        ),
      ],
    },
    object: { spec: { replicas: 1 } },
    expectedResult: { spec: { replicas: 10 } },
  },
  {
    name: 'object type has field access',
    spec: {
      mutations: [
        jp(
          '[\n  JSONPatch{\n    op: "add", path: "/metadata/labels",\n    value: {\n      "value": Object{field: "fieldValue"}.field,\n    }\n  }\n]',
        ),
      ],
    },
    object: { metadata: { labels: {} } },
    expectedResult: { metadata: { labels: { value: 'fieldValue' } } },
  },
  {
    name: 'object type has field testing',
    spec: {
      mutations: [
        jp(
          '[\n  JSONPatch{\n    op: "add", path: "/metadata/labels",\n    value: {\n      "field": string(has(Object{field: "fieldValue"}.field)),\n      "field-unset": string(has(Object{}.field)),\n    }\n  }\n]',
        ),
      ],
    },
    object: { metadata: { labels: {} } },
    expectedResult: { metadata: { labels: { field: 'true', 'field-unset': 'false' } } },
  },
  {
    name: 'object type equality',
    spec: {
      mutations: [
        jp(
          '[\n  JSONPatch{\n    op: "add", path: "/metadata/labels",\n    value: {\n      "empty": string(Object{} == Object{}),\n      "same": string(Object{field: "x"} == Object{field: "x"}),\n      "different": string(Object{field: "x"} == Object{field: "y"}),\n    }\n  }\n]',
        ),
      ],
    },
    object: { metadata: { labels: {} } },
    expectedResult: { metadata: { labels: { empty: 'true', same: 'true', different: 'false' } } },
  },
  {
    name: 'object types are not fully type checked',
    spec: {
      mutations: [jp('[\n  JSONPatch{\n    op: "add", path: "/spec",\n    value: Object.invalid{replicas: 1}\n  }\n]')],
    },
    object: { metadata: { labels: {} } },
    expectedResult: { metadata: { labels: {} }, spec: { replicas: 1 } },
  },
]

function runCompilation(row: CompilationRow) {
  const ns = row.namespace ?? 'default'
  const material: J[] = [
    policy('d1', { matchConstraints: deploymentRules, ...row.spec }),
    binding(
      'b',
      'd1',
      row.params ? { paramRef: { name: 'params', namespace: ns, parameterNotFoundAction: 'Allow' } } : {},
    ),
  ]
  if (row.params)
    material.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'params', namespace: ns }, ...row.params })
  if (row.namespace) material.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: row.namespace } })
  const set = PolicySet.build(material, { builtins: false, authorize: allowAll })
  expect(set.problems).toEqual([])
  const meta = { name: 'd', namespace: ns }
  const object = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    ...row.object,
    metadata: { ...meta, ...((row.object.metadata as J | undefined) ?? {}) },
  }
  const r = set.validate(object)
  if (row.expectedErr !== undefined) {
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain(row.expectedErr)
    return
  }
  expect(r.status?.message).toBeUndefined()
  expect(r.allowed).toBe(true)
  const want = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    ...row.expectedResult,
    metadata: { ...meta, ...((row.expectedResult?.metadata as J | undefined) ?? {}) },
  }
  expect(dropEmpty(r.mutatedObject ?? object)).toEqual(dropEmpty(want))
}

describe('compilation_test.go TestCompilation', () => {
  it.each(compilationRows.map((r) => [r.name, r] as const))('%s', (_, row) => runCompilation(row))
})

// ---------------------------------------------------------------------------------------------------
// plugin_test.go

function runPlugin(expression: string, object: J): J {
  const set = PolicySet.build(
    [
      policy('policy', {
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          // the Go test context's rules match everything it dispatches (a ConfigMap, a Pod)
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'pods'], operations: ['*'] },
          ],
        },
        mutations: [ac(expression)],
      }),
      binding('binding', 'policy'),
    ],
    { builtins: false },
  )
  expect(set.problems).toEqual([])
  const r = set.validate(object)
  expect(r.status?.message).toBeUndefined()
  expect(r.allowed).toBe(true)
  const { apiVersion: _a, kind: _k, ...got } = (r.mutatedObject ?? object) as J
  return dropEmpty(got) as J
}
const cm: J = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } }
const cmMeta = { name: 'cm', namespace: 'default' }
// smdPatcher's patch object of TestJSONPatch and TestSSAPatch
const cmPatch = 'Object{metadata: Object.metadata{annotations: {"foo": "bar"}}, data: {"myfield": "myvalue"}}'

describe('plugin_test.go TestBasicPatch', () => {
  it('a patcher that sets the annotation foo=bar', () => {
    // annotationPatcher{map[string]string{"foo": "bar"}}
    const got = runPlugin('Object{metadata: Object.metadata{annotations: {"foo": "bar"}}}', cm)
    expect((got.metadata as J).annotations).toEqual({ foo: 'bar' })
  })
})

describe('plugin_test.go TestJSONPatch', () => {
  it('the smdPatcher patch object on an empty ConfigMap', () => {
    expect(runPlugin(cmPatch, cm)).toEqual({
      metadata: { ...cmMeta, annotations: { foo: 'bar' } },
      data: { myfield: 'myvalue' },
    })
  })
})

describe('plugin_test.go TestSSAPatch', () => {
  it('the smdPatcher patch object on an empty ConfigMap', () => {
    expect(runPlugin(cmPatch, cm)).toEqual({
      metadata: { ...cmMeta, annotations: { foo: 'bar' } },
      data: { myfield: 'myvalue' },
    })
  })
})

describe('plugin_test.go TestSSAMapList', () => {
  it('an init container merged into the map list by name', () => {
    const pod: J = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { initContainers: [{ name: 'init-container', image: 'image' }] },
    }
    const got = runPlugin(
      'Object{metadata: Object.metadata{annotations: {"foo": "bar"}}, spec: Object.spec{initContainers: [Object.spec.initContainers{name: "injected-init-container", image: "injected-image"}]}}',
      pod,
    )
    expect(got).toEqual({
      metadata: { name: 'p', namespace: 'default', annotations: { foo: 'bar' } },
      spec: {
        initContainers: [
          { name: 'init-container', image: 'image' },
          { name: 'injected-init-container', image: 'injected-image' },
        ],
      },
    })
  })
})
