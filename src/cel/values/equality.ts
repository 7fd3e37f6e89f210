import { ErrorValue, noSuchOverload } from '../common/errors.js'
import { Type } from '../types/types.js'
import { type CelMapValue, isMap, mapGet } from './maps.js'
import { compareStrings } from './strings.js'
import { Duration, Timestamp } from './time.js'
import {
  CelMap,
  CelObject,
  type CelValue,
  Double,
  Kind,
  kindOf,
  ListValue,
  MapValue,
  OpaqueValue,
  Optional,
  type PlainMap,
  Uint,
} from './values.js'

// CEL runtime equality and ordering as cel-go v0.26 implements them (common/types/*.go Equal and
// Compare methods, common/types/compare.go).
//
// Equality is heterogeneous: values of different kinds are simply unequal, except numbers, which
// compare by value across int, uint and double (int↔uint exactly; with a double the integer is
// first converted to double, so an int above 2^53 can equal a nearby double). NaN equals nothing.

const SAFE_MAX = 9007199254740991n

/** `a == b` (cel-go types.Equal). Never throws. */
/**
 * Equality where only True counts: membership tests, distinct, the sets functions (cel-go
 * baseList.Contains: `Equal(...) == True`); an error comparing two elements counts as unequal.
 */
export function elementEquals(a: CelValue, b: CelValue): boolean {
  try {
    return celEquals(a, b)
  } catch (e) {
    if (e instanceof ErrorValue) return false
    throw e
  }
}

/**
 * `a != b` (cel-go evalNe, v0.26 and v0.29: `Bool(Equal(a, b) != True)`): an error comparing the two is
 * unequal, so `dyn(quantity("1")) != dyn(1.5)` is true where `==` is `no such overload` (Kubernetes'
 * library values answer MaybeNoSuchOverloadErr for another type).
 */
export function celNotEquals(a: CelValue, b: CelValue): boolean {
  return !elementEquals(a, b)
}

export function celEquals(a: CelValue, b: CelValue): boolean {
  // No identity shortcut for lists and maps: a list holding NaN is not equal to itself (cel-go).
  if (a === b && (typeof a !== 'object' || a === null)) return true
  switch (typeof a) {
    case 'string':
    case 'boolean':
      return false
    case 'number':
      switch (typeof b) {
        case 'number':
          return false // a !== b already
        case 'bigint':
          // a safe int never equals an unsafe one; a double compares with the rounded int
          return !Number.isSafeInteger(a) && a === Number(b)
        case 'object':
          if (b instanceof Double) return a === b.value
          // an int compares exactly (both safe here), a double with the rounded uint
          if (b instanceof Uint) return (b.value <= SAFE_MAX || !Number.isSafeInteger(a)) && a === Number(b.value)
          return false
      }
      return false
    case 'bigint':
      switch (typeof b) {
        case 'number':
          return !Number.isSafeInteger(b) && Number(a) === b
        case 'object':
          if (b instanceof Uint) return a === b.value
          if (b instanceof Double) return Number(a) === b.value
          return false
      }
      return false
    case 'object':
      if (a === null || b === null) return false
      return objectEquals(a, b)
  }
  return false
}

function objectEquals(a: object, b: CelValue): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false
    return a instanceof ListValue ? a.equals(b) : listEquals(a, b)
  }
  if (a instanceof MapValue) return a.equals(b)
  if (b instanceof MapValue) return isMap(a as CelValue) && b.equals(a as CelValue)
  if (a instanceof CelObject) {
    switch (a.kind) {
      case Kind.Double:
        return doubleEquals((a as Double).value, b as CelValue)
      case Kind.Uint:
        return uintEquals((a as Uint).value, b as CelValue)
      case Kind.Map:
        return isMap(b as CelValue) && mapsEqual(a as CelMap, b as CelMapValue)
      case Kind.Timestamp:
        return b instanceof Timestamp && (a as Timestamp).seconds === b.seconds && (a as Timestamp).nanos === b.nanos
      case Kind.Duration:
        return b instanceof Duration && (a as Duration).nanos === b.nanos
      case Kind.Type:
        return b instanceof Type && (a as Type).name === b.name
      case Kind.Optional: {
        if (!(b instanceof Optional)) return false
        const x = (a as Optional).value
        const y = b.value
        if (x === undefined || y === undefined) return x === y
        return celEquals(x, y)
      }
      case Kind.Opaque:
        // Library values (Kubernetes IP, CIDR, Quantity, URL, ...) compare only with their own type;
        // anything else is `no such overload`, as their Equal methods answer (MaybeNoSuchOverloadErr).
        // null compares unequal first (cel-go types.Equal).
        if (b === null) return false
        if (!(b instanceof OpaqueValue) || b.typeName !== (a as OpaqueValue).typeName) throw noSuchOverload()
        return (a as OpaqueValue).equals(b)
    }
    return false
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b)
  // a plain map
  return isMap(b as CelValue) && mapsEqual(a as CelMapValue, b as CelMapValue)
}

function doubleEquals(x: number, b: CelValue): boolean {
  switch (typeof b) {
    case 'number':
      return x === b
    case 'bigint':
      return x === Number(b)
    case 'object':
      if (b instanceof Double) return x === b.value
      if (b instanceof Uint) return x === Number(b.value)
  }
  return false
}

function uintEquals(u: bigint, b: CelValue): boolean {
  switch (typeof b) {
    case 'number':
      // an int compares exactly (both safe here), a double with the rounded uint
      return (u <= SAFE_MAX || !Number.isSafeInteger(b)) && Number(u) === b
    case 'bigint':
      return u === b
    case 'object':
      if (b instanceof Uint) return u === b.value
      if (b instanceof Double) return Number(u) === b.value
  }
  return false
}

/**
 * Two elements of lists or maps being compared are unequal only when their Equal is False: cel-go's
 * baseList.Equal and baseMap.Equal (v0.26 and v0.29) go on past an error (a Kubernetes library value
 * against another type), so `[dyn(quantity("1"))] == [dyn(1)]` is true. (A concatenation's concatList
 * would return that error instead; kelp does not know which lists are concatenations.)
 */
function notFalse(a: CelValue, b: CelValue): boolean {
  try {
    return celEquals(a, b)
  } catch (e) {
    if (e instanceof ErrorValue) return true
    throw e
  }
}

function listEquals(a: readonly CelValue[], b: readonly CelValue[]): boolean {
  const n = a.length
  if (n !== b.length) return false
  for (let i = 0; i < n; i++) if (!notFalse(a[i] as CelValue, b[i] as CelValue)) return false
  return true
}

/** Same size and every key of `a` maps, in `b`, to an equal value (cel-go baseMap.Equal). */
function mapsEqual(a: CelMapValue, b: CelMapValue): boolean {
  if (a instanceof CelMap) {
    if (a.entries.size !== sizeOf(b)) return false
    for (const [k, v] of a.entries.values()) {
      const w = mapGet(b, k)
      if (w === undefined || !notFalse(v, w)) return false
    }
    return true
  }
  if (b instanceof CelMap) return mapsEqual(b, a)
  // MapValues decide their own equality (routed in objectEquals); here two plain maps: string keys, own properties
  const x = a as PlainMap
  const y = b as PlainMap
  let n = 0
  for (const k in x) {
    if (!Object.hasOwn(x, k)) continue
    n++
    if (!Object.hasOwn(y, k) || !notFalse(x[k] as CelValue, y[k] as CelValue)) return false
  }
  return n === sizeOf(y)
}

function sizeOf(m: CelMapValue): number {
  return m instanceof CelMap || m instanceof MapValue ? m.size : Object.keys(m).length
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length
  if (n !== b.length) return false
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false
  return true
}

// ---------------------------------------------------------------------------------------------
// Ordering

const NAN_ORDER = 'NaN values cannot be ordered'

/** cel-go's error for an ordering with a NaN operand (Double.Compare, Int.Compare, Uint.Compare). */
export function nanOrderError(): ErrorValue {
  return new ErrorValue(NAN_ORDER)
}

/** A numeric value as a JS double, as cel-go converts an int or uint for a comparison with a double. */
function asDouble(v: CelValue, k: Kind): number {
  if (k === Kind.Uint) return Number((v as Uint).value)
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  return (v as Double).value
}

/**
 * Compares two numbers of any numeric kinds: int↔int, int↔uint and uint↔uint exactly; with a
 * double, the other operand converted to double (compare.go compareDoubleInt/compareDoubleUint:
 * their ±2^63 / 2^64 range checks give the same answers as comparing the converted doubles).
 * A NaN operand is an error.
 */
export function compareNumbers(a: CelValue, ka: Kind, b: CelValue, kb: Kind): number {
  if (ka !== Kind.Double && kb !== Kind.Double) {
    // JS compares number/bigint mixes exactly
    const x = ka === Kind.Uint ? (a as Uint).value : (a as number | bigint)
    const y = kb === Kind.Uint ? (b as Uint).value : (b as number | bigint)
    return x < y ? -1 : x > y ? 1 : 0
  }
  return compareDoubles(asDouble(a, ka), asDouble(b, kb))
}

/** compare.go compareDouble, with the NaN check cel-go performs before it. */
export function compareDoubles(x: number, y: number): number {
  if (x < y) return -1
  if (x > y) return 1
  if (x === y) return 0
  throw nanOrderError()
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a[i] as number
    const y = b[i] as number
    if (x !== y) return x < y ? -1 : 1
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0
}

export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0
}

export function compareDurations(a: Duration, b: Duration): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0
}

function isNumeric(k: Kind): boolean {
  return k === Kind.Int || k === Kind.Uint || k === Kind.Double
}

/**
 * -1, 0 or 1 for `<`, sorting, min/max (cel-go traits.Comparer): numbers across int/uint/double,
 * strings by code point, bytes lexicographically, bools (false < true), timestamps, durations.
 * Throws `NaN values cannot be ordered` for a NaN operand and `no such overload` for any other pair.
 */
export function celCompare(a: CelValue, b: CelValue): number {
  const ta = typeof a
  if (ta === typeof b) {
    if (ta === 'number') return compareDoubles(a as number, b as number) // int or double: exact either way
    if (ta === 'string') return compareStrings(a as string, b as string)
  }
  const ka = kindOf(a)
  const kb = kindOf(b)
  if (isNumeric(ka) && isNumeric(kb)) return compareNumbers(a, ka, b, kb)
  if (ka !== kb) throw noSuchOverload()
  switch (ka) {
    case Kind.String:
      return compareStrings(a as string, b as string)
    case Kind.Bool:
      return a === b ? 0 : a ? 1 : -1
    case Kind.Bytes:
      return compareBytes(a as Uint8Array, b as Uint8Array)
    case Kind.Timestamp:
      return compareTimestamps(a as Timestamp, b as Timestamp)
    case Kind.Duration:
      return compareDurations(a as Duration, b as Duration)
  }
  throw noSuchOverload()
}
