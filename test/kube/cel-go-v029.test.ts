import { describe, expect, it } from 'vitest'
import { envCheck as check } from '../../src/cel/check.js'
import type { AstNode } from '../../src/cel/cost/costs.js'
import { estimateCost } from '../../src/cel/cost/estimator.js'
import { Env } from '../../src/cel/env.js'
import { type CelValue, compile, DynType, StringType, type Type } from '../../src/cel/index.js'
import { standardLibrary, standardLibraryV029 } from '../../src/cel/stdlib/index.js'
import { parse } from '../../src/cel/syntax/index.js'
import { estimateKubeCost } from '../../src/kube/cost.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// CEL as each release builds it: Kubernetes 1.37 vendors cel-go v0.29.2, 1.34–1.36 cel-go v0.26.
//
// The first table holds the cases a differential fuzzer found between kelp and cel-go configured as
// k8s.io/apiserver configures it (issue 28). Expected values come from the real libraries: a Go program
// on k8s.io/apiserver v0.37.2 (cel-go v0.29.2) and on k8s.io/apiserver v0.36.6 (cel-go v0.26.0), each
// compiling with environment.MustBaseEnvSet(1.x).Env(NewExpressions) plus `object` (dyn) and `s`
// (string), estimating with library.CostEstimator (no size estimator), and evaluating with
// cel.CostTracking(&library.CostEstimator{}) and cel.CostLimit(PerCallLimit). The sources each
// difference comes from are named on the row.

const backends = ['closures', 'js'] as const

type Outcome =
  | { value: unknown; cost: number }
  | { error: string; cost: number }
  | { compile: string }
  | { estimate: [number | bigint, number | bigint] }

interface Case {
  readonly expr: string
  readonly vars?: Record<string, CelValue>
  /** The outcome in 1.37 and, where it differs, in 1.36. */
  readonly v137: Outcome
  readonly v136?: Outcome
  readonly source: string
}

const LONG = 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz' // 52 characters
const tags = { spec: { tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'prod'] } }
const forty = '0123456789012345678901234567890123456789'

const cases: readonly Case[] = [
  {
    expr: '"prod" in object.spec.tags',
    vars: { object: tags },
    // operands typed dyn: the checker keeps in_list and in_map, the call has no overload id and costs 1
    v137: { value: true, cost: 4 },
    source: 'interpreter/planner.go resolveFunction, runtimecost.go costCall',
  },
  {
    expr: 'object.spec.tags.sort()',
    vars: { object: tags },
    v137: { value: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'prod'], cost: 4 },
    source: 'ext/lists.go OverloadCostTracker (by overload id)',
  },
  {
    expr: 'object.a + object.b',
    vars: { object: { a: forty, b: forty } },
    v137: { value: forty + forty, cost: 5 },
    source: 'runtimecost.go costCall (add_string only when resolved)',
  },
  {
    expr: 'object.a < object.b',
    vars: { object: { a: forty, b: forty } },
    v137: { value: false, cost: 5 },
    source: 'runtimecost.go costCall (less_string only when resolved)',
  },
  {
    expr: "s.startsWith('abc')",
    vars: { s: LONG },
    v137: { value: true, cost: 2 },
    v136: { value: true, cost: 7 },
    source: 'runtimecost.go v0.29: StartsWithString charges args[1]',
  },
  {
    expr: "'abc'.startsWith(s)",
    vars: { s: LONG },
    v137: { value: false, cost: 7 },
    v136: { value: false, cost: 2 },
    source: 'runtimecost.go v0.29: StartsWithString charges args[1]',
  },
  {
    expr: "size(s) > 0 && s.endsWith('z')",
    vars: { s: LONG },
    v137: { value: true, cost: 5 },
    v136: { value: true, cost: 10 },
    source: 'runtimecost.go v0.29: EndsWithString charges args[1]',
  },
  {
    expr: "matches(s, 'a+b+c+d+e+')",
    vars: { s: LONG },
    v137: { value: true, cost: 19 },
    v136: { value: true, cost: 2 },
    source: 'runtimecost.go v0.29: case overloads.Matches, overloads.MatchesString',
  },
  {
    expr: "matches(s, 'a+b+c+d+e+')",
    v137: { estimate: [4n, 5534023222112865793n] },
    v136: { estimate: [2n, 2n] },
    source: 'checker/cost.go v0.29 functionCost: overloads.Matches with two arguments',
  },
  {
    expr: "s.matches('a+b+c+d+e+')",
    v137: { estimate: [4n, 5534023222112865793n] },
    source: 'checker/cost.go functionCost: overloads.MatchesString',
  },
  {
    expr: "int('')",
    v137: { compile: "type conversion error from 'string' to 'int'" },
    source: 'interpreter/decorators.go maybeOptimizeConstUnary (env.Program fails)',
  },
  {
    expr: 'dyn(1).orValue(2)',
    v137: { error: 'no such overload', cost: 0 },
    v136: { value: 1, cost: 0 },
    source: 'cel/library.go v0.29 evalOptionalOrValue.Exec',
  },
  {
    expr: 'dyn(1).or(optional.of(2))',
    v137: { error: 'no such overload', cost: 0 },
    v136: { value: 1, cost: 0 },
    source: 'cel/library.go v0.29 evalOptionalOr.Exec',
  },
  {
    expr: 'duration(5)',
    v137: { compile: "found no matching overload for 'duration' applied to '(int)'" },
    v136: { compile: 'invalid duration argument' },
    source: 'common/stdlib/standard.go v0.29 (int64_to_duration removed); v0.26 cel/validator.go',
  },
  {
    expr: 'lists.range(3037000500)',
    // 1.36 (cel-go v0.26 genRange) allocates until the process dies; kelp refuses it as v0.29 does
    v137: { error: 'lists.range: size 3037000500 exceeds maximum allowed (1000000)', cost: 12 },
    source: 'ext/lists.go v0.29 genRange',
  },
  {
    expr: "'abc'.indexOf('', 5)",
    v137: { value: 3, cost: 0 },
    v136: { value: 5, cost: 0 },
    source: 'ext/strings.go v0.29 indexOfOffset',
  },
  {
    expr: "'abc'.lastIndexOf('', 5)",
    v137: { value: 3, cost: 0 },
    v136: { value: 5, cost: 0 },
    source: 'ext/strings.go v0.29 lastIndexOfOffset',
  },
  {
    expr: '[1,2].existsOne(x, x > 1)',
    v137: { compile: "undeclared reference to 'existsOne' (in container '')" },
    source: 'cel/macro.go StandardMacros (no one-variable existsOne)',
  },
  {
    expr: '[1,2].exists_one(x, x > 1)',
    v137: { value: true, cost: 8 },
    source: 'parser/macro.go ExistsOneMacro',
  },
  {
    expr: '[1,2,3].map(x, 1)',
    v137: { value: [1, 1, 1], cost: 7 },
    source: 'interpreter/decorators.go maybeBuildListLiteral (the step list [1] is a constant)',
  },
  {
    expr: "{'a':1}[dyn(['a'])]",
    v137: { compile: 'invalid qualifier type: *types.baseList' },
    source: 'interpreter/planner.go planCallIndex, attributes.go newQualifier (a folded constant index)',
  },
  {
    expr: 'object[{}]',
    v137: { compile: 'invalid qualifier type: *types.baseMap' },
    source: 'attributes.go newQualifier',
  },
  {
    expr: 'object[null]',
    v137: { compile: 'invalid qualifier type: types.Null' },
    source: 'attributes.go newQualifier',
  },
  {
    expr: 'object[duration("1s")]',
    v137: { compile: 'invalid qualifier type: types.Duration' },
    source: 'attributes.go newQualifier',
  },
  {
    expr: '[[1]].exists(x, object[x] == 1)',
    vars: { object: { a: 1 } },
    v137: { error: 'invalid qualifier type: *types.baseList', cost: 8 },
    source: 'attributes.go attrQualify (the index value qualifies at run time)',
  },
  {
    expr: 'object[optional.none()]',
    vars: { object: { a: 1 } },
    v137: { error: 'invalid qualifier type: *types.Optional', cost: 3 },
    source: 'attributes.go attrQualify',
  },
  {
    expr: 'cidr(object.c).containsIP(object.ip)',
    vars: { object: { c: '1.2.3.0/24', ip: '1.2.3.4' } },
    v137: { value: true, cost: 6 },
    source: 'apiserver pkg/cel/library/cost.go CallCost containsIP (overloadId "" for a dyn argument)',
  },
  // the cost of failed evaluations: has() charges its test-only field, not the root (runtimecost.go
  // Observe: evalTestOnly +1 -1 with PresenceTestHasCost(false), then each qualifier)
  {
    expr: 'has(object.a.b.c)',
    vars: { object: {} },
    v137: { error: 'no such key: a', cost: 1 },
    source: 'runtimecost.go Observe, evalTestOnly',
  },
  {
    expr: 'has(object.a.b.c)',
    vars: { object: { a: {} } },
    v137: { error: 'no such key: b', cost: 2 },
    source: 'runtimecost.go Observe, evalTestOnly',
  },
  {
    expr: 'has(object.a.b.c)',
    vars: { object: { a: { b: { c: 1 } } } },
    v137: { value: true, cost: 3 },
    source: 'runtimecost.go Observe, evalTestOnly',
  },
  {
    expr: 'object.a.b.c',
    vars: { object: { a: {} } },
    v137: { error: 'no such key: b', cost: 3 },
    source: 'runtimecost.go Observe (a failed qualifier is charged outside has())',
  },
  // evalVarArgs (planner.go planCall): an error argument before the last stops the arguments, and the
  // observer, missing the later arguments' values, does not charge the call (runtimecost.go dropArgs)
  {
    expr: "object.x.indexOf('a')",
    vars: { object: { b: 1 } },
    v137: { error: 'no such key: x', cost: 2 },
    source: 'evalVarArgs: indexOf on dyn has several overloads, dispatched by the function binding',
  },
  {
    expr: "object.x.replace('a', 'b')",
    vars: { object: { b: 1 } },
    v137: { error: 'no such key: x', cost: 2 },
    source: 'evalVarArgs: three arguments',
  },
  {
    expr: "object.x.contains('a')",
    vars: { object: { b: 1 } },
    v137: { error: 'no such key: x', cost: 3 },
    source: 'evalBinary: both arguments evaluated, the call charged',
  },
  {
    expr: 'int(object.x)',
    vars: { object: { b: 1 } },
    v137: { error: 'no such key: x', cost: 3 },
    source: 'evalVarArgs with one argument: the error is the last, the call is charged',
  },
  // cost.go CallCost keys sum / min / ... by name: a traversal of whatever the receiver is
  {
    expr: 'object.b.sum()',
    vars: { object: { b: 'hello' } },
    v137: { error: 'no such overload: sum(string)', cost: 2 },
    source: 'apiserver pkg/cel/library/cost.go traversalCost (a string: floor(len * 0.1))',
  },
  {
    expr: "dyn('s').min()",
    v137: { error: 'no such overload: min(string)', cost: 0 },
    source: 'apiserver pkg/cel/library/cost.go traversalCost',
  },
  {
    expr: '(object.missing + object.a % dyn(1)).sum()',
    vars: { object: { a: 5 } },
    v137: { error: 'no such key: missing', cost: 7 },
    source: 'cost.go traversalCost of an error argument: 1',
  },
  {
    expr: 'object.l.?k',
    vars: { object: { l: [3, 1, 2] } },
    v137: { error: "unsupported index type 'string' in list", cost: 2 },
    source: 'attributes.go refQualify (Lister: types.IndexOrError)',
  },
  {
    expr: 'object.s.all(i, v, v > 0)',
    vars: { object: { s: 'abc' } },
    v137: { error: 'unsupported comprehension range type: types.String', cost: 2 },
    source: 'interpretable.go evalFold with two variables',
  },
  {
    expr: "dyn('s') || (object.missing != 1)",
    vars: { object: {} },
    v137: { error: 'no such overload', cost: 3 },
    source: 'interpretable.go evalOr: the first term that is no bool decides the error',
  },
  {
    expr: 'sets.contains(object.b, [1])',
    vars: { object: { b: 'hello' } },
    v137: { error: 'no such overload: sets.contains(string, list)', cost: 8 },
    source: 'ext/sets.go trackSetsCost with actualSize (a string is a Sizer)',
  },
  {
    expr: 'object.n.upperAscii().format([1]).size()',
    vars: { object: { n: -1 } },
    v137: { error: 'no such overload: upperAscii(int)', cost: 4 },
    source: 'ext/strings.go string_format has only a function binding: evalVarArgs',
  },
  // run-time texts of calls no overload accepts (interpreter/interpretable.go, common/decls/decls.go)
  {
    expr: 'object.a + 1',
    vars: { object: { a: true } },
    v137: { error: 'no such overload: _+_', cost: 3 },
    source: 'evalBinary: no Adder',
  },
  {
    expr: 'object.a + 1',
    vars: { object: { a: 'x' } },
    v137: { error: 'no such overload', cost: 3 },
    source: 'String.Add',
  },
  {
    expr: 'object.a - 1',
    vars: { object: { a: 'x' } },
    v137: { error: 'no such overload', cost: 3 },
    source: 'String is a Receiver',
  },
  {
    expr: 'object.a < 1',
    vars: { object: { a: { b: 1 } } },
    v137: { error: 'no such overload: _<_', cost: 3 },
    source: 'evalBinary: no Comparer',
  },
  {
    expr: 'object.a < 1',
    vars: { object: { a: true } },
    v137: { error: 'no such overload', cost: 3 },
    source: 'Bool.Compare',
  },
  {
    expr: 'size(object.a)',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload: size', cost: 3 },
    source: 'evalUnary: no Sizer',
  },
  {
    expr: 'object.a.contains("x")',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload', cost: 3 },
    source: 'DisableTypeGuards',
  },
  {
    expr: 'object.a.matches("x")',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload', cost: 3 },
    source: 'MatchesRegexOptimization',
  },
  {
    expr: 'int(object.a)',
    vars: { object: { a: [1] } },
    v137: { error: 'no such overload: int(list)', cost: 3 },
    source: 'MaybeNoSuchOverload',
  },
  {
    expr: 'object.a.lowerAscii()',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload: lowerAscii(int)', cost: 3 },
    source: 'MaybeNoSuchOverload',
  },
  {
    expr: 'object.a.join(",")',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload: join(int, string)', cost: 3 },
    source: 'MaybeNoSuchOverload',
  },
  {
    expr: 'object.a.sort()',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload: sort', cost: 3 },
    source: 'ext/lists.go ListerType singleton',
  },
  {
    expr: 'quantity(object.a)',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload: quantity(int)', cost: 3 },
    source: 'MaybeNoSuchOverload',
  },
  {
    expr: 'duration(object.a)',
    vars: { object: { a: 5 } },
    v137: { error: 'no such overload: duration(int)', cost: 3 },
    v136: { error: "type conversion error from 'int' to 'google.protobuf.Duration'", cost: 3 },
    source: 'v0.29 has no int64_to_duration; v0.26 int.go ConvertToType',
  },
  {
    expr: "{'a':1}[{'b':2}]",
    v137: { compile: "found no matching overload for '_[_]' applied to '(map(string, int), map(string, int))'" },
    source: 'checker/checker.go',
  },
]

function envFor(version: string) {
  return kubeEnv({ version, variables: { object: DynType, s: StringType } })
}

function outcome(version: string, c: Case, want: Outcome, backend: (typeof backends)[number]): Outcome {
  const env = envFor(version)
  let p: ReturnType<typeof compile>
  try {
    p = compile(c.expr, { env, backend, costLimit: PerCallLimit })
  } catch (e) {
    const message = (e as Error).message
    return { compile: 'compile' in want && message.includes(want.compile) ? want.compile : message }
  }
  if ('estimate' in want) {
    const e = estimateKubeCost(p, env)
    return { estimate: [e.min, e.max] }
  }
  const r = p.tryRun(c.vars ?? {})
  return 'error' in r ? { error: r.error.message, cost: r.cost } : { value: r.value, cost: r.cost }
}

for (const version of ['1.37', '1.36'] as const) {
  describe(`Kubernetes ${version} CEL (cel-go ${version === '1.37' ? 'v0.29.2' : 'v0.26'}): the fuzzer's cases`, () => {
    for (const c of cases) {
      const want = version === '1.37' ? c.v137 : (c.v136 ?? c.v137)
      if (version === '1.36' && c.expr.startsWith('lists.range(3037000500)')) continue // v0.26 dies; see above
      for (const backend of backends)
        it(`${backend}: ${c.expr} (${c.source})`, () => {
          const got = outcome(version, c, want, backend)
          if ('estimate' in want)
            expect(got).toEqual({ estimate: want.estimate.map((x) => BigInt(x)) as [bigint, bigint] })
          else expect(got).toEqual(want)
        })
    }
  })
}

describe('hostile sizes are refused before anything is built, in every release', () => {
  for (const version of ['1.35', '1.36', '1.37'])
    for (const backend of backends)
      it(`${version} ${backend}: lists.range(3037000500), lists.range(-1)`, () => {
        const env = envFor(version)
        const run = (expr: string) => {
          const r = compile(expr, { env, backend, costLimit: PerCallLimit }).tryRun({})
          return 'error' in r ? r.error.message : r.value
        }
        // ext/lists.go v0.29 genRange's texts
        expect(run('lists.range(3037000500)')).toBe('lists.range: size 3037000500 exceeds maximum allowed (1000000)')
        // v0.26 genRange (1.35, 1.36): a negative size is [] (k8s.io/apiserver v0.36.6 evaluates it so)
        expect(run('lists.range(-1)')).toEqual(
          version === '1.37' ? 'lists.range: size must be non-negative, got -1' : [],
        )
        expect(run('size(lists.range(1000001))')).toBe('lists.range: size 1000001 exceeds maximum allowed (1000000)')
      })
})

// cel-go v0.29.2 ext/strings_test.go stringTests (the clamping rows), in the 1.37 environment; the
// same expressions in 1.36 (cel-go v0.26 returned the offset unchecked for an empty substring).
describe('cel-go v0.29.2 ext/strings_test.go: indexOf / lastIndexOf of the empty string', () => {
  const rows: [expr: string, v029: boolean | string, v026: boolean | string][] = [
    ["'tacocat'.indexOf('', 3) == 3", true, true],
    ["'tacocat'.indexOf('', 7) == 7", true, true],
    ["'tacocat'.indexOf('', 30) == 7", true, false],
    ["'tacocat'.indexOf('', -1) == 0", 'index out of range: -1', false],
    ["'tacocat'.lastIndexOf('', 3) == 3", true, true],
    ["'tacocat'.lastIndexOf('', 7) == 7", true, true],
    ["'tacocat'.lastIndexOf('', 30) == 7", true, false],
    ["'tacocat'.lastIndexOf('', -1) == 0", 'index out of range: -1', false],
    ["'tacocat'.lastIndexOf('a', -1) == -1", 'index out of range: -1', 'index out of range: -1'],
  ]
  for (const [expr, v029, v026] of rows)
    for (const [version, want] of [
      ['1.37', v029],
      ['1.36', v026],
    ] as const)
      it(`${version}: ${expr}`, () => {
        const r = compile(expr, { env: envFor(version) }).tryRun({})
        expect('error' in r ? r.error.message : r.value).toBe(want)
      })
})

// cel-go v0.29.2 interpreter/runtimecost_test.go TestRuntimeCost "startsWith" / "endsWith" (input and
// arg1 declared string, input "idc", arg1 randSeq(500)): 52; the v0.26 table had 3 (the receiver).
describe('cel-go interpreter/runtimecost_test.go: startsWith / endsWith', () => {
  const vars: Record<string, Type> = { input: StringType, arg1: StringType }
  const act = { input: 'idc', arg1: 'x'.repeat(500) }
  for (const [lib, want] of [
    [standardLibraryV029, 52],
    [standardLibrary, 3],
  ] as const)
    for (const expr of ['input.startsWith(arg1)', 'input.endsWith(arg1)'])
      for (const backend of backends)
        it(`${lib === standardLibrary ? 'v0.26' : 'v0.29'} ${backend}: ${expr} costs ${want}`, () => {
          const env = new Env({ libraries: [lib], features: { celGo: lib === standardLibrary ? 26 : 29 } })
          const p = compile(expr, { env, declarations: vars, optimize: false, backend })
          expect(p.run(act).cost).toBe(want)
        })
})

// cel-go v0.29.2 checker/cost_test.go TestCost "matches" and "matches global" (input string, hint
// 500): [3, 103] both; in v0.26 the global form was a plain call, 1 plus its argument.
describe('cel-go checker/cost_test.go: matches and matches global', () => {
  const estimate = (expr: string, celGo: number) => {
    const lib = celGo >= 29 ? standardLibraryV029 : standardLibrary
    const env = new Env({ libraries: [lib], variables: { input: StringType }, features: { celGo } })
    const checked = check(parse(expr, { macros: env.macros }), env, {})
    const e = estimateCost(checked, env, {
      sizeEstimator: {
        estimateSize: (n: AstNode) => (n.path?.join('.') === 'input' ? { min: 0n, max: 500n } : undefined),
      },
    })
    return [e.min, e.max]
  }
  it("v0.29: input.matches('\\\\d+a\\\\d+b') and matches(input, '\\\\d+a\\\\d+b') are [3, 103]", () => {
    expect(estimate("input.matches('\\\\d+a\\\\d+b')", 29)).toEqual([3n, 103n])
    expect(estimate("matches(input, '\\\\d+a\\\\d+b')", 29)).toEqual([3n, 103n])
  })
  it('v0.26: the global form is 1 plus its arguments', () => {
    expect(estimate("input.matches('\\\\d+a\\\\d+b')", 26)).toEqual([3n, 103n])
    expect(estimate("matches(input, '\\\\d+a\\\\d+b')", 26)).toEqual([2n, 2n])
  })
})

// format.labelValue() / qualifiedName(): apimachinery v0.35 moved IsValidLabelValue and IsQualifiedName to
// pkg/api/validate/content, whose MaxLenError says bytes (content/errors.go); v0.34's validation.go says
// characters. 1.37 and 1.36 figures also from the Go programs above; dns1035Label keeps validation.go's
// words in every release.
describe('format library length errors per release (apimachinery content vs validation)', () => {
  const long = 'a'.repeat(73)
  const rows: [expr: string, version: string, want: string][] = [
    ['format.labelValue().validate(s)', '1.37', 'must be no more than 63 bytes'],
    ['format.labelValue().validate(s)', '1.36', 'must be no more than 63 bytes'],
    ['format.labelValue().validate(s)', '1.35', 'must be no more than 63 bytes'],
    ['format.labelValue().validate(s)', '1.34', 'must be no more than 63 characters'],
    ['format.qualifiedName().validate(s)', '1.37', 'name part must be no more than 63 bytes'],
    ['format.qualifiedName().validate(s)', '1.34', 'name part must be no more than 63 characters'],
    ['format.dns1035Label().validate(s)', '1.37', 'must be no more than 63 characters'],
  ]
  for (const [expr, version, want] of rows)
    it(`${version}: ${expr}`, () => {
      const r = compile(`${expr}.value()[0]`, { env: envFor(version) }).tryRun({ s: long })
      expect('error' in r ? r.error.message : r.value).toBe(want)
    })
})
