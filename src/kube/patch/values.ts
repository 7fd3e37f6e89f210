import { own, setOwn } from '../own-keys.js'
import { deepCopy, isObject, kindOf } from '../values/json.js'

// Go's view of unstructured JSON values (map[string]interface{}, []interface{}, string, int64,
// float64, bool, nil) as the patch code of apimachinery relies on it: the `%v` text its sorts and
// merge-key matches compare (fmt), interface `==` (scalars only: Go panics on maps and slices), and
// maps that hold any key (`__proto__` included) built with own-property writes.

export type JSONMap = Record<string, unknown>

export { kindOf }

export const isMap: (v: unknown) => v is JSONMap = isObject

/** `m[k]` of a Go map: own properties only. */
export const get = (m: JSONMap, k: string): unknown => own(m, k)

/** `_, ok := m[k]`. */
export const has = (m: JSONMap, k: string): boolean => Object.hasOwn(m, k)

/** `m[k] = v`, a data property also for `__proto__`. */
export const set: (m: JSONMap, k: string, v: unknown) => void = setOwn

/** `delete(m, k)` (an own `__proto__` is removed as a data property; the prototype is untouched). */
export function del(m: JSONMap, k: string): void {
  if (Object.hasOwn(m, k)) delete m[k]
}

/** A map with the given entries, each written as an own data property. */
export function mapOf(...entries: (readonly [string, unknown])[]): JSONMap {
  const m: JSONMap = {}
  for (const [k, v] of entries) set(m, k, v)
  return m
}

/** Go's string order: UTF-8 bytes, i.e. code points (JS compares UTF-16 units). */
export function compareGo(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // a surrogate (U+D800–DFFF) encodes a code point above U+FFFF: it sorts after U+E000–FFFF
    const sx = x >= 0xd800 && x <= 0xdfff
    const sy = y >= 0xd800 && y <= 0xdfff
    if (sx !== sy) return sx ? 1 : -1
    return x - y
  }
  return a.length - b.length
}

/** fmt's `%v` of a float64: strconv 'g' with the shortest digits, the exponent form below 1e-4 and from 1e+06. */
function formatFloatV(f: number): string {
  if (Number.isNaN(f)) return 'NaN'
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf'
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  const e = f.toExponential() // shortest digits that round-trip, as strconv's shortest
  const [mant, ex] = e.split('e') as [string, string]
  const exp = Number(ex)
  if (exp < -4 || exp >= 6) {
    const a = Math.abs(exp)
    return `${mant}e${exp < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`
  }
  return String(f)
}

/** `fmt.Sprintf("%v", v)` of an unstructured value (maps print their keys sorted). */
export function goV(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>'
    case 'string':
      return v as string
    case 'bool':
      return String(v)
    case 'int64':
      return typeof v === 'bigint' ? v.toString() : (v as number).toFixed(0)
    case 'float64':
      return formatFloatV(v as number)
    case 'slice':
      return `[${(v as unknown[]).map(goV).join(' ')}]`
    default: {
      const m = v as JSONMap
      const keys = Object.keys(m).sort(compareGo)
      return `map[${keys.map((k) => `${k}:${goV(m[k])}`).join(' ')}]`
    }
  }
}

/** The Go type name reflect.TypeOf prints for a value (error messages). */
export function goTypeName(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>'
    case 'slice':
      return '[]interface {}'
    case 'map':
      return 'map[string]interface {}'
    default:
      return kindOf(v)
  }
}

/** Interface `==`: equal dynamic type and value; Go panics comparing two maps or two slices. */
export function goEqual(a: unknown, b: unknown): boolean {
  const ka = kindOf(a)
  if (ka !== kindOf(b)) return false
  switch (ka) {
    case 'map':
    case 'slice':
      throw new Error(`runtime error: comparing uncomparable type ${goTypeName(a)}`)
    case 'int64':
      return typeof a === typeof b ? a === b : BigInt(a as number | bigint) === BigInt(b as number | bigint)
    default:
      return a === b
  }
}

/** A key for a scalar in a JS Map, equal exactly when goEqual is (Go's map[interface{}] hashing). */
export function scalarKey(v: unknown): string {
  const k = kindOf(v)
  if (k === 'map' || k === 'slice') throw new Error(`runtime error: hash of unhashable type ${goTypeName(v)}`)
  if (k === 'int64') return `i${typeof v === 'bigint' ? v.toString() : (v as number).toFixed(0)}`
  if (k === 'float64') return `f${String(v)}`
  return `${k[0]}${String(v)}`
}

/** Deep copy (json.Unmarshal makes fresh values per call; the algorithms then mutate their copies). */
export const copyValue: <T>(v: T) => T = deepCopy
