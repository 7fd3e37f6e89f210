import { describe, expect, it } from 'vitest'
import type { OverloadDecl } from '../../src/cel/functions.js'
import { compile, standardEnv } from '../../src/cel/program.js'
import { DynType, type Type } from '../../src/cel/types/types.js'
import { parseDuration, parseTimestamp } from '../../src/cel/values/time.js'
import { type CelValue, Double, Uint } from '../../src/cel/values/values.js'
import { listsCosts, listsLibrary, listsLibraryV1, traversalCost, UNBOUNDED } from '../../src/kube/library/lists.js'
import { utf8Length } from '../../src/kube/validation/utf8.js'

const env = standardEnv().extend({ libraries: [listsLibraryV1] })

function run(expr: string, vars: Record<string, CelValue> = {}, types: Record<string, Type> = {}): CelValue {
  return compile(expr, { env, declarations: types }).evaluate(vars)
}

function overload(id: string): OverloadDecl {
  for (const f of listsLibraryV1.functions) for (const o of f.overloads) if (o.id === id) return o
  throw new Error(`no overload ${id}`)
}

const d = (x: number) => new Double(x)
const dur = (s: string) => parseDuration(s)
const ts = (s: string) => parseTimestamp(s)

// The object of apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestValidationExpressions
// "stdlib list functions", as the CRD value conversion gives it (doubles, durations and dates typed).
const self: Record<string, CelValue> = {
  ints: [1, 2, 2, 3],
  unsortedInts: [2, 1],
  emptyInts: [],
  doubles: [d(1), d(2), d(2), d(3)],
  unsortedDoubles: [d(2), d(1)],
  emptyDoubles: [],
  durations: [dur('1s'), dur('1m'), dur('1m'), dur('1h')],
  unsortedDurations: [dur('1m'), dur('1s')],
  emptyDurations: [],
  strings: ['a', 'b', 'b', 'c'],
  unsortedStrings: ['b', 'a'],
  emptyStrings: [],
  dates: [
    ts('2000-01-01T00:00:00Z'),
    ts('2000-02-01T00:00:00Z'),
    ts('2000-02-01T00:00:00Z'),
    ts('2010-01-01T00:00:00Z'),
  ],
  unsortedDates: [ts('2000-02-01T00:00:00Z'), ts('2000-01-01T00:00:00Z')],
  emptyDates: [],
  objs: [
    { f1: 'a', f2: 'a' },
    { f1: 'a', f2: 'b' },
    { f1: 'a', f2: 'b' },
    { f1: 'a', f2: 'c' },
  ],
}

describe('apiextensions-apiserver validation_test.go TestValidationExpressions "stdlib list functions"', () => {
  const valid = [
    'self.ints.sum() == 8',
    'self.ints.min() == 1',
    'self.ints.max() == 3',
    'self.emptyInts.sum() == 0',
    'self.ints.isSorted()',
    'self.emptyInts.isSorted()',
    'self.unsortedInts.isSorted() == false',
    'self.ints.indexOf(2) == 1',
    'self.ints.lastIndexOf(2) == 2',
    'self.ints.indexOf(10) == -1',
    'self.ints.lastIndexOf(10) == -1',
    'self.doubles.sum() == 8.0',
    'self.doubles.min() == 1.0',
    'self.doubles.max() == 3.0',
    'self.doubles.isSorted()',
    'self.emptyDoubles.isSorted()',
    'self.unsortedDoubles.isSorted() == false',
    'self.doubles.indexOf(2.0) == 1',
    'self.doubles.lastIndexOf(2.0) == 2',
    'self.doubles.indexOf(10.0) == -1',
    'self.doubles.lastIndexOf(10.0) == -1',
    "self.durations.sum() == duration('1h2m1s')",
    "self.durations.min() == duration('1s')",
    "self.durations.max() == duration('1h')",
    'self.durations.isSorted()',
    'self.emptyDurations.isSorted()',
    'self.unsortedDurations.isSorted() == false',
    "self.durations.indexOf(duration('1m')) == 1",
    "self.durations.lastIndexOf(duration('1m')) == 2",
    "self.durations.indexOf(duration('2m')) == -1",
    "self.durations.lastIndexOf(duration('2m')) == -1",
    "self.strings.min() == 'a'",
    "self.strings.max() == 'c'",
    'self.strings.isSorted()',
    'self.emptyStrings.isSorted()',
    'self.unsortedStrings.isSorted() == false',
    "self.strings.indexOf('b') == 1",
    "self.strings.lastIndexOf('b') == 2",
    "self.strings.indexOf('x') == -1",
    "self.strings.lastIndexOf('x') == -1",
    "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
    "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
    'self.dates.isSorted()',
    'self.emptyDates.isSorted()',
    'self.unsortedDates.isSorted() == false',
    "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
    "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
    "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
    "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
    '[[1], [2]].indexOf([1]) == 0',
    "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
    'self.objs.indexOf(self.objs[1]) == 1',
    'self.objs.lastIndexOf(self.objs[1]) == 2',
    '([0] + self.emptyInts).min() == 0',
    'dyn([]).sum() == 0',
    'dyn([1, 2]).sum() == 3',
    'dyn([1.0, 2.0]).sum() == 3.0',
    '[].sum() == 0',
  ]
  for (const expr of valid) it(expr, () => expect(run(expr, { self }, { self: DynType })).toBe(true))

  // In the CRD the list types are static, so the checker picks the overload of the element type.
  it("self.emptyDoubles.sum() == 0.0 and self.emptyDurations.sum() == duration('0') (typed overloads)", () => {
    expect(overload('list_double_sum_double').impl([])).toEqual(d(0))
    expect(overload('list_duration_sum_duration').impl([])).toEqual(dur('0'))
    expect(overload('list_double_sum_double').impl([1, 2, 2, 3].map(d))).toEqual(d(8))
  })

  const errors: [string, string][] = [
    ['self.emptyInts.min() == 1', 'min called on empty list'],
    ['self.emptyInts.max() == 3', 'max called on empty list'],
    ["self.emptyStrings.min() == 'a'", 'min called on empty list'],
    ["self.emptyStrings.max() == 'c'", 'max called on empty list'],
  ]
  for (const [expr, message] of errors) {
    it(`${expr} → ${message}`, () => expect(() => run(expr, { self }, { self: DynType })).toThrow(message))
  }
  it('min/max on empty double lists (typed overloads)', () => {
    expect(() => overload('list_double_min_double').impl([])).toThrow('min called on empty list')
    expect(() => overload('list_double_max_double').impl([])).toThrow('max called on empty list')
  })
})

describe('apiserver pkg/cel/library/lists.go documented examples', () => {
  it('isSorted', () => {
    expect(run('[1, 2, 3].isSorted()')).toBe(true)
    expect(run("['a', 'b', 'b', 'c'].isSorted()")).toBe(true)
    expect(run('[2.0, 1.0].isSorted()')).toBe(false)
    expect(run('[1].isSorted()')).toBe(true)
    expect(run('[].isSorted()')).toBe(true)
  })
  it('sum', () => {
    expect(run('[1, 3].sum()')).toBe(4)
    expect(run('[1.0, 3.0].sum()')).toEqual(d(4))
    expect(run("[duration('1m'), duration('1s')].sum() == duration('1m1s')")).toBe(true)
    expect(run('[].sum()')).toBe(0)
    expect(run('[uint(1), uint(2)].sum()')).toEqual(new Uint(3n))
  })
  it('min / max', () => {
    expect(run('[1, 3].min()')).toBe(1)
    expect(run('[1, 3].max()')).toBe(3)
    expect(run('[1].min()')).toBe(1)
    expect(() => run('[].min()')).toThrow('min called on empty list')
  })
  it('indexOf / lastIndexOf', () => {
    expect(run('[1, 2, 2, 3].indexOf(2)')).toBe(1)
    expect(run("['a', 'b', 'b', 'c'].lastIndexOf('b')")).toBe(2)
    expect(run('[1.0].indexOf(1.1)')).toBe(-1)
    expect(run("[].indexOf('string')")).toBe(-1)
  })
  it('includes (version 1)', () => {
    expect(run('[1, 2, 3].includes(2)')).toBe(true)
    expect(run('[1, 2, 3].includes(4)')).toBe(false)
    expect(run("'model-a'.includes('model-a')")).toBe(true)
    expect(run("'model-a'.includes('model-b')")).toBe(false)
    expect(listsLibrary.functions.map((f) => f.name)).not.toContain('includes')
  })
})

describe('apiserver pkg/cel/library/lists.go semantics', () => {
  it('sum folds `+`: int overflow is an error (cel-go Int.Add)', () => {
    expect(() => run('[9223372036854775807, 1].sum()')).toThrow('integer overflow')
  })
  it('a Compare error (NaN) neither sorts nor reorders (cel-go Double.Compare returns an error)', () => {
    expect(run('[1.0, 0.0/0.0, 0.5].isSorted()')).toBe(true)
    expect(run('[2.0, 0.0/0.0, 1.0].min()')).toEqual(d(1))
    // a NaN first element is never replaced
    expect(Number.isNaN(run('[0.0/0.0, 1.0].min()') as number)).toBe(true)
  })
  it('min / max keep the first of equal elements (cmp prefers only a strict result)', () => {
    expect(run('[1, 1.0].min()')).toBe(1)
    expect(run('dyn([1.0, 1]).max()')).toEqual(d(1))
  })
  it('elements that are not cel-go Comparers are `no such overload`', () => {
    expect(() => run('dyn([1, [2]]).isSorted()')).toThrow('no such overload')
    expect(() => run('dyn([1, 2.0]).sum()')).toThrow('no such overload')
  })
  it('indexOf uses CEL equality (numbers across types)', () => {
    expect(run('dyn([1, 2u, 3.0]).indexOf(3)')).toBe(2)
    expect(run('dyn([1, 2u, 3.0]).lastIndexOf(2)')).toBe(1)
  })
  it('declares the overload ids of lists.go in comparableTypes order', () => {
    const sum = listsLibrary.functions.find((f) => f.name === 'sum')!
    expect(sum.overloads.map((o) => o.id)).toEqual([
      'list_int_sum_int',
      'list_uint_sum_uint',
      'list_double_sum_double',
      'list_duration_sum_duration',
    ])
    const isSorted = listsLibrary.functions.find((f) => f.name === 'isSorted')!
    expect(isSorted.overloads.map((o) => String(o.params[0]))).toEqual([
      'list(int)',
      'list(uint)',
      'list(double)',
      'list(bool)',
      'list(google.protobuf.Duration)',
      'list(google.protobuf.Timestamp)',
      'list(string)',
      'list(bytes)',
    ])
    const indexOf = overload('list_a_index_of_int')
    expect(indexOf.typeParams).toEqual(['A'])
    expect(indexOf.params.map(String)).toEqual(['list(A)', 'A'])
    expect(String(overload('list_includes_dyn_dyn').params[0])).toBe('dyn')
  })
})

describe('apiserver pkg/cel/library/cost_test.go TestListsCost / TestIndexOfCost (the call part: total − 10 for the list)', () => {
  const traversal = (v: CelValue) => listsCosts.list_int_sum_int!.actual!([v], null)
  it('one per scalar element', () => {
    expect(traversal([1, 2, 3, 4, 5])).toBe(5)
    expect(traversal([false, true, false, true, false])).toBe(5)
    expect(traversal([d(1), d(2), d(3), d(4), d(5)])).toBe(5)
  })
  it('strings and bytes: floor(len * 0.1) each', () => {
    const s = '012345678901'
    expect(traversal([s, s, s, s, s])).toBe(5)
    const b = new TextEncoder().encode(s)
    expect(traversal([b, b, b, b, b])).toBe(5)
  })
  it('indexOf on a 50-character string: 5', () => {
    expect(
      listsCosts.string_index_of_string!.actual!(['01234567890123456789012345678901234567890123456789'], null),
    ).toBe(5)
  })
  it('estimates: size × (1 + elem traversal for strings/bytes); strings: size × 0.1', () => {
    const five = { min: 5n, max: 5n }
    const est = listsCosts.list_string_max_string!.estimate!
    expect(est({ size: five, elemKind: 'other' }, [])!.cost).toEqual(five)
    // cost_test's size estimator bounds strings to 0..12 bytes: 5 × (1 + 0..2) = 5..15
    expect(est({ size: five, elemKind: 'string', elemSize: { min: 0n, max: 12n } }, [])!.cost).toEqual({
      min: 5n,
      max: 15n,
    })
    expect(est({ size: { min: 50n, max: 50n } }, [])!.cost).toEqual(five)
    expect(est(undefined, [])).toBeUndefined()
  })
  it('saturates at MaxUint64 for unbounded lists', () => {
    const cost = listsCosts.list_int_min_int!.estimate!({ size: UNBOUNDED, elemKind: 'other' }, [])!.cost
    expect(cost).toEqual({ min: 0n, max: 18446744073709551615n })
  })
  it('traversalCost of maps counts keys and values; other values 1', () => {
    expect(traversalCost({ abcdefghij: 'abcdefghij' })).toBe(2)
    expect(traversalCost(null)).toBe(1)
    expect(traversalCost(dur('1s'))).toBe(1)
    expect(utf8Length('é世😀')).toBe(9)
  })
  it('has an entry for every overload', () => {
    for (const f of listsLibraryV1.functions) for (const o of f.overloads) expect(listsCosts[o.id], o.id).toBeDefined()
  })
})
