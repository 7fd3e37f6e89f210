import { compareStrings } from '../../cel/values/strings.js'
import type { JSONSchemaProps } from './types.js'

// NewStructural (apiextensions pkg/apiserver/schema/convert.go) read directly off the internal
// JSONSchemaProps: the structural part of a node is its items (one schema), properties,
// additionalProperties, generic fields and extensions; allOf / anyOf / oneOf / not hold value
// validations (NestedValueValidation). This file gives NewStructural's error and the structural
// views of a node that the checks read.

/** Structural.Items: nil for an absent or list-form `items`. */
export function structuralItems(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return s.items === undefined || Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps)
}

/** Structural.Properties: nil when there are none. */
export function structuralProperties(s: JSONSchemaProps): Readonly<Record<string, JSONSchemaProps>> | undefined {
  return s.properties !== undefined && Object.keys(s.properties).length > 0 ? s.properties : undefined
}

/** The schema of additionalProperties (StructuralOrBool.Structural), when it is one. */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined
}

/** Own keys in sorted order: Go visits maps in random order, kelp in a fixed one (Go's string order). */
export function sortedKeys(m: Readonly<Record<string, unknown>> | undefined): string[] {
  return m === undefined ? [] : Object.keys(m).sort(compareStrings)
}

/** validateUnsupportedFields: the keywords NewStructural cannot represent. */
function unsupportedField(s: JSONSchemaProps): string | undefined {
  if ((s.id ?? '').length > 0) return "OpenAPIV3Schema 'id' is not supported"
  if ((s.$schema ?? '').length > 0) return "OpenAPIV3Schema 'schema' is not supported"
  if ((s.$ref ?? '').length > 0) return "OpenAPIV3Schema '$ref' is not supported"
  if (Object.keys(s.patternProperties ?? {}).length > 0) return "OpenAPIV3Schema 'patternProperties' is not supported"
  if (Object.keys(s.dependencies ?? {}).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported"
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported"
  if (Object.keys(s.definitions ?? {}).length > 0) return "OpenAPIV3Schema 'definitions' is not supported"
  return undefined
}

/** The first error NewStructural returns for `s` (undefined when it converts), in Go's visiting order. */
export function newStructuralError(s: JSONSchemaProps | undefined): string | undefined {
  if (s === undefined) return undefined
  return (
    unsupportedField(s) ??
    valueValidationError(s) ??
    extensionsError(s) ??
    itemsError(s, newStructuralError) ??
    firstOf(sortedKeys(s.properties), (k) => newStructuralError(s.properties?.[k])) ??
    newStructuralError(additionalPropertiesSchema(s))
  )
}

/** newNestedValueValidation's error. */
function nestedError(s: JSONSchemaProps | undefined): string | undefined {
  if (s === undefined) return undefined
  return (
    unsupportedField(s) ??
    valueValidationError(s) ??
    extensionsError(s) ??
    itemsError(s, nestedError) ??
    firstOf(sortedKeys(s.properties), (k) => nestedError(s.properties?.[k])) ??
    nestedError(additionalPropertiesSchema(s))
  )
}

/** newValueValidation: not, allOf, anyOf, oneOf. */
function valueValidationError(s: JSONSchemaProps): string | undefined {
  return (
    nestedError(s.not) ??
    firstOf(s.allOf ?? [], nestedError) ??
    firstOf(s.anyOf ?? [], nestedError) ??
    firstOf(s.oneOf ?? [], nestedError)
  )
}

function extensionsError(s: JSONSchemaProps): string | undefined {
  return s['x-kubernetes-preserve-unknown-fields'] === false
    ? "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
    : undefined
}

function itemsError(s: JSONSchemaProps, recurse: (x: JSONSchemaProps | undefined) => string | undefined) {
  if (Array.isArray(s.items)) {
    return s.items.length > 0 ? "OpenAPIV3Schema 'items' must be a schema, but is an array" : undefined
  }
  return recurse(s.items as JSONSchemaProps | undefined)
}

function firstOf<T>(xs: readonly T[], f: (x: T) => string | undefined): string | undefined {
  for (const x of xs) {
    const e = f(x)
    if (e !== undefined) return e
  }
  return undefined
}
