import { ErrorValue } from '../../cel/common/errors.js'
import { celEquals } from '../../cel/values/equality.js'
import { isMap, mapGet } from '../../cel/values/maps.js'
import { Duration, Timestamp } from '../../cel/values/time.js'
import {
  type CelValue,
  Double,
  ListValue,
  MapValue,
  mkInt,
  OpaqueValue,
  Optional,
  Uint,
} from '../../cel/values/values.js'
import { deepEqualJSON } from './deep-equal.js'
import { escape, unescape } from './escaping.js'
import { decodeBase64URL, parseFullDate, parseStrfmtDateTime, parseStrfmtDuration } from './formats.js'
import {
  additionalPropertiesSchema,
  isEmbeddedResource,
  isIntOrString,
  type JSONSchemaProps,
  withTypeAndObjectMeta,
} from './structural.js'

// Schema-typed values (apiserver pkg/cel/common/valuesunstructured.go UnstructuredToVal): the JSON
// of a custom resource read through its structural schema, lazily and without copying. Objects are
// MapValues that look properties up by escaped name and treat JSON null as absent; numbers under
// `type: number` are doubles; formatted strings are timestamps, durations and bytes; set and map
// lists carry their own equality and concatenation.

/** A JSON value as decoded from YAML / JSON (ints may be bigints beyond 2^53). */
export type JSONValue = unknown

/**
 * What the conversion needs of one schema node, computed once per schema object. `root` marks a
 * resource root (the CR root, or an embedded resource), whose kind / apiVersion / metadata are
 * replaced by WithTypeAndObjectMeta.
 */
interface Node {
  readonly schema: JSONSchemaProps
  convert: (v: JSONValue) => CelValue
  /** Object properties by name (unescaped), for objects. */
  props?: Map<string, Node>
}

const nodes = new WeakMap<JSONSchemaProps, Node>()
const rootNodes = new WeakMap<JSONSchemaProps, Node>()

function nodeOf(s: JSONSchemaProps): Node {
  let n = nodes.get(s)
  if (n === undefined) {
    n = makeNode(s)
    nodes.set(s, n)
  }
  return n
}

/**
 * UnstructuredToVal(value, schema): the CEL value of JSON data under a schema. `isResourceRoot`
 * applies WithTypeAndObjectMeta (the CR root; embedded resources get it from their schema).
 * Conversion errors are thrown as CEL errors (cel-go returns them as error values).
 */
export function unstructuredToVal(value: JSONValue, schema: JSONSchemaProps, isResourceRoot = false): CelValue {
  if (isResourceRoot && !isIntOrString(schema)) {
    let n = rootNodes.get(schema)
    if (n === undefined) {
      n = makeNode(withTypeAndObjectMeta(schema, false))
      rootNodes.set(schema, n)
    }
    return n.convert(value)
  }
  return nodeOf(schema).convert(value)
}

function err(message: string): never {
  throw new ErrorValue(message)
}

function goTypeName(v: JSONValue): string {
  switch (typeof v) {
    case 'string':
      return 'string'
    case 'boolean':
      return 'bool'
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64'
    case 'bigint':
      return 'int64'
    case 'object':
      return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}'
  }
  return typeof v
}

function makeNode(s: JSONSchemaProps): Node {
  const nullable = s.nullable === true
  const withNull =
    (f: (v: JSONValue) => CelValue) =>
    (v: JSONValue): CelValue => {
      if (v === null || v === undefined) {
        if (nullable) return null
        err('invalid data, got null for schema with nullable=false')
      }
      return f(v)
    }
  if (isIntOrString(s)) {
    return {
      schema: s,
      convert: withNull((v) => {
        if (typeof v === 'string') return v
        if (typeof v === 'number' && Number.isSafeInteger(v)) return v
        if (typeof v === 'bigint') return mkInt(v)
        return err('invalid data, expected XIntOrString value to be either a string or integer')
      }),
    }
  }
  const node: Node = { schema: s, convert: () => null }
  switch (s.type) {
    case 'object': {
      const embedded = isEmbeddedResource(s)
      const os = embedded ? withTypeAndObjectMeta(s, false) : s
      const ap = additionalPropertiesSchema(s)
      if (embedded || s.properties !== undefined) {
        const props = new Map<string, Node>()
        for (const [k, p] of Object.entries(os.properties ?? {})) props.set(k, nodeOf(p))
        node.props = props
        node.convert = withNull((v) => new UnstructuredObject(expectMap(v), props))
      } else if (ap !== undefined) {
        const values = nodeOf(ap)
        node.convert = withNull((v) => new UnstructuredMap(expectMap(v), values))
      } else {
        node.convert = withNull((v) => new UnstructuredMap(expectMap(v), undefined))
      }
      return node
    }
    case 'array': {
      const items = s.items
      const listType = s['x-kubernetes-list-type']
      node.convert = withNull((v) => {
        if (!Array.isArray(v)) return err('invalid data, expected an array for the provided schema with type=array')
        if (items === undefined) return err('invalid array type, expected Items with a non-empty Schema')
        const item = nodeOf(items)
        switch (listType) {
          case undefined:
          case '': // XListType() of an unset or empty x-kubernetes-list-type: both mean atomic
          case 'atomic':
            return plainList(v, item)
          case 'set':
            return SetList.make(v.map(item.convert))
          case 'map':
            return UnstructuredMapList.fromData(
              v,
              item,
              (s['x-kubernetes-list-map-keys'] ?? []).map((k) => escape(k) ?? k),
            )
        }
        return err(`invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got ${listType}`)
      })
      return node
    }
    case 'string':
      node.convert = withNull(stringConverter(s.format))
      return node
    case 'number':
      node.convert = withNull((v) => {
        if (typeof v === 'number') return Number.isSafeInteger(v) ? new Double(v) : v
        if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? new Double(Number(v)) : Number(v)
        return err(`invalid data, expected float, got ${goTypeName(v)}`)
      })
      return node
    case 'integer':
      node.convert = withNull((v) => {
        if (typeof v === 'number' && Number.isSafeInteger(v)) return v
        if (typeof v === 'bigint') return mkInt(v)
        return err(`invalid data, expected int, got ${goTypeName(v)}`)
      })
      return node
    case 'boolean':
      node.convert = withNull((v) =>
        typeof v === 'boolean' ? v : err(`invalid data, expected bool, got ${goTypeName(v)}`),
      )
      return node
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === true) {
    node.convert = withNull((v) => new UnknownPreserved(v))
    return node
  }
  node.convert = withNull(() =>
    err(
      `invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got ${s.type ?? ''}`,
    ),
  )
  return node
}

function expectMap(v: JSONValue): Record<string, JSONValue> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return err('invalid data, expected a map for the provided schema with type=object')
  return v as Record<string, JSONValue>
}

function stringConverter(format: string | undefined): (v: JSONValue) => CelValue {
  const str = (v: JSONValue): string =>
    typeof v === 'string' ? v : err(`invalid data, expected string, got ${goTypeName(v)}`)
  switch (format) {
    case 'duration':
      return (v) => {
        const s = str(v)
        const d = parseStrfmtDuration(s)
        return typeof d === 'string' ? err(`Invalid duration ${s}: ${d}`) : new Duration(d)
      }
    case 'date':
      return (v) => {
        const s = str(v)
        const t = parseFullDate(s)
        return t instanceof Timestamp ? t : err(`Invalid date formatted string ${s}: ${t}`)
      }
    case 'date-time':
      return (v) => {
        const s = str(v)
        const t = parseStrfmtDateTime(s)
        return t instanceof Timestamp ? t : err(`Invalid date-time formatted string ${s}: ${t}`)
      }
    case 'byte':
      return (v) => {
        const s = str(v)
        const b = decodeBase64URL(s)
        return typeof b === 'string' ? err(`Invalid byte formatted string ${s}: ${b}`) : b
      }
  }
  return str
}

/** Items whose JSON already is their CEL value: the raw array is used as it is (no copy). */
function plainList(v: readonly JSONValue[], item: Node): readonly CelValue[] {
  const t = item.schema.type
  const format = item.schema.format
  const plain =
    isIntOrString(item.schema) ||
    (t === 'string' && format !== 'duration' && format !== 'date' && format !== 'date-time' && format !== 'byte') ||
    t === 'boolean' ||
    t === 'integer'
  if (plain) {
    let ok = true
    for (const e of v) {
      if (t === 'string' ? typeof e !== 'string' : t === 'boolean' ? typeof e !== 'boolean' : !isPlainIntOrString(e)) {
        ok = false
        break
      }
    }
    if (ok) return v as readonly CelValue[]
  }
  return v.map(item.convert)
}

function isPlainIntOrString(e: JSONValue): boolean {
  return typeof e === 'string' || (typeof e === 'number' && Number.isSafeInteger(e))
}

/** An object with properties (or an embedded resource): escaped-name look-ups, null = absent. */
export class UnstructuredObject extends MapValue {
  constructor(
    readonly raw: Readonly<Record<string, JSONValue>>,
    private readonly props: ReadonlyMap<string, Node>,
  ) {
    super()
  }

  find(key: CelValue): CelValue | undefined {
    if (typeof key !== 'string') throw new ErrorValue('no such overload')
    const k = unescape(key)
    if (k === undefined || !Object.hasOwn(this.raw, k)) return undefined
    const v = this.raw[k]
    if (v === null || v === undefined) return undefined
    const p = this.props.get(k)
    return p === undefined ? undefined : p.convert(v)
  }

  keys(): CelValue[] {
    const out: CelValue[] = []
    for (const k of Object.keys(this.raw)) if (this.props.has(k)) out.push(escape(k) ?? k)
    return out
  }

  get size(): number {
    return Object.keys(this.raw).length
  }

  equals(other: CelValue): boolean {
    if (!isMap(other)) throw new ErrorValue('no such overload')
    if (this.size !== sizeOfMap(other)) return false
    for (const k of Object.keys(this.raw)) {
      const p = this.props.get(k)
      if (p !== undefined) {
        const ek = escape(k) ?? k
        const v = this.find(ek)
        const ov = other instanceof UnstructuredObject ? other.find(ek) : mapGet(other, ek)
        if ((v === undefined) !== (ov === undefined)) return false
        if (v === undefined) continue
        if (!celEquals(v, ov as CelValue)) return false
      } else {
        // a preserved unknown field: compared as raw data, when the other side has it
        if (!(other instanceof UnstructuredObject || other instanceof UnstructuredMap))
          throw new ErrorValue('no such overload')
        if (Object.hasOwn(other.raw, k) && !deepEqualJSON(this.raw[k], other.raw[k])) return false
      }
    }
    return true
  }
}

/** An object with additionalProperties (raw keys, nulls present), or with no schema for its keys. */
export class UnstructuredMap extends MapValue {
  constructor(
    readonly raw: Readonly<Record<string, JSONValue>>,
    private readonly values: Node | undefined,
  ) {
    super()
  }

  find(key: CelValue): CelValue | undefined {
    if (typeof key !== 'string') throw new ErrorValue('no such overload')
    if (this.values === undefined || !Object.hasOwn(this.raw, key)) return undefined
    return this.values.convert(this.raw[key])
  }

  keys(): CelValue[] {
    return this.values === undefined ? [] : Object.keys(this.raw)
  }

  get size(): number {
    return Object.keys(this.raw).length
  }

  equals(other: CelValue): boolean {
    if (!isMap(other)) throw new ErrorValue('no such overload')
    if (this.size !== sizeOfMap(other)) return false
    for (const k of Object.keys(this.raw)) {
      if (this.values !== undefined) {
        const v = this.find(k)
        const ov = mapGet(other, k)
        if ((v === undefined) !== (ov === undefined)) return false
        if (v === undefined) continue
        if (!celEquals(v, ov as CelValue)) return false
      } else {
        if (!(other instanceof UnstructuredObject || other instanceof UnstructuredMap))
          throw new ErrorValue('no such overload')
        if (Object.hasOwn(other.raw, k) && !deepEqualJSON(this.raw[k], other.raw[k])) return false
      }
    }
    return true
  }
}

function sizeOfMap(m: CelValue): number {
  if (m instanceof MapValue) return m.size
  if (typeof m === 'object' && m !== null && 'size' in m && typeof m.size === 'number') return m.size
  return Object.keys(m as object).length
}

/** A value under a schema with no type but x-kubernetes-preserve-unknown-fields: equality only. */
export class UnknownPreserved extends OpaqueValue {
  constructor(readonly raw: JSONValue) {
    super()
  }
  get typeName(): string {
    return 'unknown'
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof UnknownPreserved && deepEqualJSON(this.raw, other.raw)
  }
}

/**
 * The key of a set element (setElementKey): the raw Go value, so `1` and `1.0` differ; lists and
 * maps are rejected.
 */
function setElementKey(v: CelValue): string {
  switch (typeof v) {
    case 'string':
      return `s${v}`
    case 'boolean':
      return v ? 'b1' : 'b0'
    case 'number':
      return Number.isSafeInteger(v) ? `i${v}` : `d${v}`
    case 'bigint':
      return `i${v}`
    case 'object':
      if (v === null) return 'n'
      if (Array.isArray(v) || isMap(v))
        throw new ErrorValue('listSet operations are only supported on lists of scalar values')
      if (v instanceof Double) return `d${v.value}`
      if (v instanceof Uint) return `u${v.value}`
      if (v instanceof Timestamp) return `t${v.seconds}.${v.nanos}`
      if (v instanceof Duration) return `D${v.nanos}`
      if (v instanceof Uint8Array) return `B${Buffer.from(v).toString('hex')}`
      if (v instanceof Optional) return `o${v.value === undefined ? '' : setElementKey(v.value)}`
      if (v instanceof UnknownPreserved) return `x${JSON.stringify(v.raw)}`
      return `v${String(v)}`
  }
  return String(v)
}

/** An `x-kubernetes-list-type: set` list (unstructuredSetList / refValSetList). */
export class SetList extends ListValue {
  static make(elements: readonly CelValue[]): SetList {
    const l = new SetList()
    for (const e of elements) l.push(e)
    return l
  }

  equals(other: readonly CelValue[]): boolean {
    if (this.length !== other.length) return false
    const set = new Set<string>()
    for (const e of this) set.add(setElementKey(e))
    const seen = new Set<string>()
    for (const e of other) {
      const k = setElementKey(e)
      if (!set.has(k)) return false
      seen.add(k)
    }
    return seen.size === set.size
  }

  /** Union: this list's order, then the other's elements not yet present. */
  add(other: readonly CelValue[]): readonly CelValue[] {
    const set = new Set<string>()
    const out = new SetList()
    for (const e of this) {
      set.add(setElementKey(e))
      out.push(e)
    }
    for (const e of other) {
      const k = setElementKey(e)
      if (!set.has(k)) {
        set.add(k)
        out.push(e)
      }
    }
    return out
  }
}

/** refValMapKey: the tuple of an element's key properties (absent → null), as a JS key. */
function refValMapKey(e: CelValue, keys: readonly string[]): string {
  const parts = keys.map((k) => {
    if (!isMap(e)) return 'n'
    let v: CelValue | undefined
    try {
      v = mapGet(e, k)
    } catch (x) {
      if (x instanceof ErrorValue) return 'n'
      throw x
    }
    return v === undefined || v === null
      ? 'n'
      : Array.isArray(v) || isMap(v)
        ? `j${JSON.stringify(v)}`
        : setElementKey(v)
  })
  return JSON.stringify(parts)
}

/** The result of `+` on map lists (refValMapList): keys read through CEL look-ups. */
export class MapList extends ListValue {
  keyProps: readonly string[] = []

  static make(elements: readonly CelValue[], keyProps: readonly string[]): MapList {
    const l = new MapList()
    l.keyProps = keyProps
    for (const e of elements) l.push(e)
    return l
  }

  protected keyOf(e: CelValue): string {
    return refValMapKey(e, this.keyProps)
  }

  equals(other: readonly CelValue[]): boolean {
    if (this.length !== other.length) return false
    const byKey = new Map<string, CelValue>()
    for (const e of this) byKey.set(this.keyOf(e), e)
    const seen = new Set<string>()
    for (const v of other) {
      const k = this.keyOfOther(v)
      if (k === undefined) return false
      const e = byKey.get(k)
      if (e === undefined || !celEquals(e, v)) return false
      seen.add(k)
    }
    return seen.size === byKey.size
  }

  protected keyOfOther(v: CelValue): string | undefined {
    return refValMapKey(v, this.keyProps)
  }

  /** Merge by key: this list's positions kept (values overwritten by the other's), new keys appended. */
  add(other: readonly CelValue[]): readonly CelValue[] {
    const out = MapList.make(this, this.keyProps)
    const index = new Map<string, number>()
    out.forEach((e, i) => {
      index.set(refValMapKey(e, this.keyProps), i)
    })
    for (const v of other) {
      const k = refValMapKey(v, this.keyProps)
      const at = index.get(k)
      if (at !== undefined) out[at] = v
      else {
        index.set(k, out.length)
        out.push(v)
      }
    }
    return out
  }
}

/**
 * An `x-kubernetes-list-type: map` list read from data (unstructuredMapList): its equality keys
 * elements by the raw values of their key properties, so only elements that are themselves
 * schema-typed objects can match (a list literal never equals it, as in the apiserver).
 */
export class UnstructuredMapList extends MapList {
  static fromData(raw: readonly JSONValue[], item: Node, keyProps: readonly string[]): UnstructuredMapList {
    const l = new UnstructuredMapList()
    l.keyProps = keyProps
    for (const e of raw) l.push(item.convert(e))
    return l
  }

  private rawKey(raw: JSONValue): string | undefined {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined
    const r = raw as Record<string, JSONValue>
    return JSON.stringify(this.keyProps.map((k) => (Object.hasOwn(r, k) ? JSON.stringify(r[k]) : 'n')))
  }

  protected override keyOf(e: CelValue): string {
    return this.rawKey(e instanceof UnstructuredObject || e instanceof UnstructuredMap ? e.raw : undefined) ?? ''
  }

  protected override keyOfOther(v: CelValue): string | undefined {
    return v instanceof UnstructuredObject || v instanceof UnstructuredMap ? this.rawKey(v.raw) : undefined
  }
}
