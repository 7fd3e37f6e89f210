import { describe, expect, it } from 'vitest'
import { listsExtRuntimeCosts } from '../../src/cel/ext/lists.js'
import {
  BytesType,
  CelEvalError,
  type CelValue,
  compile,
  DynType,
  Env,
  IntType,
  listOf,
  mapOf,
  StringType,
  type Type,
} from '../../src/cel/index.js'
import { listsExtension, standardLibrary, standardLibraryV029 } from '../../src/cel/stdlib/index.js'

// Expected figures from cel-go interpreter/runtimecost_test.go (TestRuntimeCost), which runs
// without OptOptimize (so literals are not folded). `x` stands in for cel-go's randSeq(500).
const rand = (n: number) => 'x'.repeat(n)
const cases: [string, Record<string, CelValue>, number, Record<string, Type>?][] = [
  ['"Hello World!"', {}, 0],
  ['input', { input: [1, 2] }, 1],
  ["input['key']", { input: { key: 'v' } }, 2],
  ['input[0]', { input: ['v'] }, 2],
  ["input['ke' + 'y']", { input: { key: 'v' } }, 3],
  ['input[3-3]', { input: ['v'] }, 3],
  ['has(input.testAttr.nestedAttr)', { input: { testAttr: { nestedAttr: '0' } } }, 2],
  ['[1, 2, 3]', {}, 10],
  ['{"a": 1, "b": 2, "c": 3}', {}, 30],
  ['input.all(x, true)', { input: [] }, 2],
  ['input.all(x, x.all(y, true))', { input: [] }, 2],
  ['[1, 2, 3].all(x, true)', {}, 20],
  ["input.matches('[0-9]')", { input: rand(500) }, 103],
  ["'123'.matches('[0-9]')", {}, 2],
  ['false || false', {}, 0],
  ['true || false', {}, 0],
  ['a || b || c || d', { a: false, b: false, c: false, d: false }, 4],
  ['true && false', {}, 0],
  ['false && true', {}, 0],
  ['a && b && c && d', { a: true, b: true, c: true, d: true }, 4],
  ['1 < 2', {}, 1],
  ['1 <= 2', {}, 1],
  ['1 == 2', {}, 1],
  ['2 > 1', {}, 1],
  ['2 in [1, 2, 3]', {}, 13],
  ['1 + 1', {}, 1],
  ['1 % 1', {}, 1],
  ['true ? 1 : 2', {}, 0],
  ['size("123")', {}, 1],
  ["'12345678901234567890' == '123456789012345678901234567890'", {}, 2],
  // declared bytes / string as in the Go table: a dyn input leaves both conversion overloads to the
  // checker, and cel-go then charges the call 1 (planner.go resolveFunction: no single overload id)
  ['string(input)', { input: new Uint8Array(500) }, 51, { input: BytesType }],
  ['bytes(input)', { input: rand(500) }, 51, { input: StringType }],
  ['string(1)', {}, 1],
  ['input.contains(arg1)', { input: rand(500), arg1: rand(500) }, 2502],
  ["input.matches('\\\\d+a\\\\d+b')", { input: rand(500) }, 103],
  ['input.startsWith(arg1)', { input: 'idc', arg1: rand(500) }, 3],
  ['input.endsWith(arg1)', { input: 'idc', arg1: rand(500) }, 3],
  ['input.size()', { input: '500' }, 2],
  ['size(input)', { input: '500' }, 2],
  ['(x > 2 ? input1 : input2).all(y, true)', { x: 1, input1: [{}], input2: [{}] }, 6],
  ['true ? false : 1 > 3', {}, 0],
  ['false ? false : 1 > 3', {}, 1],
  ['input.all(k, input[k].single_int32 > 3)', { input: { val: { single_int32: 0 } } }, 9],
  ['input.all(k, input[k].all(x, true))', { input: {} }, 2],
  ['input.all(k, k.contains(k))', { input: {} }, 2],
]

const decls = (act: Record<string, CelValue>) => Object.fromEntries(Object.keys(act).map((k) => [k, DynType]))

describe('run-time cost (cel-go interpreter/runtimecost_test.go TestRuntimeCost)', () => {
  for (const backend of ['closures', 'js'] as const) {
    for (const [expr, act, want, types] of cases) {
      it(`${backend}: ${expr} costs ${want}`, () => {
        const program = compile(expr, { declarations: types ?? decls(act), optimize: false, backend })
        expect(program.run(act).cost).toBe(want)
      })
    }
  }
})

describe('cost limit (cel-go EvalCancelledError)', () => {
  for (const backend of ['closures', 'js'] as const) {
    it(`${backend}: aborts with cel-go's message once the cost exceeds the limit`, () => {
      // [1, 2, 3].all(x, true) costs 20 unoptimized (above); a limit of 19 must cancel it.
      const program = compile('[1, 2, 3].all(x, true)', { optimize: false, backend, costLimit: 19 })
      expect(() => program.evaluate()).toThrow(CelEvalError)
      expect(() => program.evaluate()).toThrow('operation cancelled: actual cost limit exceeded')
      expect(program.run({}, { costLimit: 20 }).value).toBe(true)
    })
    it(`${backend}: the limit is not an error value: || and all() do not absorb it`, () => {
      const program = compile("[1, 2, 3].all(x, 'abc'.contains('b')) || true", { optimize: false, backend })
      expect(() => program.evaluate({}, { costLimit: 5 })).toThrow('operation cancelled: actual cost limit exceeded')
    })
  }
  it('OptOptimize folds constant conversions and literals, as Kubernetes runs programs', () => {
    // apiextensions-apiserver celcoststability_test.go: `double(5) < 10.0` costs 1 at run time (the
    // conversion is folded, the comparison is not). cel-go interpreter decOptimize folds only type
    // conversions of constants and constant list/map literals: the list of TestRuntimeCost's 20 is free.
    expect(compile('double(5) < 10.0').run().cost).toBe(1)
    expect(compile('[1, 2, 3].all(x, true)').run().cost).toBe(20 - 10)
  })
})

// cel-go v0.26.0 ext/lists_test.go TestListsCosts (run-time figures): the cost trackers of
// ext.Lists version 3 (ext/lists.go ProgramOptions; Kubernetes has them from 1.34). Its
// testListsEnv is the standard library and Lists() only (no optional types, so `m['x']` on a dyn
// `m` resolves to index_map alone and `sortBy` over a list(dyn) to one overload), and
// testEvalWithCost runs without OptOptimize. The sortBy figures include the map comprehension's
// `[]` accumulator (10): without OptOptimize the literal is a list construction cel-go charges.
const listsEnv = new Env({
  libraries: [standardLibrary, { ...listsExtension, runtimeCosts: listsExtRuntimeCosts }],
})

describe('cel-go v0.26.0 ext/lists_test.go TestListsCosts (run-time)', () => {
  const cases: [expr: string, vars: Record<string, Type>, input: Record<string, CelValue>, cost: number][] = [
    ['lists.range(4) == [0, 1, 2, 3]', {}, {}, 26],
    ['lists.range(4 / 2) == [0, 1]', {}, {}, 25],
    ['lists.range(x) == [0, 1, 2, 3, 4]', { x: IntType }, { x: 5 }, 28],
    ['[[1, 2], 3].flatten(1) == [1, 2, 3]', {}, {}, 44],
    ['[[1, 2], 3].flatten(2) == [1, 2, 3]', {}, {}, 46],
    ['[[1, 2], 3].flatten(3) == [1, 2, 3]', {}, {}, 48],
    ['[[1], 2, 3].flatten() == [1, 2, 3]', {}, {}, 45],
    ['x.flatten() == [1, 2, 3]', { x: listOf(DynType) }, { x: [[1], 2, 3] }, 26],
    ['[[1, 2], 3].flatten(x) == [1, 2, 3]', { x: IntType }, { x: 5 }, 53],
    ['[1, 2, 3].distinct() == [1, 2, 3]', {}, {}, 50],
    ['[1, 1, 1].distinct() == [1]', {}, {}, 50],
    ["x.distinct() == ['hello']", { x: listOf(StringType) }, { x: ['hello', 'hello'] }, 31],
    ['[1, 2, 3, 4, 5].slice(x, y) == [2, 3]', { x: IntType, y: IntType }, { x: 1, y: 3 }, 36],
    ['z.slice(1, 3) == [2, 3]', { z: listOf(IntType) }, { z: [1, 2, 3, 4, 5, 6, 7] }, 25],
    [
      'z.slice(x, y) == [2, 3]',
      { x: IntType, y: IntType, z: listOf(IntType) },
      { x: 1, y: 3, z: [1, 2, 3, 4, 5, 6, 7] },
      27,
    ],
    ['[1, 2, 3].slice(1, 3) == [2, 3]', {}, {}, 34],
    ['[3, 2, 1].reverse() == [1, 2, 3]', {}, {}, 35],
    ['x.reverse() == [1, 2, 3]', { x: listOf(IntType) }, { x: [3, 2, 1] }, 26],
    ['[2, 3, 1].sort() == [1, 2, 3]', {}, {}, 50],
    ['x.sort() == [1, 2, 3]', { x: listOf(IntType) }, { x: [3, 2, 1] }, 41],
    [
      'x.sort() == ["a", "a", "b", "b", "c", "c"]',
      { x: listOf(StringType) },
      { x: ['b', 'a', 'b', 'a', 'c', 'c'] },
      98,
    ],
    ['x.sort() == []', { x: listOf(IntType) }, { x: [] }, 22],
    ["[{'x':4}, {'x':3}].sortBy(m, m['x']) == [{'x':3}, {'x':4}]", {}, {}, 211],
    ["x.sortBy(m, m['x']) == [{'x':3}, {'x':4}]", { x: listOf(DynType) }, { x: [{ x: 4 }, { x: 3 }] }, 142],
    [
      "x.sortBy(m, m['x']) == [{'x': 'a'}, {'x': 'b'}, {'x': 'c'}]",
      { x: listOf(mapOf(StringType, StringType)) },
      { x: [{ x: 'b' }, { x: 'c' }, { x: 'a' }] },
      196,
    ],
  ]
  for (const backend of ['js', 'closures'] as const)
    for (const [expr, vars, input, want] of cases)
      it(`${backend}: ${expr} costs ${want}`, () => {
        const program = compile(expr, { env: listsEnv, declarations: vars, optimize: false, backend })
        const { value, cost } = program.run(input)
        expect(value).toBe(true)
        expect(cost).toBe(want)
      })
})

// Figures derived from the cel-go sources, not from a cel-go test: interpreter/planner.go
// (planCallConditional, planCallIndex, relativeAttr), interpreter/interpretable.go (the evalWatch*
// observers, QualifyIfPresent observing present values only), interpreter/attributes.go
// (applyQualifiers), interpreter/decorators.go (maybeOptimizeSetMembership), cel/library.go
// (decorateOptionalOr) and interpreter/runtimecost.go (Observe, costCall).
describe('run-time cost: attribute, optional and error rules of the cel-go observer', () => {
  const optEnv = { declarations: { m: DynType, c: DynType, x: DynType } }
  const act = { m: { a: 'v', b: 'w', l: [1, 2] }, c: true, x: 'a' }
  const figures: [expr: string, cost: number, optimize?: boolean][] = [
    // a conditional branch that is an attribute: its root is not observed, its qualifiers are
    ['c ? m.a : m.b', 2],
    ['c ? m.a : "z"', 2],
    ['c ? m : "z"', 1],
    ['(c ? m : m).a', 2],
    // an operand that is no attribute becomes a relative attribute, observed itself (+1)
    ['["a", "b"][1]', 2],
    ['[m.a, "b"][1]', 14],
    ['c ? ["a", "b"][1] : "z"', 2],
    ['m.l.map(e, e)[0] == 1', 32],
    // a key that is an attribute is observed once, as the qualifier; a conditional key has no root
    // observation to stand for, so its qualification adds 1 (the CEL differential's oracle,
    // k8s.io/apiserver v0.37.2 on cel-go v0.29.2, measures 5 for `object[object.a == "v" ? "a" : "b"]`)
    ['m[x]', 2],
    ['m[m.a == "v" ? "a" : "b"]', 5],
    // optional qualifiers are observed only when the value is present; or / orValue are free
    ['m.?a', 2],
    ['m.?z', 1],
    ['m.?z.orValue("d")', 1],
    ['m.?a.orValue("d") == "v"', 3],
    ['m[?"a"].hasValue()', 3],
    ['m[?"z"].hasValue()', 2],
    // OptOptimize: `in` a constant list of primitives is set membership (free); an empty one is false
    ['x in ["a", "b"]', 1, true],
    ['x in []', 0, true],
    ['x in ["a", "b"]', 13, false],
  ]
  for (const backend of ['closures', 'js'] as const)
    for (const [expr, want, optimize] of figures)
      it(`${backend}: ${expr} costs ${want}${optimize === false ? ' (unoptimized)' : ''}`, () => {
        const program = compile(expr, { ...optEnv, optimize: optimize ?? true, backend })
        for (let i = 0; i < 20; i++) expect(program.run(act).cost).toBe(want) // past the tier-up
      })

  for (const backend of ['closures', 'js'] as const) {
    it(`${backend}: a failing step is charged (the observer sees the error value)`, () => {
      // m 1 + qualifier z (no such key, observed) 1 + `_==_` with an error argument 1
      const r = compile('m.z == "v"', { ...optEnv, backend }).tryRun(act)
      expect('error' in r && r.cost).toBe(3)
      // every argument of a strict call is evaluated: the right-hand side is charged too
      const r2 = compile('m.z + m.a', { ...optEnv, backend }).tryRun(act)
      expect('error' in r2 && r2.cost).toBe(5)
      // the failing index of a list literal: relative attribute 1 + qualifier 1
      const r3 = compile('["a"][4]', { ...optEnv, backend }).tryRun(act)
      expect('error' in r3 && r3.cost).toBe(2)
    })
  }
})

// The generated code works out a literal operand's size-dependent cost while generating and tests short
// strings in line (codegen.ts foldedCost, shortTraversal); both back ends must charge cel-go's figure.
// Figures from interpreter/runtimecost.go costCall: contains `ceil(size(s) * 0.1) * ceil(size(sub) * 0.1)`;
// startsWith / endsWith `ceil(size * 0.1)` of the receiver (v0.26) or of the argument (v0.29); sizes in
// code points (actualSize); each identifier 1, the call's formula replacing its 1.
describe('run-time cost of a literal or short operand (runtimecost.go costCall formulas)', () => {
  const long = 'x'.repeat(500)
  const emoji = (n: number) => '\u{1F600}'.repeat(n) // n code points, 2n UTF-16 units
  const v026 = new Env({ libraries: [standardLibrary], features: { celGo: 26 } })
  const v029 = new Env({ libraries: [standardLibraryV029], features: { celGo: 29 } })
  const vars = { input: StringType, arg1: StringType }
  const figures: [env: Env, expr: string, act: Record<string, CelValue>, cost: number][] = [
    [v026, "input.contains('ab')", { input: long }, 1 + 50 * 1],
    [v026, "input.contains('')", { input: long }, 1 + 50 * 0],
    [v026, "input.contains('abcdefghijk')", { input: long }, 1 + 50 * 2],
    [v026, "input.contains('a')", { input: emoji(20) }, 1 + 2 * 1],
    [v029, "input.contains('a')", { input: emoji(21) }, 1 + 3 * 1],
    [v026, "'abcdefghijk'.startsWith(input)", { input: long }, 1 + 2],
    [v029, "input.startsWith('abcdefghijk')", { input: long }, 1 + 2],
    [v029, "input.endsWith('')", { input: long }, 1 + 0],
    [v029, "input.endsWith('\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}')", { input: long }, 1 + 1],
  ]
  for (const [n, arg] of [
    [0, ''],
    [1, 'x'.repeat(10)],
    [2, 'x'.repeat(11)],
    [1, emoji(10)],
    [2, emoji(11)],
  ] as const) {
    figures.push([v026, 'input.startsWith(arg1)', { input: arg, arg1: '' }, 2 + n])
    figures.push([v029, 'input.endsWith(arg1)', { input: '', arg1: arg }, 2 + n])
  }
  for (const backend of ['js', 'closures'] as const)
    for (const [env, expr, act, want] of figures)
      it(`${backend}, cel-go v0.${env === v026 ? 26 : 29}: ${expr} with ${JSON.stringify(act).slice(0, 40)} costs ${want}`, () => {
        const program = compile(expr, { env, declarations: vars, optimize: false, backend })
        expect(program.run(act).cost).toBe(want)
      })
})

describe('`!` in the generated code (a bool in line, anything else the overload error)', () => {
  for (const backend of ['js', 'closures'] as const) {
    it(`${backend}: !input`, () => {
      const program = compile('!input', { declarations: { input: DynType }, optimize: false, backend })
      expect(program.run({ input: true })).toEqual({ value: false, cost: 2 })
      expect(program.run({ input: false })).toEqual({ value: true, cost: 2 })
      // cel-go common/types/err.go NoSuchOverloadErr
      expect(() => program.run({ input: 1 })).toThrow(/^no such overload$/)
    })
  }
})
