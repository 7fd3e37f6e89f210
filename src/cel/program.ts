import { envCheck } from './check.js'
import type { CheckedAst, TypeProvider } from './checker/index.js'
import type { Expr, ParsedAst } from './common/ast.js'
import { CelCompileError, CelError, CelEvalError, ErrorValue } from './common/errors.js'
import { closures, type ExactEvaluator, type Frame } from './compiler/closures.js'
import { type CostCounter, type FastEvaluator, generate } from './compiler/codegen.js'
import type { Plan } from './compiler/plan.js'
import { PlanError, Planner, ProgramError } from './compiler/planner.js'
import { BAIL, CostLimitExceeded } from './compiler/runtime.js'
import { meter } from './cost/budget.js'
import { Env } from './env.js'
import { celLibraries } from './stdlib/index.js'
import { parse } from './syntax/index.js'
import { DynType, type Type } from './types/types.js'
import type { CelValue } from './values/values.js'

export type Activation = Readonly<Record<string, CelValue>>

export interface CompileOptions {
  /** The environment (functions, macros, variables); default: the CEL standard environment. */
  readonly env?: Env
  /** Variables to declare on top of the environment's. */
  readonly declarations?: Readonly<Record<string, Type>>
  /** cel-go container for qualified name resolution. */
  readonly container?: string
  /**
   * `auto` (default): closures for the first evaluations, then generated JavaScript once the
   * program is hot; `js`: generate at once; `closures`: never use `new Function` (strict CSP hosts).
   */
  readonly backend?: 'auto' | 'js' | 'closures'
  /**
   * Skip compile-time checks (cel-go's unchecked programs): unknown functions and undeclared names
   * become run-time errors. Kubernetes always checks; this exists for the cel-spec tests that need it.
   */
  readonly disableCheck?: boolean
  /** cel-go's OptOptimize (default true, as Kubernetes sets it): fold constant calls and literals. */
  readonly optimize?: boolean
  /** Default run-time cost limit of the program's evaluations (cel-go's CostLimit). */
  readonly costLimit?: number
  /** Object types declared from outside (Kubernetes schemas) for the checker. */
  readonly typeProvider?: TypeProvider
  /** The type the expression must have (e.g. bool for a validation rule). */
  readonly expectedType?: Type
  /**
   * The AST check() gave for this expression in this environment, kept from an earlier process
   * (checker/serialize.ts): parsing and checking are skipped. The caller vouches that it matches.
   */
  readonly checked?: CheckedAst
}

/** Evaluations after which `auto` generates JavaScript for a program. */
const HOT_AFTER = 16

/** Whether `auto` programs generate JavaScript once hot (process-wide; withoutGeneratedCode turns it off). */
let generating = true

/**
 * Runs `run` with `auto` programs on the closure evaluator only, however often they are evaluated: for a
 * caller that knows it evaluates each program too few times for generated code to pay. V8 parses each
 * generated program on its own and compiles it again once hot; in a `kelp check` of fewer than about
 * 10,000 objects that cost more CPU than the faster code saved (docs/benchmarks.md). The answers are the
 * same: the closures are the exact evaluator. Nests; the setting is restored when `run` returns or throws.
 */
export function withoutGeneratedCode<T>(run: () => T): T {
  const before = generating
  generating = false
  try {
    return run()
  } finally {
    generating = before
  }
}

let defaultEnv: Env | undefined
/** The CEL standard environment (cel-go's standard library and the extensions Kubernetes enables). */
export function standardEnv(): Env {
  defaultEnv ??= new Env({ libraries: celLibraries })
  return defaultEnv
}

export interface EvalOptions {
  /** Abort with `operation cancelled: actual cost limit exceeded` when the run-time cost exceeds this. */
  readonly costLimit?: number
}

export interface EvalResult {
  readonly value: CelValue
  /** The run-time cost, as cel-go's cost tracker counts it. */
  readonly cost: number
}

/** The outcome of Program.tryRun: a value or an error, and the cost either way. */
export type TryResult =
  | { readonly value: CelValue; readonly cost: number }
  | { readonly error: CelError; readonly cost: number }

/** Where Program.tryRunInto writes the cost and the error (reused by the caller between calls). */
export interface RunOutcome {
  cost: number
  error: CelError | undefined
}

/** A compiled expression: reusable and re-entrant (it keeps no state between evaluations but its tier). */
export class Program {
  /**
   * The exact evaluator: closures implementing every rule of cel-go's semantics. Built at the first
   * evaluation that needs it: many programs (a messageExpression of a rule that holds, a policy no object
   * matches) are compiled and never run.
   */
  private exactEval: ExactEvaluator | undefined
  /** The closure tree that tags errors with their node (failure()), built on the first untagged error. */
  private locatingEval: ExactEvaluator | undefined
  /** Generated JavaScript for the common case, counting cost; it bails to `exact` on anything unusual. */
  private fast: FastEvaluator | undefined
  /** The same without cost bookkeeping, for evaluations with no cost limit (nothing needs the cost). */
  private fastFree: FastEvaluator | undefined
  private runs = 0
  private readonly counter = { n: 0, l: 0, a: 0 }
  /**
   * Whether the expression calls a function that reserves budget before allocating (the meter is set only
   * then). Read only with generated code, so worked out when that is generated.
   */
  private allocates = false
  private depth = 0

  /** The checked type of the expression (dyn when compiled with disableCheck). */
  readonly outputType: Type

  constructor(
    readonly ast: ParsedAst,
    private readonly plan: Plan,
    private readonly slots: number,
    private readonly env: Env,
    private readonly backend: 'auto' | 'js' | 'closures',
    private readonly costLimit = Number.POSITIVE_INFINITY,
  ) {
    this.outputType = 'outputType' in ast ? (ast as CheckedAst).outputType : DynType
    if (backend === 'js') this.generateFast()
  }

  /** Evaluates against the variables of `activation`; throws CelEvalError on a CEL error. */
  evaluate(activation: Activation = EMPTY, options?: EvalOptions): CelValue {
    const limit = options === undefined ? this.costLimit : (options.costLimit ?? this.costLimit)
    if (limit === Number.POSITIVE_INFINITY) {
      // Nothing needs the cost: the variant without cost bookkeeping (generated on first need: admission
      // runs every program under a cost limit and never needs it).
      if (this.fast !== undefined) this.fastFree ??= generate(this.plan, this.env.ops, false).fn
      const free = this.fastFree
      if (free !== undefined) {
        // the allocation guards read the meter: no limit here, so only their hard maximum applies
        const value = this.allocates ? runFast(free, activation, UNCOUNTED) : free(activation, UNCOUNTED)
        if (value !== BAIL) return value
      } else this.warm()
    } else {
      const fast = this.fast
      if (fast !== undefined) {
        // One counter per program; a nested evaluation of the same program (a host function) gets its own.
        const c = this.depth++ === 0 ? this.counter : { n: 0, l: 0, a: 0 }
        c.n = 0
        c.l = limit
        c.a = 0
        const value = this.allocates ? runFast(fast, activation, c) : fast(activation, c)
        this.depth--
        if (value !== BAIL && c.n <= limit) return value
      } else this.warm()
    }
    return this.exactRun(activation, limit).value
  }

  /** Evaluates and reports the run-time cost (cel-go's EvalDetails.ActualCost). */
  run(activation: Activation = EMPTY, options?: EvalOptions): EvalResult {
    const limit = options?.costLimit ?? this.costLimit
    const fast = this.fast
    if (fast !== undefined) {
      const c = { n: 0, l: limit, a: 0 }
      const value = this.allocates ? runFast(fast, activation, c) : fast(activation, c)
      if (value !== BAIL && c.n <= limit) return { value, cost: c.n }
    } else this.warm()
    return this.exactRun(activation, limit)
  }

  /**
   * Evaluates and reports the value or the error, with the cost charged up to that point (cel-go's
   * EvalDetails.ActualCost, which the apiserver charges to its budgets even for failed rules).
   */
  tryRun(activation: Activation = EMPTY, options?: EvalOptions): TryResult {
    const limit = options?.costLimit ?? this.costLimit
    const fast = this.fast
    if (fast !== undefined) {
      const c = { n: 0, l: limit, a: 0 }
      const value = this.allocates ? runFast(fast, activation, c) : fast(activation, c)
      if (value !== BAIL && c.n <= limit) return { value, cost: c.n }
    } else this.warm()
    const frame: Frame = { act: activation, s: new Array(this.slots), cost: 0, limit, alloc: 0 }
    const pe = meter.exact
    const pf = meter.fast
    meter.exact = frame
    meter.fast = undefined
    try {
      return { value: this.exact(frame), cost: frame.cost }
    } catch (e) {
      const failed = this.failure(frame, e)
      return { error: failed.error, cost: failed.cost }
    } finally {
      meter.exact = pe
      meter.fast = pf
    }
  }

  /**
   * tryRun for hot loops (the admission dispatcher runs 20+ programs per request): the value, or
   * undefined with the error in `out.error`; the cost in `out.cost` either way. Same results as
   * tryRun with the program's own cost limit, without allocating a counter and a result per call.
   */
  tryRunInto(activation: Activation, out: RunOutcome): CelValue | undefined {
    const limit = this.costLimit
    out.error = undefined
    const fast = this.fast
    if (fast !== undefined) {
      // the program's counter, as evaluate() uses it; a nested evaluation of this program gets its own
      const c = this.depth++ === 0 ? this.counter : { n: 0, l: 0, a: 0 }
      c.n = 0
      c.l = limit
      c.a = 0
      let value: CelValue | typeof BAIL
      try {
        value = this.allocates ? runFast(fast, activation, c) : fast(activation, c)
      } finally {
        this.depth--
      }
      if (value !== BAIL && c.n <= limit) {
        out.cost = c.n
        return value
      }
    } else this.warm()
    const frame: Frame = { act: activation, s: new Array(this.slots), cost: 0, limit, alloc: 0 }
    const pe = meter.exact
    const pf = meter.fast
    meter.exact = frame
    meter.fast = undefined
    try {
      const value = this.exact(frame)
      out.cost = frame.cost
      return value
    } catch (e) {
      const failed = this.failure(frame, e)
      out.cost = failed.cost
      out.error = failed.error
      return undefined
    } finally {
      meter.exact = pe
      meter.fast = pf
    }
  }

  private warm(): void {
    if (this.backend === 'auto' && ++this.runs >= HOT_AFTER && generating) this.generateFast()
  }

  private generateFast(): void {
    this.allocates = callsAllocating(this.ast.expr)
    this.fast = generate(this.plan, this.env.ops).fn
  }

  /** The closure tree, whose errors do not say their node (failure() finds it when one reaches the caller). */
  private get exact(): ExactEvaluator {
    this.exactEval ??= closures(this.plan, this.env.ops, false)
    return this.exactEval
  }

  /**
   * The public error of a closure evaluation (its frame `failed`) that raised `e`, with the node it came from. An
   * error value the closure tree raised without its node is raised again by evaluating once more on the
   * locating tree, which fails at the same node at the same cost: evaluation is deterministic, and the
   * variables the first evaluation computed are read as they were. Anything else (the cost limit, an error
   * that says its node) is reported as raised. Called with the meter set to `failed`, the failed evaluation's
   * frame.
   */
  private failure(failed: Frame, e: unknown): { error: CelError; cost: number } {
    const cost = failed.cost
    if (!(e instanceof ErrorValue) || e.exprId !== 0) return { error: toPublicError(e, this.ast), cost }
    this.locatingEval ??= closures(this.plan, this.env.ops, true)
    // what the failed evaluation held (a comprehension's accumulators) is not kept through the second
    failed.s.length = 0
    const frame: Frame = { act: failed.act, s: new Array(this.slots), cost: 0, limit: failed.limit, alloc: 0 }
    const pe = meter.exact
    meter.exact = frame
    try {
      this.locatingEval(frame)
    } catch (again) {
      return { error: toPublicError(again, this.ast), cost: frame.cost }
    } finally {
      meter.exact = pe
    }
    return { error: toPublicError(e, this.ast), cost }
  }

  private exactRun(activation: Activation, limit: number): EvalResult {
    const frame: Frame = { act: activation, s: new Array(this.slots), cost: 0, limit, alloc: 0 }
    const pe = meter.exact
    const pf = meter.fast
    meter.exact = frame
    meter.fast = undefined
    try {
      const value = this.exact(frame)
      return { value, cost: frame.cost }
    } catch (e) {
      throw this.failure(frame, e).error
    } finally {
      meter.exact = pe
      meter.fast = pf
    }
  }

  /** The generated JavaScript source (for inspection and tests). */
  source(): string {
    return generate(this.plan, this.env.ops).source
  }
}

const EMPTY: Activation = Object.freeze({})
/** The counter the cost-free variant is given (it never reads or writes it). */
const UNCOUNTED = { n: 0, l: Number.POSITIVE_INFINITY, a: 0 }

/** Runs generated code with its counter as the allocation guards' meter. */
/**
 * The functions whose implementations reserve budget before they allocate (cost/budget.ts: `_+_` on lists and
 * bytes, lists.range, flatten, join, replace, strings.quote, format; the map/filter macros expand to `_+_`).
 * A program calling none of them runs without setting the meter: the ~5 ns of setting and restoring it was a
 * third of a small expression's evaluation.
 */
const ALLOCATING = new Set(['_+_', 'lists.range', 'flatten', 'join', 'replace', 'strings.quote', 'format'])

function callsAllocating(root: Expr): boolean {
  const stack: Expr[] = [root]
  for (let e = stack.pop(); e !== undefined; e = stack.pop()) {
    switch (e.kind) {
      case 'call':
        if (ALLOCATING.has(e.fn)) return true
        if (e.target !== undefined) stack.push(e.target)
        stack.push(...e.args)
        break
      case 'select':
        stack.push(e.operand)
        break
      case 'list':
        stack.push(...e.elements)
        break
      case 'map':
        for (const x of e.entries) stack.push(x.key, x.value)
        break
      case 'struct':
        for (const f of e.fields) stack.push(f.value)
        break
      case 'comprehension':
        stack.push(e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result)
        break
    }
  }
  return false
}

function runFast(fast: FastEvaluator, activation: Activation, c: CostCounter): CelValue | typeof BAIL {
  const pe = meter.exact
  const pf = meter.fast
  meter.exact = undefined
  meter.fast = c
  try {
    return fast(activation, c)
  } finally {
    meter.exact = pe
    meter.fast = pf
  }
}

function toPublicError(e: unknown, ast: ParsedAst): CelError {
  if (e instanceof CostLimitExceeded) return new CelEvalError(e.message)
  if (e instanceof ErrorValue) {
    const offset = e.exprId ? ast.sourceInfo.positions.get(e.exprId) : undefined
    if (offset === undefined) return new CelEvalError(e.message, e.exprId || undefined)
    const { line, column } = ast.source.location(offset)
    return new CelEvalError(e.message, e.exprId, line, column + 1)
  }
  if (e instanceof CelError) return e
  if (e instanceof RangeError && /call stack/.test(e.message)) return new CelEvalError('max recursion depth exceeded')
  // A JavaScript exception here is a kelp bug; report it as an evaluation error rather than crash a webhook.
  return new CelEvalError(`internal error: ${e instanceof Error ? e.message : String(e)}`)
}

/** Parses and plans an expression (check stage errors for unknown names and functions). */
export function compile(expression: string, options: CompileOptions = {}): Program {
  let env = options.env ?? standardEnv()
  if (options.declarations || options.container !== undefined) {
    env = env.extend({
      ...(options.declarations ? { variables: options.declarations } : {}),
      ...(options.container !== undefined ? { container: options.container } : {}),
    })
  }
  const ast = options.checked ?? parseAndCheck(expression, env, options)
  const planner = new Planner(env, ast, options.disableCheck ?? false, options.optimize ?? true, options.typeProvider)
  let plan: Plan
  try {
    plan = planner.plan()
  } catch (e) {
    if (e instanceof ProgramError) throw new CelError('check', e.message)
    if (e instanceof PlanError) {
      const offset = ast.sourceInfo.positions.get(e.exprId) ?? -1
      throw new CelCompileError('check', [{ message: e.message, offset }], ast.source)
    }
    throw e
  }
  return new Program(ast, plan, planner.slots, env, options.backend ?? 'auto', options.costLimit)
}

/** cel-go's env.Compile: parse, then check against the declarations (Kubernetes always checks). */
function parseAndCheck(expression: string, env: Env, options: CompileOptions): ParsedAst | CheckedAst {
  const parsed = parse(expression, { macros: env.macros, enableOptionalSyntax: env.functions.has('optional.of') })
  if (options.disableCheck) return parsed
  // cel-go Env.Check: the type check, then the environment's validators
  return envCheck(parsed, env, {
    homogeneousAggregateLiterals: env.features.homogeneousAggregateLiterals,
    crossTypeNumericComparisons: env.features.crossTypeNumericComparisons,
    ...(options.typeProvider ? { typeProvider: options.typeProvider } : {}),
    ...(options.expectedType ? { expectedType: options.expectedType } : {}),
  })
}

/**
 * Compiles and evaluates once (convenient; compile once and reuse the Program on hot paths). The
 * activation's variables are declared as `dyn` unless `options.declarations` says otherwise.
 */
export function evaluate(expression: string, activation: Activation = {}, options: CompileOptions = {}): CelValue {
  const declarations = options.declarations ?? Object.fromEntries(Object.keys(activation).map((k) => [k, DynType]))
  return compile(expression, { ...options, declarations }).evaluate(activation)
}
