import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { byteLength, isDNS1035Label, isDNS1123Subdomain } from '../../kube/validation/names.js'
import { validateCustomResourceConversion, validateEnumStrings } from './conversion.js'
import { validateCustomResourceDefinitionNames } from './crd-names.js'
import {
  type SchemaValidationOptions,
  validateCustomResourceDefinitionValidation,
} from './custom-resource-validation.js'
import { deepEqual } from './equality.js'
import { marshaled, marshaledString, versionsJSON } from './gojson.js'
import type { ValidationHooks } from './hooks.js'
import { specHasDefaults } from './schema-has.js'
import { validateSelectableFields } from './selectable-fields.js'
import { newStructuralError } from './structural.js'
import { validateCustomResourceColumnDefinition, validateCustomResourceDefinitionSubresources } from './subresources.js'
import type {
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
} from './types.js'

// validateCustomResourceDefinitionSpec and validateCustomResourceDefinitionVersion (validation.go)
// with the options ValidateCustomResourceDefinition (create) sets.

const CREATE_OPTIONS: SchemaValidationOptions = {
  allowDefaults: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  // only an update with an unchanged schema suppresses it
  suppressPerExpressionCost: false,
}

export function validateCustomResourceDefinitionSpec(
  spec: CustomResourceDefinitionSpec,
  hooks: ValidationHooks,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const opts = CREATE_OPTIONS
  const group = spec.group ?? ''
  if (group.length === 0) errs.push(field.required(fldPath.child('group'), ''))
  else if (isDNS1123Subdomain(group).length > 0)
    errs.push(field.invalid(fldPath.child('group'), group, isDNS1123Subdomain(group).join(',')))
  else if (group.split('.').length < 2)
    errs.push(field.invalid(fldPath.child('group'), group, 'should be a domain with at least one dot'))

  errs.push(...validateEnumStrings(fldPath.child('scope'), spec.scope ?? '', ['Cluster', 'Namespaced'], true))

  // requireOpenAPISchema: a top-level schema or one in every version
  if (spec.validation?.openAPIV3Schema === undefined) {
    spec.versions?.forEach((v, i) => {
      if (v.schema?.openAPIV3Schema === undefined)
        errs.push(field.required(fldPath.child('versions').index(i).child('schema').child('openAPIV3Schema'), ''))
    })
  }
  // preserveUnknownFields is a non-nil pointer after the v1 conversion; nil reads as true in Go
  const preserveUnknownFields = spec.preserveUnknownFields !== false
  if (specHasDefaults(spec) && preserveUnknownFields)
    errs.push(
      field.invalid(
        fldPath.child('preserveUnknownFields'),
        true,
        'must be false in order to use defaults in the schema',
      ),
    )

  let storageFlagCount = 0
  const seen = new Set<string>()
  let uniqueNames = true
  spec.versions?.forEach((version, i) => {
    if (version.storage) storageFlagCount++
    const name = version.name ?? ''
    if (seen.has(name)) uniqueNames = false
    else seen.add(name)
    const nameErrs = isDNS1035Label(name)
    if (nameErrs.length > 0)
      errs.push(field.invalid(fldPath.child('versions').index(i).child('name'), name, nameErrs.join(',')))
    const subresources = getSubresourcesForVersion(spec, name)
    errs.push(
      ...validateCustomResourceDefinitionVersion(
        version,
        fldPath.child('versions').index(i),
        subresources?.status !== undefined,
        opts,
        hooks,
      ),
    )
  })

  const versions = spec.versions ?? []
  // the top-level and per-version fields are mutually exclusive
  if (spec.validation !== undefined && versions.some((v) => v.schema !== undefined))
    errs.push(field.forbidden(fldPath.child('validation'), 'top-level and per-version schemas are mutually exclusive'))
  if (spec.subresources !== undefined && hasPerVersionSubresources(versions))
    errs.push(
      field.forbidden(fldPath.child('subresources'), 'top-level and per-version subresources are mutually exclusive'),
    )
  if (
    (spec.additionalPrinterColumns?.length ?? 0) > 0 &&
    versions.some((v) => (v.additionalPrinterColumns?.length ?? 0) > 0)
  )
    errs.push(
      field.forbidden(
        fldPath.child('additionalPrinterColumns'),
        'top-level and per-version additionalPrinterColumns are mutually exclusive',
      ),
    )

  // per-version fields may not all be identical (the top-level field is for that)
  const versionsValue = () => marshaled(versionsJSON(spec.versions))
  if (
    allIdentical(
      versions,
      (v) => v.schema,
      (x) => x !== undefined,
    )
  )
    errs.push(
      field.invalid(
        fldPath.child('versions'),
        versionsValue(),
        'per-version schemas may not all be set to identical values (top-level validation should be used instead)',
      ),
    )
  if (
    allIdentical(
      versions,
      (v) => v.subresources,
      (x) => x !== undefined,
    )
  )
    errs.push(
      field.invalid(
        fldPath.child('versions'),
        versionsValue(),
        'per-version subresources may not all be set to identical values (top-level subresources should be used instead)',
      ),
    )
  if (
    allIdentical(
      versions,
      (v) => v.additionalPrinterColumns,
      (x) => (x?.length ?? 0) > 0,
    )
  )
    errs.push(
      field.invalid(
        fldPath.child('versions'),
        versionsValue(),
        'per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)',
      ),
    )

  if (!uniqueNames)
    errs.push(field.invalid(fldPath.child('versions'), versionsValue(), 'must contain unique version names'))
  if (storageFlagCount !== 1)
    errs.push(
      field.invalid(
        fldPath.child('versions'),
        versionsValue(),
        'must have exactly one version marked as storage version',
      ),
    )
  const version = spec.version ?? ''
  if (version.length > 0) {
    const vErrs = isDNS1035Label(version)
    if (vErrs.length > 0) errs.push(field.invalid(fldPath.child('version'), version, vErrs.join(',')))
    if (versions.length >= 1 && versions[0]?.name !== version)
      errs.push(field.invalid(fldPath.child('version'), version, 'must match the first version in spec.versions'))
  }

  // some names are required in the spec, not in the status
  const names = spec.names ?? {}
  if (!names.plural) errs.push(field.required(fldPath.child('names', 'plural'), ''))
  if (!names.singular) errs.push(field.required(fldPath.child('names', 'singular'), ''))
  if (!names.kind) errs.push(field.required(fldPath.child('names', 'kind'), ''))
  if (!names.listKind) errs.push(field.required(fldPath.child('names', 'listKind'), ''))

  errs.push(...validateCustomResourceDefinitionNames(names, fldPath.child('names')))
  errs.push(
    ...validateCustomResourceDefinitionValidation(
      spec.validation,
      hasAnyStatusEnabled(spec),
      opts,
      hooks,
      fldPath.child('validation'),
    ),
  )
  errs.push(...validateCustomResourceDefinitionSubresources(spec.subresources, fldPath.child('subresources')))
  spec.additionalPrinterColumns?.forEach((col, i) => {
    errs.push(...validateCustomResourceColumnDefinition(col, fldPath.child('additionalPrinterColumns').index(i)))
  })

  if ((spec.selectableFields?.length ?? 0) > 0) {
    if (spec.validation === undefined) {
      errs.push(
        field.invalid(fldPath.child('selectableFields'), '', 'may only be set when validations.schema is included'),
      )
    } else {
      const schema = spec.validation.openAPIV3Schema
      const err = newStructuralError(schema)
      if (err !== undefined) errs.push(field.invalid(fldPath.child('schema.openAPIV3Schema'), '', err))
      errs.push(
        ...validateSelectableFields(
          spec.selectableFields ?? [],
          err === undefined ? schema : undefined,
          fldPath.child('selectableFields'),
        ),
      )
    }
  }

  const strategy = spec.conversion?.strategy ?? ''
  if (spec.conversion !== undefined && strategy !== 'None' && preserveUnknownFields)
    errs.push(
      field.invalid(
        fldPath.child('conversion').child('strategy'),
        strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    )
  errs.push(...validateCustomResourceConversion(spec.conversion, true, fldPath.child('conversion')))
  return errs
}

function validateCustomResourceDefinitionVersion(
  version: CustomResourceDefinitionVersion,
  fldPath: FieldPath,
  statusEnabled: boolean,
  opts: SchemaValidationOptions,
  hooks: ValidationHooks,
): FieldError[] {
  const errs: FieldError[] = []
  for (const msg of validateDeprecationWarning(version.deprecated === true, version.deprecationWarning))
    errs.push(field.invalid(fldPath.child('deprecationWarning'), marshaledString(version.deprecationWarning), msg))
  errs.push(
    ...validateCustomResourceDefinitionValidation(version.schema, statusEnabled, opts, hooks, fldPath.child('schema')),
  )
  errs.push(...validateCustomResourceDefinitionSubresources(version.subresources, fldPath.child('subresources')))
  version.additionalPrinterColumns?.forEach((col, i) => {
    errs.push(...validateCustomResourceColumnDefinition(col, fldPath.child('additionalPrinterColumns').index(i)))
  })
  if ((version.selectableFields?.length ?? 0) > 0) {
    const schema = version.schema?.openAPIV3Schema
    if (schema === undefined) {
      errs.push(
        field.invalid(
          fldPath.child('selectableFields'),
          '',
          'may only be set when `version.schema.openAPIV3Schema` is not included',
        ),
      )
    } else {
      const err = newStructuralError(schema)
      if (err !== undefined) errs.push(field.invalid(fldPath.child('schema.openAPIV3Schema'), '', err))
      errs.push(
        ...validateSelectableFields(
          version.selectableFields ?? [],
          err === undefined ? schema : undefined,
          fldPath.child('selectableFields'),
        ),
      )
    }
  }
  return errs
}

/** validateDeprecationWarning: at most 256 bytes, not empty, printable. */
export function validateDeprecationWarning(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions']
  if (warning === undefined) return []
  const errs: string[] = []
  if (byteLength(warning) > 256) errs.push('must be <= 256 characters long')
  if (warning.length === 0) errs.push('must not be an empty string')
  let offset = 0 // Go ranges over UTF-8 byte offsets
  for (const ch of warning) {
    if (!isPrint(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`)
      break
    }
    offset += byteLength(ch)
  }
  return errs
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)
}

function hasPerVersionSubresources(versions: readonly CustomResourceDefinitionVersion[]): boolean {
  return versions.some((v) => v.subresources !== undefined)
}

/** getSubresourcesForVersion. */
function getSubresourcesForVersion(
  spec: CustomResourceDefinitionSpec,
  name: string,
): CustomResourceSubresources | undefined {
  const versions = spec.versions ?? []
  if (!hasPerVersionSubresources(versions)) return spec.subresources
  return versions.find((v) => v.name === name)?.subresources
}

/** hasAnyStatusEnabled. */
function hasAnyStatusEnabled(spec: CustomResourceDefinitionSpec): boolean {
  return (
    spec.subresources?.status !== undefined || (spec.versions ?? []).some((v) => v.subresources?.status !== undefined)
  )
}

/** hasIdenticalPerVersion*: every version sets the field and all to the first one's value. */
function allIdentical<T>(
  versions: readonly CustomResourceDefinitionVersion[],
  get: (v: CustomResourceDefinitionVersion) => T,
  isSet: (x: T) => boolean,
): boolean {
  if (versions.length === 0) return false
  const first = get(versions[0] as CustomResourceDefinitionVersion)
  return versions.every((v) => isSet(get(v)) && deepEqual(get(v), first))
}
