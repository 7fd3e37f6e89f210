import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import type { JSONValue } from './jsonpatch.js'

// An ApplyConfiguration merged into the request's object as mutating/patch/smd.go
// ApplyStructuredMergeDiff does it with structured-merge-diff v6: the patch typed by the kind's
// schema (ObjectToTyped: every field declared, associative list items carrying their keys), refused
// when it sets any atomic list, map or struct (validatePatch / findAtomics), then live.Merge(patch):
// granular maps and structs merged field by field, atomic ones and scalars replaced, `set` lists
// unioned, `map` lists merged item by item by their keys, atomic lists replaced. The schema is the
// OpenAPI one (built-ins: the published document of the release, whose x-kubernetes-list-type /
// -list-map-keys / -map-type, and x-kubernetes-patch-strategy / -patch-merge-key for lists without a
// list type, are what kube-openapi's schemaconv reads; CRDs: the structural schema).

type JSONObject = { [key: string]: JSONValue }

export class SmdError extends Error {}

/** A map or list the ApplyConfiguration's CEL value left unconverted (mutator.ts objectToNative). */
export class Unconverted {
  constructor(
    readonly value: unknown,
    /** Go's %v of it. */
    readonly text: string,
  ) {}
}

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)

type ListKind = { kind: 'atomic' } | { kind: 'set' } | { kind: 'map'; keys: readonly string[] }

/** How schemaconv types a list: its list type, else a merge patch strategy with a merge key, else atomic. */
function listKind(s: JSONSchemaProps): ListKind {
  const lt = s['x-kubernetes-list-type']
  if (lt === 'set') return { kind: 'set' }
  if (lt === 'map') return { kind: 'map', keys: s['x-kubernetes-list-map-keys'] ?? [] }
  if (lt === 'atomic') return { kind: 'atomic' }
  const ext = s as { 'x-kubernetes-patch-strategy'?: string; 'x-kubernetes-patch-merge-key'?: string }
  const strategy = ext['x-kubernetes-patch-strategy'] ?? ''
  const key = ext['x-kubernetes-patch-merge-key']
  if (strategy.split(',').includes('merge')) return key ? { kind: 'map', keys: [key] } : { kind: 'set' }
  return { kind: 'atomic' }
}

const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined =>
  Array.isArray(s.items) ? (s.items[0] as JSONSchemaProps | undefined) : (s.items as JSONSchemaProps | undefined)

const isList = (s: JSONSchemaProps | undefined) => s?.type === 'array' || (s !== undefined && s.items !== undefined)
const isMap = (s: JSONSchemaProps | undefined) =>
  s !== undefined && (s.type === 'object' || s.properties !== undefined || s.additionalProperties !== undefined)

/** The schema of a field of a map/struct, or undefined when it is not declared. */
function fieldSchema(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined | 'untyped' {
  const p = s.properties?.[key]
  if (p !== undefined) return p
  const ap = s.additionalProperties
  if (typeof ap === 'object') return ap
  if (ap === true || s['x-kubernetes-preserve-unknown-fields'] === true) return 'untyped'
  return undefined
}

const pathString = (path: readonly string[]) => path.join('')

/** The key of an associative list item: its key fields' values (a missing key with a default uses it). */
function itemKey(
  item: JSONValue,
  keys: readonly string[],
  items: JSONSchemaProps | undefined,
  path: string,
  i: number,
): string {
  if (!isObject(item))
    throw new SmdError(`${path}: element ${i}: associative list with keys may only have map elements`)
  const parts: unknown[] = []
  for (const k of keys) {
    let v = item[k]
    if (v === undefined) {
      const d = items?.properties?.[k]?.default
      if (d === undefined)
        throw new SmdError(
          `${path}: element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`,
        )
      v = d as JSONValue
    }
    parts.push(v)
  }
  return JSON.stringify(parts)
}

/** ObjectToTyped's validation of the patch: every field declared, list items keyed (errors joined). */
function validateTyped(v: JSONValue, s: JSONSchemaProps | 'untyped' | undefined, path: string[], errs: string[]): void {
  if ((v as unknown) instanceof Unconverted) {
    // neither map nor list to the typed walker: a deduced field takes it for a map
    if (s !== undefined) {
      const want = s !== 'untyped' && isList(s) ? 'list' : 'map'
      errs.push(`${pathString(path)}: expected ${want}, got &{${(v as unknown as Unconverted).text}}`)
    }
    return
  }
  if (s === 'untyped' && typeof v === 'object' && v !== null) {
    if (Array.isArray(v))
      v.forEach((x, i) => {
        validateTyped(x, 'untyped', [...path, `[${i}]`], errs)
      })
    else for (const [k, x] of Object.entries(v)) validateTyped(x, 'untyped', [...path, `.${k}`], errs)
    return
  }
  if (s === 'untyped' || s === undefined || v === null) return
  if (isObject(v) && isMap(s)) {
    for (const [k, x] of Object.entries(v)) {
      const fs = fieldSchema(s, k)
      if (fs === undefined) {
        errs.push(`${pathString([...path, `.${k}`])}: field not declared in schema`)
        continue
      }
      validateTyped(x, fs, [...path, `.${k}`], errs)
    }
    return
  }
  if (!isObject(v) && !Array.isArray(v)) {
    const e = scalarError(v, s)
    if (e !== undefined) errs.push(`${pathString(path)}: ${e}`)
    return
  }
  if (Array.isArray(v) && isList(s)) {
    const items = itemsOf(s)
    const lk = listKind(s)
    const seen = new Set<string>()
    v.forEach((x, i) => {
      if (lk.kind === 'map') {
        try {
          const key = itemKey(x, lk.keys, items, pathString(path), i)
          if (seen.has(key)) errs.push(`${pathString(path)}: duplicate entries for key ${formatKey(x, lk.keys)}`)
          seen.add(key)
        } catch (e) {
          errs.push((e as Error).message)
          return
        }
      }
      validateTyped(x, items, [...path, `[${i}]`], errs)
    })
  }
}

/** Go's %#v of a JSON value held in an interface{} (what value.valueUnstructured wraps). */
function goSharpV(v: JSONValue): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return String(v)
}
/** Go's %T of a JSON value decoded into interface{}. */
const goTypeOf = (v: JSONValue): string =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'boolean'
      ? 'bool'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'int64'
          : 'float64'
        : 'interface {}'

/**
 * structured-merge-diff typed/helpers.go validateScalar for the scalar types schemaconv gives a field:
 * numeric (integer, number), string, boolean; int-or-string and other unions are untyped scalars.
 */
function scalarError(v: JSONValue, s: JSONSchemaProps): string | undefined {
  if (v === null) return undefined
  const ext = s as { 'x-kubernetes-int-or-string'?: boolean; oneOf?: unknown; anyOf?: unknown }
  if (ext['x-kubernetes-int-or-string'] === true || ext.oneOf !== undefined || ext.anyOf !== undefined) return undefined
  switch (s.type) {
    case 'integer':
    case 'number':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeOf(v)}`
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got &{${String(v)}}`
    default:
      return undefined
  }
}

function formatKey(item: JSONValue, keys: readonly string[]): string {
  const o = isObject(item) ? item : {}
  return `[${keys.map((k) => `${k}=${JSON.stringify(o[k])}`).join(',')}]`
}

/** findAtomics: the paths of every atomic list, map or struct the patch sets. */
function findAtomics(v: JSONValue, s: JSONSchemaProps | 'untyped' | undefined, path: string[], out: string[]): void {
  if (s === 'untyped' || s === undefined) return
  if (isObject(v) && isMap(s)) {
    if (s['x-kubernetes-map-type'] === 'atomic') out.push(pathString(path))
    for (const [k, x] of Object.entries(v)) {
      // FindField: declared properties only (a granular map's values are not looked into)
      const p = s.properties?.[k]
      if (p !== undefined) findAtomics(x, p, [...path, `.${k}`], out)
    }
  }
  if (Array.isArray(v) && isList(s)) {
    if (listKind(s).kind === 'atomic') out.push(pathString(path))
    const items = itemsOf(s)
    v.forEach((x, i) => {
      findAtomics(x, items, [...path, `[${i}]`], out)
    })
  }
}

/** typed.Merge of two values of one schema node. */
function merge(lhs: JSONValue | undefined, rhs: JSONValue, s: JSONSchemaProps | 'untyped' | undefined): JSONValue {
  if (lhs === undefined || s === undefined) return rhs
  // x-kubernetes-preserve-unknown-fields: schemaconv's deduced type (`__untyped_deduced_`), whose maps are
  // separable (merged key by key, the values deduced again) and whose lists and scalars are atomic
  if (s === 'untyped') {
    if (!isObject(rhs) || !isObject(lhs)) return rhs
    const out: JSONObject = { ...lhs }
    for (const [k, x] of Object.entries(rhs)) out[k] = merge(lhs[k], x, 'untyped')
    return out
  }
  if (isObject(rhs) && isMap(s)) {
    if (s['x-kubernetes-map-type'] === 'atomic' || !isObject(lhs)) return rhs
    const out: JSONObject = { ...lhs }
    for (const [k, x] of Object.entries(rhs)) out[k] = merge(lhs[k], x, fieldSchema(s, k))
    return out
  }
  if (Array.isArray(rhs) && isList(s)) {
    const lk = listKind(s)
    if (lk.kind === 'atomic' || !Array.isArray(lhs)) return rhs
    const items = itemsOf(s)
    const keyOf =
      lk.kind === 'map'
        ? (x: JSONValue, i: number) => itemKey(x, lk.keys, items, '', i)
        : (x: JSONValue) => JSON.stringify(canonical(x))
    return mergeLists(lhs, rhs, keyOf, lk.kind === 'map' ? items : undefined)
  }
  return rhs
}

/** JSON with sorted keys, for set membership by value. */
function canonical(v: JSONValue): JSONValue {
  if (Array.isArray(v)) return v.map(canonical)
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k] as JSONValue)]),
    )
  return v
}

/**
 * mergeListValues: the live list's order, with the items the patch names taken in the patch's relative
 * order where they meet; patch-only items inserted where the patch has them; shared items merged.
 */
function mergeLists(
  lhs: readonly JSONValue[],
  rhs: readonly JSONValue[],
  keyOf: (x: JSONValue, i: number) => string,
  items: JSONSchemaProps | undefined,
): JSONValue[] {
  const lk = lhs.map(keyOf)
  const rk = rhs.map(keyOf)
  const lByKey = new Map<string, JSONValue>()
  lk.forEach((k, i) => {
    if (!lByKey.has(k)) lByKey.set(k, lhs[i] as JSONValue)
  })
  const rKeys = new Set(rk)
  const emitted = new Set<string>()
  const out: JSONValue[] = []
  const emit = (k: string, v: JSONValue) => {
    emitted.add(k)
    out.push(v)
  }
  const mergeItem = (l: JSONValue | undefined, r: JSONValue) => (items === undefined ? r : merge(l, r, items))
  let l = 0
  let r = 0
  while (l < lhs.length || r < rhs.length) {
    if (l < lhs.length && emitted.has(lk[l] as string)) {
      l++
      continue
    }
    if (r < rhs.length && emitted.has(rk[r] as string)) {
      r++
      continue
    }
    if (l < lhs.length && r < rhs.length && lk[l] === rk[r]) {
      emit(lk[l] as string, mergeItem(lhs[l], rhs[r] as JSONValue))
      l++
      r++
      continue
    }
    if (l < lhs.length && !rKeys.has(lk[l] as string)) {
      emit(lk[l] as string, lhs[l] as JSONValue)
      l++
      continue
    }
    if (r < rhs.length) {
      const k = rk[r] as string
      emit(k, mergeItem(lByKey.get(k), rhs[r] as JSONValue))
      r++
      continue
    }
    l++
  }
  return out
}

/**
 * ApplyStructuredMergeDiff: `live` with `patch` merged in, or an SmdError whose text is the one
 * smd.go wraps (`failed to convert patch object to typed object: …`, `invalid ApplyConfiguration: …`).
 */
export function applyConfiguration(live: JSONObject, patch: JSONObject, schema: JSONSchemaProps): JSONObject {
  const typed = { ...patch, apiVersion: live.apiVersion ?? null, kind: live.kind ?? null } as JSONObject
  const errs: string[] = []
  validateTyped(typed, schema, [], errs)
  if (errs.length > 0) throw new SmdError(`failed to convert patch object to typed object: ${errs.join('\n')}`)
  const atomics: string[] = []
  findAtomics(typed, schema, [], atomics)
  if (atomics.length > 0)
    throw new SmdError(
      `invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`,
    )
  return merge(live, typed, schema) as JSONObject
}
