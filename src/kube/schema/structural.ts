// An OpenAPI v3 schema as a CustomResourceDefinition carries it (apiextensions.k8s.io/v1
// JSONSchemaProps), read as the JSON it is. Only the fields kelp reads are typed here.

export interface ValidationRule {
  readonly rule: string
  readonly message?: string
  readonly messageExpression?: string
  readonly reason?: string
  readonly fieldPath?: string
  readonly optionalOldSelf?: boolean
}

/**
 * One node of a CRD version's `openAPIV3Schema` as the JSON of apiextensions.k8s.io/v1
 * (types_jsonschema.go). Structural schemas nest only through properties, items (one schema) and
 * additionalProperties; the CRD definition checks read the non-structural rest as plain JSON.
 */
export interface JSONSchemaProps {
  readonly id?: string
  readonly $schema?: string
  readonly $ref?: string
  readonly title?: string
  readonly type?: string
  readonly format?: string
  readonly description?: string
  readonly nullable?: boolean
  readonly default?: unknown
  readonly example?: unknown
  readonly enum?: readonly unknown[]
  readonly required?: readonly string[]
  readonly properties?: Readonly<Record<string, JSONSchemaProps>>
  readonly items?: JSONSchemaProps
  readonly additionalProperties?: JSONSchemaProps | boolean
  readonly maximum?: number
  readonly exclusiveMaximum?: boolean
  readonly minimum?: number
  readonly exclusiveMinimum?: boolean
  readonly multipleOf?: number
  readonly maxLength?: number
  readonly minLength?: number
  readonly maxItems?: number
  readonly minItems?: number
  readonly uniqueItems?: boolean
  readonly maxProperties?: number
  readonly minProperties?: number
  readonly pattern?: string
  readonly allOf?: readonly JSONSchemaProps[]
  readonly anyOf?: readonly JSONSchemaProps[]
  readonly oneOf?: readonly JSONSchemaProps[]
  readonly not?: JSONSchemaProps
  readonly 'x-kubernetes-int-or-string'?: boolean
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean
  readonly 'x-kubernetes-embedded-resource'?: boolean
  readonly 'x-kubernetes-list-type'?: string
  readonly 'x-kubernetes-list-map-keys'?: readonly string[]
  readonly 'x-kubernetes-map-type'?: string
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[]
  readonly [key: string]: unknown
}

/** The schema of `additionalProperties` when it is a schema (not a bool). */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const a = s.additionalProperties
  return typeof a === 'object' && a !== null ? a : undefined
}

export function isIntOrString(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-int-or-string'] === true
}

export function isEmbeddedResource(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-embedded-resource'] === true
}

/**
 * WithTypeAndObjectMeta (apiextensions schema/cel/model/schemas.go): a resource root (the CR root
 * and every embedded resource) declares `kind`, `apiVersion` and `metadata` with only `name` and
 * `generateName`, whatever its schema says. From 1.37 the names carry the DNS-1123 subdomain
 * maxLength (253, generateName 252) for cost estimation; 1.36 leaves them unbounded.
 */
export function withTypeAndObjectMeta(s: JSONSchemaProps, capNames: boolean): JSONSchemaProps {
  const p = s.properties
  const meta = p?.metadata
  if (
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.name?.type === 'string' &&
    meta.properties.generateName?.type === 'string'
  )
    return s
  const str: JSONSchemaProps = { type: 'string' }
  const capped = (existing: JSONSchemaProps | undefined, max: number): JSONSchemaProps => {
    if (!capNames) return str
    const m = existing?.maxLength
    return { type: 'string', maxLength: m !== undefined && m < max ? m : max }
  }
  return {
    ...s,
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: {
        type: 'object',
        properties: {
          name: capped(meta?.properties?.name, 253),
          generateName: capped(meta?.properties?.generateName, 252),
        },
      },
    },
  }
}
