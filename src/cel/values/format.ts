import { Type } from '../types/types.js'
import { mapEntries } from './maps.js'
import { Duration, Timestamp } from './time.js'
import {
  CelMap,
  CelObject,
  type CelValue,
  Double,
  MapValue,
  OpaqueValue,
  Optional,
  type PlainMap,
  Uint,
} from './values.js'

// Text forms of values: Go's float formatting (string(double)), Go's %v (cel-go error messages),
// and a CEL-literal display for CLI output.

/**
 * Go `strconv.FormatFloat(x, 'g', -1, 64)` as printed by `fmt.Sprintf("%g", x)`, which cel-go's
 * `string(double)` uses (common/types/double.go ConvertToType): shortest round-trip digits,
 * exponent form when the decimal exponent is < -4 or >= 6 (the precision Go uses for the
 * %e/%f decision when digits are shortest), a two-digit minimum exponent, and fmt's
 * `+Inf` / `-Inf` / `NaN`.
 */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Number.POSITIVE_INFINITY) return '+Inf'
  if (x === Number.NEGATIVE_INFINITY) return '-Inf'
  if (x === 0) return Object.is(x, -0) ? '-0' : '0'
  // toExponential() without an argument gives the shortest round-trip digits, like Go's -1 precision.
  const e = x.toExponential()
  const neg = e.charCodeAt(0) === 45 /* - */
  const ePos = e.indexOf('e')
  const mantissa = e.slice(neg ? 1 : 0, ePos)
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa
  const exp = Number(e.slice(ePos + 1))
  let out: string
  if (exp < -4 || exp >= 6) {
    const abs = exp < 0 ? -exp : exp
    out = `${digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`
  } else if (digits.length <= exp + 1) {
    out = digits + '0'.repeat(exp + 1 - digits.length)
  } else {
    out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
  }
  return neg ? `-${out}` : out
}

/**
 * A value as Go's `%v` prints the cel-go value, as in `no such key: %v` and
 * `index out of bounds: %v`: strings unquoted, uints without `u`, doubles as `%g`.
 * Other values use formatValue (cel-go prints Go internals there, which mean nothing here).
 */
export function goValueString(v: CelValue): string {
  switch (typeof v) {
    case 'string':
      return v
    case 'number':
      return Number.isSafeInteger(v) ? String(v) : formatDouble(v)
    case 'bigint':
    case 'boolean':
      return String(v)
    case 'object':
      if (v instanceof Uint) return String(v.value)
      if (v instanceof Double) return formatDouble(v.value)
  }
  return formatValue(v)
}

/**
 * A CEL-literal-like display of any value, for CLI output and messages. Chosen so that the text
 * reads back as the same CEL value wherever CEL has a literal for it:
 *   null, true, 42, -7, 42u, 1.0, 2.5, 1e+06, double("NaN"), double("Infinity"),
 *   "text" (double-quoted, backslash escapes), b"\x00ab" (printable ASCII kept, other bytes \xNN),
 *   [1, 2], {"a": 1, 2: "b"} (map entries in iteration order),
 *   timestamp("2023-01-02T03:04:05.5Z") (RFC 3339, nanoseconds with trailing zeros trimmed),
 *   duration("1.5s") (seconds, as cel-go's string(duration)),
 *   optional.of(1), optional.none(), type names (int, list, google.protobuf.Timestamp),
 *   and library values by their own toString (else `<typeName>`).
 */
export function formatValue(v: CelValue): string {
  // iterative over lists, maps and optionals, with a stack of what is left to print: a value nested 20,000
  // deep (`kelp eval -s self=…`) would overflow the call stack
  const out: string[] = []
  const todo: ({ text: string } | { value: CelValue })[] = [{ value: v }]
  while (todo.length > 0) {
    const t = todo.pop() as { text: string } | { value: CelValue }
    if ('text' in t) {
      out.push(t.text)
      continue
    }
    const x = t.value
    switch (typeof x) {
      case 'string':
        out.push(quoteString(x))
        continue
      case 'number':
        out.push(Number.isSafeInteger(x) ? String(x) : doubleLiteral(x))
        continue
      case 'bigint':
      case 'boolean':
        out.push(String(x))
        continue
      case 'object':
        break
      default:
        out.push(String(x))
        continue
    }
    if (x === null) out.push('null')
    else if (Array.isArray(x)) {
      out.push('[')
      todo.push({ text: ']' })
      for (let i = x.length - 1; i >= 0; i--) {
        todo.push({ value: x[i] as CelValue })
        if (i > 0) todo.push({ text: ', ' })
      }
    } else if (x instanceof Uint8Array) out.push(quoteBytes(x))
    else if (x instanceof Optional && x.value !== undefined) {
      out.push('optional.of(')
      todo.push({ text: ')' }, { value: x.value })
    } else if (x instanceof CelObject && !(x instanceof CelMap) && !(x instanceof MapValue)) out.push(formatObject(x))
    else {
      out.push('{')
      todo.push({ text: '}' })
      const entries = mapEntries(x as PlainMap | CelMap | MapValue)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, e] = entries[i] as [CelValue, CelValue]
        todo.push({ value: e }, { text: ': ' }, { value: k })
        if (i > 0) todo.push({ text: ', ' })
      }
    }
  }
  return out.join('')
}

function formatObject(v: CelObject): string {
  if (v instanceof Double) return doubleLiteral(v.value)
  if (v instanceof Uint) return `${v.value}u`
  if (v instanceof CelMap || v instanceof MapValue) return formatMap(v)
  if (v instanceof Timestamp) return `timestamp("${formatTimestamp(v)}")`
  if (v instanceof Duration) return `duration("${formatDuration(v)}")`
  if (v instanceof Optional) return v.value === undefined ? 'optional.none()' : `optional.of(${formatValue(v.value)})`
  if (v instanceof Type) return v.name
  if (v instanceof OpaqueValue) {
    return v.toString !== Object.prototype.toString ? v.toString() : `<${v.typeName}>`
  }
  return String(v)
}

function formatMap(m: CelMap | PlainMap | MapValue): string {
  const parts = mapEntries(m).map(([k, x]) => `${formatValue(k)}: ${formatValue(x)}`)
  return `{${parts.join(', ')}}`
}

/** A double as a CEL double literal: always with a `.` or an exponent, specials via double("..."). */
function doubleLiteral(x: number): string {
  if (Number.isNaN(x)) return 'double("NaN")'
  if (x === Number.POSITIVE_INFINITY) return 'double("Infinity")'
  if (x === Number.NEGATIVE_INFINITY) return 'double("-Infinity")'
  const s = formatDouble(x)
  return s.includes('.') || s.includes('e') ? s : `${s}.0`
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }
// Characters that need an escape inside a double-quoted CEL string: quote, backslash, C0/C1 controls, DEL.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\u009f]/g

function quoteString(s: string): string {
  return `"${s.replace(NEEDS_ESCAPE, (c) => ESCAPES[c] ?? `\\x${hex2(c.charCodeAt(0))}`)}"`
}

function quoteBytes(b: Uint8Array): string {
  let out = 'b"'
  for (const c of b) {
    if (c === 0x22) out += '\\"'
    else if (c === 0x5c) out += '\\\\'
    else if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c)
    else out += `\\x${hex2(c)}`
  }
  return `${out}"`
}

function hex2(n: number): string {
  return n < 16 ? `0${n.toString(16)}` : n.toString(16)
}

/** RFC 3339 in UTC with the fraction trimmed of trailing zeros (Go time.RFC3339Nano). */
export function formatTimestamp(t: Timestamp): string {
  const iso = new Date(t.seconds * 1000).toISOString() // 0001..9999 fit its 4-digit years
  return `${iso.slice(0, 19)}${fraction(t.nanos)}Z`
}

/** Seconds with a trimmed fraction and an `s` suffix, like cel-go's string(duration). */
export function formatDuration(d: Duration): string {
  const neg = d.nanos < 0n
  const abs = neg ? -d.nanos : d.nanos
  return `${neg ? '-' : ''}${abs / 1000000000n}${fraction(Number(abs % 1000000000n))}s`
}

function fraction(nanos: number): string {
  if (nanos === 0) return ''
  return `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`
}
