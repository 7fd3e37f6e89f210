import type { Expr } from '../common/ast.js'
import type { Type } from '../types/types.js'
import type { CelValue } from '../values/values.js'

// What the static cost estimator (estimator.ts, cel-go checker/cost.go) and the run-time tracker
// (runtime.ts, interpreter/runtimecost.go) share, and what the Kubernetes cost tables (src/kube/cost.ts,
// src/kube/library/*) are written against: cel-go's common/cost.go constants, the size and cost
// ranges, the estimator's hooks and a call's run-time cost. Types and constants only, so that
// either side can import them without the other.

export const SelectAndIdentCost = 1
export const ConstCost = 0
export const ListCreateBaseCost = 10
/** common.StructCreateBaseCost: message construction (`T{...}`, through a provider's newValue). */
export const StructCreateBaseCost = 40
export const MapCreateBaseCost = 30
export const StringTraversalCostFactor = 0.1
export const RegexStringLengthCostFactor = 0.25

/**
 * The run-time cost of one call, from its arguments (receiver first) and result; `undefined` means
 * "no figure here" (cel-go's nil CallCost): the next library's entry, then the default 1, applies.
 */
/**
 * `overloadId`: the overload the checker resolved the call to, `''` when it left several (cel-go's
 * call.OverloadID(), which Kubernetes' CallCost reads for containsIP / containsCIDR); undefined when
 * the call was planned from an unchecked AST or resolved to one overload (the arguments then select it).
 */
export type RuntimeCost = (args: readonly CelValue[], result: CelValue, overloadId?: string) => number | undefined

/** A size range (code points of a string, bytes, list or map entries) or a cost range. */
export interface SizeEstimate {
  readonly min: bigint
  readonly max: bigint
}

/** cel-go's CostEstimate has the same shape and arithmetic as its SizeEstimate. */
export type CostEstimate = SizeEstimate

/** What an estimator sees of an expression node (cel-go's checker.AstNode). */
export interface AstNode {
  /**
   * The field path from the root variable: the variable name, then field names and `@items`,
   * `@values`, `@keys` (`@indices` for the index variable of a two-variable list comprehension);
   * undefined when the node is not reachable from a variable.
   */
  readonly path: readonly string[] | undefined
  /** The checked type of the node. */
  readonly type: Type
  /** The expression; undefined for synthetic nodes (a list's element type built by an estimator). */
  readonly expr: Expr | undefined
  /** The size derived from the expression itself (literals, sizes reported by calls), if known. */
  readonly computedSize: SizeEstimate | undefined
}

/** Sizes of values the expression cannot know (cel-go CostEstimator.EstimateSize). */
export interface SizeEstimator {
  estimateSize(node: AstNode): SizeEstimate | undefined
}

/** A call's own cost (its arguments are added by the estimator) and, optionally, its result size. */
export interface CallEstimate {
  readonly cost: CostEstimate
  readonly resultSize?: SizeEstimate
}

/** Passed to call estimators. The object is reused: read it during the call only. */
export interface EstimateContext {
  /** The function name as resolved by the checker (`sets.contains`, `_==_`, `startsWith`). */
  readonly function: string
  readonly overloadId: string
  /** The SizeEstimator's answer for the node (undefined without one). */
  estimateSize(node: AstNode): SizeEstimate | undefined
  /** The computed size, else the SizeEstimator's, else unknown [0, MaxUint64]. */
  sizeOf(node: AstNode): SizeEstimate
}

/**
 * A per-overload estimate (cel-go FunctionEstimator / CostEstimator.EstimateCallCost): `target` is
 * the receiver of member calls (undefined for global calls), `args` the other arguments. Undefined
 * means "no estimate here": the next estimator, then cel-go's own rules apply.
 */
export type CallEstimator = (
  target: AstNode | undefined,
  args: readonly AstNode[],
  ctx: EstimateContext,
) => CallEstimate | undefined
