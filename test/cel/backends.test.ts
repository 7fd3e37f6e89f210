import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CelError } from '../../src/cel/common/errors.js'
import { type CompileOptions, compile } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { type CaseResult, type Engine, runCases } from '../conformance/runner.js'
import { loadCases } from '../conformance/suite.js'
import { exprArb } from './gen/exprs.js'
import { compileOutcome, evalOutcome, type Outcome, run, sameOutcome, show } from './gen/outcome.js'
import { activationArb, VARIABLES } from './gen/values.js'

// The two back ends (generated JavaScript, codegen.ts; closures, closures.ts) must give the same
// result for every expression and activation: the same value (strictly typed: int, uint and
// double differ, Double wrappers matter, maps compare order-agnostically), or the same error.
// `auto` switches from closures to generated code after its first evaluations; its results must
// not change when it does.

type Backend = NonNullable<CompileOptions['backend']>
/** Evaluations that take `auto` past its switch to generated code (program.ts HOT_AFTER = 16). */
const WARM = 20
const declarations = Object.fromEntries(Object.keys(VARIABLES).map((k) => [k, DynType]))

/** Compiles once per back end and evaluates; `auto` is evaluated WARM times and must agree with itself. */
function outcomes(expr: string, act: Record<string, CelValue>, options: CompileOptions = {}): Record<Backend, Outcome> {
  const out = {} as Record<Backend, Outcome>
  for (const backend of ['closures', 'js', 'auto'] as const) {
    const p = compileOutcome(expr, { ...options, backend })
    if ('ok' in p) {
      out[backend] = p
      continue
    }
    let o = evalOutcome(p, act)
    for (let i = 1; backend === 'auto' && i < WARM; i++) {
      const next = evalOutcome(p, act)
      if (!sameOutcome(o, next)) expect.fail(`auto: ${expr} gave ${show(next)} on run ${i + 1}, ${show(o)} before`)
      o = next
    }
    out[backend] = o
  }
  return out
}

function expectSame(expr: string, act: Record<string, CelValue>, options: CompileOptions = {}): Outcome {
  const o = outcomes(expr, act, options)
  if (!sameOutcome(o.closures, o.js) || !sameOutcome(o.closures, o.auto))
    expect.fail(
      `${expr}\nwith ${show(act)}\nclosures: ${show(o.closures)}\njs:       ${show(o.js)}\nauto:     ${show(o.auto)}`,
    )
  return o.closures
}

describe('random expressions: generated JavaScript and closures agree', () => {
  // Unchecked programs (cel-go's unchecked ASTs, as the cel-spec suite's disable_check tests run)
  // resolve every name at run time and report type errors as run-time `no such overload`.
  it('unchecked, with undeclared variables (resolved at run time)', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 5 }), activationArb, (expr, act) => {
        expectSame(expr, act, { disableCheck: true })
      }),
      { numRuns: 500 },
    )
  })

  // Checked as Kubernetes does: an expression may fail at stage check, identically on every back end.
  it('checked, with the variables declared as dyn', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 5 }), activationArb, (expr, act) => {
        expectSame(expr, act, { declarations })
      }),
      { numRuns: 500 },
    )
  })

  it('over boolean rules, the shape of Kubernetes validations', () => {
    fc.assert(
      fc.property(
        exprArb({ maxDepth: 5 }).map((e) => `(${e}) == (${e})`),
        activationArb,
        (expr, act) => {
          expectSame(expr, act, { declarations })
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('error absorption on both back ends', () => {
  // cel-spec tests/simple/testdata/logic.textproto for the values; the error messages are cel-go's
  // (interpreter/interpretable.go evalAnd / evalOr: a left-hand error is preferred, else the
  // right-hand one, else `no such overload`; evalConditional: the condition's error).
  const cases: [string, Outcome][] = [
    ['false && (2 / 0 > 3 ? false : true)', { ok: true, value: false }],
    ['(2 / 0 > 3 ? false : true) && false', { ok: true, value: false }],
    ['true || (2 / 0 > 3 ? false : true)', { ok: true, value: true }],
    ['(2 / 0 > 3 ? false : true) || true', { ok: true, value: true }],
    ['true && 1/0 != 0', { ok: false, stage: 'eval', message: 'division by zero' }],
    ['1/0 != 0 && true', { ok: false, stage: 'eval', message: 'division by zero' }],
    ['false || 1/0 != 0', { ok: false, stage: 'eval', message: 'division by zero' }],
    ['1/0 != 0 || false', { ok: false, stage: 'eval', message: 'division by zero' }],
    ['{}.x || 1 % 0 == 0', { ok: false, stage: 'eval', message: 'no such key: x' }],
    ['1 % 0 == 0 && {}.x', { ok: false, stage: 'eval', message: 'modulus by zero' }],
    ['2 / 0 > 4 ? "baz" : "quux"', { ok: false, stage: 'eval', message: 'division by zero' }],
    // cel-go parser/macro.go: all() folds with &&, exists() with ||, so errors are absorbed likewise.
    ['[0, 1].all(v, 1 / v > 1)', { ok: true, value: false }],
    ['[0, 2].all(v, 2 / v >= 1)', { ok: false, stage: 'eval', message: 'division by zero' }],
    ['[0, 1].exists(v, 1 / v == 1)', { ok: true, value: true }],
    ['[0, 2].exists(v, 1 / v == 1)', { ok: false, stage: 'eval', message: 'division by zero' }],
    ['[1, 0].exists_one(v, 1 / v == 1)', { ok: false, stage: 'eval', message: 'division by zero' }],
  ]
  it.each(cases)('%s', (expr, want) => {
    const got = expectSame(expr, {})
    if (!sameOutcome(got, want)) expect.fail(`want ${show(want)}, got ${show(got)}`)
  })

  it('and without the checker: non-bool operands (cel-spec logic.textproto, disable_check)', () => {
    const options = { disableCheck: true }
    expect(expectSame('false && 32', {}, options)).toEqual({ ok: true, value: false })
    expect(expectSame("'horses' || true", {}, options)).toEqual({ ok: true, value: true })
    expect(expectSame("true ? 'cows' : 17", {}, options)).toEqual({ ok: true, value: 'cows' })
    const noOverload = { ok: false, stage: 'eval', message: 'no such overload' }
    expect(expectSame("'less filling' && 'tastes great'", {}, options)).toMatchObject(noOverload)
    expect(expectSame("'cows' ? false : 17", {}, options)).toMatchObject(noOverload)
  })
})

describe('the cel-spec conformance suite on each back end', () => {
  function engine(backend: Backend): Engine {
    return {
      compile: (expr, options) => {
        const p = compile(expr, { ...(options as CompileOptions), backend })
        if (backend !== 'auto') return p
        // Evaluate past the switch to generated code; every run must give the first run's outcome.
        return {
          outputType: p.outputType,
          evaluate: (act) => {
            const first = evalOutcome(p, act)
            for (let i = 1; i < WARM; i++) {
              const o = evalOutcome(p, act)
              if (!sameOutcome(first, o)) throw new Error(`auto changed its result on run ${i + 1}: ${show(o)}`)
            }
            if (first.ok) return first.value
            throw new CelError(first.stage, first.message)
          },
        }
      },
    }
  }

  it('gives the same outcome for every test on closures, generated code and auto', () => {
    const cases = loadCases()
    const key = (r: CaseResult) => JSON.stringify(r.outcome)
    const closures = runCases(engine('closures'), cases).map(key)
    const js = runCases(engine('js'), cases).map(key)
    const auto = runCases(engine('auto'), cases).map(key)
    const diffs = cases
      .map((c, i) => ({ id: c.id, expr: c.test.expr, closures: closures[i], js: js[i], auto: auto[i] }))
      .filter((d) => d.closures !== d.js || d.closures !== d.auto)
    expect(diffs).toEqual([])
  })
})

describe('hand-picked shapes the planner specialises', () => {
  // Fast paths (runtime.ts Ops, codegen.ts select / has / var) against the general rules, on inputs
  // that leave the fast path: wrappers, bigints, NaN, CelMap, inherited properties.
  const exprs = [
    'x + y',
    'x - y',
    'x < y',
    'x <= y',
    'x > y',
    'x >= y',
    'x == y',
    'x != y',
    'x[y]',
    'y in x',
    'size(x)',
    '!x',
    'x.a',
    'has(x.a)',
    'x.?a',
    'x[?y]',
    'x.all(v, v == y)',
    'x.exists(v, v == y)',
    'x.exists_one(v, v == y)',
    'x.map(v, [v, y])',
    'x.filter(v, v != y)',
    'x.map(v, v != y, v)',
    'x.transformList(i, v, [i, v])',
    'x.all(i, v, v != y)',
    'x ? y : x',
    'x && y',
    'x || y',
  ]
  it('agree on random pairs of values', () => {
    fc.assert(
      fc.property(fc.constantFrom(...exprs), activationArb, fc.boolean(), (expr, act, checked) => {
        // Checked with dyn declarations (as Kubernetes runs them) and unchecked: both plans.
        expectSame(expr, act, checked ? { declarations } : { disableCheck: true })
      }),
      { numRuns: 1000 },
    )
  })
})

describe('outcome plumbing', () => {
  it('run() reports CelErrors as outcomes and values as values', () => {
    expect(run('1 + 1')).toEqual({ ok: true, value: 2 })
    expect(run('1 / 0')).toMatchObject({ ok: false, stage: 'eval', message: 'division by zero' })
    expect(run('1 +')).toMatchObject({ ok: false, stage: 'parse' })
  })
})
