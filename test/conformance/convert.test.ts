import { ValueSchema } from '@bufbuild/cel-spec/cel/expr/value_pb.js'
import { create } from '@bufbuild/protobuf'
import { anyPack, TimestampSchema } from '@bufbuild/protobuf/wkt'
import { describe, expect, it } from 'vitest'
import {
  BoolType,
  DurationType,
  IntType,
  ListType,
  listOf,
  mapOf,
  StringType,
  TimestampType,
} from '../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { CelMap, Double, Uint } from '../../src/cel/values/values.js'
import { fromBindings, fromTypeEnv, fromValue, typeFromName, Unsupported } from './convert.js'
import { loadCases } from './suite.js'

// Inputs are real cel-spec tests (tests/simple/testdata/*.textproto, by id); the expected kelp
// values follow the value model of src/cel/values/values.ts.

function test(id: string) {
  const c = loadCases().find((x) => x.id === id)
  if (!c) throw new Error(`no conformance test ${id}`)
  return c.test
}

function expectedOf(id: string) {
  const m = test(id).resultMatcher
  if (m.case !== 'value') throw new Error(`${id} has no value matcher`)
  return fromValue(m.value)
}

describe('fromValue', () => {
  it('maps int64 to a number inside the safe range and a bigint outside', () => {
    expect(expectedOf('basic/self_eval_zeroish/self_eval_int_zero')).toBe(0)
    expect(expectedOf('basic/self_eval_nonzeroish/self_eval_int_hex')).toBe(1431655765)
    expect(expectedOf('basic/self_eval_nonzeroish/self_eval_int_negative_min')).toBe(-9223372036854775808n)
    expect(fromValue(create(ValueSchema, { kind: { case: 'int64Value', value: 9007199254740991n } }))).toBe(
      9007199254740991,
    )
    expect(fromValue(create(ValueSchema, { kind: { case: 'int64Value', value: 9007199254740992n } }))).toBe(
      9007199254740992n,
    )
  })

  it('maps uint64 to Uint and doubles to plain numbers or Double', () => {
    expect(expectedOf('basic/self_eval_nonzeroish/self_eval_uint_nonzero')).toEqual(new Uint(123456789n))
    const zero = expectedOf('basic/self_eval_zeroish/self_eval_float_zero')
    expect(zero).toBeInstanceOf(Double)
    expect(Object.is((zero as Double).value, 0)).toBe(true)
    expect(expectedOf('basic/self_eval_nonzeroish/self_eval_float_negative_exp')).toEqual(new Double(-23))
    expect(expectedOf('fp_math/fp_math/divide_zero')).toBe(Number.POSITIVE_INFINITY)
    const negZero = fromValue(create(ValueSchema, { kind: { case: 'doubleValue', value: -0 } }))
    expect(negZero).toBeInstanceOf(Double)
    expect(Object.is((negZero as Double).value, -0)).toBe(true)
  })

  it('maps bytes, lists and string-keyed maps to Uint8Array, arrays and null-prototype objects', () => {
    expect(expectedOf('basic/self_eval_nonzeroish/self_eval_bytes_invalid_utf8')).toEqual(new Uint8Array([0, 0xff]))
    expect(expectedOf('basic/self_eval_nonzeroish/self_eval_list_singleitem')).toEqual([-1])
    const m = expectedOf('basic/self_eval_nonzeroish/self_eval_map_singleitem') as Record<string, unknown>
    expect(Object.getPrototypeOf(m)).toBeNull()
    expect({ ...m }).toEqual({ k: 'v' })
  })

  it('keeps `__proto__` an ordinary key', () => {
    const v = create(ValueSchema, {
      kind: {
        case: 'mapValue',
        value: {
          entries: [
            {
              key: { kind: { case: 'stringValue', value: '__proto__' } },
              value: { kind: { case: 'int64Value', value: 1n } },
            },
          ],
        },
      },
    })
    const m = fromValue(v) as Record<string, unknown>
    expect(Object.hasOwn(m, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(m, '__proto__')?.value).toBe(1)
  })

  it('builds a CelMap with normalised keys when keys are not all strings', () => {
    // comparisons/eq_literal: `{1: 'a', 2u: 'b', true: 'c'}`-style mixed keys.
    const v = create(ValueSchema, {
      kind: {
        case: 'mapValue',
        value: {
          entries: [
            {
              key: { kind: { case: 'int64Value', value: 1n } },
              value: { kind: { case: 'stringValue', value: 'a' } },
            },
            {
              key: { kind: { case: 'uint64Value', value: 2n } },
              value: { kind: { case: 'stringValue', value: 'b' } },
            },
            {
              key: { kind: { case: 'boolValue', value: true } },
              value: { kind: { case: 'stringValue', value: 'c' } },
            },
          ],
        },
      },
    })
    const m = fromValue(v) as CelMap
    expect(m).toBeInstanceOf(CelMap)
    expect(m.entries.get(1)).toEqual([1, 'a'])
    expect(m.entries.get(2)).toEqual([new Uint(2n), 'b'])
    expect(m.entries.get(true)).toEqual([true, 'c'])
  })

  it('maps type values by name', () => {
    expect(expectedOf('conversions/type/int')).toBe(IntType)
    expect(expectedOf('conversions/type/list')).toBe(ListType)
    expect(expectedOf('timestamps/timestamp_conversions/toType_timestamp')).toBe(TimestampType)
    expect(expectedOf('timestamps/duration_conversions/toType_duration')).toBe(DurationType)
    expect(() => typeFromName('cel.expr.conformance.proto3.GlobalEnum')).toThrow(Unsupported)
  })

  it('unpacks timestamps and durations from google.protobuf.Any', () => {
    // timestamps.textproto get_milliseconds binds x = duration "123.321456789s".
    expect(fromBindings(test('timestamps/duration_converters/get_milliseconds').bindings)).toEqual({
      x: new Duration(123_321_456_789n),
    })
    const any = anyPack(TimestampSchema, create(TimestampSchema, { seconds: 1234567890n, nanos: 5 }))
    expect(fromValue(create(ValueSchema, { kind: { case: 'objectValue', value: any } }))).toEqual(
      new Timestamp(1234567890, 5),
    )
  })

  it('rejects messages and enums', () => {
    const msg = test('parse/struct_field_names/as').resultMatcher
    expect(msg.case).toBe('value')
    if (msg.case === 'value') expect(() => fromValue(msg.value)).toThrow(Unsupported)
    expect(() =>
      fromValue(create(ValueSchema, { kind: { case: 'enumValue', value: { type: 'E', value: 1 } } })),
    ).toThrow(Unsupported)
  })
})

describe('fromTypeEnv', () => {
  it('converts identifier declarations', () => {
    expect(fromTypeEnv(test('basic/variables/self_eval_bound_lookup').typeEnv)).toEqual({ x: IntType })
    expect(fromTypeEnv(test('basic/reserved_const/null').typeEnv)).toEqual({ null: BoolType })
    expect(fromTypeEnv(test('parse/nest/list_index').typeEnv)).toEqual({ a: listOf(IntType) })
    expect(fromTypeEnv(test('fields/map_fields/map_field_access').typeEnv)).toEqual({ x: mapOf(StringType, IntType) })
    expect(fromTypeEnv(test('timestamps/duration_converters/get_milliseconds').typeEnv)).toEqual({ x: DurationType })
  })

  it('rejects message types and function declarations', () => {
    expect(() =>
      fromTypeEnv(test('type_deductions/legacy_nullable_types/null_assignable_to_message_parameter_candidate').typeEnv),
    ).toThrow(Unsupported)
    expect(() => fromTypeEnv(test('type_deductions/functions/function_result_type').typeEnv)).toThrow(Unsupported)
  })
})
