import { ErrorValue } from '../common/errors.js'
import { CelMap, type CelValue, Double, isPlainMap, type MapKey, MapValue, type PlainMap, Uint } from './values.js'

// Map access with cel-go's key semantics (common/types/map.go, Find): a string key finds only a
// string entry; int, uint and integral double keys find numerically equal int or uint entries
// (doubleToInt64Lossless / doubleToUint64Lossless); any other key finds nothing.

export type CelMapValue = PlainMap | CelMap | MapValue

/** True for every map representation (plain object with string keys, CelMap, MapValue). */
export function isMap(v: CelValue): v is CelMapValue {
  return v instanceof CelMap || isPlainMap(v) || v instanceof MapValue
}

/**
 * The normalised CelMap key a look-up key denotes, or undefined when it can find no entry.
 * Ints and uints share one key space: safe values as numbers, the rest as bigints.
 */
export function lookupKey(k: CelValue): MapKey | undefined {
  switch (typeof k) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return k
    case 'number':
      return Number.isSafeInteger(k) ? k : doubleKey(k)
    case 'object':
      if (k instanceof Uint) return uintKey(k.value)
      if (k instanceof Double) return k.value + 0
      return undefined
  }
  return undefined
}

const TWO_63 = 2 ** 63
const TWO_64 = 2 ** 64

function uintKey(v: bigint): MapKey {
  return v <= 9007199254740991n ? Number(v) : v
}

/** A non-safe double finds an entry only when it is an exact int64 or uint64 (cel-go's lossless checks). */
function doubleKey(d: number): MapKey | undefined {
  if (!Number.isInteger(d) || !(d > -TWO_63 && d < TWO_64)) return undefined
  return BigInt(d)
}

/** The value at `key`, or undefined when the map has no such entry. */
export function mapGet(m: CelMapValue, key: CelValue): CelValue | undefined {
  if (m instanceof CelMap) {
    const k = lookupKey(key)
    return k === undefined ? undefined : m.entries.get(k)?.[1]
  }
  if (m instanceof MapValue) return m.find(key)
  if (typeof key !== 'string' || !Object.hasOwn(m, key)) return undefined
  return m[key]
}

export function mapHas(m: CelMapValue, key: CelValue): boolean {
  return mapGet(m, key) !== undefined
}

export function mapSize(m: CelMapValue): number {
  return m instanceof CelMap || m instanceof MapValue ? m.size : Object.keys(m).length
}

/**
 * The keys in iteration order: insertion order for CelMap; for plain objects JS property order
 * (integer-like string keys first). Kubernetes iterates Go maps in random order, so no CEL result
 * may depend on it anyway (spec §B.12).
 */
export function mapKeys(m: CelMapValue): CelValue[] {
  if (m instanceof MapValue) return m.keys()
  if (!(m instanceof CelMap)) return Object.keys(m)
  const keys: CelValue[] = new Array(m.entries.size)
  let i = 0
  for (const e of m.entries.values()) keys[i++] = e[0]
  return keys
}

/** [key, value] pairs in the order of mapKeys. */
export function mapEntries(m: CelMapValue): [CelValue, CelValue][] {
  if (m instanceof MapValue) return m.keys().map((k) => [k, m.find(k) as CelValue])
  if (!(m instanceof CelMap)) return Object.entries(m)
  const out: [CelValue, CelValue][] = new Array(m.entries.size)
  let i = 0
  for (const e of m.entries.values()) out[i++] = [e[0], e[1]]
  return out
}

/**
 * The normalised key of a map literal entry. CEL map keys are int, uint, bool or string
 * (cel-spec langdef "Maps"). cel-go v0.26 itself accepts any hashable key (its conformance run
 * skips fields/qualified_identifier_resolution/map_key_float and map_key_null); a double or null
 * key has no place in this value model, so it is the error cel-spec prescribes.
 */
export function literalKey(k: CelValue): MapKey {
  switch (typeof k) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return k
    case 'number':
      if (Number.isSafeInteger(k)) return k
      break
    case 'object':
      if (k instanceof Uint) return uintKey(k.value)
      break
  }
  throw new ErrorValue('unsupported key type')
}

/**
 * Builds the value of a map literal from its evaluated keys and values: a null-prototype object
 * when every key is a string (the JSON-like representation), else a CelMap. A repeated key
 * overwrites the earlier value, as cel-go's Go-map literal does (it skips cel-spec's
 * map_value_repeat_key tests). Numerically equal int and uint keys are one key here (cel-go keeps
 * both entries of `{0: 1, 0u: 2}`; the type checker rejects such literals unless written with dyn).
 */
export function buildMap(keys: readonly CelValue[], values: readonly CelValue[]): CelMapValue {
  const n = keys.length
  let allStrings = true
  for (let i = 0; i < n; i++) {
    if (typeof keys[i] !== 'string') {
      allStrings = false
      break
    }
  }
  if (allStrings) {
    const o: { [key: string]: CelValue } = Object.create(null)
    for (let i = 0; i < n; i++) o[keys[i] as string] = values[i] as CelValue
    return o
  }
  const entries = new Map<MapKey, [CelValue, CelValue]>()
  for (let i = 0; i < n; i++) {
    const k = keys[i] as CelValue
    entries.set(literalKey(k), [k, values[i] as CelValue])
  }
  return new CelMap(entries)
}
