// apiextensions.k8s.io/v1 JSONSchemaProps as plain JSON (types_jsonschema.go), and the few structural
// schema accessors (apiextensions-apiserver pkg/apiserver/schema/structural.go) that pruning,
// defaulting, list-type and metadata checks read. A structural schema is the same tree with
// allOf/anyOf/oneOf/not kept out of the shape: only properties, items and additionalProperties nest.

import type { JSONSchemaProps } from '../../kube/schema/structural.js'

export type { JSONSchemaProps }

/** The schema of property `k` (Structural.Properties[k]), own keys only. */
export function propertySchema(s: JSONSchemaProps, k: string): JSONSchemaProps | undefined {
  const p = s.properties
  return p !== undefined && Object.hasOwn(p, k) ? p[k] : undefined
}

/** `s.AdditionalProperties != nil`: set to a schema or to a boolean. */
export function hasAdditionalProperties(s: JSONSchemaProps): boolean {
  return s.additionalProperties !== undefined && s.additionalProperties !== null
}

/**
 * `s.AdditionalProperties.Structural`: the schema, or undefined for `additionalProperties: true|false`
 * (Structural keeps only the Bool then).
 */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const a = s.additionalProperties
  return typeof a === 'object' && a !== null ? a : undefined
}

/** `s.Items` of a structural schema (a single schema; item tuples are not structural). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const i: unknown = s.items
  return typeof i === 'object' && i !== null && !Array.isArray(i) ? (i as JSONSchemaProps) : undefined
}

/** The structural default (`Default.Object`): absent and `default: null` both mean none. */
export function defaultOf(s: JSONSchemaProps | undefined): unknown {
  return s?.default ?? undefined
}

export const preserveUnknownFields = (s: JSONSchemaProps): boolean => s['x-kubernetes-preserve-unknown-fields'] === true
export const embeddedResource = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true
