import { additionalPropertiesSchema, itemsSchema, type JSONSchemaProps, propertySchema } from './schema.js'
import { deepEqual, hasKey, isObject, kindOf } from './values.js'

// apiserver pkg/cel/common/equality.go CorrelatedObject and maplist.go MapList: the old value that
// corresponds to a node of the new object, and a cached deep-equality of the two. Object properties
// and map entries correlate by key; array items only in `x-kubernetes-list-type: map` lists (by the
// list-map keys, first old item with the key wins); items of sets and atomic lists have no old value.
// The strategy builds one per update over the structural schema; schema ratcheting and CEL share it.

/** MapList key: a scalar's identity (singleKeyStrategy) or the `\0`-joined `%t/%f/%d/%q` texts. */
function compositeKeyFor(keys: readonly string[], obj: Record<string, unknown>): string | undefined {
  if (keys.length === 1) {
    const k = keys[0] as string
    if (!hasKey(obj, k)) return undefined
    const v = obj[k]
    const kind = kindOf(v)
    // map[interface{}] keys: the Go type is part of the identity
    if (kind === 'bool' || kind === 'float64' || kind === 'int64' || kind === 'string') return `${kind}:${String(v)}`
    return undefined
  }
  let out = ''
  for (const k of keys) {
    if (!hasKey(obj, k)) return undefined
    const v = obj[k]
    switch (kindOf(v)) {
      case 'bool':
        out += `\0${v}`
        break
      case 'float64':
        out += `\0${(v as number).toFixed(6)}`
        break
      case 'int64':
        out += `\0${String(v)}`
        break
      case 'string':
        out += `\0${JSON.stringify(v)}`
        break
      default:
        return undefined
    }
  }
  return out
}

/** mapListImpl: lazily indexes the old items by key. */
class MapList {
  private readonly keyed = new Map<string, Record<string, unknown>>()
  private next = 0

  constructor(
    private readonly keys: readonly string[],
    private readonly items: readonly unknown[],
  ) {}

  get(obj: unknown): unknown {
    if (!isObject(obj)) return undefined
    const key = compositeKeyFor(this.keys, obj)
    if (key === undefined) return undefined
    const match = this.keyed.get(key)
    if (match !== undefined) return match
    while (this.next < this.items.length) {
      const item = this.items[this.next++]
      if (!isObject(item)) continue
      const itemKey = compositeKeyFor(this.keys, item)
      if (itemKey === undefined) continue
      if (!this.keyed.has(itemKey)) this.keyed.set(itemKey, item)
      if (itemKey === key) return item
    }
    return undefined
  }
}

/** MakeMapList: an empty list unless the schema is a keyed map list and there are old items. */
function makeMapList(schema: JSONSchemaProps, items: readonly unknown[]): MapList | undefined {
  const keys = schema['x-kubernetes-list-map-keys'] ?? []
  if (
    schema.type !== 'array' ||
    schema['x-kubernetes-list-type'] !== 'map' ||
    keys.length === 0 ||
    items.length === 0
  ) {
    return undefined
  }
  return new MapList(keys, items)
}

/**
 * What ratcheting needs of a correlation; CorrelatedObject implements it, and so can the one the
 * CEL validator uses, so both share one per request as the strategy does.
 */
export interface Correlation {
  readonly value: unknown
  cachedDeepEqual(): boolean
  key(field: string): Correlation | undefined
  index(i: number): Correlation | undefined
}

export class CorrelatedObject implements Correlation {
  private comparison: boolean | undefined
  /** Set once an index was correlated in a map list (Go's non-nil mapList, empty ones included). */
  private mapList: MapList | undefined | null = null
  private readonly byKey = new Map<string, CorrelatedObject>()
  private readonly byIndex = new Map<number, CorrelatedObject>()

  constructor(
    readonly value: unknown,
    readonly oldValue: unknown,
    readonly schema: JSONSchemaProps | undefined,
  ) {}

  private correlateOldValueForChildAtNewIndex(index: number): unknown {
    if (!Array.isArray(this.oldValue) || !Array.isArray(this.value) || this.value.length <= index) return undefined
    if (this.schema?.['x-kubernetes-list-type'] !== 'map') return undefined
    if (this.mapList === null) this.mapList = makeMapList(this.schema, this.oldValue)
    return this.mapList?.get(this.value[index])
  }

  /** CachedDeepEqual: unchanged from the old value (map lists compared item by item through their keys). */
  cachedDeepEqual(): boolean {
    if (this.comparison === undefined) this.comparison = this.computeDeepEqual()
    return this.comparison
  }

  private computeDeepEqual(): boolean {
    const nv = this.value ?? null
    const ov = this.oldValue ?? null
    if (nv === null && ov === null) return true
    if (nv === null || ov === null) return false
    const oldIsArray = Array.isArray(ov)
    const oldIsMap = isObject(ov)
    if (oldIsArray !== Array.isArray(nv) || oldIsMap !== isObject(nv)) return false
    if (oldIsArray) {
      const o = ov as unknown[]
      const n = nv as unknown[]
      if (o.length !== n.length) return false
      for (let i = 0; i < n.length; i++) {
        const child = this.index(i)
        if (child === undefined) return this.mapList === null ? deepEqual(o, n) : false
        if (!child.cachedDeepEqual()) return false
      }
      return true
    }
    if (oldIsMap) {
      const o = ov as Record<string, unknown>
      const n = nv as Record<string, unknown>
      const keys = Object.keys(n)
      if (Object.keys(o).length !== keys.length) return false
      for (const k of keys) {
        const child = this.key(k)
        if (child === undefined || !child.cachedDeepEqual()) return false
      }
      return true
    }
    return deepEqual(ov, nv)
  }

  /** Key: the correlated property or map entry, when both sides have it and the schema describes it. */
  key(field: string): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined
    const existing = this.byKey.get(field)
    if (existing !== undefined) return existing
    if (!isObject(this.oldValue) || !isObject(this.value)) return undefined
    if (!hasKey(this.oldValue, field) || !hasKey(this.value, field)) return undefined
    const s = propertySchema(this.schema, field) ?? additionalPropertiesSchema(this.schema)
    if (s === undefined) return undefined
    const res = new CorrelatedObject(this.value[field], this.oldValue[field], s)
    this.byKey.set(field, res)
    return res
  }

  /** Index: the correlated item of a map list. */
  index(i: number): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined
    const existing = this.byIndex.get(i)
    if (existing !== undefined) return existing
    if (!Array.isArray(this.value) || this.value.length <= i) return undefined
    const old = this.correlateOldValueForChildAtNewIndex(i)
    if (old === undefined || old === null) return undefined
    const items = itemsSchema(this.schema)
    if (items === undefined) return undefined
    const res = new CorrelatedObject(this.value[i], old, items)
    this.byIndex.set(i, res)
    return res
  }
}
