import { describe, expect, it } from 'vitest'
import { materialKind, PolicySet } from '../../../src/engine/policy-set.js'

// MutatingAdmissionPolicy end to end through PolicySet.admit. Sources are named per block:
// kubernetes v1.37.2 staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/mutating/
// (patch/json_patch_test.go TestJSONPatch, patch/smd_test.go TestApplyConfiguration,
// dispatcher_test.go, plugin_test.go) and pkg/apis/admissionregistration/validation/validation_test.go.

type J = Record<string, unknown>

/** The mutated object ({} when none). */
const mo = (r: { readonly mutatedObject?: J }): J => r.mutatedObject ?? {}

const policy = (name: string, mutations: J[], extra: J = {}): J => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: {
      resourceRules: [
        { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
        { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods', 'configmaps'] },
      ],
    },
    reinvocationPolicy: 'Never',
    mutations,
    ...extra,
  },
})
const binding = (name: string, policyName: string, extra: J = {}): J => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, ...extra },
})
const jsonPatch = (expression: string): J => ({ patchType: 'JSONPatch', jsonPatch: { expression } })
const applyConfig = (expression: string): J => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } })

const deployment = (spec: J = {}, metadata: J = {}): J => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', namespace: 'default', ...metadata },
  spec: {
    selector: { matchLabels: { app: 'a' } },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'i' }] } },
    ...spec,
  },
})

function run(mutations: J[], object: J, extra: J = {}) {
  const set = PolicySet.build([policy('p', mutations, extra), binding('b', 'p')])
  expect(set.problems).toEqual([])
  return set.validate(object)
}

describe('materialKind', () => {
  it('recognises the mutating kinds of v1, v1beta1 and v1alpha1', () => {
    for (const v of ['v1', 'v1beta1', 'v1alpha1']) {
      expect(materialKind({ apiVersion: `admissionregistration.k8s.io/${v}`, kind: 'MutatingAdmissionPolicy' })).toBe(
        'MutatingAdmissionPolicy',
      )
      expect(
        materialKind({ apiVersion: `admissionregistration.k8s.io/${v}`, kind: 'MutatingAdmissionPolicyBinding' }),
      ).toBe('MutatingAdmissionPolicyBinding')
    }
  })
})

describe('validation.go ValidateMutatingAdmissionPolicy / …Binding (refused material in problems)', () => {
  const problems = (objs: J[]) => PolicySet.build(objs).problems.map((p) => p.message)
  it('reinvocationPolicy and mutations are required', () => {
    const p = policy('p', [])
    delete (p.spec as J).reinvocationPolicy
    expect(problems([p])).toEqual([
      'MutatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.mutations: Required value: mutations must contain at least one item, spec.reinvocationPolicy: Required value]',
    ])
  })
  it('unsupported reinvocationPolicy, patchType, DELETE operation', () => {
    const p = policy('p', [{ patchType: 'Merge' }], { reinvocationPolicy: 'Always' })
    ;((p.spec as J).matchConstraints as { resourceRules: J[] }).resourceRules[0]!.operations = ['DELETE']
    expect(problems([p])).toEqual([
      'MutatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE", spec.mutations[0].patchType: Unsupported value: "Merge": supported values: "ApplyConfiguration", "JSONPatch", spec.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"]',
    ])
  })
  it('the patchType union', () => {
    expect(
      problems([policy('p', [{ patchType: 'JSONPatch', applyConfiguration: { expression: 'Object{}' } }])]),
    ).toEqual([
      'MutatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch, spec.mutations[0].applyConfiguration: Invalid value: {"Expression":"Object{}"}: must not be specified when patchType is JSONPatch]',
    ])
  })
  it('expressions compile with the patch types and must have the mutation type', () => {
    const msgs = problems([
      policy('p', [jsonPatch('Object{}'), applyConfig('[JSONPatch{}]'), applyConfig('Objectx{}')]),
    ])
    expect(msgs).toHaveLength(1)
    expect(msgs[0]).toContain(
      'spec.mutations[0].jsonPatch.expression: Invalid value: "Object{}": must evaluate to list(JSONPatch)',
    )
    expect(msgs[0]).toContain(
      'spec.mutations[1].applyConfiguration.expression: Invalid value: "[JSONPatch{}]": must evaluate to Object',
    )
    expect(msgs[0]).toContain("undeclared reference to 'Objectx'")
  })
  it('a binding with DELETE in its matchResources', () => {
    const b = binding('b', 'p', {
      matchResources: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['pods'] }],
      },
    })
    expect(problems([b])).toEqual([
      'MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
    ])
  })
})

describe('patch/json_patch_test.go TestJSONPatch', () => {
  const spec = (r: ReturnType<typeof run>) => mo(r).spec as J
  it('jsonPatch with true test operation', () => {
    const r = run(
      [
        jsonPatch(
          '[JSONPatch{op: "test", path: "/spec/replicas", value: 1}, JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
        ),
      ],
      deployment({ replicas: 1 }),
    )
    expect(r.allowed).toBe(true)
    expect(spec(r).replicas).toBe(3)
    expect(r.patch).toEqual([{ op: 'replace', path: '/spec/replicas', value: 3 }])
    expect(r.mutations?.map((m) => [m.policy, m.binding])).toEqual([['p', 'b']])
  })
  it('jsonPatch with false test operation: no change', () => {
    const r = run(
      [
        jsonPatch(
          '[JSONPatch{op: "test", path: "/spec/replicas", value: 100}, JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
        ),
      ],
      deployment({ replicas: 1 }),
    )
    expect(r.allowed).toBe(true)
    expect(r.mutatedObject).toBeUndefined()
  })
  it('remove map entry by key; copy; move; add to start and end of list', () => {
    const labels = (expr: string, l: J) =>
      (mo(run([jsonPatch(expr)], deployment({}, { labels: l }))).metadata as J).labels
    expect(labels('[JSONPatch{op: "remove", path: "/metadata/labels/y"}]', { x: '1', y: '1' })).toEqual({ x: '1' })
    expect(
      labels('[JSONPatch{op: "copy", from: "/metadata/labels/x", path: "/metadata/labels/y"}]', { x: '1' }),
    ).toEqual({ x: '1', y: '1' })
    expect(
      labels('[JSONPatch{op: "move", from: "/metadata/labels/x", path: "/metadata/labels/y"}]', { x: '1' }),
    ).toEqual({ y: '1' })
    expect(labels('[JSONPatch{op: "add", path: "/metadata/labels", value: {"y": "2"}}]', { x: '1' })).toEqual({
      y: '2',
    })
    const names = (expr: string) =>
      (((spec(run([jsonPatch(expr)], deployment())).template as J).spec as J).containers as J[]).map((c) => c.name)
    expect(names('[JSONPatch{op: "add", path: "/spec/template/spec/containers/0", value: {"name": "x"}}]')).toEqual([
      'x',
      'a',
    ])
    expect(names('[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]')).toEqual([
      'a',
      'x',
    ])
    expect(
      names(
        '[JSONPatch{op: "copy", from: "/spec/template/spec/containers/0", path: "/spec/template/spec/containers/-"}]',
      ),
    ).toEqual(['a', 'a'])
  })
  it('JSONPatch key escaping', () => {
    const r = run(
      [
        jsonPatch(
          '[JSONPatch{op: "add", path: "/metadata/labels", value: {}}, JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("k8s.io/x~y"), value: "true"}]',
        ),
      ],
      deployment(),
    )
    expect((mo(r).metadata as J).labels).toEqual({ 'k8s.io/x~y': 'true' })
  })
  it('JSONPatch patch type has field access, testing and equality', () => {
    const r = run(
      [
        jsonPatch(`[JSONPatch{op: "add", path: "/metadata/labels", value: {
      "op": JSONPatch{op: "opValue"}.op, "value": string(JSONPatch{value: "valueValue"}.value),
      "op-unset": string(has(JSONPatch{}.op)), "from": string(has(JSONPatch{from: "fromValue"}.from)),
      "empty": string(JSONPatch{} == JSONPatch{}), "different-op": string(JSONPatch{op: "add"} == JSONPatch{op: "remove"})}}]`),
      ],
      deployment(),
    )
    expect((mo(r).metadata as J).labels).toEqual({
      op: 'opValue',
      value: 'valueValue',
      'op-unset': 'false',
      from: 'true',
      empty: 'true',
      'different-op': 'false',
    })
  })
  it('jsonPatch with CEL initializer', () => {
    const r = run(
      [
        jsonPatch(
          '[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{name: "x", ports: [Object.spec.template.spec.containers.ports{containerPort: 8080}]}}]',
        ),
      ],
      deployment(),
    )
    expect(((spec(r).template as J).spec as J).containers).toContainEqual(
      expect.objectContaining({ name: 'x', ports: [{ containerPort: 8080, protocol: 'TCP' }] }),
    )
  })
  it('jsonPatch invalid CEL initializer type', () => {
    const r = run(
      [
        jsonPatch(
          '[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{name: "x", ports: [Object.spec.template.spec.containers.portsZ{containerPort: 8080}]}}]',
        ),
      ],
      deployment(),
    )
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain(
      ' mismatch: unexpected type name "Object.spec.template.spec.containers.portsZ", expected "Object.spec.template.spec.containers.ports", which matches field name path from root Object type',
    )
  })
  it('jsonPatch replace end of list with - not allowed', () => {
    const r = run(
      [jsonPatch('[JSONPatch{op: "replace", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]')],
      deployment(),
    )
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toBe(
      "policy 'p' with binding 'b' denied request: JSON Patch: replace operation does not apply: doc is missing key: /spec/template/spec/containers/-: missing value",
    )
    expect(r.status?.code).toBe(403)
    expect(r.status?.reason).toBe('Invalid')
  })
  it('failurePolicy Ignore: the error is dropped, the object kept', () => {
    const r = run([jsonPatch('[JSONPatch{op: "replace", path: "/nope/x", value: 1}]')], deployment(), {
      failurePolicy: 'Ignore',
    })
    expect(r.allowed).toBe(true)
    expect(r.mutatedObject).toBeUndefined()
  })
})

describe('patch/smd_test.go TestApplyConfiguration', () => {
  it('apply configuration add to listType=map', () => {
    const r = run(
      [
        applyConfig(
          'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "x"}]}}}}',
        ),
      ],
      deployment(),
    )
    const cs = (((mo(r).spec as J).template as J).spec as J).containers as J[]
    expect(cs.map((c) => c.name)).toEqual(['a', 'x'])
  })
  it('apply configuration update listType=map entry', () => {
    const r = run(
      [
        applyConfig(
          'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "a", image: "new"}]}}}}',
        ),
      ],
      deployment(),
    )
    const cs = (((mo(r).spec as J).template as J).spec as J).containers as J[]
    expect(cs.map((c) => [c.name, c.image])).toEqual([['a', 'new']])
  })
  it('apply configuration granular map (labels) merges', () => {
    const r = run(
      [applyConfig('Object{metadata: Object.metadata{labels: {"y": "2"}}}')],
      deployment({}, { labels: { x: '1' } }),
    )
    expect((mo(r).metadata as J).labels).toEqual({ x: '1', y: '2' })
  })
  it('apply configuration may not mutate atomic structs', () => {
    const r = run(
      [applyConfig('Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}')],
      deployment(),
    )
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toBe(
      "policy 'p' with binding 'b' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector",
    )
  })
  it('apply configuration may not mutate atomic lists', () => {
    const r = run(
      [
        applyConfig(
          'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "a", args: ["x"]}]}}}}',
        ),
      ],
      deployment(),
    )
    expect(r.status?.message).toContain(
      'may not mutate atomic arrays, maps or structs: .spec.template.spec.containers[0].args',
    )
  })
  it('apply configuration with an undeclared field', () => {
    const r = run([applyConfig('Object{spec: Object.spec{replicaz: 3}}')], deployment())
    expect(r.status?.message).toContain(
      'failed to convert patch object to typed object: .spec.replicaz: field not declared in schema',
    )
  })
  it('apply configuration type mismatch of initializer names', () => {
    const r = run([applyConfig('Object{spec: Object.spec{template: Object.spec.templat{}}}')], deployment())
    expect(r.status?.message).toContain(
      'type mismatch: unexpected type name "Object.spec.templat", expected "Object.spec.template"',
    )
  })
})

describe('dispatcher_test.go / plugin_test.go: order, params, variables, match conditions, reinvocation', () => {
  it('policies in name order, each mutation on the previous result', () => {
    const set = PolicySet.build([
      policy('b-second', [
        jsonPatch('[JSONPatch{op: "add", path: "/metadata/labels/order", value: object.metadata.labels.order + "b"}]'),
      ]),
      policy('a-first', [jsonPatch('[JSONPatch{op: "add", path: "/metadata/labels", value: {"order": "a"}}]')]),
      binding('b2', 'b-second'),
      binding('b1', 'a-first'),
    ])
    const r = set.validate(deployment())
    expect((mo(r).metadata as J).labels).toEqual({ order: 'ab' })
    expect(r.mutations?.map((m) => m.policy)).toEqual(['a-first', 'b-second'])
  })
  it('params and variables', () => {
    const set = PolicySet.build([
      policy('p', [applyConfig('Object{metadata: Object.metadata{labels: {"team": variables.team}}}')], {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        variables: [{ name: 'team', expression: 'params.data.team' }],
      }),
      binding('b', 'p', { paramRef: { name: 'cfg', namespace: 'default', parameterNotFoundAction: 'Deny' } }),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { team: 'blue' } },
    ])
    expect(set.problems).toEqual([])
    expect((mo(set.validate(deployment())).metadata as J).labels).toEqual({ team: 'blue' })
  })
  it('matchConditions false skips the policy', () => {
    const r = run(
      [jsonPatch('[JSONPatch{op: "replace", path: "/spec/replicas", value: 5}]')],
      deployment({ replicas: 1 }),
      {
        matchConditions: [{ name: 'only-many', expression: 'object.spec.replicas > 3' }],
      },
    )
    expect(r.mutatedObject).toBeUndefined()
  })
  it('reinvocationPolicy IfNeeded: invoked again after a later policy changed the object', () => {
    const set = PolicySet.build([
      policy(
        'a',
        [
          applyConfig(
            'Object{metadata: Object.metadata{annotations: {"seen": object.metadata.?labels.later.orValue("none")}}}',
          ),
        ],
        {
          reinvocationPolicy: 'IfNeeded',
        },
      ),
      policy('b', [applyConfig('Object{metadata: Object.metadata{labels: {"later": "yes"}}}')]),
      binding('ba', 'a'),
      binding('bb', 'b'),
    ])
    const r = set.validate(deployment())
    expect((mo(r).metadata as J).annotations).toEqual({ seen: 'yes' })
    expect(r.mutations?.map((m) => [m.policy, m.pass])).toEqual([
      ['a', 1],
      ['b', 1],
      ['a', 2],
    ])
  })
  it('reinvocationPolicy Never: not invoked again', () => {
    const set = PolicySet.build([
      policy('a', [
        applyConfig(
          'Object{metadata: Object.metadata{annotations: {"seen": object.metadata.?labels.later.orValue("none")}}}',
        ),
      ]),
      policy('b', [applyConfig('Object{metadata: Object.metadata{labels: {"later": "yes"}}}')]),
      binding('ba', 'a'),
      binding('bb', 'b'),
    ])
    expect((mo(set.validate(deployment())).metadata as J).annotations).toEqual({ seen: 'none' })
  })
  it('validating policies see the mutated object', () => {
    const set = PolicySet.build([
      policy('p', [jsonPatch('[JSONPatch{op: "replace", path: "/spec/replicas", value: 10}]')]),
      binding('b', 'p'),
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'max' },
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
            ],
          },
          validations: [{ expression: 'object.spec.replicas <= 5' }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'max' },
        spec: { policyName: 'max', validationActions: ['Deny'] },
      },
    ])
    const r = set.validate(deployment({ replicas: 1 }))
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain("ValidatingAdmissionPolicy 'max' with binding 'max' denied request")
  })
})
