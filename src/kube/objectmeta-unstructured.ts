import { type FieldPath, goJSON } from './field.js'
import { formatRFC3339, parseRFC3339 } from './gotime.js'
import {
  emptyObjectMeta,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type OwnerReference,
} from './validation/objectmeta.js'
import { compareGoStrings, isObject, type JSONObject, kindOf } from './values/json.js'

// apiextensions-apiserver pkg/apiserver/schema/objectmeta/coerce.go GetObjectMetaWithOptions and
// SetObjectMeta: metadata decoded as metav1.ObjectMeta the way Go's JSON decoder (sigs.k8s.io/json,
// case-sensitive) does it, with its `json: cannot unmarshal …` texts, the unknown fields a strict
// decode reports (`metadata.<path>`), and the field-by-field fallback that drops malformed fields;
// then written back as runtime.DefaultUnstructuredConverter.ToUnstructured renders the struct.

export {
  emptyObjectMeta,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type OwnerReference,
} from './validation/objectmeta.js'

/** A decode failing outright (a custom unmarshaler's error, which stops Go's decoder). */
class Abort {
  constructor(readonly message: string) {}
}

type Ctx = {
  /** The first UnmarshalTypeError (Go keeps decoding and reports it at the end). */
  typeError?: string
  /** Strict-mode unknown fields, `ownerReferences[0].foo`. */
  unknown: string[]
}

/** encoding/json's name of a JSON value in `cannot unmarshal <value>`. */
function jsonValueName(v: unknown): string {
  switch (kindOf(v)) {
    case 'string':
      return 'string'
    case 'bool':
      return 'bool'
    case 'slice':
      return 'array'
    case 'map':
      return 'object'
    default:
      return 'number'
  }
}

interface Where {
  readonly struct: string
  readonly field: string
}

function typeError(ctx: Ctx, v: unknown, goType: string, where: Where | undefined, value = jsonValueName(v)): void {
  if (ctx.typeError !== undefined) return
  ctx.typeError =
    where === undefined
      ? `json: cannot unmarshal ${value} into Go value of type ${goType}`
      : `json: cannot unmarshal ${value} into Go struct field ${where.struct}.${where.field} of type ${goType}`
}

type Decoder<T> = (v: unknown, ctx: Ctx, where: Where | undefined, strictPath: string) => T | undefined

const str =
  (goType = 'string'): Decoder<string> =>
  (v, ctx, where) => {
    if (typeof v === 'string') return v
    typeError(ctx, v, goType, where)
    return undefined
  }

const int64: Decoder<number | bigint> = (v, ctx, where) => {
  const k = kindOf(v)
  if (k === 'int64') return v as number | bigint
  // a number that is not an int64 literal: "number 1.5"
  typeError(ctx, v, 'int64', where, k === 'float64' ? `number ${goJSON(v)}` : jsonValueName(v))
  return undefined
}

const bool: Decoder<boolean> = (v, ctx, where) => {
  if (typeof v === 'boolean') return v
  typeError(ctx, v, 'bool', where)
  return undefined
}

/** metav1.Time.UnmarshalJSON: null is the zero time; anything else must be an RFC 3339 string. */
const time: Decoder<number> = (v) => {
  if (typeof v !== 'string') throw new Abort(`json: cannot unmarshal ${jsonValueName(v)} into Go value of type string`)
  const t = parseRFC3339(v)
  if ('error' in t) throw new Abort(t.error)
  return t.unixSeconds
}

const stringMap: Decoder<Record<string, string>> = (v, ctx, where) => {
  if (!isObject(v)) {
    typeError(ctx, v, 'map[string]string', where)
    return undefined
  }
  const out: Record<string, string> = {}
  for (const k of Object.keys(v).sort(compareGoStrings))
    out[k] = v[k] === null ? '' : (str()(v[k], ctx, where, '') ?? '')
  return out
}

const stringSlice: Decoder<string[]> = (v, ctx, where) => {
  if (!Array.isArray(v)) {
    typeError(ctx, v, '[]string', where)
    return undefined
  }
  return v.map((x) => (x === null ? '' : (str()(x, ctx, where, '') ?? '')))
}

type Fields = Record<string, { decode: Decoder<unknown> }>

/** A struct: known fields decoded (null leaves the zero value), unknown ones recorded. */
function decodeStruct(
  v: JSONObject,
  structName: string,
  fields: Fields,
  ctx: Ctx,
  fieldStack: string,
  strictPath: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v).sort(compareGoStrings)) {
    const f = fields[k]
    const path = strictPath === '' ? k : `${strictPath}.${k}`
    if (f === undefined) {
      ctx.unknown.push(path)
      continue
    }
    if (v[k] === null) continue
    const d = f.decode(v[k], ctx, { struct: structName, field: fieldStack === '' ? k : `${fieldStack}.${k}` }, path)
    if (d !== undefined) out[k] = d
  }
  return out
}

const structSlice =
  (goType: string, structName: string, fields: Fields, fieldName: string): Decoder<Record<string, unknown>[]> =>
  (v, ctx, where, strictPath) => {
    if (!Array.isArray(v)) {
      typeError(ctx, v, `[]${goType}`, where)
      return undefined
    }
    return v.map((x, i) => {
      if (x === null) return {}
      if (!isObject(x)) {
        typeError(ctx, x, goType, where)
        return {}
      }
      return decodeStruct(x, structName, fields, ctx, fieldName, `${strictPath}[${i}]`)
    })
  }

const OWNER_REFERENCE: Fields = {
  apiVersion: { decode: str() },
  kind: { decode: str() },
  name: { decode: str() },
  uid: { decode: str('types.UID') },
  controller: { decode: bool },
  blockOwnerDeletion: { decode: bool },
}

const MANAGED_FIELDS_ENTRY: Fields = {
  manager: { decode: str() },
  operation: { decode: str('v1.ManagedFieldsOperationType') },
  apiVersion: { decode: str() },
  time: { decode: time },
  fieldsType: { decode: str() },
  // FieldsV1 keeps any JSON as raw bytes
  fieldsV1: { decode: (v) => v },
  subresource: { decode: str() },
}

const OBJECT_META: Fields = {
  name: { decode: str() },
  generateName: { decode: str() },
  namespace: { decode: str() },
  selfLink: { decode: str() },
  uid: { decode: str('types.UID') },
  resourceVersion: { decode: str() },
  generation: { decode: int64 },
  creationTimestamp: { decode: time },
  deletionTimestamp: { decode: time },
  deletionGracePeriodSeconds: { decode: int64 },
  labels: { decode: stringMap },
  annotations: { decode: stringMap },
  ownerReferences: { decode: structSlice('v1.OwnerReference', 'OwnerReference', OWNER_REFERENCE, 'ownerReferences') },
  finalizers: { decode: stringSlice },
  managedFields: {
    decode: structSlice('v1.ManagedFieldsEntry', 'ManagedFieldsEntry', MANAGED_FIELDS_ENTRY, 'managedFields'),
  },
}

function toObjectMeta(d: Record<string, unknown>): ObjectMeta {
  const m = { ...emptyObjectMeta(), ...d } as ObjectMeta
  // set only when present (no `delete`: it would turn the object into a slow dictionary)
  const refs = d.ownerReferences as Record<string, unknown>[] | undefined
  if (refs !== undefined)
    m.ownerReferences = refs.map((r) => ({ apiVersion: '', kind: '', name: '', uid: '', ...r }) as OwnerReference)
  const managed = d.managedFields as Record<string, unknown>[] | undefined
  if (managed !== undefined) {
    m.managedFields = managed.map(
      (e) =>
        ({ manager: '', operation: '', apiVersion: '', fieldsType: '', subresource: '', ...e }) as ManagedFieldsEntry,
    )
  }
  return m
}

/** Unmarshal (strict or not) of metadata into ObjectMeta: the decoded members, unknown paths, or the error. */
function unmarshal(v: unknown): { decoded?: Record<string, unknown>; unknown: string[]; error?: string } {
  const ctx: Ctx = { unknown: [] }
  if (v === null) return { decoded: {}, unknown: [] }
  if (!isObject(v)) {
    typeError(ctx, v, 'v1.ObjectMeta', undefined)
    return { unknown: [], error: ctx.typeError }
  }
  try {
    const decoded = decodeStruct(v, 'ObjectMeta', OBJECT_META, ctx, '', '')
    if (ctx.typeError !== undefined) return { unknown: ctx.unknown, error: ctx.typeError }
    return { decoded, unknown: ctx.unknown }
  } catch (e) {
    if (e instanceof Abort) return { unknown: ctx.unknown, error: e.message }
    throw e
  }
}

export interface ObjectMetaOptions {
  /** Drop malformed fields instead of failing (reading stored objects). */
  readonly dropMalformedFields?: boolean
  /** Report unknown fields (strict or warn field validation). */
  readonly returnUnknownFieldPaths?: boolean
  /** Where the metadata sits (nil: the root). */
  readonly parentPath?: FieldPath
}

export interface GetObjectMetaResult {
  readonly meta?: ObjectMeta
  readonly found: boolean
  readonly unknownFields: string[]
  readonly error?: string
}

/** GetObjectMetaWithOptions(obj, opts). */
export function getObjectMeta(obj: JSONObject, opts: ObjectMetaOptions = {}): GetObjectMetaResult {
  if (!Object.hasOwn(obj, 'metadata')) return { found: false, unknownFields: [] }
  const metadata = obj.metadata
  const prefix = opts.parentPath === undefined ? 'metadata' : opts.parentPath.child('metadata').toString()
  const paths = (u: string[]) => (opts.returnUnknownFieldPaths ? u.map((p) => `${prefix}.${p}`) : [])
  const whole = unmarshal(metadata)
  if (whole.error === undefined) {
    return { meta: toObjectMeta(whole.decoded ?? {}), found: true, unknownFields: paths(whole.unknown) }
  }
  if (!opts.dropMalformedFields) return { found: true, unknownFields: [], error: whole.error }
  if (!isObject(metadata)) {
    return { found: false, unknownFields: [], error: `invalid metadata: expected object, got ${goTypeName(metadata)}` }
  }
  // field by field, keeping the fields that decode on their own
  const acc: Record<string, unknown> = {}
  const unknown: string[] = []
  for (const k of Object.keys(metadata)) {
    const one = unmarshal({ [k]: metadata[k] })
    if (one.error !== undefined) continue
    unknown.push(...one.unknown)
    Object.assign(acc, one.decoded)
  }
  return { meta: toObjectMeta(acc), found: true, unknownFields: paths(unknown) }
}

/** `%T` of an unstructured value. */
function goTypeName(v: unknown): string {
  switch (kindOf(v)) {
    case 'string':
      return 'string'
    case 'bool':
      return 'bool'
    case 'int64':
      return 'int64'
    case 'float64':
      return 'float64'
    case 'slice':
      return '[]interface {}'
    case 'map':
      return 'map[string]interface {}'
    default:
      return '<nil>'
  }
}

const nonEmpty = (m: object | undefined) => m !== undefined && Object.keys(m).length > 0

/**
 * ToUnstructured(objectMeta): omitempty members left out. A zero creationTimestamp is written as null
 * before 1.34 and left out since (`omitzero`).
 */
export function objectMetaToUnstructured(m: ObjectMeta, omitZeroCreationTimestamp = true): JSONObject {
  const out: JSONObject = {}
  const s = (k: keyof ObjectMeta) => {
    if (m[k] !== '' && m[k] !== undefined) out[k] = m[k]
  }
  s('name')
  s('generateName')
  s('namespace')
  s('selfLink')
  s('uid')
  s('resourceVersion')
  if (Number(m.generation) !== 0) out.generation = m.generation
  if (m.creationTimestamp !== undefined) out.creationTimestamp = formatRFC3339(m.creationTimestamp)
  else if (!omitZeroCreationTimestamp) out.creationTimestamp = null
  if (m.deletionTimestamp !== undefined) out.deletionTimestamp = formatRFC3339(m.deletionTimestamp)
  if (m.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds
  if (nonEmpty(m.labels)) out.labels = { ...m.labels }
  if (nonEmpty(m.annotations)) out.annotations = { ...m.annotations }
  if (nonEmpty(m.ownerReferences)) out.ownerReferences = m.ownerReferences?.map((r) => ({ ...r }))
  if (nonEmpty(m.finalizers)) out.finalizers = [...(m.finalizers as string[])]
  if (nonEmpty(m.managedFields)) {
    out.managedFields = m.managedFields?.map((e) => {
      const o: JSONObject = {}
      for (const k of ['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource'] as const)
        if (e[k] !== '') o[k] = e[k]
      if (e.time !== undefined) o.time = formatRFC3339(e.time)
      if (e.fieldsV1 !== undefined) o.fieldsV1 = e.fieldsV1
      return o
    })
  }
  return out
}

/** SetObjectMeta(obj, objectMeta). */
export function setObjectMeta(obj: JSONObject, m: ObjectMeta | undefined, omitZeroCreationTimestamp = true): void {
  if (m === undefined) delete obj.metadata
  else obj.metadata = objectMetaToUnstructured(m, omitZeroCreationTimestamp)
}
