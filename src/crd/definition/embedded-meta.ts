import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { isDNS1035Label } from '../../kube/validation/names.js'
import { validateObjectMetaJSON } from '../../kube/validation/objectmeta.js'
import { isObject } from '../../kube/values/json.js'
import { sortedKeys } from './structural.js'
import type { JSONSchemaProps, ObjectMeta } from './types.js'

// The TypeMeta and ObjectMeta of resource roots inside a value (apiextensions pkg/apiserver/schema/
// objectmeta: coerce.go, validation.go), as the defaulting validation applies them to default
// values: apiVersion and kind must be strings, metadata must decode as an ObjectMeta, and embedded
// resources need a valid apiVersion, kind and metadata. Go walks maps in random order; kelp sorted.
// Paths may be nil (a default inside metadata is checked on its surrounding object).

/** A field path that may be nil (Go's *field.Path). */
export type MaybePath = FieldPath | undefined

export const child = (p: MaybePath, name: string): FieldPath => (p === undefined ? FieldPath.of(name) : p.child(name))
const key = (p: MaybePath, k: string): FieldPath => (p === undefined ? FieldPath.ofKey(k) : p.key(k))
const index = (p: MaybePath, i: number): FieldPath => (p === undefined ? FieldPath.ofKey(String(i)) : p.index(i))

function asResourceRoot(s: JSONSchemaProps | undefined, isResourceRoot: boolean): JSONSchemaProps | undefined {
  return isResourceRoot ? { ...(s ?? {}), 'x-kubernetes-embedded-resource': true } : s
}

/** encoding/json's name for the JSON kind of a value in an UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return 'number'
  if (typeof v === 'boolean') return 'bool'
  return Array.isArray(v) ? 'array' : 'object'
}

/**
 * GetObjectMeta: decodes `metadata` into a metav1.ObjectMeta (the fields validation reads), or the
 * text of the decoding error.
 */
export function decodeObjectMeta(v: unknown): ObjectMeta | { error: string } {
  if (v === null || v === undefined) return {}
  if (!isObject(v)) return { error: `json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta` }
  const typeError = (f: string, t: string, x: unknown) => ({
    error: `json: cannot unmarshal ${jsonKind(x)} into Go struct field ObjectMeta.${f} of type ${t}`,
  })
  const out: Record<string, unknown> = {}
  for (const f of ['name', 'generateName', 'namespace'] as const) {
    const x = v[f]
    if (x === undefined || x === null) continue
    if (typeof x !== 'string') return typeError(f, 'string', x)
    out[f] = x
  }
  for (const f of ['labels', 'annotations'] as const) {
    const x = v[f]
    if (x === undefined || x === null) continue
    if (!isObject(x)) return typeError(f, 'map[string]string', x)
    for (const val of Object.values(x)) if (val !== null && typeof val !== 'string') return typeError(f, 'string', val)
    out[f] = x
  }
  const fin = v.finalizers
  if (fin !== undefined && fin !== null) {
    if (!Array.isArray(fin)) return typeError('finalizers', '[]string', fin)
    for (const x of fin) if (x !== null && typeof x !== 'string') return typeError('finalizers', 'string', x)
    out.finalizers = fin
  }
  if (typeof v.generation === 'number') out.generation = v.generation
  return out as ObjectMeta
}

/** objectmeta.Coerce (no dropping): the first TypeMeta / ObjectMeta type error at a resource root. */
export function coerce(
  pth: MaybePath,
  x: unknown,
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
): FieldError | undefined {
  return coerceAt(pth, x, asResourceRoot(s, isResourceRoot))
}

function coerceAt(pth: MaybePath, x: unknown, s: JSONSchemaProps | undefined): FieldError | undefined {
  if (s === undefined) return undefined
  if (isObject(x)) {
    for (const k of sortedKeys(x)) {
      const v = x[k]
      if (s['x-kubernetes-embedded-resource'] === true) {
        if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string')
          return field.invalid(child(pth, k), v, 'must be a string')
        if (k === 'metadata') {
          const meta = decodeObjectMeta(v)
          if ('error' in meta) return field.invalid(child(pth, 'metadata'), v, meta.error as string)
        }
      }
      const prop = s.properties !== undefined && Object.hasOwn(s.properties, k) ? s.properties[k] : undefined
      if (prop !== undefined) {
        const e = coerceAt(child(pth, k), v, prop)
        if (e !== undefined) return e
      } else if (s.additionalProperties !== undefined) {
        const ap = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined
        const e = coerceAt(key(pth, k), v, ap)
        if (e !== undefined) return e
      }
    }
  } else if (Array.isArray(x)) {
    const items = Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined)
    for (let i = 0; i < x.length; i++) {
      const e = coerceAt(index(pth, i), x[i], items)
      if (e !== undefined) return e
    }
  }
  return undefined
}

/** objectmeta.Validate: embedded resources' apiVersion, kind and metadata. */
export function validateEmbeddedMeta(
  pth: MaybePath,
  x: unknown,
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
): FieldError[] {
  return validateAt(pth, x, asResourceRoot(s, isResourceRoot))
}

function validateAt(pth: MaybePath, x: unknown, s: JSONSchemaProps | undefined): FieldError[] {
  if (s === undefined) return []
  const errs: FieldError[] = []
  if (isObject(x)) {
    if (s['x-kubernetes-embedded-resource'] === true) errs.push(...validateEmbeddedResource(pth, x))
    for (const k of sortedKeys(x)) {
      const prop = s.properties !== undefined && Object.hasOwn(s.properties, k) ? s.properties[k] : undefined
      if (prop !== undefined) errs.push(...validateAt(child(pth, k), x[k], prop))
      else if (s.additionalProperties !== undefined)
        errs.push(
          ...validateAt(
            key(pth, k),
            x[k],
            typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined,
          ),
        )
    }
  } else if (Array.isArray(x)) {
    const items = Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined)
    x.forEach((v, i) => {
      errs.push(...validateAt(index(pth, i), v, items))
    })
  }
  return errs
}

/** validatePathSegment: names of embedded objects only need to be usable in a URL path. */
function validatePathSegment(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`]
  const errs: string[] = []
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`)
  return errs
}

function validateEmbeddedResource(pth: MaybePath, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = []
  // apiVersion and kind are required, metadata is not
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(field.required(child(pth, 'apiVersion'), ''))
  if (!Object.hasOwn(x, 'kind')) errs.push(field.required(child(pth, 'kind'), ''))
  for (const k of sortedKeys(x)) {
    const v = x[k]
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(field.invalid(child(pth, 'apiVersion'), v, 'must be a string'))
      else if (v.length === 0) errs.push(field.invalid(child(pth, 'apiVersion'), v, 'must not be empty'))
      else if (v !== '/' && v.split('/').length > 2)
        errs.push(field.invalid(child(pth, 'apiVersion'), v, `unexpected GroupVersion string: ${v}`))
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(field.invalid(child(pth, 'kind'), v, 'must be a string'))
      else if (v.length === 0) errs.push(field.invalid(child(pth, 'kind'), v, 'must not be empty'))
      else {
        const msgs = isDNS1035Label(v.toLowerCase())
        if (msgs.length > 0)
          errs.push(
            field.invalid(child(pth, 'kind'), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`),
          )
      }
    } else if (k === 'metadata') {
      const meta = decodeObjectMeta(v)
      if ('error' in meta) errs.push(field.invalid(child(pth, 'metadata'), v, meta.error as string))
      else {
        // a name is required by ValidateObjectMeta but not here
        const m: ObjectMeta = (meta.name ?? '').length === 0 ? { ...meta, name: 'fakename' } : meta
        errs.push(
          ...validateObjectMetaJSON(m, (m.namespace ?? '').length > 0, validatePathSegment, child(pth, 'metadata')),
        )
      }
    }
  }
  return errs
}
