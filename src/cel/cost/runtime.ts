import { codePointLength } from '../values/strings.js'
import type { CelValue } from '../values/values.js'
import { CelMap, Kind, kindOf } from '../values/values.js'

// Run-time cost, as cel-go's interpreter/runtimecost.go counts it (cel-go common/cost.go constants):
// identifiers, field selections and qualifiers 1, constants 0, list literals 10, map literals 30,
// function calls 1 unless a size-dependent formula below applies. The evaluator charges these per
// node it evaluates, so short-circuited branches cost nothing, exactly as cel-go's observer sees it.

export const SelectAndIdentCost = 1
export const ConstCost = 0
export const ListCreateBaseCost = 10
export const MapCreateBaseCost = 30
export const StringTraversalCostFactor = 0.1
export const RegexStringLengthCostFactor = 0.25

/** The run-time cost of one call, from its arguments (receiver first) and result. */
export type RuntimeCost = (args: readonly CelValue[], result: CelValue) => number

/** cel-go's CostTracker.actualSize: strings count code points, bytes bytes, lists and maps elements; others 1. */
export function actualSize(v: CelValue): number {
  if (typeof v === 'string') return v.length <= 1 ? v.length : codePointLength(v)
  if (Array.isArray(v)) return v.length
  if (v instanceof Uint8Array) return v.length
  if (v instanceof CelMap) return v.size
  if (typeof v === 'object' && v !== null && kindOf(v) === Kind.Map) return Object.keys(v).length
  return 1
}

const traversal = (n: number) => Math.ceil(n * StringTraversalCostFactor)

/** `ceil(min(size(a), size(b)) * 0.1)`: ==, != and string/bytes ordering (scalars cost 1). */
export function minSizeCost(a: CelValue, b: CelValue): number {
  return traversal(Math.min(actualSize(a), actualSize(b)))
}

function isStringOrBytes(v: CelValue): boolean {
  return typeof v === 'string' || v instanceof Uint8Array
}

const ordering: RuntimeCost = ([a, b]) =>
  isStringOrBytes(a as CelValue) && isStringOrBytes(b as CelValue) ? minSizeCost(a as CelValue, b as CelValue) : 1

/**
 * cel-go's default table (CostTracker.costCall), by function name; the argument kinds pick the
 * overload exactly as the overload ids in cel-go's switch do.
 */
export const standardRuntimeCosts: Readonly<Record<string, RuntimeCost>> = {
  startsWith: ([s]) => traversal(actualSize(s as CelValue)),
  endsWith: ([s]) => traversal(actualSize(s as CelValue)),
  bytes: ([s]) => (typeof s === 'string' ? traversal(actualSize(s)) : 1),
  string: ([b]) => (b instanceof Uint8Array ? traversal(b.length) : 1),
  '@in': ([, c]) => (Array.isArray(c) ? c.length : 1),
  '_==_': ([a, b]) => minSizeCost(a as CelValue, b as CelValue),
  '_!=_': ([a, b]) => minSizeCost(a as CelValue, b as CelValue),
  '_<_': ordering,
  '_<=_': ordering,
  '_>_': ordering,
  '_>=_': ordering,
  '_+_': ([a, b]) =>
    isStringOrBytes(a as CelValue) && isStringOrBytes(b as CelValue)
      ? traversal(actualSize(a as CelValue) + actualSize(b as CelValue))
      : 1,
  matches: ([s, re]) =>
    Math.ceil((1 + actualSize(s as CelValue)) * StringTraversalCostFactor) *
    Math.ceil(actualSize(re as CelValue) * RegexStringLengthCostFactor),
  contains: ([s, sub]) =>
    typeof s === 'string' ? traversal(actualSize(s)) * traversal(actualSize(sub as CelValue)) : 1,
}
