import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../../kube/environment.js'
import type { FieldError, FieldPath } from '../../kube/field.js'
import { CorrelatedObject, type Correlation } from '../../kube/schema/correlation.js'
import { type OpenAPISchema, toOpenAPISchema } from './convert.js'
import { kubeOpenAPIErrorsToFieldErrors } from './field-errors.js'
import { defaultFormats } from './formats.js'
import { type Result, withSchemaErrorLimit } from './openapi-errors.js'
import { RatchetingValueValidator } from './ratcheting.js'
import type { JSONSchemaProps } from './schema.js'
import { SchemaValidator, type ValidatorEnv } from './validator.js'
import { minorOf } from './versions.js'

// apiextensions-apiserver pkg/apiserver/validation/validation.go: NewSchemaValidator (the CRD schema
// converted with the formats of environment.DefaultCompatibilityVersion(), i.e. the binary's minor
// version minus one), ValidateCustomResource (create) and ValidateCustomResourceUpdate (update, with
// ratcheting, which every supported version has on). The kube-openapi vendored since 1.36 also
// range-checks numbers against int32/int64/float formats.

export interface CRSchemaValidatorOptions {
  /** The apiserver's version; formats follow its compatibility version (one minor earlier). */
  readonly version?: KubeVersion
}

/** validation.SchemaValidator: a CRD version's schema ready to validate custom resources. */
export class CRSchemaValidator {
  readonly openAPISchema: OpenAPISchema
  readonly env: ValidatorEnv
  /** The apiserver's minor version. */
  readonly minor: number

  constructor(
    /** The structural schema, which correlation (ratcheting) follows. */
    readonly schema: JSONSchemaProps,
    options: CRSchemaValidatorOptions = {},
  ) {
    const minor = minorOf(options.version ?? DEFAULT_KUBE_VERSION)
    this.minor = minor
    this.openAPISchema = toOpenAPISchema(schema, minor - 1)
    this.env = { formats: defaultFormats, numericFormats: minor >= 36 }
  }

  /** Validate: the value alone. */
  validate(value: unknown): Result {
    return withSchemaErrorLimit(() => new SchemaValidator(this.openAPISchema, '', this.env).validate(value))
  }

  /**
   * ValidateUpdate with WithRatcheting(correlation): errors of values unchanged from `old` come back
   * as warnings. Without a correlation one is built over this schema.
   */
  validateUpdate(value: unknown, old: unknown, correlation?: Correlation): Result {
    const c = correlation ?? new CorrelatedObject(value, old, this.schema)
    return withSchemaErrorLimit(() => new RatchetingValueValidator(c, this.openAPISchema, '', this.env).validate(value))
  }
}

/** NewSchemaValidator; undefined without a schema (nothing is validated then). */
export function newSchemaValidator(
  schema: JSONSchemaProps | undefined,
  options: CRSchemaValidatorOptions = {},
): CRSchemaValidator | undefined {
  return schema === undefined ? undefined : new CRSchemaValidator(schema, options)
}

/** ValidateCustomResource(fldPath, customResource, validator). */
export function validateCustomResource(
  fldPath: FieldPath | undefined,
  customResource: unknown,
  validator: CRSchemaValidator | undefined,
): FieldError[] {
  if (validator === undefined) return []
  const result = validator.validate(customResource)
  return result.isValid() ? [] : kubeOpenAPIErrorsToFieldErrors(fldPath, result.errors, validator.minor)
}

export interface UpdateValidation {
  readonly errors: FieldError[]
  /** Errors ratcheting dropped (the apiserver keeps them as result warnings and never shows them). */
  readonly ratcheted: FieldError[]
}

/** ValidateCustomResourceUpdate(fldPath, customResource, old, validator, WithRatcheting(correlation)). */
export function validateCustomResourceUpdate(
  fldPath: FieldPath | undefined,
  customResource: unknown,
  old: unknown,
  validator: CRSchemaValidator | undefined,
  correlation?: Correlation,
): UpdateValidation {
  if (validator === undefined) return { errors: [], ratcheted: [] }
  const result = validator.validateUpdate(customResource, old, correlation)
  return {
    errors: result.isValid() ? [] : kubeOpenAPIErrorsToFieldErrors(fldPath, result.errors, validator.minor),
    ratcheted: kubeOpenAPIErrorsToFieldErrors(fldPath, result.warnings, validator.minor),
  }
}
