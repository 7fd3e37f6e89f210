import { ErrorValue, noSuchOverload } from '../../cel/common/errors.js'
import { opaque } from '../../cel/types/types.js'
import { OpaqueValue } from '../../cel/values/values.js'

// A port of k8s.io/apimachinery pkg/api/resource.Quantity (quantity.go, amount.go, math.go,
// suffix.go; released v0.30–v0.37 for Neg / Sub, whose int64 negation wraps at mostNegative; master's
// "1000E" → "1e21" String fix)
// and of gopkg.in/inf.v0 Dec as Quantity uses it, wrapped as the CEL value `kubernetes.Quantity`
// (k8s.io/apiserver pkg/cel/quantity.go).
//
// A Quantity holds its value in one of Go's two representations, and the representation is
// observable: AsInt64 fails on the inf.Dec form and on negative scales ("1.000" is not an
// integer), AsApproximateFloat64 multiplies the stored mantissa by math.Pow10(exponent).
//   int64Amount: `v` (an int64, as bigint) × 10^`e` (`e` an int32 "Scale"), when `dec` is false;
//   inf.Dec:     `u` (unbounded) × 10^-`sc` (`sc` an int32 inf.Scale, "digits after the point").
// Go's int32 wrap-around of scales is reproduced with `| 0` where it decides a result.

export const QuantityTypeName = 'kubernetes.Quantity'
/** apiservercel.QuantityType (an object type named `kubernetes.Quantity`). */
export const QuantityType = opaque(QuantityTypeName)

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI'

// apimachinery's parse errors (quantity.go ErrFormatWrong, ErrNumeric, ErrSuffix), verbatim.
export const ErrFormatWrong =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
export const ErrNumeric = 'unable to parse numeric part of quantity'
export const ErrSuffix = "unable to parse quantity's suffix"
export type QuantityParseError = typeof ErrFormatWrong | typeof ErrNumeric | typeof ErrSuffix

/**
 * Raised instead of materialising a power of ten with more than MAX_POW10 digits (Go would build
 * it, taking seconds to minutes and gigabytes: such exponents only come from hostile input).
 */
export const ErrTooLarge = 'quantity exponent out of the supported range'
const MAX_POW10 = 100_000

const MAX_I64 = 9223372036854775807n
const MIN_I64 = -9223372036854775808n
/** Digits checked by the parser's int64 fast path (math.go maxInt64Factors). */
const MAX_INT64_FACTORS = 18
/** Nano: the finest scale a parsed quantity keeps. */
const NANO = -9

const P10: bigint[] = []
for (let i = 0, p = 1n; i <= 64; i++, p *= 10n) P10.push(p)

/** 10^k as a bigint (k ≥ 0), refusing absurd sizes. */
function pow10(k: number): bigint {
  if (k <= 64) return P10[k]!
  if (k > MAX_POW10) throw new ErrorValue(ErrTooLarge)
  return 10n ** BigInt(k)
}

function inI64(x: bigint): boolean {
  return x >= MIN_I64 && x <= MAX_I64
}

/** |x| has at most this many bits (hex digits × 4): a cheap magnitude bound. */
function bitBound(x: bigint): number {
  return (x < 0n ? -x : x).toString(16).length * 4
}

/** x / 10^k truncated and the remainder, without building 10^k when it exceeds |x|. */
function quoRemPow10(x: bigint, k: number): [bigint, bigint] {
  if (k > 64 && k > bitBound(x) * 0.30103 + 1) return [0n, x]
  const p = pow10(k)
  return [x / p, x % p]
}

/** Exact comparison of a × 10^ea with b × 10^eb. */
function cmpScaled(a: bigint, ea: number, b: bigint, eb: number): number {
  if (ea === eb) return a < b ? -1 : a > b ? 1 : 0
  const sa = a > 0n ? 1 : a < 0n ? -1 : 0
  const sb = b > 0n ? 1 : b < 0n ? -1 : 0
  if (sa !== sb) return sa > sb ? 1 : -1
  if (sa === 0) return 0
  const d = ea - eb
  if (d > 18 || d < -18) {
    // Far-apart exponents: settle by magnitude (log10 within 1.51 of the estimate) before scaling,
    // as Go's cmpDec does, so no huge power of ten is built.
    const ma = bitBound(a) * 0.30103 + ea
    const mb = bitBound(b) * 0.30103 + eb
    if (ma > mb + 2) return sa
    if (mb > ma + 2) return -sa
  }
  const x = d > 0 ? a * pow10(d) : a
  const y = d < 0 ? b * pow10(-d) : b
  return x < y ? -1 : x > y ? 1 : 0
}

// ---- math.go helpers (int64 arithmetic with overflow detection), on bigints

/** positiveScaleInt64: base × 10^scale, or null on int64 overflow. A negative (wrapped) scale returns base, as Go's loop does. */
function positiveScaleInt64(base: bigint, scale: number): bigint | null {
  if (base === 0n || scale <= 0) return base
  if (scale >= 19) return null
  const r = base * P10[scale]!
  return inI64(r) ? r : null
}

/** negativeScaleInt64: base / 10^scale rounded away from zero, and whether that was exact. */
function negativeScaleInt64(base: bigint, scale: number): [bigint, boolean] {
  if (scale <= 0 || base === 0n) return [base, true]
  const [q, r] = quoRemPow10(base, scale)
  if (r === 0n) return [q, true]
  return [base > 0n ? q + 1n : q - 1n, false]
}

/** removeInt64Factors: strips factors of `base` (mostNegative keeps its factors: Go's negation wraps). */
function removeInt64Factors(value: bigint, base: bigint): [bigint, number] {
  if (value === MIN_I64) return [value, 0]
  let r = value < 0n ? -value : value
  let times = 0
  while (r >= base && r % base === 0n) {
    r /= base
    times++
  }
  return [value < 0n ? -r : r, times]
}

/** removeBigIntFactors(d, 10): counted on the decimal string (Go divides in a loop; same result). */
function removeTens(d: bigint): [bigint, number] {
  if (d === 0n) return [d, 0]
  const s = d.toString()
  let end = s.length
  while (s.charCodeAt(end - 1) === 48) end--
  return end === s.length ? [d, 0] : [BigInt(s.slice(0, end)), s.length - end]
}

function removeBigFactors(d: bigint, base: bigint): [bigint, number] {
  let times = 0
  while (d !== 0n && d % base === 0n) {
    d /= base
    times++
  }
  return [d, times]
}

// ---- suffix.go

/** quantitySuffixer.constructBytes for base 10 (DecimalSI table, or DecimalExponent `e<n>`). */
function decimalSuffix(exponent: number, format: QuantityFormat): string | undefined {
  if (format === 'DecimalSI') {
    switch (exponent) {
      case -9:
        return 'n'
      case -6:
        return 'u'
      case -3:
        return 'm'
      case 0:
        return ''
      case 3:
        return 'k'
      case 6:
        return 'M'
      case 9:
        return 'G'
      case 12:
        return 'T'
      case 15:
        return 'P'
      case 18:
        return 'E'
    }
    return undefined
  }
  return exponent === 0 ? '' : `e${exponent}`
}

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']
/** 2^(10·i): the BinarySI multipliers, exact doubles (a variable `2 ** e` is slow in V8). */
const BINARY_MANTISSA = [1, 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40, 2 ** 50, 2 ** 60]
/** What strconv.ParseInt(s, 10, 64) accepts, before its range check. */
const SIGNED_DIGITS = /^[+-]?[0-9]+$/

// interpret's results, passed through module state to keep parsing allocation-free.
let sufBase = 10
let sufExp = 0
let sufFormat: QuantityFormat = 'DecimalSI'

/** The exponent of a one-letter DecimalSI suffix (n u m k M G T P E). */
function decimalSuffixExponent(c: number): number | undefined {
  switch (c) {
    case 110: // n
      return -9
    case 117: // u
      return -6
    case 109: // m
      return -3
    case 107: // k
      return 3
    case 77: // M
      return 6
    case 71: // G
      return 9
    case 84: // T
      return 12
    case 80: // P
      return 15
    case 69: // E
      return 18
  }
  return undefined
}

/** The power of two of a BinarySI suffix by its first letter (Ki Mi Gi Ti Pi Ei). */
function binarySuffixExponent(c: number): number | undefined {
  switch (c) {
    case 75: // K
      return 10
    case 77: // M
      return 20
    case 71: // G
      return 30
    case 84: // T
      return 40
    case 80: // P
      return 50
    case 69: // E
      return 60
  }
  return undefined
}

/** quantitySuffixer.interpret of str[start:end]: sets sufBase / sufExp / sufFormat, false when not a suffix. */
function interpret(str: string, start: number, end: number): boolean {
  sufBase = 10
  sufFormat = 'DecimalSI'
  const n = end - start
  if (n === 0) {
    sufExp = 0
    return true
  }
  const c = str.charCodeAt(start)
  if (n === 1) {
    const e = decimalSuffixExponent(c)
    if (e === undefined) return false
    sufExp = e
    return true
  }
  if (n === 2 && str.charCodeAt(start + 1) === 105 /* i */) {
    const e = binarySuffixExponent(c)
    if (e !== undefined) {
      sufBase = 2
      sufExp = e
      sufFormat = 'BinarySI'
      return true
    }
  }
  if (c === 69 || c === 101 /* E e */) {
    // strconv.ParseInt(s[1:], 10, 64), then Go's int32(parsed) truncation.
    const digits = str.slice(start + 1, end)
    if (!SIGNED_DIGITS.test(digits)) return false
    const v = BigInt(digits)
    if (!inI64(v)) return false
    sufExp = Number(BigInt.asIntN(32, v))
    sufFormat = 'DecimalExponent'
    return true
  }
  return false
}

// ---- parseQuantityString, as positions in the input (module state: one parse at a time)
let scanPositive = true
/** num is Go's synthesised "0" (no digit, or only zeros, before the point) */
let scanNumZero = false
let numStart = 0
let numEnd = 0
let denomStart = 0
let denomEnd = 0
let sufStart = 0
let sufEnd = 0
/** Go's `value` is str[0:valueEnd], or "0" when valueZero (the input was a signed run of zeros) */
let valueEnd = 0
let valueZero = false

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57
}

/** The letters a suffix may start with ("eEinumkKMGTP"). */
function isSuffixLetter(c: number): boolean {
  switch (c) {
    case 101: // e
    case 69: // E
    case 105: // i
    case 110: // n
    case 117: // u
    case 109: // m
    case 107: // k
    case 75: // K
    case 77: // M
    case 71: // G
    case 84: // T
    case 80: // P
      return true
  }
  return false
}

/** quantity.go parseQuantityString: splits sign, numerator, denominator and suffix; false on ErrFormatWrong. */
function scan(str: string): boolean {
  const end = str.length
  scanPositive = true
  scanNumZero = valueZero = false
  numStart = numEnd = denomStart = denomEnd = valueEnd = 0
  sufStart = sufEnd = end
  let pos = 0
  if (end > 0) {
    const c = str.charCodeAt(0)
    if (c === 45) {
      scanPositive = false
      pos++
    } else if (c === 43) pos++
  }
  // leading zeros
  while (pos < end && str.charCodeAt(pos) === 48) pos++
  if (pos >= end) {
    scanNumZero = valueZero = true
    return true
  }
  let i = pos
  while (i < end && isDigit(str.charCodeAt(i))) i++
  numStart = pos
  numEnd = i
  if (i >= end) {
    valueEnd = end
    return true
  }
  if (i === pos) scanNumZero = true
  pos = i
  if (str.charCodeAt(pos) === 46 /* . */) {
    pos++
    i = pos
    while (i < end && isDigit(str.charCodeAt(i))) i++
    denomStart = pos
    denomEnd = i
    if (i >= end) {
      valueEnd = end
      return true
    }
    pos = i
  }
  valueEnd = pos
  sufStart = pos
  i = pos
  while (i < end && isSuffixLetter(str.charCodeAt(i))) i++
  if (i < end) {
    const c = str.charCodeAt(i)
    if (c === 45 || c === 43) i++
    while (i < end && isDigit(str.charCodeAt(i))) i++
    // a character that is no exponent digit ends the input too early
    if (i < end) return false
  }
  return true
}

/** quantity.go parseQuantityString, for tests: the parts Go returns, or the error. */
export function parseQuantityString(
  str: string,
): { positive: boolean; value: string; num: string; denom: string; suffix: string } | QuantityParseError {
  if (!scan(str)) return ErrFormatWrong
  return {
    positive: scanPositive,
    value: valueZero ? '0' : str.slice(0, valueEnd),
    num: scanNumZero ? '0' : str.slice(numStart, numEnd),
    denom: str.slice(denomStart, denomEnd),
    suffix: str.slice(sufStart, sufEnd),
  }
}

/** The integer spelled by num and denom together (Go's `shifted`), for up to 15 digits: exact in a double. */
function shiftedNumber(str: string): number {
  let v = 0
  if (!scanNumZero) for (let i = numStart; i < numEnd; i++) v = v * 10 + str.charCodeAt(i) - 48
  for (let i = denomStart; i < denomEnd; i++) v = v * 10 + str.charCodeAt(i) - 48
  return v
}

/** inf.Dec SetString: `[+-]digits[.digits]` → [unscaled, scale], or null. */
function decSetString(s: string): [bigint, number] | null {
  let dp = -1
  let digits = 0
  const n = s.length
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c === 43 || c === 45) {
      if (i > 0) return null // a sign only comes first
    } else if (c === 46) {
      if (dp >= 0) return null
      dp = i
    } else if (isDigit(c)) digits++
    else return null
  }
  if (digits === 0) return null
  if (dp < 0) return [BigInt(s), 0]
  return [BigInt(s.slice(0, dp) + s.slice(dp + 1)), n - dp - 1]
}

// ---- Go's math.Pow10 (products of two table entries, not always correctly rounded)

const POW10TAB: number[] = []
for (let i = 0; i < 32; i++) POW10TAB.push(Number(`1e${i}`))
const POW10POS32 = [1, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288]
const POW10NEG32 = [1, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320]

export function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10POS32[n >>> 5]! * POW10TAB[n & 31]!
  if (n < 0 && n >= -323) return POW10NEG32[-n >>> 5]! / POW10TAB[-n & 31]!
  return n > 0 ? Number.POSITIVE_INFINITY : 0
}

/**
 * resource.Quantity as the CEL value `kubernetes.Quantity`. `add`, `sub` and `neg` return new
 * values; `cmp` may change the receiver's representation (never its value), as Go's does.
 */
export class Quantity extends OpaqueValue {
  /**
   * Set on the results of the CEL functions `add` / `sub`: Kubernetes returns those as a pointer
   * `*apiservercel.Quantity`, which `apiservercel.Quantity.Equal` does not accept as its argument,
   * so `x == <computed>` is `no such overload` while `<computed> == x` compares.
   */
  computed = false

  /** Internal: make values with parseQuantity, newQuantity, newScaledQuantity or newDecimalQuantity. */
  constructor(
    /** Go's Format: the suffix family String() uses. */
    public format: QuantityFormat,
    private v: bigint,
    private e: number,
    private dec: boolean,
    private u: bigint,
    private sc: number,
    /** The cached String() ('' until computed; the input itself when it was canonical). */
    private s: string,
  ) {
    super()
  }

  override get typeName(): string {
    return QuantityTypeName
  }
  /** The Go type Kubernetes holds it as: `quantity()` an apiservercel.Quantity, `add` / `sub` a pointer to one. */
  get goType(): string {
    return this.computed ? '*cel.Quantity' : 'cel.Quantity'
  }

  /** apiservercel.Quantity.Equal: numeric equality; the argument must be a `quantity()` value. */
  override equals(other: OpaqueValue): boolean {
    if (!(other instanceof Quantity) || other.computed) throw noSuchOverload()
    return this.compare(other) === 0
  }

  /** The stored representation (Go's int64Amount or inf.Dec), for tests and diagnostics. */
  get representation():
    | { kind: 'int64'; value: bigint; scale: number }
    | { kind: 'dec'; unscaled: bigint; scale: number } {
    return this.dec
      ? { kind: 'dec', unscaled: this.u, scale: this.sc }
      : { kind: 'int64', value: this.v, scale: this.e }
  }

  /** A copy with its own state (Go's DeepCopy). */
  clone(): Quantity {
    return new Quantity(this.format, this.v, this.e, this.dec, this.u, this.sc, this.s)
  }

  isZero(): boolean {
    return this.dec ? this.u === 0n : this.v === 0n
  }

  /** Sign: -1, 0 or 1. */
  sign(): number {
    const x = this.dec ? this.u : this.v
    return x > 0n ? 1 : x < 0n ? -1 : 0
  }

  /**
   * Cmp: -1, 0 or 1. As in Go, when either side is held as inf.Dec the receiver is converted to
   * inf.Dec in place (`q.AsDec()`), after which asInt64() fails: observable through CEL as
   * `q.compareTo(quantity('1.5Gi'))` followed by `q.isInteger()` on the same value.
   */
  cmp(y: Quantity): number {
    if (this.dec || y.dec) this.toDec()
    return this.compare(y)
  }

  /** CmpInt64 (no representation change). */
  cmpInt64(y: bigint): number {
    return this.dec ? cmpScaled(this.u, -this.sc, y, 0) : cmpScaled(this.v, this.e, y, 0)
  }

  /** The sum as a new Quantity (Go: DeepCopy, then Add). */
  add(y: Quantity): Quantity {
    const q = this.clone()
    q.addInPlace(y)
    return q
  }

  /** The difference as a new Quantity (Go: DeepCopy, then Sub). */
  sub(y: Quantity): Quantity {
    const q = this.clone()
    q.subInPlace(y)
    return q
  }

  /** The negation as a new Quantity (Go: DeepCopy, then Neg). */
  neg(): Quantity {
    const q = this.clone()
    q.negInPlace()
    return q
  }

  /** AsInt64: the exact int64 value, or undefined (inf.Dec form, negative scale, or overflow). */
  asInt64(): bigint | undefined {
    if (this.dec) return undefined
    if (this.e === 0) return this.v
    if (this.e < 0) return undefined
    return positiveScaleInt64(this.v, this.e) ?? undefined
  }

  /** AsApproximateFloat64: mantissa × math.Pow10(exponent), ±Inf beyond float64. */
  asApproximateFloat64(): number {
    const base = Number(this.dec ? this.u : this.v)
    const exponent = this.dec ? -this.sc | 0 : this.e
    return exponent === 0 ? base : base * goPow10(exponent)
  }

  /** String: the canonical form (cached), e.g. `1536Mi`, `1500m`, `1e3`. */
  override toString(): string {
    if (this.s === '') this.s = this.canonicalize()
    return this.s
  }

  // ---- internals

  /** Exact comparison without touching either representation. */
  private compare(y: Quantity): number {
    const a = this.dec ? this.u : this.v
    const ea = this.dec ? -this.sc : this.e
    const b = y.dec ? y.u : y.v
    const eb = y.dec ? -y.sc : y.e
    return cmpScaled(a, ea, b, eb)
  }

  /** ToDec: switch to the inf.Dec representation (int64Amount.AsDec: scale negated as an int32). */
  private toDec(): void {
    if (this.dec) return
    this.dec = true
    this.u = this.v
    this.sc = -this.e | 0
    this.v = 0n
    this.e = 0
  }

  /** int64Amount.Add: false (and unchanged) when the int64 result would overflow. */
  private intAdd(bv: bigint, be: number): boolean {
    if (bv === 0n) return true
    if (this.v === 0n) {
      this.v = bv
      this.e = be
      return true
    }
    let c: bigint
    if (this.e === be) {
      c = this.v + bv
      if (!inI64(c)) return false
    } else if (this.e > be) {
      const a = positiveScaleInt64(this.v, (this.e - be) | 0)
      if (a === null) return false
      c = a + bv
      if (!inI64(c)) return false
      this.e = be
    } else {
      const b = positiveScaleInt64(bv, (be - this.e) | 0)
      if (b === null) return false
      c = this.v + b
      if (!inI64(c)) return false
    }
    this.v = c
    return true
  }

  /**
   * int64Amount.Sub: Add of `-b.value`, negated as Go negates an int64, so -mostNegative wraps to
   * mostNegative (1 - mostNegative is mostNegative + 1, not 2^63 + 1: released apimachinery, v0.30–v0.37).
   */
  private intSub(bv: bigint, be: number): boolean {
    return this.intAdd(negI64(bv), be)
  }

  /** inf.Dec Add / Sub: aligned on the larger inf scale. */
  private decAdd(y: Quantity, negate: boolean): void {
    let yu = y.dec ? y.u : y.v
    const ysc = y.dec ? y.sc : -y.e | 0
    if (negate) yu = -yu
    if (this.sc === ysc) {
      this.u += yu
    } else if (this.sc > ysc) {
      this.u += yu * pow10(this.sc - ysc)
    } else {
      this.u = this.u * pow10(ysc - this.sc) + yu
      this.sc = ysc
    }
  }

  private addInPlace(y: Quantity): void {
    this.s = ''
    if (!this.dec && !y.dec) {
      if (this.v === 0n) this.format = y.format
      if (this.intAdd(y.v, y.e)) return
    } else if (this.isZero()) {
      this.format = y.format
    }
    this.toDec()
    this.decAdd(y, false)
  }

  /** Quantity.Sub: the int64 path when both are int64 amounts and it does not overflow, else inf.Dec. */
  private subInPlace(y: Quantity): void {
    this.s = ''
    if (this.isZero()) this.format = y.format
    if (!this.dec && !y.dec && this.intSub(y.v, y.e)) return
    this.toDec()
    this.decAdd(y, true)
  }

  /** Quantity.Neg: an int64 amount negated as Go negates an int64 (mostNegative stays mostNegative). */
  private negInPlace(): void {
    this.s = ''
    if (!this.dec) {
      this.v = negI64(this.v)
      return
    }
    this.u = -this.u
  }

  /** CanonicalizeBytes: number and suffix. */
  private canonicalize(): string {
    if (this.isZero()) return '0'
    let format = this.format
    switch (format) {
      case 'DecimalExponent':
      case 'DecimalSI':
        break
      case 'BinarySI':
        // Small values and values that are not whole numbers are shown in DecimalSI.
        if (this.cmpInt64(-1024n) > 0 && this.cmpInt64(1024n) < 0) format = 'DecimalSI'
        else if (this.asScale0()) {
          const number = base1024()
          return number + (BINARY_SUFFIXES[r1024Times] ?? '')
        } else format = 'DecimalSI'
        break
      default:
        format = 'DecimalExponent'
    }
    const [number, exponent] = this.dec ? decCanonicalBytes(this.u, this.sc) : intCanonicalBytes(this.v, this.e)
    // DecimalSI has no suffix beyond E (10^18): the exponent form takes over (master's fix of "1000E").
    return number + (decimalSuffix(exponent, format) ?? decimalSuffix(exponent, 'DecimalExponent'))
  }

  /**
   * AsScale(0): the value rounded up (away from zero) to a whole number, left in the r0* state;
   * false when that lost precision.
   */
  private asScale0(): boolean {
    if (!this.dec) {
      r0Int = true
      if (this.e >= 0) {
        r0Mantissa = this.v
        r0Exponent = this.e
        return true
      }
      const [r, exact] = negativeScaleInt64(this.v, -this.e)
      r0Mantissa = r
      r0Exponent = 0
      return exact
    }
    // inf.Dec Round(x, 0, RoundUp)
    r0Int = false
    r0Exponent = 0
    if (this.sc <= 0) {
      r0Mantissa = this.u * pow10(-this.sc)
      return true
    }
    const [q, r] = quoRemPow10(this.u, this.sc)
    r0Mantissa = r === 0n ? q : this.u > 0n ? q + 1n : q - 1n
    return r === 0n
  }
}

// The AsScale(0) result CanonicalizeBytes formats in base 1024 (int64Amount or inf.Dec).
let r0Int = true
let r0Mantissa = 0n
let r0Exponent = 0
let r1024Times = 0

/**
 * AsCanonicalBase1024Bytes of the AsScale(0) result: int64Amount.AsScaledInt64(0), falling back to
 * inf.Dec on overflow, then removeInt64Factors / removeBigIntFactors by 1024 (times in r1024Times).
 */
function base1024(): string {
  let amount: bigint
  if (r0Int) {
    const value = positiveScaleInt64(r0Mantissa, r0Exponent)
    if (value !== null) [amount, r1024Times] = removeInt64Factors(value, 1024n)
    else [amount, r1024Times] = removeBigFactors(r0Mantissa * pow10(r0Exponent), 1024n)
  } else {
    ;[amount, r1024Times] = removeBigFactors(r0Mantissa, 1024n)
  }
  return amount.toString()
}

/** int64Amount.AsCanonicalBytes: digits and a base-10 exponent that is a multiple of 3. */
function intCanonicalBytes(v: bigint, e: number): [string, number] {
  const [amount, times] = removeInt64Factors(v, 10n)
  const exponent = (e + times) | 0
  const m = exponent % 3
  const factor = m === 1 || m === -2 ? 10n : m === 2 || m === -1 ? 100n : 1n
  const scaled = amount * factor
  // int64MultiplyScale10/100 overflow: the inf.Dec form takes over.
  if (!inI64(scaled)) return decCanonicalBytes(v, -e | 0)
  return [scaled.toString(), factor === 1n ? exponent : factor === 10n ? exponent - 1 : exponent - 2]
}

/** infDecAmount.AsCanonicalBytes. */
function decCanonicalBytes(u: bigint, sc: number): [string, number] {
  let [amount, times] = removeTens(u)
  let exponent = (-sc + times) | 0
  while (exponent % 3 !== 0) {
    amount *= 10n
    exponent--
  }
  return [amount.toString(), exponent]
}

/** Go's `-x` on an int64: two's complement, so -mostNegative is mostNegative. */
function negI64(x: bigint): bigint {
  return x === MIN_I64 ? x : -x
}

function intQuantity(format: QuantityFormat, value: bigint, scale: number, s = ''): Quantity {
  return new Quantity(format, value, scale, false, 0n, 0, s)
}

function decQuantity(format: QuantityFormat, unscaled: bigint, infScale: number): Quantity {
  return new Quantity(format, 0n, 0, true, unscaled, infScale, '')
}

/**
 * resource.ParseQuantity: the Quantity, or apimachinery's error text. Allocation-light: inputs
 * already in canonical form keep the input as their String().
 */
export function parseQuantity(str: string): Quantity | QuantityParseError {
  if (str.length === 0) return ErrFormatWrong
  if (str === '0') return intQuantity('DecimalSI', 0n, 0, '0')
  if (!scan(str)) return ErrFormatWrong
  if (!interpret(str, sufStart, sufEnd)) return ErrSuffix
  const numLen = scanNumZero ? 1 : numEnd - numStart
  const denomLen = denomEnd - denomStart
  const exponent = sufExp
  let format = sufFormat

  let precision: number
  let scale = 0
  let mantissa = 1
  if (format === 'BinarySI') {
    if (exponent >= 0 && denomLen === 0) {
      mantissa = BINARY_MANTISSA[exponent / 10]!
      // 1Mi (2^20) has ~6 digits of decimal precision: exponent*3/10 digits (float32 in Go, exact here)
      precision = 15 - numLen - (exponent * 3) / 10 - 1
    } else {
      precision = -1
    }
  } else {
    scale = exponent
    precision = MAX_INT64_FACTORS - (numLen + denomLen)
  }

  if (precision >= 0) {
    scale = (scale - denomLen) | 0
    if (scale >= NANO) {
      // The precision rule keeps value × mantissa within int64 (Go's int64Multiply never fails
      // here), and below 2^53 whenever there are at most 15 digits: then doubles are exact.
      const digits = numLen + denomLen
      // An input already in canonical form is kept as the String() of the result.
      let canonical: boolean
      let result: bigint
      if (digits <= 15) {
        const value = shiftedNumber(str)
        const r = value * mantissa
        result = BigInt(scanPositive ? r : -r)
        canonical =
          format === 'BinarySI'
            ? value % 8 !== 0
            : scale % 3 === 0 && !(digits >= 3 && value % 1000 === 0) && !scanNumZero
      } else {
        const shifted = (scanNumZero ? '0' : str.slice(numStart, numEnd)) + str.slice(denomStart, denomEnd)
        const value = BigInt(shifted)
        result = scanPositive ? value : -value
        canonical = scale % 3 === 0 && !shifted.endsWith('000') && !scanNumZero
      }
      return intQuantity(format, result, scale, canonical ? str : '')
    }
  }

  const parsed = decSetString(valueZero ? '0' : str.slice(0, valueEnd))
  if (parsed === null) return ErrNumeric
  let [u, sc] = parsed
  if (sufBase === 10) sc = (sc + (-exponent | 0)) | 0
  else u *= 1n << BigInt(exponent)

  const negative = u < 0n
  if (negative) u = -u
  // Round non-zero values up to nano ("if you want some resources, you should get some").
  if (u !== 0n) {
    const shift = (9 - sc) | 0
    if (shift > 0) u *= pow10(shift)
    else if (shift < 0) {
      const [q, r] = quoRemPow10(u, -shift)
      u = r === 0n ? q : q + 1n
    }
    sc = 9
  }
  if (format === 'BinarySI') {
    // Binary quantities are capped at MaxInt64; a fraction of 1 is shown in DecimalSI.
    if (cmpScaled(u, -sc, MAX_I64, 0) > 0) {
      u = MAX_I64
      sc = 0
    }
    if (u !== 0n && cmpScaled(u, -sc, 1n, 0) < 0) format = 'DecimalSI'
  }
  return decQuantity(format, negative ? -u : u, sc)
}

/** MustParse: the Quantity, or a thrown Error (for constants and tests). */
export function mustParseQuantity(str: string): Quantity {
  const q = parseQuantity(str)
  if (typeof q === 'string') throw new Error(`cannot parse '${str}': ${q}`)
  return q
}

/** NewQuantity: value × 10^0 in the given format. */
export function newQuantity(value: bigint, format: QuantityFormat): Quantity {
  return intQuantity(format, value, 0)
}

/** NewMilliQuantity: value × 10^-3. */
export function newMilliQuantity(value: bigint, format: QuantityFormat): Quantity {
  return intQuantity(format, value, -3)
}

/** NewScaledQuantity: value × 10^scale (DecimalSI unless a format is given). */
export function newScaledQuantity(value: bigint, scale: number, format: QuantityFormat = 'DecimalSI'): Quantity {
  return intQuantity(format, value, scale)
}

/** NewDecimalQuantity of inf.NewDec(unscaled, infScale): unscaled × 10^-infScale, held as inf.Dec. */
export function newDecimalQuantity(unscaled: bigint, infScale: number, format: QuantityFormat): Quantity {
  return decQuantity(format, unscaled, infScale)
}
