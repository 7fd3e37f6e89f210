import { ErrorValue } from '../common/errors.js'
import { CelObject, Kind } from './base.js'

// Timestamps and durations with nanosecond precision (JS Date has milliseconds only), parsed,
// printed and combined exactly as cel-go v0.26 does with Go's time package:
// common/types/{timestamp,duration,string,int,overflow}.go and Go's time/format.go
// (time.Parse with time.RFC3339) and time/time.go (time.ParseDuration, Duration.Seconds).

/**
 * google.protobuf.Timestamp: seconds since the Unix epoch and nanoseconds in [0, 1e9). Range 0001-01-01..9999-12-31.
 * `offset` (seconds east of UTC) is the zone offset written in the parsed string: Go keeps it in the time.Time,
 * and `string(timestamp)` prints it; equality, ordering and the accessors ignore it.
 */
export class Timestamp extends CelObject {
  constructor(
    readonly seconds: number,
    readonly nanos: number,
    readonly offset = 0,
  ) {
    super()
  }
  override get kind(): Kind {
    return Kind.Timestamp
  }
}

/** google.protobuf.Duration as Go's time.Duration: int64 nanoseconds. */
export class Duration extends CelObject {
  constructor(readonly nanos: bigint) {
    super()
  }
  override get kind(): Kind {
    return Kind.Duration
  }
}

/** cel-go minUnixTime / maxUnixTime: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
export const MIN_UNIX_SECONDS = -62135596800
export const MAX_UNIX_SECONDS = 253402300799

// cel-go error texts (common/types/err.go; the conversion errors of string.go / int.go).
const TIMESTAMP_OVERFLOW = 'timestamp overflow'
const INT_OVERFLOW = 'integer overflow'
const STRING_TO_TIMESTAMP = "type conversion error from 'string' to 'google.protobuf.Timestamp'"
const STRING_TO_DURATION = "type conversion error from 'string' to 'google.protobuf.Duration'"
const INT_TO_DURATION = "type conversion error from 'int' to 'google.protobuf.Duration'"

const NS = 1_000_000_000
const NS_N = 1_000_000_000n
const SAFE_N = 9007199254740991n
const INT64_MIN = -9223372036854775808n
const INT64_MAX = 9223372036854775807n
const TWO_63 = 9223372036854775808n

// ---- civil calendar (proleptic Gregorian), integer arithmetic only (H. Hinnant's algorithms)

/** Days since 1970-01-01 of a civil date (month 1..12). */
export function daysFromCivil(y: number, m: number, d: number): number {
  if (m <= 2) y -= 1
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/**
 * The civil date of a day number, packed into one int (no allocation): `year * 512 + month * 32 + day`.
 * Unpack with `>> 9`, `(p >> 5) & 15` and `p & 31` (years within ±4 million).
 */
export function civilFromDays(days: number): number {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  return y * 512 + m * 32 + d
}

function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
}

function daysIn(m: number, y: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31
}

// ---- timestamp(string): Go time.Parse(time.RFC3339, s)

/** The digit at s[i] (0..9), or -1 (also past the end: charCodeAt gives NaN). */
function digitAt(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48
  return c >= 0 && c <= 9 ? c : -1
}

/** Two digits at s[i..i+2] as a number, or -1 (Go getnum(value, true)). */
function twoDigits(s: string, i: number): number {
  const a = digitAt(s, i)
  const b = digitAt(s, i + 1)
  return a < 0 || b < 0 ? -1 : a * 10 + b
}

/**
 * What Go's `time.Parse(time.RFC3339, s)` accepts, without cel-go's range check; undefined when Go rejects s.
 * That is Go's general layout parser (its RFC 3339 fast path accepts a subset of the same strings), so it is more
 * lenient than RFC 3339: the hour may have one digit, the fraction may follow `,` and have any length (digits past
 * the ninth are dropped, not rounded), zone offsets go up to `+24:00` / `+23:60`; `T` and `Z` must be upper case.
 */
export function parseRFC3339(s: string): Timestamp | undefined {
  const y0 = digitAt(s, 0)
  const y1 = digitAt(s, 1)
  const y2 = digitAt(s, 2)
  const y3 = digitAt(s, 3)
  if (y0 < 0 || y1 < 0 || y2 < 0 || y3 < 0 || s.charCodeAt(4) !== 45 /* - */) return undefined
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
  const month = twoDigits(s, 5)
  if (month < 1 || month > 12 || s.charCodeAt(7) !== 45) return undefined
  const day = twoDigits(s, 8) // validated against the month below, as Go does after parsing
  if (day < 0 || s.charCodeAt(10) !== 84 /* T */) return undefined
  let i = 11
  // layout "15": one or two digits
  let hour = digitAt(s, i)
  if (hour < 0) return undefined
  const h2 = digitAt(s, ++i)
  if (h2 >= 0) {
    hour = hour * 10 + h2
    i++
  }
  if (hour > 23 || s.charCodeAt(i) !== 58 /* : */) return undefined
  const minute = twoDigits(s, i + 1)
  if (minute < 0 || minute > 59 || s.charCodeAt(i + 3) !== 58) return undefined
  const second = twoDigits(s, i + 4)
  if (second < 0 || second > 59) return undefined
  i += 6
  let nanos = 0
  let c = s.charCodeAt(i)
  // a fraction after '.' or ',' (Go commaOrPeriod), only when a digit follows
  if ((c === 46 || c === 44) && digitAt(s, i + 1) >= 0) {
    let k = 0
    let d: number
    i++
    while ((d = digitAt(s, i)) >= 0) {
      if (k < 9) {
        nanos = nanos * 10 + d
        k++
      }
      i++
    }
    for (; k < 9; k++) nanos *= 10
  }
  let offset = 0
  c = s.charCodeAt(i)
  if (c === 90 /* Z */) {
    i++
  } else {
    if (s.length - i < 6 || s.charCodeAt(i + 3) !== 58) return undefined
    const oh = twoDigits(s, i + 1)
    const om = twoDigits(s, i + 4)
    if (oh < 0 || om < 0 || oh > 24 || om > 60) return undefined
    if (c === 43 /* + */) offset = (oh * 60 + om) * 60
    else if (c === 45 /* - */) offset = 0 - (oh * 60 + om) * 60
    else return undefined
    i += 6
  }
  if (i !== s.length || day < 1 || day > daysIn(month, year)) return undefined
  const local = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
  return new Timestamp(local - offset, nanos, offset)
}

/** `timestamp(string)` (cel-go String.ConvertToType): RFC 3339 within 0001..9999, or an ErrorValue. */
export function parseTimestamp(s: string): Timestamp {
  const t = parseRFC3339(s)
  if (t === undefined) throw new ErrorValue(STRING_TO_TIMESTAMP)
  if (t.seconds < MIN_UNIX_SECONDS || t.seconds > MAX_UNIX_SECONDS) throw new ErrorValue(TIMESTAMP_OVERFLOW)
  return t
}

/** `timestamp(int)`: Unix seconds, UTC (cel-go Int.ConvertToType). */
export function timestampFromUnix(seconds: number | bigint): Timestamp {
  if (typeof seconds === 'bigint' || seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) {
    throw new ErrorValue(TIMESTAMP_OVERFLOW)
  }
  return new Timestamp(seconds, 0)
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`
}

/** Go appendInt(b, x, 4): sign, then at least 4 digits. */
function pad4(n: number): string {
  const a = Math.abs(n)
  const s = a < 10 ? `000${a}` : a < 100 ? `00${a}` : a < 1000 ? `0${a}` : `${a}`
  return n < 0 ? `-${s}` : s
}

/** `.123` for 123000000 nanoseconds, '' for none (Go's `.999999999` layout element). */
function fraction(nanos: number): string {
  if (nanos === 0) return ''
  let s = String(nanos).padStart(9, '0')
  let end = 9
  while (s.charCodeAt(end - 1) === 48) end--
  if (end < 9) s = s.slice(0, end)
  return `.${s}`
}

/**
 * `string(timestamp)`: Go `t.Format(time.RFC3339Nano)` in the timestamp's own offset (`Z` when it is 0):
 * `2009-02-13T23:31:30Z`, `9999-12-31T23:59:59.999999999Z`, `2009-02-13T23:31:30.5+01:00`.
 */
export function formatTimestamp(t: Timestamp): string {
  const local = t.seconds + t.offset
  const days = Math.floor(local / 86400)
  const sod = local - days * 86400
  const p = civilFromDays(days)
  const date = `${pad4(p >> 9)}-${pad2((p >> 5) & 15)}-${pad2(p & 31)}`
  const time = `${pad2(Math.floor(sod / 3600))}:${pad2(Math.floor(sod / 60) % 60)}:${pad2(sod % 60)}`
  return `${date}T${time}${fraction(t.nanos)}${formatOffset(t.offset)}`
}

function formatOffset(offset: number): string {
  if (offset === 0) return 'Z'
  const minutes = Math.trunc(Math.abs(offset) / 60)
  return `${offset < 0 ? '-' : '+'}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`
}

// ---- duration(string): Go time.ParseDuration

/** Nanoseconds per unit of Go's unitMap, 0 for an unknown unit. */
function unitNanos(u: string): number {
  switch (u) {
    case 'ns':
      return 1
    case 'us':
    case 'µs': // U+00B5 micro sign
    case 'μs': // U+03BC Greek mu
      return 1e3
    case 'ms':
      return 1e6
    case 's':
      return 1e9
    case 'm':
      return 6e10
    case 'h':
      return 3.6e12
  }
  return 0
}

/**
 * Go `time.ParseDuration(s)`: the nanoseconds, or Go's error message (`time: invalid duration "1x"`,
 * `time: unknown unit "d" in duration "1d"`, `time: missing unit in duration "3"`).
 */
export function parseGoDuration(s: string): bigint | string {
  return parseDurationFast(s) ?? parseDurationExact(s)
}

/** `duration(string)`: Go ParseDuration, or cel-go's conversion error. */
export function parseDuration(s: string): Duration {
  const d = parseGoDuration(s)
  if (typeof d === 'string') throw new ErrorValue(STRING_TO_DURATION)
  return new Duration(d)
}

/** `duration(int)` is declared by cel-go but Int.ConvertToType has no duration case: it always fails. */
export function intToDuration(_: number | bigint): never {
  throw new ErrorValue(INT_TO_DURATION)
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/**
 * ParseDuration for well-formed inputs whose magnitudes stay below 2^53, with doubles (exact there, and the same
 * float64 fraction arithmetic as Go). Anything else, errors included, returns undefined for the exact path.
 */
function parseDurationFast(s: string): bigint | undefined {
  const n = s.length
  let i = 0
  let neg = false
  let c = s.charCodeAt(0)
  if (c === 45 || c === 43) {
    neg = c === 45
    i = 1
  }
  if (i >= n) return undefined
  if (i === n - 1 && s.charCodeAt(i) === 48) return 0n // Go's special case: a lone "0"
  let total = 0
  while (i < n) {
    let v = 0
    const vStart = i
    while ((c = s.charCodeAt(i) - 48) >= 0 && c <= 9) {
      v = v * 10 + c
      i++
    }
    const vDigits = i - vStart
    let f = 0
    let scale = 1
    let fDigits = 0
    if (s.charCodeAt(i) === 46) {
      i++
      while ((c = s.charCodeAt(i) - 48) >= 0 && c <= 9) {
        f = f * 10 + c
        scale *= 10
        fDigits++
        i++
      }
    }
    if (vDigits > 15 || fDigits > 15 || (vDigits === 0 && fDigits === 0)) return undefined
    // the unit runs to the next digit, '.' or the end
    const c1 = s.charCodeAt(i)
    let unit: number
    if (s.charCodeAt(i + 1) === 115 /* s */) {
      unit = c1 === 110 ? 1 : c1 === 117 || c1 === 0xb5 || c1 === 0x3bc ? 1e3 : c1 === 109 ? 1e6 : 0
      i += 2
    } else {
      unit = c1 === 115 ? 1e9 : c1 === 109 ? 6e10 : c1 === 104 ? 3.6e12 : 0
      i += 1
    }
    if (unit === 0) return undefined
    if (i < n) {
      c = s.charCodeAt(i)
      if (c !== 46 && !(c >= 48 && c <= 57)) return undefined
    }
    let seg = v * unit // exact when it stays a safe integer (rounding is monotonic)
    if (seg > MAX_SAFE) return undefined
    if (f > 0) seg += Math.trunc(f * (unit / scale))
    total += seg
    if (total > MAX_SAFE) return undefined
  }
  const r = BigInt(total)
  return neg ? -r : r
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57
}

/** A line-by-line port of Go's ParseDuration with uint64 arithmetic as bigint (wrap-around included). */
export function parseDurationExact(s: string): bigint | string {
  const n = s.length
  let i = 0
  let neg = false
  if (n > 0) {
    const c = s.charCodeAt(0)
    if (c === 45 || c === 43) {
      neg = c === 45
      i = 1
    }
  }
  if (i === n - 1 && s.charCodeAt(i) === 48) return 0n
  if (i === n) return invalidDuration(s)
  let d = 0n
  while (i < n) {
    let c = s.charCodeAt(i)
    if (!(c === 46 || isDigitCode(c))) return invalidDuration(s)
    // leadingInt: [0-9]*, overflow past 2^63 is an error
    let v = 0n
    const pl = i
    while (i < n && isDigitCode((c = s.charCodeAt(i)))) {
      if (v > TWO_63 / 10n) return invalidDuration(s)
      v = v * 10n + BigInt(c - 48)
      if (v > TWO_63) return invalidDuration(s)
      i++
    }
    const pre = i !== pl
    // leadingFraction: (\.[0-9]*)?, stops accumulating precision on overflow
    let f = 0n
    let scale = 1
    let post = false
    if (i < n && s.charCodeAt(i) === 46) {
      i++
      const fl = i
      let overflow = false
      while (i < n && isDigitCode((c = s.charCodeAt(i)))) {
        if (!overflow) {
          if (f > (TWO_63 - 1n) / 10n) overflow = true
          else {
            const y = f * 10n + BigInt(c - 48)
            if (y > TWO_63) overflow = true
            else {
              f = y
              scale *= 10
            }
          }
        }
        i++
      }
      post = i !== fl
    }
    if (!pre && !post) return invalidDuration(s)
    const us = i
    while (i < n) {
      c = s.charCodeAt(i)
      if (c === 46 || isDigitCode(c)) break
      i++
    }
    if (i === us) return `time: missing unit in duration ${goQuote(s)}`
    const u = s.slice(us, i)
    const unit = unitNanos(u)
    if (unit === 0) return `time: unknown unit ${goQuote(u)} in duration ${goQuote(s)}`
    const unitN = BigInt(unit)
    if (v > TWO_63 / unitN) return invalidDuration(s)
    v *= unitN
    if (f > 0n) {
      // float64 as in Go: v += uint64(float64(f) * (float64(unit) / scale))
      v += BigInt(Math.trunc(Number(f) * (unit / scale)))
      if (v > TWO_63) return invalidDuration(s)
    }
    d = BigInt.asUintN(64, d + v)
    if (d > TWO_63) return invalidDuration(s)
  }
  if (neg) return BigInt.asIntN(64, -d)
  if (d > TWO_63 - 1n) return invalidDuration(s)
  return d
}

function invalidDuration(s: string): string {
  return `time: invalid duration ${goQuote(s)}`
}

const utf8 = new TextEncoder()

/** The time package's quote(): `"` and `\` escaped, bytes of non-ASCII and control characters as `\xNN`. */
export function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (c >= 0x80 || c < 0x20) {
      for (const b of utf8.encode(ch)) out += `\\x${b.toString(16).padStart(2, '0')}`
    } else {
      if (c === 0x22 || c === 0x5c) out += '\\'
      out += ch
    }
  }
  return `${out}"`
}

// ---- string(duration): strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"

/**
 * Go's `float64(d / unit) + float64(d % unit) / unit` (Duration.Seconds, Minutes, Hours): a double, rounded the
 * way Go rounds it (e.g. the largest durations print as `9223372036.854776s`).
 */
function unitsFloat(nanos: bigint, unit: number): number {
  if (nanos >= -SAFE_N && nanos <= SAFE_N) {
    const x = Number(nanos)
    const r = x % unit
    return (x - r) / unit + r / unit
  }
  const u = BigInt(unit)
  return Number(nanos / u) + Number(nanos % u) / unit
}

/** `string(duration)`: seconds in shortest decimal form and `s`: `60s`, `1.5s`, `-0.000000001s`. */
export function formatDuration(d: Duration): string {
  return `${formatFixed(unitsFloat(d.nanos, NS))}s`
}

/** Go `strconv.FormatFloat(x, 'f', -1, 64)`: shortest round-trip digits, never an exponent. */
function formatFixed(x: number): string {
  const s = String(x)
  const e = s.indexOf('e')
  if (e < 0) return s
  // JS switches to exponent form below 1e-6 (durations never reach 1e21 seconds)
  const neg = s.charCodeAt(0) === 45
  const mantissa = s.slice(neg ? 1 : 0, e).replace('.', '')
  const exp = Number(s.slice(e + 1))
  const digits = exp < 0 ? `0.${'0'.repeat(-exp - 1)}${mantissa}` : mantissa.padEnd(exp + 1, '0')
  return neg ? `-${digits}` : digits
}

// ---- duration accessors (cel-go DurationGetHours, ...: Int(d.Hours()) truncates the double)

export function durationHours(d: Duration): number {
  return Math.trunc(unitsFloat(d.nanos, 3.6e12)) || 0
}
export function durationMinutes(d: Duration): number {
  return Math.trunc(unitsFloat(d.nanos, 6e10)) || 0
}
export function durationSeconds(d: Duration): number {
  return Math.trunc(unitsFloat(d.nanos, NS)) || 0
}
/** Go Duration.Milliseconds: integer division. */
export function durationMilliseconds(d: Duration): number {
  return Number(d.nanos / 1_000_000n)
}

// ---- arithmetic (cel-go common/types/overflow.go)

function checkedDuration(n: bigint): Duration {
  if (n > INT64_MAX || n < INT64_MIN) throw new ErrorValue(INT_OVERFLOW)
  return new Duration(n)
}

export function addDurations(a: Duration, b: Duration): Duration {
  return checkedDuration(a.nanos + b.nanos)
}

export function subtractDurations(a: Duration, b: Duration): Duration {
  return checkedDuration(a.nanos - b.nanos)
}

/** cel-go Duration.Negate (not reachable through a declared `-_` overload, but used by subtraction). */
export function negateDuration(d: Duration): Duration {
  return checkedDuration(-d.nanos)
}

/** timestamp + duration (addTimeDurationChecked): `timestamp overflow` outside 0001..9999; keeps the offset. */
export function addTimestampDuration(t: Timestamp, d: Duration): Timestamp {
  const dn = d.nanos
  let sec: number
  let nsec: number
  if (dn >= -SAFE_N && dn <= SAFE_N) {
    const x = Number(dn)
    nsec = x % NS
    sec = (x - nsec) / NS
  } else {
    sec = Number(dn / NS_N)
    nsec = Number(dn % NS_N)
  }
  sec += t.seconds
  nsec += t.nanos // in (-1e9, 2e9)
  if (nsec < 0) {
    sec -= 1
    nsec += NS
  } else if (nsec >= NS) {
    sec += 1
    nsec -= NS
  }
  if (sec < MIN_UNIX_SECONDS || sec > MAX_UNIX_SECONDS) throw new ErrorValue(TIMESTAMP_OVERFLOW)
  return new Timestamp(sec, nsec, t.offset)
}

/** timestamp - duration (subtractTimeDurationChecked): negates first, so the minimum duration is `integer overflow`. */
export function subtractTimestampDuration(t: Timestamp, d: Duration): Timestamp {
  if (d.nanos === INT64_MIN) throw new ErrorValue(INT_OVERFLOW)
  return addTimestampDuration(t, new Duration(-d.nanos))
}

/** timestamp - timestamp (subtractTimeChecked): `integer overflow` when the seconds do not fit int64 nanoseconds. */
export function subtractTimestamps(a: Timestamp, b: Timestamp): Duration {
  const sec = a.seconds - b.seconds
  const nsec = a.nanos - b.nanos
  if (sec >= -9e6 && sec <= 9e6) return new Duration(BigInt(sec * NS + nsec)) // < 2^53: exact
  const tsec = BigInt(sec) * NS_N
  if (tsec > INT64_MAX || tsec < INT64_MIN) throw new ErrorValue(INT_OVERFLOW)
  return checkedDuration(tsec + BigInt(nsec))
}
