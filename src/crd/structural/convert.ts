import { supportedFormat } from './formats.js'
import { itemsSchema, type JSONSchemaProps } from './schema.js'

// apiextensions-apiserver pkg/apiserver/validation/validation.go ConvertJSONSchemaPropsWithPostProcess:
// the CRD schema as the kube-openapi spec.Schema the validator walks. x-kubernetes-int-or-string
// becomes `type: [integer, string]`, and each node's format goes through the compatibility version's
// post-processor (unsupported formats blanked). Keywords CRDs forbid (patternProperties,
// dependencies, additionalItems, item tuples, $ref) are not carried: a CRD carrying them is rejected
// when it is created.

/** A node of the converted schema (spec.Schema, the parts validation reads). */
export interface OpenAPISchema {
  readonly type: readonly string[]
  readonly nullable: boolean
  readonly format: string
  readonly maximum?: number
  readonly exclusiveMaximum: boolean
  readonly minimum?: number
  readonly exclusiveMinimum: boolean
  readonly maxLength?: number
  readonly minLength?: number
  readonly pattern: string
  readonly maxItems?: number
  readonly minItems?: number
  readonly uniqueItems: boolean
  readonly multipleOf?: number
  readonly enum?: readonly unknown[]
  readonly maxProperties?: number
  readonly minProperties?: number
  readonly required: readonly string[]
  readonly allOf: readonly OpenAPISchema[]
  readonly oneOf: readonly OpenAPISchema[]
  readonly anyOf: readonly OpenAPISchema[]
  readonly not?: OpenAPISchema
  /** Properties in declaration order. */
  readonly properties?: ReadonlyMap<string, OpenAPISchema>
  /** SchemaOrBool: `allows` false for `additionalProperties: false`. */
  readonly additionalProperties?: { readonly allows: boolean; readonly schema?: OpenAPISchema }
  readonly items?: OpenAPISchema
  readonly xListType?: string
  readonly xListMapKeys?: readonly string[]
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

function convert(s: JSONSchemaProps, compatibilityMinor: number): OpenAPISchema {
  const conv = (x: JSONSchemaProps) => convert(x, compatibilityMinor)
  let type: readonly string[] = s.type ? [s.type] : []
  if (s['x-kubernetes-int-or-string'] === true) type = ['integer', 'string']
  let properties: Map<string, OpenAPISchema> | undefined
  if (s.properties) {
    properties = new Map()
    for (const k of Object.keys(s.properties)) properties.set(k, conv(s.properties[k] as JSONSchemaProps))
  }
  const ap = s.additionalProperties
  const additionalProperties =
    ap === undefined || ap === null
      ? undefined
      : typeof ap === 'boolean'
        ? { allows: ap }
        : { allows: true, schema: conv(ap) }
  const itemSchema = itemsSchema(s)
  const items = itemSchema ? conv(itemSchema) : undefined
  return {
    type,
    nullable: s.nullable === true,
    format: supportedFormat(s.format ?? '', type, compatibilityMinor),
    maximum: num(s.maximum),
    exclusiveMaximum: s.exclusiveMaximum === true,
    minimum: num(s.minimum),
    exclusiveMinimum: s.exclusiveMinimum === true,
    maxLength: num(s.maxLength),
    minLength: num(s.minLength),
    pattern: s.pattern ?? '',
    maxItems: num(s.maxItems),
    minItems: num(s.minItems),
    uniqueItems: s.uniqueItems === true,
    multipleOf: num(s.multipleOf),
    enum: s.enum ?? undefined,
    maxProperties: num(s.maxProperties),
    minProperties: num(s.minProperties),
    required: s.required ?? [],
    allOf: (s.allOf ?? []).map(conv),
    oneOf: (s.oneOf ?? []).map(conv),
    anyOf: (s.anyOf ?? []).map(conv),
    not: s.not ? conv(s.not) : undefined,
    properties,
    additionalProperties,
    items,
    xListType: s['x-kubernetes-list-type'],
    xListMapKeys: s['x-kubernetes-list-map-keys'],
  }
}

const cache = new WeakMap<JSONSchemaProps, Map<number, OpenAPISchema>>()

/**
 * The validator's view of a CRD schema at a compatibility minor version (1.x), computed once per
 * schema object and version. The schema must not be mutated afterwards.
 */
export function toOpenAPISchema(s: JSONSchemaProps, compatibilityMinor: number): OpenAPISchema {
  let byVersion = cache.get(s)
  if (byVersion === undefined) cache.set(s, (byVersion = new Map()))
  let out = byVersion.get(compatibilityMinor)
  if (out === undefined) byVersion.set(compatibilityMinor, (out = convert(s, compatibilityMinor)))
  return out
}
