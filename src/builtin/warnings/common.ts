import { FieldPath } from '../../kube/field.js'
import { own } from '../../kube/own-keys.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'

export { goQuote } from '../../cel/ext/quote.js'

// What the warning functions share: reading the decoded object (any input: a field of the wrong type
// reads as absent), and Go's field paths under a possibly nil root (`fieldPath.Child(…)` on a nil
// *field.Path starts a new path).

export const obj = (v: unknown): JSONObject | undefined => (isObject(v) ? v : undefined)
export const objs = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.map((e) => (isObject(e) ? e : {})) : [])
export const str = (v: unknown): string => (typeof v === 'string' ? v : '')
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined
export const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : [])

/** A map field's own keys in the object's order (Go visits a map in random order). */
export const mapKeys = (v: unknown): string[] => (isObject(v) ? Object.keys(v) : [])

/** `_, ok := m[k]` on a map read from input (own keys only: `__proto__` is data). */
export const has = (m: unknown, k: string): boolean => isObject(m) && Object.hasOwn(m, k)

/** m[k] of a map read from input. */
export const get = (m: unknown, k: string): unknown => (isObject(m) ? own(m, k) : undefined)

export const metadataOf = (o: JSONObject): JSONObject => obj(o.metadata) ?? {}
export const annotationsOf = (o: JSONObject): unknown => metadataOf(o).annotations
export const nameOf = (o: JSONObject): string => str(metadataOf(o).name)

/** `root.Child(name, …more)` (up to two more, as FieldPath.child) where root may be Go's nil path. */
export function child(root: FieldPath | undefined, name: string, more?: string, last?: string): FieldPath {
  const first = root === undefined ? FieldPath.of(name) : root.child(name)
  return more === undefined ? first : first.child(more, last)
}
