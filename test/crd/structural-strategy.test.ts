import { describe, expect, it } from 'vitest'
import { validateCR } from '../../src/crd/structural/cr-validator.js'
import { applySchemaCoercer } from '../../src/crd/structural/decode.js'
import type { JSONSchemaProps } from '../../src/crd/structural/schema.js'
import { newSchemaValidator } from '../../src/crd/structural/schema-validation.js'
import { prepareForStatusUpdate, prepareForUpdate, validateStatusUpdate } from '../../src/crd/structural/strategy.js'
import { strictDecodingError } from '../../src/kube/decoding.js'
import { aggregateString } from '../../src/kube/field.js'

// apiextensions-apiserver pkg/registry/customresource (strategy_test.go, status_strategy_test.go,
// validator_test.go) and pkg/apiserver/customresource_handler_test.go TestDecoder.

describe('strategy_test.go TestStrategyPrepareForUpdate', () => {
  const g1 = () => ({ generation: 1 })
  const g2 = () => ({ generation: 2 })
  const cases: [string, boolean, object, object, object][] = [
    [
      '/status is enabled, spec changes increment generation',
      true,
      { metadata: g1(), spec: 'old', status: 'old' },
      { metadata: g1(), spec: 'new', status: 'old' },
      { metadata: g2(), spec: 'new', status: 'old' },
    ],
    [
      '/status is enabled, status changes do not increment generation, status changes removed',
      true,
      { metadata: g1(), spec: 'old', status: 'old' },
      { metadata: g1(), spec: 'old', status: 'new' },
      { metadata: g1(), spec: 'old', status: 'old' },
    ],
    [
      '/status is enabled, metadata changes do not increment generation',
      true,
      { metadata: { generation: 1, other: 'old' }, spec: 'old', status: 'old' },
      { metadata: { generation: 1, other: 'new' }, spec: 'old', status: 'old' },
      { metadata: { generation: 1, other: 'new' }, spec: 'old', status: 'old' },
    ],
    [
      '/status is disabled, spec changes increment generation',
      false,
      { metadata: g1(), spec: 'old', status: 'old' },
      { metadata: g1(), spec: 'new', status: 'old' },
      { metadata: g2(), spec: 'new', status: 'old' },
    ],
    [
      '/status is disabled, status changes increment generation',
      false,
      { metadata: g1(), spec: 'old', status: 'old' },
      { metadata: g1(), spec: 'old', status: 'new' },
      { metadata: g2(), spec: 'old', status: 'new' },
    ],
    [
      '/status is disabled, other top-level field changes increment generation',
      false,
      { metadata: g1(), spec: 'old', image: 'old', status: 'old' },
      { metadata: g1(), spec: 'old', image: 'new', status: 'old' },
      { metadata: g2(), spec: 'old', image: 'new', status: 'old' },
    ],
    [
      '/status is disabled, metadata changes do not increment generation',
      false,
      { metadata: { generation: 1, other: 'old' }, spec: 'old', status: 'old' },
      { metadata: { generation: 1, other: 'new' }, spec: 'old', status: 'old' },
      { metadata: { generation: 1, other: 'new' }, spec: 'old', status: 'old' },
    ],
  ]
  for (const [name, status, old, obj, expected] of cases) {
    it(name, () => {
      const o = structuredClone(obj) as Record<string, unknown>
      prepareForUpdate(o, old as Record<string, unknown>, status)
      expect(o).toStrictEqual(expected)
    })
  }
})

describe('status_strategy_test.go TestPrepareForUpdate', () => {
  const cases: [object, object, object][] = [
    [{ spec: 'old' }, { spec: 'new' }, { spec: 'old' }],
    [{ spec: 'old' }, { new: 'new' }, { spec: 'old' }],
    [{ spec: 'old', status: 'old' }, { spec: 'old' }, { spec: 'old' }],
    [{ spec: 'old', status: 'old' }, { status: 'new' }, { spec: 'old', status: 'new' }],
    [
      { spec: 'old', status: 'old' },
      { spec: 'new', new: 'new', status: 'new' },
      { spec: 'old', status: 'new' },
    ],
  ]
  cases.forEach(([old, obj, expected], i) => {
    it(`case ${i}`, () => {
      expect(prepareForStatusUpdate(obj as Record<string, unknown>, old as Record<string, unknown>)).toStrictEqual(
        expected,
      )
    })
  })
})

describe('status_strategy_test.go TestStatusStrategyValidateUpdate', () => {
  // listTypeResourceSchema, version v1
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { numArray: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } } },
  }
  const ctx = {
    info: { group: 'test', version: 'v1', kind: 'Foo', namespaced: false },
    schema,
    schemaValidator: undefined,
  }
  const base = { apiVersion: 'test/v1', kind: 'Foo' }
  const rv = { metadata: { resourceVersion: '1' } }
  const cases: [string, object, object, boolean][] = [
    ['bothValid', { ...base, numArray: [1, 2] }, { ...base, numArray: [1, 3], ...rv }, true],
    [
      'change to invalid',
      { ...base, spec: 'old', numArray: [1, 2] },
      { ...base, spec: 'new', numArray: [1, 1], ...rv },
      false,
    ],
    [
      'change to valid',
      { ...base, spec: 'new', numArray: [1, 1] },
      { ...base, spec: 'old', numArray: [1, 2], ...rv },
      true,
    ],
    [
      'keeps invalid',
      { ...base, spec: 'new', numArray: [1, 1] },
      { ...base, spec: 'old', numArray: [1, 1], ...rv },
      true,
    ],
  ]
  for (const [name, old, obj, ok] of cases) {
    it(name, () => {
      const r = validateStatusUpdate(obj as Record<string, unknown>, old as Record<string, unknown>, ctx)
      expect(r.errors.length === 0).toBe(ok)
    })
  }
})

describe('validator_test.go TestValidateCustomResourceName', () => {
  const props: JSONSchemaProps = {
    type: 'object',
    properties: { metadata: { type: 'object', properties: { name: { type: 'string', pattern: '^[A-Za-z]+$' } } } },
  }
  const info = { group: 'example.com', version: 'v1', kind: 'Foo', namespaced: false }
  const cr = (metadata: object) => ({ apiVersion: 'example.com/v1', kind: 'Foo', metadata })
  const cases: [string, object, string][] = [
    ['valid lowercase name accepted', { name: 'foo' }, ''],
    ['uppercase name rejected by DNS1123 despite a permissive pattern', { name: 'Foo' }, 'RFC 1123 subdomain'],
    ["name rejected by the author's pattern", { name: 'foo123' }, 'should match'],
    [
      '253-char generateName accepted; CEL cost bound is not enforced',
      { name: 'foo', generateName: 'a'.repeat(253) },
      '',
    ],
  ]
  for (const [name, metadata, contains] of cases) {
    it(name, () => {
      const errs = validateCR(cr(metadata), info, newSchemaValidator(props))
      if (contains === '') expect(errs).toEqual([])
      else expect(aggregateString(errs)).toContain(contains)
    })
  }
})

describe('customresource_handler_test.go TestDecoder (JSON cases; duplicate fields are the JSON parser’s)', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { num: { type: 'integer', description: 'v1beta1 num field' } },
  }
  // the body's `"num": 1, "num": 2` parsed as JSON keeps the last value
  const body = () => ({
    apiVersion: 'stable.example.com/v1beta1',
    kind: 'MultiVersion',
    metadata: { name: 'my-mv' },
    num: 2,
    unknown: 'foo',
  })
  const notPreserved = {
    apiVersion: 'stable.example.com/v1beta1',
    kind: 'MultiVersion',
    metadata: { generation: 1, name: 'my-mv' },
    num: 2,
  }
  const preserved = { ...notPreserved, unknown: 'foo' }
  const cases: [string, boolean, boolean, object, string | undefined][] = [
    ['strict-decoding', true, false, notPreserved, 'strict decoding error: unknown field "unknown"'],
    ['non-strict-decoding', false, false, notPreserved, undefined],
    ['strict-decoding-preserve-unknown', true, true, preserved, undefined],
    ['non-strict-decoding-preserve-unknown', false, true, preserved, undefined],
  ]
  for (const [name, strict, preserve, expected, err] of cases) {
    it(name, () => {
      const obj = body()
      const r = applySchemaCoercer(obj, schema, {
        dropInvalidMetadata: true,
        repairGeneration: true,
        returnUnknownFieldPaths: strict,
        preserveUnknownFields: preserve,
      })
      expect(r.error).toBeUndefined()
      expect(obj).toStrictEqual(expected)
      expect(r.unknownFields.length > 0 ? strictDecodingError(r.unknownFields) : undefined).toBe(err)
    })
  }
})
