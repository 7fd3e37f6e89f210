import type { Env } from '../env.js'
import {
  type AstNode,
  type CallEstimate,
  type CallEstimator,
  type EstimateContext,
  ListCreateBaseCost,
  type SizeEstimate,
  StringTraversalCostFactor,
} from './costs.js'
import { add, fixed, MAX_UINT64, multiply, ONE, scale, wrap64 } from './estimate-size.js'

// Static estimates the cel-go v0.26 extension libraries register with cel.CostEstimatorOptions:
// ext/sets.go (estimateSetsCost) and ext/lists.go version 3 (estimateListSlice, ...). They are
// keyed by overload id, like checker.OverloadCostEstimate.

const LIST_CREATE = fixed(BigInt(ListCreateBaseCost))

/** ext/sets.go estimateSetsCost: size(a) * size(b) comparisons, times the factor, plus the call. */
function setsCost(factor: number): CallEstimator {
  return (_target, args, ctx) => {
    if (args.length !== 2) return undefined
    const cost = add(scale(multiply(ctx.sizeOf(args[0]!), ctx.sizeOf(args[1]!)), factor), ONE)
    return { cost }
  }
}

/** ext/lists.go nodeAsIntValue: an int literal argument (negative → 0), else the default. */
function literalUint(node: AstNode, dflt: bigint): bigint {
  const e = node.expr
  if (e === undefined || e.kind !== 'literal' || e.value.type !== 'int') return dflt
  const v = e.value.value
  return v < 0n ? 0n : v
}

/** estimateListCall with allocation: the result list's size times the factor, the call and the list. */
function allocatingList(factor: number, listSize: SizeEstimate): CallEstimate {
  return { cost: add(add(scale(listSize, factor), ONE), LIST_CREATE), resultSize: listSize }
}

const listSlice: CallEstimator = (target, args, ctx) => {
  if (target === undefined || args.length !== 2) return undefined
  const sz = ctx.sizeOf(target)
  const start = literalUint(args[0]!, 0n)
  const end = literalUint(args[1]!, sz.max)
  // Go subtracts uint64s unchecked.
  return allocatingList(1, fixed(wrap64(end - start)))
}

const listsRange: CallEstimator = (target, args) => {
  if (target !== undefined || args.length !== 1) return undefined
  return allocatingList(1, fixed(literalUint(args[0]!, MAX_UINT64)))
}

const listReverse: CallEstimator = (target, args, ctx) => {
  if (target === undefined || args.length !== 0) return undefined
  return allocatingList(1, ctx.sizeOf(target))
}

const listFlatten: CallEstimator = (target, args, ctx) => {
  if (target === undefined || args.length > 1) return undefined
  const depth = args.length === 1 ? literalUint(args[0]!, MAX_UINT64) : 1n
  return allocatingList(Number(depth), ctx.sizeOf(target))
}

/** O(n^2) with a factor of 2, like sets.contains on the list itself. */
const listDistinct: CallEstimator = (target, args, ctx) => {
  if (target === undefined || args.length !== 0) return undefined
  const sz = ctx.sizeOf(target)
  return allocatingList(2, multiply(sz, sz))
}

/** O(n^2) comparisons with a factor of 2, plus the traversal factor for strings and bytes. */
function sortCost(ctx: EstimateContext, node: AstNode, elem: string): CallEstimate {
  const sz = ctx.sizeOf(node)
  const factor = elem === 'string' || elem === 'bytes' ? 2 + StringTraversalCostFactor : 2
  return allocatingList(factor, multiply(sz, sz))
}

const listSort =
  (elem: string): CallEstimator =>
  (target, args, ctx) =>
    target === undefined || args.length !== 0 ? undefined : sortCost(ctx, target, elem)

/** sortBy's helper: the cost follows the key list (the argument). */
const listSortBy =
  (elem: string): CallEstimator =>
  (target, args, ctx) =>
    target === undefined || args.length !== 1 ? undefined : sortCost(ctx, args[0]!, elem)

/** ext/lists.go comparableTypes by type name, with their kind for the string / bytes factor. */
const COMPARABLE: readonly [string, string][] = [
  ['int', 'int'],
  ['uint', 'uint'],
  ['double', 'double'],
  ['bool', 'bool'],
  ['google.protobuf.Duration', 'duration'],
  ['google.protobuf.Timestamp', 'timestamp'],
  ['string', 'string'],
  ['bytes', 'bytes'],
]

const sets1 = setsCost(1)
// Equivalence may need two m*n containment checks.
const sets2 = setsCost(2)

/**
 * All extension estimators by overload id. The sets ids are cel-go's (`list_sets_contains_list`)
 * and kelp's declared ones (`sets_contains_list_list`), which differ.
 */
export const EXT_CALL_ESTIMATORS: Readonly<Record<string, CallEstimator>> = Object.freeze({
  list_sets_contains_list: sets1,
  list_sets_intersects_list: sets1,
  list_sets_equivalent_list: sets2,
  sets_contains_list_list: sets1,
  sets_intersects_list_list: sets1,
  sets_equivalent_list_list: sets2,
  list_slice: listSlice,
  list_flatten: listFlatten,
  list_flatten_int: listFlatten,
  lists_range: listsRange,
  list_reverse: listReverse,
  list_distinct: listDistinct,
  ...Object.fromEntries(
    COMPARABLE.flatMap(([name, kind]) => [
      [`list_${name}_sort`, listSort(kind)],
      [`list_${name}_sortByAssociatedKeys`, listSortBy(kind)],
    ]),
  ),
})

const byEnv = new WeakMap<ReadonlyMap<string, unknown>, Readonly<Record<string, CallEstimator>>>()

/** The extension estimators for the overloads an environment declares (cached per environment). */
export function extCallEstimators(env: Env): Readonly<Record<string, CallEstimator>> {
  let r = byEnv.get(env.functions)
  if (r === undefined) {
    const out: Record<string, CallEstimator> = {}
    for (const f of env.functions.values())
      for (const o of f.overloads) {
        const est = EXT_CALL_ESTIMATORS[o.id]
        if (est !== undefined) out[o.id] = est
      }
    r = Object.freeze(out)
    byEnv.set(env.functions, r)
  }
  return r
}
