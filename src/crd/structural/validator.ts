import { deepEqual, hasKey, kindOf } from '../../kube/values/json.js'
import type { OpenAPISchema } from './convert.js'
import { defaultFormats, type FormatRegistry } from './formats.js'
import { compositeErrors, errors, Result } from './openapi-errors.js'
import { validateNumber } from './validate-number.js'
import { typeApplies, validateEnum, validateFormat, validateString, validateType } from './validate-scalars.js'

// kube-openapi pkg/validation/validate SchemaValidator (schema.go) with its object, slice and
// schema-props (allOf/anyOf/oneOf/not) validators. For each value it runs, in this order: type,
// schema props, string, format, number, slice, enum, object; every validator that applies runs even
// after another failed, and Result.MatchCount counts the checks that ran (anyOf/oneOf keep the errors
// of the alternative with the highest count). Paths are kube-openapi's: `a.b`, `a[0]`, and `.k` for
// map entries at the root. Go walks `properties` in random map order; here declaration order.

/**
 * What validation needs besides the schema: the strfmt registry, and whether numbers are checked
 * against their type and format (int32 / float ranges, and the bounds' own range first), which
 * kube-openapi does since Kubernetes 1.36.
 */
export interface ValidatorEnv {
  readonly formats: FormatRegistry
  readonly numericFormats: boolean
}

export const DEFAULT_ENV: ValidatorEnv = { formats: defaultFormats, numericFormats: true }

export interface ValueValidator {
  validate(data: unknown): Result
}

/** SchemaValidatorOptions: how children are validated (ratcheting swaps these). */
export interface ValidatorOptions {
  readonly newValidatorForField?: (field: string, schema: OpenAPISchema, path: string) => ValueValidator
  readonly newValidatorForIndex?: (index: number, schema: OpenAPISchema, path: string) => ValueValidator
}

export class SchemaValidator implements ValueValidator {
  private readonly forField: (field: string, schema: OpenAPISchema, path: string) => ValueValidator
  private readonly forIndex: (index: number, schema: OpenAPISchema, path: string) => ValueValidator

  constructor(
    readonly schema: OpenAPISchema,
    readonly path: string,
    readonly env: ValidatorEnv,
    options: ValidatorOptions = {},
  ) {
    // Options() hands children no options: only these two constructors carry over
    this.forField = options.newValidatorForField ?? ((_f, s, p) => new SchemaValidator(s, p, env))
    this.forIndex = options.newValidatorForIndex ?? ((_i, s, p) => new SchemaValidator(s, p, env))
  }

  validate(data: unknown): Result {
    const s = this.schema
    const path = this.path
    const result = new Result()
    if (data === null || data === undefined) {
      result.merge(validateType(path, s, data))
      result.merge(validateEnum(path, s, data))
      return result
    }
    const kind = kindOf(data)
    const run = (r: Result | undefined) => {
      result.merge(r)
      result.inc()
    }
    if (typeApplies(s)) run(validateType(path, s, data))
    run(this.validateSchemaProps(data))
    if (kind === 'string') {
      run(validateString(path, s, data as string))
      if (this.env.formats.containsName(s.format)) run(validateFormat(path, s.format, data as string, this.env.formats))
    }
    if (kind === 'int64' || kind === 'float64')
      run(validateNumber(path, data as number | bigint, numberConstraints(s, this.env.numericFormats)))
    if (kind === 'slice') run(this.validateSlice(data as unknown[]))
    run(validateEnum(path, s, data))
    if (kind === 'map') run(this.validateObject(data as Record<string, unknown>))
    result.inc()
    return result
  }

  /** schemaPropsValidator.Validate: alternatives are validated plainly (no ratcheting inside them). */
  private validateSchemaProps(data: unknown): Result {
    const s = this.schema
    const path = this.path
    const sub = (x: OpenAPISchema) => new SchemaValidator(x, path, this.env)
    const main = new Result()
    let keepAnyOf = new Result()
    let keepOneOf = new Result()
    const keepAllOf = new Result()

    if (s.anyOf.length > 0) {
      let best: Result | undefined
      let firstSuccess: Result | undefined
      let succeeded = false
      for (const alt of s.anyOf) {
        const r = sub(alt).validate(data)
        keepAnyOf.merge(r.keepRelevantErrors())
        if (r.isValid()) {
          best = undefined
          succeeded = true
          firstSuccess ??= r
          keepAnyOf = new Result()
          break
        }
        if (best === undefined || r.matchCount > best.matchCount) best = r
      }
      if (!succeeded) main.addErrors(compositeErrors.mustValidateAtLeastOneSchema(path))
      if (best !== undefined) main.merge(best)
      else if (firstSuccess !== undefined) main.merge(firstSuccess)
    }

    if (s.oneOf.length > 0) {
      let best: Result | undefined
      let firstSuccess: Result | undefined
      let validated = 0
      for (const alt of s.oneOf) {
        const r = sub(alt).validate(data)
        keepOneOf.merge(r.keepRelevantErrors())
        if (r.isValid()) {
          validated++
          best = undefined
          firstSuccess ??= r
          keepOneOf = new Result()
          continue
        }
        if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r
      }
      if (validated !== 1) {
        const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`
        main.addErrors(compositeErrors.mustValidateOnlyOneSchema(path, more))
        if (best !== undefined) main.merge(best)
      } else if (firstSuccess !== undefined) main.merge(firstSuccess)
    }

    if (s.allOf.length > 0) {
      let validated = 0
      for (const alt of s.allOf) {
        const r = sub(alt).validate(data)
        keepAllOf.merge(r.keepRelevantErrors())
        if (r.isValid()) validated++
        main.merge(r)
      }
      if (validated !== s.allOf.length) {
        main.addErrors(compositeErrors.mustValidateAllSchemas(path, validated === 0 ? '. None validated' : ''))
      }
    }

    if (s.not !== undefined && sub(s.not).validate(data).isValid()) {
      main.addErrors(compositeErrors.mustNotValidateSchema(path))
    }

    main.inc()
    return main.merge(keepAllOf, keepOneOf, keepAnyOf)
  }

  /** schemaSliceValidator.Validate. */
  private validateSlice(data: unknown[]): Result {
    const s = this.schema
    const result = new Result()
    if (s.items !== undefined) {
      for (let i = 0; i < data.length; i++) {
        result.merge(this.forIndex(i, s.items, `${this.path}[${i}]`).validate(data[i]))
      }
    }
    const size = data.length
    if (s.minItems !== undefined && size < s.minItems) result.addErrors(errors.tooFewItems(this.path, s.minItems, size))
    if (s.maxItems !== undefined && size > s.maxItems)
      result.addErrors(errors.tooManyItems(this.path, s.maxItems, size))
    if (s.uniqueItems && hasDuplicates(data)) result.addErrors(errors.duplicateItems(this.path))
    result.inc()
    return result
  }

  /** objectValidator.Validate (patternProperties are not structural, so never present). */
  private validateObject(data: Record<string, unknown>): Result {
    const s = this.schema
    const path = this.path
    const res = new Result()
    const keys = Object.keys(data)
    const n = keys.length
    if (s.minProperties !== undefined && n < s.minProperties)
      res.addErrors(errors.tooFewProperties(path, s.minProperties, n))
    if (s.maxProperties !== undefined && n > s.maxProperties)
      res.addErrors(errors.tooManyProperties(path, s.maxProperties, n))
    const ap = s.additionalProperties
    if (ap !== undefined && !ap.allows) {
      for (const k of keys) if (!s.properties?.has(k)) res.addErrors(errors.propertyNotAllowed(path, k))
    } else if (ap?.schema !== undefined) {
      for (const k of keys) {
        if (!s.properties?.has(k)) res.merge(this.forField(k, ap.schema, `${path}.${k}`).validate(data[k]))
      }
    }
    if (s.properties !== undefined) {
      for (const [name, ps] of s.properties) {
        if (hasKey(data, name))
          res.merge(this.forField(name, ps, path !== '' ? `${path}.${name}` : name).validate(data[name]))
      }
    }
    for (const k of s.required) if (!hasKey(data, k)) res.addErrors(errors.required(`${path}.${k}`))
    return res
  }
}

function numberConstraints(s: OpenAPISchema, numericFormats: boolean) {
  // the type and format reach the number validator only when the type is a single numeric one
  // (and before 1.36 never: no range is checked then)
  let type = ''
  let format = ''
  if (numericFormats && s.type.length === 1) {
    if (s.type[0] === 'integer') {
      type = 'integer'
      if (s.format === 'int32' || s.format === 'int64') format = s.format
    } else if (s.type[0] === 'number') {
      type = 'number'
      if (s.format === 'float' || s.format === 'double') format = s.format
    }
  }
  return { ...s, type, format }
}

/** UniqueItems: reflect.DeepEqual between any two items. */
function hasDuplicates(data: unknown[]): boolean {
  for (let i = 0; i < data.length; i++) for (let j = 0; j < i; j++) if (deepEqual(data[i], data[j])) return true
  return false
}
