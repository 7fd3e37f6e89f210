// Size and cost ranges of the static cost estimator: cel-go v0.26 checker/cost.go SizeEstimate and
// CostEstimate. Both are uint64 ranges whose arithmetic saturates at MaxUint64 (which also stands
// for "unbounded"), so they are held as bigints: every figure stays exact beyond 2^53.

import type { SizeEstimate } from './costs.js'

export const MAX_UINT64 = 18446744073709551615n
const TWO_TO_64 = 2 ** 64
const MASK_64 = (1n << 64n) - 1n

/** UnknownSizeEstimate: between 0 and MaxUint64. */
export const UNKNOWN_SIZE: SizeEstimate = Object.freeze({ min: 0n, max: MAX_UINT64 })
export const ZERO: SizeEstimate = Object.freeze({ min: 0n, max: 0n })
export const ONE: SizeEstimate = Object.freeze({ min: 1n, max: 1n })

export function fixed(n: bigint): SizeEstimate {
  return { min: n, max: n }
}

/** addUint64NoOverflow. */
export function addSat(x: bigint, y: bigint): bigint {
  const s = x + y
  return s > MAX_UINT64 ? MAX_UINT64 : s
}

/** multiplyUint64NoOverflow. */
export function mulSat(x: bigint, y: bigint): bigint {
  const p = x * y
  return p > MAX_UINT64 ? MAX_UINT64 : p
}

/** Go's plain uint64 arithmetic where cel-go does not guard it (wraps modulo 2^64). */
export function wrap64(x: bigint): bigint {
  return x & MASK_64
}

/**
 * multiplyByCostFactor: `ceil(float64(x) * f)` in float64, saturating. Number(bigint) rounds to
 * nearest-even exactly as Go's float64(uint64) conversion does, so the float steps agree.
 */
export function byFactor(x: bigint, f: number): bigint {
  const xf = Number(x)
  if (xf > 0 && f > 0 && xf > TWO_TO_64 / f) return MAX_UINT64
  const c = Math.ceil(xf * f)
  return c >= TWO_TO_64 ? MAX_UINT64 : BigInt(c)
}

export function add(a: SizeEstimate, b: SizeEstimate): SizeEstimate {
  return { min: addSat(a.min, b.min), max: addSat(a.max, b.max) }
}

export function multiply(a: SizeEstimate, b: SizeEstimate): SizeEstimate {
  return { min: mulSat(a.min, b.min), max: mulSat(a.max, b.max) }
}

/** MultiplyByCostFactor: each bound times the factor, rounded up. */
export function scale(a: SizeEstimate, f: number): SizeEstimate {
  return { min: byFactor(a.min, f), max: byFactor(a.max, f) }
}

/** The smaller of two uint64 values (Math.min does not take bigints). */
export function minU64(a: bigint, b: bigint): bigint {
  if (b < a) return b
  return a
}

export function maxU64(a: bigint, b: bigint): bigint {
  if (b > a) return b
  return a
}

/** Union: the range covering both. */
export function union(a: SizeEstimate, b: SizeEstimate): SizeEstimate {
  return { min: minU64(a.min, b.min), max: maxU64(a.max, b.max) }
}

export function sameRange(a: SizeEstimate, b: SizeEstimate): boolean {
  return a.min === b.min && a.max === b.max
}
