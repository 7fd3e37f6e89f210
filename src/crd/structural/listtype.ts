import { type FieldError, FieldPath, field, goJSON } from '../../kube/field.js'
import { isObject, kindOf } from '../../kube/values/json.js'
import { additionalPropertiesSchema, itemsSchema, type JSONSchemaProps, propertySchema } from './schema.js'

// apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go ValidateListSetsAndMaps: items
// of `x-kubernetes-list-type: set` lists must be unique, and items of `map` lists must be objects
// with unique key tuples; each later duplicate is reported once as `Duplicate value`. Scalars compare
// by Go type and value, objects and lists by their JSON.

/** ValidateListSetsAndMaps(fldPath, s, obj): additionalProperties entries first, then properties. */
export function validateListSetsAndMaps(
  fldPath: FieldPath | undefined,
  s: JSONSchemaProps | undefined,
  obj: Record<string, unknown> | undefined,
): FieldError[] {
  if (s === undefined || obj === undefined) return []
  const errs: FieldError[] = []
  const ap = additionalPropertiesSchema(s)
  if (ap !== undefined) {
    for (const k of Object.keys(obj)) errs.push(...validateValue(keyPath(fldPath, k), ap, obj[k]))
  }
  if (s.properties !== undefined) {
    for (const k of Object.keys(obj)) {
      const sub = propertySchema(s, k)
      if (sub !== undefined) errs.push(...validateValue(childPath(fldPath, k), sub, obj[k]))
    }
  }
  return errs
}

const childPath = (p: FieldPath | undefined, k: string) => (p === undefined ? FieldPath.of(k) : p.child(k))
const keyPath = (p: FieldPath | undefined, k: string) => (p === undefined ? FieldPath.ofKey(k) : p.key(k))

function validateValue(fldPath: FieldPath, s: JSONSchemaProps, obj: unknown): FieldError[] {
  if (Array.isArray(obj)) return validateArray(fldPath, s, obj)
  if (isObject(obj)) return validateListSetsAndMaps(fldPath, s, obj)
  return []
}

function validateArray(fldPath: FieldPath, s: JSONSchemaProps, obj: unknown[]): FieldError[] {
  const errs: FieldError[] = []
  switch (s['x-kubernetes-list-type']) {
    case 'set':
      for (const i of nonUniqueIndices(obj)) errs.push(field.duplicate(fldPath.index(i), obj[i]))
      break
    case 'map':
      errs.push(...validateListMap(fldPath, s, obj))
      break
  }
  const items = itemsSchema(s)
  if (items !== undefined)
    for (let i = 0; i < obj.length; i++) errs.push(...validateValue(fldPath.index(i), items, obj[i]))
  return errs
}

/** The identity validateListSet compares: the Go scalar (type and value), or the JSON of compounds. */
function identity(x: unknown): string {
  const k = kindOf(x)
  if (k === 'map' || k === 'slice') return `json:${goJSON(x)}`
  return k === 'null' ? 'null' : `${k}:${String(x)}`
}

/** validateListSet: the index of the second occurrence of each repeated value. */
function nonUniqueIndices(obj: readonly unknown[], ids: readonly string[] = obj.map(identity)): number[] {
  if (obj.length <= 1) return []
  const seen = new Map<string, number>()
  const out: number[] = []
  ids.forEach((id, i) => {
    const times = seen.get(id)
    if (times === undefined) seen.set(id, 1)
    else {
      seen.set(id, times + 1)
      if (times === 1) out.push(i)
    }
  })
  return out
}

function validateListMap(fldPath: FieldPath, s: JSONSchemaProps, obj: unknown[]): FieldError[] {
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i]
    if (x !== null && !isObject(x))
      return [field.invalid(fldPath.index(i), x, 'must be an object for an array of list-type map')]
  }
  if (obj.length <= 1) return []
  const keyFields = s['x-kubernetes-list-map-keys'] ?? []
  if (keyFields.length === 1) {
    const keyField = keyFields[0] as string
    // an absent key (or a null item) is its own "unspecified" value
    const keys = obj.map((x) => (isObject(x) && Object.hasOwn(x, keyField) ? { v: x[keyField] } : undefined))
    const ids = keys.map((k) => (k === undefined ? 'unspecified' : identity(k.v)))
    return nonUniqueIndices(obj, ids).map((i) => {
      const k = keys[i]
      return field.duplicate(fldPath.index(i), k === undefined ? {} : { [keyField]: k.v })
    })
  }
  const keys = obj.map((x) => {
    const key: Record<string, unknown> = {}
    if (isObject(x)) for (const f of keyFields) if (Object.hasOwn(x, f)) key[f] = x[f]
    return key
  })
  return nonUniqueIndices(keys).map((i) => field.duplicate(fldPath.index(i), keys[i]))
}
