import type { CelStage } from '../../src/cel/common/errors.js'
import { CelError, ErrorValue } from '../../src/cel/common/errors.js'
import { Type } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { diffValues, formatValue } from './compare.js'
import { fromBindings, fromExprType, fromTypeEnv, fromValue, Unsupported } from './convert.js'
import { type SkipReason, skipReason } from './skip-policy.js'
import type { ConformanceCase } from './suite.js'

// Runs one cel-spec simple test the way cel-go's conformance runner does
// (cel-go conformance/conformance_test.go): parse, check unless disable_check, evaluate with the
// bindings, then match the result. No result matcher means "evaluates to true".

/** The slice of kelp's public API the runner needs (src/cel/index.ts). */
export interface Engine {
  compile(
    expr: string,
    options: { container?: string; declarations?: Record<string, Type>; disableCheck?: boolean },
  ): EngineProgram
}

export interface EngineProgram {
  evaluate(activation: Record<string, CelValue>): CelValue
  /** The checked type of the expression (cel-go's `ast.OutputType()`), once kelp has a checker. */
  readonly outputType?: unknown
}

export interface RunOptions {
  /**
   * Whether a check-stage error satisfies a test that expects an evaluation error. cel-go's
   * runner fails such a test (its checker accepts every expression cel-spec checks), so a
   * check error there is a divergence; the default accepts it and reports the count.
   */
  readonly acceptCheckErrors?: boolean
  /**
   * Run check_only tests and compare deduced types, which needs programs that report
   * `outputType`. Off: check_only tests are skipped as needing the checker.
   */
  readonly verifyTypes?: boolean
}

/** Where a failure happened: a stage of kelp's pipeline, a wrong value, or a crash (non-CelError). */
export type FailStage = CelStage | 'value' | 'crash'

export type Outcome =
  | { readonly status: 'skip'; readonly reason: SkipReason; readonly detail?: string }
  | {
      readonly status: 'pass'
      /** For expected-error tests: the stage that failed and kelp's message. */
      readonly error?: { readonly stage: CelStage; readonly message: string }
      /** typed_result test whose deduced type was not compared (needs the checker). */
      readonly typeUnverified?: boolean
    }
  | { readonly status: 'fail'; readonly stage: FailStage; readonly message: string }

export interface CaseResult {
  readonly case: ConformanceCase
  readonly outcome: Outcome
  /** cel-spec's expected error text for expected-error tests (informational; cel-go does not match it). */
  readonly expectedError?: string
}

const TRUE_VALUE: CelValue = true

export function runCase(engine: Engine, c: ConformanceCase, options: RunOptions = {}): CaseResult {
  const reason = skipReason(c)
  // check_only tests run once the engine reports output types; until then they are skipped.
  if (reason && (reason !== 'needs-checker' || !options.verifyTypes))
    return { case: c, outcome: { status: 'skip', reason } }
  const t = c.test
  const m = t.resultMatcher
  const expectsError = m.case === 'evalError' || m.case === 'anyEvalErrors'
  const expectedError = expectsError ? expectedErrorText(c) : undefined

  let activation: Record<string, CelValue>
  let declarations: Record<string, Type>
  let expected: CelValue = TRUE_VALUE
  let deducedType: Type | undefined
  try {
    activation = fromBindings(t.bindings)
    declarations = fromTypeEnv(t.typeEnv)
    if (m.case === 'value') expected = fromValue(m.value)
    else if (m.case === 'typedResult') {
      if (m.value.result && !t.checkOnly) expected = fromValue(m.value.result)
      if (m.value.deducedType) deducedType = fromExprType(m.value.deducedType)
    }
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e
    if (reason) return { case: c, outcome: { status: 'skip', reason } }
    return { case: c, outcome: { status: 'skip', reason: 'unsupported-input', detail: e.message } }
  }

  let program: EngineProgram
  let actual: CelValue
  try {
    program = engine.compile(t.expr, {
      container: t.container || undefined,
      declarations,
      disableCheck: t.disableCheck,
    })
    if (reason) {
      const typeDiff = diffType(deducedType, program.outputType)
      if (typeDiff === undefined) return { case: c, outcome: { status: 'skip', reason } }
      return { case: c, outcome: typeDiff ? { status: 'fail', stage: 'check', message: typeDiff } : { status: 'pass' } }
    }
    actual = program.evaluate(activation)
  } catch (e) {
    const err = classify(e)
    if (expectsError && (err.stage === 'eval' || (err.stage === 'check' && options.acceptCheckErrors !== false)))
      return { case: c, outcome: { status: 'pass', error: { stage: err.stage, message: err.message } }, expectedError }
    const want = expectsError ? `an evaluation error (${expectedError})` : formatValue(expected)
    return {
      case: c,
      outcome: { status: 'fail', stage: err.stage, message: `want ${want}; ${err.stage} failed: ${err.message}` },
      expectedError,
    }
  }

  if (expectsError)
    return {
      case: c,
      outcome: {
        status: 'fail',
        stage: 'value',
        message: `want an error (${expectedError}), got ${formatValue(actual)}`,
      },
      expectedError,
    }
  const diff = diffValues(expected, actual)
  if (diff) return { case: c, outcome: { status: 'fail', stage: 'value', message: diff } }
  if (m.case !== 'typedResult') return { case: c, outcome: { status: 'pass' } }
  const typeDiff = diffType(deducedType, program.outputType)
  if (typeDiff) return { case: c, outcome: { status: 'fail', stage: 'check', message: typeDiff } }
  return { case: c, outcome: typeDiff === undefined ? { status: 'pass', typeUnverified: true } : { status: 'pass' } }
}

/**
 * Compares a deduced type with the engine's output type: undefined when the engine reports
 * none (not verifiable), '' when equal, otherwise the difference. Types compare as cel-go
 * prints them (`list(int)`, `map(string, dyn)`, `optional_type(int)`).
 */
function diffType(want: Type | undefined, got: unknown): string | undefined {
  if (!(got instanceof Type) || !want) return undefined
  return want.toString() === got.toString() ? '' : `deduced type: want ${want.toString()}, got ${got.toString()}`
}

export function runCases(engine: Engine, cases: readonly ConformanceCase[], options?: RunOptions): CaseResult[] {
  return cases.map((c) => runCase(engine, c, options))
}

function classify(e: unknown): { stage: FailStage; message: string } {
  if (e instanceof CelError) return { stage: e.stage, message: e.message }
  // The public API must convert evaluator error values to CelEvalError; one escaping is a bug.
  if (e instanceof ErrorValue) return { stage: 'crash', message: `ErrorValue escaped the API: ${e.message}` }
  if (e instanceof Error) return { stage: 'crash', message: `${e.name}: ${e.message}${stackHint(e)}` }
  return { stage: 'crash', message: `threw ${formatValue(e)}` }
}

function stackHint(e: Error): string {
  const frame = e.stack?.split('\n').find((l) => l.includes('/src/'))
  return frame ? ` (${frame.trim()})` : ''
}

function expectedErrorText(c: ConformanceCase): string {
  const m = c.test.resultMatcher
  const sets = m.case === 'evalError' ? [m.value] : m.case === 'anyEvalErrors' ? m.value.errors : []
  const msgs = sets.flatMap((s) => s.errors.map((st) => st.message)).filter((s) => s)
  return msgs.length ? msgs.map((s) => JSON.stringify(s)).join(' | ') : 'any error'
}
