import { isObject as isObj, type JSONObject } from '../../../kube/values/json.js'
import type { GoValue } from '../go-diff.js'
import { INTERNAL_POD_SPEC_JSON } from './pod-spec-internal.generated.js'

// A decoded v1 PodSpec as the internal core.PodSpec it converts to, in the shape encoding/json marshals it
// (go-diff.ts GoValue): what apimachinery's diff.Diff prints in ValidatePodUpdate's "pod updates may not
// change fields" (kubernetes v1.37.2 pkg/apis/core/validation/validation.go). Internal types have no JSON
// tags: every field, Go's name, declaration order, nil as null, embedded structs flattened; the apimachinery
// types inside (ObjectMeta, LabelSelector) marshal by their own tags. The layout is generated from the Go
// types (pod-spec-internal.generated.ts); v1 and internal fields correspond by Go name.

type Field = readonly [goName: string, type: string, v1Key: string | null, embedded: boolean, tag: string]
interface Layout {
  readonly root: string
  readonly types: Readonly<Record<string, readonly Field[]>>
}

let parsed: Layout | undefined
/** The layout, parsed on first use (the Pod update rules need it only when a spec changed). */
const layout = (): Layout => {
  parsed ??= JSON.parse(INTERNAL_POD_SPEC_JSON) as Layout
  return parsed
}
const types = (): Layout['types'] => layout().types

const INTS = new Set(['int', 'int32', 'int64', 'uint', 'uint32', 'uint64', 'uint8', 'int8', 'int16', 'uint16'])

/** A JSON value as it is (a RawExtension or FieldsV1 inside marshals its raw JSON). */
function raw(v: unknown): GoValue {
  if (v === undefined || v === null) return null
  if (Array.isArray(v)) return v.map(raw)
  if (isObj(v)) return { map: Object.fromEntries(Object.keys(v).map((k) => [k, raw(v[k])])) }
  return typeof v === 'bigint' ? Number(v) : (v as GoValue)
}

/** The value of a field of Go type `type` from the v1 JSON value `v` (undefined: absent). */
function value(type: string, v: unknown): GoValue {
  if (type.startsWith('*')) return v === undefined || v === null ? null : value(type.slice(1), v)
  if (type.startsWith('[]')) return Array.isArray(v) ? v.map((x) => value(type.slice(2), x)) : null
  if (type.startsWith('map[')) {
    const elem = type.slice(type.indexOf(']') + 1)
    if (!isObj(v)) return null
    return { map: Object.fromEntries(Object.keys(v).map((k) => [k, value(elem, v[k])])) }
  }
  switch (type) {
    case 'string':
      return typeof v === 'string' ? v : ''
    case 'bool':
      return v === true
    case 'bytes':
      return typeof v === 'string' ? v : null
    case 'marshal:Quantity':
      // the stored object holds the canonical form Quantity.MarshalJSON prints
      return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '0'
    case 'marshal:IntOrString':
      return typeof v === 'string' || typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0
    case 'marshal:Time':
      return typeof v === 'string' ? v : null
    case 'marshal:FieldsV1':
      return raw(v)
  }
  if (INTS.has(type)) return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0
  return struct(type, isObj(v) ? v : undefined)
}

/** encoding/json's omitempty: false, 0, "", nil, and empty arrays, slices and maps (never a struct). */
const isEmpty = (v: GoValue): boolean =>
  v === null ||
  v === false ||
  v === 0 ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && 'map' in (v as object) && Object.keys((v as { map: object }).map).length === 0)

function struct(name: string, v: JSONObject | undefined): GoValue {
  const fields = types()[name]
  if (fields === undefined) return raw(v)
  const out: (readonly [string, GoValue])[] = []
  for (const [go, type, key, embedded, tag] of fields) {
    if (key === null) {
      // an apimachinery type's field: its JSON tag names it, omitempty / omitzero drop it
      const [tagName, ...opts] = tag.split(',')
      if (tagName === '-') continue
      const jsonName = tagName || go
      const val = value(type, v?.[jsonName])
      if ((opts.includes('omitempty') || opts.includes('omitzero')) && isEmpty(val)) continue
      out.push([jsonName, val])
    } else if (embedded) {
      const inner = value(type, v)
      if (inner !== null && typeof inner === 'object' && 'struct' in inner) out.push(...inner.struct)
    } else out.push([go, value(type, v?.[key])])
  }
  return { struct: out }
}

/** The internal core.PodSpec of a decoded v1 PodSpec. */
export function internalPodSpec(spec: JSONObject): GoValue {
  return struct(layout().root, spec)
}
