import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../../src/engine/policy-set.js'
import { widgetCrd } from '../../fixtures/widget-crd.js'

// Disagreements with kube-apiserver found while transcribing the integration test and in the
// differential (test/e2e/mutating), each fixed in src/ and pinned here. The expected values are the
// apiserver's (its source as cited, and what a real 1.37.2 apiserver answered to the same request).

type J = Record<string, unknown>

const policy = (name: string, resources: J, mutations: J[], extra: J = {}): J => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ operations: ['CREATE', 'UPDATE'], ...resources }] },
    reinvocationPolicy: 'Never',
    mutations,
    ...extra,
  },
})
const binding = (policyName: string): J => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name: policyName },
  spec: { policyName },
})
const ac = (expression: string): J => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } })
const jp = (expression: string): J => ({ patchType: 'JSONPatch', jsonPatch: { expression } })
const deployments = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }
const deployment = (replicas: number, image = 'nginx:1.27'): J => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] } },
  },
})

describe('native validation runs on the object the mutating policies left (handler admit, then the store)', () => {
  it('a mutation that makes the object invalid is a 422 Invalid', () => {
    const set = PolicySet.build([
      policy('neg', deployments, [jp('[JSONPatch{op: "replace", path: "/spec/replicas", value: -1}]')]),
      binding('neg'),
    ])
    const r = set.validate(deployment(1))
    expect(r.allowed).toBe(false)
    expect(r.builtin?.status?.code).toBe(422)
    expect(r.builtin?.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0')
  })
  it('a mutation that repairs an invalid object admits it', () => {
    const set = PolicySet.build([
      policy('fix', deployments, [ac('Object{spec: Object.spec{replicas: 2}}')]),
      binding('fix'),
    ])
    const r = set.validate(deployment(-1))
    expect(r.allowed).toBe(true)
    expect((r.mutatedObject?.spec as J | undefined)?.replicas).toBe(2)
  })
})

describe('ApplyConfiguration on custom resources: the type converter schema', () => {
  const crd = (schema: J): J => widgetCrd({ schema })
  const widgets = { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }
  const widget = (spec: J): J => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default', labels: { a: '1' } },
    spec,
  })
  it('x-kubernetes-preserve-unknown-fields maps merge key by key (deduced: separable maps, atomic lists)', () => {
    const set = PolicySet.build([
      crd({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      policy('p', widgets, [
        ac('Object{metadata: Object.metadata{labels: {"b": "2"}}, spec: Object.spec{x: {"z": 3}, l: [9]}}'),
      ]),
      binding('p'),
    ])
    expect(set.problems).toEqual([])
    const r = set.validate(widget({ x: { y: 1 }, l: [1, 2], keep: true }))
    expect(r.allowed).toBe(true)
    const o = r.customResource?.object as J
    expect(o.metadata).toMatchObject({ name: 'w', namespace: 'default', labels: { a: '1', b: '2' } })
    expect(o.spec).toEqual({ x: { y: 1, z: 3 }, l: [9], keep: true })
  })
  it('metadata is ObjectMeta even when the CRD schema does not declare it', () => {
    const set = PolicySet.build([
      crd({ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } }),
      policy('p', widgets, [
        ac('Object{metadata: Object.metadata{annotations: {"n": "v"}}, spec: Object.spec{size: 3}}'),
      ]),
      binding('p'),
    ])
    expect(set.problems).toEqual([])
    const r = set.validate(widget({ size: 1 }))
    expect(r.status?.message).toBeUndefined()
    const o = r.customResource?.object as J
    expect(o.metadata).toMatchObject({ name: 'w', labels: { a: '1' }, annotations: { n: 'v' } })
    expect(o.spec).toEqual({ size: 3 })
  })
})

// Found by the differential (test/e2e/mutating): what a kube-apiserver 1.37.2 answered to the same write.
const cr = widgetCrd({
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', minimum: 0, default: 1 },
          mm: {
            type: 'object',
            additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
          },
          ml: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          lm: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  },
})
const widgets = { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }
const widget = (spec: J = {}): J => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default' },
  spec,
})
const denial = (p: string, detail: string) => `policy '${p}' with binding '${p}' denied request: ${detail}`

describe('custom resources: decoded before the mutating policies, pruned after them', () => {
  it('the policy sees the CRD default (e2e ac-replicas/6: replicas 1)', () => {
    const set = PolicySet.build([
      cr,
      policy('p', widgets, [
        ac('Object{spec: Object.spec{replicas: has(object.spec.replicas) ? object.spec.replicas : 2}}'),
      ]),
      binding('p'),
    ])
    const r = set.validate(widget())
    expect(r.allowed).toBe(true)
    expect(((r.customResource?.object as J | undefined)?.spec as J | undefined)?.replicas).toBe(1)
  })
  it('a field a JSON patch adds that the schema does not declare is pruned (e2e jp-types/3)', () => {
    const set = PolicySet.build([
      cr,
      policy('p', widgets, [jp('[JSONPatch{op: "add", path: "/spec/unknownField", value: 1}]')]),
      binding('p'),
    ])
    const r = set.validate(widget())
    expect(r.allowed).toBe(true)
    expect((r.customResource?.object as J | undefined)?.spec).toEqual({ replicas: 1 })
  })
  it('an unknown field of the request itself is still a strict decoding error, no policy runs', () => {
    const set = PolicySet.build([
      cr,
      policy('p', widgets, [jp('[JSONPatch{op: "add", path: "/metadata/labels", value: {"a": "b"}}]')]),
      binding('p'),
    ])
    const r = set.validate(widget({ nope: 1 }))
    expect(r.allowed).toBe(false)
    expect(r.customResource?.status?.message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.nope"',
    )
    expect(r.mutations).toBeUndefined()
  })
})

describe('ApplyConfiguration: scalar types (structured-merge-diff validateScalar)', () => {
  const cases: [string, J, J, string][] = [
    [
      'a label of type int (e2e ac-types/4)',
      { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
      ac('Object{metadata: Object.metadata{labels: {"n": 1}}}'),
      '.metadata.labels.n: expected string, got &value.valueUnstructured{Value:1}',
    ],
    [
      'an annotation of type bool (e2e ac-types/2)',
      { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
      ac('Object{metadata: Object.metadata{annotations: {"b": true}}}'),
      '.metadata.annotations.b: expected string, got &value.valueUnstructured{Value:true}',
    ],
    [
      'replicas a string (e2e ac-types/5)',
      deployments,
      ac('Object{spec: Object.spec{replicas: "three"}}'),
      '.spec.replicas: expected numeric (int or float), got string',
    ],
    [
      'a bool given as a string (e2e ac-types/3)',
      { apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] },
      ac('Object{automountServiceAccountToken: "yes"}'),
      '.automountServiceAccountToken: expected boolean, got &{yes}',
    ],
  ]
  const objects: Record<string, J> = {
    configmaps: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } },
    serviceaccounts: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'default' } },
    deployments: deployment(1),
  }
  it.each(cases)('%s', (_, rules, mutation, detail) => {
    const set = PolicySet.build([policy('p', rules, [mutation]), binding('p')])
    const r = set.validate(objects[(rules.resources as string[])[0] as string] as J)
    expect(r.status?.code).toBe(403)
    expect(r.status?.message).toBe(
      denial('p', `error applying patch: failed to convert patch object to typed object: ${detail}`),
    )
  })
})

describe('ApplyConfiguration: maps and lists built inside built ones stay CEL values (ObjectVal.ConvertToNative)', () => {
  const cases: [string, string, string | undefined, J?][] = [
    [
      'e2e ac-nested/1',
      'Object{spec: Object.spec{mm: {"a": {"b": "c"}}}}',
      '.spec.mm.a: expected map, got &{map[b:c]}',
    ],
    ['e2e ac-nested/2', 'Object{spec: Object.spec{ml: {"a": ["x", "y"]}}}', '.spec.ml.a: expected list, got &{[x y]}'],
    ['e2e ac-nested/3', 'Object{spec: Object.spec{lm: [{"a": "b"}]}}', '.spec.lm[0]: expected map, got &{map[a:b]}'],
    ['e2e ac-nested/5', 'Object{spec: Object.spec{free: {"a": [["x"]]}}}', '.spec.free.a: expected map, got &{[[x]]}'],
    [
      'e2e ac-nested/6: the request maps convert',
      'Object{spec: Object.spec{mm: {"copy": object.metadata.labels}, free: {"old": object.spec.free}}}',
      undefined,
      { free: { x: { y: 'z' } } },
    ],
  ]
  it.each(cases)('%s', (_, expression, detail, spec = {}) => {
    const set = PolicySet.build([cr, policy('p', widgets, [ac(expression)]), binding('p')])
    expect(set.problems).toEqual([])
    const r = set.validate({ ...widget(spec), metadata: { name: 'w', namespace: 'default', labels: { a: 'b' } } })
    if (detail === undefined) {
      expect(r.allowed).toBe(true)
      expect((r.customResource?.object as J | undefined)?.spec).toEqual({
        replicas: 1,
        mm: { copy: { a: 'b' } },
        free: { x: { y: 'z' }, old: { x: { y: 'z' } } },
      })
      return
    }
    expect(r.status?.message).toBe(
      denial('p', `error applying patch: failed to convert patch object to typed object: ${detail}`),
    )
  })
})

describe('built-ins after a mutation: the decoder error, not the request decoding text', () => {
  it('replicas "three" by JSON patch (e2e jp-types/1)', () => {
    const set = PolicySet.build([
      policy('p', deployments, [jp('[JSONPatch{op: "replace", path: "/spec/replicas", value: "three"}]')]),
      binding('p'),
    ])
    const r = set.validate(deployment(2))
    expect(r.status?.code).toBe(500)
    expect(r.status?.message).toBe(
      'Internal error occurred: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    )
  })
  it('an unknown field by JSON patch (e2e jp-types/2)', () => {
    const set = PolicySet.build([
      policy('p', deployments, [jp('[JSONPatch{op: "add", path: "/spec/unknownField", value: 1}]')]),
      binding('p'),
    ])
    const r = set.validate(deployment(2))
    expect(r.status?.message).toBe('Internal error occurred: strict decoding error: unknown field "spec.unknownField"')
  })
})

describe('validation of the mutating expressions names the result type (e2e material)', () => {
  it('[] is list(dyn)', () => {
    const set = PolicySet.build([policy('empty-list', deployments, [jp('[]')])])
    expect(set.problems.map((p) => p.message)).toEqual([
      'MutatingAdmissionPolicy.admissionregistration.k8s.io "empty-list" is invalid: spec.mutations[0].jsonPatch.expression: Invalid value: "[]": must evaluate to list(JSONPatch) but got list(dyn)',
    ])
  })
})

describe('a Secret as admission and the store see it: stringData merged into data (Convert_v1_Secret_To_core_Secret)', () => {
  it('e2e update/7: data base64, no stringData', () => {
    const set = PolicySet.build([
      policy('p', { apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }, [
        ac('Object{metadata: Object.metadata{labels: {"created": "by-policy"}}}'),
      ]),
      binding('p'),
    ])
    const r = set.validate({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      stringData: { k: 'v' },
    })
    expect(r.mutatedObject).toMatchObject({ data: { k: 'dg==' }, type: 'Opaque' })
    expect(r.mutatedObject?.stringData).toBeUndefined()
  })
})
