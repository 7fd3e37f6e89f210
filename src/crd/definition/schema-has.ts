import type { CustomResourceDefinitionSpec, JSONSchemaProps } from './types.js'

// SchemaHas / HasSchemaWith (validation.go): whether any schema node of a spec satisfies a predicate,
// visiting every subschema keyword.

export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (s === undefined) return false
  if (pred(s)) return true
  const sub = (x: unknown) => typeof x === 'object' && x !== null && schemaHas(x as JSONSchemaProps, pred)
  if (Array.isArray(s.items) ? s.items.some(sub) : sub(s.items)) return true
  if (s.allOf?.some(sub) || s.anyOf?.some(sub) || s.oneOf?.some(sub) || sub(s.not)) return true
  if (Object.values(s.properties ?? {}).some(sub)) return true
  if (sub(s.additionalProperties)) return true
  if (Object.values(s.patternProperties ?? {}).some(sub)) return true
  if (sub(s.additionalItems)) return true
  if (Object.values(s.definitions ?? {}).some(sub)) return true
  return Object.values(s.dependencies ?? {}).some((d) => !Array.isArray(d) && sub(d))
}

export function hasSchemaWith(spec: CustomResourceDefinitionSpec, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (spec.validation?.openAPIV3Schema !== undefined && pred(spec.validation.openAPIV3Schema)) return true
  return (spec.versions ?? []).some((v) => v.schema?.openAPIV3Schema !== undefined && pred(v.schema.openAPIV3Schema))
}

/** specHasDefaults. */
export function specHasDefaults(spec: CustomResourceDefinitionSpec): boolean {
  return hasSchemaWith(spec, (s) => schemaHas(s, (x) => x.default !== undefined))
}
