import { evalError, noSuchOverload } from '../common/errors.js'
import { type FunctionDecl, fn, type Impl, memberOverload, overload } from '../functions.js'
import { BoolType, DynType, IntType, listOf, mapOf, optionalOf, StringType, typeParam } from '../types/types.js'
import { formatDouble, goValueString } from '../values/format.js'
import { isMap, mapGet } from '../values/maps.js'
import { Duration, Timestamp } from '../values/time.js'
import { goTypeName } from '../values/typeof.js'
import { CelMap, CelObject, type CelValue, Double, MapValue, Optional, Uint } from '../values/values.js'

// cel.OptionalTypes() of cel-go v0.26.0 (cel/library.go, versions 0–2 as Kubernetes gets them;
// common/types/optional.go), and the optional syntax `a.?b`, `m[?k]`, `l[?i]` as cel-go's
// interpreter/attributes.go evaluates it (applyQualifiers / QualifyIfPresent / refQualify).
//
// `or` and `orValue` are NOT strict: cel-go replaces the calls with evalOptionalOr /
// evalOptionalOrValue (decorateOptionalOr), which evaluate the argument only when the receiver is
// optional.none(). The compiler must special-case them, see orShortCircuit / orValueShortCircuit.

// ---------------------------------------------------------------------------------------------
// Zero values (traits.Zeroer in cel-go)

/** Go's time.Time{}.IsZero(): 0001-01-01T00:00:00Z, which is what cel-go's Timestamp.IsZeroValue tests. */
const zeroTimeSeconds = -62135596800

/**
 * Whether `optional.ofNonZeroValue(v)` is none: null, false, 0, 0u, ±0.0, '', b'', [], {},
 * duration 0 and the timestamp 0001-01-01T00:00:00Z (not the Unix epoch). Optionals, types and
 * library values implement no IsZeroValue in cel-go, so they are never zero.
 */
export function isZeroValue(v: CelValue): boolean {
  switch (typeof v) {
    case 'string':
      return v.length === 0
    case 'number':
      return v === 0
    case 'boolean':
      return !v
    case 'bigint':
      return false
  }
  if (v === null) return true
  if (Array.isArray(v)) return v.length === 0
  if (v instanceof CelObject) {
    if (v instanceof Double) return v.value === 0
    if (v instanceof Uint) return v.value === 0n
    if (v instanceof Duration) return v.nanos === 0n
    if (v instanceof Timestamp) return v.seconds === zeroTimeSeconds && v.nanos === 0
    if (v instanceof CelMap || v instanceof MapValue) return v.size === 0
    return false
  }
  if (v instanceof Uint8Array) return v.length === 0
  for (const k in v) if (Object.hasOwn(v, k)) return false
  return true
}

// ---------------------------------------------------------------------------------------------
// Functions

function of(v: CelValue): CelValue {
  return new Optional(v)
}

function ofNonZeroValue(v: CelValue): CelValue {
  return isZeroValue(v) ? Optional.none : new Optional(v)
}

function none(): CelValue {
  return Optional.none
}

function value(o: Optional): CelValue {
  if (o.value === undefined) throw evalError('optional.none() dereference')
  return o.value
}

function hasValue(o: Optional): boolean {
  return o.value !== undefined
}

/** Eager `or`, correct only when both sides were evaluated without error; prefer orShortCircuit. */
function or(a: Optional, b: CelValue): CelValue {
  return a.value !== undefined ? a : b
}

/** Eager `orValue`; prefer orValueShortCircuit. */
function orValue(a: Optional, b: CelValue): CelValue {
  return a.value !== undefined ? a.value : b
}

/**
 * Lazy `lhs.or(rhs)` (cel-go evalOptionalOr): the result when it does not depend on `rhs`, or
 * `undefined` when `rhs` must be evaluated and returned as is. As in cel-go v0.26, a receiver that
 * is not an optional at all (reachable through `dyn`) is returned unchanged.
 */
export function orShortCircuit(lhs: CelValue): CelValue | undefined {
  if (!(lhs instanceof Optional)) return lhs
  return lhs.value !== undefined ? lhs : undefined
}

/**
 * Lazy `lhs.orValue(rhs)` (cel-go evalOptionalOrValue): as orShortCircuit, but unwraps the value.
 * The value may be `null` (CEL null): only `undefined` means "evaluate rhs".
 */
export function orValueShortCircuit(lhs: CelValue): CelValue | undefined {
  if (!(lhs instanceof Optional)) return lhs
  return lhs.value
}

/**
 * cel-go v0.29's evalOptionalOr / evalOptionalOrValue (cel/library.go Exec): a receiver that is not an
 * optional is `no such overload` (v0.26 returned it unchanged); the optional's own cases as above.
 */
export function orShortCircuitV029(lhs: CelValue): CelValue | undefined {
  if (!(lhs instanceof Optional)) throw noSuchOverload()
  return lhs.value !== undefined ? lhs : undefined
}

export function orValueShortCircuitV029(lhs: CelValue): CelValue | undefined {
  if (!(lhs instanceof Optional)) throw noSuchOverload()
  return lhs.value
}

function first(list: readonly CelValue[]): CelValue {
  return list.length === 0 ? Optional.none : new Optional(list[0] as CelValue)
}

function last(list: readonly CelValue[]): CelValue {
  return list.length === 0 ? Optional.none : new Optional(list[list.length - 1] as CelValue)
}

/** `optional.unwrap(l)` / `l.unwrapOpt()`: the values of the non-empty optionals, in order. */
function unwrap(list: readonly CelValue[]): CelValue {
  const out: CelValue[] = []
  for (let i = 0; i < list.length; i++) {
    const v = list[i] as CelValue
    if (!(v instanceof Optional)) throw evalError(`value ${goValueString(v)} is not optional`)
    if (v.value !== undefined) out.push(v.value)
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Optional selection and indexing

/**
 * `operand.?field`, and plain `operand.field` when the operand is an optional (cel-go keeps
 * qualifying "if present" once an optional is involved). An optional operand is unwrapped
 * (none stays none); then a map with the key gives optional.of(value) and anything else,
 * including a value that is no map at all, gives optional.none() (Kubernetes does not enable
 * cel.EnableErrorOnBadPresenceTest). Never throws.
 */
export function optionalSelect(operand: CelValue, field: string): Optional {
  if (operand instanceof Optional) {
    if (operand.value === undefined) return operand
    operand = operand.value
  }
  // a list qualified by a field name: types.IndexOrError refuses the string (attributes.go refQualify)
  if (Array.isArray(operand)) throw evalError("unsupported index type 'string' in list")
  if (!isMap(operand)) return Optional.none
  const v = mapGet(operand, field)
  return v === undefined ? Optional.none : new Optional(v)
}

/**
 * `operand[?key]`, and plain `operand[key]` when the operand is an optional. An optional operand is
 * unwrapped (none stays none). Lists: an int index (or a lossless double / uint) inside the list
 * gives optional.of(element), outside it optional.none(). Maps: present key (numeric keys match
 * across int / uint / double) gives optional.of(value), absent or wrongly typed key none. Other
 * operands give none. Errors, as cel-go: a key that is not string / int / uint / bool / double
 * (`invalid qualifier type: …`), a list index that is a fraction or out of int64
 * (`unsupported index value … in list`) or a string / bool (`unsupported index type '…' in list`).
 */
export function optionalIndex(operand: CelValue, key: CelValue): Optional {
  if (operand instanceof Optional) {
    if (operand.value === undefined) return operand
    operand = operand.value
  }
  checkQualifier(key)
  if (Array.isArray(operand)) {
    const i = listIndex(key)
    return i >= 0 && i < operand.length ? new Optional(operand[i] as CelValue) : Optional.none
  }
  if (!isMap(operand)) return Optional.none
  const v = mapGet(operand, key)
  return v === undefined ? Optional.none : new Optional(v)
}

/** cel-go's newQualifier accepts string, int, uint, bool and double values only. */
function checkQualifier(key: CelValue): void {
  switch (typeof key) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return
  }
  if (key instanceof Uint || key instanceof Double) return
  throw evalError(`invalid qualifier type: ${goTypeName(key) ?? (key as { typeName?: string }).typeName}`)
}

const twoTo63 = 2 ** 63
const maxInt64Plus1 = 2n ** 63n

/** cel-go types.IndexOrError: the list index a key denotes, or an error. */
function listIndex(key: CelValue): number {
  if (typeof key === 'number') {
    if (Number.isSafeInteger(key)) return key
    return doubleIndex(key)
  }
  if (typeof key === 'bigint') return Number(key) // outside the safe range: never a valid index
  if (key instanceof Double) return doubleIndex(key.value)
  if (key instanceof Uint) {
    if (key.value < maxInt64Plus1) return Number(key.value)
    throw evalError(`unsupported index value ${key.value} in list`)
  }
  throw evalError(`unsupported index type '${typeof key === 'string' ? 'string' : 'bool'}' in list`)
}

function doubleIndex(d: number): number {
  // doubleToInt64Lossless: integral and strictly inside (-2^63, 2^63)
  if (Number.isInteger(d) && d > -twoTo63 && d < twoTo63) return d || 0
  throw evalError(`unsupported index value ${formatDouble(d)} in list`)
}

// ---------------------------------------------------------------------------------------------
// Declarations (cel-go names type parameters K and V here)

const K = typeParam('K')
const V = typeParam('V')
const optV = optionalOf(V)
const listV = listOf(V)
const mapKV = mapOf(K, V)
const tpV = ['V']
const tpKV = ['K', 'V']

const indexOptional = (o: CelValue, k: CelValue): CelValue => optionalIndex(o, k)
const selectOptional = (o: CelValue, f: CelValue): CelValue => optionalSelect(o, f as string)

export const optionalFunctions: FunctionDecl[] = [
  fn('optional.of', overload('optional_of', [V], optV, of as Impl, tpV)),
  fn('optional.ofNonZeroValue', overload('optional_ofNonZeroValue', [V], optV, ofNonZeroValue as Impl, tpV)),
  fn('optional.none', overload('optional_none', [], optV, none as Impl, tpV)),
  fn('value', memberOverload('optional_value', [optV], V, value as Impl, tpV)),
  fn('hasValue', memberOverload('optional_hasValue', [optV], BoolType, hasValue as Impl, tpV)),
  // Non-strict: see orShortCircuit / orValueShortCircuit.
  fn('or', memberOverload('optional_or_optional', [optV, optV], optV, or as Impl, tpV)),
  fn('orValue', memberOverload('optional_orValue_value', [optV, V], V, orValue as Impl, tpV)),
  // `a.?b`: the checker types the result from the operand's field type (cel-go special case).
  fn('_?._', overload('select_optional_field', [DynType, StringType], optV, selectOptional, tpV)),
  fn(
    '_[?_]',
    overload('list_optindex_optional_int', [listV, IntType], optV, indexOptional, tpV),
    overload('optional_list_optindex_optional_int', [optionalOf(listV), IntType], optV, indexOptional, tpV),
    overload('map_optindex_optional_value', [mapKV, K], optV, indexOptional, tpKV),
    overload('optional_map_optindex_optional_value', [optionalOf(mapKV), K], optV, indexOptional, tpKV),
  ),
  // Plain indexing of an optional operand (merged with the standard `_[_]` overloads).
  fn(
    '_[_]',
    overload('optional_list_index_int', [optionalOf(listV), IntType], optV, indexOptional, tpV),
    overload('optional_map_index_value', [optionalOf(mapKV), K], optV, indexOptional, tpKV),
  ),
  // Version 2.
  fn('last', memberOverload('list_last', [listV], optV, last as Impl, tpV)),
  fn('first', memberOverload('list_first', [listV], optV, first as Impl, tpV)),
  fn('optional.unwrap', overload('optional_unwrap', [listOf(optV)], listV, unwrap as Impl, tpV)),
  fn('unwrapOpt', memberOverload('optional_unwrapOpt', [listOf(optV)], listV, unwrap as Impl, tpV)),
]
