import { ErrorValue } from '../common/errors.js'

// Time zone arguments of the timestamp accessors (`ts.getHours('America/New_York')`, `ts.getHours('+05:30')`),
// resolved as cel-go v0.26 common/stdlib (inTimeZone) does: a string without ':' is an IANA name for Go's
// time.LoadLocation, one with ':' is `hours:minutes` read by strconv.Atoi. IANA offsets come from
// Intl.DateTimeFormat (the tz database bundled with ICU; offsets with seconds for local mean time),
// one cached formatter per zone.

/** A resolved zone: a fixed offset in seconds east of UTC, or an IANA zone. */
export type Zone = number | IanaZone

export class IanaZone {
  private lastSeconds = Number.NaN
  private lastOffset = 0
  /** A formatter whose output ends with the offset as `GMT+05:45`, `GMT-04:56:02` (LMT) or `GMT`. */
  constructor(private readonly fmt: Intl.DateTimeFormat) {}

  /** The UTC offset in seconds at the instant `seconds` (Unix). */
  offsetAt(seconds: number): number {
    if (seconds === this.lastSeconds) return this.lastOffset
    const s = this.fmt.format(seconds * 1000)
    let i = s.lastIndexOf('GMT') + 3
    let offset = 0
    if (i < s.length) {
      const negative = s.charCodeAt(i) !== 43 /* + */ // '-' or U+2212
      offset = twoDigits(s, i + 1) * 3600 + twoDigits(s, i + 4) * 60
      if (s.charCodeAt((i += 6)) === 58 /* : */) offset += twoDigits(s, i + 1)
      if (negative) offset = 0 - offset
    }
    this.lastSeconds = seconds
    this.lastOffset = offset
    return offset
  }
}

function twoDigits(s: string, i: number): number {
  return (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48
}

/** Seconds since the epoch of the wall clock of `zone` at the instant `seconds`. */
export function localSeconds(seconds: number, zone: Zone): number {
  return seconds + (typeof zone === 'number' ? zone : zone.offsetAt(seconds))
}

/** zone string → zone, or the error message to throw (bounded: names come from expressions). */
const zones = new Map<string, Zone | string>()

/** Resolves a time zone argument, throwing cel-go's error (`unknown time zone X`, `strconv.Atoi: ...`). */
export function resolveZone(tz: string): Zone {
  let z = zones.get(tz)
  if (z === undefined) {
    z = tz.indexOf(':') < 0 ? loadLocation(tz) : fixedOffset(tz)
    if (zones.size >= 1024) zones.clear()
    zones.set(tz, z)
  }
  if (typeof z === 'string') throw new ErrorValue(z)
  return z
}

/**
 * cel-go: hr := Atoi(tz[:i]); min := Atoi(tz[i+1:]); offset := hr*60 ± min (minus when tz starts with '-');
 * seconds := int((time.Duration(offset) * time.Minute).Seconds()). No range checks in v0.26, so `02:00`,
 * `+99:00` and `-1:-30` are all accepted; the int64 wrap-around of that arithmetic is reproduced.
 */
function fixedOffset(tz: string): Zone | string {
  const colon = tz.indexOf(':')
  const hr = goAtoi(tz.slice(0, colon))
  if (typeof hr === 'string') return hr
  const min = goAtoi(tz.slice(colon + 1))
  if (typeof min === 'string') return min
  const minutes = BigInt.asIntN(64, tz.charCodeAt(0) === 45 ? hr * 60n - min : hr * 60n + min)
  if (minutes >= -150_000_000n && minutes <= 150_000_000n) return Number(minutes) * 60 || 0
  const d = BigInt.asIntN(64, minutes * 60_000_000_000n)
  return Math.trunc(Number(d / 1_000_000_000n) + Number(d % 1_000_000_000n) / 1e9) || 0
}

// IDs ICU accepts that are not in the tz database Go reads (Java-style abbreviations, SystemV, removed links).
const ICU_ONLY =
  /^(?:ACT|AET|AGT|ART|AST|BET|BST|CAT|CNT|CST|CTT|EAT|ECT|IET|IST|JST|MIT|NET|NST|PLT|PNT|PRT|PST|SST|VST|SystemV\/.*|US\/Pacific-New|Canada\/East-Saskatchewan)$/

/** Go time.LoadLocation(name), with Intl as the tz database. */
function loadLocation(name: string): Zone | string {
  // "Local" is the apiserver's own zone; Kubernetes runs it in UTC.
  if (name === '' || name === 'UTC' || name === 'Local' || name === 'Factory') return 0
  if (name.includes('..') || name[0] === '/' || name[0] === '\\') return 'time: invalid location name'
  const unknown = `unknown time zone ${name}`
  const c = name.charCodeAt(0)
  // Intl also takes offsets ("+0530") and Java/ICU aliases, which are not tz database file names.
  if (c === 43 || c === 45 || (c >= 48 && c <= 57) || ICU_ONLY.test(name)) return unknown
  let fmt: Intl.DateTimeFormat
  try {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' })
  } catch {
    return unknown
  }
  const resolved = fmt.resolvedOptions().timeZone
  // Go looks files up case-sensitively; Intl matches any case.
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return unknown
  return resolved === 'UTC' ? 0 : new IanaZone(fmt)
}

/** Go strconv.Atoi(s): the value, or its error text (`strconv.Atoi: parsing "x": invalid syntax`). */
export function goAtoi(s: string): bigint | string {
  const n = s.length
  const c0 = s.charCodeAt(0)
  const start = c0 === 45 || c0 === 43 ? 1 : 0
  if (start === n) return atoiError(s, 'invalid syntax')
  for (let j = start; j < n; j++) {
    const d = s.charCodeAt(j) - 48
    if (d < 0 || d > 9) {
      // Long inputs go through ParseUint, which reports uint64 overflow of the digits read so far first.
      const overflow = n >= 19 && j > start && BigInt(s.slice(start, j)) > 18446744073709551615n
      return atoiError(s, overflow ? 'value out of range' : 'invalid syntax')
    }
  }
  const v = BigInt(s.slice(start))
  const r = c0 === 45 ? -v : v
  if (r > 9223372036854775807n || r < -9223372036854775808n) return atoiError(s, 'value out of range')
  return r
}

function atoiError(s: string, why: string): string {
  return `strconv.Atoi: parsing ${strconvQuote(s)}: ${why}`
}

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u
const ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
}

/** Go strconv.Quote: printable characters as they are, the rest escaped. */
export function strconvQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const esc = ESCAPES[ch]
    if (esc !== undefined) out += esc
    else if (PRINTABLE.test(ch)) out += ch
    else {
      const c = ch.codePointAt(0)!
      if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`
      else if (c >= 0xd800 && c <= 0xdfff)
        out += '\\ufffd' // lone surrogate: not valid UTF-8
      else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`
      else out += `\\U${c.toString(16).padStart(8, '0')}`
    }
  }
  return `${out}"`
}
