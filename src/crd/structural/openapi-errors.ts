import { goQuote } from '../../cel/ext/quote.js'

// kube-openapi pkg/validation/errors (schema.go, api.go, headers.go) and validate/result.go: the
// errors the schema validator collects and the Result that merges them. Only the `in != ""` message
// variants exist here: the CRD validator always validates "body".

/** errors.CompositeErrorCode and the Validation codes (errors/schema.go iota order). */
export const Code = {
  Composite: 422,
  InvalidType: 601,
  RequiredFail: 602,
  TooLongFail: 603,
  TooShortFail: 604,
  PatternFail: 605,
  EnumFail: 606,
  MultipleOfFail: 607,
  MaxFail: 608,
  MinFail: 609,
  UniqueFail: 610,
  MaxItemsFail: 611,
  MinItemsFail: 612,
  NoAdditionalItems: 613,
  TooFewProperties: 614,
  TooManyProperties: 615,
  UnallowedProperty: 616,
  FailedAllPatternProps: 617,
  MultipleOfMustBePositive: 618,
} as const

/**
 * One error of a Result. `validation` marks an `*errors.Validation` (it has a Name and a Value);
 * other errors (apiError, fmt.Errorf) carry only their text.
 */
export interface OpenAPIError {
  readonly message: string
  readonly code: number
  readonly validation: boolean
  readonly name: string
  /** Validation.Value; undefined and null are both Go nil. */
  readonly value?: unknown
  /** Validation.Valid (the limit of length / count errors). */
  readonly valid?: unknown
  /** Validation.Values (the enum). */
  readonly values?: readonly unknown[]
}

/**
 * The schema errors one custom resource's validation makes before it stops. kube-apiserver keeps each
 * error's first occurrence by comparing it with every error so far (go-openapi Result.AddErrors), so its
 * time grows with the square of the errors: on kube-apiserver 1.37.2 (2-core machine) 10,000 wrongly typed
 * list items took 5.3 s, 20,000 took 25 s, and 30,000 or 100,000 ended in the request's Timeout. Past this
 * many kelp answers that Timeout too (custom-resource.ts), instead of building a message of
 * hundreds of megabytes from a 3 MiB body.
 */
export const MAX_SCHEMA_ERRORS = 50_000

/** Thrown when a validation made more than MAX_SCHEMA_ERRORS errors. */
export class SchemaErrorLimit extends Error {}

/** Errors the current validation may still make (undefined outside withSchemaErrorLimit). */
let errorsLeft: number | undefined

/** Runs one validation under the MAX_SCHEMA_ERRORS bound (a nested one shares its caller's). */
export function withSchemaErrorLimit<T>(f: () => T): T {
  if (errorsLeft !== undefined) return f()
  errorsLeft = MAX_SCHEMA_ERRORS
  try {
    return f()
  } finally {
    errorsLeft = undefined
  }
}

function vErr(
  code: number,
  name: string,
  message: string,
  value?: unknown,
  valid?: unknown,
  values?: readonly unknown[],
): OpenAPIError {
  if (errorsLeft !== undefined && --errorsLeft < 0)
    throw new SchemaErrorLimit(`more than ${MAX_SCHEMA_ERRORS} schema errors`)
  return { message, code, validation: true, name, value, valid, values }
}

const IN = 'body'

export const errors = {
  /** errors.InvalidType: `%q` when the value is a string, else no data. */
  invalidType(name: string, typeName: string, value: unknown): OpenAPIError {
    const message =
      typeof value === 'string'
        ? `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`
        : `${name} in ${IN} must be of type ${typeName}`
    return vErr(Code.InvalidType, name, message, value)
  },
  /** errors.InvalidTypeName (no Name). */
  invalidTypeName: (typeName: string) => vErr(Code.InvalidType, '', `${typeName} is an invalid type name`, typeName),
  required: (name: string) => vErr(Code.RequiredFail, name, `${name} in ${IN} is required`),
  tooLong: (name: string, max: number, value: unknown) =>
    vErr(Code.TooLongFail, name, `${name} in ${IN} should be at most ${max} chars long`, value, max),
  tooShort: (name: string, min: number, value: unknown) =>
    vErr(Code.TooShortFail, name, `${name} in ${IN} should be at least ${min} chars long`, value, min),
  failedPattern: (name: string, pattern: string, value: unknown) =>
    vErr(Code.PatternFail, name, `${name} in ${IN} should match '${pattern}'`, value),
  /** The message (`should be one of %v`) is never shown by the CRD validator: Values are. */
  enumFail: (name: string, value: unknown, values: readonly unknown[]) =>
    vErr(
      Code.EnumFail,
      name,
      `${name} in ${IN} should be one of [${values.map(String).join(' ')}]`,
      value,
      undefined,
      values,
    ),
  notMultipleOf: (name: string, multiple: string, value: unknown) =>
    vErr(Code.MultipleOfFail, name, `${name} in ${IN} should be a multiple of ${multiple}`, value),
  multipleOfMustBePositive: (name: string, factor: string, factorValue: unknown) =>
    vErr(
      Code.MultipleOfMustBePositive,
      name,
      `factor MultipleOf declared for ${name} must be positive: ${factor}`,
      factorValue,
    ),
  exceedsMaximum: (name: string, max: string, exclusive: boolean, value: unknown) =>
    vErr(
      Code.MaxFail,
      name,
      exclusive
        ? `${name} in ${IN} should be less than ${max}`
        : `${name} in ${IN} should be less than or equal to ${max}`,
      value,
    ),
  exceedsMinimum: (name: string, min: string, exclusive: boolean, value: unknown) =>
    vErr(
      Code.MinFail,
      name,
      exclusive
        ? `${name} in ${IN} should be greater than ${min}`
        : `${name} in ${IN} should be greater than or equal to ${min}`,
      value,
    ),
  duplicateItems: (name: string) => vErr(Code.UniqueFail, name, `${name} in ${IN} shouldn't contain duplicates`),
  tooManyItems: (name: string, max: number, size: number) =>
    vErr(Code.MaxItemsFail, name, `${name} in ${IN} should have at most ${max} items`, size, max),
  tooFewItems: (name: string, min: number, size: number) =>
    vErr(Code.MinItemsFail, name, `${name} in ${IN} should have at least ${min} items`, size, min),
  tooFewProperties: (name: string, min: number, size: number) =>
    vErr(Code.TooFewProperties, name, `${name} in ${IN} should have at least ${min} properties`, size, min),
  tooManyProperties: (name: string, max: number, size: number) =>
    vErr(Code.TooManyProperties, name, `${name} in ${IN} should have at most ${max} properties`, size, max),
  propertyNotAllowed: (name: string, key: string) =>
    vErr(Code.UnallowedProperty, name, `${name}.${key} in ${IN} is a forbidden property`, key),
}

/** An error that is not an errors.Validation: an apiError or a fmt.Errorf. */
export function plainError(message: string, code: number = Code.Composite): OpenAPIError {
  return { message, code, validation: false, name: '' }
}

/** The composite messages of validate/schema_messages.go (apiErrors, code 422). */
export const compositeErrors = {
  mustValidateAtLeastOneSchema: (path: string) =>
    plainError(`${goQuote(path)} must validate at least one schema (anyOf)`),
  mustValidateOnlyOneSchema: (path: string, additional: string) =>
    plainError(`${goQuote(path)} must validate one and only one schema (oneOf). ${additional}`),
  mustValidateAllSchemas: (path: string, additional: string) =>
    plainError(`${goQuote(path)} must validate all the schemas (allOf)${additional}`),
  mustNotValidateSchema: (path: string) => plainError(`${goQuote(path)} must not validate the schema (not)`),
  arrayDoesNotAllowAdditionalItems: () => plainError("array doesn't allow for additional items"),
}

/** validate.Result: errors and warnings, each text once, and the MatchCount anyOf/oneOf rank by. */
export class Result {
  errors: OpenAPIError[] = []
  warnings: OpenAPIError[] = []
  matchCount = 0
  // AddErrors / AddWarnings keep the first error of each message (go-openapi compares with every
  // error so far); a set of the messages makes that linear: a list of 1.5 million wrongly typed items
  // (a 3 MiB body) took minutes of CPU, and spreading them into a call overflowed the stack
  private errorMessages: Set<string> | undefined
  private warningMessages: Set<string> | undefined

  static of(err: OpenAPIError): Result {
    const r = new Result()
    r.addErrors(err)
    return r
  }

  merge(...others: (Result | undefined)[]): this {
    for (const o of others) {
      if (o === undefined) continue
      this.addErrorList(o.errors)
      this.addWarningList(o.warnings)
      this.matchCount += o.matchCount
    }
    return this
  }

  /** MergeAsWarnings: what ratcheting does to the errors of an unchanged value. */
  mergeAsWarnings(...others: Result[]): this {
    for (const o of others) {
      this.addWarningList(o.errors)
      this.addWarningList(o.warnings)
      this.matchCount += o.matchCount
    }
    return this
  }

  addErrors(...errs: (OpenAPIError | undefined)[]): void {
    this.addErrorList(errs)
  }

  addWarnings(...errs: OpenAPIError[]): void {
    this.addWarningList(errs)
  }

  /** AddErrors of a list of any length (a list is not spread into a call: the stack has a bound). */
  addErrorList(errs: readonly (OpenAPIError | undefined)[]): void {
    if (errs.length === 0) return
    this.errorMessages ??= new Set(this.errors.map((e) => e.message))
    for (const e of errs) {
      if (e === undefined || this.errorMessages.has(e.message)) continue
      this.errorMessages.add(e.message)
      this.errors.push(e)
    }
  }

  addWarningList(errs: readonly OpenAPIError[]): void {
    if (errs.length === 0) return
    this.warningMessages ??= new Set(this.warnings.map((e) => e.message))
    for (const e of errs) {
      if (this.warningMessages.has(e.message)) continue
      this.warningMessages.add(e.message)
      this.warnings.push(e)
    }
  }

  /** keepRelevantErrors: only the texts marked `IMPORTANT!`, unmarked, as plain errors. */
  keepRelevantErrors(): Result {
    const strip = (es: OpenAPIError[]) =>
      es.filter((e) => e.message.startsWith('IMPORTANT!')).map((e) => plainError(e.message.slice('IMPORTANT!'.length)))
    const r = new Result()
    r.errors = strip(this.errors)
    r.warnings = strip(this.warnings)
    return r
  }

  isValid(): boolean {
    return this.errors.length === 0
  }

  inc(): void {
    this.matchCount++
  }
}
