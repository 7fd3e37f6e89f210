import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { validateDefaults } from './default-values.js'
import { marshaled, schemaJSON } from './gojson.js'
import type { ValidationHooks } from './hooks.js'
import { validateOpenAPISchema } from './openapi-schema.js'
import { newStructuralError } from './structural.js'
import { validateStructural } from './structural-validation.js'
import type { CustomResourceValidation, JSONSchemaProps } from './types.js'

// validateCustomResourceDefinitionValidation (validation.go): one schema (spec.validation or a
// version's schema). Order of the errors, as Go appends them: the root restrictions of the status
// subresource, `nullable` at the root, the structural errors (or else the default errors), the
// OpenAPI schema errors, the CEL errors (hook), and NewStructural's error only when nothing else
// was found.

/** The fields (Go names) a root schema may set when the status subresource is enabled. */
const ALLOWED_FIELDS_AT_ROOT = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
]

/** JSONSchemaProps' fields in declaration order: Go name, v1 JSON name. */
const SCHEMA_FIELDS: readonly (readonly [string, keyof JSONSchemaProps])[] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Nullable', 'nullable'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
]

export interface SchemaValidationOptions {
  readonly allowDefaults: boolean
  readonly requireValidPropertyType: boolean
  readonly requireStructuralSchema: boolean
  readonly requirePrunedDefaults: boolean
  readonly requireAtomicSetType: boolean
  readonly requireMapListKeysMapSetValidation: boolean
  readonly suppressPerExpressionCost: boolean
}

export function validateCustomResourceDefinitionValidation(
  validation: CustomResourceValidation | undefined,
  statusSubresourceEnabled: boolean,
  opts: SchemaValidationOptions,
  hooks: ValidationHooks,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const schema = validation?.openAPIV3Schema
  if (schema === undefined) return errs
  const schemaPath = fldPath.child('openAPIV3Schema')

  // status is extracted as properties[status]: the root may only hold what keeps its meaning then
  if (statusSubresourceEnabled) {
    for (const [goName, key] of SCHEMA_FIELDS) {
      if (schema[key] === undefined) continue // decoding left zero values out
      if (goName === 'Type') {
        if (schema.type !== 'object') {
          errs.push(
            field.invalid(
              fldPath.child('openAPIV3Schema.type'),
              schema.type,
              'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
            ),
          )
          break
        }
        continue
      }
      if (!ALLOWED_FIELDS_AT_ROOT.includes(goName)) {
        errs.push(
          field.invalid(
            schemaPath,
            marshaled(schemaJSON(schema)),
            `only [${ALLOWED_FIELDS_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        )
        break
      }
    }
  }
  if (schema.nullable === true)
    errs.push(field.forbidden(fldPath.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'))

  let celEnabled = false
  let structuralInitErrs: FieldError[] = []
  if (opts.requireStructuralSchema) {
    const initErr = newStructuralError(schema)
    if (initErr !== undefined) {
      // overlaps with the OpenAPI schema errors: shown only when those are none
      structuralInitErrs = [field.invalid(schemaPath, '', initErr)]
    } else {
      const structuralErrs = validateStructural(schemaPath, schema)
      if (structuralErrs.length > 0) errs.push(...structuralErrs)
      else {
        const defaultErrs = validateDefaults(schemaPath, schema, opts.requirePrunedDefaults, hooks.defaultValues)
        if (defaultErrs.length > 0) errs.push(...defaultErrs)
        // CEL rules compile only on structural schemas with valid defaults
        else celEnabled = true
      }
    }
  }

  const openAPI = validateOpenAPISchema(schema, schemaPath, opts, celEnabled)
  errs.push(...openAPI.schemaErrors)
  if (celEnabled && hooks.celRules !== undefined)
    errs.push(
      ...hooks.celRules({
        root: schema,
        rootPath: schemaPath,
        sites: openAPI.celSites,
        suppressPerExpressionCost: opts.suppressPerExpressionCost,
        preexistingRules: new Set(),
        preexistingMessageExpressions: new Set(),
      }),
    )
  if (errs.length === 0) errs.push(...structuralInitErrs)
  return errs
}
