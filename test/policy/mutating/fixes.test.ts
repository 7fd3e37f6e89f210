import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../../src/engine/policy-set.js'

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
  const crd = (schema: J): J => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  })
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
