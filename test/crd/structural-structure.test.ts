import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../src/crd/structural/schema.js'
import { validateStructure } from '../../src/crd/structural/structure.js'
import { errorString } from '../../src/kube/field.js'

// The whole pre-CEL pipeline in the apiserver's order. Expected texts are the Go format strings of
// customresource_handler.go (schemaCoercingDecoder: `unknown field "%s"`), endpoints/handlers/rest.go
// transformDecodeError (`%s in version %q cannot be handled as a %s: %v`), validator.go
// ValidateTypeMeta (`must be %v`), strategy.go hasBlockingErr, kube-openapi's type error and
// apimachinery's ObjectMeta validation (`Required value`).

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', minimum: 0 },
        mode: { type: 'string', default: 'auto', enum: ['auto', 'manual'] },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
      'x-kubernetes-validations': [{ rule: 'self.replicas < 100' }],
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
}
const resource = { group: 'example.com', version: 'v1', kind: 'Widget', namespaced: true }
const cr = (spec: object, metadata: object = { name: 'w', namespace: 'default' }) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata,
  spec,
})
const texts = (r: ReturnType<typeof validateStructure>) => r.errors.map(errorString)

describe('validateStructure: CREATE', () => {
  it('applies defaults on a copy and leaves the input alone', () => {
    const input = cr({ replicas: 1 })
    const r = validateStructure(schema, input, { resource })
    expect(r.errors).toEqual([])
    expect(r.object?.spec).toMatchObject({ mode: 'auto' })
    expect(r.object?.metadata).toMatchObject({ name: 'w', namespace: 'default', generation: 1 })
    expect(input.spec).toEqual({ replicas: 1 })
    expect(r.runCEL).toBe(true)
  })

  it('warns about unknown fields (fieldValidation=Warn)', () => {
    const r = validateStructure(schema, { ...cr({ replicas: 1, foo: 1 }), bar: 2 }, { resource })
    expect(r.warnings).toEqual(['unknown field "bar"', 'unknown field "spec.foo"'])
    expect(r.object?.bar).toBeUndefined()
  })

  it('fails the request on unknown fields (fieldValidation=Strict), metadata first', () => {
    const r = validateStructure(schema, cr({ replicas: 1, foo: 1 }, { name: 'w', namespace: 'default', foo: 'x' }), {
      resource,
      fieldValidation: 'Strict',
    })
    expect(r.requestError).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "metadata.foo", unknown field "spec.foo"',
    )
  })

  it('ignores unknown fields silently (fieldValidation=Ignore)', () => {
    const r = validateStructure(schema, cr({ replicas: 1, foo: 1 }), { resource, fieldValidation: 'Ignore' })
    expect(r.warnings).toEqual([])
    expect(r.errors).toEqual([])
  })

  it('fails decoding on malformed metadata', () => {
    const r = validateStructure(schema, cr({}, { name: 5 }), { resource })
    expect(r.requestError).toBe(
      'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    )
  })

  it('reports a type error, then blocks CEL with the blocking error', () => {
    const r = validateStructure(schema, cr({ replicas: 'x' }), { resource })
    expect(texts(r)).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ])
    expect(r.runCEL).toBe(false)
  })

  it('keeps CEL running after non-blocking errors', () => {
    const r = validateStructure(schema, cr({ replicas: -1 }), { resource })
    expect(texts(r)).toEqual([
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
    ])
    expect(r.runCEL).toBe(true)
  })

  it('reports only TypeMeta errors when the kind is wrong', () => {
    const r = validateStructure(schema, { ...cr({ replicas: 'x' }), kind: 'Other' }, { resource })
    expect(texts(r)[0]).toBe('kind: Invalid value: "Other": must be Widget')
  })

  it('requires a namespace for namespaced kinds, fills it from the request', () => {
    expect(texts(validateStructure(schema, cr({}, { name: 'w' }), { resource }))).toEqual([
      'metadata.namespace: Required value',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ])
    const r = validateStructure(schema, cr({}, { name: 'w' }), { resource, namespace: 'ns1' })
    expect(r.errors).toEqual([])
    expect(r.object?.metadata).toMatchObject({ namespace: 'ns1' })
  })

  it('reports list-type duplicates', () => {
    expect(texts(validateStructure(schema, cr({ tags: ['a', 'a'] }), { resource }))).toEqual([
      'spec.tags[1]: Duplicate value: "a"',
    ])
  })
})

describe('validateStructure: UPDATE', () => {
  const stored = {
    ...cr({ replicas: -1, mode: 'auto' }),
    metadata: { name: 'w', namespace: 'default', resourceVersion: '7', generation: 3 },
  }
  it('ratchets an unchanged invalid value', () => {
    const next = {
      ...cr({ replicas: -1, tags: ['x'] }),
      metadata: { name: 'w', namespace: 'default', resourceVersion: '7' },
    }
    const r = validateStructure(schema, next, { resource, oldObject: stored })
    expect(r.errors).toEqual([])
    expect(r.ratcheted.map(errorString)).toEqual([
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
    ])
    expect(r.object?.metadata).toMatchObject({ generation: 4 })
  })
  it('does not ratchet a changed invalid value', () => {
    const next = { ...cr({ replicas: -2 }), metadata: { name: 'w', namespace: 'default', resourceVersion: '7' } }
    expect(texts(validateStructure(schema, next, { resource, oldObject: stored }))).toEqual([
      'spec.replicas: Invalid value: -2: spec.replicas in body should be greater than or equal to 0',
    ])
  })
  it('rejects a changed name', () => {
    const next = { ...cr({ replicas: 1 }), metadata: { name: 'x', namespace: 'default', resourceVersion: '7' } }
    expect(texts(validateStructure(schema, next, { resource, oldObject: stored }))).toEqual([
      'metadata.name: Invalid value: "x": field is immutable',
      'metadata.name: Invalid value: "x": field is immutable',
    ])
  })
})
