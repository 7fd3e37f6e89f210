import { compareGoStrings, isObject } from '../../kube/values/json.js'
import {
  additionalPropertiesSchema,
  embeddedResource,
  hasAdditionalProperties,
  itemsSchema,
  type JSONSchemaProps,
  preserveUnknownFields,
  propertySchema,
} from './schema.js'

// apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go PruneWithOptions: drops object
// fields the structural schema does not specify, in place, and returns their paths sorted (the
// `unknown field "<path>"` texts of strict field validation; paths as `a.b[0].c`). apiVersion, kind
// and metadata of the resource root and of x-kubernetes-embedded-resource objects are left alone
// (objectmeta coercion handles metadata); x-kubernetes-preserve-unknown-fields keeps unknown fields
// but still prunes inside the specified ones.

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata'])

const join = (parent: string, key: string) => (parent === '' ? key : `${parent}.${key}`)

/** The root treated as an embedded resource (PruneWithOptions / Coerce / Validate with isResourceRoot). */
export function asResourceRoot(s: JSONSchemaProps | undefined): JSONSchemaProps {
  const r = s ?? {}
  return embeddedResource(r) ? r : { ...r, 'x-kubernetes-embedded-resource': true }
}

/** PruneWithOptions(obj, s, isResourceRoot, {TrackUnknownFieldPaths: true}). Mutates obj. */
export function prune(obj: unknown, s: JSONSchemaProps | undefined, isResourceRoot: boolean): string[] {
  const paths: string[] = []
  pruneNode(obj, isResourceRoot ? asResourceRoot(s) : s, '', paths)
  return paths.sort(compareGoStrings)
}

function pruneNode(x: unknown, s: JSONSchemaProps | undefined, parent: string, paths: string[]): void {
  if (s !== undefined && preserveUnknownFields(s)) {
    skipPrune(x, s, parent, paths)
    return
  }
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s)
    for (let i = 0; i < x.length; i++) pruneNode(x[i], items, `${parent}[${i}]`, paths)
    return
  }
  if (!isObject(x)) return
  if (s === undefined) {
    for (const k of Object.keys(x)) {
      paths.push(join(parent, k))
      delete x[k]
    }
    return
  }
  for (const k of Object.keys(x)) {
    if (embeddedResource(s) && META_FIELDS.has(k)) continue
    const prop = propertySchema(s, k)
    if (prop !== undefined) pruneNode(x[k], prop, join(parent, k), paths)
    else if (hasAdditionalProperties(s)) pruneNode(x[k], additionalPropertiesSchema(s), join(parent, k), paths)
    else {
      // unknown apiVersion/kind/metadata at the very root are dropped without being reported
      if (!META_FIELDS.has(k) || parent !== '') paths.push(join(parent, k))
      delete x[k]
    }
  }
}

function skipPrune(x: unknown, s: JSONSchemaProps | undefined, parent: string, paths: string[]): void {
  if (s === undefined) return
  if (Array.isArray(x)) {
    const items = itemsSchema(s)
    for (let i = 0; i < x.length; i++) skipPrune(x[i], items, `${parent}[${i}]`, paths)
    return
  }
  if (!isObject(x)) return
  for (const k of Object.keys(x)) {
    if (embeddedResource(s) && META_FIELDS.has(k)) continue
    const prop = propertySchema(s, k)
    if (prop !== undefined) pruneNode(x[k], prop, join(parent, k), paths)
    else if (hasAdditionalProperties(s)) pruneNode(x[k], additionalPropertiesSchema(s), join(parent, k), paths)
  }
}
