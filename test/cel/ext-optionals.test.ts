import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import {
  isZeroValue,
  optionalFunctions,
  optionalIndex,
  optionalSelect,
  orShortCircuit,
  orValueShortCircuit,
} from '../../src/cel/ext/optionals.js'
import type { OverloadDecl } from '../../src/cel/functions.js'
import { IntType } from '../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { CelMap, type CelValue, Double, type MapKey, Optional, Uint } from '../../src/cel/values/values.js'

// Expected values come from cel-spec tests/simple/testdata/optionals.textproto (cel-spec v0.25.1
// as shipped in @bufbuild/cel-spec), cel-go v0.26.0 cel/cel_test.go TestOptionalValues, and the
// cel-go sources named per case (cel/library.go, common/types/optional.go,
// interpreter/attributes.go, common/types/{null,timestamp}.go for zero values).

function find(id: string): OverloadDecl {
  for (const f of optionalFunctions) for (const o of f.overloads) if (o.id === id) return o
  throw new Error(`no overload ${id}`)
}

function call(id: string, ...args: CelValue[]): CelValue {
  return find(id).impl(...args)
}

function errorOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
  throw new Error('did not fail')
}

const of = (v: CelValue) => call('optional_of', v) as Optional
const ofNonZero = (v: CelValue) => call('optional_ofNonZeroValue', v) as Optional
const none = () => call('optional_none') as Optional
const hasValue = (o: CelValue) => call('optional_hasValue', o)
const value = (o: CelValue) => call('optional_value', o)
/** `a.or(b)` as the compiler runs it (lazily); undefined (not null) means "evaluate b". */
function or(a: CelValue, b: () => CelValue): CelValue {
  const r = orShortCircuit(a)
  return r === undefined ? b() : r
}
function orValue(a: CelValue, b: () => CelValue): CelValue {
  const r = orValueShortCircuit(a)
  return r === undefined ? b() : r
}

function celMap(entries: [MapKey, CelValue, CelValue?][]): CelMap {
  // [normalised key, value, key as written]
  const m = new CelMap()
  for (const [k, v, w] of entries) m.entries.set(k, [w ?? k, v])
  return m
}

describe('declarations', () => {
  it('match cel/library.go (optional library versions 0-2)', () => {
    const sig = (id: string) => {
      const o = find(id)
      return `${o.member ? 'member ' : ''}(${o.params.map(String).join(', ')}) -> ${o.result}`
    }
    expect(sig('optional_of')).toBe('(V) -> optional_type(V)')
    expect(sig('optional_ofNonZeroValue')).toBe('(V) -> optional_type(V)')
    expect(sig('optional_none')).toBe('() -> optional_type(V)')
    expect(sig('optional_value')).toBe('member (optional_type(V)) -> V')
    expect(sig('optional_hasValue')).toBe('member (optional_type(V)) -> bool')
    expect(sig('optional_or_optional')).toBe('member (optional_type(V), optional_type(V)) -> optional_type(V)')
    expect(sig('optional_orValue_value')).toBe('member (optional_type(V), V) -> V')
    expect(sig('select_optional_field')).toBe('(dyn, string) -> optional_type(V)')
    expect(sig('list_optindex_optional_int')).toBe('(list(V), int) -> optional_type(V)')
    expect(sig('optional_list_optindex_optional_int')).toBe('(optional_type(list(V)), int) -> optional_type(V)')
    expect(sig('map_optindex_optional_value')).toBe('(map(K, V), K) -> optional_type(V)')
    expect(sig('optional_map_optindex_optional_value')).toBe('(optional_type(map(K, V)), K) -> optional_type(V)')
    expect(sig('optional_list_index_int')).toBe('(optional_type(list(V)), int) -> optional_type(V)')
    expect(sig('optional_map_index_value')).toBe('(optional_type(map(K, V)), K) -> optional_type(V)')
    expect(sig('list_first')).toBe('member (list(V)) -> optional_type(V)')
    expect(sig('list_last')).toBe('member (list(V)) -> optional_type(V)')
    expect(sig('optional_unwrap')).toBe('(list(optional_type(V))) -> list(V)')
    expect(sig('optional_unwrapOpt')).toBe('member (list(optional_type(V))) -> list(V)')
    expect(find('map_optindex_optional_value').typeParams).toEqual(['K', 'V'])
    expect(find('optional_of').typeParams).toEqual(['V'])
    expect(optionalFunctions.map((f) => f.name)).toEqual([
      'optional.of',
      'optional.ofNonZeroValue',
      'optional.none',
      'value',
      'hasValue',
      'or',
      'orValue',
      '_?._',
      '_[?_]',
      '_[_]',
      'last',
      'first',
      'optional.unwrap',
      'unwrapOpt',
    ])
  })
})

describe('optional.of / ofNonZeroValue / none / hasValue / value', () => {
  it('wrap any value, null included', () => {
    expect(hasValue(of(null))).toBe(true) // optionals/null
    expect(hasValue(ofNonZero(null))).toBe(false) // optionals/null_non_zero_value
    expect(value(of(42))).toBe(42)
    expect(hasValue(none())).toBe(false)
    expect(none()).toBe(Optional.none)
  })
  it('value() of none is an error (common/types/optional.go GetValue)', () => {
    expect(errorOf(() => value(none()))).toBe('optional.none() dereference')
  })
  it('ofNonZeroValue drops the zero value of each kind (traits.Zeroer)', () => {
    for (const z of [
      null,
      false,
      0,
      new Uint(0n),
      new Double(0),
      new Double(-0),
      '',
      new Uint8Array(0),
      [],
      {},
      new CelMap(),
      new Duration(0n),
      // Timestamp.IsZeroValue is Go's time.Time.IsZero: 0001-01-01T00:00:00Z
      new Timestamp(-62135596800, 0),
    ]) {
      expect(hasValue(ofNonZero(z))).toBe(false)
      expect(isZeroValue(z)).toBe(true)
    }
    for (const v of [
      true,
      1,
      -1,
      9223372036854775807n,
      new Uint(1n),
      0.5,
      Number.NaN,
      'a',
      new Uint8Array([0]),
      [0],
      { a: 0 },
      celMap([[1, 2]]),
      new Duration(1n),
      new Timestamp(0, 0), // the Unix epoch is not Go's zero time
      new Timestamp(-62135596800, 1),
      Optional.none, // *types.Optional implements no IsZeroValue
      of(0),
      IntType,
    ]) {
      expect(hasValue(ofNonZero(v))).toBe(true)
    }
    // optional_ofNonZeroValue_or_optional_value: optional.ofNonZeroValue(42).or(optional.of(20)).value() == 42
    expect(value(or(ofNonZero(42), () => of(20)))).toBe(42)
  })
})

describe('or / orValue', () => {
  it('pick the first valued optional, evaluating the alternative only when needed', () => {
    // optionals/none_or_none_or_value: optional.none().or(optional.none()).orValue(42) == 42
    expect(
      orValue(
        or(none(), () => none()),
        () => 42,
      ),
    ).toBe(42)
    const boom = (): CelValue => {
      throw new Error('alternative evaluated')
    }
    expect(value(or(of(1), boom))).toBe(1)
    expect(orValue(of('x'), boom)).toBe('x')
    expect(orValue(of(null), boom)).toBe(null)
    // the eager implementations agree when both sides are values
    expect(call('optional_or_optional', none(), of(2))).toEqual(of(2))
    expect(call('optional_or_optional', of(1), of(2))).toEqual(of(1))
    expect(call('optional_orValue_value', none(), 3)).toBe(3)
    expect(call('optional_orValue_value', of(null), 3)).toBe(null)
  })
  it('return a non-optional receiver unchanged (v0.26 evalOptionalOr / evalOptionalOrValue)', () => {
    expect(orShortCircuit(1)).toBe(1)
    expect(orValueShortCircuit('s')).toBe('s')
    expect(orShortCircuit(Optional.none)).toBeUndefined()
    expect(orValueShortCircuit(Optional.none)).toBeUndefined()
  })
})

describe('first / last / unwrap (version 2)', () => {
  it('first and last', () => {
    expect(hasValue(call('list_first', []))).toBe(false)
    expect(hasValue(call('list_last', []))).toBe(false)
    expect(value(call('list_first', [1, 2, 3]))).toBe(1)
    expect(value(call('list_last', [1, 2, 3]))).toBe(3)
    expect(value(call('list_last', [null]))).toBe(null)
  })
  it('unwrap keeps the present values', () => {
    expect(call('optional_unwrap', [of(42), none()])).toEqual([42])
    expect(call('optional_unwrapOpt', [of(42), none()])).toEqual([42])
    expect(call('optional_unwrap', [])).toEqual([])
    expect(call('optional_unwrap', [none(), of('a'), of(null)])).toEqual(['a', null])
    expect(errorOf(() => call('optional_unwrap', [of(1), 1]))).toBe('value 1 is not optional')
    expect(errorOf(() => call('optional_unwrapOpt', [none(), 'x']))).toBe('value x is not optional')
  })
})

describe('optionalSelect (a.?b, and .b on an optional)', () => {
  it('selects present keys and reports absent ones as none', () => {
    expect(hasValue(optionalSelect({}, 'x'))).toBe(false) // optionals/map_optindex_hasValue
    expect(hasValue(optionalSelect({}, 'key'))).toBe(false)
    // optionals/map_null_entry_hasValue: {'null_key': dyn(null)}.?null_key.hasValue()
    expect(hasValue(optionalSelect({ null_key: null }, 'null_key'))).toBe(true)
    // optionals/map_undefined_entry_hasValue: {}.?null_key.invalid.hasValue() == false
    expect(hasValue(optionalSelect(optionalSelect({}, 'null_key'), 'invalid'))).toBe(false)
    // optionals/optional_empty_map_optindex_hasValue and optional_none_optselect_hasValue
    expect(hasValue(optionalSelect(of({}), 'c'))).toBe(false)
    expect(optionalSelect(none(), 'repeated_string')).toBe(Optional.none)
    // optionals/map_submap_subkey_optFlatMap_value: {'key': {'subkey': 'subvalue'}}.?key ... k.?subkey
    const outer = optionalSelect({ key: { subkey: 'subvalue' } }, 'key')
    expect(value(optionalSelect(value(outer), 'subkey'))).toBe('subvalue')
    expect(value(optionalSelect({ key: { subkey: '' } }, 'key'))).toEqual({ subkey: '' })
    // only own properties are keys
    expect(hasValue(optionalSelect({}, 'constructor'))).toBe(false)
    expect(hasValue(optionalSelect({ ['__proto__']: 1 }, '__proto__'))).toBe(true)
    expect(value(optionalSelect(celMap([['a', 1]]), 'a'))).toBe(1)
  })
  it('chains through optional operands (cel_test.go TestOptionalValues)', () => {
    // optionals/optional_chaining_4: optional.of({'c': {'index': 'goodbye'}}).c.index.orValue('default value')
    const m = of({ c: { index: 'goodbye' } })
    expect(orValue(optionalSelect(optionalSelect(m, 'c'), 'index'), () => 'default value')).toBe('goodbye')
    // optionals/optional_chaining_5: optional.of({'c': {}}).c.missing.or(optional.none()[0]).orValue('default value')
    const missing = optionalSelect(optionalSelect(of({ c: {} }), 'c'), 'missing')
    expect(
      orValue(
        or(missing, () => optionalIndex(none(), 0)),
        () => 'default value',
      ),
    ).toBe('default value')
    // optionals/optional_chaining_6: ....or(optional.of(['list-value'])[0]).orValue('default value')
    expect(
      orValue(
        or(missing, () => optionalIndex(of(['list-value']), 0)),
        () => 'default value',
      ),
    ).toBe('list-value')
    // optionals/optional_chaining_11: {'c': {...}}.?c.missing.or({'c': {...}}.?c['dashed-index']).orValue('')
    const src = { c: { 'dashed-index': 'goodbye' } }
    const left = optionalSelect(optionalSelect(src, 'c'), 'missing')
    expect(
      orValue(
        or(left, () => optionalIndex(optionalSelect(src, 'c'), 'dashed-index')),
        () => '',
      ),
    ).toBe('goodbye')
  })
  it('gives none for operands that have no fields (no EnableErrorOnBadPresenceTest in Kubernetes)', () => {
    // interpreter/attributes.go refQualify: a presence test on a non-map / non-list value is "absent".
    // cel-spec's map_null_entry_no_such_key / map_present_key_invalid_field expect an error only
    // because cel-go's conformance runner enables cel.EnableErrorOnBadPresenceTest(true).
    expect(hasValue(optionalSelect(optionalSelect({ null_key: null }, 'null_key'), 'invalid'))).toBe(false)
    for (const v of [1, 'str', true, null, 1.5, new Uint8Array(1), new Duration(1n), IntType]) {
      expect(hasValue(optionalSelect(v, 'a'))).toBe(false)
    }
    // a list is qualified by the field name as an index: refQualify's Lister case, types.IndexOrError
    // (k8s.io/apiserver v0.37.2 and v0.36.6 evaluate `object.l.?k` on a list to this error)
    expect(() => optionalSelect([1], 'a')).toThrow("unsupported index type 'string' in list")
  })
})

describe('optionalIndex (m[?k], l[?i], and [k] on an optional)', () => {
  it('indexes lists', () => {
    expect(hasValue(optionalIndex([], 0))).toBe(false) // empty_list_optindex_hasValue
    expect(hasValue(optionalIndex(of([]), 0))).toBe(false) // optional_empty_list_optindex_hasValue
    expect(hasValue(optionalIndex(none(), 0))).toBe(false) // optional_none_optindex_hasValue
    expect(value(optionalIndex(['foo'], 0))).toBe('foo') // list_optindex_value
    expect(value(optionalIndex(of(['foo']), 0))).toBe('foo') // optional_list_optindex_value
    expect(hasValue(optionalIndex(['foo'], -1))).toBe(false)
    expect(hasValue(optionalIndex(['foo'], 1))).toBe(false)
    expect(hasValue(optionalIndex(['foo'], 9223372036854775807n))).toBe(false)
    // types.IndexOrError: lossless doubles and uints index lists too
    expect(value(optionalIndex([7, 8, 9], new Double(0)))).toBe(7)
    expect(value(optionalIndex([7, 8, 9], new Uint(2n)))).toBe(9)
    expect(hasValue(optionalIndex([7, 8, 9], new Uint(3n)))).toBe(false)
  })
  it('fails for list indexes cel-go cannot use', () => {
    expect(errorOf(() => optionalIndex([1, 2], 1.5))).toBe('unsupported index value 1.5 in list')
    expect(errorOf(() => optionalIndex([1, 2], 1e300))).toBe('unsupported index value 1e+300 in list')
    expect(errorOf(() => optionalIndex([1, 2], new Uint(18446744073709551615n)))).toBe(
      'unsupported index value 18446744073709551615 in list',
    )
    expect(errorOf(() => optionalIndex([1, 2], '0'))).toBe("unsupported index type 'string' in list")
    expect(errorOf(() => optionalIndex([1, 2], true))).toBe("unsupported index type 'bool' in list")
    // newQualifier accepts only string, int, uint, bool and double values
    expect(errorOf(() => optionalIndex([1, 2], null))).toBe('invalid qualifier type: types.Null')
    expect(errorOf(() => optionalIndex({}, [0]))).toContain('invalid qualifier type: ')
  })
  it('indexes maps with numeric keys matching across int, uint and double', () => {
    // optionals/map_key_mixed_type_optindex_value: {true: 1, 2: 2, 5u: 3}[?true].value() == 1
    const mixed = celMap([
      [true, 1],
      [2, 2],
      [5, 3, new Uint(5n)],
    ])
    expect(value(optionalIndex(mixed, true))).toBe(1)
    // optionals/map_key_mixed_numbers_*: {1u: 1.0, 2: 2.0, 3u: 3.0}[?3.0] / [?2u] / [?1]
    const nums = celMap([
      [1, new Double(1), new Uint(1n)],
      [2, new Double(2)],
      [3, new Double(3), new Uint(3n)],
    ])
    expect(value(optionalIndex(nums, new Double(3)))).toEqual(new Double(3))
    expect(value(optionalIndex(nums, new Uint(2n)))).toEqual(new Double(2))
    expect(value(optionalIndex(nums, 1))).toEqual(new Double(1))
    expect(hasValue(optionalIndex(nums, 1.5))).toBe(false)
    expect(hasValue(optionalIndex(nums, '1'))).toBe(false)
    // optionals/map_absent_key_absent_field_none: {true: dyn(0)}[?false].absent.hasValue() == false
    expect(hasValue(optionalSelect(optionalIndex(celMap([[true, 0]]), false), 'absent'))).toBe(false)
  })
  it('indexes string-keyed maps', () => {
    // optionals/optional_chaining_2 and _3
    expect(orValue(optionalIndex({ 'dashed-index': 'goodbye' }, 'dashed-index'), () => 'default value')).toBe('goodbye')
    expect(orValue(optionalIndex({}, 'missing-index'), () => 'default value')).toBe('default value')
    // optional_chaining_7 / _8: optional.of({'c': {...}}).c['index']
    expect(value(optionalIndex(optionalSelect(of({ c: { index: 'goodbye' } }), 'c'), 'index'))).toBe('goodbye')
    expect(hasValue(optionalIndex(optionalSelect(of({ c: {} }), 'c'), 'missing'))).toBe(false)
    // a non-string key finds nothing in a string-keyed map
    expect(hasValue(optionalIndex({ '1': 1 }, 1))).toBe(false)
  })
  it('gives none for operands that cannot be indexed', () => {
    for (const v of [1, 'abc', true, null, new Uint8Array(2), new Duration(1n)]) {
      expect(hasValue(optionalIndex(v, 0))).toBe(false)
    }
  })
  it('supports the nested literals of cel-spec optional_chaining_16', () => {
    // optional.ofNonZeroValue({?'nested_map': optional.ofNonZeroValue({?'map': optional.of({}).?c})}).hasValue()
    const inner = optionalSelect(of({}), 'c') // none, so {?'map': ...} is {}
    expect(hasValue(inner)).toBe(false)
    const nested = ofNonZero({}) // {?'nested_map': none} is {}
    expect(hasValue(nested)).toBe(false)
    expect(hasValue(ofNonZero({}))).toBe(false)
  })
})
