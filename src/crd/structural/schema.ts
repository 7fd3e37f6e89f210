// apiextensions.k8s.io/v1 JSONSchemaProps as plain JSON (types_jsonschema.go), and the few structural
// schema accessors (apiextensions-apiserver pkg/apiserver/schema/structural.go) that pruning,
// defaulting, list-type and metadata checks read. A structural schema is the same tree with
// allOf/anyOf/oneOf/not kept out of the shape: only properties, items and additionalProperties nest.

/** One node of a CRD version's `openAPIV3Schema`, as the JSON of apiextensions.k8s.io/v1. */
export interface JSONSchemaProps {
  readonly id?: string
  readonly $schema?: string
  readonly $ref?: string
  readonly description?: string
  readonly type?: string
  readonly format?: string
  readonly title?: string
  readonly default?: unknown
  readonly maximum?: number
  readonly exclusiveMaximum?: boolean
  readonly minimum?: number
  readonly exclusiveMinimum?: boolean
  readonly maxLength?: number
  readonly minLength?: number
  readonly pattern?: string
  readonly maxItems?: number
  readonly minItems?: number
  readonly uniqueItems?: boolean
  readonly multipleOf?: number
  readonly enum?: readonly unknown[]
  readonly maxProperties?: number
  readonly minProperties?: number
  readonly required?: readonly string[]
  readonly items?: JSONSchemaProps | readonly JSONSchemaProps[]
  readonly allOf?: readonly JSONSchemaProps[]
  readonly oneOf?: readonly JSONSchemaProps[]
  readonly anyOf?: readonly JSONSchemaProps[]
  readonly not?: JSONSchemaProps
  readonly properties?: Readonly<Record<string, JSONSchemaProps>>
  readonly additionalProperties?: JSONSchemaProps | boolean
  readonly patternProperties?: Readonly<Record<string, JSONSchemaProps>>
  readonly dependencies?: Readonly<Record<string, JSONSchemaProps | readonly string[]>>
  readonly additionalItems?: JSONSchemaProps | boolean
  readonly definitions?: Readonly<Record<string, JSONSchemaProps>>
  readonly externalDocs?: { readonly description?: string; readonly url?: string }
  readonly example?: unknown
  readonly nullable?: boolean
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean
  readonly 'x-kubernetes-embedded-resource'?: boolean
  readonly 'x-kubernetes-int-or-string'?: boolean
  readonly 'x-kubernetes-list-map-keys'?: readonly string[]
  readonly 'x-kubernetes-list-type'?: string
  readonly 'x-kubernetes-map-type'?: string
  readonly 'x-kubernetes-validations'?: readonly unknown[]
}

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
  const i = s.items
  return typeof i === 'object' && i !== null && !Array.isArray(i) ? (i as JSONSchemaProps) : undefined
}

/** The structural default (`Default.Object`): absent and `default: null` both mean none. */
export function defaultOf(s: JSONSchemaProps | undefined): unknown {
  return s?.default ?? undefined
}

export const preserveUnknownFields = (s: JSONSchemaProps): boolean => s['x-kubernetes-preserve-unknown-fields'] === true
export const embeddedResource = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true
