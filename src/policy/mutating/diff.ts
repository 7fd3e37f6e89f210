import { escapeKey } from '../../kube/library/jsonpatch.js'
import { isObject } from '../../kube/values/json.js'
import type { JSONValue, PatchOperation } from './jsonpatch.js'

// An RFC 6902 patch from one JSON document to another (what admit() reports as the mutation and a
// webhook answers with): objects compared key by key (removals, then changes and additions in the new
// document's key order), lists of the same length element by element, other lists replaced whole.
// Applying it to `from` gives `to`.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]))
  }
  const ak = Object.keys(a)
  const bo = b as Record<string, unknown>
  return (
    ak.length === Object.keys(bo).length &&
    ak.every((k) => Object.hasOwn(bo, k) && jsonEqual((a as Record<string, unknown>)[k], bo[k]))
  )
}

export function jsonDiff(from: unknown, to: unknown): PatchOperation[] {
  const ops: PatchOperation[] = []
  walk(from as JSONValue, to as JSONValue, '', ops)
  return ops
}

function walk(a: JSONValue, b: JSONValue, path: string, ops: PatchOperation[]): void {
  if (jsonEqual(a, b)) return
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a))
      if (!Object.hasOwn(b, k)) ops.push({ op: 'remove', path: `${path}/${escapeKey(k)}` })
    for (const [k, v] of Object.entries(b)) {
      const p = `${path}/${escapeKey(k)}`
      if (!Object.hasOwn(a, k)) ops.push({ op: 'add', path: p, value: v as JSONValue })
      else walk(a[k] as JSONValue, v as JSONValue, p, ops)
    }
    return
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && path !== '') {
    a.forEach((x, i) => {
      walk(x, b[i] as JSONValue, `${path}/${i}`, ops)
    })
    return
  }
  ops.push({ op: 'replace', path, value: b })
}
