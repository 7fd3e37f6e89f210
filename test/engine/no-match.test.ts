import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../src/engine/policy-set.js'

// Why a write gets 404 `no matches for kind "X" in version "g/v"` (client-go restmapper's
// NoKindMatchError text, which `kubectl apply` prints). Kubernetes sources for the cases:
// - apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go ValidateCustomResourceDefinitionSpec:
//   spec.group "should be a domain with at least one dot", so a group without a dot is never a CRD's;
// - the CRD handler serves only versions with served: true (customresource_handler.go: a version not
//   served is NotFound), and a refused CRD serves nothing.

type Obj = Record<string, unknown>

const crd = (group: string, versions: Obj[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions,
  },
})
const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }
const version = (name: string, served: boolean, storage: boolean) => ({ name, served, storage, schema })

const obj = (apiVersion: string, kind: string) => ({ apiVersion, kind, metadata: { name: 'x', namespace: 'default' } })

describe('no matches for kind: the reason', () => {
  const set = PolicySet.build([
    crd('example.com', [version('v1', true, true), version('v1beta1', false, false)]),
    // refused: a group without a dot
    crd('example', [version('v1', true, true)]),
  ])

  it('the refused CRD is a problem', () => {
    expect(set.problems.map((p) => p.name)).toEqual(['widgets.example'])
  })

  const cases: [string, string, string, Obj][] = [
    ['apps/v1', 'Deploymnet', 'a typo in a built-in group', { reason: 'not-served' }],
    ['app/v1', 'Foo', 'a group without a dot', { reason: 'not-served' }],
    ['v1', 'Policy', 'the core group', { reason: 'not-served' }],
    [
      'example.com/v1beta1',
      'Widget',
      'a CRD version with served: false',
      { reason: 'version-not-served', crd: 'widgets.example.com' },
    ],
    [
      'example.com/v2',
      'Widget',
      'a version the CRD does not have',
      { reason: 'version-not-served', crd: 'widgets.example.com' },
    ],
    ['example/v1', 'Widget', 'the kind of a refused CRD', { reason: 'crd-refused', crd: 'widgets.example' }],
    ['other.example.com/v1', 'Gadget', 'a dotted group no CRD in the inputs defines', { reason: 'no-crd' }],
    ['example.com/v1', 'Gadget', 'another kind of a CRD group', { reason: 'no-crd' }],
  ]
  for (const [apiVersion, kind, what, noMatch] of cases) {
    it(`${apiVersion} ${kind}: ${what}`, () => {
      const r = set.validate(obj(apiVersion, kind))
      expect(r.allowed).toBe(false)
      expect(r.status?.code).toBe(404)
      expect(r.status?.message).toBe(`no matches for kind "${kind}" in version "${apiVersion}"`)
      expect(r.noMatch).toEqual(noMatch)
    })
  }

  it('a served version has no noMatch', () => {
    const r = set.validate(obj('example.com/v1', 'Widget'))
    expect(r.allowed).toBe(true)
    expect(r.noMatch).toBeUndefined()
  })

  it('admit() of attributes built elsewhere (a webhook) for a version not served: the same reason', () => {
    const req = set.request(obj('example.com/v1', 'Widget'))
    if ('error' in req) throw new Error(req.error)
    const r = set.admit({
      ...req,
      kind: { group: 'example.com', version: 'v1beta1', kind: 'Widget' },
      resource: { group: 'example.com', version: 'v1beta1', resource: 'widgets' },
      object: obj('example.com/v1beta1', 'Widget'),
    })
    expect(r.allowed).toBe(false)
    expect(r.customResource?.status?.code).toBe(404)
    expect(r.noMatch).toEqual({ reason: 'version-not-served', crd: 'widgets.example.com' })
  })
})
