import { type FieldError, FieldPath, field, type InvalidStatus, newInvalid } from '../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaJSON } from '../../kube/validation/objectmeta.js'
import { validateAPIApproval } from './api-approval.js'
import { toInternalForCreate } from './convert.js'
import { validateCustomResourceDefinitionNames } from './crd-names.js'
import { decodeV1CustomResourceDefinition } from './decode.js'
import type { ValidationHooks } from './hooks.js'
import { validateCustomResourceDefinitionSpec } from './spec.js'
import { validateStoredVersions } from './stored-versions.js'
import type { CustomResourceDefinition } from './types.js'

// ValidateCustomResourceDefinition (apiextensions pkg/apis/apiextensions/validation/validation.go):
// what the API server answers to the create of an apiextensions.k8s.io/v1 CustomResourceDefinition,
// given as the JSON (or YAML-read) object kubectl would send.

export type {
  CelRuleSite,
  CelRuleValidator,
  CelSchemaInput,
  DefaultValueInput,
  DefaultValueResult,
  DefaultValueValidator,
  SchemaStep,
  ValidationHooks,
} from './hooks.js'
export type * from './types.js'

/**
 * Validates a v1 CustomResourceDefinition as the API server does on create: decoded, defaulted,
 * converted to the internal version (which decides the paths: a schema shared by all versions is
 * reported under `spec.validation`), prepared (status) and validated. Returns the field errors in
 * the API server's order; an empty list means the create is accepted.
 */
export function validateCustomResourceDefinition(crd: unknown, hooks: ValidationHooks = {}): FieldError[] {
  return validateInternalCustomResourceDefinition(toInternalForCreate(decodeV1CustomResourceDefinition(crd)), hooks)
}

/** ValidateCustomResourceDefinition on an internal object (as Go's tests build them). */
export function validateInternalCustomResourceDefinition(
  crd: CustomResourceDefinition,
  hooks: ValidationHooks = {},
): FieldError[] {
  const spec = crd.spec ?? {}
  // the name must be spec.names.plural + "." + spec.group
  const requiredName = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`
  const nameFn = (name: string, prefix: boolean) => {
    const errs = nameIsDNSSubdomain(name, prefix)
    if (name !== requiredName) errs.push('must be spec.names.plural+"."+spec.group')
    return errs
  }
  const errs: FieldError[] = []
  errs.push(...validateObjectMetaJSON(crd.metadata ?? {}, false, nameFn, FieldPath.of('metadata')))
  errs.push(...validateCustomResourceDefinitionSpec(spec, hooks, FieldPath.of('spec')))
  errs.push(
    ...validateCustomResourceDefinitionNames(crd.status?.acceptedNames ?? {}, FieldPath.of('status', 'acceptedNames')),
  )
  errs.push(
    ...validateStoredVersions(
      crd.status?.storedVersions,
      spec.versions ?? [],
      FieldPath.of('status', 'storedVersions'),
    ),
  )
  errs.push(...validateAPIApproval(crd))
  if (spec.preserveUnknownFields === true)
    errs.push(
      field.invalid(
        FieldPath.of('spec', 'preserveUnknownFields'),
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    )
  return errs
}

/**
 * The Status the API server returns for the errors (apierrors.NewInvalid): its message reads
 * `CustomResourceDefinition.apiextensions.k8s.io "<name>" is invalid: <errors>`; kubectlInvalidText
 * (field.ts) gives what kubectl prints.
 */
export function customResourceDefinitionInvalidStatus(name: string, errs: readonly FieldError[]): InvalidStatus {
  return newInvalid('apiextensions.k8s.io', 'CustomResourceDefinition', name, errs)
}

/** The metadata.name of a CRD given as JSON ('' when absent), for the status message. */
export function customResourceDefinitionName(crd: unknown): string {
  return decodeV1CustomResourceDefinition(crd).metadata.name ?? ''
}
