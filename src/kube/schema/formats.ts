import { daysFromCivil, parseGoDuration, parseRFC3339, Timestamp } from '../../cel/values/time.js'

// How schema-typed strings become CEL values (apiserver pkg/cel/common/valuesunstructured.go, with
// kube-openapi pkg/validation/strfmt): `format: duration` with strfmt.ParseDuration, `date` with
// Go's time.Parse("2006-01-02"), `date-time` with strfmt.ParseDateTime, `byte` with
// strfmt.Base64.UnmarshalText. Each returns the value or Go's error text.

const INT64_MIN = -(1n << 63n)
const INT64_SPAN = 1n << 64n

const TIME_UNITS: readonly (readonly [bigint, readonly string[]])[] = [
  [1n, ['ns', 'nano']],
  [1000n, ['us', 'µs', 'micro']],
  [1000_000n, ['ms', 'milli']],
  [1000_000_000n, ['s', 'sec']],
  [60_000_000_000n, ['m', 'min']],
  [3600_000_000_000n, ['h', 'hr', 'hour']],
  [86400_000_000_000n, ['d', 'day']],
  [604800_000_000_000n, ['w', 'wk', 'week']],
]

/** Go's int64 arithmetic wraps. */
function wrapInt64(x: bigint): bigint {
  return ((((x - INT64_MIN) % INT64_SPAN) + INT64_SPAN) % INT64_SPAN) + INT64_MIN
}

/**
 * strfmt.ParseDuration: Go's time.ParseDuration, else every `<digits><spaces><unit>` group summed
 * (units `ns`/`nano…`, `us`/`µs`/`micro…`, `ms`/`milli…`, `s`/`sec…`, `m`/`min…`, `h`/`hr`/`hour…`,
 * `d`/`day…`, `w`/`wk`/`week…`, case-insensitive), e.g. `3 days`, `1w2d`.
 */
export function parseStrfmtDuration(s: string): bigint | string {
  const go = parseGoDuration(s)
  if (typeof go === 'bigint') return go
  let dur = 0n
  let ok = false
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const digits = m[1] as string
    // strconv.Atoi: int64 on the platforms Kubernetes runs on
    const factor = BigInt(digits)
    if (factor > 9223372036854775807n) return `strconv.Atoi: parsing "${digits}": value out of range`
    const unit = (m[2] as string).toLowerCase()
    for (const [mult, variants] of TIME_UNITS) {
      const last = variants.length - 1
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || unit === variant) {
          ok = true
          dur = wrapInt64(dur + wrapInt64(factor * mult))
        }
      })
    }
  }
  return ok ? dur : `unable to parse ${s} as duration`
}

/** Go time.Parse("2006-01-02", s) (strfmt.RFC3339FullDate): UTC midnight. */
export function parseFullDate(s: string): Timestamp | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (m) {
    const y = Number(m[1])
    const mo = Number(m[2])
    const d = Number(m[3])
    const dim = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if (mo < 1 || mo > 12) return `parsing time ${JSON.stringify(s)}: month out of range`
    if (d < 1 || d > (dim[mo - 1] as number)) return `parsing time ${JSON.stringify(s)}: day out of range`
    return new Timestamp(daysFromCivil(y, mo, d) * 86400, 0)
  }
  return `parsing time ${JSON.stringify(s)} as "2006-01-02": cannot parse ${JSON.stringify(s)} as "2006"`
}

/**
 * strfmt.ParseDateTime: `""` is the Unix epoch; otherwise the first of RFC3339Micro, RFC3339Millis,
 * RFC3339, RFC3339Nano and the zone-less `2006-01-02T15:04:05` (read as UTC) that parses. Go accepts
 * a fraction of any length after the seconds whatever the layout, so this is RFC 3339 or local time.
 */
export function parseStrfmtDateTime(s: string): Timestamp | string {
  if (s === '') return new Timestamp(0, 0)
  const t = parseRFC3339(s) ?? (/[zZ]|[+-]\d\d:\d\d$/.test(s.slice(19)) ? undefined : parseRFC3339(`${s}Z`))
  if (t !== undefined) return t
  return `parsing time ${JSON.stringify(s)} as "2006-01-02T15:04:05": cannot parse ${JSON.stringify(s)} as "2006"`
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const DECODE = new Int16Array(128).fill(-1)
for (let i = 0; i < URL_ALPHABET.length; i++) DECODE[URL_ALPHABET.charCodeAt(i)] = i

/**
 * strfmt.Base64.UnmarshalText: Go's base64.URLEncoding (URL-safe alphabet `-_`, padding
 * required; `\r` and `\n` ignored), with Go's `illegal base64 data at input byte N`.
 */
export function decodeBase64URL(s: string): Uint8Array | string {
  const out: number[] = []
  const chars: [number, number][] = [] // [6-bit value or -2 for '=', input index]
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 10 || c === 13) continue
    if (c === 61 /* = */) chars.push([-2, i])
    else {
      const v = c < 128 ? (DECODE[c] as number) : -1
      if (v < 0) return `illegal base64 data at input byte ${i}`
      chars.push([v, i])
    }
  }
  for (let q = 0; q < chars.length; q += 4) {
    const quad = chars.slice(q, q + 4)
    if (quad.length < 4) return `illegal base64 data at input byte ${s.length}`
    const pad = quad.findIndex(([v]) => v === -2)
    if (pad >= 0) {
      // padding only in the last quantum, at position 2 or 3, and '=' through its end
      if (pad < 2 || q + 4 !== chars.length || quad.slice(pad).some(([v]) => v !== -2))
        return `illegal base64 data at input byte ${(quad[pad] as [number, number])[1]}`
    }
    const n = pad >= 0 ? pad : 4
    const [a, b, c, d] = quad.map(([v]) => Math.max(v, 0)) as [number, number, number, number]
    const bits = (a << 18) | (b << 12) | (c << 6) | d
    out.push((bits >> 16) & 0xff)
    if (n > 2) out.push((bits >> 8) & 0xff)
    if (n > 3) out.push(bits & 0xff)
  }
  return Uint8Array.from(out)
}
