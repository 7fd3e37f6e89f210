import { ErrorValue } from '../common/errors.js'
import { checkGrowth, reserve, stringUnits } from '../cost/budget.js'
import type { Type } from '../types/types.js'
import { formatDouble } from '../values/format.js'
import { type CelMapValue, mapEntries } from '../values/maps.js'
import { compareStrings } from '../values/strings.js'
import { type Duration, formatDuration, formatTimestamp, type Timestamp } from '../values/time.js'
import { typeNameOf } from '../values/typeof.js'
import { type CelValue, Double, Kind, kindOf, type Uint } from '../values/values.js'
import { goQuote } from './quote.js'

// `string.format` as cel-go v0.26 runs it for strings library version 2: the v1 formatter of
// ext/formatting.go with locale en_US. Clauses: %s %d %f %e %b %x %X %o and %% (precision `%.3f`).
// %f and %e go through golang.org/x/text/message (grouping `1,234.500000`, `∞`, `2.718280 × 10⁰⁰`);
// doubles inside lists and maps use plain Go `%.6f`. Errors carry cel-go's texts.

/** A failure of string.format; `id` is the offending argument's expression id (compile-time check). */
class FormatFailure {
  constructor(
    readonly message: string,
    readonly id = -1,
  ) {}
}

/** What the clause parser asks of its caller: arguments, and how to render one clause. */
interface Interpolator<A> {
  readonly size: number
  arg(index: number): A
  clause(verb: number, precision: number | undefined, arg: A): string
}

const PERCENT = 0x25
const PRECISION_ERROR = 'could not parse formatting clause: error while parsing precision: '

/** ext/formatting.go parseFormatString: scans the format, consuming one argument per clause. */
function interpolate<A>(f: string, it: Interpolator<A>): string {
  let out = ''
  let lit = 0
  let argIndex = 0
  let i = f.indexOf('%')
  while (i >= 0 && i < f.length) {
    out += f.slice(lit, i)
    if (i + 1 < f.length && f.charCodeAt(i + 1) === PERCENT) {
      out += '%'
      lit = i + 2
      i = f.indexOf('%', lit)
      continue
    }
    const arg = it.arg(argIndex)
    if (i + 1 >= f.length) throw new FormatFailure('unexpected end of string')
    if (argIndex >= it.size) throw new FormatFailure(`index ${argIndex} out of range`)
    let j = i + 1
    let precision: number | undefined
    if (f.charCodeAt(j) === 0x2e) {
      const from = ++j
      for (;;) {
        if (j >= f.length) throw new FormatFailure(`${PRECISION_ERROR}could not find end of precision specifier`)
        const c = f.charCodeAt(j)
        if (c < 0x30 || c > 0x39) break
        j++
      }
      precision = atoi(f.slice(from, j))
    }
    const verb = f.charCodeAt(j)
    if (!isVerb(verb)) {
      throw new FormatFailure(
        `could not parse formatting clause: unrecognized formatting clause "${leadByteChar(f, j)}"`,
      )
    }
    try {
      out += it.clause(verb, precision, arg)
    } catch (e) {
      if (e instanceof FormatFailure) throw new FormatFailure(`error during formatting: ${e.message}`, e.id)
      throw e
    }
    argIndex++
    lit = j + 1
    i = f.indexOf('%', lit)
  }
  return out + f.slice(lit)
}

function isVerb(c: number): boolean {
  // s d f e b x X o
  return c === 0x73 || c === 0x64 || c === 0x66 || c === 0x65 || c === 0x62 || c === 0x78 || c === 0x58 || c === 0x6f
}

/** Go reads the clause letter as one byte: a non-ASCII letter shows as its UTF-8 lead byte. */
function leadByteChar(f: string, j: number): string {
  const cp = f.codePointAt(j) ?? 0
  if (cp < 0x80) return String.fromCharCode(cp)
  const lead = cp < 0x800 ? 0xc0 | (cp >> 6) : cp < 0x10000 ? 0xe0 | (cp >> 12) : 0xf0 | (cp >> 18)
  return String.fromCharCode(lead)
}

/** Go strconv.Atoi on a run of ASCII digits, with its error texts. */
function atoi(digits: string): number {
  const conv = `${PRECISION_ERROR}error while converting precision to integer: strconv.Atoi: parsing ${goQuote(digits)}: `
  if (digits === '') throw new FormatFailure(`${conv}invalid syntax`)
  if (digits.length > 18 && BigInt(digits) > 9223372036854775807n) throw new FormatFailure(`${conv}value out of range`)
  return Number(digits)
}

// ---- runtime formatting -----------------------------------------------------------------------

/** `fmt.format(args)`: throws an ErrorValue with cel-go's message on failure. */
export function formatString(f: string, args: readonly CelValue[]): string {
  if (f.indexOf('%') < 0) return f // extra arguments are not an error at run time
  // cel-go charges a traversal of the format string only, but `%s` of a list holding one large
  // string many times, or a wide `%e`, builds far more: the output counts against the budget as it grows
  let size = f.length
  try {
    const out = interpolate(f, {
      size: args.length,
      arg(index) {
        if (index >= args.length) throw new FormatFailure(`index ${index} out of range`)
        return args[index] as CelValue
      },
      clause(verb, precision, arg) {
        const r = formatClause(verb, precision, arg)
        size += r.length
        checkGrowth('format', size, stringUnits(size))
        return r
      },
    })
    reserve('format', out.length, stringUnits(out.length))
    return out
  } catch (e) {
    if (e instanceof FormatFailure) throw new ErrorValue(e.message)
    throw e
  }
}

function formatClause(verb: number, precision: number | undefined, v: CelValue): string {
  switch (verb) {
    case 0x73: // s
      return stringClause(v)
    case 0x64: // d
      return formatDecimal(v)
    case 0x66: // f
      return fixedXText(toDouble(v, 'fixed-point'), precision ?? 6)
    case 0x65: // e
      return scientificXText(toDouble(v, 'scientific'), precision ?? 6)
    case 0x62: // b
      return formatBinary(v)
    case 0x6f: // o
      return formatInteger(v, 8, 'octal clause can only be used on integers')
    default: {
      const hex = formatHex(v)
      return verb === 0x58 ? hex.toUpperCase() : hex
    }
  }
}

function doubleValue(v: CelValue): number {
  return v instanceof Double ? v.value : (v as number)
}

/** %f / %e accept doubles and the strings "NaN", "Infinity", "-Infinity". */
function toDouble(v: CelValue, clause: string): number {
  if (kindOf(v) === Kind.Double) return doubleValue(v)
  if (v === 'NaN') return Number.NaN
  if (v === 'Infinity') return Number.POSITIVE_INFINITY
  if (v === '-Infinity') return Number.NEGATIVE_INFINITY
  throw new FormatFailure(`${clause} clause can only be used on doubles, was given ${typeNameOf(v)}`)
}

function formatDecimal(v: CelValue): string {
  const k = kindOf(v)
  if (k === Kind.Int) return String(v)
  if (k === Kind.Uint) return String((v as Uint).value)
  throw new FormatFailure(`decimal clause can only be used on integers, was given ${typeNameOf(v)}`)
}

function formatInteger(v: CelValue, radix: number, what: string): string {
  const k = kindOf(v)
  if (k === Kind.Int) return (v as number | bigint).toString(radix)
  if (k === Kind.Uint) return (v as Uint).value.toString(radix)
  throw new FormatFailure(`${what}, was given ${typeNameOf(v)}`)
}

function formatBinary(v: CelValue): string {
  if (typeof v === 'boolean') return v ? '1' : '0'
  return formatInteger(v, 2, 'only integers and bools can be formatted as binary')
}

const encoder = new TextEncoder()
const HEX = '0123456789abcdef'

function hexBytes(b: Uint8Array): string {
  let out = ''
  for (const x of b) out += HEX[x >> 4] + (HEX[x & 15] as string)
  return out
}

function formatHex(v: CelValue): string {
  if (typeof v === 'string') return hexBytes(encoder.encode(v))
  if (v instanceof Uint8Array) return hexBytes(v)
  return formatInteger(v, 16, 'only integers, byte buffers, and strings can be formatted as hex')
}

const STRING_CLAUSE =
  'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps'

const utf8 = new TextDecoder('utf-8', { fatal: true })

function bytesToString(b: Uint8Array): string {
  try {
    return utf8.decode(b)
  } catch {
    throw new FormatFailure('could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string')
  }
}

/** ext/formatting.go FormatString: the %s rendering of a value. */
function stringClause(v: CelValue): string {
  switch (kindOf(v)) {
    case Kind.String:
      return v as string
    case Kind.Int:
    case Kind.Bool:
      return String(v)
    case Kind.Uint:
      return String((v as Uint).value)
    case Kind.Double:
      return formatDouble(doubleValue(v))
    case Kind.Null:
      return 'null'
    case Kind.Bytes:
      return bytesToString(v as Uint8Array)
    case Kind.List:
      return formatList(v as readonly CelValue[])
    case Kind.Map:
      return formatMap(v)
    case Kind.Timestamp:
      return formatTimestamp(v as Timestamp)
    case Kind.Duration:
      return formatDuration(v as Duration)
    case Kind.Type:
      return (v as unknown as Type).name
    default:
      throw new FormatFailure(`${STRING_CLAUSE}, was given ${typeNameOf(v)}`)
  }
}

/** ext/formatting.go clauseForType + quoteForCEL: how list elements and map values print. */
function formatMember(v: CelValue): string {
  switch (kindOf(v)) {
    case Kind.String:
      return goQuote(v as string)
    case Kind.Bytes:
      return `b${goQuote(bytesToString(v as Uint8Array))}`
    case Kind.Double: {
      const x = doubleValue(v)
      const s = fixedGo(x, 6)
      return Number.isFinite(x) ? s : `"${s}"`
    }
    case Kind.Int:
    case Kind.Uint:
    case Kind.Bool:
    case Kind.Null:
    case Kind.Type:
    case Kind.List:
    case Kind.Map:
      return stringClause(v)
    case Kind.Timestamp:
      return `timestamp(${goQuote(formatTimestamp(v as Timestamp))})`
    case Kind.Duration:
      return `duration(${goQuote(formatDuration(v as Duration))})`
    default:
      throw new FormatFailure(`no formatting function for ${typeNameOf(v)}`)
  }
}

function formatList(list: readonly CelValue[]): string {
  let out = '['
  for (let i = 0; i < list.length; i++) {
    if (i > 0) out += ', '
    out += formatMember(list[i] as CelValue)
    checkGrowth('format', out.length, stringUnits(out.length))
  }
  return `${out}]`
}

function formatMap(m: CelValue): string {
  const pairs: [string, string][] = []
  let size = 2
  for (const [k, v] of mapEntries(m as CelMapValue)) {
    let key: string
    switch (kindOf(k)) {
      case Kind.String:
        key = goQuote(k as string)
        break
      case Kind.Bool:
      case Kind.Int:
        key = String(k)
        break
      case Kind.Uint:
        key = String((k as Uint).value)
        break
      default:
        throw new FormatFailure(`no formatting function for map key of type ${typeNameOf(k)}`)
    }
    const member = formatMember(v)
    pairs.push([key, member])
    size += key.length + member.length + 3
    checkGrowth('format', size, stringUnits(size))
  }
  // Go sorts the rendered keys byte-wise (= code point order), stably.
  pairs.sort((a, b) => compareStrings(a[0], b[0]))
  let out = '{'
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i] as [string, string]
    out += `${i > 0 ? ', ' : ''}${p[0]}:${p[1]}`
  }
  return `${out}}`
}

// ---- numbers: Go strconv / fmt and golang.org/x/text/message -----------------------------------

// A decimal in Go's strconv convention: the value is 0.<d> × 10^dp, `d` without leading or trailing
// zeros ('' for zero).
interface Decimal {
  d: string
  dp: number
}

const view = new DataView(new ArrayBuffer(8))

/** The exact decimal expansion of a finite double x > 0 (x = m·2^e, expanded with BigInt). */
function exactDecimal(x: number): Decimal {
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const biased = Number((bits >> 52n) & 0x7ffn)
  let m = bits & 0xfffffffffffffn
  let e = -1074
  if (biased !== 0) {
    m |= 0x10000000000000n
    e = biased - 1075
  }
  let d: string
  let dp: number
  if (e >= 0) {
    d = (m << BigInt(e)).toString()
    dp = d.length
  } else {
    d = (m * 5n ** BigInt(-e)).toString()
    dp = d.length + e
  }
  return { d: trimZeros(d), dp }
}

function trimZeros(d: string): string {
  let n = d.length
  while (n > 0 && d.charCodeAt(n - 1) === 0x30) n--
  return n === d.length ? d : d.slice(0, n)
}

/** Go decimal.Round(nd) on exact digits: keep nd digits, round half to even. */
function roundDecimal(x: Decimal, nd: number): Decimal {
  const { d, dp } = x
  if (nd < 0 || nd >= d.length) return x
  const c = d.charCodeAt(nd)
  const up = c === 0x35 && nd + 1 === d.length ? nd > 0 && (d.charCodeAt(nd - 1) & 1) === 1 : c >= 0x35
  if (!up) return { d: trimZeros(d.slice(0, nd)), dp }
  let i = nd - 1
  while (i >= 0 && d.charCodeAt(i) === 0x39) i--
  if (i < 0) return { d: '1', dp: dp + 1 }
  return { d: d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1), dp }
}

const ZERO: Decimal = { d: '', dp: 0 }

/** The digits of strconv.FormatFloat(a, 'f', prec): exact, rounded half to even at prec decimals. */
function fixedDecimal(a: number, prec: number): Decimal {
  if (a === 0) return ZERO
  const dec = exactDecimal(a)
  const nd = dec.dp + prec
  return nd < 0 ? ZERO : roundDecimal(dec, nd)
}

/** The shortest digits that round-trip (JS and Go agree on them). */
function shortestDecimal(x: number): Decimal {
  const s = x.toExponential() // d.ddde±x
  const ePos = s.indexOf('e')
  const mant = s.slice(0, ePos).replace('.', '')
  return { d: trimZeros(mant), dp: Number(s.slice(ePos + 1)) + 1 }
}

// Positions inside a run of digits followed by a multiple of three digits (en grouping `#,##0`).
const THOUSANDS = /\B(?=(\d{3})+$)/g

/** Integer part and `frac` fraction digits of a decimal (Go fmtF layout), optionally grouped by 3. */
function layoutFixed(x: Decimal, frac: number, group: boolean): string {
  const { d, dp } = x
  let int = ''
  if (dp > 0) {
    int = d.length >= dp ? d.slice(0, dp) : d + '0'.repeat(dp - d.length)
    if (group && int.length > 3) int = int.replace(THOUSANDS, ',')
  } else {
    int = '0'
  }
  if (frac <= 0) return int
  let f = ''
  for (let i = 0; i < frac; i++) {
    const j = dp + i
    f += j >= 0 && j < d.length ? d[j] : '0'
  }
  return `${int}.${f}`
}

/** Go `fmt.Sprintf("%.<prec>f", x)` (doubles inside lists and maps). */
function fixedGo(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf'
  const neg = x < 0 || Object.is(x, -0)
  return (neg ? '-' : '') + layoutFixed(fixedDecimal(Math.abs(x), prec), prec, false)
}

/**
 * x/text `message.NewPrinter(en_US).Sprintf("%.<prec>f", x)`: Go's rounding, `,` grouping, `∞`.
 * x/text keeps the minimum fraction digits in a uint8 and the maximum in an int16.
 */
function fixedXText(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞'
  const a = Math.abs(x)
  const maxFrac = ((prec + 32768) % 65536) - 32768
  const minFrac = prec & 0xff
  const dec = maxFrac >= 0 ? fixedDecimal(a, maxFrac) : a === 0 ? ZERO : shortestDecimal(a)
  return (x < 0 ? '-' : '') + layoutFixed(dec, Math.max(dec.d.length - dec.dp, minFrac, 0), true)
}

const SUPERSCRIPT = ['\u2070', '\u00b9', '\u00b2', '\u00b3', '\u2074', '\u2075', '\u2076', '\u2077', '\u2078', '\u2079']

/**
 * cel-go's %e: x/text `Sprintf("%<p>e", x)` — note the precision lands in the *width*: always six
 * fraction digits (Go rounding), exponent as `×10` and superscript digits, padded with spaces on the
 * left to `width` code points. This is the output of golang.org/x/text ≥ v0.23.0 (commit 221d88c
 * "fix scientific notation by removing extraneous spaces", internal/number/format.go
 * appendScientific), which Kubernetes vendors from 1.33 on: apiextensions-apiserver release-1.34+
 * pkg/apiserver/schema/cel/validation_test.go expects `'%e'.format([3.14]) == '3.140000×10⁰⁰'`.
 * cel-go's own tests pin x/text v0.22.0, which put U+202F (narrow no-break space) on both sides
 * of `×` (`2.718280\u202f×\u202f10⁰⁰`); kelp follows the x/text Kubernetes links.
 */
function scientificXText(x: number, width: number): string {
  let out: string
  if (Number.isNaN(x)) out = 'NaN'
  else if (!Number.isFinite(x)) out = x > 0 ? '∞' : '-∞'
  else {
    const a = Math.abs(x)
    const dec = a === 0 ? { d: '0', dp: 1 } : roundDecimal(exactDecimal(a), 7)
    const digits = dec.d.padEnd(7, '0')
    let exp = dec.dp - 1
    let sup = ''
    if (exp < 0) {
      sup = '\u207b'
      exp = -exp
    }
    const e = String(exp).padStart(2, '0')
    for (let i = 0; i < e.length; i++) sup += SUPERSCRIPT[e.charCodeAt(i) - 0x30]
    out = `${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1)}×10${sup}`
  }
  // x/text counts code points; every character here is in the BMP, so length is that count
  if (out.length >= width) return out
  // the precision becomes the padded width: refused before padding past the budget
  checkGrowth('format', width, stringUnits(width))
  return ' '.repeat(width - out.length) + out
}

// ---- Go %v, for join's error message ---------------------------------------------------------

/** Go's `%v` of a cel-go value (join: invalid input: %v). Exact for scalars; best effort otherwise. */
export function formatGoV(v: CelValue): string {
  switch (kindOf(v)) {
    case Kind.Int:
    case Kind.Bool:
    case Kind.String:
      return String(v)
    case Kind.Uint:
      return String((v as Uint).value)
    case Kind.Double:
      return formatDouble(doubleValue(v))
    case Kind.Null:
      return '0' // types.Null is a named protobuf enum without a String method
    case Kind.Bytes:
      return `[${Array.from(v as Uint8Array).join(' ')}]`
    default:
      return typeNameOf(v)
  }
}

// ---- compile-time check (cel-go stringFormatValidator) ----------------------------------------

/**
 * A `format` argument as the type checker sees it: its expression id and type, plus the elements
 * (list literal) or entries (map literal) when the argument is written as a literal.
 */
export interface FormatArgInfo {
  readonly id: number
  readonly type: Type
  readonly elements?: readonly FormatArgInfo[]
  readonly entries?: readonly (readonly [FormatArgInfo, FormatArgInfo])[]
}

/**
 * cel-go's stringFormatValidator, which Kubernetes runs (strings v2 enables it): for a call
 * `'<literal>'.format([<list literal>])`, checks the clauses against the argument types. Returns the
 * issue (message and the expression id to report it at) or undefined. `callId` is the format call's id.
 */
export function checkFormatCall(
  format: string,
  args: readonly FormatArgInfo[],
  callId: number,
): { message: string; id: number } | undefined {
  let requested = 0
  try {
    interpolate<FormatArgInfo | undefined>(format, {
      size: args.length,
      arg(index) {
        requested++
        return args[index]
      },
      clause(verb, _precision, arg) {
        if (arg !== undefined) checkClause(verb, arg)
        return ''
      },
    })
  } catch (e) {
    if (e instanceof FormatFailure) return { message: e.message, id: e.id >= 0 ? e.id : callId }
    throw e
  }
  if (args.length > requested) {
    return {
      message: `too many arguments supplied to string.format (expected ${requested}, got ${args.length})`,
      id: callId,
    }
  }
  return undefined
}

// Kinds each clause accepts (cel-go stringFormatChecker); dyn always passes.
const STRING_KINDS = new Set([
  'list',
  'map',
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'timestamp',
  'bytes',
  'duration',
  'type',
  'null_type',
])

function accepts(t: Type, kinds: readonly string[] | Set<string>): boolean {
  if (t.typeKind === 'dyn') return true
  return Array.isArray(kinds) ? kinds.includes(t.typeKind) : (kinds as Set<string>).has(t.typeKind)
}

function checkClause(verb: number, a: FormatArgInfo): void {
  const fail = (what: string) => {
    throw new FormatFailure(`${what}, was given ${a.type.name}`, a.id)
  }
  switch (verb) {
    case 0x73:
      checkString(a)
      return
    case 0x64:
      if (!accepts(a.type, ['int', 'uint'])) fail('decimal clause can only be used on integers')
      return
    case 0x66:
      if (!accepts(a.type, ['double', 'string'])) fail('fixed-point clause can only be used on doubles')
      return
    case 0x65:
      if (!accepts(a.type, ['double', 'string'])) fail('scientific clause can only be used on doubles')
      return
    case 0x62:
      if (!accepts(a.type, ['int', 'uint', 'bool'])) fail('only integers and bools can be formatted as binary')
      return
    case 0x6f:
      if (!accepts(a.type, ['int', 'uint'])) fail('octal clause can only be used on integers')
      return
    default:
      if (!accepts(a.type, ['int', 'uint', 'string', 'bytes'])) {
        fail('only integers, byte buffers, and strings can be formatted as hex')
      }
  }
}

/** %s: the type must be printable; list and map literals are checked element by element. */
function checkString(a: FormatArgInfo): void {
  if (!accepts(a.type, STRING_KINDS)) throw new FormatFailure(`${STRING_CLAUSE}, was given ${a.type.name}`, a.id)
  if (a.elements) for (const e of a.elements) checkString(e)
  if (a.entries) {
    for (const [k, v] of a.entries) {
      checkString(k)
      checkString(v)
    }
  }
}
