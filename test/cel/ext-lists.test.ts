import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import { listsExtFunctions } from '../../src/cel/ext/lists.js'
import type { OverloadDecl } from '../../src/cel/functions.js'
import { Duration } from '../../src/cel/values/time.js'
import { CelMap, type CelValue, Double, Uint } from '../../src/cel/values/values.js'

// Expected values come from cel-go v0.26.0 ext/lists_test.go (TestLists, TestListsRuntimeErrors,
// TestListsVersion), the ext/lists.go doc comments and error texts, and Go's sort.Slice
// (src/sort/zsortfunc.go) where element order depends on the sorting algorithm.

function find(id: string): OverloadDecl {
  for (const f of listsExtFunctions) for (const o of f.overloads) if (o.id === id) return o
  throw new Error(`no overload ${id}`)
}

function call(id: string, ...args: CelValue[]): CelValue {
  return find(id).impl(...args)
}

/** The ErrorValue message a call throws. */
function errorOf(id: string, ...args: CelValue[]): string {
  try {
    call(id, ...args)
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
  throw new Error(`${id} did not fail`)
}

const sortBy = (list: CelValue[], keys: CelValue[]) => call('list_int_sortByAssociatedKeys', list, keys)

describe('declarations', () => {
  it('use cel-go function names, overload ids and signatures', () => {
    const sig = (id: string) => {
      const o = find(id)
      return `${o.member ? 'member ' : ''}(${o.params.map(String).join(', ')}) -> ${o.result}`
    }
    expect(listsExtFunctions.map((f) => f.name)).toEqual([
      'slice',
      'flatten',
      'sort',
      '@sortByAssociatedKeys',
      'lists.range',
      'reverse',
      'distinct',
    ])
    expect(sig('list_slice')).toBe('member (list(T), int, int) -> list(T)')
    expect(sig('list_flatten')).toBe('member (list(list(T))) -> list(T)')
    expect(sig('list_flatten_int')).toBe('member (list(dyn), int) -> list(dyn)')
    expect(sig('lists_range')).toBe('(int) -> list(int)')
    expect(sig('list_reverse')).toBe('member (list(T)) -> list(T)')
    expect(sig('list_distinct')).toBe('member (list(T)) -> list(T)')
    expect(sig('list_google.protobuf.Timestamp_sort')).toBe(
      'member (list(google.protobuf.Timestamp)) -> list(google.protobuf.Timestamp)',
    )
    expect(sig('list_bytes_sortByAssociatedKeys')).toBe('member (list(T), list(bytes)) -> list(T)')
    // ext/lists.go comparableTypes order names the templated overloads
    expect(listsExtFunctions[2]!.overloads.map((o) => o.id)).toEqual([
      'list_int_sort',
      'list_uint_sort',
      'list_double_sort',
      'list_bool_sort',
      'list_google.protobuf.Duration_sort',
      'list_google.protobuf.Timestamp_sort',
      'list_string_sort',
      'list_bytes_sort',
    ])
    expect(find('list_slice').typeParams).toEqual(['T'])
    expect(find('list_flatten_int').typeParams).toBeUndefined()
  })

  it('mark flatten (DisableTypeGuards) and sort (singleton bindings) as unguarded', () => {
    const flag = (id: string) => (find(id) as { disableTypeGuards?: boolean }).disableTypeGuards
    expect(flag('list_flatten')).toBe(true)
    expect(flag('list_flatten_int')).toBe(true)
    expect(flag('list_int_sort')).toBe(true)
    expect(flag('list_string_sortByAssociatedKeys')).toBe(true)
    expect(flag('list_slice')).toBeUndefined()
  })
})

describe('lists.range', () => {
  it('counts from zero', () => {
    expect(call('lists_range', 4)).toEqual([0, 1, 2, 3])
    expect(call('lists_range', 0)).toEqual([])
    expect(call('lists_range', 5)).toEqual([0, 1, 2, 3, 4])
  })
  it('refuses a negative size or one over the maximum before allocating (cel-go v0.29 genRange)', () => {
    // cel-go v0.29.0 ext/lists.go genRange and defaultMaxRangeSize (v0.26 returned [] for -3)
    expect(errorOf('lists_range', -3)).toBe('lists.range: size must be non-negative, got -3')
    expect(errorOf('lists_range', 1_000_001)).toBe('lists.range: size 1000001 exceeds maximum allowed (1000000)')
  })
})

describe('reverse', () => {
  it('reverses without touching the input', () => {
    const l = [5, 1, 2, 3]
    expect(call('list_reverse', l)).toEqual([3, 2, 1, 5])
    expect(l).toEqual([5, 1, 2, 3])
    expect(call('list_reverse', [])).toEqual([])
    expect(call('list_reverse', [1])).toEqual([1])
    expect(call('list_reverse', ['are', 'you', 'as', 'bored', 'as', 'I', 'am'])).toEqual([
      'am',
      'I',
      'as',
      'bored',
      'as',
      'you',
      'are',
    ])
    expect(call('list_reverse', call('list_reverse', [false, true, true]))).toEqual([false, true, true])
  })
})

describe('slice', () => {
  it('returns the sub-list [start, end)', () => {
    expect(call('list_slice', [1, 2, 3, 4], 0, 4)).toEqual([1, 2, 3, 4])
    expect(call('list_slice', [1, 2, 3, 4], 0, 0)).toEqual([])
    expect(call('list_slice', [1, 2, 3, 4], 1, 1)).toEqual([])
    expect(call('list_slice', [1, 2, 3, 4], 4, 4)).toEqual([])
    expect(call('list_slice', [1, 2, 3, 4], 1, 3)).toEqual([2, 3])
    expect(call('list_slice', [1, 2, 3, 4, 5], 2, 4)).toEqual([3, 4])
  })
  it('fails with cel-go messages', () => {
    expect(errorOf('list_slice', [1, 2, 3, 4], 3, 0)).toBe(
      'cannot slice(3, 0), start index must be less than or equal to end index',
    )
    expect(errorOf('list_slice', [1, 2, 3, 4], 0, 10)).toBe('cannot slice(0, 10), list is length 4')
    expect(errorOf('list_slice', [1, 2, 3, 4], -5, 10)).toBe('cannot slice(-5, 10), negative indexes not supported')
    expect(errorOf('list_slice', [1, 2, 3, 4], -5, -3)).toBe('cannot slice(-5, -3), negative indexes not supported')
    expect(errorOf('list_slice', [1], 0, 9223372036854775807n)).toBe(
      'cannot slice(0, 9223372036854775807), list is length 1',
    )
  })
})

describe('flatten', () => {
  it('flattens one level by default', () => {
    expect(call('list_flatten', [])).toEqual([])
    expect(call('list_flatten', [1, 2, 3, 4])).toEqual([1, 2, 3, 4])
    expect(call('list_flatten', [1, [2, [3, 4]]])).toEqual([1, 2, [3, 4]])
    expect(call('list_flatten', [1, 2, [], [], [3, 4]])).toEqual([1, 2, 3, 4])
    expect(call('list_flatten', [1, [2, 3], [4]])).toEqual([1, 2, 3, 4])
    expect(
      call('list_flatten', [
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([1, 2, 3, 4])
  })
  it('flattens to the given depth', () => {
    expect(call('list_flatten_int', [1, [2, [3, 4]]], 2)).toEqual([1, 2, 3, 4])
    expect(call('list_flatten_int', [1, [2, [3, [4]]]], 2)).toEqual([1, 2, 3, [4]])
    expect(call('list_flatten_int', [1, [2]], 0)).toEqual([1, [2]])
  })
  it('rejects a negative depth and non-list operands', () => {
    expect(errorOf('list_flatten_int', [1, [2, [3, [4]]]], -1)).toBe('level must be non-negative')
    expect(errorOf('list_flatten_int', [], -1)).toBe('level must be non-negative')
    // TestListsRuntimeErrors: the type guards are disabled, so flatten checks its operands itself
    expect(errorOf('list_flatten', {})).toContain('no such overload')
    expect(errorOf('list_flatten_int', {}, 0)).toContain('no such overload')
    expect(errorOf('list_flatten_int', [], '1')).toContain('no such overload')
    // ValOrErr(..., "no such overload: %v.flatten(%v)", arg1.Type(), arg2.Type()) with cel-go's
    // MapType / ListType, whose nil parameters print as empty names (common/types/types.go String)
    expect(errorOf('list_flatten', {})).toBe('no such overload: map(, ).flatten()')
    expect(errorOf('list_flatten_int', [], '1')).toBe('no such overload: list().flatten(string)')
  })
})

describe('sort', () => {
  it('sorts comparable elements', () => {
    expect(call('list_int_sort', [])).toEqual([])
    expect(call('list_int_sort', [1])).toEqual([1])
    expect(call('list_int_sort', [4, 3, 2, 1])).toEqual([1, 2, 3, 4])
    expect(call('list_int_sort', [2, 1, 3])).toEqual([1, 2, 3])
    expect(call('list_string_sort', ['d', 'a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'd'])
    expect(call('list_string_sort', ['b', 'c', 'a'])).toEqual(['a', 'b', 'c'])
  })
  it('orders strings by code point, not UTF-16 unit (Go compares UTF-8 bytes)', () => {
    expect(call('list_string_sort', ['\u{1F600}', '\uFF5E'])).toEqual(['\uFF5E', '\u{1F600}'])
  })
  it('sorts uints, doubles, bools, durations and big ints', () => {
    expect(call('list_uint_sort', [new Uint(3n), new Uint(1n), new Uint(2n)])).toEqual([
      new Uint(1n),
      new Uint(2n),
      new Uint(3n),
    ])
    expect(call('list_double_sort', [2.5, new Double(1), -0.5])).toEqual([-0.5, new Double(1), 2.5])
    expect(call('list_bool_sort', [true, false, true])).toEqual([false, true, true])
    const d = (n: bigint) => new Duration(n)
    expect(call('list_google.protobuf.Duration_sort', [d(3n), d(-1n), d(2n)])).toEqual([d(-1n), d(2n), d(3n)])
    expect(call('list_int_sort', [9223372036854775807n, 1, -9223372036854775808n])).toEqual([
      -9223372036854775808n,
      1,
      9223372036854775807n,
    ])
  })
  it('requires comparable elements of one type', () => {
    expect(errorOf('list_string_sort', ['d', 3, 2, 'c'])).toBe('list elements must have the same type')
    expect(errorOf('list_int_sort', [1, 'b'])).toBe('list elements must have the same type')
    expect(errorOf('list_int_sort', [[1, 2, 3]])).toBe('list elements must be comparable')
    expect(errorOf('list_int_sort', [new CelMap(), new CelMap()])).toBe('list elements must be comparable')
    // int and double are different types even when the values compare
    expect(errorOf('list_int_sort', [1, 1.5])).toBe('list elements must have the same type')
  })
  it('treats NaN as never less (Compare returns an error, which is not IntNegOne)', () => {
    // Go insertion sort (n <= 12) over [1.0, NaN, 0.5]: less(NaN, 1.0) and less(0.5, NaN) are false
    expect(call('list_double_sort', [new Double(1), Number.NaN, 0.5])).toEqual([new Double(1), Number.NaN, 0.5])
  })
})

describe('@sortByAssociatedKeys (sortBy)', () => {
  it('orders the list by its keys', () => {
    // [-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]
    expect(sortBy([-3, 1, -5, -2, 4], [-9, -1, -25, -4, -16])).toEqual([-5, 4, -3, -2, 1])
    // lists.range(3).sortBy(e, -e) == [2, 1, 0]
    expect(sortBy([0, 1, 2], [0, -1, -2])).toEqual([2, 1, 0])
    // ["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]
    expect(call('list_string_sortByAssociatedKeys', ['a', 'c', 'b', 'first'], ['a', 'c', 'b', ''])).toEqual([
      'first',
      'a',
      'b',
      'c',
    ])
    // TestListsVersion: [{'field': 'lo'}, {'field': 'hi'}].sortBy(m, m.field) == [{'field': 'hi'}, {'field': 'lo'}]
    expect(call('list_string_sortByAssociatedKeys', [{ field: 'lo' }, { field: 'hi' }], ['lo', 'hi'])).toEqual([
      { field: 'hi' },
      { field: 'lo' },
    ])
    // ext/lists.go doc: ["foo", "bar", "baz"].@sortByAssociatedKeys([3, 1, 2]) == ["bar", "baz", "foo"]
    expect(sortBy(['foo', 'bar', 'baz'], [3, 1, 2])).toEqual(['bar', 'baz', 'foo'])
    expect(sortBy([], [])).toEqual([])
  })
  it('keeps equal keys in input order for up to 12 elements (Go insertion sort)', () => {
    expect(sortBy(['a', 'b', 'c', 'd'], [1, 0, 1, 0])).toEqual(['b', 'd', 'a', 'c'])
    const names = 'abcdefghijkl'.split('')
    const keys = [2, 1, 2, 1, 0, 2, 1, 0, 0, 2, 1, 0]
    expect(sortBy(names, keys)).toEqual(['e', 'h', 'i', 'l', 'b', 'd', 'g', 'k', 'a', 'c', 'f', 'j'])
  })
  it('checks the list sizes', () => {
    expect(errorOf('list_int_sortByAssociatedKeys', [1, 2], [1])).toBe(
      '@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got 2 and 1 elements respectively',
    )
  })
  it('sorts any size like an exact sort by key (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 300 }), (keys) => {
        const list = keys.map((_, i) => i)
        const out = sortBy(list, keys) as number[]
        // a permutation of the indices, in non-decreasing key order
        expect([...out].sort((a, b) => a - b)).toEqual(list)
        for (let i = 1; i < out.length; i++) expect(keys[out[i - 1]!]!).toBeLessThanOrEqual(keys[out[i]!]!)
      }),
    )
  })
  it('handles adversarial orders (heap-sort / pattern-breaking paths)', () => {
    const n = 2000
    const shapes: number[][] = [
      Array.from({ length: n }, (_, i) => n - i), // descending
      Array.from({ length: n }, (_, i) => i), // ascending
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i : n - i)), // organ pipe-ish
      Array.from({ length: n }, (_, i) => (i * 7919) % 13), // many duplicates
      Array.from({ length: n }, () => 5), // all equal
    ]
    for (const keys of shapes) {
      const out = call('list_int_sort', keys) as number[]
      expect(out).toEqual([...keys].sort((a, b) => a - b))
    }
  })
})

describe('distinct', () => {
  it('keeps first occurrences by CEL equality', () => {
    expect(call('list_distinct', [])).toEqual([])
    expect(call('list_distinct', [1])).toEqual([1])
    expect(call('list_distinct', [-2, 5, -2, 1, 1, 5, -2, 1])).toEqual([-2, 5, 1])
    expect(call('list_distinct', ['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'])).toEqual(['c', 'a', 'b'])
    expect(call('list_distinct', [1, new Double(2), 'c', 3, 'c', 1])).toEqual([1, new Double(2), 'c', 3])
    expect(call('list_distinct', [1, new Double(1), 2])).toEqual([1, 2])
    expect(call('list_distinct', [[1], [1], [2]])).toEqual([[1], [2]])
    expect(call('list_distinct', [1, 2, 2, 1])).toEqual([1, 2])
    expect(call('list_distinct', ['b', 'b', 'c', 'a', 'c'])).toEqual(['b', 'c', 'a'])
    expect(call('list_distinct', [1, 'b', 2, 'b'])).toEqual([1, 'b', 2])
    expect(call('list_distinct', [true, false, true])).toEqual([true, false])
    expect(call('list_distinct', [new Uint(1n), 1, new Double(1)])).toEqual([new Uint(1n)])
  })
  it('treats NaN as unequal to itself', () => {
    const out = call('list_distinct', [Number.NaN, Number.NaN]) as number[]
    expect(out.length).toBe(2)
  })
})
