import { describe, expect, it } from 'vitest'
import { IntType, ListType, listOf, TimestampType } from '../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { CelMap, Double, Optional, Uint } from '../../src/cel/values/values.js'
import { diffValues, formatValue } from './compare.js'

// cel-spec simple.proto (SimpleTest.value): "must match the evaluation result exactly via value
// equality semantics. This coincides with proto equality, except for: maps are order-agnostic;
// a floating point NaN should match any NaN." Proto equality is typed (int64_value, uint64_value
// and double_value are different fields), and cel-spec's runner (tests/simple/simple.go) compares
// doubles through their text form, which "surfaces sign differences for floating-point zero".

function obj(entries: Record<string, unknown>): Record<string, never> {
  return Object.assign(Object.create(null), entries)
}

describe('diffValues', () => {
  it('is typed: int 1, uint 1 and double 1.0 all differ', () => {
    expect(diffValues(1, 1)).toBeUndefined()
    expect(diffValues(1, new Double(1))).toMatch(/want 1 \(int\), got 1\.0 \(double\)/)
    expect(diffValues(1, new Uint(1n))).toMatch(/\(uint\)/)
    expect(diffValues(new Uint(1n), new Uint(1n))).toBeUndefined()
    expect(diffValues(new Double(1), new Double(1))).toBeUndefined()
    expect(diffValues(-9223372036854775808n, -9223372036854775808n)).toBeUndefined()
    expect(diffValues(-9223372036854775808n, 9223372036854775807n)).toBeDefined()
  })

  it('matches NaN with NaN and tells -0.0 from 0.0', () => {
    expect(diffValues(Number.NaN, Number.NaN)).toBeUndefined()
    expect(diffValues(new Double(0), new Double(-0))).toBeDefined()
    expect(diffValues(new Double(-0), new Double(-0))).toBeUndefined()
    expect(diffValues(0.5, 0.5)).toBeUndefined()
    expect(diffValues(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBeDefined()
  })

  it('flags results that break the value model', () => {
    expect(diffValues(1, 1n)).toMatch(/non-canonical/)
    expect(diffValues(0, -0)).toMatch(/non-canonical/)
    expect(diffValues(new Double(1.5), new Double(1.5))).toMatch(/non-canonical/)
    expect(diffValues(new Timestamp(0, 0), new Timestamp(0, 1e9))).toMatch(/non-canonical/)
  })

  it('compares maps order-agnostically, with typed keys, across representations', () => {
    // plumbing.textproto eval_map_results: `{"k1":"v1","k":"v"}` matches entries k, k1.
    expect(diffValues(obj({ k: 'v', k1: 'v1' }), obj({ k1: 'v1', k: 'v' }))).toBeUndefined()
    expect(diffValues(obj({ k: 'v' }), obj({ k: 'w' }))).toMatch(/at \["k"\]/)
    expect(diffValues(obj({ k: 'v' }), obj({ k: 'v', x: 'y' }))).toMatch(/1 entries, got 2/)
    const intKey = new CelMap(new Map([[1, [1, 'a']]]))
    const uintKey = new CelMap(new Map([[1, [new Uint(1n), 'a']]]))
    expect(diffValues(intKey, intKey)).toBeUndefined()
    expect(diffValues(intKey, uintKey)).toMatch(/missing key 1/)
    const stringKeys = new CelMap(new Map([['a', ['a', 1]]]))
    expect(diffValues(obj({ a: 1 }), stringKeys)).toBeUndefined()
    expect(diffValues(obj({}), new CelMap())).toBeUndefined()
  })

  it('compares lists element by element', () => {
    expect(diffValues([1, 'a'], [1, 'a'])).toBeUndefined()
    expect(diffValues([1, [2]], [1, [new Double(2)]])).toMatch(/at \[1\]\[0\]/)
    expect(diffValues([1], [1, 2])).toMatch(/1 elements, got 2/)
    expect(diffValues([], obj({}))).toMatch(/\(list\).*\(map\)/)
  })

  it('compares bytes, time values, types and optionals', () => {
    expect(diffValues(new Uint8Array([0, 255]), new Uint8Array([0, 255]))).toBeUndefined()
    expect(diffValues(new Uint8Array([0]), new Uint8Array([1]))).toBeDefined()
    expect(diffValues('', new Uint8Array())).toBeDefined()
    expect(diffValues(new Timestamp(1, 2), new Timestamp(1, 2))).toBeUndefined()
    expect(diffValues(new Timestamp(1, 2), new Timestamp(1, 3))).toBeDefined()
    expect(diffValues(new Duration(5n), new Duration(5n))).toBeUndefined()
    expect(diffValues(new Duration(5n), new Duration(6n))).toBeDefined()
    // Runtime types compare by name: `type([1])` is `list`, whatever its parameters.
    expect(diffValues(ListType, listOf(IntType))).toBeUndefined()
    expect(diffValues(IntType, TimestampType)).toBeDefined()
    expect(diffValues(Optional.none, new Optional(1))).toBeDefined()
    expect(diffValues(new Optional(1), new Optional(1))).toBeUndefined()
  })
})

describe('formatValue', () => {
  it('renders CEL-like text', () => {
    expect(formatValue(1)).toBe('1')
    expect(formatValue(new Double(1))).toBe('1.0')
    expect(formatValue(new Double(-0))).toBe('-0.0')
    expect(formatValue(new Uint(3n))).toBe('3u')
    expect(formatValue('a"b')).toBe('"a\\"b"')
    expect(formatValue(new Uint8Array([0x61, 0]))).toBe('b"a\\x00"')
    expect(formatValue([1, obj({ k: null })])).toBe('[1, {"k": null}]')
    expect(formatValue(listOf(IntType))).toBe('type(list(int))')
    expect(formatValue(Number.NaN)).toBe('NaN')
  })
})
