import { ErrorValue, noSuchOverload } from '../../cel/common/errors.js'
import { actualSize } from '../../cel/cost/runtime.js'
import { fn, type Library, memberOverload } from '../../cel/functions.js'
import { addInt, addUint } from '../../cel/stdlib/int64.js'
import { addDouble } from '../../cel/stdlib/operators.js'
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listOf,
  StringType,
  TimestampType,
  type Type,
  typeParam,
  UintType,
} from '../../cel/types/types.js'
import { celCompare, celEquals } from '../../cel/values/equality.js'
import { codePointLength } from '../../cel/values/strings.js'
import { addDurations, addTimestampDuration, Duration, Timestamp } from '../../cel/values/time.js'
import { CelMap, CelObject, type CelValue, Double, Kind, kindOf, MapValue, Uint } from '../../cel/values/values.js'
import { utf8Length } from '../validation/utf8.js'

// Library `kubernetes.lists` (k8s.io/apiserver pkg/cel/library/lists.go): isSorted, sum, min, max,
// indexOf, lastIndexOf, and (library version 1, Kubernetes 1.37) includes. The comparisons follow
// cel-go's traits.Comparer: a Compare that fails (NaN, mismatched types in a dyn list) is neither
// "greater" nor "less", so it never reorders (`[1.0, NaN, 0.5].isSorted()` is true, as in Go).

type List = readonly CelValue[]

/** Values implementing cel-go's traits.Comparer. */
function isComparable(v: CelValue): boolean {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return true
    case 'object':
      return (
        v instanceof Uint8Array ||
        v instanceof Double ||
        v instanceof Uint ||
        v instanceof Timestamp ||
        v instanceof Duration
      )
  }
  return false
}

/** cel-go `a.Compare(b)` as an int: an error result counts as 0 (it matches neither 1 nor -1). */
function compare(a: CelValue, b: CelValue): number {
  try {
    return celCompare(a, b)
  } catch {
    return 0
  }
}

function isSorted(list: List): boolean {
  for (let i = 0; i < list.length; i++) {
    const next = list[i] as CelValue
    if (!isComparable(next)) throw noSuchOverload()
    if (i > 0 && compare(list[i - 1] as CelValue, next) === 1) return false
  }
  return true
}

/** min (prefer = 1: replace while the kept value is greater) and max (prefer = -1); ties keep the first. */
function extreme(list: List, prefer: 1 | -1, name: string): CelValue {
  if (list.length === 0) throw new ErrorValue(`${name} called on empty list`)
  let result = list[0] as CelValue
  if (!isComparable(result)) throw noSuchOverload()
  for (let i = 1; i < list.length; i++) {
    const next = list[i] as CelValue
    if (!isComparable(next)) throw noSuchOverload()
    if (compare(result, next) === prefer) result = next
  }
  return result
}

const min = (list: List) => extreme(list, 1, 'min')
const max = (list: List) => extreme(list, -1, 'max')

// sum folds `+` from the zero of the overload's type; an element the accumulator cannot add (Int.Add of a
// double in a dyn list, say) is `no such overload`, as cel-go's Adder answers.

function sumInt(list: List): CelValue {
  let acc: number | bigint = 0
  for (let i = 0; i < list.length; i++) {
    const v = list[i]
    if (typeof v === 'number' ? !Number.isSafeInteger(v) : typeof v !== 'bigint') throw noSuchOverload()
    acc = addInt(acc, v as number | bigint)
  }
  return acc
}

function sumUint(list: List): CelValue {
  let acc = new Uint(0n)
  for (let i = 0; i < list.length; i++) {
    const v = list[i]
    if (!(v instanceof Uint)) throw noSuchOverload()
    acc = addUint(acc, v)
  }
  return acc
}

function sumDouble(list: List): CelValue {
  let acc: CelValue = new Double(0)
  for (let i = 0; i < list.length; i++) {
    const v = list[i] as CelValue
    if (kindOf(v) !== Kind.Double) throw noSuchOverload()
    acc = addDouble(acc as number | Double, v as number | Double)
  }
  return acc
}

/** Durations; Duration.Add also accepts a timestamp, after which Timestamp.Add takes durations. */
function sumDuration(list: List): CelValue {
  let acc: Duration | Timestamp = new Duration(0n)
  for (let i = 0; i < list.length; i++) {
    const v = list[i]
    if (acc instanceof Duration) {
      if (v instanceof Duration) acc = addDurations(acc, v)
      else if (v instanceof Timestamp) acc = addTimestampDuration(v, acc)
      else throw noSuchOverload()
    } else if (v instanceof Duration) {
      acc = addTimestampDuration(acc, v)
    } else {
      throw noSuchOverload()
    }
  }
  return acc
}

function indexOf(list: List, item: CelValue): number {
  // a string or bool equals only the identical value
  if (typeof item === 'string' || typeof item === 'boolean') return list.indexOf(item)
  for (let i = 0; i < list.length; i++) if (celEquals(list[i] as CelValue, item)) return i
  return -1
}

function lastIndexOf(list: List, item: CelValue): number {
  if (typeof item === 'string' || typeof item === 'boolean') return list.lastIndexOf(item)
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i] as CelValue, item)) return i
  return -1
}

/** A list contains an equal element; any other receiver equals the argument. */
function includes(target: CelValue, arg: CelValue): boolean {
  if (!Array.isArray(target)) return celEquals(target, arg)
  if (typeof arg === 'string' || typeof arg === 'boolean') return target.includes(arg)
  for (let i = 0; i < target.length; i++) if (celEquals(target[i] as CelValue, arg)) return true
  return false
}

// ---------------------------------------------------------------------------------------------
// Declarations (overload ids and order as lists.go's templatedOverloads produce them)

const comparableTypes: readonly (readonly [string, Type])[] = [
  ['int', IntType],
  ['uint', UintType],
  ['double', DoubleType],
  ['bool', BoolType],
  ['duration', DurationType],
  ['timestamp', TimestampType],
  ['string', StringType],
  ['bytes', BytesType],
]

const summable: readonly (readonly [string, Type, (l: List) => CelValue])[] = [
  ['int', IntType, sumInt],
  ['uint', UintType, sumUint],
  ['double', DoubleType, sumDouble],
  ['duration', DurationType, sumDuration],
]

const A = typeParam('A')

const version0 = [
  fn(
    'isSorted',
    ...comparableTypes.map(([n, t]) => memberOverload(`list_${n}_is_sorted_bool`, [listOf(t)], BoolType, isSorted)),
  ),
  fn('sum', ...summable.map(([n, t, impl]) => memberOverload(`list_${n}_sum_${n}`, [listOf(t)], t, impl))),
  fn('max', ...comparableTypes.map(([n, t]) => memberOverload(`list_${n}_max_${n}`, [listOf(t)], t, max))),
  fn('min', ...comparableTypes.map(([n, t]) => memberOverload(`list_${n}_min_${n}`, [listOf(t)], t, min))),
  fn('indexOf', memberOverload('list_a_index_of_int', [listOf(A), A], IntType, indexOf, ['A'])),
  fn('lastIndexOf', memberOverload('list_a_last_index_of_int', [listOf(A), A], IntType, lastIndexOf, ['A'])),
]

/** `library.Lists(library.ListsVersion(0))`: the base environment of Kubernetes ≤ 1.36. */
export const listsLibrary: Library = { name: 'kubernetes.lists', functions: version0 }

/** `library.Lists(library.ListsVersion(1))` (Kubernetes 1.37): adds `<dyn>.includes(<dyn>)`. */
export const listsLibraryV1: Library = {
  name: 'kubernetes.lists',
  functions: [
    ...version0,
    fn('includes', memberOverload('list_includes_dyn_dyn', [DynType, DynType], BoolType, includes)),
  ],
}

// ---------------------------------------------------------------------------------------------
// Cost (pkg/cel/library/cost.go). The shapes below are shared by the Kubernetes libraries' tables.

/**
 * A size or cost range: cel-go's checker.SizeEstimate / CostEstimate, uint64 values saturating at
 * MaxUint64 (which also stands for "unbounded").
 */
export interface CostRange {
  readonly min: bigint
  readonly max: bigint
}

/**
 * What the estimator knows of one operand: its size range (code points for strings, bytes for bytes,
 * elements for lists and maps), its computed size when the checker knows it exactly (literals, results
 * of calls that report one), and for a parameterised list type the element's kind and size (`elemKind`
 * undefined: the operand's type has no type parameters, e.g. a string receiver).
 */
export interface CostOperand {
  readonly size: CostRange
  readonly computedSize?: CostRange
  readonly elemKind?: 'string' | 'bytes' | 'other'
  readonly elemSize?: CostRange
}

/** cel-go's checker.CallEstimate: the call's own cost and, optionally, the size of its result. */
export interface CostCallEstimate {
  readonly cost: CostRange
  readonly resultSize?: CostRange
}

/**
 * One overload's entry: `estimate` is cost.go EstimateCallCost (`target` the receiver of member calls,
 * `args` the other arguments; absent or returning undefined = cel-go's default), `actual` is cost.go CallCost (`args` the
 * call's arguments with the receiver first).
 */
export interface KubeCost {
  readonly estimate?: (target: CostOperand | undefined, args: readonly CostOperand[]) => CostCallEstimate | undefined
  readonly actual?: (args: readonly CelValue[], result: CelValue) => number
}

/** cel-go common.StringTraversalCostFactor and RegexStringLengthCostFactor. */
export const StringTraversalCostFactor = 0.1
export const RegexStringLengthCostFactor = 0.25

export const MAX_UINT64 = 18446744073709551615n
/** cel-go's size of an operand nothing is known about. */
export const UNBOUNDED: CostRange = { min: 0n, max: MAX_UINT64 }
const TWO_TO_64 = 2 ** 64

/** cel-go multiplyByCostFactor: ceil(x * f) in float64, saturating. */
function byFactor(x: bigint, f: number): bigint {
  const xf = Number(x)
  if (xf > 0 && f > 0 && xf > TWO_TO_64 / f) return MAX_UINT64
  const c = Math.ceil(xf * f)
  return c >= TWO_TO_64 ? MAX_UINT64 : BigInt(c)
}

/** SizeEstimate.MultiplyByCostFactor / CostEstimate.MultiplyByCostFactor. */
export function ceilFactor(r: CostRange, f: number): CostRange {
  return { min: byFactor(r.min, f), max: byFactor(r.max, f) }
}

function addSat(a: bigint, b: bigint): bigint {
  const s = a + b
  return s > MAX_UINT64 ? MAX_UINT64 : s
}

function mulSat(a: bigint, b: bigint): bigint {
  const p = a * b
  return p > MAX_UINT64 ? MAX_UINT64 : p
}

export function addRange(a: CostRange, b: CostRange): CostRange {
  return { min: addSat(a.min, b.min), max: addSat(a.max, b.max) }
}

export function mulRange(a: CostRange, b: CostRange): CostRange {
  return { min: mulSat(a.min, b.min), max: mulSat(a.max, b.max) }
}

export const ONE: CostRange = { min: 1n, max: 1n }

/** A nominal-cost function: 1 estimated and at run time. */
export const one: KubeCost = { estimate: () => ({ cost: ONE }), actual: () => 1 }

/**
 * cel-go's size of a string at run time (types.String.Size): code points. Any other argument has cost.go's
 * actualSize: a failed one (an error, which CallCost still charges) is 1.
 */
export function stringSize(s: CelValue): number {
  if (typeof s !== 'string') return actualSize(s)
  return s.length <= 1 ? s.length : codePointLength(s)
}

/**
 * cost.go traversalCost: strings and bytes cost floor(len * 0.1) (UTF-8 bytes, truncated as Go's uint64
 * conversion does); lists the sum over their elements; maps the sum over keys and values; anything
 * else 1.
 */
export function traversalCost(v: CelValue): number {
  switch (typeof v) {
    case 'string':
      return Math.floor(utf8Length(v) * StringTraversalCostFactor)
    case 'object': {
      if (v === null) return 1
      let cost = 0
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) cost += traversalCost(v[i] as CelValue)
        return cost
      }
      if (v instanceof Uint8Array) return Math.floor(v.length * StringTraversalCostFactor)
      if (v instanceof CelMap) {
        for (const [k, val] of v.entries.values()) cost += traversalCost(k) + traversalCost(val)
        return cost
      }
      if (v instanceof MapValue) {
        for (const k of v.keys()) cost += traversalCost(k) + traversalCost(v.find(k) as CelValue)
        return cost
      }
      if (v instanceof CelObject) return 1
      // other class instances (durations, timestamps, optionals, library values, an error argument)
      // are neither Listers nor Mappers in Go
      const proto = Object.getPrototypeOf(v)
      if (proto !== Object.prototype && proto !== null) return 1
      const m = v as Readonly<Record<string, CelValue>>
      for (const k in m) if (Object.hasOwn(m, k)) cost += traversalCost(k) + traversalCost(m[k] as CelValue)
      return cost
    }
  }
  return 1
}

/**
 * The estimate cost.go gives these functions: per element 1 (plus the traversal of the element for
 * lists of strings or bytes) times the list size; for a receiver without type parameters (strings)
 * the traversal of the receiver. No estimate without a receiver.
 */
function listEstimate(target: CostOperand | undefined): CostCallEstimate | undefined {
  if (target === undefined) return undefined
  if (target.elemKind === undefined) return { cost: ceilFactor(target.size, StringTraversalCostFactor) }
  let elem = ONE
  if (target.elemKind === 'string' || target.elemKind === 'bytes') {
    elem = addRange(elem, ceilFactor(target.elemSize ?? UNBOUNDED, StringTraversalCostFactor))
  }
  return { cost: mulRange(target.size, elem) }
}

const traversal: KubeCost = { estimate: listEstimate, actual: ([list]) => traversalCost(list as CelValue) }

/**
 * `includes` (cost.go): as the others on a list; on a receiver without an element type (a string, or
 * a dyn, which may be a list) 1 per unit of size, the worst case of a list compared element by element.
 */
const includesCost: KubeCost = {
  estimate: (target) =>
    target !== undefined && target.elemKind === undefined ? { cost: mulRange(target.size, ONE) } : listEstimate(target),
  actual: ([list]) => traversalCost(list as CelValue),
}

/**
 * cost.go entries by overload id. cost.go keys these by function name, so they also apply to the
 * ext.Strings `indexOf` / `lastIndexOf` overloads on strings when this library is in the environment.
 * `includes` (1.37) is charged like the others at run time; its estimate differs on receivers
 * without an element type (includesCost).
 */
export const listsCosts: Readonly<Record<string, KubeCost>> = Object.fromEntries([
  ...comparableTypes.flatMap(([n]) => [
    [`list_${n}_is_sorted_bool`, traversal],
    [`list_${n}_max_${n}`, traversal],
    [`list_${n}_min_${n}`, traversal],
  ]),
  ...summable.map(([n]) => [`list_${n}_sum_${n}`, traversal]),
  ['list_a_index_of_int', traversal],
  ['list_a_last_index_of_int', traversal],
  ['list_includes_dyn_dyn', includesCost],
  ['string_index_of_string', traversal],
  ['string_index_of_string_int', traversal],
  ['string_last_index_of_string', traversal],
  ['string_last_index_of_string_int', traversal],
])
