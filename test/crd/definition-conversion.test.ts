import { describe, expect, it } from 'vitest'
import { convertV1Spec, setV1Defaults, toInternalForCreate } from '../../src/crd/definition/convert.js'
import { decodeV1CustomResourceDefinition } from '../../src/crd/definition/decode.js'
import { crdFromGo, v1JSONFromGo } from './definition-go.js'
import { testConversion } from './definition-go-conversion-table.js'

// The v1 → internal conversion (pkg/apis/apiextensions/v1/conversion.go), the v1 defaults
// (defaults.go) and PrepareForCreate's status (registry/customresourcedefinition/strategy.go).

describe('v1/conversion_test.go TestConversion (v1 to internal)', () => {
  for (const tc of testConversion) {
    it(tc.Name, () => {
      const v1 = decodeV1CustomResourceDefinition(v1JSONFromGo(tc.In))
      expect(convertV1Spec(v1.spec)).toEqual(crdFromGo(tc.ExpectOut).spec)
    })
  }
})

describe('v1/defaults_test.go TestDefaults', () => {
  it('empty: conversion strategy None', () => {
    const crd = setV1Defaults(decodeV1CustomResourceDefinition({}))
    expect(crd.spec.conversion).toEqual({ strategy: 'None' })
  })

  it('conversion defaults: service port 443', () => {
    const crd = setV1Defaults(
      decodeV1CustomResourceDefinition({
        spec: { scope: 'Namespaced', conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: {} } } } },
      }),
    )
    expect(crd.spec.conversion).toEqual({ strategy: 'Webhook', webhook: { clientConfig: { service: { port: 443 } } } })
  })

  it('storage status defaults: the storage version is stored', () => {
    const crd = toInternalForCreate(
      decodeV1CustomResourceDefinition({
        spec: {
          scope: 'Namespaced',
          conversion: { strategy: 'None' },
          versions: [
            { name: 'v1', storage: false, served: true },
            { name: 'v2', storage: true, served: true },
            { name: 'v3', storage: false, served: true },
          ],
        },
      }),
    )
    expect(crd.status?.storedVersions).toEqual(['v2'])
  })
})

describe('v1/defaults.go SetDefaults_CustomResourceDefinitionSpec: names', () => {
  it('singular is the lowercased kind, listKind is kind + "List"', () => {
    const crd = setV1Defaults(decodeV1CustomResourceDefinition({ spec: { names: { plural: 'foos', kind: 'Foo' } } }))
    expect(crd.spec.names).toEqual({ plural: 'foos', kind: 'Foo', singular: 'foo', listKind: 'FooList' })
  })
  it('set names are kept', () => {
    const crd = setV1Defaults(
      decodeV1CustomResourceDefinition({ spec: { names: { kind: 'Foo', singular: 'f', listKind: 'Foos' } } }),
    )
    expect(crd.spec.names).toEqual({ kind: 'Foo', singular: 'f', listKind: 'Foos' })
  })
})

describe('registry strategy.go PrepareForCreate and rest.BeforeCreate', () => {
  it('no storage version: no stored version', () => {
    const crd = toInternalForCreate(decodeV1CustomResourceDefinition({ spec: { versions: [{ name: 'v1' }] } }))
    expect(crd.status).toEqual({})
  })
  it('the namespace of the cluster-scoped CRD is cleared', () => {
    const crd = toInternalForCreate(decodeV1CustomResourceDefinition({ metadata: { name: 'a.b.c', namespace: 'x' } }))
    expect(crd.metadata).toEqual({ name: 'a.b.c' })
  })
})
