import { ErrorValue } from '../../cel/common/errors.js'
import { compileRegex, regexMatches } from '../../cel/stdlib/regex.js'
import { deepEqual, type GoKind, kindOf } from '../../kube/values/json.js'
import type { OpenAPISchema } from './convert.js'
import type { FormatRegistry } from './formats.js'
import { errors, Result } from './openapi-errors.js'
import { isFloat64AJSONInteger } from './validate-number.js'

// kube-openapi validate: typeValidator (type.go), stringValidator and basicCommonValidator (enum,
// validator.go), formatValidator (formats.go) and the Pattern / MaxLength / MinLength helpers
// (values.go). Patterns are Go regexps (RE2 via re2js), lengths count runes.

/** schemaInfoForType: the JSON type and format kube-openapi infers from a decoded value. */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', '']
    case 'string':
      return ['string', '']
    case 'int64':
      return ['integer', 'int64']
    case 'float64':
      return ['number', 'float64']
    case 'slice':
      return ['array', '']
    case 'map':
      return ['object', '']
    default:
      return ['', '']
  }
}

/** typeValidator applies when the schema has a type or a format. */
export const typeApplies = (s: OpenAPISchema): boolean => s.type.length > 0 || s.format !== ''

/** typeValidator.Validate. The error Value is the inferred type name (or format), not the data. */
export function validateType(path: string, s: OpenAPISchema, data: unknown): Result {
  const result = new Result()
  result.inc()
  const types = s.type
  if (data === null || data === undefined) {
    if (types.length > 0 && !types.includes('null') && !s.nullable) {
      return Result.of(errors.invalidType(path, types.join(','), 'null'))
    }
    return result
  }
  const kind = kindOf(data)
  const [schType, format] = schemaInfo(kind)
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(data as number) && types.includes('integer')
  const isIntFloat = schType === 'integer' && types.includes('number')
  const isStringOrSlice = kind === 'string' || kind === 'slice'
  if (
    !isStringOrSlice &&
    s.format !== '' &&
    !(types.includes(schType) || format === s.format || isFloatInt || isIntFloat)
  ) {
    return Result.of(errors.invalidType(path, s.format, format))
  }
  if (!(types.includes('number') || types.includes('integer')) && s.format !== '' && isStringOrSlice) return result
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
    return Result.of(errors.invalidType(path, types.join(','), schType))
  }
  return result
}

/** Go utf8.RuneCount of a JS string (a lone surrogate is one rune, as U+FFFD). */
function runeCount(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
    n++
  }
  return n
}

/** stringValidator.Validate: the first failing of maxLength, minLength, pattern. */
export function validateString(path: string, s: OpenAPISchema, data: string): Result | undefined {
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength)
    return Result.of(errors.tooLong(path, s.maxLength, data))
  if (s.minLength !== undefined && runeCount(data) < s.minLength)
    return Result.of(errors.tooShort(path, s.minLength, data))
  if (s.pattern !== '') {
    let matches: boolean
    try {
      matches = regexMatches(compileRegex(s.pattern), data)
    } catch (e) {
      if (!(e instanceof ErrorValue)) throw e
      return Result.of(errors.failedPattern(path, `${s.pattern}, but pattern is invalid: ${e.message}`, data))
    }
    if (!matches) return Result.of(errors.failedPattern(path, s.pattern, data))
  }
  return undefined
}

/** formatValidator.Validate (it applies only to strings whose format the registry knows). */
export function validateFormat(
  path: string,
  format: string,
  data: string,
  formats: FormatRegistry,
): Result | undefined {
  if (!formats.containsName(format)) return Result.of(errors.invalidTypeName(format))
  if (!formats.validates(format, data)) return Result.of(errors.invalidType(path, format, data))
  return undefined
}

/** reflect `Value.Convert(data, typeOf(enumValue))` where ConvertibleTo allows it, else undefined. */
function convertTo(data: unknown, target: GoKind): { value: unknown } | undefined {
  const from = kindOf(data)
  if (from === target) return { value: data }
  if (from === 'int64' && target === 'float64') return { value: Number(data) }
  if (from === 'float64' && target === 'int64') {
    const f = data as number
    // amd64 truncation, out of range giving -2^63
    return { value: Number.isNaN(f) || f >= 2 ** 63 || f < -(2 ** 63) ? -(2n ** 63n) : Math.trunc(f) }
  }
  if (from === 'int64' && target === 'string') {
    // string(rune(x)): invalid code points become U+FFFD
    const x = Number(data)
    const valid = Number.isInteger(x) && x >= 0 && x <= 0x10ffff && !(x >= 0xd800 && x <= 0xdfff)
    return { value: valid ? String.fromCodePoint(x) : '\ufffd' }
  }
  return undefined
}

/**
 * basicCommonValidator.Validate: the value must equal one enum member after Go's reflect conversion
 * to that member's type (so an integer 65 matches "A", and 5.5 matches 5).
 */
export function validateEnum(path: string, s: OpenAPISchema, data: unknown): Result | undefined {
  const e = s.enum
  if (e === undefined || e.length === 0) return undefined
  if (data !== null && data !== undefined) {
    for (const v of e) {
      if (v === null || v === undefined) continue
      const c = convertTo(data, kindOf(v))
      if (c !== undefined && deepEqual(c.value, v)) return undefined
    }
  }
  return Result.of(errors.enumFail(path, data ?? null, e))
}
