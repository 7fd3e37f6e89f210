import { ErrorValue } from '../../cel/common/errors.js'
import { Duration, formatTimestamp, Timestamp } from '../../cel/values/time.js'
import { type CelValue, Double, ListValue, MapValue, Optional, Uint } from '../../cel/values/values.js'
import { setOwn } from '../../kube/own-keys.js'
import { mutationTypeName } from '../cel/mutation-types.js'

// RFC 6902 JSON Patch as the apiserver applies a mutating admission policy's patch
// (gopkg.in/evanphx/json-patch.v4 Patch.Apply, which mutating/patch/json_patch.go calls): the
// operations in order on one document, each failure a Go error whose text is v4's (pkg/errors
// `Wrapf` chains, `msg: cause`). Negative array indices are supported (SupportNegativeIndices, true by
// default in v4); a failed `test` is ErrTestFailed, which json_patch.go turns into "no change".

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue }

/** One operation as json_patch.go builds it from a JSONPatch value (`from` only when non-empty). */
export interface PatchOperation {
  readonly op: string
  readonly path: string
  readonly from?: string
  /** undefined: the operation has no `value` (JSONPatchVal.Val nil). */
  readonly value?: JSONValue
}

/** A Go error of the patch library: `testFailed` marks ErrTestFailed in its chain. */
export class PatchError extends Error {
  constructor(
    message: string,
    readonly testFailed = false,
  ) {
    super(message)
  }
}

const ErrMissing = 'missing value'
const ErrInvalidIndex = 'invalid index referenced'
const ErrTestFailed = 'test failed'

type Container = { kind: 'doc'; value: { [key: string]: JSONValue } } | { kind: 'ary'; value: JSONValue[] }

/** decodePatchKey: `~1` → `/`, `~0` → `~` (strings.Replace in that order). */
function decodePatchKey(k: string): string {
  return k.replaceAll('~1', '/').replaceAll('~0', '~')
}

/** strconv.Atoi: a decimal int (optional sign), else its NumError. */
function atoi(s: string): number {
  if (/^[+-]?\d+$/.test(s)) {
    const n = Number(s)
    if (Number.isSafeInteger(n)) return n
    throw new PatchError(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`)
  }
  throw new PatchError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`)
}

const isDoc = (v: JSONValue | undefined): v is { [key: string]: JSONValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** container.get: a doc answers undefined for a missing key (no error); an array checks its index. */
function get(c: Container, key: string): JSONValue | undefined {
  if (c.kind === 'doc') return Object.hasOwn(c.value, key) ? c.value[key] : undefined
  let idx = atoi(key)
  if (idx < 0) {
    if (idx < -c.value.length) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
    idx += c.value.length
  }
  if (idx >= c.value.length) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
  return c.value[idx]
}

function add(c: Container, key: string, v: JSONValue): void {
  if (c.kind === 'doc') {
    setOwn(c.value, key, v)
    return
  }
  if (key === '-') {
    c.value.push(v)
    return
  }
  let idx: number
  try {
    idx = atoi(key)
  } catch (e) {
    throw new PatchError(`value was not a proper array index: '${key}': ${(e as Error).message}`)
  }
  const size = c.value.length + 1
  if (idx >= size) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
  if (idx < 0) {
    if (idx < -size) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
    idx += size
  }
  c.value.splice(idx, 0, v)
}

function set(c: Container, key: string, v: JSONValue): void {
  if (c.kind === 'doc') {
    setOwn(c.value, key, v)
    return
  }
  let idx = atoi(key)
  if (idx < 0) {
    if (idx < -c.value.length) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
    idx += c.value.length
  }
  c.value[idx] = v
}

function remove(c: Container, key: string): void {
  if (c.kind === 'doc') {
    if (!Object.hasOwn(c.value, key)) throw new PatchError(`Unable to remove nonexistent key: ${key}: ${ErrMissing}`)
    delete c.value[key]
    return
  }
  let idx = atoi(key)
  if (idx >= c.value.length) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
  if (idx < 0) {
    if (idx < -c.value.length) throw new PatchError(`Unable to access invalid index: ${idx}: ${ErrInvalidIndex}`)
    idx += c.value.length
  }
  c.value.splice(idx, 1)
}

/** findObject: the container of the path's last segment and that segment decoded, or undefined. */
function findObject(root: Container, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/')
  if (split.length < 2) return undefined
  let doc: Container = root
  for (const part of split.slice(1, -1)) {
    let next: JSONValue | undefined
    try {
      next = get(doc, decodePatchKey(part))
    } catch {
      return undefined
    }
    if (next === undefined) return undefined
    if (Array.isArray(next)) doc = { kind: 'ary', value: next }
    else if (isDoc(next)) doc = { kind: 'doc', value: next }
    else if (next === null) return undefined
    else return undefined
  }
  return { con: doc, key: decodePatchKey(split[split.length - 1] as string) }
}

/** A deep copy of a JSON value (plain objects, arrays, scalars: several times faster than structuredClone). */
function clone(v: JSONValue): JSONValue {
  if (typeof v !== 'object' || v === null) return v
  if (Array.isArray(v)) {
    const out = new Array<JSONValue>(v.length)
    for (let i = 0; i < v.length; i++) out[i] = clone(v[i] as JSONValue)
    return out
  }
  const out: { [key: string]: JSONValue } = {}
  for (const k in v) if (Object.hasOwn(v, k)) setOwn(out, k, clone((v as { [key: string]: JSONValue })[k] as JSONValue))
  return out
}

/** lazyNode.equal: JSON equality (numbers by value, objects by keys). */
function jsonEqual(a: JSONValue, b: JSONValue): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as JSONValue[]
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i] as JSONValue))
  }
  const ak = Object.keys(a)
  const bo = b as { [key: string]: JSONValue }
  if (ak.length !== Object.keys(bo).length) return false
  return ak.every(
    (k) => Object.hasOwn(bo, k) && jsonEqual((a as { [key: string]: JSONValue })[k] as JSONValue, bo[k] as JSONValue),
  )
}

/** Go's %v of a container's error chain part: the cause's text. */
const cause = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** Patch.Apply on `doc` (not modified): the patched document, or a PatchError. */
export function applyPatch(doc: JSONValue, ops: readonly PatchOperation[]): JSONValue {
  const rootValue = clone(doc)
  const root: Container = Array.isArray(rootValue)
    ? { kind: 'ary', value: rootValue }
    : { kind: 'doc', value: (isDoc(rootValue) ? rootValue : {}) as { [key: string]: JSONValue } }
  for (const op of ops) {
    const value = op.value === undefined ? null : op.value
    switch (op.op) {
      case 'add': {
        const f = findObject(root, op.path)
        if (f === undefined)
          throw new PatchError(`add operation does not apply: doc is missing path: "${op.path}": ${ErrMissing}`)
        try {
          add(f.con, f.key, clone(value))
        } catch (e) {
          throw new PatchError(`error in add for path: '${op.path}': ${cause(e)}`)
        }
        break
      }
      case 'remove': {
        const f = findObject(root, op.path)
        if (f === undefined)
          throw new PatchError(`remove operation does not apply: doc is missing path: "${op.path}": ${ErrMissing}`)
        try {
          remove(f.con, f.key)
        } catch (e) {
          throw new PatchError(`error in remove for path: '${op.path}': ${cause(e)}`)
        }
        break
      }
      case 'replace': {
        const f = findObject(root, op.path)
        if (f === undefined)
          throw new PatchError(`replace operation does not apply: doc is missing path: ${op.path}: ${ErrMissing}`)
        let missing = false
        try {
          get(f.con, f.key)
        } catch {
          missing = true
        }
        if (missing)
          throw new PatchError(`replace operation does not apply: doc is missing key: ${op.path}: ${ErrMissing}`)
        try {
          set(f.con, f.key, clone(value))
        } catch (e) {
          throw new PatchError(`error in remove for path: '${op.path}': ${cause(e)}`)
        }
        break
      }
      case 'move': {
        const from = op.from ?? ''
        const f = findObject(root, from)
        if (f === undefined)
          throw new PatchError(`move operation does not apply: doc is missing from path: ${from}: ${ErrMissing}`)
        let v: JSONValue | undefined
        try {
          v = get(f.con, f.key)
        } catch (e) {
          throw new PatchError(`error in move for path: '${f.key}': ${cause(e)}`)
        }
        try {
          remove(f.con, f.key)
        } catch (e) {
          throw new PatchError(`error in move for path: '${f.key}': ${cause(e)}`)
        }
        const t = findObject(root, op.path)
        if (t === undefined)
          throw new PatchError(
            `move operation does not apply: doc is missing destination path: ${op.path}: ${ErrMissing}`,
          )
        try {
          add(t.con, t.key, v === undefined ? null : v)
        } catch (e) {
          throw new PatchError(`error in move for path: '${t.key}': ${cause(e)}`)
        }
        break
      }
      case 'copy': {
        const from = op.from ?? ''
        const f = findObject(root, from)
        if (f === undefined)
          throw new PatchError(`copy operation does not apply: doc is missing from path: ${from}: ${ErrMissing}`)
        let v: JSONValue | undefined
        try {
          v = get(f.con, f.key)
        } catch (e) {
          throw new PatchError(`error in copy for from: '${from}': ${cause(e)}`)
        }
        const t = findObject(root, op.path)
        if (t === undefined)
          throw new PatchError(
            `copy operation does not apply: doc is missing destination path: ${op.path}: ${ErrMissing}`,
          )
        try {
          add(t.con, t.key, clone(v === undefined ? null : v))
        } catch (e) {
          throw new PatchError(`error in copy for path: '${op.path}': ${cause(e)}`)
        }
        break
      }
      case 'test': {
        const f = findObject(root, op.path)
        if (f === undefined)
          throw new PatchError(`test operation does not apply: is missing path: ${op.path}: ${ErrMissing}`)
        let v: JSONValue | undefined
        try {
          v = get(f.con, f.key)
        } catch (e) {
          if (!cause(e).endsWith(ErrMissing)) throw new PatchError(`error in test for path: '${op.path}': ${cause(e)}`)
        }
        if (v === undefined) {
          if (op.value === undefined || op.value === null) break
          throw new PatchError(`testing value ${op.path} failed: ${ErrTestFailed}`, true)
        }
        if (op.value === undefined || !jsonEqual(v, op.value))
          throw new PatchError(`testing value ${op.path} failed: ${ErrTestFailed}`, true)
        break
      }
      default:
        throw new PatchError(`Unexpected kind: ${op.op}`)
    }
  }
  return root.kind === 'ary' ? root.value : root.value
}

const isPlainObject = (v: object) => {
  const p = Object.getPrototypeOf(v)
  return p === Object.prototype || p === null
}

/**
 * How an int or uint past ±(2^53 − 1) becomes JSON: `string` as cel-go's ConvertToNative(structpb.Value)
 * writes it (a JSONPatch value: a decimal string, the int exact), `double` as structpb.NewValue writes
 * a Go int64 (an `Object…{}` value's fields are their Value()s: a float64, rounded), `exact` as the
 * ApplyConfiguration patcher keeps it (Value(): an int64 in the unstructured patch, kept as a bigint).
 */
export type BigIntJSON = 'string' | 'double' | 'exact'

const MAX_JSON_INT = 2n ** 53n - 1n

function bigIntJSON(v: bigint, mode: BigIntJSON): JSONValue {
  if (v >= -MAX_JSON_INT && v <= MAX_JSON_INT) return Number(v)
  if (mode === 'string') return v.toString()
  if (mode === 'double') return Number(v)
  return v as unknown as JSONValue
}

/**
 * A CEL value as JSON (ConvertToNative(structpb.Value), then json.Marshal): ints and uints become
 * numbers (past 2^53 − 1 as `mode` says), timestamps RFC 3339 strings, durations `<seconds>s`, bytes
 * base64; maps need string keys. Throws an ErrorValue-free Error with cel-go's text otherwise.
 */
export function celToJSON(v: CelValue, mode: BigIntJSON = 'string'): JSONValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return bigIntJSON(v, mode)
  if (v instanceof Double) return v.value
  if (v instanceof Uint) return bigIntJSON(v.value, mode)
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64')
  if (v instanceof Timestamp) return formatTimestamp(v)
  if (v instanceof Duration) return `${Number(v.nanos) / 1e9}s`
  if (Array.isArray(v)) return (v as readonly CelValue[]).map((x) => celToJSON(x, mode))
  if (v instanceof ListValue) return [...v].map((x) => celToJSON(x, mode))
  if (v instanceof MapValue) {
    const out: { [key: string]: JSONValue } = {}
    for (const k of v.keys()) {
      if (typeof k !== 'string') throw new Error(`bad key type: ${typeof k}`)
      setOwn(out, k, celToJSON(v.find(k) as CelValue, mode))
    }
    return out
  }
  if (v instanceof Optional || v instanceof ErrorValue)
    throw new Error(
      `type conversion error from '${v instanceof Optional ? 'optional_type' : 'error'}' to 'google.protobuf.Value'`,
    )
  if (typeof v === 'object' && isPlainObject(v)) {
    // ObjectVal.ConvertToNative(structpb.Value): structpb.NewStruct of its fields' Go values
    const inner = mode === 'string' && mutationTypeName(v) !== undefined ? 'double' : mode
    const out: { [key: string]: JSONValue } = {}
    for (const [k, x] of Object.entries(v)) setOwn(out, k, celToJSON(x as CelValue, inner))
    return out
  }
  const name = (v as { typeName?: string }).typeName ?? 'unknown'
  throw new Error(`type conversion error from '${name}' to 'google.protobuf.Value'`)
}
