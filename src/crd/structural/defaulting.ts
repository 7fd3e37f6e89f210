import { setOwn } from '../../kube/own-keys.js'
import { deepCopy, hasKey, isObject } from '../../kube/values/json.js'
import { prune } from './pruning.js'
import {
  additionalPropertiesSchema,
  defaultOf,
  embeddedResource,
  itemsSchema,
  type JSONSchemaProps,
  propertySchema,
} from './schema.js'

// apiextensions-apiserver pkg/apiserver/schema/defaulting: Default (algorithm.go) fills absent
// properties, and nulls where the schema is not nullable, with deep copies of the schema defaults,
// top-down (a defaulted object is itself defaulted further); PruneNonNullableNullsWithoutDefaults
// (prunenulls.go) drops nulls the schema neither allows nor defaults, as decoding does after pruning;
// PruneDefaults (prune.go) prunes unknown fields out of the defaults when the CRD is served. All
// mutate their argument.

const isNonNullableNull = (x: unknown, s: JSONSchemaProps | undefined) =>
  x === null && s !== undefined && s.nullable !== true

/** Default(x, s). */
export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return
  if (Array.isArray(x)) {
    const items = itemsSchema(s)
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items)) x[i] = deepCopy(defaultOf(items) ?? null)
      applyDefaults(x[i], items)
    }
    return
  }
  if (!isObject(x)) return
  if (s.properties !== undefined) {
    for (const k of Object.keys(s.properties)) {
      const prop = s.properties[k] as JSONSchemaProps
      const d = defaultOf(prop)
      if (d === undefined) continue
      if (!hasKey(x, k) || isNonNullableNull(x[k], prop)) setOwn(x, k, deepCopy(d))
    }
  }
  const ap = additionalPropertiesSchema(s)
  for (const k of Object.keys(x)) {
    const prop = propertySchema(s, k)
    if (prop !== undefined) applyDefaults(x[k], prop)
    else if (ap !== undefined) {
      if (isNonNullableNull(x[k], ap)) setOwn(x, k, deepCopy(defaultOf(ap) ?? null))
      applyDefaults(x[k], ap)
    }
  }
}

function schemaForField(field: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  if (s === undefined) return undefined
  return propertySchema(s, field) ?? additionalPropertiesSchema(s)
}

/** PruneNonNullableNullsWithoutDefaults(x, s). */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s)
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, items)
    return
  }
  if (!isObject(x)) return
  for (const k of Object.keys(x)) {
    const schema = schemaForField(k, s)
    if (isNonNullableNull(x[k], schema) && defaultOf(schema) === undefined) delete x[k]
    else pruneNonNullableNullsWithoutDefaults(x[k], schema)
  }
}

const prunedDefaults = new WeakMap<JSONSchemaProps, JSONSchemaProps>()

/**
 * PruneDefaults, as a copy of the schema whose defaults hold no unknown fields. Each default is
 * pruned against its own node (what CRD validation requires of defaults, so valid CRDs come back
 * unchanged); Go prunes it inside a skeleton object from the root, which differs only for defaults
 * inside metadata. Cached per schema object.
 */
export function pruneDefaults(s: JSONSchemaProps): JSONSchemaProps {
  let out = prunedDefaults.get(s)
  if (out === undefined) prunedDefaults.set(s, (out = pruneSchemaDefaults(s)))
  return out
}

function pruneSchemaDefaults(s: JSONSchemaProps): JSONSchemaProps {
  const out: { -readonly [K in keyof JSONSchemaProps]: JSONSchemaProps[K] } = { ...s }
  const d = defaultOf(s)
  if (d !== undefined) {
    const copy = deepCopy(d)
    prune(copy, s, embeddedResource(s))
    out.default = copy
  }
  const ap = additionalPropertiesSchema(s)
  if (ap !== undefined) out.additionalProperties = pruneSchemaDefaults(ap)
  const items = itemsSchema(s)
  if (items !== undefined) out.items = pruneSchemaDefaults(items)
  if (s.properties !== undefined) {
    const props: Record<string, JSONSchemaProps> = {}
    for (const k of Object.keys(s.properties)) setOwn(props, k, pruneSchemaDefaults(s.properties[k] as JSONSchemaProps))
    out.properties = props
  }
  return out
}
