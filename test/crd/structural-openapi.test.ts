import { describe, expect, it } from 'vitest'
import type { OpenAPISchema } from '../../src/crd/structural/convert.js'
import { Code } from '../../src/crd/structural/openapi-errors.js'
import { newSchemaValidator } from '../../src/crd/structural/schema-validation.js'
import {
  isValueValidAgainstRange,
  maximumNativeType,
  minimumNativeType,
  multipleOf,
  multipleOfNativeType,
  validateNumber,
} from '../../src/crd/structural/validate-number.js'
import { validateString } from '../../src/crd/structural/validate-scalars.js'
import { DEFAULT_ENV, SchemaValidator } from '../../src/crd/structural/validator.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// kube-openapi pkg/validation/validate tests about semantics the CRD validator uses (values_test.go,
// validator_test.go, schema_test.go, object_validator_test.go), and apiextensions-apiserver
// pkg/apiserver/validation/ratcheting_test.go.

/** A spec.Schema with only the given keywords. */
function spec(p: Partial<OpenAPISchema>): OpenAPISchema {
  return {
    type: [],
    nullable: false,
    format: '',
    exclusiveMaximum: false,
    exclusiveMinimum: false,
    pattern: '',
    uniqueItems: false,
    required: [],
    allOf: [],
    oneOf: [],
    anyOf: [],
    ...p,
  }
}

describe('values_test.go', () => {
  it('TestValuMultipleOf', () => {
    for (const [d, f] of [
      [9, 3],
      [9.3, 3.1],
      [9.1, 0.1],
      [3, 0.3],
      [6, 0.3],
      [1, 0.25],
      [8, 0.2],
    ] as const) {
      expect(multipleOf('test', d, f), `${d} multipleOf ${f}`).toBeUndefined()
    }
    for (const [d, f] of [
      [9, 0],
      [9.1, 0],
      [3, 0.4],
      [9.1, 0.2],
      [9.34, 0.1],
      [9.34, -0.1],
    ] as const) {
      expect(multipleOf('test', d, f), `${d} multipleOf ${f}`).toBeDefined()
    }
  })

  it('TestValues_MaximumNative (signed and float kinds)', () => {
    expect(maximumNativeType('path', 5, 10, false)).toBeUndefined()
    expect(maximumNativeType('path', 5, 10, true)).toBeUndefined()
    expect(maximumNativeType('path', 5.5, 10, true)).toBeUndefined()
    expect(maximumNativeType('path', 10, 10, true)?.code).toBe(Code.MaxFail)
    expect(maximumNativeType('path', 12, 10, false)?.code).toBe(Code.MaxFail)
    expect(maximumNativeType('path', 12.6, 10, false)?.code).toBe(Code.MaxFail)
  })

  it('TestValues_MinimumNative (signed and float kinds)', () => {
    expect(minimumNativeType('path', 5, 0, false)).toBeUndefined()
    expect(minimumNativeType('path', 5, 0, true)).toBeUndefined()
    expect(minimumNativeType('path', 5.5, 0, true)).toBeUndefined()
    expect(minimumNativeType('path', 8, 10, false)?.code).toBe(Code.MinFail)
    expect(minimumNativeType('path', 12.6, 20, false)?.code).toBe(Code.MinFail)
  })

  it('TestValues_MultipleOfNative (signed kinds)', () => {
    expect(multipleOfNativeType('path', 5, 1)).toBeUndefined()
    expect(multipleOfNativeType('path', 5, 0)?.code).toBe(Code.MultipleOfMustBePositive)
    expect(multipleOfNativeType('path', 5, -1)?.code).toBe(Code.MultipleOfMustBePositive)
    expect(multipleOfNativeType('path', 11, 5)?.code).toBe(Code.MultipleOfFail)
  })

  it('TestValues_IsValueValidAgainstRange', () => {
    expect(isValueValidAgainstRange(123.45, 'number', 'float32', 'prefix', 'path')).toBeUndefined()
    expect(isValueValidAgainstRange(123, 'number', 'float', 'prefix', 'path')).toBeUndefined()
    expect(isValueValidAgainstRange(123, 'integer', '', 'prefix', 'path')).toBeUndefined()
    expect(isValueValidAgainstRange(123, 'integer', 'int64', 'prefix', 'path')).toBeUndefined()
    expect(isValueValidAgainstRange(Number.MAX_VALUE, 'integer', '', 'prefix', 'path')?.message).toContain(
      'must be of type integer (default format)',
    )
    expect(isValueValidAgainstRange(2147483647, 'integer', 'int32', 'prefix', 'path')).toBeUndefined()
  })

  it('TestValues_Pattern_Edgecases', () => {
    const s = (pattern: string) => spec({ pattern })
    expect(validateString('path', s('.*-[a-z]-.*'), 'pick-a-boo')).toBeUndefined()
    const bad = validateString('path', s('.*-[a(-z]-^).*'), 'pick-a-boo')?.errors[0]
    expect(bad?.code).toBe(Code.PatternFail)
    expect(bad?.message).toContain('pattern is invalid')
    const miss = validateString('path', s('.*-[a-z]-.*'), 'pick-8-boo')?.errors[0]
    expect(miss?.code).toBe(Code.PatternFail)
    expect(miss?.message).not.toContain('pattern is invalid')
    expect(miss?.message).toContain('should match')
  })

  it('TestValues_ValidateMinLength / TestValues_ValidateMaxLength', () => {
    expect(validateString('test', spec({ minLength: 5 }), 'aa')).toBeDefined()
    expect(validateString('test', spec({ minLength: 5 }), 'aaaaa')).toBeUndefined()
    expect(validateString('test', spec({ maxLength: 5 }), 'bbbbbb')).toBeDefined()
    expect(validateString('test', spec({ maxLength: 5 }), 'aa')).toBeUndefined()
  })

  it('TestValues_ValidateUniqueItems', () => {
    const v = (data: unknown) => new SchemaValidator(spec({ uniqueItems: true }), 'test', DEFAULT_ENV).validate(data)
    expect(v([1, 2, 3, 4, 4, 5]).isValid()).toBe(false)
    expect(v(['aa', 'bb', 'cc', 'cc', 'dd']).isValid()).toBe(false)
    expect(v([1, 2, 3]).isValid()).toBe(true)
    expect(v("I'm a string").isValid()).toBe(true)
    expect(v({ aaa: 1111, b: 2, ccc: 333 }).isValid()).toBe(true)
    expect(v(null).isValid()).toBe(true)
  })
})

describe('validator_test.go TestNumberValidator_EdgeCases', () => {
  // bounds outside int32 for an int32 field: checked as floats, and failing
  const n = {
    maximum: 2147483647 + 1,
    exclusiveMaximum: false,
    minimum: -2147483648 - 1,
    exclusiveMinimum: false,
    type: 'integer',
    format: 'int32',
  }
  it('above the maximum', () => expect(validateNumber('path', 2147483647 + 2, n).isValid()).toBe(false))
  it('below the minimum', () => expect(validateNumber('path', -2147483648 - 2, n).isValid()).toBe(false))
})

describe('schema_test.go TestNumericFormatEnforcement', () => {
  const cases: [string, Partial<OpenAPISchema>, unknown, boolean][] = [
    ['int32 valid value', { type: ['integer'], format: 'int32' }, 123, true],
    ['int32 overflow value', { type: ['integer'], format: 'int32' }, 2147483648, false],
    ['int32 boundary max value', { type: ['integer'], format: 'int32' }, 2147483647, true],
    ['int32 boundary min value', { type: ['integer'], format: 'int32' }, -2147483648, true],
    ['int32 underflow value', { type: ['integer'], format: 'int32' }, -2147483649, false],
    ['int64 valid value', { type: ['integer'], format: 'int64' }, 9223372036854775807n, true],
    ['float32 valid value', { type: ['number'], format: 'float' }, 1.23, true],
    ['float32 overflow value', { type: ['number'], format: 'float' }, 3.4028234663852886e38 * 1.1, false],
    ['double valid value', { type: ['number'], format: 'double' }, 1.23, true],
    ['double max value', { type: ['number'], format: 'double' }, Number.MAX_VALUE, true],
    ['number type with int32 format (format ignored)', { type: ['number'], format: 'int32' }, 2147483647 + 1.5, true],
    ['integer type with float format (format ignored)', { type: ['integer'], format: 'float' }, 2147483647 * 2, true],
    [
      'multiple types with int32 format (format ignored)',
      { type: ['integer', 'string'], format: 'int32' },
      2147483648,
      true,
    ],
  ]
  for (const [name, s, value, ok] of cases) {
    it(name, () => expect(new SchemaValidator(spec(s), '', DEFAULT_ENV).validate(value).isValid()).toBe(ok))
  }
})

describe('schema_test.go TestSchemaValidator_EdgeCases', () => {
  it('null against a number schema fails', () => {
    expect(
      new SchemaValidator(spec({ type: ['number'], format: 'double' }), 'path', DEFAULT_ENV).validate(null).isValid(),
    ).toBe(false)
  })
})

describe('object_validator_test.go TestMinPropertiesMaxPropertiesDontShortCircuit', () => {
  const s = spec({
    minProperties: 20,
    maxProperties: 0,
    properties: new Map([
      ['intField', spec({ type: ['integer'] })],
      ['requiredField', spec({ type: ['string'] })],
    ]),
    required: ['requiredField'],
    additionalProperties: { allows: true, schema: spec({ type: ['string'], pattern: '^20[0-9][0-9]' }) },
  })
  const messages = (obj: Record<string, unknown>) =>
    new SchemaValidator(s, 'some.path[5]', DEFAULT_ENV)
      .validate(obj)
      .errors.map((e) => e.message)
      .sort()
  it('one field', () => {
    expect(messages({ field: 'hello, world' })).toEqual(
      [
        'some.path[5] in body should have at least 20 properties',
        'some.path[5] in body should have at most 0 properties',
        "some.path[5].field in body should match '^20[0-9][0-9]'",
        'some.path[5].requiredField in body is required',
      ].sort(),
    )
  })
  it('four fields', () => {
    expect(
      messages({
        field: 'hello, world',
        field2: 'hello, other world',
        field3: 'hello, third world',
        intField: 'a string',
      }),
    ).toEqual(
      [
        'some.path[5] in body should have at least 20 properties',
        'some.path[5] in body should have at most 0 properties',
        "some.path[5].field in body should match '^20[0-9][0-9]'",
        "some.path[5].field2 in body should match '^20[0-9][0-9]'",
        "some.path[5].field3 in body should match '^20[0-9][0-9]'",
        'some.path[5].intField in body must be of type integer: "string"',
        'some.path[5].requiredField in body is required',
      ].sort(),
    )
  })
})

describe('apiextensions validation/ratcheting_test.go', () => {
  const zeroInt = { type: 'number', minimum: 0, maximum: 0 }
  const smallInt = { type: 'number', maximum: 50 }
  const mediumInt = { type: 'number', minimum: 50, maximum: 10000 }
  const largeInt = { type: 'number', minimum: 10000 }
  const objectSchema = {
    type: 'object',
    properties: { zero: zeroInt, small: smallInt, medium: mediumInt, large: largeInt },
  }
  const objectObjectSchema = { type: 'object', properties: { nested: objectSchema } }
  const valid = (schema: JSONSchemaProps, n: unknown, o: unknown) =>
    newSchemaValidator(schema)?.validateUpdate(n, o).isValid()

  it('TestScalarRatcheting', () => {
    expect(valid(mediumInt, 1, 1)).toBe(true)
    expect(valid(mediumInt, 1, 2)).toBe(false)
  })
  it('TestObjectScalarFieldsRatcheting', () => {
    expect(valid(objectSchema, { small: 500 }, { small: 500 })).toBe(true)
    expect(valid(objectSchema, { small: 501 }, { small: 501, medium: 500 })).toBe(true)
    expect(valid(objectSchema, { small: 500 }, { small: 501 })).toBe(false)
  })
  it('TestObjectObjectFieldsRatcheting', () => {
    expect(valid(objectObjectSchema, { nested: { small: 500 } }, { nested: { small: 500 } })).toBe(true)
    expect(valid(objectObjectSchema, { nested: { small: 501 } }, { nested: { small: 501, medium: 500 } })).toBe(true)
    expect(valid(objectObjectSchema, { nested: { small: 500 } }, { nested: { small: 501 } })).toBe(false)
  })
  it('TestNumericFormatRatcheting', () => {
    const s = {
      type: 'object',
      properties: { intThirtyTwo: { type: 'integer', format: 'int32' }, unrelated: { type: 'string' } },
    }
    expect(valid(s, { intThirtyTwo: 2147483648 }, { intThirtyTwo: 2147483648 })).toBe(true)
    expect(
      valid(s, { intThirtyTwo: 2147483648, unrelated: 'changed' }, { intThirtyTwo: 2147483648, unrelated: 'original' }),
    ).toBe(true)
    expect(valid(s, { intThirtyTwo: 2147483649 }, { intThirtyTwo: 2147483648 })).toBe(false)
  })
})
