import { ErrorValue } from '../common/errors.js'
import { mkInt, Uint } from '../values/values.js'

// Checked int64 / uint64 arithmetic as cel-go's common/types/overflow.go does it. CEL ints are
// plain numbers inside ±(2^53-1) and bigints outside (values.ts), so every operation first tries
// the number fast path and falls back to exact bigint math plus an int64 range check.

export const INT64_MIN = -9223372036854775808n
export const INT64_MAX = 9223372036854775807n
export const UINT64_MAX = 18446744073709551615n
const SAFE_MAX = 9007199254740991n
const TWO_63 = 2 ** 63 // exact doubles: the int64 / uint64 range bounds
const TWO_64 = 2 ** 64

/** An int value: a safe-integer number or a bigint outside the safe range. */
export type Int = number | bigint

// cel-go common/types/err.go texts.
const INT_OVERFLOW = 'integer overflow'
const UINT_OVERFLOW = 'unsigned integer overflow'
const DIVIDE_BY_ZERO = 'division by zero'
const MODULUS_BY_ZERO = 'modulus by zero'

export function intOverflow(): ErrorValue {
  return new ErrorValue(INT_OVERFLOW)
}
export function uintOverflow(): ErrorValue {
  return new ErrorValue(UINT_OVERFLOW)
}

/** Range-checks an exact int result and normalises it (number when safe). */
export function checkedInt(v: bigint): Int {
  if (v > INT64_MAX || v < INT64_MIN) throw intOverflow()
  return mkInt(v)
}

/** Range-checks an exact uint result. */
export function checkedUint(v: bigint): Uint {
  if (v > UINT64_MAX || v < 0n) throw uintOverflow()
  return new Uint(v)
}

// A sum/difference/product of safe integers is exact whenever the rounded double result is itself
// a safe integer (rounding is monotonic and 2^53 is representable), so the fast paths only need
// Number.isSafeInteger on the result. `+ 0` turns -0 into 0 (ints are never -0).

export function addInt(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b
    if (Number.isSafeInteger(r)) return r
  }
  return checkedInt(BigInt(a) + BigInt(b))
}

export function subtractInt(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b
    if (Number.isSafeInteger(r)) return r
  }
  return checkedInt(BigInt(a) - BigInt(b))
}

export function multiplyInt(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b
    if (Number.isSafeInteger(r)) return r + 0
  }
  return checkedInt(BigInt(a) * BigInt(b))
}

/** Go integer division: truncates toward zero; MinInt64 / -1 overflows. */
export function divideInt(a: Int, b: Int): Int {
  if (b === 0) throw new ErrorValue(DIVIDE_BY_ZERO)
  if (typeof a === 'number' && typeof b === 'number') {
    // |a| < 2^53, so the rounded quotient never crosses an integer: trunc is exact.
    return Math.trunc(a / b) + 0
  }
  return checkedInt(BigInt(a) / BigInt(b))
}

/** Go remainder: takes the sign of the dividend; MinInt64 % -1 overflows (cel-go checks it). */
export function moduloInt(a: Int, b: Int): Int {
  if (b === 0) throw new ErrorValue(MODULUS_BY_ZERO)
  if (typeof a === 'number' && typeof b === 'number') return (a % b) + 0
  if (b === -1 && a === INT64_MIN) throw intOverflow()
  return mkInt(BigInt(a) % BigInt(b))
}

export function negateInt(a: Int): Int {
  if (typeof a === 'number') return -a + 0
  if (a === INT64_MIN) throw intOverflow()
  return mkInt(-a)
}

export function addUint(a: Uint, b: Uint): Uint {
  const r = a.value + b.value
  if (r > UINT64_MAX) throw uintOverflow()
  return new Uint(r)
}

export function subtractUint(a: Uint, b: Uint): Uint {
  if (b.value > a.value) throw uintOverflow()
  return new Uint(a.value - b.value)
}

export function multiplyUint(a: Uint, b: Uint): Uint {
  const r = a.value * b.value
  if (r > UINT64_MAX) throw uintOverflow()
  return new Uint(r)
}

export function divideUint(a: Uint, b: Uint): Uint {
  if (b.value === 0n) throw new ErrorValue(DIVIDE_BY_ZERO)
  return new Uint(a.value / b.value)
}

export function moduloUint(a: Uint, b: Uint): Uint {
  if (b.value === 0n) throw new ErrorValue(MODULUS_BY_ZERO)
  return new Uint(a.value % b.value)
}

// Conversions between the integer kinds and doubles (overflow.go *Checked / *Lossless helpers).

/** An int as a JS double, rounded to nearest as Go's float64(int64) does. */
export function intToNumber(v: Int): number {
  return typeof v === 'number' ? v : Number(v)
}

/** int(double): NaN, ±Inf and values outside (-2^63, 2^63) are `integer overflow`; truncates. */
export function doubleToInt(d: number): Int {
  // -2^63 itself is rejected too (cel-go compares v <= float64(MinInt64)).
  if (!(d > -TWO_63 && d < TWO_63)) throw intOverflow()
  const t = Math.trunc(d)
  return Number.isSafeInteger(t) ? t + 0 : BigInt(t)
}

/** uint(double): NaN, ±Inf, negatives and values >= 2^64 are `unsigned integer overflow`. */
export function doubleToUint(d: number): Uint {
  if (!(d >= 0 && d < TWO_64)) throw uintOverflow()
  return new Uint(BigInt(Math.trunc(d)))
}

/** uint(int): negative values are `unsigned integer overflow`. */
export function intToUint(v: Int): Uint {
  if (v < 0) throw uintOverflow()
  return new Uint(BigInt(v))
}

/** int(uint): values above MaxInt64 are `integer overflow`. */
export function uintToInt(u: Uint): Int {
  if (u.value > INT64_MAX) throw intOverflow()
  return u.value <= SAFE_MAX ? Number(u.value) : u.value
}

/**
 * doubleToInt64Lossless: the int a double denotes exactly, or undefined (fractional, NaN, ±Inf,
 * outside (-2^63, 2^63)). Used for list indices and map look-ups with double keys.
 */
export function doubleToIntLossless(d: number): Int | undefined {
  if (!Number.isInteger(d) || !(d > -TWO_63 && d < TWO_63)) return undefined
  return Number.isSafeInteger(d) ? d + 0 : BigInt(d)
}
