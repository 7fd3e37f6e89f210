import { parseGroupVersion } from '../kube/api-version.js'
import { RuntimeCELCostBudget } from '../kube/environment.js'
import { type FieldError, field, type InvalidStatus, kubectlInvalidText, newInvalid } from '../kube/field.js'
import { CorrelatedObject } from '../kube/schema/correlation.js'
import type { CRD } from './crd.js'

// Validating a custom resource write as the apiserver does (apiextensions-apiserver
// pkg/registry/customresource/strategy.go Validate / ValidateUpdate): the version must be served,
// a deprecated version warns; then the structural checks (type meta, metadata, OpenAPI schema,
// embedded resources, list-type invariants), and, unless one of those errors blocks them, the
// x-kubernetes-validations rules with one 10M cost budget for the object and ratcheting on update.

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

export interface ValidateOptions {
  /** The object before the update (an UPDATE); absent for a CREATE. */
  readonly oldObject?: unknown
  /** How unknown fields are treated (kubectl's --validate: Strict by default for apply). */
  readonly fieldValidation?: FieldValidation
}

/** What a structural validation step reports (the OpenAPI / metadata / list-type checks). */
export interface StructuralResult {
  readonly errors: readonly FieldError[]
  readonly warnings: readonly string[]
  /** The object after pruning and defaulting, which the CEL rules see. */
  readonly object: unknown
}

export type StructuralValidate = (
  crd: CRD,
  version: string,
  object: unknown,
  options: { readonly oldObject?: unknown; readonly fieldValidation: FieldValidation },
) => StructuralResult

/** The outcome of a custom resource write. */
export interface CustomResourceResult {
  readonly allowed: boolean
  /** Field errors (422 Invalid), in the apiserver's order. */
  readonly errors: readonly FieldError[]
  /** `Warning:` texts: deprecation, unknown fields under Warn, ratcheted rule failures. */
  readonly warnings: readonly string[]
  /** The Status the apiserver answers when not allowed. */
  readonly status?: InvalidStatus | NotFoundStatus
  /** What kubectl prints for the failure (`The Widget "x" is invalid: ...`, or the no-match error). */
  readonly message?: string
  /** The object as stored: defaulted and pruned (undefined when the kind is not served). */
  readonly object?: unknown
}

export interface NotFoundStatus {
  readonly code: 404
  readonly reason: 'NotFound'
  readonly message: string
}

/**
 * hasBlockingErr: an earlier error of type NotSupported, Required, TooLong, TooMany or TypeInvalid
 * stops the CEL rules, replaced by one error saying so.
 */
function blockingError(errs: readonly FieldError[]): FieldError | undefined {
  for (const e of errs) {
    switch (e.type) {
      case 'FieldValueNotSupported':
      case 'FieldValueRequired':
      case 'FieldValueTooLong':
      case 'FieldValueTooMany':
      case 'FieldValueTypeInvalid':
        return field.invalid(
          undefined,
          null,
          'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        )
    }
  }
  return undefined
}

/** Validates one custom resource against its CRD (create, or update when `oldObject` is given). */
export function validateCustomResource(
  crd: CRD,
  object: unknown,
  options: ValidateOptions & { readonly structural?: StructuralValidate } = {},
): CustomResourceResult {
  const obj = (object ?? {}) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } }
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : ''
  const { version } = parseGroupVersion(apiVersion)
  const v = crd.versions.get(version)
  if (v === undefined || !v.served) {
    const message = `no matches for kind "${crd.kind}" in version "${apiVersion}"`
    return { allowed: false, errors: [], warnings: [], status: { code: 404, reason: 'NotFound', message }, message }
  }
  const warnings: string[] = []
  const deprecation = v.deprecationWarning
  if (deprecation !== undefined) warnings.push(deprecation)
  const fieldValidation = options.fieldValidation ?? 'Strict'
  const old = options.oldObject
  const structural = options.structural?.(crd, version, object, {
    ...(old !== undefined ? { oldObject: old } : {}),
    fieldValidation,
  }) ?? { errors: [], warnings: [], object }
  const errors: FieldError[] = [...structural.errors]
  warnings.push(...structural.warnings)
  const cel = v.celValidator()
  if (cel !== undefined) {
    const blocking = blockingError(errors)
    if (blocking !== undefined) errors.push(blocking)
    else {
      const correlation = old !== undefined ? new CorrelatedObject(structural.object, old, v.schema) : undefined
      const r = cel.validate(undefined, structural.object, old, RuntimeCELCostBudget, correlation)
      errors.push(...r.errors)
      warnings.push(...r.warnings)
    }
  }
  if (errors.length === 0) return { allowed: true, errors, warnings, object: structural.object }
  const name = typeof obj.metadata?.name === 'string' ? obj.metadata.name : ''
  const status = newInvalid(crd.group, crd.kind, name, errors)
  return { allowed: false, errors, warnings, status, message: kubectlInvalidText(status), object: structural.object }
}
