import { CelObject, Kind } from './base.js'

// The runtime value model. Plain JS values mean what the same JSON means to Kubernetes:
//   null → null, boolean → bool, string → string,
//   number → int when it is a safe integer (Number.isSafeInteger), otherwise double,
//   bigint → int outside the safe range (ints inside it are always plain numbers, so `===` works),
//   Array → list, Uint8Array → bytes, any other plain object → map with string keys (own properties only).
// Class-backed values express what JSON cannot: Double (a double whose value is a safe integer,
// e.g. 1.0 or -0.0), Uint, Timestamp, Duration, Optional, CelMap (maps with non-string keys),
// Type values, and library-defined opaque values.

export { CelObject, Kind }

/** A double whose value is integral (1.0, -0.0): plain numbers that are safe integers mean int. */
export class Double extends CelObject {
  constructor(readonly value: number) {
    super()
  }
  override get kind(): Kind {
    return Kind.Double
  }
}

/** uint64, held as a bigint in [0, 2^64). */
export class Uint extends CelObject {
  constructor(readonly value: bigint) {
    super()
  }
  override get kind(): Kind {
    return Kind.Uint
  }
}

/** An optional value (`optional.of(x)` / `optional.none()`). */
export class Optional extends CelObject {
  static readonly none = new Optional(undefined)
  constructor(readonly value: CelValue | undefined) {
    super()
  }
  override get kind(): Kind {
    return Kind.Optional
  }
  hasValue(): boolean {
    return this.value !== undefined
  }
}

/**
 * A map whose keys are not all strings (int, uint, bool keys). Keys are normalised so that
 * numerically equal int / uint keys (and integral double look-ups) find the same entry:
 * the JS Map key is the number (safe range) or bigint value, a bool or a string.
 */
export class CelMap extends CelObject {
  /** normalised key → [key as written, value] */
  readonly entries: Map<MapKey, [CelValue, CelValue]>
  constructor(entries?: Map<MapKey, [CelValue, CelValue]>) {
    super()
    this.entries = entries ?? new Map()
  }
  override get kind(): Kind {
    return Kind.Map
  }
  get size(): number {
    return this.entries.size
  }
}
export type MapKey = string | number | bigint | boolean

/** Values defined by libraries (Kubernetes Quantity, IP, ...): they name their type and define equality. */
export abstract class OpaqueValue extends CelObject {
  override get kind(): Kind {
    return Kind.Opaque
  }
  /** The CEL type name, e.g. `kubernetes.Quantity`, `net.IP`. */
  abstract get typeName(): string
  abstract equals(other: OpaqueValue): boolean
}

/**
 * A map implemented outside the core (cel-go's traits.Mapper): a value that looks its entries up,
 * iterates and counts them itself, e.g. a Kubernetes object read through its schema without being
 * copied. The core's map helpers (maps.ts) and equality defer to these methods.
 */
export abstract class MapValue extends CelObject {
  override get kind(): Kind {
    return Kind.Map
  }
  /** The value at `key`, or undefined when absent. May throw an ErrorValue (e.g. a conversion error). */
  abstract find(key: CelValue): CelValue | undefined
  /** The keys, in iteration order. */
  abstract keys(): CelValue[]
  abstract get size(): number
  /** `this == other` (other is any value); may throw an ErrorValue. */
  abstract equals(other: CelValue): boolean
}

/**
 * A list with its own equality and concatenation (cel-go traits.Lister with its own Equal / Add),
 * e.g. Kubernetes `x-kubernetes-list-type: set` and `map` lists. It is a real Array, so every list
 * operation reads it as a list; array methods (map, filter, slice, ...) build plain arrays.
 */
export abstract class ListValue extends Array<CelValue> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array
  }
  /** `this == other` for another list; may throw an ErrorValue. */
  abstract equals(other: readonly CelValue[]): boolean
  /** `this + other`. */
  abstract add(other: readonly CelValue[]): readonly CelValue[]
}

// Timestamp and Duration are declared in time.ts (their arithmetic lives with them).

/** A plain map: an object with string keys, read through own properties only. */
export type PlainMap = { readonly [key: string]: CelValue }

export type CelValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly CelValue[]
  | CelObject
  | PlainMap

/** The runtime kind of any value (the hot path: ordered by frequency in Kubernetes objects). */
export function kindOf(v: CelValue): Kind {
  switch (typeof v) {
    case 'string':
      return Kind.String
    case 'number':
      return Number.isSafeInteger(v) ? Kind.Int : Kind.Double
    case 'boolean':
      return Kind.Bool
    case 'bigint':
      return Kind.Int
    case 'object':
      if (v === null) return Kind.Null
      if (Array.isArray(v)) return Kind.List
      if (v instanceof CelObject) return v.kind
      if (v instanceof Uint8Array) return Kind.Bytes
      return Kind.Map
  }
  throw new TypeError(`not a CEL value: ${typeof v}`)
}

/** Makes a double value: plain number unless it is a safe integer (then wrapped). */
export function mkDouble(v: number): number | Double {
  return Number.isSafeInteger(v) ? new Double(v) : v
}

/** Makes an int value from a bigint already range-checked to int64. */
export function mkInt(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v
}

export function isPlainMap(v: CelValue): v is PlainMap {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof CelObject) && !(v instanceof Uint8Array)
  )
}
