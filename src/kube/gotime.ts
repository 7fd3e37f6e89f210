// metav1.Time as JSON: time.Parse(time.RFC3339, s) with Go's general parser (the one that also
// produces the error texts: it accepts a one-digit hour and any fraction of a second), and
// `t.UTC().Format(time.RFC3339)` for the value written back (whole seconds, `Z`).

const LAYOUT = '2006-01-02T15:04:05Z07:00'

/** time's quote(): ASCII printable as is (with `"` and `\` escaped), other bytes as `\xNN`. */
function quote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0) as number
    if (c >= 0x80 || c < 0x20) {
      for (const b of new TextEncoder().encode(ch)) out += `\\x${b.toString(16).padStart(2, '0')}`
    } else out += c === 0x22 || c === 0x5c ? `\\${ch}` : ch
  }
  return `${out}"`
}

const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39

/** getnum: one or two leading digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)]
  return [Number(s.slice(0, 2)), s.slice(2)]
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number
}

export type ParsedTime = { readonly unixSeconds: number } | { readonly error: string }

/** time.Parse(time.RFC3339, value): the instant (whole seconds), or Go's ParseError text. */
export function parseRFC3339(value: string): ParsedTime {
  const bad = (elem: string, rest: string) => ({
    error: `parsing time ${quote(value)} as ${quote(LAYOUT)}: cannot parse ${quote(rest)} as ${quote(elem)}`,
  })
  const range = (what: string) => ({ error: `parsing time ${quote(value)}: ${what} out of range` })
  let v = value
  const literal = (lit: string): boolean => {
    if (!v.startsWith(lit)) return false
    v = v.slice(lit.length)
    return true
  }
  // 2006
  if (v.length < 4 || !isDigit(v, 0) || !/^[0-9]{4}/.test(v)) return bad('2006', v)
  const year = Number(v.slice(0, 4))
  v = v.slice(4)
  if (!literal('-')) return bad('-', v)
  // 01
  let r = getnum(v, true)
  if (r === undefined) return bad('01', v)
  const month = r[0]
  v = r[1]
  if (month <= 0 || month > 12) return range('month')
  if (!literal('-')) return bad('-', v)
  // 02
  r = getnum(v, true)
  if (r === undefined) return bad('02', v)
  const day = r[0]
  v = r[1]
  if (!literal('T')) return bad('T', v)
  // 15
  r = getnum(v, false)
  if (r === undefined) return bad('15', v)
  const hour = r[0]
  v = r[1]
  if (hour >= 24) return range('hour')
  if (!literal(':')) return bad(':', v)
  r = getnum(v, true)
  if (r === undefined) return bad('04', v)
  const min = r[0]
  v = r[1]
  if (min >= 60) return range('minute')
  if (!literal(':')) return bad(':', v)
  r = getnum(v, true)
  if (r === undefined) return bad('05', v)
  const sec = r[0]
  v = r[1]
  if (sec >= 60) return range('second')
  // a fraction of a second the layout does not mention is still accepted
  if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
    let n = 2
    while (isDigit(v, n)) n++
    v = v.slice(n)
  }
  // Z07:00
  let offset = 0
  if (v[0] === 'Z') v = v.slice(1)
  else {
    const hold = v
    if (v.length < 6 || v[3] !== ':') return bad('Z07:00', hold)
    const hr = getnum(v.slice(1, 3), true)
    const mm = getnum(v.slice(4, 6), true)
    if (hr === undefined || mm === undefined) return bad('Z07:00', hold)
    let err: string | undefined
    if (hr[0] > 24) err = 'time zone offset hour'
    if (mm[0] > 60) err = 'time zone offset minute'
    if (err !== undefined) return range(err)
    if (v[0] !== '+' && v[0] !== '-') return bad('Z07:00', hold)
    offset = (hr[0] * 60 + mm[0]) * 60 * (v[0] === '-' ? -1 : 1)
    v = v.slice(6)
  }
  if (v.length > 0) return { error: `parsing time ${quote(value)}: extra text: ${quote(v)}` }
  if (day < 1 || day > daysIn(month, year)) return { error: `parsing time ${quote(value)}: day out of range` }
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  d.setUTCHours(hour, min, sec, 0)
  return { unixSeconds: d.getTime() / 1000 - offset }
}

/** Time.UTC().Format(time.RFC3339). */
export function formatRFC3339(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000)
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}Z`
}
