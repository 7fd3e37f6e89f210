import { formatDouble } from '../../cel/values/format.js'
import { asFloat64, kindOf } from '../../kube/values/json.js'
import { errors, type OpenAPIError, plainError, Result } from './openapi-errors.js'

// kube-openapi validate numberValidator (validator.go) with its helpers (values.go) and go-openapi
// swag's conv: range checks of the value and of the bounds against the type and format, then
// multipleOf, minimum and maximum, each in the value's native kind. The int64 path truncates a
// fractional bound (`int64(max)`) exactly as Go does, so `{type: number, maximum: 10.5}` rejects an
// integer 11 as "less than or equal to 10".

const TWO53 = 2 ** 53 - 1
const TWO63 = 2 ** 63

/** swag IsFloat64AJSONInteger, with Go's amd64 float→uint64 conversion for negative values. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (Number.isNaN(f) || !Number.isFinite(f) || f < -TWO53 || f > TWO53) return false
  const fa = Math.abs(f)
  const t = Math.trunc(f)
  // uint64(f): truncation, and for negative f the two's complement of int64(f) read unsigned
  const g = f >= 0 || t === 0 ? Math.abs(t) : 2 ** 64 + t
  const ga = Math.abs(g)
  const diff = Math.abs(f - g)
  if (f === g) return true
  if (f === t) return true
  if (f === 0 || g === 0 || diff < Number.MIN_VALUE) return diff < 1e-9 * Number.MIN_VALUE
  return diff / Math.min(fa + ga, Number.MAX_VALUE) < 1e-9
}

/** strconv.FormatFloat(f, 'f', -1, 64): the shortest digits, never an exponent. */
export function formatFloatF(f: number): string {
  if (Number.isNaN(f)) return 'NaN'
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf'
  const s = String(f)
  const e = s.indexOf('e')
  if (e < 0) return s
  const neg = s[0] === '-'
  const mant = s.slice(neg ? 1 : 0, e)
  const exp = Number(s.slice(e + 1))
  const dot = mant.indexOf('.')
  const digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1)
  const point = (dot < 0 ? mant.length : dot) + exp
  let out: string
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length)
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`
  return neg ? `-${out}` : out
}

/** Go `int64(f)` on amd64: truncation; NaN and out-of-range values give the "integer indefinite" -2^63. */
export function goFloatToInt64(f: number): bigint {
  if (Number.isNaN(f) || f >= TWO63 || f < -TWO63) return -(1n << 63n)
  return BigInt(Math.trunc(f))
}

const isIntKind = (v: unknown) => kindOf(v) === 'int64'

/** strconv.ParseInt(s, 10, bits) succeeds. */
function parsesAsInt(s: string, bits: 32 | 64): boolean {
  if (!/^[+-]?[0-9]+$/.test(s)) return false
  const n = BigInt(s)
  const lim = 1n << BigInt(bits - 1)
  return n >= -lim && n < lim
}

/**
 * IsValueValidAgainstRange: does the value's text (`%d`, or `'f'` shortest for floats) parse as the
 * type/format? Its failures are plain errors (fmt.Errorf), reported at the nil path.
 */
export function isValueValidAgainstRange(
  val: number | bigint,
  typeName: string,
  format: string,
  prefix: string,
  path: string,
): OpenAPIError | undefined {
  const rep = isIntKind(val) ? String(val) : formatFloatF(val as number)
  let ok = true
  if (typeName === 'integer') ok = parsesAsInt(rep, format === 'int32' ? 32 : 64)
  else if (format === 'float') {
    const f = Number(rep)
    ok = !(Number.isFinite(f) && !Number.isFinite(Math.fround(f)))
  }
  if (ok) return undefined
  return plainError(
    format !== ''
      ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}`
      : `${prefix} value must be of type ${typeName} (default format) in ${path}`,
  )
}

const big = (v: number | bigint) => (typeof v === 'bigint' ? v : BigInt(v))

/** MultipleOfNativeType. */
export function multipleOfNativeType(path: string, val: number | bigint, factor: number): OpenAPIError | undefined {
  if (isIntKind(val)) {
    const f = goFloatToInt64(factor)
    if (f <= 0n) return errors.multipleOfMustBePositive(path, String(f), f)
    return big(val) % f !== 0n ? errors.notMultipleOf(path, String(f), val) : undefined
  }
  return multipleOf(path, val as number, factor)
}

/** MultipleOf (float64). */
export function multipleOf(path: string, data: number, factor: number): OpenAPIError | undefined {
  if (factor <= 0) return errors.multipleOfMustBePositive(path, formatDouble(factor), factor)
  const mult = factor < 1 ? (1 / factor) * data : data / factor
  return isFloat64AJSONInteger(mult) ? undefined : errors.notMultipleOf(path, formatDouble(factor), data)
}

/** MaximumNativeType(path, val, max, exclusive). */
export const maximumNativeType = (path: string, val: number | bigint, max: number, exclusive: boolean) =>
  boundNative(path, val, max, exclusive, true)

/** MinimumNativeType(path, val, min, exclusive). */
export const minimumNativeType = (path: string, val: number | bigint, min: number, exclusive: boolean) =>
  boundNative(path, val, min, exclusive, false)

function boundNative(
  path: string,
  val: number | bigint,
  bound: number,
  exclusive: boolean,
  isMax: boolean,
): OpenAPIError | undefined {
  if (isIntKind(val)) {
    const b = goFloatToInt64(bound)
    const d = big(val)
    const fails = isMax ? (exclusive ? d >= b : d > b) : exclusive ? d <= b : d < b
    if (!fails) return undefined
    return isMax
      ? errors.exceedsMaximum(path, String(b), exclusive, val)
      : errors.exceedsMinimum(path, String(b), exclusive, val)
  }
  return boundFloat(path, val as number, bound, exclusive, isMax)
}

/** Maximum / Minimum (float64). */
function boundFloat(path: string, data: number, bound: number, exclusive: boolean, isMax: boolean) {
  const fails = isMax ? (exclusive ? data >= bound : data > bound) : exclusive ? data <= bound : data < bound
  if (!fails) return undefined
  return isMax
    ? errors.exceedsMaximum(path, formatDouble(bound), exclusive, data)
    : errors.exceedsMinimum(path, formatDouble(bound), exclusive, data)
}

/** The constraints numberValidator reads (type and format only when the type is a single numeric one). */
export interface NumberConstraints {
  readonly multipleOf?: number
  readonly maximum?: number
  readonly exclusiveMaximum: boolean
  readonly minimum?: number
  readonly exclusiveMinimum: boolean
  readonly type: string
  readonly format: string
}

/** numberValidator.Validate. */
export function validateNumber(path: string, val: number | bigint, n: NumberConstraints): Result {
  const res = new Result()
  const resMultiple = new Result()
  const resMinimum = new Result()
  const resMaximum = new Result()
  const data = asFloat64(val)
  res.addErrors(isValueValidAgainstRange(val, n.type, n.format, 'Checked', path))
  if (n.multipleOf !== undefined) {
    resMultiple.addErrors(isValueValidAgainstRange(n.multipleOf, n.type, n.format, 'MultipleOf', path))
    resMultiple.addErrors(
      resMultiple.isValid() ? multipleOfNativeType(path, val, n.multipleOf) : multipleOf(path, data, n.multipleOf),
    )
  }
  if (n.maximum !== undefined) {
    resMaximum.addErrors(isValueValidAgainstRange(n.maximum, n.type, n.format, 'Maximum boundary', path))
    resMaximum.addErrors(
      resMaximum.isValid()
        ? boundNative(path, val, n.maximum, n.exclusiveMaximum, true)
        : boundFloat(path, data, n.maximum, n.exclusiveMaximum, true),
    )
  }
  if (n.minimum !== undefined) {
    resMinimum.addErrors(isValueValidAgainstRange(n.minimum, n.type, n.format, 'Minimum boundary', path))
    resMinimum.addErrors(
      resMinimum.isValid()
        ? boundNative(path, val, n.minimum, n.exclusiveMinimum, false)
        : boundFloat(path, data, n.minimum, n.exclusiveMinimum, false),
    )
  }
  res.merge(resMultiple, resMinimum, resMaximum)
  res.inc()
  return res
}
