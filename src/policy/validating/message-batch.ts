// A ValidatingAdmissionPolicy's messageExpressions as one batch (validator.go Validate: messageFilter.ForInput
// with the budget the validations left, evaluated before any outcome is read), leaving out what no answer
// can observe: when every validation admits, only an out-of-budget failure of the whole batch shows
// (ErrInternal is never raised for expressions that compiled), and a message whose validation admitted or
// failed is read by no decision; a message that reads only variables, each the value its last evaluation
// read, has that evaluation's result. `fits` and `evaluate` leave out only what provably cannot change an
// answer.

import type { Env } from '../../cel/env.js'
import { estimateKubeCost } from '../../kube/cost.js'
import type { CompilationResult } from '../cel/compile.js'
import {
  type ActivationInput,
  constantCost,
  type EvaluationResult,
  type ExpressionTrace,
  type ForInputOutcome,
  forInput,
  knownVariable,
  variableReader,
} from '../cel/condition.js'

/** What the batch reads of a compiled policy (validator.ts compilePolicy). */
export interface MessageBatchParts {
  readonly messageExpressions: readonly (CompilationResult | undefined)[]
  readonly variables: ReadonlyMap<string, CompilationResult>
  readonly messagePlaceholders: readonly EvaluationResult[]
  /** Every messageExpression reads nothing of its activation but `variables.<name>` (readsOnlyVariables). */
  readonly messagesReadOnlyVariables: boolean
  /** The environments of the messageExpressions and of the variables (for their cost estimates). */
  readonly messageEnv: Env
  readonly variableEnv: Env
}

/**
 * The static worst-case costs (estimateKubeCost's max: the estimator the apiserver uses for CRD
 * rules, cel-go's checker.Cost) of a policy's messageExpressions, summed, and of each variable; an
 * expression that did not compile costs nothing when evaluated. Unbounded (or beyond 2^53): Infinity.
 */
interface MessageCosts {
  readonly messages: number
  /** Estimated on first need (only once the messages' sum is finite). */
  readonly variables: Map<string, number>
}

function maxCost(r: CompilationResult | undefined, env: Env): number {
  if (r?.program === undefined) return 0
  const max = estimateKubeCost(r.program, env).max
  return max <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(max) : Number.POSITIVE_INFINITY
}

/**
 * Whether two values are the same to any CEL expression: equal primitives (Object.is), or arrays and
 * plain objects (lists and string-keyed maps) of the same values, keys in the same order (iteration
 * follows it). Any other object only if it is the same one. Past `SAME_VALUE_NODES` containers compared
 * or `SAME_VALUE_DEPTH` levels it answers false (the message is evaluated): a hostile object costs no
 * more to compare than a bounded walk, and no deep recursion.
 */
function sameValue(a: unknown, b: unknown): boolean {
  // primitives and the same object (a constant variable's value) without allocating the walk's budget
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b)
  if (a === b) return true
  // two empty lists (most traced look-ups: a list of offenders, empty now as before): no walk
  if (Array.isArray(a) && Array.isArray(b) && a.length === 0 && b.length === 0)
    return Object.getPrototypeOf(a) === Object.getPrototypeOf(b)
  return sameValueWithin(a, b, { nodes: SAME_VALUE_NODES }, SAME_VALUE_DEPTH)
}

const SAME_VALUE_NODES = 10_000
const SAME_VALUE_DEPTH = 100

function sameValueWithin(a: unknown, b: unknown, budget: { nodes: number }, depth: number): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b)
  if (a === b) return true
  if (depth === 0 || --budget.nodes < 0) return false
  const proto = Object.getPrototypeOf(a)
  if (proto !== Object.getPrototypeOf(b)) return false
  if (proto === Array.prototype) {
    const x = a as unknown[]
    const y = b as unknown[]
    if (x.length !== y.length) return false
    for (let i = 0; i < x.length; i++) if (!sameValueWithin(x[i], y[i], budget, depth - 1)) return false
    return true
  }
  if (proto !== Object.prototype && proto !== null) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string
    if (k !== kb[i]) return false
    if (!sameValueWithin((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], budget, depth - 1))
      return false
  }
  return true
}

/**
 * Whether each look-up of a trace gets the same value now (`read`: the batch's variables). A value found
 * the same but not the same object replaces the traced one: a constant variable (the pack's 0..99) is one
 * object per policy, and a trace that kept another policy's copy would be walked element by element at
 * every request.
 */
function traceHolds(t: ExpressionTrace, read: (name: string) => { readonly value: unknown } | undefined): boolean {
  const reads = t.reads
  for (let i = 0; i < reads.length; i += 2) {
    const known = read(reads[i] as string)
    if (known === undefined) return false
    const now = known.value
    const traced = reads[i + 1]
    if (now === traced) continue
    if (!sameValue(now, traced)) return false
    reads[i + 1] = now as (typeof reads)[number]
  }
  return true
}

/** One policy's message batch; it keeps estimates and traces from one request to the next. */
export class MessageBatch {
  /** Estimated on the first request every validation admits (messagesFit). */
  private costs: MessageCosts | undefined
  /**
   * Each messageExpression's last traced evaluation (when every one reads only `variables`:
   * messagesReadOnlyVariables), index for index: its look-ups and its own cost (evaluate()).
   */
  private readonly traces: (ExpressionTrace | undefined)[] = []
  /** Each messageExpression's result in its last traced evaluation, index for index with `traces`. */
  private readonly results: EvaluationResult[] = []
  /** The policy's constant variables (CompilationResult.constant). */
  private constants: readonly CompilationResult[] | undefined

  constructor(private readonly c: MessageBatchParts) {}

  /**
   * Whether the message batch cannot cost more than `budget`: the messageExpressions' worst cases plus,
   * for each variable, what reading it can charge (each is evaluated at most once per batch: the cost
   * kept in `memo` or a constant's, exact; else its worst case). Costs are charged as they accrue and
   * are never negative, so a batch whose total fits never runs out (ForInput's checks are on the
   * running total). A program stopped by the per-call limit has charged at most its full cost.
   */
  fits(budget: number, input: () => ActivationInput): boolean {
    const c = this.c
    const memo = input().memo
    this.costs ??= {
      messages: c.messageExpressions.reduce((sum, m) => sum + maxCost(m, c.messageEnv), 0),
      variables: new Map(),
    }
    const costs = this.costs
    let total = costs.messages
    if (total <= budget) {
      for (const [name, v] of c.variables) {
        let cost = knownVariable(name, v, memo)?.cost ?? costs.variables.get(name)
        if (cost === undefined) {
          cost = maxCost(v, c.variableEnv)
          costs.variables.set(name, cost)
        }
        total += cost
        if (!(total <= budget)) break
      }
      if (total <= budget) return true
    }
    return false
  }

  /** What the constant variables evaluated so far charge, each at its first read in a batch. */
  private constantsCost(): number {
    this.constants ??= [...this.c.variables.values()].filter((v) => v.constant === true)
    let sum = 0
    for (const v of this.constants) sum += constantCost(v) ?? 0
    return sum
  }

  /**
   * The message batch (ForInput with the budget the validations left), leaving out the messages whose
   * result and cost are known: a message reads nothing but `variables` and evaluation is deterministic,
   * so a message whose every look-up of `variables` gets what its traced evaluation got runs as that one
   * did, with the same look-ups, result and own cost (its program's: the variables are charged apart);
   * it takes the traced result (the pack's failing seccompProfile message, the same for every pod whose
   * containers have the same names). The batch's cost is then
   * known: every message's own cost (evaluated now or traced) plus what each variable read charges at
   * its first read (kept in `memo`, exact; with the variables it read, as replaying it charges). When
   * that fits, the results are the whole batch's for every message a decision reads; when the part
   * evaluated runs out, so would the whole (it charges at least as much); else the whole batch is
   * evaluated, as the apiserver does.
   */
  evaluate(budget: number, validations: readonly EvaluationResult[], act: ActivationInput): ForInputOutcome {
    const c = this.c
    const compiled = c.messageExpressions
    const memo = act.memo
    if (!c.messagesReadOnlyVariables || (c.variables.size > 0 && memo === undefined)) {
      return forInput(compiled, act, budget)
    }
    const stored = this.traces
    const read = variableReader(act)
    const storedResults = this.results
    const evaluate = compiled.map((m, i) => {
      if (m?.program === undefined) return true // a placeholder or a compile error: nothing to run
      if (validations[i] === undefined) return true
      const t = stored[i]
      return t === undefined || !traceHolds(t, read)
    })
    const traces: (ExpressionTrace | undefined)[] = []
    const keep = (out: ForInputOutcome): ForInputOutcome => {
      if (!('batchError' in out))
        for (const [i, t] of traces.entries())
          if (t !== undefined) {
            stored[i] = t
            storedResults[i] = out.results[i] as EvaluationResult
          }
      return out
    }
    if (!evaluate.includes(false)) return keep(forInput(compiled, act, budget, traces))
    const part = evaluate.includes(true)
      ? keep(forInput(compiled, act, budget, traces, evaluate))
      : { results: c.messagePlaceholders.map(() => ({})), remainingBudget: budget }
    if ('batchError' in part) return part
    // a message left out has its traced result (the same look-ups give the same value or error)
    for (let i = 0; i < compiled.length; i++) {
      const r = storedResults[i]
      if (!evaluate[i] && r !== undefined) part.results[i] = r
    }
    let total = 0
    let known = true
    const names: string[] = []
    for (let i = 0; i < compiled.length; i++) {
      const t = evaluate[i] ? traces[i] : stored[i]
      if (t === undefined) continue
      total += t.ownCost
      for (let j = 0; j < t.reads.length; j += 2) {
        const name = t.reads[j] as string
        names.push(name)
        const v = c.variables.get(name)
        if (known && (v === undefined || knownVariable(name, v, memo) === undefined)) known = false
      }
    }
    // A bound first: when every variable read is known, so is every one it read (a kept evaluation's
    // reads were evaluated in its batch: kept in `memo`, or constants), and what they charge is at most
    // all of `memo` and every constant evaluated so far. Else, or when the bound does not fit, the sum.
    if (known && memo !== undefined && total + memo.total + this.constantsCost() <= budget) return part
    const charged = new Set<string>()
    while (names.length > 0 && total <= budget) {
      const name = names.pop() as string
      if (charged.has(name)) continue
      charged.add(name)
      const v = c.variables.get(name)
      const known = v === undefined ? undefined : knownVariable(name, v, memo)
      if (known === undefined) {
        total = Number.POSITIVE_INFINITY
        break
      }
      total += known.cost
      names.push(...known.reads)
    }
    if (total <= budget) return part
    traces.length = 0
    return keep(forInput(compiled, act, budget, traces))
  }
}
