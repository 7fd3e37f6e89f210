import { goQuote } from '../../cel/ext/quote.js'
import { isObject, type JSONObject } from '../values/json.js'
import { deepEqualJSON } from './deep-equal.js'
import { additionalPropertiesSchema, type JSONSchemaProps } from './structural.js'

// Correlating a new value with its old value (apiserver pkg/cel/common/maplist.go and
// equality.go): object properties and map entries by key; list items only in map lists, by their
// key properties. Transition rules see the correlated old value as oldSelf, and ratcheting lets an
// unchanged (deep-equal) value keep failing a rule it already failed.

/**
 * A key tuple as the apiserver builds it (maplist.go): one key is the scalar itself (singleKeyStrategy,
 * a Go map key: equal values of the same type match); several are joined with NUL, each printed with
 * `%t` / `%d` / `%f` / `%q` (multiKeyStrategy), so two floats that agree to six decimals match.
 */
function compositeKey(obj: JSONObject, keys: readonly string[]): string | undefined {
  const single = keys.length === 1
  let out = ''
  for (const k of keys) {
    if (!Object.hasOwn(obj, k)) return undefined
    const v = obj[k]
    switch (typeof v) {
      case 'boolean':
        out += `\0b${v}`
        break
      case 'number':
        out += Number.isInteger(v) ? `\0i${v}` : `\0f${single ? String(v) : goFixed6(v)}`
        break
      case 'bigint':
        out += `\0i${v}`
        break
      case 'string':
        out += `\0s${single ? v : goQuote(v)}`
        break
      default:
        return undefined // keys must be scalars
    }
  }
  return out
}

/** Go `fmt.Sprintf("%f", x)` of a finite double: the exact value rounded half to even at six decimals. */
function goFixed6(x: number): string {
  // x = m / 2^k exactly (doubling is exact for the magnitudes a non-integral double can have)
  let m = Math.abs(x)
  let k = 0
  while (!Number.isInteger(m)) {
    m *= 2
    k++
  }
  const den = 1n << BigInt(k)
  const scaled = BigInt(m) * 1_000_000n
  let q = scaled / den
  const twiceRem = (scaled % den) * 2n
  if (twiceRem > den || (twiceRem === den && q % 2n === 1n)) q++
  const digits = q.toString().padStart(7, '0')
  return `${x < 0 ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`
}

/** MapList: finds the old item of a map list with the same key tuple as a new item (first wins). */
export class MapList {
  private readonly keyed = new Map<string, unknown>()
  private next = 0

  private constructor(
    private readonly keys: readonly string[],
    private readonly items: readonly unknown[],
  ) {}

  /** MakeMapList: undefined unless the schema is a map list with keys and there are items. */
  static make(schema: JSONSchemaProps | undefined, items: readonly unknown[] | undefined): MapList | undefined {
    const keys = schema?.['x-kubernetes-list-map-keys'] ?? []
    if (schema?.type !== 'array' || schema['x-kubernetes-list-type'] !== 'map' || keys.length === 0) return undefined
    if (items === undefined || items.length === 0) return undefined
    return new MapList(keys, items)
  }

  get(obj: unknown): unknown {
    if (!isObject(obj)) return undefined
    const key = compositeKey(obj, this.keys)
    if (key === undefined) return undefined
    const hit = this.keyed.get(key)
    if (hit !== undefined) return hit
    while (this.next < this.items.length) {
      const item = this.items[this.next++]
      if (!isObject(item)) continue
      const k = compositeKey(item, this.keys)
      if (k === undefined) continue
      if (!this.keyed.has(k)) this.keyed.set(k, item)
      if (k === key) return item
    }
    return undefined
  }
}

/**
 * What ratcheting needs of a correlation: the structural schema validation and the CEL validator
 * share one per update, as the apiserver's strategy does.
 */
export interface Correlation {
  readonly value: unknown
  cachedDeepEqual(): boolean
  key(field: string): Correlation | undefined
  index(i: number): Correlation | undefined
}

/**
 * CorrelatedObject: a new value, its correlated old value and their schema, with a cached
 * deep-equality answer. Children are correlated on demand (`key`, `index`); undefined means no
 * old value correlates.
 */
export class CorrelatedObject implements Correlation {
  private result: boolean | undefined
  private mapList: MapList | undefined | null
  private children: Map<string | number, CorrelatedObject | undefined> | undefined

  constructor(
    readonly value: unknown,
    readonly oldValue: unknown,
    readonly schema: JSONSchemaProps | undefined,
  ) {}

  /** CachedDeepEqual: whether the value is unchanged, comparing map lists by key. */
  cachedDeepEqual(): boolean {
    if (this.result === undefined) this.result = this.deepEqual()
    return this.result
  }

  private deepEqual(): boolean {
    const v = this.value
    const o = this.oldValue
    if ((v === null || v === undefined) && (o === null || o === undefined)) return true
    if (v === null || v === undefined || o === null || o === undefined) return false
    if (Array.isArray(v) !== Array.isArray(o) || isObject(v) !== isObject(o)) return false
    if (Array.isArray(v) && Array.isArray(o)) {
      if (v.length !== o.length) return false
      for (let i = 0; i < v.length; i++) {
        const child = this.index(i)
        // without correlation: set and atomic lists compare whole; a map list item with no old match is a change
        if (child === undefined) return this.mapList === undefined ? deepEqualJSON(o, v) : false
        if (!child.cachedDeepEqual()) return false
      }
      return true
    }
    if (isObject(v) && isObject(o)) {
      if (Object.keys(v).length !== Object.keys(o).length) return false
      for (const k of Object.keys(v)) {
        const child = this.key(k)
        if (child === undefined || !child.cachedDeepEqual()) return false
      }
      return true
    }
    return deepEqualJSON(o, v)
  }

  /** The correlated child for an object property or map entry. */
  key(field: string): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined
    const cached = this.children?.get(field)
    if (cached !== undefined || this.children?.has(field)) return cached
    let res: CorrelatedObject | undefined
    const v = this.value
    const o = this.oldValue
    if (isObject(v) && isObject(o) && Object.hasOwn(v, field) && Object.hasOwn(o, field)) {
      const props = this.schema.properties
      const ps =
        (props !== undefined && Object.hasOwn(props, field) ? props[field] : undefined) ??
        additionalPropertiesSchema(this.schema)
      if (ps !== undefined) res = new CorrelatedObject(v[field], o[field], ps)
    }
    this.children ??= new Map()
    this.children.set(field, res)
    return res
  }

  /** The correlated child for a list item (map lists only: the old item with the same keys). */
  index(i: number): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined
    const cached = this.children?.get(i)
    if (cached !== undefined || this.children?.has(i)) return cached
    let res: CorrelatedObject | undefined
    const v = this.value
    const o = this.oldValue
    if (Array.isArray(v) && Array.isArray(o) && i < v.length && this.schema['x-kubernetes-list-type'] === 'map') {
      if (this.mapList === undefined) this.mapList = MapList.make(this.schema, o) ?? null
      const old = this.mapList?.get(v[i])
      if (old !== undefined && this.schema.items !== undefined) res = new CorrelatedObject(v[i], old, this.schema.items)
    }
    this.children ??= new Map()
    this.children.set(i, res)
    return res
  }
}
