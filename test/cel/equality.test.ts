import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import { DoubleType, IntType, listOf, mapOf, StringType } from '../../src/cel/types/types.js'
import { celCompare, celEquals } from '../../src/cel/values/equality.js'
import { buildMap, mapEntries, mapGet, mapHas, mapKeys, mapSize } from '../../src/cel/values/maps.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { CelMap, type CelValue, Double, OpaqueValue, Optional, Uint } from '../../src/cel/values/values.js'

// A CEL double literal as the parser reads it (Go ParseFloat and JS Number round alike).
const lit = (s: string) => Number(s)

// Expected results: cel-spec tests/simple/testdata/comparisons.textproto (test names quoted) and
// fields.textproto, and cel-go common/types (compare.go, map.go Find, *_test.go).

const u = (v: bigint | number) => new Uint(BigInt(v))
const d = (v: number) => new Double(v) // an integral double (1.0)
const NaN_ = Number.NaN

function thrown(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
  throw new Error('expected an ErrorValue')
}

describe('celEquals', () => {
  it.each<[string, CelValue, CelValue, boolean]>([
    ['eq_int', 1, 1, true],
    ['not_eq_int', -1, 1, false],
    ['eq_int_uint', 1, u(1), true],
    ['not_eq_int_uint', 2, u(1), false],
    ['eq_int_double', 1, d(1), true],
    ['not_eq_int_double', 2, d(1), false],
    ['eq_uint', u(2), u(2), true],
    ['eq_uint_int', u(1), 1, true],
    ['eq_uint_double', u(1), d(1), true],
    ['not_eq_uint_double', u(2), d(1), false],
    ['eq_double', d(1), d(1), true],
    ['not_eq_double', d(-1), d(1), false],
    ['eq_double_int', d(1), 1, true],
    ['eq_double_uint', d(1), u(1), true],
    ['not_eq_double_uint', d(2), u(1), false],
    ['not_eq_double_nan', NaN_, NaN_, false],
    ['not_eq_int_double_nan', 1, NaN_, false],
    ['not_eq_uint_double_nan', u(1), NaN_, false],
    ['eq_string', '', '', true],
    ['not_eq_string', 'a', 'b', false],
    ['no_string_normalization', 'Am\u00E9lie', 'Ame\u0301lie', false],
    ['eq_null', null, null, true],
    ['eq_bool', true, true, true],
    ['not_eq_bool', false, true, false],
    ['eq_bytes', new Uint8Array([0xc3, 0xbf]), new Uint8Array([0xc3, 0xbf]), true],
    ['not_eq_bytes', new Uint8Array([97, 98, 99]), new Uint8Array([97, 98, 99, 100]), false],
    ['eq_list_empty', [], [], true],
    ['eq_list_null', [null], [null], true],
    ['not_eq_list_null', ['1', '2', null], ['1', '2', '3'], false],
    ['eq_list_mixed_type_numbers', [d(1), d(2), 3], [u(1), 2, u(3)], true],
    ['not_eq_list_mixed_type_numbers', [d(1), 2.1], [u(1), 2], false],
    ['not_eq_list_order', [1, 2, 3], [1, 3, 2], false],
    ['not_eq_list_length', ['one'], [2, 3], false],
    ['not_eq_list_false_vs_types', [1, 'dos', 3], [1, 2, 4], false],
    ['not_ne_list_of_list', [[]], [[]], true],
    ['eq_mixed_types', d(1), 1, true],
    ['ne_mixed_types (2u != 2 is false)', u(2), 2, true],
    ['not_eq_dyn_bool_null', false, null, false],
    ['not_eq_dyn_int_null', 1, null, false],
    ['not_eq_dyn_list_null', [], null, false],
    ['not_eq_dyn_string_null', '', null, false],
    ['not_eq_dyn_uint_double', u(1), 120, false],
    ['ne_double_int', 9000, 9001, false],
    ['elem_in_mixed_type_list_cross_type', 'elem', u(1), false],
  ])('%s', (_name, a, b, want) => {
    expect(celEquals(a, b)).toBe(want)
    expect(celEquals(b, a)).toBe(want)
  })

  it('compares maps by size and values, looking keys up with numeric cross-type equality', () => {
    const m = (keys: CelValue[], vals: CelValue[]) => buildMap(keys, vals)
    expect(celEquals(m([], []), m([], []))).toBe(true) // eq_map_empty
    expect(celEquals(m(['k'], [null]), m(['k'], [null]))).toBe(true) // eq_map_null
    expect(celEquals(m(['k', 'j'], [1, 2]), m(['k', 'j'], [1, null]))).toBe(false) // not_eq_map_null
    expect(celEquals(m(['k'], [d(1)]), m(['k'], [d(1)]))).toBe(true) // eq_map_double_value
    // eq_map_mixed_type_numbers: {1: 1.0, 2u: 3u} == {1u: 1, 2: 3.0}
    expect(celEquals(m([1, u(2)], [d(1), u(3)]), m([u(1), 2], [1, d(3)]))).toBe(true)
    expect(celEquals(m(['k', 'k1'], ['v', 'v1']), m(['k'], ['v']))).toBe(false) // not_eq_map_extra_key
    expect(celEquals(m(['k1', 'k2'], ['v1', 'v2']), m(['k2', 'k1'], ['v2', 'v1']))).toBe(true) // eq_map_key_order
    expect(celEquals(m(['key'], ['value']), m(['Key'], ['value']))).toBe(false) // not_eq_map_key_casing
    // eq_map_value_mixed_types: {'k':'v', 1:1} == {'k':'v', 1:'v1'}
    expect(celEquals(m(['k', 1], ['v', 1]), m(['k', 1], ['v', 'v1']))).toBe(false)
    // not_eq_map_value_null: {1:'hello', 2:'world'} == {1:'goodbye', 2:null}
    expect(celEquals(m([1, 2], ['hello', 'world']), m([1, 2], ['goodbye', null]))).toBe(false)
    // a plain map and a CelMap holding the same string keys are equal
    const cm = new CelMap(new Map([['a', ['a', 1] as [CelValue, CelValue]]]))
    expect(celEquals(m(['a'], [d(1)]), cm)).toBe(true)
    expect(celEquals(cm, m(['a'], [d(1)]))).toBe(true)
    // maps never equal lists or null
    expect(celEquals(m([], []), [])).toBe(false)
    expect(celEquals(m([], []), null)).toBe(false)
  })

  it('reads own properties only and treats __proto__ as an ordinary key', () => {
    const a = JSON.parse('{"__proto__": 1}') as CelValue
    const b = buildMap(['__proto__'], [1])
    expect(celEquals(a, b)).toBe(true)
    expect(celEquals({}, buildMap(['toString'], [1]))).toBe(false)
  })

  it('converts ints to double for comparisons with doubles (cel-go compare.go)', () => {
    // 2^53 + 1 rounds to 2^53 as a double
    expect(celEquals(9007199254740993n, 9007199254740992)).toBe(true)
    expect(celEquals(u(9007199254740993n), 9007199254740992)).toBe(true)
    // int↔uint stays exact
    expect(celEquals(9007199254740993n, u(9007199254740992n))).toBe(false)
    expect(celEquals(9223372036854775807n, u(9223372036854775807n))).toBe(true)
    // MaxInt64 == 2^63 as a double after rounding (gte_dyn_int_big_lossy_double)
    expect(celEquals(9223372036854775807n, 2 ** 63)).toBe(true)
  })

  it('compares timestamps, durations, types, optionals and opaque values by value', () => {
    expect(celEquals(new Timestamp(1, 5), new Timestamp(1, 5))).toBe(true)
    expect(celEquals(new Timestamp(1, 5), new Timestamp(1, 6))).toBe(false)
    expect(celEquals(new Duration(60000000000n), new Duration(60000000000n))).toBe(true)
    expect(celEquals(new Duration(1n), 1)).toBe(false)
    // conversions.textproto type/eq_same, lists_monomorphic, map_monomorphic: runtime types compare by name
    expect(celEquals(listOf(IntType), listOf(StringType))).toBe(true)
    expect(celEquals(mapOf(StringType, IntType), mapOf(IntType, StringType))).toBe(true)
    expect(celEquals(IntType, DoubleType)).toBe(false)
    // cel-go optional.go Equal: both empty, or both present with equal values
    expect(celEquals(Optional.none, new Optional(undefined))).toBe(true)
    expect(celEquals(Optional.none, new Optional(1))).toBe(false)
    expect(celEquals(new Optional(1), new Optional(d(1)))).toBe(true)
    expect(celEquals(new Optional(1), 1)).toBe(false)
    class Q extends OpaqueValue {
      constructor(readonly v: number) {
        super()
      }
      get typeName() {
        return 'test.Q'
      }
      equals(o: OpaqueValue) {
        return o instanceof Q && o.v === this.v
      }
    }
    expect(celEquals(new Q(1), new Q(1))).toBe(true)
    expect(celEquals(new Q(1), new Q(2))).toBe(false)
    // Library values answer other types with no such overload (apiserver pkg/cel/ip.go IP.Equal:
    // types.MaybeNoSuchOverloadErr); null is unequal first (cel-go common/types/compare.go Equal).
    expect(() => celEquals(new Q(1), 1)).toThrow()
    expect(celEquals(new Q(1), null)).toBe(false)
  })
})

describe('celCompare', () => {
  it.each<[string, CelValue, CelValue, number]>([
    ['lt_int', -1, 0, -1],
    ['not_lt_int', 0, 0, 0],
    ['lt_uint', u(0), u(1), -1],
    ['lt_double', d(1), 1.0000001, -1],
    ['not_lt_double (-0.0 < 0.0)', d(-0), d(0), 0],
    ['lt_string', 'a', 'b', -1],
    ['lt_string_case', 'Abc', 'aBC', -1],
    ['lt_string_length', 'abc', 'abcd', -1],
    ['lt_string_diacritical_mark_sensitive', 'a', '\u00E1', -1],
    ['unicode_order_lexical', 'f', '\u1EBF', -1],
    ['gt_string_unicode', 'α', 'omega', 1],
    ['lt_bytes', new Uint8Array([97]), new Uint8Array([98]), -1],
    ['not_lt_bytes_width (b"á" > b"b")', new Uint8Array([0xc3, 0xa1]), new Uint8Array([98]), 1],
    ['lt_bool_false_first', false, true, -1],
    ['not_lt_bool_same', true, true, 0],
    ['lt_dyn_int_uint', 1, u(2), -1],
    ['lt_dyn_int_double', 1, d(2), -1],
    ['lt_dyn_uint_int', u(1), 2, -1],
    ['lt_dyn_uint_double', u(1), d(2), -1],
    ['lt_dyn_double_int', d(1), 2, -1],
    ['lt_dyn_double_uint', d(1), u(2), -1],
    ['not_gt_dyn_int_big_uint', 1, u(9223372036854775808n), -1],
    ['not_gt_dyn_small_int_uint', -1, u(0), -1],
    ['not_gt_dyn_int_big_double (equal after rounding)', 9223372036854775807n, lit('9223372036854775808'), 0],
    ['not_gt_dyn_int_small_lossy_double', -9223372036854775808n, lit('-9223372036854775809'), 0],
    ['gt_dyn_int_small_lossy_double_greater', -9223372036854775808n, lit('-9223372036854777857'), 1],
    ['gt_dyn_uint_small_int', u(1), -1, 1],
    ['gt_dyn_big_uint_int', u(9223372036854775808n), 1, 1],
    ['gt_dyn_uint_small_double', u(9223372036854775807n), d(-1), 1],
    ['not_gt_dyn_uint_big_double', u(18446744073709551615n), 18446744073709590000, -1],
    ['gt_dyn_big_double_uint', lit('18446744073709553665'), u(18446744073709551615n), 1],
    ['not_gte_dyn_int_big_double', 9223372036854775807n, lit('9223372036854777857'), -1],
    ['not_lte_dyn_uint_small_int', u(1), -9223372036854775808n, 1],
    ['lte_dyn_small_double_int', lit('-9223372036854775809'), -9223372036854775808n, 0],
    ['int vs int bigint', 9007199254740991, 9007199254740992n, -1],
  ])('%s', (_name, a, b, want) => {
    expect(celCompare(a, b)).toBe(want)
    expect(celCompare(b, a)).toBe(-want || 0)
  })

  it('orders timestamps and durations', () => {
    expect(celCompare(new Timestamp(1, 0), new Timestamp(1, 1))).toBe(-1)
    expect(celCompare(new Timestamp(2, 0), new Timestamp(1, 999999999))).toBe(1)
    expect(celCompare(new Duration(-1n), new Duration(0n))).toBe(-1)
    expect(celCompare(new Duration(5n), new Duration(5n))).toBe(0)
  })

  it('rejects NaN operands (cel-go double.go / int.go / uint.go Compare)', () => {
    expect(thrown(() => celCompare(NaN_, 1.5))).toBe('NaN values cannot be ordered')
    expect(thrown(() => celCompare(1, NaN_))).toBe('NaN values cannot be ordered')
    expect(thrown(() => celCompare(u(1), NaN_))).toBe('NaN values cannot be ordered')
    expect(thrown(() => celCompare(NaN_, NaN_))).toBe('NaN values cannot be ordered')
  })

  it('has no overload for lists, maps, null, optionals or mixed kinds', () => {
    // lt_list_unsupported, lt_map_unsupported, lt_null_unsupported, lt_mixed_types_error, gte_mixed_types_error
    expect(thrown(() => celCompare([0], [1]))).toBe('no such overload')
    expect(thrown(() => celCompare(buildMap([0], ['a']), buildMap([1], ['b'])))).toBe('no such overload')
    expect(thrown(() => celCompare(null, null))).toBe('no such overload')
    expect(thrown(() => celCompare('foo', 1024))).toBe('no such overload')
    expect(thrown(() => celCompare('foo', d(1)))).toBe('no such overload')
    expect(thrown(() => celCompare(Optional.none, Optional.none))).toBe('no such overload')
    expect(thrown(() => celCompare(new Timestamp(0, 0), new Duration(0n)))).toBe('no such overload')
  })
})

describe('maps', () => {
  // fields.textproto map_fields and in; cel-go map.go refValMapAccessor.Find
  const mixed = buildMap([u(1), 2, u(3)], [d(1), d(2), d(3)]) // {1u: 1.0, 2: 2.0, 3u: 3.0}

  it('finds int, uint and integral double keys across numeric kinds', () => {
    expect(mapGet(mixed, d(3))).toEqual(d(3)) // map_key_mixed_numbers_double_key
    expect(mapGet(mixed, 3.1)).toBeUndefined() // map_key_mixed_numbers_lossy_double_key
    expect(mapGet(mixed, u(2))).toEqual(d(2)) // map_key_mixed_numbers_uint_key
    expect(mapGet(mixed, 1)).toEqual(d(1)) // map_key_mixed_numbers_int_key
    expect(mapHas(buildMap([1, 2, u(3)], [1, 2, 3]), d(3))).toBe(true) // mixed_numbers_and_keys_present
    expect(mapHas(buildMap([1, 2, u(3)], [1, 2, 3]), 3.1)).toBe(false) // mixed_numbers_and_keys_absent
    expect(mapGet(buildMap([0, 2, 5], [1, 2, 3]), new Uint8Array())).toBeUndefined() // map_bad_key_type
    expect(mapGet(buildMap([true, 2, u(5)], [1, 2, 3]), true)).toBe(1) // map_key_mixed_type
  })

  it('finds large keys only through lossless conversions (overflow.go doubleTo*Lossless)', () => {
    const big = buildMap([9007199254740992n, u(18446744073709551615n)], ['int', 'uint'])
    expect(mapGet(big, 2 ** 53)).toBe('int')
    expect(mapGet(big, u(9007199254740992n))).toBe('int')
    expect(mapGet(big, lit('18446744073709551615'))).toBeUndefined() // the literal rounds to 2^64: outside uint64
    expect(mapGet(big, 2 ** 63)).toBeUndefined() // a uint-lossless double, but no such entry
    const minInt = buildMap([-9223372036854775808n], ['min'])
    expect(mapGet(minInt, -9223372036854775808n)).toBe('min')
    // doubleToInt64Checked rejects v <= float64(MinInt64), so -2^63 as a double finds nothing
    expect(mapGet(minInt, -(2 ** 63))).toBeUndefined()
  })

  it('string keys find only string entries', () => {
    const m = buildMap(['1', 'a'], [1, 2])
    expect(mapGet(m, 1)).toBeUndefined()
    expect(mapGet(m, '1')).toBe(1)
    expect(mapGet(m, 'toString')).toBeUndefined()
    expect(mapGet(buildMap([1], ['x']), '1')).toBeUndefined()
  })

  it('builds plain null-prototype objects for string keys and CelMaps otherwise', () => {
    const plain = buildMap(['a', 'b'], [1, 2])
    expect(Object.getPrototypeOf(plain)).toBeNull()
    expect(plain).not.toBeInstanceOf(CelMap)
    expect(buildMap([1], [2])).toBeInstanceOf(CelMap)
    expect(mapSize(buildMap([1, 2, 3], ['one', 'two', 'three']))).toBe(3) // lists/size/map
    expect(mapKeys(buildMap([u(2), true, 'k'], [1, 2, 3]))).toEqual([u(2), true, 'k'])
    expect(mapEntries(buildMap(['x', 'y'], [1, 2]))).toEqual([
      ['x', 1],
      ['y', 2],
    ])
  })

  it('lets a repeated key overwrite the earlier value, as cel-go evalMap does', () => {
    // cel-go's Go-map literal keeps the last value (its conformance run skips map_value_repeat_key).
    const m = buildMap([true, false, true], [1, 2, 3])
    expect(mapGet(m, true)).toBe(3)
    expect(mapSize(m)).toBe(2)
    expect(mapGet(buildMap(['a', 'a'], [1, 2]), 'a')).toBe(2)
  })

  it('rejects keys that are not int, uint, bool or string', () => {
    // cel-spec fields.textproto map_key_float / map_key_null expect `unsupported key type`.
    expect(thrown(() => buildMap([3.3, d(1)], [15.15, 5]))).toBe('unsupported key type')
    expect(thrown(() => buildMap([null], [false]))).toBe('unsupported key type')
    expect(thrown(() => buildMap([[1]], [1]))).toBe('unsupported key type')
  })
})
