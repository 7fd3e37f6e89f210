import { compareStrings } from '../cel/values/strings.js'
import { formatRFC3339, parseRFC3339 } from '../kube/gotime.js'
import { BoundedMemo } from '../kube/memo.js'
import { setOwn } from '../kube/own-keys.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import { parseQuantity } from '../kube/values/quantity.js'
import { type FieldRow, structInfo, type TypeNode } from './gotypes.js'

// A built-in object decoded as kube-apiserver decodes a request body into its Go type
// (apimachinery pkg/runtime/serializer/json, strict: sigs.k8s.io/json UnmarshalStrict, a fork of
// encoding/json), and written back as Go's json.Marshal would write the decoded value:
//
// - keys are matched case-sensitively; unknown ones are strict errors `unknown field "<path>"`
//   (path with `.` and `[i]`, map keys included), deduplicated, at most 100, reported only when
//   nothing else failed;
// - a value of the wrong JSON type is encoding/json's UnmarshalTypeError, saved (the first one wins)
//   while decoding goes on: `json: cannot unmarshal string into Go struct field
//   DeploymentSpec.spec.replicas of type int32` (the innermost struct's Go name, the path of JSON
//   names and embedded Go field names without indexes or map keys, the Go type);
// - types with their own UnmarshalJSON (Quantity, Time, IntOrString, ...) fail at once: the first such
//   error in the order the apiserver reads the object is returned, even over a saved one (encoding/json's
//   value() returns it);
//   base64 errors of []byte fields are saved as they are (`illegal base64 data at input byte 4`);
// - null leaves a value field as it is and makes pointers, slices and maps nil;
// - the output is the Go value marshalled: fields in Go order, `omitempty` / `omitzero` zero values
//   dropped, other zero values written (`containers: null`, `status: {}`), map keys sorted,
//   quantities and times in canonical form, bytes in padded base64.
//
// Each struct's decoder is built once from the type table (gotypes.ts) and reused.

/** An error and where it was met (the strict field stack then). */
interface Met {
  readonly message: string
  readonly at: readonly (string | number)[]
}

/**
 * Of `kept` and an error met at `at`, the one met first in the order the apiserver decodes what kubectl sends
 * (written from a map: every object's keys sorted, kubectlOrder).
 */
function firstMet(kept: Met | undefined, message: string, at: readonly (string | number)[]): Met {
  return kept !== undefined && kubectlOrder(at, kept.at) >= 0 ? kept : { message, at: [...at] }
}

export class DecodeContext {
  /** The first saved error (d.savedError), already formatted. */
  saved: Met | undefined
  /** The first custom UnmarshalJSON error (abort()). */
  aborted: Met | undefined
  /** Unknown field paths (strict errors), when tracked. */
  readonly strict: string[] | undefined
  private readonly seen: Set<string> | undefined
  /**
   * errorContext: the fields being decoded, outermost first (each with its FieldStack entries, the
   * embedded Go names and the JSON name, and its struct's name); flattened only for an error.
   */
  readonly fields: FieldFrame[] = []
  /** strictFieldStack, one entry per step: a key, or a list index; joined only for an unknown field. */
  readonly ss: (string | number)[] = []
  /** Whether an omitempty list or map was given empty and kept (keepEmpty). */
  keptEmpty = false

  /**
   * @param hidden struct id → json fields the target release does not have (release-fields.ts):
   * decoded as unknown fields and left out of the value, as that release's decoder does
   */
  constructor(
    trackUnknown: boolean,
    readonly hidden?: ReadonlyMap<string, ReadonlySet<string>>,
    readonly keepEmpty = false,
  ) {
    this.strict = trackUnknown ? [] : undefined
    this.seen = trackUnknown ? new Set() : undefined
  }

  /** errorContext.Struct's name. */
  get struct(): string {
    return this.fields.at(-1)?.struct ?? ''
  }

  /** errorContext.FieldStack (JSON names and embedded Go field names). */
  get fs(): string[] {
    const out: string[] = []
    for (const f of this.fields) for (const s of f.stack) out.push(s)
    return out
  }

  /** UnmarshalTypeError with the current error context. */
  typeError(value: string, goType: string): string {
    if (this.fields.length > 0) {
      return `json: cannot unmarshal ${value} into Go struct field ${this.struct}.${this.fs.join('.')} of type ${goType}`
    }
    return `json: cannot unmarshal ${value} into Go value of type ${goType}`
  }

  /**
   * d.saveError: the first error in the order the apiserver meets them. kubectl sends the object written from a
   * map (encoding/json sorts its keys), so that order is every object's keys in byte order, not the manifest's
   * (`data: {enabled: yes, count: 1}`: the number's error, at `count`).
   */
  save(message: string): void {
    this.saved = firstMet(this.saved, message, this.ss)
  }

  /**
   * A custom UnmarshalJSON failed: encoding/json stops there and returns that error, whatever was saved. The
   * apiserver meets the failures in the order of save(); decoding goes on here so that the first in that order is
   * the one kept, not the manifest's first (`limits: {memory: x, cpu: y}`: cpu's).
   */
  abort(message: string): void {
    this.aborted = firstMet(this.aborted, message, this.ss)
  }

  unknown(key: string): void {
    if (this.strict === undefined || this.seen === undefined || this.strict.length >= 100) return
    const path = this.ss.length > 0 ? `${this.strictPath()}.${key}` : key
    if (this.seen.has(path)) return
    this.seen.add(path)
    this.strict.push(path)
  }

  /** The strict field stack joined: `.key` (the first key bare) and `[i]`. */
  private strictPath(): string {
    let s = ''
    for (let j = 0; j < this.ss.length; j++) {
      const e = this.ss[j] as string | number
      s += typeof e === 'number' ? `[${e}]` : j === 0 ? e : `.${e}`
    }
    return s
  }

  pushKey(key: string): void {
    this.ss.push(key)
  }
}

/** A field in the error context: its FieldStack entries and the name of the struct it belongs to. */
export interface FieldFrame {
  readonly stack: readonly string[]
  readonly struct: string
}

/** A node's decoder: the marshalled Go value, or NIL for a nil pointer / slice / map. */
export type Decoder = (v: unknown, ctx: DecodeContext) => unknown
export const NIL = undefined

/** The JSON kind encoding/json names in UnmarshalTypeError.Value. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number' || typeof v === 'bigint') return 'number'
  if (typeof v === 'boolean') return 'bool'
  if (Array.isArray(v)) return 'array'
  return 'object'
}

/** The number as kubectl's JSON writes it (Go's float64 formatting agrees with JS's for these). */
export const numberLiteral = (v: number | bigint): string => String(v)

const INT_RANGE: Record<number, [bigint, bigint]> = {
  8: [-(2n ** 7n), 2n ** 7n - 1n],
  16: [-(2n ** 15n), 2n ** 15n - 1n],
  32: [-(2n ** 31n), 2n ** 31n - 1n],
  64: [-(2n ** 63n), 2n ** 63n - 1n],
}
const UINT_MAX: Record<number, bigint> = { 8: 255n, 16: 65535n, 32: 2n ** 32n - 1n, 64: 2n ** 64n - 1n }

/** strconv.ParseInt(literal, 10, 64) and OverflowInt: the integer, or undefined. */
function asInt(v: number | bigint, bits: number): number | bigint | undefined {
  const [lo, hi] = INT_RANGE[bits] ?? (INT_RANGE[64] as [bigint, bigint])
  if (typeof v === 'bigint') return v >= lo && v <= hi ? v : undefined
  if (!Number.isInteger(v)) return undefined
  if (bits <= 32) return v >= Number(lo) && v <= Number(hi) ? v : undefined
  // past 2^53 a double is exact only as a bigint
  if (Math.abs(v) >= 1e21) return undefined
  const b = BigInt(v)
  if (b < lo || b > hi) return undefined
  return Number.isSafeInteger(v) ? v : b
}

function intDecoder(goType: string, bits: number): Decoder {
  return (v, ctx) => {
    if (typeof v === 'number' || typeof v === 'bigint') {
      const n = asInt(v, bits)
      if (n !== undefined) return n
      ctx.save(ctx.typeError(`number ${numberLiteral(v)}`, goType))
      return 0
    }
    if (v !== null) ctx.save(ctx.typeError(jsonKind(v), goType))
    return 0
  }
}

function uintDecoder(goType: string, bits: number): Decoder {
  const max = UINT_MAX[bits] ?? (UINT_MAX[64] as bigint)
  return (v, ctx) => {
    if (typeof v === 'number' || typeof v === 'bigint') {
      const ok = typeof v === 'bigint' ? v >= 0n && v <= max : Number.isInteger(v) && v >= 0 && BigInt(v) <= max
      if (ok) return v
      ctx.save(ctx.typeError(`number ${numberLiteral(v)}`, goType))
      return 0
    }
    if (v !== null) ctx.save(ctx.typeError(jsonKind(v), goType))
    return 0
  }
}

function floatDecoder(goType: string, bits: number): Decoder {
  return (v, ctx) => {
    if (typeof v === 'number' || typeof v === 'bigint') {
      const f = Number(v)
      if (bits === 32 && Math.abs(f) > 3.4028234663852886e38) {
        ctx.save(ctx.typeError(`number ${numberLiteral(v)}`, goType))
        return 0
      }
      return f
    }
    if (v !== null) ctx.save(ctx.typeError(jsonKind(v), goType))
    return 0
  }
}

function stringDecoder(goType: string): Decoder {
  return (v, ctx) => {
    if (typeof v === 'string') return v
    if (v !== null) ctx.save(ctx.typeError(jsonKind(v), goType))
    return ''
  }
}

function boolDecoder(goType: string): Decoder {
  return (v, ctx) => {
    if (typeof v === 'boolean') return v
    if (v !== null) ctx.save(ctx.typeError(jsonKind(v), goType))
    return false
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64MAP = new Int16Array(256).fill(-1)
for (let i = 0; i < B64.length; i++) B64MAP[B64.charCodeAt(i)] = i

/**
 * base64.StdEncoding.Decode (padded; `\r` and `\n` skipped): the bytes, or the CorruptInputError
 * offset. The input is the string's UTF-8 bytes.
 */
export function goBase64Decode(s: string): Uint8Array | number {
  const src = Buffer.from(s, 'utf8')
  const out: number[] = []
  let si = 0
  const n = src.length
  for (;;) {
    const dbuf = [0, 0, 0, 0]
    let dlen = 4
    let j = 0
    let end = false
    for (; j < 4; j++) {
      if (si === n) {
        if (j === 0) return Uint8Array.from(out)
        return si - j
      }
      const c = src[si] as number
      si++
      const d = B64MAP[c] as number
      if (d >= 0) {
        dbuf[j] = d
        continue
      }
      if (c === 0x0a || c === 0x0d) {
        j--
        continue
      }
      if (c !== 0x3d) return si - 1
      // padding
      if (j === 0 || j === 1) return si - 1
      if (j === 2) {
        while (si < n && (src[si] === 0x0a || src[si] === 0x0d)) si++
        if (si === n) return n
        if (src[si] !== 0x3d) return si - 1
        si++
      }
      while (si < n && (src[si] === 0x0a || src[si] === 0x0d)) si++
      if (si < n) return si
      dlen = j
      end = true
      break
    }
    const val =
      ((dbuf[0] as number) << 18) | ((dbuf[1] as number) << 12) | ((dbuf[2] as number) << 6) | (dbuf[3] as number)
    const b = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff]
    for (let k = 0; k < dlen - 1; k++) out.push(b[k] as number)
    if (end) return Uint8Array.from(out)
  }
}

function bytesDecoder(goType: string): Decoder {
  const u8 = uintDecoder('uint8', 8)
  return (v, ctx) => {
    if (v === null) return NIL
    if (typeof v === 'string') {
      const r = goBase64Decode(v)
      if (typeof r === 'number') {
        ctx.save(`illegal base64 data at input byte ${r}`)
        return ''
      }
      return Buffer.from(r).toString('base64')
    }
    if (Array.isArray(v)) {
      const bytes: number[] = []
      for (let i = 0; i < v.length; i++) {
        ctx.ss.push(i)
        bytes.push(Number(u8(v[i], ctx)))
        ctx.ss.pop()
      }
      return Buffer.from(bytes).toString('base64')
    }
    ctx.save(ctx.typeError(jsonKind(v), goType))
    return NIL
  }
}

function pointerDecoder(elem: Decoder): Decoder {
  return (v, ctx) => (v === null ? NIL : elem(v, ctx))
}

function sliceDecoder(goType: string, elem: Decoder): Decoder {
  return (v, ctx) => {
    if (v === null) return NIL
    if (!Array.isArray(v)) {
      ctx.save(ctx.typeError(jsonKind(v), goType))
      return NIL
    }
    const out = new Array(v.length)
    const ss = ctx.ss
    for (let i = 0; i < v.length; i++) {
      ss.push(i)
      const d = elem(v[i], ctx)
      out[i] = d === NIL ? null : d
      ss.pop()
    }
    return out
  }
}

function mapDecoder(goType: string, elem: Decoder): Decoder {
  return (v, ctx) => {
    if (v === null) return NIL
    if (!isObject(v)) {
      ctx.save(ctx.typeError(jsonKind(v), goType))
      return NIL
    }
    const keys = Object.keys(v)
    const ss = ctx.ss
    const values = new Array(keys.length)
    // json.Marshal writes map keys sorted: most maps are written sorted already
    let sorted = true
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string
      if (i > 0 && sorted && compareStrings(keys[i - 1] as string, k) >= 0) sorted = false
      ss.push(k)
      const d = elem(v[k], ctx)
      ss.pop()
      values[i] = d === NIL ? null : d
    }
    // a map key is data (`__proto__` included): written as an own property
    const out: JSONObject = {}
    if (sorted) {
      for (let i = 0; i < keys.length; i++) setOwn(out, keys[i] as string, values[i])
      return out
    }
    const order = keys.map((_, i) => i)
    order.sort((a, b) => compareStrings(keys[a] as string, keys[b] as string))
    for (const i of order) setOwn(out, keys[i] as string, values[i])
    return out
  }
}

const anyDecoder: Decoder = (v) => structuredClone(v)

/** Quantity texts seen → their canonical form or parse error (the same few values recur across objects). */
type CanonicalQuantity = { text: string; error?: undefined } | { text?: undefined; error: string }
const quantities = new BoundedMemo<string, CanonicalQuantity>(4096)
const canonicalQuantity = (text: string): CanonicalQuantity => quantities.answer(text, parseCanonicalQuantity)
function parseCanonicalQuantity(text: string): CanonicalQuantity {
  const q = parseQuantity(text.trim())
  return typeof q === 'string' ? { error: q } : { text: q.toString() }
}

/** Types with their own UnmarshalJSON. */
function unmarshalerDecoder(goType: string): Decoder {
  switch (goType) {
    case 'resource.Quantity':
      return (v, ctx) => {
        if (v === null) return '0'
        // the raw JSON: a string's contents, or the literal
        const text = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : numberLiteral(v as number)
        const q = canonicalQuantity(text)
        if (q.error === undefined) return q.text
        ctx.abort(q.error)
        return '0'
      }
    case 'intstr.IntOrString':
      return (v, ctx) => {
        if (typeof v === 'string') return v
        if (v === null) return 0
        if (typeof v === 'number' || typeof v === 'bigint') {
          const n = asInt(v, 32)
          if (n !== undefined) return n
          ctx.abort(ctx.typeError(`number ${numberLiteral(v)}`, 'int32'))
          return 0
        }
        ctx.abort(ctx.typeError(jsonKind(v), 'int32'))
        return 0
      }
    case 'v1.Time':
    case 'v1.MicroTime': {
      const micro = goType === 'v1.MicroTime'
      return (v, ctx) => {
        if (v === null) return null
        if (typeof v !== 'string') {
          ctx.abort(ctx.typeError(jsonKind(v), 'string'))
          return null
        }
        const t = parseRFC3339(v)
        if ('error' in t) {
          ctx.abort(t.error)
          return null
        }
        const s = formatRFC3339(t.unixSeconds)
        return micro ? `${s.slice(0, -1)}.000000Z` : s
      }
    }
    default:
      // runtime.RawExtension, metav1.FieldsV1: the raw JSON, kept as it is
      return (v) => structuredClone(v)
  }
}

/** The marshalled zero value of a node (NIL: omitted under omitempty, else null). */
export function zeroOf(t: TypeNode): unknown {
  if (typeof t === 'string') return zeroStruct(t)
  switch (t[0]) {
    case 'i':
    case 'n':
    case 'f':
      return 0
    case 'str':
      return ''
    case 'bool':
      return false
    case 'u':
      return t[1] === 'resource.Quantity' ? '0' : t[1] === 'intstr.IntOrString' ? 0 : null
    default:
      return NIL
  }
}

/** Whether Go's omitempty drops this marshalled value of a node. */
function omitEmpty(t: TypeNode, v: unknown): boolean {
  if (v === NIL || v === null) return typeof t !== 'string' && t[0] !== 'u'
  if (typeof t === 'string') return false
  switch (t[0]) {
    case 'i':
    case 'n':
    case 'f':
      return v === 0
    case 'str':
      return v === ''
    case 'bool':
      return v === false
    case 'l':
      return (v as unknown[]).length === 0
    case 'b':
      return v === ''
    case 'm':
      return Object.keys(v as object).length === 0
    default:
      return false
  }
}

/** Whether omitzero drops it: the Go zero value (Time.IsZero for times). */
function omitZero(t: TypeNode, v: unknown): boolean {
  if (v === NIL || v === null) return true
  if (typeof t === 'string') return false
  if (t[0] === 'l' || t[0] === 'm' || t[0] === 'b') return false
  return omitEmpty(t, v)
}

/**
 * A list or map given empty (`[]`, `{}`): a non-nil empty slice or map to Go, which its defaulting (`== nil`)
 * and validation see, though omitempty drops it when the object is marshalled.
 */
function isEmptyCollection(t: TypeNode, v: unknown): boolean {
  return typeof t !== 'string' && (t[0] === 'l' || t[0] === 'm') && v !== NIL && v !== null
}

const zeroCache = new Map<string, JSONObject>()
function zeroStruct(id: string): JSONObject {
  let z = zeroCache.get(id)
  if (z === undefined) {
    z = {}
    for (const [name, t, flags] of structInfo(id).fields) {
      const v = zeroOf(t)
      const omit = flags & 2 ? omitZero(t, v) : flags & 1 ? omitEmpty(t, v) : false
      if (!omit) z[name] = v === NIL ? null : v
    }
    zeroCache.set(id, z)
  }
  return cloneZero(z)
}

/** A copy of a zero struct (plain objects of primitives and nulls: what structuredClone would give). */
function cloneZero(z: JSONObject): JSONObject {
  const out: JSONObject = {}
  for (const k in z) {
    const v = z[k]
    out[k] = typeof v === 'object' && v !== null ? cloneZero(v as JSONObject) : v
  }
  return out
}

const decoders = new Map<string, Decoder>()

/** The decoder of a node, built once per struct. */
export function decoderOf(t: TypeNode): Decoder {
  if (typeof t === 'string') {
    let d = decoders.get(t)
    if (d === undefined) {
      // a placeholder for recursive types, replaced once built
      let real: Decoder | undefined
      decoders.set(t, (v, ctx) => (real as Decoder)(v, ctx))
      real = structDecoder(t)
      decoders.set(t, real)
      d = real
    }
    return d
  }
  switch (t[0]) {
    case 'p':
      return pointerDecoder(decoderOf(t[1]))
    case 'l':
      return sliceDecoder(t[1], decoderOf(t[2]))
    case 'b':
      return bytesDecoder(t[1])
    case 'm':
      return mapDecoder(t[1], decoderOf(t[3]))
    case 'i':
      return intDecoder(t[1], t[2])
    case 'n':
      return uintDecoder(t[1], t[2])
    case 'f':
      return floatDecoder(t[1], t[2])
    case 'str':
      return stringDecoder(t[1])
    case 'bool':
      return boolDecoder(t[1])
    case 'u':
      return unmarshalerDecoder(t[1])
    case 'any':
      return anyDecoder
  }
}

interface CompiledField extends FieldFrame {
  readonly name: string
  readonly type: TypeNode
  /** The field's decoder, built on first use (a run meets few of a kind's fields). */
  decode: Decoder | undefined
  /** 0 keep, 1 omitempty, 2 omitzero */
  readonly omit: number
  /** The field's marshalled value when the body does not set it: SKIP when omitted, ZERO_STRUCT for a struct's zero. */
  readonly unset: unknown
}

/** An unset field that is not written. */
const SKIP = Symbol('skip')
/** An unset struct field: a fresh zero struct of its type. */
const ZERO_STRUCT = Symbol('zero struct')
/** A field the body did not set (decoded values are never symbols). */
const UNSET = Symbol('unset')

function structDecoder(id: string): Decoder {
  const info = structInfo(id)
  const name = info.name
  const goType = info.goType
  const fields: CompiledField[] = info.fields.map((row: FieldRow) => {
    const type = row[1]
    const omit = row[2] & 2 ? 2 : row[2] & 1 ? 1 : 0
    // the zero of an unset field and whether it is omitted, once (zeroOf of a struct is a fresh copy)
    let unset: unknown
    if (typeof type === 'string') unset = ZERO_STRUCT
    else {
      const z = zeroOf(type)
      unset = (omit === 1 ? omitEmpty(type, z) : omit === 2 ? omitZero(type, z) : false) ? SKIP : z === NIL ? null : z
    }
    return {
      name: row[0],
      type,
      decode: undefined,
      omit,
      stack: [...(row[3] ?? []), row[0]],
      struct: name,
      unset,
    }
  })
  const byName = new Map<string, number>()
  for (let i = 0; i < fields.length; i++) byName.set((fields[i] as CompiledField).name, i)
  const n = fields.length
  // interpreted for its first objects (a one-file run pays no code generation), then generated
  let calls = 0
  let impl: Decoder = (v, ctx) => {
    if (++calls >= COMPILE_AFTER) impl = compileStruct(id, goType, fields, byName)
    if (v === null) return zeroStruct(id)
    if (!isObject(v)) {
      ctx.save(ctx.typeError(jsonKind(v), goType))
      return zeroStruct(id)
    }
    const values: unknown[] = new Array(n).fill(UNSET)
    const frames = ctx.fields
    const ss = ctx.ss
    const hidden = ctx.hidden?.get(id)
    for (const key of Object.keys(v)) {
      const i = byName.get(key)
      if (i === undefined || hidden?.has(key) === true) {
        ctx.unknown(key)
        continue
      }
      const f = fields[i] as CompiledField
      f.decode ??= decoderOf(f.type)
      frames.push(f)
      ss.push(key)
      // null leaves a value field as it is; nils pointers, slices and maps
      values[i] = f.decode(v[key], ctx)
      ss.pop()
      frames.pop()
    }
    const out: JSONObject = {}
    for (let i = 0; i < n; i++) {
      const f = fields[i] as CompiledField
      const d = values[i]
      if (hidden?.has(f.name) === true) continue
      if (d === UNSET) {
        const u = f.unset
        if (u === SKIP) continue
        out[f.name] = u === ZERO_STRUCT ? zeroStruct(f.type as string) : u
        continue
      }
      if (f.omit === 1 ? omitEmpty(f.type, d) : f.omit === 2 ? omitZero(f.type, d) : false) {
        if (!(ctx.keepEmpty && isEmptyCollection(f.type, d))) continue
        ctx.keptEmpty = true
      }
      out[f.name] = d === NIL ? null : d
    }
    return out
  }
  return (v, ctx) => impl(v, ctx)
}

/** Objects a struct's decoder interprets before its code is generated. */
const COMPILE_AFTER = 16

/**
 * Whether omitempty (1) / omitzero (2) drops the marshalled value `x` of a node, as a JS expression
 * (omitEmpty / omitZero specialised to the type); undefined when it never does.
 */
function omitCode(t: TypeNode, omit: number, x: string): string | undefined {
  if (omit === 0) return undefined
  // a struct is never omitted by omitempty; omitzero drops only a nil one
  if (typeof t === 'string') return omit === 2 ? `(${x} == null)` : undefined
  const k = t[0]
  if (omit === 1) {
    switch (k) {
      case 'u':
        return undefined
      case 'i':
      case 'n':
      case 'f':
        return `(${x} == null || ${x} === 0)`
      case 'str':
      case 'b':
        return `(${x} == null || ${x} === '')`
      case 'bool':
        return `(${x} == null || ${x} === false)`
      // a given empty list or map is kept under keepEmpty (isEmptyCollection)
      case 'l':
        return `(${x} == null || (${x}.length === 0 && !keep(ctx)))`
      case 'm':
        return `(${x} == null || (Object.keys(${x}).length === 0 && !keep(ctx)))`
      default:
        return `(${x} == null)`
    }
  }
  switch (k) {
    case 'i':
    case 'n':
    case 'f':
      return `(${x} == null || ${x} === 0)`
    case 'str':
      return `(${x} == null || ${x} === '')`
    case 'bool':
      return `(${x} == null || ${x} === false)`
    default:
      return `(${x} == null)`
  }
}

/**
 * A struct's decoder as one generated function (the fields unrolled: locals instead of arrays, the
 * output written in Go field order with each field's omit rule inlined: omitEmpty / omitZero
 * specialised by omitCode); built once per struct.
 */
function compileStruct(
  id: string,
  goType: string,
  fields: readonly CompiledField[],
  byName: ReadonlyMap<string, number>,
): Decoder {
  const n = fields.length
  const lines: string[] = []
  lines.push('return function decodeStruct(v, ctx) {')
  lines.push('  if (v === null) return zeroStruct(id)')
  lines.push('  if (!isObject(v)) { ctx.save(ctx.typeError(jsonKind(v), goType)); return zeroStruct(id) }')
  for (let i = 0; i < n; i++) lines.push(`  let v${i} = UNSET`)
  lines.push('  const frames = ctx.fields, ss = ctx.ss, keys = Object.keys(v)')
  lines.push('  const hidden = ctx.hidden === undefined ? undefined : ctx.hidden.get(id)')
  lines.push('  for (let k = 0; k < keys.length; k++) {')
  lines.push('    const key = keys[k], i = byName.get(key)')
  lines.push('    if (i === undefined || (hidden !== undefined && hidden.has(key))) { ctx.unknown(key); continue }')
  lines.push('    frames.push(F[i]); ss.push(key)')
  lines.push('    switch (i) {')
  for (let i = 0; i < n; i++) lines.push(`      case ${i}: v${i} = D${i}(v[key], ctx); break`)
  lines.push('    }')
  lines.push('    ss.pop(); frames.pop()')
  lines.push('  }')
  lines.push('  const out = {}')
  for (let i = 0; i < n; i++) {
    const f = fields[i] as CompiledField
    const key = JSON.stringify(f.name)
    const x = `v${i}`
    const u = f.unset
    const unset =
      u === SKIP ? '' : u === ZERO_STRUCT ? `out[${key}] = zeroStruct(F[${i}].type)` : `out[${key}] = F[${i}].unset`
    const omit = omitCode(f.type, f.omit, x)
    const set =
      omit === undefined
        ? `out[${key}] = ${x} === undefined ? null : ${x}`
        : `if (!${omit}) out[${key}] = ${x} === undefined ? null : ${x}`
    lines.push(`  if (${x} === UNSET) { ${unset} } else { ${set} }`)
  }
  lines.push('  if (hidden !== undefined) for (const h of hidden) delete out[h]')
  lines.push('  return out')
  lines.push('}')
  for (const f of fields) f.decode ??= decoderOf(f.type)
  const decls = fields.map((_, i) => `const D${i} = F[${i}].decode`).join('\n')
  const make = new Function(
    'F',
    'byName',
    'id',
    'goType',
    'UNSET',
    'zeroStruct',
    'isObject',
    'jsonKind',
    'keep',
    `${decls}\n${lines.join('\n')}`,
  ) as (...args: unknown[]) => Decoder
  return make(fields, byName, id, goType, UNSET, zeroStruct, isObject, jsonKind, keepEmptyCollection)
}

/** Under keepEmpty, notes the kept empty collection (true) for the generated decoders. */
function keepEmptyCollection(ctx: DecodeContext): boolean {
  if (ctx.keepEmpty) ctx.keptEmpty = true
  return ctx.keepEmpty
}

export interface DecodeResult {
  /** The decoded value as Go marshals it (undefined when decoding failed). */
  readonly object?: JSONObject
  /** The decode error (the text after `cannot be handled as a <Kind>: `). */
  readonly error?: string
  /** Unknown field paths (`spec.replica`), in the decoder's order. */
  readonly unknownFields: readonly string[]
  /** Whether keepEmpty kept a given empty list or map that omitempty drops (omitEmptyCollections undoes it). */
  readonly keptEmpty?: boolean
}

/**
 * Decodes `input` into the struct `id` as the apiserver's strict JSON decoder does; `hidden`: the
 * fields the target release does not have (release-fields.ts fieldsNotInRelease).
 */
export function decodeStruct(
  id: string,
  input: unknown,
  trackUnknown = true,
  hidden?: ReadonlyMap<string, ReadonlySet<string>>,
  keepEmpty = false,
): DecodeResult {
  const ctx = new DecodeContext(trackUnknown, hidden, keepEmpty)
  const object = decoderOf(id)(input, ctx)
  const error = ctx.aborted ?? ctx.saved
  if (error !== undefined) return { error: error.message, unknownFields: [] }
  return {
    object: object as JSONObject,
    unknownFields: ctx.strict ?? [],
    ...(ctx.keptEmpty ? { keptEmpty: true } : {}),
  }
}

/**
 * The decoded value of node `t` as Go marshals it, in place: the empty omitempty lists and maps keepEmpty
 * kept (or defaulting left) are dropped, as encoding/json and the unstructured converter drop them. With
 * `nilEmpty` (the object read back from storage: protobuf has no empty-but-set list or map, so every empty
 * slice and map decodes nil), the other fields' empty lists and maps become null too.
 */
export function omitEmptyCollections(t: TypeNode, v: unknown, nilEmpty = false): void {
  if (typeof v !== 'object' || v === null) return
  if (typeof t === 'string') {
    if (Array.isArray(v)) return
    const o = v as JSONObject
    for (const [name, ft, flags] of structInfo(t).fields) {
      if (!Object.hasOwn(o, name)) continue
      const fv = o[name]
      if (isEmptyCollection(ft, fv) && omitEmpty(ft, fv)) {
        // omitzero drops a nil one
        if (flags & 1 || (nilEmpty && flags & 2)) delete o[name]
        else if (nilEmpty) o[name] = null
      } else omitEmptyCollections(ft, fv, nilEmpty)
    }
    return
  }
  switch (t[0]) {
    case 'p':
      omitEmptyCollections(t[1], v, nilEmpty)
      return
    case 'l':
      if (Array.isArray(v)) for (const e of v) omitEmptyCollections(t[2], e, nilEmpty)
      return
    case 'm':
      if (!Array.isArray(v)) for (const e of Object.values(v)) omitEmptyCollections(t[3], e, nilEmpty)
      return
    default:
      return
  }
}

/**
 * Unknown field paths in the order the apiserver meets them in what kubectl sends: kubectl marshals the object
 * from a map (encoding/json sorts map keys), so the decoder walks each object's keys in byte order and a list's
 * items in index order; the paths compare segment by segment (names by bytes, indexes as numbers).
 */
export function inKubectlOrder(paths: readonly string[]): string[] {
  const segments = (p: string) => p.split(/\.|(?=\[)/).map((s) => (/^\[\d+\]$/.test(s) ? Number(s.slice(1, -1)) : s))
  return [...paths].sort((a, b) => kubectlOrder(segments(a), segments(b)))
}

/** Two field paths (keys and list indexes) in the order the apiserver's decoder meets them (inKubectlOrder). */
function kubectlOrder(x: readonly (string | number)[], y: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const u = x[i] as string | number
    const v = y[i] as string | number
    if (u === v) continue
    if (typeof u === 'number' && typeof v === 'number') return u - v
    return compareStrings(String(u), String(v)) < 0 ? -1 : 1
  }
  return x.length - y.length
}
