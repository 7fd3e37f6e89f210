import { compareStrings } from '../../cel/values/strings.js'
import { own, setOwn } from '../../kube/own-keys.js'
import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import { isObject as isJSONObject } from '../../kube/values/json.js'
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

// isObject narrowed to the JSON values this file holds (kube/values/json.ts's test)
const isObject = (v: unknown): v is JSONObject => isJSONObject(v)

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
  const p = own(s.properties, key)
  if (p !== undefined) return p
  const ap = s.additionalProperties
  if (typeof ap === 'object') return ap
  if (ap === true || s['x-kubernetes-preserve-unknown-fields'] === true) return 'untyped'
  return undefined
}

const pathString = (path: readonly string[]) => path.join('')

/** The key of an associative list item (its path element), or the error ObjectToTyped reports for it. */
function itemKey(item: JSONValue, lk: ListKind, items: JSONSchemaProps | undefined, path: string, i: number): string {
  try {
    return pathElement(item, lk, items)
  } catch (e) {
    throw new SmdError(`${path}: element ${i}: ${(e as Error).message}`)
  }
}

/** ObjectToTyped's validation of the patch: every field declared, list items keyed (errors joined). */
function validateTyped(
  v: JSONValue,
  s: JSONSchemaProps | 'untyped' | undefined,
  path: string[],
  errs: string[],
  allowDuplicates = false,
): void {
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
        validateTyped(x, 'untyped', [...path, `[${i}]`], errs, allowDuplicates)
      })
    else for (const [k, x] of Object.entries(v)) validateTyped(x, 'untyped', [...path, `.${k}`], errs, allowDuplicates)
    return
  }
  if (s === 'untyped' || s === undefined || v === null) return
  const p = pathString(path)
  const atom = atomOf(s)
  if (isObject(v)) {
    if (isMap(s)) {
      for (const [k, x] of Object.entries(v)) {
        const fs = fieldSchema(s, k)
        if (fs === undefined) {
          errs.push(`${pathString([...path, `.${k}`])}: field not declared in schema`)
          continue
        }
        validateTyped(x, fs, [...path, `.${k}`], errs, allowDuplicates)
      }
    } else if (!atom.map) errs.push(`${p}: ${mismatch(v, s, atom)}`)
    return
  }
  if (Array.isArray(v)) {
    if (isList(s)) validateList(v, s, path, errs, allowDuplicates)
    else if (!atom.list) errs.push(`${p}: ${mismatch(v, s, atom)}`)
    return
  }
  if (!atom.scalar) {
    errs.push(`${p}: expected ${atom.map ? 'map' : 'list'}, got &{${goV(v)}}`)
    return
  }
  const e = scalarError(v, s)
  if (e !== undefined) errs.push(`${p}: ${e}`)
}

/**
 * validate.go visitListItems: an associative list's items keyed (the first item that has no key ends
 * the list's checks), repeated keys refused unless AllowDuplicates, each item validated.
 */
function validateList(
  v: readonly JSONValue[],
  s: JSONSchemaProps,
  path: string[],
  errs: string[],
  allowDuplicates: boolean,
): void {
  const items = itemsOf(s)
  const lk = listKind(s)
  const seen = new Set<string>()
  for (const [i, x] of v.entries()) {
    if (lk.kind !== 'atomic') {
      let key: string
      try {
        key = itemKey(x, lk, items, pathString(path), i)
      } catch (e) {
        errs.push((e as Error).message)
        return
      }
      if (seen.has(key) && !allowDuplicates)
        errs.push(`${pathString(path)}: duplicate entries for key ${formatKey(x, lk, items)}`)
      seen.add(key)
    }
    validateTyped(x, items ?? UNTYPED_ATOMIC, [...path, `[${i}]`], errs, allowDuplicates)
  }
}

/** The error of a map or list where the schema has no map or list (validateScalar, mapValue, listValue). */
function mismatch(v: JSONValue, s: JSONSchemaProps, atom: { map: boolean; list: boolean }): string {
  if (atom.map) return `expected map, got &{${goV(v)}}`
  if (atom.list) return `expected list, got &{${goV(v)}}`
  return scalarError(v, s) ?? `expected any scalar, got &{${goV(v)}}`
}

/** Go's %v of a JSON value decoded into interface{}. */
function goV(v: JSONValue): string {
  if (v === null) return '<nil>'
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`
  if (isObject(v))
    return `map[${Object.keys(v)
      .sort(compareStrings)
      .map((k) => `${k}:${goV(v[k] as JSONValue)}`)
      .join(' ')}]`
  return String(v)
}

/** Go's %#v of a JSON value held in an interface{} (what value.valueUnstructured wraps). */
function goSharpV(v: JSONValue): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (v === null) return 'interface {}(nil)'
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`
  if (isObject(v))
    return `map[string]interface {}{${Object.keys(v)
      .sort(compareStrings)
      .map((k) => `${JSON.stringify(k)}:${goSharpV(v[k] as JSONValue)}`)
      .join(', ')}}`
  return String(v)
}
/** Go's %T of a JSON value decoded into interface{}. */
const goTypeOf = (v: JSONValue): string =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'boolean'
      ? 'bool'
      : typeof v === 'number' || typeof v === 'bigint'
        ? Number.isInteger(Number(v))
          ? 'int64'
          : 'float64'
        : Array.isArray(v)
          ? '[]interface {}'
          : isObject(v)
            ? 'map[string]interface {}'
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
      return typeof v === 'number' || typeof v === 'bigint'
        ? undefined
        : `expected numeric (int or float), got ${goTypeOf(v)}`
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got &{${goV(v)}}`
    default:
      return undefined
  }
}

/** JSON text with int64s past 2^53 (bigints) written as their digits, as Go's encoder writes an int64. */
const jsonText = (v: JSONValue): string =>
  JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `\u0000${x}\u0000` : x)).replace(
    /"\\u0000(-?\d+)\\u0000"/g,
    '$1',
  )

/** A path element's value as a comparable string: an int64 past 2^53 stays apart from the string of its digits. */
const comparable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? { '\u0000int64': String(x) } : x))

/** fieldpath PathElement.String of an item: a set's value, a keyed item's present keys sorted by name. */
function formatKey(item: JSONValue, lk: ListKind, items: JSONSchemaProps | undefined): string {
  if (lk.kind !== 'map') return `[=${jsonText(item)}]`
  const o = isObject(item) ? item : {}
  const value = (k: string) => own(o, k) ?? (own(items?.properties, k)?.default as JSONValue | undefined)
  const present = lk.keys.filter((k) => value(k) !== undefined).sort(compareStrings)
  return `[${present.map((k) => `${k}=${jsonText(value(k) as JSONValue)}`).join(',')}]`
}

/** findAtomics: the paths of every atomic list, map or struct the patch sets. */
function findAtomics(v: JSONValue, s: JSONSchemaProps | 'untyped' | undefined, path: string[], out: string[]): void {
  if (s === 'untyped' || s === undefined) return
  if (isObject(v) && isMap(s)) {
    if (s['x-kubernetes-map-type'] === 'atomic') out.push(pathString(path))
    for (const [k, x] of Object.entries(v)) {
      // FindField: declared properties only (a granular map's values are not looked into)
      const p = own(s.properties, k)
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

/** What a schema node is to the merge: kelp's schema, the deduced type, or nothing declared. */
type Node = JSONSchemaProps | 'untyped' | undefined

/** JSON with sorted keys, for path elements compared by value. */
function canonical(v: JSONValue): JSONValue {
  if (Array.isArray(v)) return v.map(canonical)
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort(compareStrings)
        .map((k) => [k, canonical(v[k] as JSONValue)]),
    )
  return v
}

/**
 * The SMD atom of a schema node as kube-openapi schemaconv parseSchema builds it: `object` a map,
 * `array` a list, a scalar type a scalar; no type at all is all three (untyped scalar, the list and
 * the map the node's extensions describe). The deduced type (`__untyped_deduced_`) is all three too:
 * a separable map of deduced values, an atomic list.
 */
function atomOf(s: JSONSchemaProps | 'untyped'): { map: boolean; list: boolean; scalar: boolean } {
  if (s === 'untyped') return { map: true, list: true, scalar: true }
  const t = Array.isArray(s.type) ? s.type[0] : s.type
  if (t === 'object') return { map: true, list: false, scalar: false }
  if (t === 'array') return { map: false, list: true, scalar: false }
  if (t !== undefined && t !== '') return { map: false, list: false, scalar: true }
  return { map: true, list: true, scalar: true }
}

/** schemaconv parseObject's element type: additionalProperties, else deduced when nothing is declared. */
function mapField(s: JSONSchemaProps | 'untyped', key: string): Node {
  if (s === 'untyped') return 'untyped'
  const p = own(s.properties, key)
  if (p !== undefined) return p
  const ap = s.additionalProperties
  if (typeof ap === 'object') return ap
  if (ap === true || s['x-kubernetes-preserve-unknown-fields'] === true) return 'untyped'
  if (ap === undefined && (s.properties === undefined || Object.keys(s.properties).length === 0)) return 'untyped'
  return undefined
}

/** `__untyped_atomic_` (a list's items when it declares none): untyped scalar, atomic list, atomic map. */
const UNTYPED_ATOMIC: JSONSchemaProps = { 'x-kubernetes-map-type': 'atomic' }

const mapAtomic = (s: JSONSchemaProps | 'untyped') => s !== 'untyped' && s['x-kubernetes-map-type'] === 'atomic'

/** A list item's path element (typed/helpers.go listItemToPathElement), as a comparable string. */
function pathElement(item: JSONValue, lk: ListKind, items: JSONSchemaProps | undefined): string {
  if (lk.kind === 'map') {
    if (item === null) throw new SmdError('associative list with keys may not have a null element')
    if (!isObject(item)) throw new SmdError('associative list with keys may not have non-map elements')
    const parts: [string, JSONValue][] = []
    for (const k of lk.keys) {
      const v = own(item, k) ?? (own(items?.properties, k)?.default as JSONValue | undefined)
      // an optional key left out is left out of the key (v6.3+: "support optional map keys")
      if (v !== undefined) parts.push([k, canonical(v)])
    }
    if (lk.keys.length > 0 && parts.length === 0)
      throw new SmdError(
        `associative list with keys has an element that omits all key fields [${lk.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`,
      )
    parts.sort((a, b) => compareStrings(a[0], b[0]))
    return comparable(parts)
  }
  if (isObject(item)) throw new SmdError("associative list without keys has an element that's a map type")
  if (Array.isArray(item)) throw new SmdError('not supported: associative list with lists as elements')
  if (item === null) throw new SmdError("associative list without keys has an element that's an explicit null")
  return comparable(item)
}

/**
 * typed.Merge (typed/merge.go mergingWalker with ruleKeepRHS) of two values of one schema node,
 * either of them absent (undefined); undefined when the walker leaves the result unset (a granular
 * map or list whose merge came out empty).
 */
export function mergeTyped(lhs: JSONValue | undefined, rhs: JSONValue | undefined, s: Node): JSONValue | undefined {
  if (lhs === undefined && rhs === undefined) return undefined
  const keepRHS = () => (rhs !== undefined ? rhs : lhs)
  if (s === undefined) return keepRHS()
  const atom = atomOf(s)
  // deduceAtom: the part of the atom the value's kind selects (null and mismatches select all of it);
  // when the two sides select different parts, the rhs's handling decides the result
  const deduce = (v: JSONValue | undefined): 'map' | 'list' | 'scalar' | 'all' => {
    if (v === undefined || v === null) return 'all'
    if (Array.isArray(v)) return atom.list ? 'list' : 'all'
    if (isObject(v)) return atom.map ? 'map' : 'all'
    return atom.scalar ? 'scalar' : 'all'
  }
  let part = deduce(rhs !== undefined ? rhs : lhs)
  // handleAtom: map, then scalar, then list
  if (part === 'all') part = atom.map ? 'map' : atom.scalar ? 'scalar' : 'list'
  if (part === 'scalar') return keepRHS()
  if (part === 'map') {
    const l = isObject(lhs) ? lhs : undefined
    const r = isObject(rhs) ? rhs : undefined
    const lEmpty = l === undefined || Object.keys(l).length === 0
    const rEmpty = r === undefined || Object.keys(r).length === 0
    // both empty or null: a leaf, which keeps the empty/null distinction
    if (mapAtomic(s) || (lEmpty && rEmpty)) return keepRHS()
    const out: JSONObject = {}
    for (const k of new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})])) {
      // own reads and writes: a key named `constructor` or `__proto__` is data (kube/own-keys.ts)
      const v = mergeTyped(own(l, k), own(r, k), mapField(s, k))
      if (v !== undefined) setOwn(out, k, v)
    }
    return Object.keys(out).length > 0 ? out : undefined
  }
  // a list: the deduced type's are atomic
  const l = Array.isArray(lhs) ? lhs : undefined
  const r = Array.isArray(rhs) ? rhs : undefined
  const lk: ListKind = s === 'untyped' ? { kind: 'atomic' } : listKind(s)
  if (lk.kind === 'atomic' || ((l === undefined || l.length === 0) && (r === undefined || r.length === 0)))
    return keepRHS()
  const items = s === 'untyped' ? undefined : itemsOf(s)
  // a list without items has untyped atomic elements
  const out = mergeListItems(l ?? [], r ?? [], lk, items, items ?? UNTYPED_ATOMIC)
  return out.length > 0 ? out : undefined
}

/**
 * typed/merge.go visitListItems: the lhs's order, each item the rhs shares with it placed where the
 * rhs's order of the shared items reaches it, the rhs's own items where the rhs has them. An item
 * repeated in the lhs is not merged with the rhs's (the rhs's replaces it, once).
 */
function mergeListItems(
  lhs: readonly JSONValue[],
  rhs: readonly JSONValue[],
  lk: ListKind,
  items: JSONSchemaProps | undefined,
  itemNode: Node,
): JSONValue[] {
  const rPEs = rhs.map((x) => pathElement(x, lk, items))
  const lPEs = lhs.map((x) => pathElement(x, lk, items))
  const observedR = new Map<string, JSONValue>()
  rPEs.forEach((pe, i) => {
    if (!observedR.has(pe)) observedR.set(pe, rhs[i] as JSONValue)
  })
  const observedL = new Map<string, JSONValue>()
  lPEs.forEach((pe, i) => {
    // a duplicate's value is null: it is not merged with the rhs's item
    observedL.set(pe, observedL.has(pe) ? null : (lhs[i] as JSONValue))
  })
  const shared = rPEs.filter((pe) => observedL.has(pe))
  let next: string | undefined = shared.shift()
  const advance = () => {
    next = shared.shift()
  }
  const mergedR = new Set<string>()
  const out: JSONValue[] = []
  const push = (v: JSONValue | undefined) => {
    if (v !== undefined) out.push(v)
  }
  let li = 0
  let ri = 0
  while (li < lPEs.length || ri < rPEs.length) {
    if (li < lPEs.length && ri < rPEs.length) {
      const pe = lPEs[li] as string
      if (pe === rPEs[ri]) {
        mergedR.add(pe)
        push(mergeTyped(observedL.get(pe), observedR.get(pe), itemNode))
        li++
        ri++
        advance()
        continue
      }
      if (observedR.has(pe) && next !== undefined && next !== pe) {
        // a shared item, but not the one this round wants
        li++
        continue
      }
    }
    if (li < lPEs.length) {
      const pe = lPEs[li] as string
      if (!observedR.has(pe)) {
        push(mergeTyped(lhs[li], undefined, itemNode))
        li++
        continue
      }
      if (mergedR.has(pe)) li++
    }
    if (ri < rPEs.length) {
      const pe = rPEs[ri] as string
      mergedR.add(pe)
      push(mergeTyped(observedL.get(pe), observedR.get(pe), itemNode))
      ri++
      if (next !== undefined && next === pe) advance()
    }
  }
  return out
}

/** ObjectToTyped's errors for a value of the schema (typed.AllowDuplicates: repeated keys or set items). */
export function typeErrors(v: JSONValue, schema: JSONSchemaProps, allowDuplicates = false): string[] {
  const errs: string[] = []
  validateTyped(v, schema, [], errs, allowDuplicates)
  return errs
}

/**
 * ApplyStructuredMergeDiff: `live` with `patch` merged in, or an SmdError whose text is the one
 * smd.go wraps (`failed to convert patch object to typed object: …`, `invalid ApplyConfiguration: …`).
 */
export function applyConfiguration(live: JSONObject, patch: JSONObject, schema: JSONSchemaProps): JSONObject {
  const typed = { ...patch, apiVersion: live.apiVersion ?? null, kind: live.kind ?? null } as JSONObject
  const errs = typeErrors(typed, schema)
  if (errs.length > 0) throw new SmdError(`failed to convert patch object to typed object: ${errs.join('\n')}`)
  const atomics: string[] = []
  findAtomics(typed, schema, [], atomics)
  if (atomics.length > 0)
    throw new SmdError(
      `invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`,
    )
  return (mergeTyped(live, typed, schema) ?? null) as JSONObject
}
