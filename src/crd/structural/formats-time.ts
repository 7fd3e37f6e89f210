// The time formats of kube-openapi's strfmt registry: date (time.Parse "2006-01-02"), datetime
// (strfmt.IsDateTime: a date, a `t`, and a time-of-day pattern, compared as strings) and duration
// (time.ParseDuration, else the Scala-like `<digits><unit>` scan of strfmt.ParseDuration).

const isDigit = (c: number) => c >= 0x30 && c <= 0x39

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number
}

/** strfmt.IsDate: time.Parse(RFC3339FullDate): `YYYY-MM-DD`, a real day of a real month. */
export function isDate(s: string): boolean {
  if (s.length !== 10 || s[4] !== '-' || s[7] !== '-') return false
  for (const i of [0, 1, 2, 3, 5, 6, 8, 9]) if (!isDigit(s.charCodeAt(i))) return false
  const year = Number(s.slice(0, 4))
  const month = Number(s.slice(5, 7))
  const day = Number(s.slice(8, 10))
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year)
}

// DateTimePattern, `.` being Go's any-rune-but-newline.
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u

/** strfmt.IsDateTime; like Go it splits on every `t` and reads only the first two parts. */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false
  const parts = s.toLowerCase().split('t')
  if (parts.length < 2 || !isDate(parts[0] as string)) return false
  const m = TIME_OF_DAY.exec(parts[1] as string)
  if (m === null) return false
  return (m[1] as string) <= '23' && (m[2] as string) <= '59' && (m[3] as string) <= '59'
}

const TWO63 = 1n << 63n
const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n, // U+00B5
  μs: 1000n, // U+03BC
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
}

/** Go time.ParseDuration succeeds: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with Go's overflow rules. */
export function isGoDuration(input: string): boolean {
  let s = input
  if (s !== '' && (s[0] === '-' || s[0] === '+')) s = s.slice(1)
  if (s === '0') return true
  if (s === '') return false
  let d = 0n
  let i = 0
  while (i < s.length) {
    const c0 = s.charCodeAt(i)
    if (!(c0 === 0x2e || isDigit(c0))) return false
    // leadingInt
    const start = i
    let v = 0n
    for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
      if (v > TWO63 / 10n) return false
      v = v * 10n + BigInt(s.charCodeAt(i) - 0x30)
      if (v > TWO63) return false
    }
    const pre = i !== start
    let f = 0
    let scale = 1
    let post = false
    if (i < s.length && s[i] === '.') {
      i++
      const fs = i
      // leadingFraction: digits past int64 precision are consumed but ignored
      let overflow = false
      let fb = 0n
      for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
        if (overflow) continue
        if (fb > (TWO63 - 1n) / 10n) {
          overflow = true
          continue
        }
        const y = fb * 10n + BigInt(s.charCodeAt(i) - 0x30)
        if (y > TWO63) {
          overflow = true
          continue
        }
        fb = y
        scale *= 10
      }
      f = Number(fb)
      post = i !== fs
    }
    if (!pre && !post) return false
    const us = i
    while (i < s.length && s[i] !== '.' && !isDigit(s.charCodeAt(i))) i++
    if (i === us) return false
    const unit = UNITS[s.slice(us, i)]
    if (unit === undefined) return false
    if (v > TWO63 / unit) return false
    v *= unit
    if (f > 0) {
      v += BigInt(Math.trunc(f * (Number(unit) / scale)))
      if (v > TWO63) return false
    }
    d += v
    if (d > TWO63) return false
  }
  const neg = input[0] === '-'
  return neg || d <= TWO63 - 1n
}

const SCALA_UNITS: readonly (readonly string[])[] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
]
// `((\d+)\s*([A-Za-zµ]+))` with Go's ASCII \d and \s
const DURATION_MATCHER = /([0-9]+)[\t\n\f\r ]*([A-Za-zµ]+)/g
const INT64_MAX = (1n << 63n) - 1n

/** strfmt.IsDuration. */
export function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true
  let ok = false
  for (const m of s.matchAll(DURATION_MATCHER)) {
    // strconv.Atoi fails on int overflow, which fails the whole parse
    if (BigInt(m[1] as string) > INT64_MAX) return false
    const unit = (m[2] as string).toLowerCase().trim()
    for (const variants of SCALA_UNITS) {
      const last = variants.length - 1
      variants.forEach((v, i) => {
        if ((i === last && unit.startsWith(v)) || unit === v) ok = true
      })
    }
  }
  return ok
}
