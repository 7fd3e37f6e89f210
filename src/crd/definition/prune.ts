import { isObject } from '../../kube/values/json.js'
import { additionalPropertiesSchema } from './structural.js'
import type { JSONSchemaProps } from './types.js'

// Whether pruning (apiextensions pkg/apiserver/schema/pruning/algorithm.go) would drop anything from
// a value: the defaulting validation requires defaults to be pruned already ("must not have unknown
// fields"), and pruning only ever deletes keys, so "unchanged" is "nothing to delete".

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata'])

/** Prune(x, s, isResourceRoot) would delete a field. */
export function wouldPrune(x: unknown, s: JSONSchemaProps | undefined, isResourceRoot: boolean): boolean {
  if (isResourceRoot) s = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true }
  return prune(x, s)
}

function prune(x: unknown, s: JSONSchemaProps | undefined): boolean {
  if (s?.['x-kubernetes-preserve-unknown-fields'] === true) return skipPrune(x, s)
  if (isObject(x)) {
    if (s === undefined) return Object.keys(x).length > 0
    for (const k of Object.keys(x)) {
      if (s['x-kubernetes-embedded-resource'] === true && META_FIELDS.has(k)) continue
      if (s.properties !== undefined && Object.hasOwn(s.properties, k)) {
        if (prune(x[k], s.properties[k])) return true
      } else if (s.additionalProperties !== undefined) {
        // additionalProperties: false is a StructuralOrBool too: its values are pruned against nil
        if (prune(x[k], additionalPropertiesSchema(s))) return true
      } else {
        return true
      }
    }
    return false
  }
  if (Array.isArray(x)) {
    const items = s === undefined || Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined)
    return x.some((v) => prune(v, items))
  }
  return false
}

/** skipPrune: under x-kubernetes-preserve-unknown-fields only the specified fields are pruned. */
function skipPrune(x: unknown, s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (s['x-kubernetes-embedded-resource'] === true && META_FIELDS.has(k)) continue
      if (s.properties !== undefined && Object.hasOwn(s.properties, k)) {
        if (prune(x[k], s.properties[k])) return true
      } else if (s.additionalProperties !== undefined) {
        if (prune(x[k], additionalPropertiesSchema(s))) return true
      }
    }
    return false
  }
  if (Array.isArray(x)) {
    const items = Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined)
    return x.some((v) => skipPrune(v, items))
  }
  return false
}
