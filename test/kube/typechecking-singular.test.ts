import { describe, expect, it } from 'vitest'
import { crdMappingFromObject, RESTMapper } from '../../src/kube/resources.js'
import { kindsFor } from '../../src/policy/validating/typechecking.js'

// status.typeChecking resolves a policy's resourceRules with the discovery RESTMapper (client-go
// restmapper/discovery.go NewDiscoveryRESTMapper): a resource is known by its plural and by the
// singularName discovery serves, a CRD's spec.names.singular; only without one does client-go guess
// the lower-cased kind (meta.UnsafeGuessKindToResource). Issue 28: kelp guessed for CRDs too.

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Gadget', plural: 'gadgets', singular: 'gizmo', listKind: 'GadgetList' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true }],
  },
}

describe('kindsFor with a CRD whose singular is not its lower-cased kind', () => {
  const mapper = new RESTMapper({ release: '1.37' })
  mapper.addCRD(crdMappingFromObject(crd))
  const gadget = [{ group: 'example.com', version: 'v1', kind: 'Gadget' }]
  it('resolves spec.names.singular', () => {
    expect(kindsFor(mapper, { group: 'example.com', version: 'v1', resource: 'gizmo' })).toEqual(gadget)
  })
  it('resolves the plural', () => {
    expect(kindsFor(mapper, { group: 'example.com', version: 'v1', resource: 'gadgets' })).toEqual(gadget)
  })
  it('does not resolve the lower-cased kind when discovery serves another singular', () => {
    expect(kindsFor(mapper, { group: 'example.com', version: 'v1', resource: 'gadget' })).toEqual([])
  })
  it('guesses the lower-cased kind for a CRD without a singular', () => {
    const m = new RESTMapper({ release: '1.37' })
    const { singular: _, ...names } = crd.spec.names
    m.addCRD(crdMappingFromObject({ ...crd, spec: { ...crd.spec, names } }))
    expect(kindsFor(m, { group: 'example.com', version: 'v1', resource: 'gadget' })).toEqual(gadget)
  })
})
