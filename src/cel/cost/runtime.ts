import { ErrorValue } from '../common/errors.js'
import { codePointLength, countCodePoints } from '../values/strings.js'
import type { CelValue } from '../values/values.js'
import { CelMap, Kind, kindOf, MapValue, Optional } from '../values/values.js'
import { RegexStringLengthCostFactor, type RuntimeCost, StringTraversalCostFactor } from './costs.js'

// Run-time cost, as cel-go's interpreter/runtimecost.go counts it (common/cost.go constants, costs.ts):
// identifiers, field selections and qualifiers 1, constants 0, list literals 10, map literals 30,
// function calls 1 unless a size-dependent formula below applies. The evaluator charges these per
// node it evaluates, so short-circuited branches cost nothing, exactly as cel-go's observer sees it.

/** cel-go's CostTracker.actualSize: strings count code points, bytes bytes, lists and maps elements; others 1. */
export function actualSize(v: CelValue): number {
  // An error argument (cel-go charges a call whose argument failed): not a Sizer, so 1.
  if (v instanceof ErrorValue) return 1
  if (typeof v === 'string') return v.length <= 1 ? v.length : codePointLength(v)
  if (Array.isArray(v)) return v.length
  if (v instanceof Uint8Array) return v.length
  if (v instanceof CelMap || v instanceof MapValue) return v.size
  if (typeof v === 'object' && v !== null) {
    // an optional with a value: its value's size (runtimecost.go actualSize, v0.26 and v0.29 alike)
    if (v instanceof Optional) return v.value === undefined ? 1 : actualSize(v.value)
    const k = kindOf(v)
    if (k === Kind.Map) return Object.keys(v).length
    // Library values that are Sizers in Go (Kubernetes IP, CIDR) report their own size.
    if (k === Kind.Opaque && typeof (v as { size?: unknown }).size === 'function')
      return (v as unknown as { size(): number }).size()
  }
  return 1
}

const traversal = (n: number) => Math.ceil(n * StringTraversalCostFactor)

/**
 * `ceil(size(v) * 0.1)`. A string of 1..10 UTF-16 units has 1..10 code points, so its cost is 1
 * without counting them (the common case: no scan on the hot path); a longer one is counted without
 * codePointLength's memo (countCodePoints says why).
 */
export function traversalCost(v: CelValue): number {
  if (typeof v === 'string') {
    const l = v.length
    return l === 0 ? 0 : l <= 10 ? 1 : traversal(countCodePoints(v))
  }
  return traversal(actualSize(v))
}

/** `ceil(min(size(a), size(b)) * 0.1)` with the same short-string shortcut. */
function minTraversal(a: CelValue, b: CelValue): number {
  if (typeof a === 'string' && typeof b === 'string') {
    const l = Math.min(a.length, b.length)
    if (l === 0) return 0
    if (l <= 10) return 1
  }
  return traversal(Math.min(actualSize(a), actualSize(b)))
}

/** startsWith / endsWith (cel-go v0.26) / bytes(string) / string(bytes): linear in the receiver. */
export function receiverTraversalCost(a: CelValue): number {
  return traversalCost(a)
}

/** startsWith / endsWith (cel-go v0.29): linear in the argument (the prefix or suffix). */
export function argTraversalCost(_s: CelValue, p: CelValue): number {
  return traversalCost(p)
}

/**
 * An operand that failed: the call is still charged by the formula of the overload the checker chose
 * (runtimecost.go costCall keys it by call.OverloadID()), with the error's size, 1 (actualSize: not a
 * Sizer). The formulas below take it as an operand of their kind.
 */
function failed(v: CelValue): boolean {
  return v instanceof ErrorValue
}

/** contains: `ceil(size(s) * 0.1) * ceil(size(sub) * 0.1)` for strings. */
export function containsCost(s: CelValue, sub: CelValue): number {
  return typeof s === 'string' || failed(s) ? traversalCost(s) * traversalCost(sub) : 1
}

/** matches: `ceil((1 + size(s)) * 0.1) * ceil(size(re) * 0.25)`. */
export function matchesCost(s: CelValue, re: CelValue): number {
  return (
    Math.ceil((1 + actualSize(s)) * StringTraversalCostFactor) * Math.ceil(actualSize(re) * RegexStringLengthCostFactor)
  )
}

/**
 * `x in L` that cel-go's OptOptimize turned into set membership (interpreter/decorators.go
 * maybeOptimizeSetMembership: evalSetMembership is not a call, so runtimecost.go charges nothing).
 */
export const setMembershipCost: RuntimeCost = () => 0

/** `in` on a list: the list's size. */
export function inCost(_v: CelValue, c: CelValue): number {
  return Array.isArray(c) ? c.length : 1
}

/** `ceil(min(size(a), size(b)) * 0.1)`: ==, != and string/bytes ordering (scalars cost 1). */
export function minSizeCost(a: CelValue, b: CelValue): number {
  return minTraversal(a, b)
}

function isStringOrBytes(v: CelValue): boolean {
  return typeof v === 'string' || v instanceof Uint8Array
}

/** `<`, `<=`, `>`, `>=`: size-dependent for strings and bytes, else 1. */
export function orderingCost(a: CelValue, b: CelValue): number {
  if (isStringOrBytes(a) && isStringOrBytes(b)) return minSizeCost(a, b)
  return (isStringOrBytes(a) || failed(a)) && (isStringOrBytes(b) || failed(b)) ? minSizeCost(a, b) : 1
}

/** `+`: size-dependent for strings and bytes (`ceil((size(a) + size(b)) * 0.1)`), else 1. */
export function addCost(a: CelValue, b: CelValue): number {
  if (isStringOrBytes(a) && isStringOrBytes(b)) return traversal(actualSize(a) + actualSize(b))
  return (isStringOrBytes(a) || failed(a)) && (isStringOrBytes(b) || failed(b))
    ? traversal(actualSize(a) + actualSize(b))
    : 1
}

const ordering: RuntimeCost = ([a, b]) => orderingCost(a as CelValue, b as CelValue)

/**
 * cel-go's default table (CostTracker.costCall), by function name; the argument kinds pick the
 * overload exactly as the overload ids in cel-go's switch do.
 */
export const standardRuntimeCosts: Readonly<Record<string, RuntimeCost>> = {
  startsWith: ([s]) => receiverTraversalCost(s as CelValue),
  endsWith: ([s]) => receiverTraversalCost(s as CelValue),
  bytes: ([s]) => (typeof s === 'string' ? traversalCost(s) : 1),
  string: ([b]) => (b instanceof Uint8Array ? traversal(b.length) : 1),
  '@in': ([v, c]) => inCost(v as CelValue, c as CelValue),
  '_==_': ([a, b]) => minSizeCost(a as CelValue, b as CelValue),
  '_!=_': ([a, b]) => minSizeCost(a as CelValue, b as CelValue),
  '_<_': ordering,
  '_<=_': ordering,
  '_>_': ordering,
  '_>=_': ordering,
  // The checker chose add_string / add_bytes but an operand is of another kind (a dyn that failed the
  // call): costCall keys the formula by call.OverloadID(), an operand that is no Sizer counts 1. The
  // evaluator passes the id on that failure path only.
  '_+_': ([a, b], _r, id) =>
    id === 'add_string' || id === 'add_bytes'
      ? traversal(actualSize(a as CelValue) + actualSize(b as CelValue))
      : addCost(a as CelValue, b as CelValue),
  matches: ([s, re]) => matchesCost(s as CelValue, re as CelValue),
  contains: ([s, sub]) => containsCost(s as CelValue, sub as CelValue),
  // The strings extension's `strings.quote(s)` (strings_quote) and `s.format(args)` (string_format):
  // linear in the string quoted / the format string.
  'strings.quote': ([s]) => traversalCost(s as CelValue),
  format: ([s]) => (typeof s === 'string' ? traversalCost(s) : undefined),
}

/**
 * cel-go v0.29's default table: startsWith / endsWith charge a traversal of the argument (the prefix
 * or suffix), no longer the receiver; the global `matches(s, re)` (overloads.Matches) is charged as
 * the member form.
 */
export const standardRuntimeCostsV029: Readonly<Record<string, RuntimeCost>> = {
  ...standardRuntimeCosts,
  startsWith: ([s, p]) => argTraversalCost(s as CelValue, p as CelValue),
  endsWith: ([s, p]) => argTraversalCost(s as CelValue, p as CelValue),
}

const relationalIds = (prefix: string) => [`${prefix}_string`, `${prefix}_bytes`]

/**
 * The overload ids of runtimecost.go costCall's switch (cel-go v0.26), by function name: the calls it
 * charges by formula. Any other overload of these functions, or a call the checker did not resolve to
 * one overload, costs 1.
 */
export const standardOverloadKeyedCosts: Readonly<Record<string, readonly string[]>> = {
  startsWith: ['starts_with_string'],
  endsWith: ['ends_with_string'],
  bytes: ['string_to_bytes'],
  string: ['bytes_to_string'],
  'strings.quote': ['strings_quote'],
  format: ['string_format'],
  '@in': ['in_list'],
  '_<_': relationalIds('less'),
  '_<=_': relationalIds('less_equals'),
  '_>_': relationalIds('greater'),
  '_>=_': relationalIds('greater_equals'),
  '_==_': ['equals'],
  '_!=_': ['not_equals'],
  '_+_': ['add_string', 'add_bytes'],
  matches: ['matches_string'],
  contains: ['contains_string'],
}

/** cel-go v0.29: `case overloads.Matches, overloads.MatchesString`. */
export const standardOverloadKeyedCostsV029: Readonly<Record<string, readonly string[]>> = {
  ...standardOverloadKeyedCosts,
  matches: ['matches', 'matches_string'],
}
