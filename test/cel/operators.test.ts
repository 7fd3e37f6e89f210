import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import type { OverloadDecl } from '../../src/cel/functions.js'
import {
  addBytes,
  addDouble,
  addInt,
  addList,
  addString,
  addUint,
  divideDouble,
  divideInt,
  divideUint,
  greaterEquals,
  index,
  indexList,
  indexMap,
  inList,
  inMap,
  inValue,
  lessDouble,
  lessThan,
  moduloInt,
  moduloUint,
  multiplyDouble,
  multiplyInt,
  multiplyUint,
  negateDouble,
  negateInt,
  operatorFunctions,
  size,
  sizeString,
  subtractDouble,
  subtractInt,
  subtractUint,
} from '../../src/cel/stdlib/operators.js'
import { buildMap } from '../../src/cel/values/maps.js'
import { type CelValue, Double, Uint } from '../../src/cel/values/values.js'

// A CEL double literal as the parser reads it (Go ParseFloat and JS Number round alike).
const lit = (s: string) => Number(s)

// Expected values: cel-spec tests/simple/testdata/{integer_math,fp_math,comparisons,lists,fields}.textproto
// (test names quoted) with cel-go v0.26 error texts (common/types/err.go, overflow.go,
// interpreter/attributes.go, common/types/list.go IndexOrError).

const u = (v: bigint | number) => new Uint(BigInt(v))
const d = (v: number) => new Double(v)
const MAX = 9223372036854775807n
const MIN = -9223372036854775808n

function thrown(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
  throw new Error('expected an ErrorValue')
}

function overloadById(id: string): OverloadDecl & { fnName: string } {
  for (const f of operatorFunctions) {
    for (const o of f.overloads) if (o.id === id) return { ...o, fnName: f.name }
  }
  throw new Error(`no overload ${id}`)
}

describe('int64 arithmetic', () => {
  it('computes integer_math int64_math cases', () => {
    expect(addInt(40, 2)).toBe(42) // add_positive_positive
    expect(addInt(42, -7)).toBe(35)
    expect(subtractInt(-42, -12)).toBe(-30)
    expect(multiplyInt(40, -2)).toBe(-80)
    expect(divideInt(-20, 2)).toBe(-10)
    expect(divideInt(-80, -2)).toBe(40)
    expect(moduloInt(47, 5)).toBe(2) // mod_positive_positive
    expect(moduloInt(43, -5)).toBe(3) // mod_positive_negative
    expect(moduloInt(-42, -5)).toBe(-2) // mod_negative_negative
    expect(moduloInt(-3, 5)).toBe(-3) // mod_negative_positive
    expect(negateInt(-42)).toBe(42)
    expect(multiplyInt(15, 0)).toBe(0)
  })

  it('never produces -0', () => {
    expect(Object.is(negateInt(0), 0)).toBe(true) // negative_zero: -(0) == 0
    expect(Object.is(multiplyInt(-3, 0), 0)).toBe(true)
    expect(Object.is(divideInt(-1, 5), 0)).toBe(true)
    expect(Object.is(moduloInt(-4, 2), 0)).toBe(true)
  })

  it('truncates division toward zero and keeps the dividend sign for %, also beyond 2^53', () => {
    expect(divideInt(7, -2)).toBe(-3)
    expect(divideInt(-7, 2)).toBe(-3)
    expect(divideInt(MAX, 2n ** 40n)).toBe(8388607)
    expect(moduloInt(-9007199254740993n, 10)).toBe(-3)
    expect(divideInt(9007199254740993n, 1)).toBe(9007199254740993n)
  })

  it('crosses the safe-integer boundary exactly', () => {
    expect(addInt(9007199254740991, 1)).toBe(9007199254740992n)
    expect(addInt(9007199254740992n, -1)).toBe(9007199254740991)
    expect(multiplyInt(3037000499, 3037000499)).toBe(9223372030926249001n)
    expect(subtractInt(-9007199254740991, 2)).toBe(-9007199254740993n)
    expect(negateInt(9007199254740992n)).toBe(-9007199254740992n)
  })

  it('reports integer overflow (int64_overflow_*, int64_min_negate*)', () => {
    expect(thrown(() => addInt(MAX, 1))).toBe('integer overflow')
    expect(thrown(() => subtractInt(MIN, 1))).toBe('integer overflow')
    expect(thrown(() => addInt(MIN, -1))).toBe('integer overflow')
    expect(thrown(() => subtractInt(1, -MAX))).toBe('integer overflow')
    expect(thrown(() => negateInt(MIN))).toBe('integer overflow')
    expect(thrown(() => multiplyInt(MIN, -1))).toBe('integer overflow')
    expect(thrown(() => divideInt(MIN, -1))).toBe('integer overflow')
    expect(thrown(() => moduloInt(MIN, -1))).toBe('integer overflow') // overflow.go moduloInt64Checked
    expect(thrown(() => multiplyInt(5000000000, 5000000000))).toBe('integer overflow')
    expect(thrown(() => multiplyInt(-5000000000, 5000000000))).toBe('integer overflow')
  })

  it('reports division and modulus by zero (err.go texts)', () => {
    expect(thrown(() => divideInt(15, 0))).toBe('division by zero')
    expect(thrown(() => moduloInt(34, 0))).toBe('modulus by zero')
    expect(thrown(() => divideInt(MAX, 0))).toBe('division by zero')
  })
})

describe('int64 arithmetic against an exact model (Go int64 semantics: truncated /, dividend-signed %)', () => {
  // Values cluster around the interesting boundaries: 0, ±2^53 and the int64 limits.
  const int64 = fc.oneof(
    fc.bigInt({ min: -1000n, max: 1000n }),
    fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }),
    fc.bigInt({ min: MIN, max: MAX }),
    fc.constantFrom(MIN, MAX, 0n, -1n, 1n, 2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n)),
  )
  const norm = (v: bigint) => (v >= -(2n ** 53n - 1n) && v <= 2n ** 53n - 1n ? Number(v) : v)
  const model = (v: bigint) => (v < MIN || v > MAX ? 'integer overflow' : norm(v))
  const run = (f: () => unknown) => {
    try {
      return f()
    } catch (e) {
      if (e instanceof ErrorValue) return e.message
      throw e
    }
  }
  it('matches the model for + - * / % and negation', () => {
    fc.assert(
      fc.property(int64, int64, (x, y) => {
        const a = norm(x)
        const b = norm(y)
        expect(run(() => addInt(a, b))).toEqual(model(x + y))
        expect(run(() => subtractInt(a, b))).toEqual(model(x - y))
        expect(run(() => multiplyInt(a, b))).toEqual(model(x * y))
        expect(run(() => negateInt(a))).toEqual(model(-x))
        if (y === 0n) {
          expect(run(() => divideInt(a, b))).toBe('division by zero')
          expect(run(() => moduloInt(a, b))).toBe('modulus by zero')
        } else {
          expect(run(() => divideInt(a, b))).toEqual(model(x / y))
          expect(run(() => moduloInt(a, b))).toEqual(x === MIN && y === -1n ? 'integer overflow' : norm(x % y))
        }
      }),
      { numRuns: 3000 },
    )
  })
})

describe('uint64 arithmetic', () => {
  it('computes integer_math uint64_math cases', () => {
    expect(addUint(u(42), u(2))).toEqual(u(44))
    expect(subtractUint(u(42), u(12))).toEqual(u(30))
    expect(multiplyUint(u(40), u(2))).toEqual(u(80))
    expect(divideUint(u(60), u(2))).toEqual(u(30))
    expect(moduloUint(u(42), u(5))).toEqual(u(2))
    expect(addUint(u(18446744073709551614n), u(1))).toEqual(u(18446744073709551615n))
  })

  it('reports unsigned overflow and zero divisors', () => {
    expect(thrown(() => addUint(u(18446744073709551615n), u(1)))).toBe('unsigned integer overflow')
    expect(thrown(() => subtractUint(u(0), u(1)))).toBe('unsigned integer overflow')
    expect(thrown(() => multiplyUint(u(5000000000), u(5000000000)))).toBe('unsigned integer overflow')
    expect(thrown(() => divideUint(u(15), u(0)))).toBe('division by zero')
    expect(thrown(() => moduloUint(u(34), u(0)))).toBe('modulus by zero')
  })
})

describe('double arithmetic', () => {
  it('computes fp_math cases with IEEE semantics', () => {
    expect(addDouble(4.25, 15.25)).toBe(19.5) // add_positive_positive: not integral, a plain number
    expect(addDouble(17.75, -7.75)).toEqual(d(10)) // integral results are Double
    expect(subtractDouble(-4.875, -0.125)).toBe(-4.75)
    expect(multiplyDouble(40.75, -2.25)).toBe(-91.6875)
    expect(divideDouble(0.0625, 0.002)).toBe(31.25)
    expect(divideDouble(d(-2), d(2))).toEqual(d(-1))
    expect(negateDouble(-1.25)).toBe(1.25)
    expect(divideDouble(15.75, d(0))).toBe(Number.POSITIVE_INFINITY) // divide_zero
    expect(multiplyDouble(2, 8.988466e307)).toBe(Number.POSITIVE_INFINITY) // fp_overflow_positive
    expect(multiplyDouble(2, -8.988466e307)).toBe(Number.NEGATIVE_INFINITY)
    expect(divideDouble(5e-324, 2)).toEqual(d(0)) // fp_underflow
  })

  it('keeps negative zero as a double (fp_math negative_zero)', () => {
    const z = negateDouble(d(0))
    expect(z).toBeInstanceOf(Double)
    expect(Object.is((z as Double).value, -0)).toBe(true)
  })
})

describe('concatenation', () => {
  it('concatenates strings, bytes and lists (lists concatenation)', () => {
    expect(addString('ab', 'cd')).toBe('abcd')
    expect(addBytes(new Uint8Array([1]), new Uint8Array([2, 3]))).toEqual(new Uint8Array([1, 2, 3]))
    expect(addList([0, 1, 2], [3, 4, 5])).toEqual([0, 1, 2, 3, 4, 5]) // list_append
    expect(addList([], [])).toEqual([]) // empty_empty
    const right = [3, 4]
    expect(addList([], right)).toBe(right) // left_unit
    const left = [1, [2]] as CelValue[]
    const sum = addList(left, [[3]])
    expect(sum).toEqual([1, [2], [3]])
    expect(left).toEqual([1, [2]]) // inputs never mutated
  })
})

describe('relational overloads', () => {
  it('declares every cel-go overload of _<_ with its implementation', () => {
    const ids = operatorFunctions.find((f) => f.name === '_<_')?.overloads.map((o) => o.id)
    expect(ids).toEqual([
      'less_bool',
      'less_int64',
      'less_int64_double',
      'less_int64_uint64',
      'less_uint64',
      'less_uint64_double',
      'less_uint64_int64',
      'less_double',
      'less_double_int64',
      'less_double_uint64',
      'less_string',
      'less_bytes',
    ])
  })

  it.each<[string, CelValue, CelValue, boolean]>([
    ['less_bool', false, true, true], // lt_bool_false_first
    ['less_int64', -1, 0, true], // lt_int
    ['less_int64', 9007199254740992n, 9007199254740991, false],
    ['less_uint64', u(2), u(2), false], // not_lt_uint
    ['less_double', d(-0), d(0), false], // not_lt_double
    ['less_string', 'Abc', 'aBC', true], // lt_string_case
    ['less_string', 'f', '\u1EBF', true], // unicode_order_lexical
    ['less_bytes', new Uint8Array([97]), new Uint8Array([98]), true], // lt_bytes
    ['less_int64_uint64', 1, u(2), true], // lt_dyn_int_uint
    ['less_uint64_int64', u(1), 2, true],
    ['less_int64_double', 1, d(2), true],
    ['less_double_uint64', d(1), u(2), true],
    ['greater_int64_uint64', 1, u(9223372036854775808n), false], // not_gt_dyn_int_big_uint
    ['greater_int64_double', MAX, lit('9223372036854775808'), false], // not_gt_dyn_int_big_double
    ['greater_equals_int64_double', MAX, lit('9223372036854775808'), true], // gte_dyn_int_big_lossy_double
    ['greater_equals_int64_double', MAX, lit('9223372036854777857'), false], // not_gte_dyn_int_big_double
    ['greater_uint64_double', u(18446744073709551615n), 18446744073709590000, false], // not_gt_dyn_uint_big_double
    ['greater_double_uint64', lit('18446744073709553665'), u(18446744073709551615n), true], // gt_dyn_big_double_uint
    ['less_equals_double_int64', lit('-9223372036854775809'), MIN, true], // lte_dyn_small_double_int
    ['less_equals_uint64_int64', u(1), MIN, false], // not_lte_dyn_uint_small_int
    ['greater_equals_bytes', new Uint8Array([32]), new Uint8Array([]), true], // gte_bytes_to_empty
    ['greater_string', 'α', 'omega', true], // gt_string_unicode
    ['less_equals_string', 'a', 'α', true], // lte_string_unicode_lt
    ['greater_equals_bool', true, true, true], // gte_bool_eq
    ['greater_bool', false, true, false], // not_gt_bool_false_true
  ])('%s(%s, %s)', (id, a, b, want) => {
    expect(overloadById(id).impl(a, b)).toBe(want)
  })

  it('throws on NaN operands and on incomparable kinds', () => {
    expect(thrown(() => lessDouble(Number.NaN, 1.5))).toBe('NaN values cannot be ordered')
    expect(thrown(() => overloadById('greater_double').impl(1.5, Number.NaN))).toBe('NaN values cannot be ordered')
    expect(thrown(() => overloadById('less_int64_double').impl(1, Number.NaN))).toBe('NaN values cannot be ordered')
    // lt_list_unsupported: a list is no Comparer, and cel-go's evalBinary then names the function
    // (k8s.io/apiserver v0.37.2 and v0.36.6 evaluate `dyn([0]) < dyn([1])` to this error)
    expect(thrown(() => lessThan([0], [1]))).toBe('no such overload: _<_')
    expect(thrown(() => greaterEquals('foo', d(1)))).toBe('no such overload') // gte_mixed_types_error
  })
})

describe('equality and logic overloads', () => {
  it('implements _==_, _!=_ and !_', () => {
    expect(overloadById('equals').impl(1, u(1))).toBe(true) // eq_int_uint
    expect(overloadById('not_equals').impl(Number.NaN, Number.NaN)).toBe(true) // ne_double_nan
    expect(overloadById('not_equals').impl(u(2), 2)).toBe(false) // ne_mixed_types
    expect(overloadById('logical_not').impl(true)).toBe(false)
  })
})

describe('indexing', () => {
  it('indexes lists by int and lossless uint / double (lists index)', () => {
    expect(indexList([7, 8, 9], 0)).toBe(7) // zero_based
    expect(indexList([7, 8, 9], d(0))).toBe(7) // zero_based_double
    expect(indexList([7, 8, 9], u(0))).toBe(7) // zero_based_uint
    expect(indexList(['George', 'John', 'Paul', 'Ringo'], 3)).toBe('Ringo') // last
  })

  it('reports bad list indices with cel-go texts', () => {
    // lists index_out_of_bounds; attributes.go resolutionError: "index out of bounds: %v"
    expect(thrown(() => indexList([1, 2, 3], 3))).toBe('index out of bounds: 3')
    expect(thrown(() => indexList([1, 2, 3], -1))).toBe('index out of bounds: -1')
    expect(thrown(() => indexList([1], MAX))).toBe('index out of bounds: 9223372036854775807')
    expect(thrown(() => indexList([1], u(5)))).toBe('index out of bounds: 5')
    // zero_based_double_error, bad_index_type; list.go IndexOrError
    expect(thrown(() => indexList([7, 8, 9], 0.1))).toBe('unsupported index value 0.1 in list')
    expect(thrown(() => indexList([7], u(9223372036854775808n)))).toBe(
      'unsupported index value 9223372036854775808 in list',
    )
    expect(thrown(() => indexList([1, 2, 3], ''))).toBe("unsupported index type 'string' in list")
  })

  it('indexes maps with cel-go key look-up and `no such key: %v`', () => {
    expect(indexMap(buildMap([0, 2, 5], [1, 2, true]), 5)).toBe(true) // map_key_int64
    expect(indexMap(buildMap([u(0), u(2), u(5)], [1, 'happy', 3]), u(2))).toBe('happy') // map_key_uint64
    expect(indexMap(buildMap([u(1), 2, u(3)], [1, 2, 3]), d(3))).toBe(3) // map_key_mixed_numbers_double_key
    expect(thrown(() => indexMap(buildMap([0, 2, 5], [1, 2, 3]), 1))).toBe('no such key: 1') // map_no_such_key
    expect(thrown(() => indexMap(buildMap(['a'], [1]), 'name'))).toBe('no such key: name')
    expect(thrown(() => indexMap(buildMap([1], [1]), 3.1))).toBe('no such key: 3.1')
    expect(thrown(() => indexMap(buildMap([1], [1]), u(2)))).toBe('no such key: 2')
  })

  it('index() dispatches on the operand like cel-go refQualify', () => {
    expect(index([7, 8, 9], u(1))).toBe(8)
    expect(index(buildMap(['k'], ['v']), 'k')).toBe('v')
    expect(thrown(() => index('abc', 0))).toBe('no such key: 0')
  })
})

describe('membership and size', () => {
  it('tests list membership with heterogeneous equality (lists in)', () => {
    expect(inList(7, [])).toBe(false) // empty
    expect(inList(u(4), [u(4)])).toBe(true) // singleton
    expect(inList(d(3), [5, 4, 3, 2, 1])).toBe(true) // double_in_ints
    expect(inList(u(3), [d(5), d(4), d(3)])).toBe(true) // uint_in_doubles
    expect(inList('elem', [1, 'elem', 2])).toBe(true) // elem_in_mixed_type_list
    expect(inList('elem', [u(1), 'str', 2, new Uint8Array()])).toBe(false) // elem_in_mixed_type_list_cross_type
  })

  it('tests map membership by key (fields in)', () => {
    expect(inMap(d(3), buildMap([1, 2, u(3)], [1, 2, 3]))).toBe(true) // mixed_numbers_and_keys_present
    expect(inMap(u(2), buildMap([u(1), 2], [1, 2]))).toBe(true)
    expect(inMap(3.1, buildMap([1, 2, u(3)], [1, 2, 3]))).toBe(false) // mixed_numbers_and_keys_absent
    expect(inValue('a', buildMap(['a'], [1]))).toBe(true)
    expect(thrown(() => inValue(1, 'abc'))).toBe('no such overload')
  })

  it('measures strings in code points, bytes, lists and maps', () => {
    expect(sizeString('hello')).toBe(5)
    expect(sizeString('ίσος')).toBe(4)
    expect(sizeString('😀a')).toBe(2) // cel-go string.go Size: len([]rune(s))
    expect(size(new Uint8Array([1, 2, 3]))).toBe(3)
    expect(size([])).toBe(0) // list_empty
    expect(size(buildMap([1, 2, 3], ['one', 'two', 'three']))).toBe(3) // lists size map
    expect(overloadById('string_size').member).toBe(true)
    expect(overloadById('size_string').member).toBe(false)
  })
})

describe('declarations', () => {
  it('declares the standard operator overloads with cel-go ids', () => {
    const ids = new Map(operatorFunctions.map((f) => [f.name, f.overloads.map((o) => o.id)]))
    expect(ids.get('_+_')).toEqual(['add_bytes', 'add_double', 'add_int64', 'add_list', 'add_string', 'add_uint64'])
    expect(ids.get('_%_')).toEqual(['modulo_int64', 'modulo_uint64'])
    expect(ids.get('-_')).toEqual(['negate_double', 'negate_int64'])
    expect(ids.get('_[_]')).toEqual(['index_list', 'index_map'])
    expect(ids.get('@in')).toEqual(['in_list', 'in_map'])
    expect(ids.get('size')).toEqual([
      'size_bytes',
      'bytes_size',
      'size_list',
      'list_size',
      'size_map',
      'map_size',
      'size_string',
      'string_size',
    ])
    expect(ids.get('_?_:_')).toEqual(['conditional'])
    expect(ids.get('_[?_]')).toEqual([
      'list_optindex_optional_int',
      'optional_list_optindex_optional_int',
      'map_optindex_optional_value',
      'optional_map_optindex_optional_value',
    ])
    expect(ids.get('_?._')).toEqual(['select_optional_field'])
  })

  it('gives the special forms exact signatures', () => {
    const cond = overloadById('conditional')
    expect(cond.params.map(String)).toEqual(['bool', 'A', 'A'])
    expect(String(cond.result)).toBe('A')
    expect(cond.typeParams).toEqual(['A'])
    const opt = overloadById('optional_map_optindex_optional_value')
    expect(opt.params.map(String)).toEqual(['optional_type(map(K, V))', 'K'])
    expect(String(opt.result)).toBe('optional_type(V)')
    expect(String(overloadById('add_list').result)).toBe('list(A)')
    expect(overloadById('index_map').params.map(String)).toEqual(['map(A, B)', 'A'])
    expect(() => overloadById('logical_and').impl(true, true)).toThrow()
  })
})
