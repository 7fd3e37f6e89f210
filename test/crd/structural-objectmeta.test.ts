import { describe, expect, it } from 'vitest'
import { validateEmbeddedResources } from '../../src/crd/structural/objectmeta-validation.js'
import type { JSONSchemaProps } from '../../src/crd/structural/schema.js'
import type { FieldError } from '../../src/kube/field.js'
import { getObjectMeta, objectMetaToUnstructured } from '../../src/kube/objectmeta-unstructured.js'

// apiextensions-apiserver pkg/apiserver/schema/objectmeta: validation_test.go and coerce_test.go.

/** The Go tests' matcher: every expected (type, path) once, nothing else (order free). */
function matches(errs: FieldError[], want: [string, string][]) {
  const got = errs.map((e) => `${e.type} ${e.field}`).sort()
  expect(got).toEqual(want.map(([t, p]) => `${t} ${p}`).sort())
}
const required = (p: string): [string, string] => ['FieldValueRequired', p]
const invalid = (p: string): [string, string] => ['FieldValueInvalid', p]

describe('objectmeta/validation_test.go TestValidateEmbeddedResource', () => {
  const schema: JSONSchemaProps = { 'x-kubernetes-embedded-resource': true }
  const cases: { name: string; object: Record<string, unknown>; errors?: [string, string][] }[] = [
    { name: 'empty', object: {}, errors: [required('apiVersion'), required('kind')] },
    { name: 'version and kind', object: { apiVersion: 'foo/v1', kind: 'Foo' } },
    { name: 'invalid kind', object: { apiVersion: 'foo/v1', kind: 'foo.bar-com' }, errors: [invalid('kind')] },
    { name: 'no name', object: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 'kube-system' } } },
    { name: 'no namespace', object: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo' } } },
    {
      name: 'invalid',
      object: {
        apiVersion: 'foo/v1',
        kind: 'Foo',
        metadata: { name: '..', namespace: '$$$', labels: { '#': '#' }, annotations: { '#': '#' } },
      },
      errors: [
        invalid('metadata.name'),
        invalid('metadata.namespace'),
        invalid('metadata.labels'),
        invalid('metadata.labels'),
        invalid('metadata.annotations'),
      ],
    },
  ]
  for (const c of cases) {
    it(c.name, () => matches(validateEmbeddedResources(undefined, c.object, schema, false), c.errors ?? []))
  }
})

describe('objectmeta/validation_test.go TestValidate', () => {
  const embedded: JSONSchemaProps = { 'x-kubernetes-embedded-resource': true }
  const schema: JSONSchemaProps = {
    properties: {
      embedded,
      nested: { 'x-kubernetes-embedded-resource': true, properties: { embedded } },
      items: { items: embedded },
      additionalProperties: { additionalProperties: embedded },
    },
  }
  const cases: { name: string; object: string; includeRoot?: boolean; errors: [string, string][] }[] = [
    { name: 'empty', object: '{}', errors: [] },
    { name: 'include root', object: '{}', includeRoot: true, errors: [required('apiVersion'), required('kind')] },
    {
      name: 'embedded',
      object: '{"embedded": {}}',
      errors: [required('embedded.apiVersion'), required('embedded.kind')],
    },
    {
      name: 'nested',
      object: '{"nested": {"embedded": {}}}',
      errors: [
        required('nested.apiVersion'),
        required('nested.kind'),
        required('nested.embedded.apiVersion'),
        required('nested.embedded.kind'),
      ],
    },
    { name: 'items', object: '{"items": [{}]}', errors: [required('items[0].apiVersion'), required('items[0].kind')] },
    {
      name: 'additionalProperties',
      object: '{"additionalProperties": {"foo":{}}}',
      errors: [required('additionalProperties[foo].apiVersion'), required('additionalProperties[foo].kind')],
    },
  ]
  for (const c of cases) {
    it(c.name, () =>
      matches(validateEmbeddedResources(undefined, JSON.parse(c.object), schema, c.includeRoot === true), c.errors),
    )
  }
})

describe('objectmeta/coerce_test.go TestGetObjectMetaWithOptions', () => {
  const base = { name: 'my-meta', generateName: null, generation: null, labels: { foo: 'bar' } }
  const unknownAndMalformed = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { ...base, unknownField: 'foo', annotations: 11 },
  }
  const unknownOnly = { kind: 'Pod', apiVersion: 'v1', metadata: { ...base, unknownField: 'foo' } }
  const malformedOnly = { kind: 'Pod', apiVersion: 'v1', metadata: { ...base, annotations: 11 } }
  const expected = { name: 'my-meta', labels: { foo: 'bar' } }
  const err = 'json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string'
  const cases: [Record<string, unknown>, boolean, boolean, object | undefined, string[], string | undefined][] = [
    [unknownAndMalformed, false, false, undefined, [], err],
    [unknownAndMalformed, true, false, expected, [], undefined],
    [unknownAndMalformed, false, true, undefined, [], err],
    [unknownAndMalformed, true, true, expected, ['metadata.unknownField'], undefined],
    [unknownOnly, false, false, expected, [], undefined],
    [unknownOnly, true, false, expected, [], undefined],
    [unknownOnly, false, true, expected, ['metadata.unknownField'], undefined],
    [unknownOnly, true, true, expected, ['metadata.unknownField'], undefined],
    [malformedOnly, false, false, undefined, [], err],
    [malformedOnly, true, false, expected, [], undefined],
    [malformedOnly, false, true, undefined, [], err],
    [malformedOnly, true, true, expected, [], undefined],
  ]
  cases.forEach(([obj, drop, unknown, want, paths, error], i) => {
    it(`case ${i}`, () => {
      const r = getObjectMeta(obj, { dropMalformedFields: drop, returnUnknownFieldPaths: unknown })
      expect(r.meta === undefined ? undefined : objectMetaToUnstructured(r.meta)).toEqual(want)
      expect(r.error).toBe(error)
      expect(r.unknownFields).toEqual(paths)
    })
  })
})

describe('objectmeta/coerce_test.go', () => {
  it('TestGetObjectMetaNils', () => {
    const r = getObjectMeta(
      { kind: 'Pod', apiVersion: 'v1', metadata: { generateName: null, generation: null, labels: { foo: null } } },
      { dropMalformedFields: true },
    )
    expect(r.error).toBeUndefined()
    expect(r.meta?.generateName).toBe('')
    expect(r.meta?.generation).toBe(0)
    expect(r.meta?.labels).toEqual({ foo: '' })
  })
  it('TestGetObjectMeta', () => {
    const r = getObjectMeta(
      {
        metadata: {
          name: 'good',
          Name: 'bad1',
          nAme: 'bad2',
          naMe: 'bad3',
          namE: 'bad4',
          namespace: 'good',
          Namespace: 'bad1',
          nAmespace: 'bad2',
          naMespace: 'bad3',
          namEspace: 'bad4',
          creationTimestamp: 'a',
        },
      },
      { dropMalformedFields: true },
    )
    expect(r.error).toBeUndefined()
    expect(r.meta?.name).toBe('good')
    expect(r.meta?.namespace).toBe('good')
  })
})
