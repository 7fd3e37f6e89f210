import { describe, expect, it } from 'vitest'
import { CelEvalError, type CelValue, compile, DynType } from '../../src/cel/index.js'

// Expected figures from cel-go interpreter/runtimecost_test.go (TestRuntimeCost), which runs
// without OptOptimize (so literals are not folded). `x` stands in for cel-go's randSeq(500).
const rand = (n: number) => 'x'.repeat(n)
const cases: [string, Record<string, CelValue>, number][] = [
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
  ['string(input)', { input: new Uint8Array(500) }, 51],
  ['bytes(input)', { input: rand(500) }, 51],
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
    for (const [expr, act, want] of cases) {
      it(`${backend}: ${expr} costs ${want}`, () => {
        const program = compile(expr, { declarations: decls(act), optimize: false, backend })
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
