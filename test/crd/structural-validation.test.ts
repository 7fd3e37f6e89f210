import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../src/crd/structural/schema.js'
import { newSchemaValidator, validateCustomResource } from '../../src/crd/structural/schema-validation.js'
import type { KubeVersion } from '../../src/kube/environment.js'
import { errorString } from '../../src/kube/field.js'

// apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource:
// schema errors of each object, compared as sets (the Go test does the same). Cases whose expected
// errors come only from x-kubernetes-validations (CEL) are kept for their schema part: the schema
// validator must report nothing for them.

interface Case {
  name: string
  version?: KubeVersion
  schema: JSONSchemaProps
  objects?: unknown[]
  failing?: { object: unknown; expect: string[] }[]
}

const MaxInt32 = 2147483647
const MinInt32 = -2147483648
const MaxFloat32 = 3.4028234663852886e38

const cases: Case[] = [
  {
    name: '!nullable',
    schema: { type: 'object', properties: { field: { type: 'object', nullable: false } } },
    objects: [{}, { field: {} }],
    failing: [
      {
        object: { field: 'foo' },
        expect: ['field: Invalid value: "string": field in body must be of type object: "string"'],
      },
      {
        object: { field: 42 },
        expect: ['field: Invalid value: "integer": field in body must be of type object: "integer"'],
      },
      {
        object: { field: true },
        expect: ['field: Invalid value: "boolean": field in body must be of type object: "boolean"'],
      },
      {
        object: { field: 1.2 },
        expect: ['field: Invalid value: "number": field in body must be of type object: "number"'],
      },
      {
        object: { field: [] },
        expect: ['field: Invalid value: "array": field in body must be of type object: "array"'],
      },
      {
        object: { field: null },
        expect: ['field: Invalid value: "null": field in body must be of type object: "null"'],
      },
    ],
  },
  {
    name: 'nullable',
    schema: { type: 'object', properties: { field: { type: 'object', nullable: true } } },
    objects: [{}, { field: {} }, { field: null }],
    failing: [
      {
        object: { field: 'foo' },
        expect: ['field: Invalid value: "string": field in body must be of type object: "string"'],
      },
      {
        object: { field: 42 },
        expect: ['field: Invalid value: "integer": field in body must be of type object: "integer"'],
      },
      {
        object: { field: true },
        expect: ['field: Invalid value: "boolean": field in body must be of type object: "boolean"'],
      },
      {
        object: { field: 1.2 },
        expect: ['field: Invalid value: "number": field in body must be of type object: "number"'],
      },
      {
        object: { field: [] },
        expect: ['field: Invalid value: "array": field in body must be of type object: "array"'],
      },
    ],
  },
  {
    name: 'nullable and no type',
    schema: { type: 'object', properties: { field: { nullable: true } } },
    objects: [
      {},
      { field: {} },
      { field: null },
      { field: 'foo' },
      { field: 42 },
      { field: true },
      { field: 1.2 },
      { field: [] },
    ],
  },
  {
    name: 'x-kubernetes-int-or-string',
    schema: { type: 'object', properties: { field: { 'x-kubernetes-int-or-string': true } } },
    objects: [{}, { field: 42 }, { field: 'foo' }],
    failing: [
      {
        object: { field: null },
        expect: ['field: Invalid value: "null": field in body must be of type integer,string: "null"'],
      },
      {
        object: { field: true },
        expect: ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"'],
      },
      {
        object: { field: 1.2 },
        expect: ['field: Invalid value: "number": field in body must be of type integer,string: "number"'],
      },
      {
        object: { field: {} },
        expect: ['field: Invalid value: "object": field in body must be of type integer,string: "object"'],
      },
      {
        object: { field: [] },
        expect: ['field: Invalid value: "array": field in body must be of type integer,string: "array"'],
      },
    ],
  },
  {
    name: 'nullable and x-kubernetes-int-or-string',
    schema: { type: 'object', properties: { field: { nullable: true, 'x-kubernetes-int-or-string': true } } },
    objects: [{}, { field: 42 }, { field: 'foo' }, { field: null }],
    failing: [
      {
        object: { field: true },
        expect: ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"'],
      },
      {
        object: { field: 1.2 },
        expect: ['field: Invalid value: "number": field in body must be of type integer,string: "number"'],
      },
      {
        object: { field: {} },
        expect: ['field: Invalid value: "object": field in body must be of type integer,string: "object"'],
      },
      {
        object: { field: [] },
        expect: ['field: Invalid value: "array": field in body must be of type integer,string: "array"'],
      },
    ],
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provided anyOf',
    schema: {
      type: 'object',
      properties: {
        field: { nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      },
    },
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: [
      {
        object: { field: true },
        expect: [
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
          'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
        ],
      },
      {
        object: { field: 1.2 },
        expect: [
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "number": field in body must be of type integer,string: "number"',
          'field: Invalid value: "number": field in body must be of type integer: "number"',
          '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field',
        ],
      },
      {
        object: { field: {} },
        expect: [
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "object": field in body must be of type integer,string: "object"',
          'field: Invalid value: "object": field in body must be of type integer: "object"',
        ],
      },
      {
        object: { field: [] },
        expect: [
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "array": field in body must be of type integer,string: "array"',
          'field: Invalid value: "array": field in body must be of type integer: "array"',
        ],
      },
    ],
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provider allOf',
    schema: {
      type: 'object',
      properties: {
        field: {
          nullable: true,
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
        },
      },
    },
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: [
      {
        object: { field: true },
        expect: [
          '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
          'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
        ],
      },
      {
        object: { field: 1.2 },
        expect: [
          '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "number": field in body must be of type integer,string: "number"',
          'field: Invalid value: "number": field in body must be of type integer: "number"',
          '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field',
        ],
      },
      {
        object: { field: {} },
        expect: [
          '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "object": field in body must be of type integer,string: "object"',
          'field: Invalid value: "object": field in body must be of type integer: "object"',
        ],
      },
      {
        object: { field: [] },
        expect: [
          '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "array": field in body must be of type integer,string: "array"',
          'field: Invalid value: "array": field in body must be of type integer: "array"',
        ],
      },
    ],
  },
  {
    name: 'invalid regex',
    schema: { type: 'object', properties: { field: { type: 'string', pattern: '+' } } },
    failing: [
      {
        object: { field: 'foo' },
        expect: [
          'field: Invalid value: "foo": field in body should match \'+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`\'',
        ],
      },
    ],
  },
  {
    name: 'required field',
    schema: {
      type: 'object',
      required: ['field'],
      properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } },
    },
    failing: [
      { object: { test: 'a' }, expect: ['field: Required value'] },
      { object: { field: {} }, expect: ['field.nested: Required value'] },
    ],
  },
  {
    name: 'enum',
    schema: {
      type: 'object',
      properties: {
        field: {
          type: 'object',
          required: ['nestedint', 'nestedstring'],
          properties: {
            nestedint: { type: 'integer', enum: [1, 2] },
            nestedstring: { type: 'string', enum: ['a', 'b'] },
          },
        },
      },
    },
    failing: [
      { object: { field: {} }, expect: ['field.nestedint: Required value', 'field.nestedstring: Required value'] },
      {
        object: { field: { nestedint: 'x', nestedstring: true } },
        expect: [
          'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
        ],
      },
    ],
  },
  {
    // its failing object fails only the CEL rule (self == oldSelf)
    name: 'immutability transition rule',
    schema: {
      type: 'object',
      properties: { field: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
    },
    objects: [{ field: 'x' }, { field: 'y' }],
  },
  {
    // its failing object fails only the CEL rule (self >= oldSelf)
    name: 'correlatable transition rule',
    schema: {
      type: 'object',
      properties: {
        field: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k1', 'k2'],
          items: {
            type: 'object',
            properties: {
              k1: { type: 'string' },
              k2: { type: 'string' },
              v1: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] },
            },
          },
        },
      },
    },
    objects: [{ field: [{ k1: 'a', k2: 'b', v1: 1.2 }] }, { field: [{ k1: 'a', k2: 'b', v1: 0.9 }] }],
  },
  {
    // its failing object fails only the CEL rule (self == 'x')
    name: 'validation rule under non-correlatable field',
    schema: {
      type: 'object',
      properties: {
        field: {
          type: 'array',
          items: {
            type: 'object',
            properties: { x: { type: 'string', 'x-kubernetes-validations': [{ rule: "self == 'x'" }] } },
          },
        },
      },
    },
    objects: [{ field: [{ x: 'x' }] }, { field: [{ x: 'y' }] }],
  },
  {
    name: 'maxProperties',
    schema: { type: 'object', properties: { fieldX: { type: 'object', maxProperties: 2 } } },
    failing: [
      { object: { fieldX: { a: true, b: true, c: true } }, expect: ['fieldX: Too many: 3: must have at most 2 items'] },
    ],
  },
  {
    name: 'maxItems',
    schema: { type: 'object', properties: { fieldX: { type: 'array', maxItems: 2 } } },
    failing: [{ object: { fieldX: ['a', 'b', 'c'] }, expect: ['fieldX: Too many: 3: must have at most 2 items'] }],
  },
  {
    name: 'maxLength',
    schema: { type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } },
    failing: [{ object: { fieldX: 'abc' }, expect: ['fieldX: Too long: may not be more than 2 bytes'] }],
  },
  {
    // compatVersion 1.34: the apiserver of 1.35
    name: 'k8sLongName',
    version: '1.35',
    schema: { type: 'object', properties: { fieldX: { type: 'string', format: 'k8s-long-name' } } },
    failing: [
      {
        object: { fieldX: 'a.-' },
        expect: ['fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"'],
      },
    ],
  },
  {
    name: 'k8sShortName',
    version: '1.35',
    schema: { type: 'object', properties: { fieldX: { type: 'string', format: 'k8s-short-name' } } },
    failing: [
      {
        object: { fieldX: 'a-' },
        expect: ['fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"'],
      },
    ],
  },
  {
    // Go's float64(0) cannot be told from an integer in JSON data here, so 0.5 stands for it; the
    // int64 extremes need bigint, and ±MaxFloat32 (integral, beyond int64) are float64 anyway
    name: 'numeric formats valid',
    schema: {
      type: 'object',
      properties: {
        intThirtyTwo: { type: 'integer', format: 'int32' },
        intSixtyFour: { type: 'integer', format: 'int64' },
        floatThreeTwo: { type: 'number', format: 'float' },
        floatSixFour: { type: 'number', format: 'double' },
      },
    },
    objects: [
      {
        intThirtyTwo: MinInt32,
        intSixtyFour: -(2n ** 63n),
        floatThreeTwo: -MaxFloat32,
        floatSixFour: -Number.MAX_VALUE,
      },
      { intThirtyTwo: 0, intSixtyFour: 0, floatThreeTwo: 0.5, floatSixFour: 0.5 },
      {
        intThirtyTwo: MaxInt32,
        intSixtyFour: 2n ** 63n - 1n,
        floatThreeTwo: MaxFloat32,
        floatSixFour: Number.MAX_VALUE,
      },
    ],
  },
  {
    name: 'numeric formats invalid',
    schema: {
      type: 'object',
      properties: {
        intThirtyTwo: { type: 'integer', format: 'int32' },
        intSixtyFour: { type: 'integer', format: 'int64' },
        floatThreeTwo: { type: 'number', format: 'float' },
        floatSixFour: { type: 'number', format: 'double' },
      },
    },
    failing: [
      {
        object: { intThirtyTwo: MaxInt32 + 1 },
        expect: ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo'],
      },
      {
        object: { intThirtyTwo: MinInt32 - 1 },
        expect: ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo'],
      },
      {
        object: { intSixtyFour: 2 ** 63 * 1.1 },
        expect: [
          'intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"',
          '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour',
        ],
      },
      {
        object: { intSixtyFour: -(2 ** 63) * 1.1 },
        expect: [
          'intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"',
          '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour',
        ],
      },
      {
        object: { floatThreeTwo: MaxFloat32 * 1.1 },
        expect: ['<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo'],
      },
      {
        object: { floatThreeTwo: -MaxFloat32 * 1.1 },
        expect: ['<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo'],
      },
    ],
  },
]

describe('validation_test.go TestValidateCustomResource', () => {
  for (const c of cases) {
    describe(c.name, () => {
      const validator = newSchemaValidator(c.schema, c.version ? { version: c.version } : {})
      c.objects?.forEach((obj, i) => {
        it(`valid object ${i}`, () => {
          expect(validateCustomResource(undefined, obj, validator).map(errorString)).toEqual([])
        })
      })
      c.failing?.forEach((f, i) => {
        it(`failing object ${i}`, () => {
          const got = new Set(validateCustomResource(undefined, f.object, validator).map(errorString))
          expect([...got].sort()).toEqual([...new Set(f.expect)].sort())
        })
      })
    })
  }
})

// validation_test.go TestItemsProperty
describe('validation_test.go TestItemsProperty', () => {
  it('items in object', () => {
    const v = newSchemaValidator({ properties: { spec: { properties: { replicas: { type: 'integer' } } } } })
    expect(validateCustomResource(undefined, { spec: { replicas: 1, items: ['1', '2'] } }, v)).toEqual([])
  })
  it('items in array', () => {
    const v = newSchemaValidator({ properties: { secrets: { type: 'array', items: { type: 'string' } } } })
    expect(validateCustomResource(undefined, { secrets: ['1', '2'] }, v)).toEqual([])
  })
})

// The same test as of kubernetes-1.35.0: kube-openapi did not yet check numbers against their type,
// so the integer alternative reports no "Checked value" range error.
describe('validation_test.go TestValidateCustomResource at kubernetes-1.35.0', () => {
  const anyOf = { anyOf: [{ type: 'integer' }, { type: 'string' }] }
  const field = { nullable: true, 'x-kubernetes-int-or-string': true }
  it('nullable, x-kubernetes-int-or-string and user-provided anyOf: 1.2', () => {
    const v = newSchemaValidator({ type: 'object', properties: { field: { ...field, ...anyOf } } }, { version: '1.35' })
    expect(validateCustomResource(undefined, { field: 1.2 }, v).map(errorString).sort()).toEqual(
      [
        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
        'field: Invalid value: "number": field in body must be of type integer,string: "number"',
        'field: Invalid value: "number": field in body must be of type integer: "number"',
      ].sort(),
    )
  })
  it('nullable, x-kubernetes-int-or-string and user-provider allOf: 1.2', () => {
    const v = newSchemaValidator(
      { type: 'object', properties: { field: { ...field, allOf: [anyOf] } } },
      { version: '1.35' },
    )
    expect(validateCustomResource(undefined, { field: 1.2 }, v).map(errorString).sort()).toEqual(
      [
        '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
        'field: Invalid value: "number": field in body must be of type integer,string: "number"',
        'field: Invalid value: "number": field in body must be of type integer: "number"',
      ].sort(),
    )
  })
})

// validation_test.go TestValidateCustomResource "maxLength" as of kubernetes-1.30.0 and 1.31.0
// (field.TooLongMaxLength).
describe('validation_test.go TestValidateCustomResource maxLength at kubernetes-1.30.0/1.31.0', () => {
  for (const version of ['1.30', '1.31'] as const) {
    it(version, () => {
      const v = newSchemaValidator(
        { type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } },
        { version },
      )
      expect(validateCustomResource(undefined, { fieldX: 'abc' }, v).map(errorString)).toEqual([
        'fieldX: Too long: may not be longer than 2',
      ])
    })
  }
})
