import { evalError } from '../common/errors.js'

// Allocation guards. cel-go's cost tracker charges a call after it returns (interpreter/runtimecost.go
// Observe), so a call that builds a value from an input size (lists.range(n), a join of many
// references to one large string, a flatten of repeated sublists, copying list concatenation) would
// allocate before any limit applies. The functions that build such values ask here first, with the
// result's size and its cost in cost units, and the evaluation ends with cel-go's cost-limit error
// when the budget cannot cover it: nothing is allocated past the budget.
//
// Evaluation is synchronous, so the running evaluation's meter is module state: Program sets it on
// entry and restores it on exit (a host function may start a nested evaluation).

/** cel-go's EvalCancelledError for the cost limit: not a CEL error value, so nothing absorbs it. */
export class CostLimitExceeded {
  readonly message = 'operation cancelled: actual cost limit exceeded'
}

/** The exact evaluator's frame: cost charged so far, the limit, and the units allocated through guards. */
export interface ExactMeter {
  cost: number
  readonly limit: number
  alloc: number
}

/**
 * The generated code's counter (`n` charged, `l` limit, `a` allocated). `n` lags: functions add their
 * local cost on return, so the remaining budget read from it is an upper bound. A guard that fails
 * there makes the generated code bail, and the exact evaluator re-runs and fails at the exact point.
 */
export interface FastMeter {
  n: number
  l: number
  a: number
}

/** The meter of the evaluation running now (at most one of the two is set). */
export const meter: { exact: ExactMeter | undefined; fast: FastMeter | undefined } = {
  exact: undefined,
  fast: undefined,
}

/**
 * The largest result (elements, code points or bytes) one call may build when the evaluation has no
 * cost limit (plain `kelp eval`): a hard stop instead of exhausting memory. cel-go has no such general
 * limit; 10,000,000 is the bound cel-go PR #1310 first proposed for lists.range.
 */
export const MAX_UNLIMITED_SIZE = 10_000_000

/**
 * The budget left: the limit less what was charged or allocated so far, whichever is more (a result
 * that is also charged counts once; one cel-go charges less than its size, or builds lazily where
 * kelp copies, still counts in full). Infinity without a limit.
 */
export function remainingBudget(): number {
  const f = meter.exact
  if (f !== undefined) return f.limit - Math.max(f.cost, f.alloc)
  const c = meter.fast
  if (c !== undefined) return c.l - Math.max(c.n, c.a)
  return Number.POSITIVE_INFINITY
}

/**
 * Before building a result of `size` units whose cost is `units` (what the tracker charges for it
 * after the call, or the size at the kind's rate when it charges less): throws the cost-limit error
 * when the budget left cannot cover it, else records the allocation. Without a limit, results over
 * MAX_UNLIMITED_SIZE are a CEL error (`<fn>: result size exceeds maximum allowed (M)`, after
 * lists.range's text in cel-go v0.29).
 *
 * Refused, the call is charged what cel-go's tracker charges for it (`charged`, by default `units`):
 * cel-go builds the value, then its observer adds the call's cost and stops there, so the cost the
 * evaluation reports (EvalDetails.ActualCost, `lists.range(1000000)` under the per-call limit: 1000011)
 * is the cost so far and the call's; kelp reaches the same figure without building anything.
 */
export function reserve(fn: string, size: number, units: number, charged = units): void {
  const f = meter.exact
  if (f !== undefined) {
    if (f.limit === Number.POSITIVE_INFINITY) {
      unlimited(fn, size)
      return
    }
    if (units > f.limit - Math.max(f.cost, f.alloc)) {
      f.cost += charged
      throw new CostLimitExceeded()
    }
    f.alloc = Math.max(f.cost, f.alloc) + units
    return
  }
  const c = meter.fast
  if (c !== undefined && c.l !== Number.POSITIVE_INFINITY) {
    if (units > c.l - Math.max(c.n, c.a)) throw new CostLimitExceeded()
    c.a = Math.max(c.n, c.a) + units
    return
  }
  unlimited(fn, size)
}

/**
 * For results built piece by piece (string.format): throws as reserve would for a result of this
 * size, without recording it (the caller reserves the final size once).
 */
export function checkGrowth(fn: string, size: number, units: number): void {
  const left = remainingBudget()
  if (left === Number.POSITIVE_INFINITY) unlimited(fn, size)
  else if (units > left) throw new CostLimitExceeded()
}

function unlimited(fn: string, size: number): void {
  // no size in the text: callers stop counting once past the maximum
  if (size > MAX_UNLIMITED_SIZE) throw evalError(`${fn}: result size exceeds maximum allowed (${MAX_UNLIMITED_SIZE})`)
}

/** The cost units of a string of `length` UTF-16 units: cel-go's traversal rate (0.1) per character. */
export function stringUnits(length: number): number {
  return Math.ceil(length * 0.1)
}
