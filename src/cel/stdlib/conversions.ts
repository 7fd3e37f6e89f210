import { ErrorValue } from '../common/errors.js'
import { type FunctionDecl, fn, overload } from '../functions.js'
import {
  BoolType,
  BytesType,
  DoubleType,
  DynType,
  IntType,
  StringType,
  typeOf,
  typeParam,
  UintType,
} from '../types/types.js'
import { formatDouble } from '../values/format.js'
import { typeValueOf } from '../values/typeof.js'
import { type Double, mkDouble, mkInt, Uint } from '../values/values.js'
import {
  doubleToInt,
  doubleToUint,
  INT64_MAX,
  INT64_MIN,
  type Int,
  intToNumber,
  intToUint,
  UINT64_MAX,
  uintToInt,
} from './int64.js'

// cel-go v0.26 type conversion functions (common/stdlib/standard.go, implemented by the
// ConvertToType methods of common/types/{int,uint,double,string,bytes,bool}.go). Timestamp and
// duration conversions (timestamp_to_int64, duration_to_string, ...) live in ./time.ts.

type Dbl = number | Double

function dv(v: Dbl): number {
  return typeof v === 'number' ? v : v.value
}

/** cel-go's text when a string does not parse: `type conversion error from 'string' to 'int'`. */
function conversionError(to: string): ErrorValue {
  return new ErrorValue(`type conversion error from 'string' to '${to}'`)
}

// ---- int

/** Go strconv.ParseInt(s, 10, 64): optional sign, ASCII digits only (no underscores in base 10). */
const INT_SYNTAX = /^[+-]?[0-9]+$/
const UINT_SYNTAX = /^[0-9]+$/

export function stringToInt(s: string): Int {
  if (!INT_SYNTAX.test(s)) throw conversionError('int')
  // 15 characters hold at most 15 digits: always a safe integer
  if (s.length <= 15) return Number(s) + 0
  const v = BigInt(s)
  if (v > INT64_MAX || v < INT64_MIN) throw conversionError('int')
  return mkInt(v)
}

export function doubleToIntConv(d: Dbl): Int {
  return doubleToInt(dv(d))
}

// ---- uint

/** Go strconv.ParseUint(s, 10, 64): ASCII digits only, no sign. */
export function stringToUint(s: string): Uint {
  if (!UINT_SYNTAX.test(s)) throw conversionError('uint')
  const v = BigInt(s)
  if (v > UINT64_MAX) throw conversionError('uint')
  return new Uint(v)
}

export function doubleToUintConv(d: Dbl): Uint {
  return doubleToUint(dv(d))
}

// ---- double

export function intToDouble(i: Int): number | Double {
  return mkDouble(intToNumber(i))
}

export function uintToDouble(u: Uint): number | Double {
  return mkDouble(Number(u.value))
}

// Go strconv.ParseFloat(s, 64) syntax: decimal with optional fraction and exponent, or hexadecimal
// mantissa with a mandatory binary exponent; underscores only between digits (underscoreOK);
// "inf", "infinity" (signed, any case) and "nan" (unsigned, any case).
const DECIMAL_FLOAT =
  /^[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/
const HEX_FLOAT =
  /^([+-]?)0[xX](?:_(?=[0-9a-fA-F]))?((?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)?)(?:\.((?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)?))?[pP]([+-]?[0-9](?:_?[0-9])*)$/
const SPECIAL_FLOAT = /^(?:([+-]?)inf(?:inity)?|nan)$/i

/** Go strconv.ParseFloat(s, 64); out-of-range magnitudes (ParseFloat's ErrRange) are errors. */
export function parseGoFloat(s: string): number | undefined {
  if (DECIMAL_FLOAT.test(s)) {
    const v = Number(s.includes('_') ? s.replaceAll('_', '') : s)
    return Number.isFinite(v) ? v : undefined
  }
  const special = SPECIAL_FLOAT.exec(s)
  if (special) {
    if (special[1] === undefined) return Number.NaN
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
  }
  const hex = HEX_FLOAT.exec(s)
  if (hex) {
    const int = (hex[2] ?? '').replaceAll('_', '')
    const frac = (hex[3] ?? '').replaceAll('_', '')
    if (int === '' && frac === '') return undefined
    const mantissa = BigInt(`0x${int}${frac}`)
    const exp = Number((hex[4] as string).replaceAll('_', '')) - 4 * frac.length
    const v = scaleByPowerOfTwo(Number(mantissa), exp)
    if (!Number.isFinite(v)) return undefined
    return hex[1] === '-' ? -v : v
  }
  return undefined
}

/** m × 2^e without intermediate overflow or underflow where the result is representable. */
function scaleByPowerOfTwo(m: number, e: number): number {
  if (m === 0) return 0
  while (e > 1000) {
    m *= 2 ** 1000
    e -= 1000
  }
  while (e < -1000) {
    m *= 2 ** -1000
    e += 1000
  }
  return m * 2 ** e
}

export function stringToDouble(s: string): number | Double {
  const v = parseGoFloat(s)
  if (v === undefined) throw conversionError('double')
  return mkDouble(v)
}

// ---- string

export function intToString(i: Int): string {
  return String(i)
}

export function uintToString(u: Uint): string {
  return String(u.value)
}

/** Go `%g` (common/types/double.go ConvertToType). */
export function doubleToString(d: Dbl): string {
  return formatDouble(dv(d))
}

export function boolToString(b: boolean): string {
  return b ? 'true' : 'false'
}

// fatal: invalid UTF-8 (incl. encoded surrogates, as Go's utf8.Valid) is an error; ignoreBOM keeps a leading U+FEFF.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const utf8Encoder = new TextEncoder()

export function bytesToString(b: Uint8Array): string {
  // ASCII fast path: no decoder call for the common case
  let ascii = true
  for (let i = 0; i < b.length; i++) {
    if ((b[i] as number) > 0x7f) {
      ascii = false
      break
    }
  }
  if (ascii) return b.length < 4096 ? String.fromCharCode.apply(null, b as unknown as number[]) : utf8Decoder.decode(b)
  try {
    return utf8Decoder.decode(b)
  } catch {
    throw new ErrorValue('invalid UTF-8 in bytes, cannot convert to string')
  }
}

// ---- bytes, bool

export function stringToBytes(s: string): Uint8Array {
  return utf8Encoder.encode(s)
}

/** Go strconv.ParseBool. */
export function stringToBool(s: string): boolean {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return true
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return false
  }
  throw conversionError('bool')
}

function identity<T>(v: T): T {
  return v
}

// ---- declarations

const A = typeParam('A')

export const conversionFunctions: FunctionDecl[] = [
  fn('type', overload('type', [A], typeOf(A), typeValueOf, ['A'])),
  fn(
    'bool',
    overload('bool_to_bool', [BoolType], BoolType, identity),
    overload('string_to_bool', [StringType], BoolType, stringToBool),
  ),
  fn(
    'bytes',
    overload('bytes_to_bytes', [BytesType], BytesType, identity),
    overload('string_to_bytes', [StringType], BytesType, stringToBytes),
  ),
  fn(
    'double',
    overload('double_to_double', [DoubleType], DoubleType, identity),
    overload('int64_to_double', [IntType], DoubleType, intToDouble),
    overload('string_to_double', [StringType], DoubleType, stringToDouble),
    overload('uint64_to_double', [UintType], DoubleType, uintToDouble),
  ),
  fn('dyn', overload('to_dyn', [A], DynType, identity, ['A'])),
  fn(
    'int',
    overload('int64_to_int64', [IntType], IntType, identity),
    overload('double_to_int64', [DoubleType], IntType, doubleToIntConv),
    overload('string_to_int64', [StringType], IntType, stringToInt),
    overload('uint64_to_int64', [UintType], IntType, uintToInt),
  ),
  fn(
    'string',
    overload('string_to_string', [StringType], StringType, identity),
    overload('bool_to_string', [BoolType], StringType, boolToString),
    overload('bytes_to_string', [BytesType], StringType, bytesToString),
    overload('double_to_string', [DoubleType], StringType, doubleToString),
    overload('int64_to_string', [IntType], StringType, intToString),
    overload('uint64_to_string', [UintType], StringType, uintToString),
  ),
  fn(
    'uint',
    overload('uint64_to_uint64', [UintType], UintType, identity),
    overload('double_to_uint64', [DoubleType], UintType, doubleToUintConv),
    overload('int64_to_uint64', [IntType], UintType, intToUint),
    overload('string_to_uint64', [StringType], UintType, stringToUint),
  ),
]
