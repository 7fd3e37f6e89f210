import { evalError } from '../common/errors.js'
import { MAX_UNLIMITED_SIZE, remainingBudget, reserve } from '../cost/budget.js'
import { ListCreateBaseCost, type RuntimeCost, StringTraversalCostFactor } from '../cost/costs.js'
import { actualSize } from '../cost/runtime.js'
import { type FunctionDecl, fn, type Impl, memberOverload, type OverloadDecl, overload } from '../functions.js'
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
} from '../types/types.js'
import { celCompare, elementEquals } from '../values/equality.js'
import { compareStrings } from '../values/strings.js'
import { noSuchOverloadFor } from '../values/traits.js'
import { type CelValue, type Double, Kind, kindOf } from '../values/values.js'
import { assertInt, assertLister } from './go-assert.js'

// ext.Lists(ext.ListsVersion(3)) of cel-go v0.26.0 (ext/lists.go): slice, flatten, sort,
// @sortByAssociatedKeys (what the `sortBy` macro expands to), lists.range, reverse, distinct.
// Version 3 only adds cost estimators / trackers, which live with the cost model.

type List = readonly CelValue[]

const T = typeParam('T')
const listT = listOf(T)

/** cel-go's comparableTypes, in declaration order (it names the sort overloads). */
const comparableTypes: readonly Type[] = [
  IntType,
  UintType,
  DoubleType,
  BoolType,
  DurationType,
  TimestampType,
  StringType,
  BytesType,
]

/**
 * Marks overloads that cel-go runs without its per-overload runtime type guards: `flatten` is
 * declared with decls.DisableTypeGuards(true) (so `dyn([1, 2]).flatten()` reaches the
 * implementation although its first element is no list), and `sort` / `@sortByAssociatedKeys`
 * have a single binding for all overloads (SingletonUnaryBinding / SingletonBinaryBinding) that
 * only checks the receiver is a list. The dispatcher should skip element-type guards for these.
 */
function unguarded(o: OverloadDecl): OverloadDecl {
  return Object.assign(o, { disableTypeGuards: true as const })
}

/** An int argument (number in the safe range, bigint outside it) as a JS number for range checks. */
function intArg(v: CelValue): number {
  return typeof v === 'bigint' ? Number(v) : (v as number)
}

// ---------------------------------------------------------------------------------------------
// slice

function slice(list: List, start: CelValue, end: CelValue): CelValue {
  const s = intArg(start)
  const e = intArg(end)
  if (s < 0 || e < 0) throw evalError(`cannot slice(${start}, ${end}), negative indexes not supported`)
  if (s > e) throw evalError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`)
  if (list.length < e) throw evalError(`cannot slice(${start}, ${end}), list is length ${list.length}`)
  return list.slice(s, e)
}

// ---------------------------------------------------------------------------------------------
// flatten

/** Go's %v of a value's runtime type as cel-go prints it in flatten's own overload errors. */
function runtimeTypeText(v: CelValue): string {
  switch (kindOf(v)) {
    case Kind.Null:
      return 'null_type'
    case Kind.Bool:
      return 'bool'
    case Kind.Int:
      return 'int'
    case Kind.Uint:
      return 'uint'
    case Kind.Double:
      return 'double'
    case Kind.String:
      return 'string'
    case Kind.Bytes:
      return 'bytes'
    // types.ListType / MapType are NewListType(nil) / NewMapType(nil, nil): their String() prints
    // the nil parameters as empty names.
    case Kind.List:
      return 'list()'
    case Kind.Map:
      return 'map(, )'
    case Kind.Timestamp:
      return 'google.protobuf.Timestamp'
    case Kind.Duration:
      return 'google.protobuf.Duration'
    case Kind.Type:
      return 'type'
    case Kind.Optional:
      return 'optional_type'
    default:
      return (v as unknown as { typeName?: string }).typeName ?? 'unknown'
  }
}

function flattenInto(out: CelValue[], list: List, depth: number): void {
  for (let i = 0; i < list.length; i++) {
    const v = list[i] as CelValue
    if (depth > 0 && Array.isArray(v)) flattenInto(out, v, depth - 1)
    else out.push(v)
  }
}

/**
 * The number of elements flatten(depth) produces, counting no further than `max` (a list that holds
 * one large sublist many times flattens to far more elements than it costs: cel-go charges the
 * input's size times the depth).
 */
function flattenedSize(list: List, depth: number, max: number): number {
  if (depth === 0) return list.length
  let n = 0
  for (let i = 0; i < list.length && n <= max; i++) {
    const v = list[i] as CelValue
    n += depth > 0 && Array.isArray(v) ? flattenedSize(v, depth - 1, max - n) : 1
  }
  return n
}

function flatten(list: CelValue, depth: number): CelValue {
  if (depth < 0) throw evalError('level must be non-negative')
  // refused before building when the budget (or, without one, the hard maximum) cannot hold it
  const left = Math.min(remainingBudget(), MAX_UNLIMITED_SIZE)
  const size = flattenedSize(list as List, depth, left)
  reserve('flatten', size, size)
  const out: CelValue[] = []
  flattenInto(out, list as List, depth)
  return out
}

function flatten0(list: CelValue): CelValue {
  // cel-go checks the receiver itself because the type guards are disabled.
  if (!Array.isArray(list)) throw evalError(`no such overload: ${runtimeTypeText(list)}.flatten()`)
  return flatten(list, 1)
}

function flatten1(list: CelValue, depth: CelValue): CelValue {
  const d = kindOf(depth) === Kind.Int ? intArg(depth) : Number.NaN
  if (!Array.isArray(list) || Number.isNaN(d)) {
    throw evalError(`no such overload: ${runtimeTypeText(list)}.flatten(${runtimeTypeText(depth)})`)
  }
  return flatten(list, d)
}

// ---------------------------------------------------------------------------------------------
// sort / @sortByAssociatedKeys

/** Whether the key is a traits.Comparer in cel-go (the kinds of comparableTypes). */
function isComparable(k: Kind): boolean {
  switch (k) {
    case Kind.Int:
    case Kind.Uint:
    case Kind.Double:
    case Kind.Bool:
    case Kind.Duration:
    case Kind.Timestamp:
    case Kind.String:
    case Kind.Bytes:
      return true
    default:
      return false
  }
}

/**
 * The `less` of cel-go's sort: `iKey.Compare(jKey) == -1`. All keys have one kind here. A NaN
 * double makes Compare return an error, which is simply "not less" (JS `<` says the same).
 */
function keyLess(kind: Kind): (a: CelValue, b: CelValue) => boolean {
  switch (kind) {
    case Kind.Int:
      // numbers and bigints compare exactly with `<`
      return (a, b) => (a as number) < (b as number)
    case Kind.Double:
      return (a, b) => doubleOf(a) < doubleOf(b)
    case Kind.String:
      return (a, b) => compareStrings(a as string, b as string) < 0
    default:
      return (a, b) => celCompare(a, b) < 0
  }
}

function doubleOf(v: CelValue): number {
  return typeof v === 'number' ? v : (v as Double).value
}

function sortByAssociatedKeys(list: CelValue, keys: CelValue): CelValue {
  // the singleton binding's ListerType trait (lists.go): `no such overload: sort` for a non-list
  if (!Array.isArray(list) || !Array.isArray(keys))
    throw noSuchOverloadFor(list === keys ? 'sort' : '@sortByAssociatedKeys', [list, keys])
  const n = list.length
  if (n !== keys.length) {
    throw evalError(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${n} and ${keys.length} elements respectively`,
    )
  }
  if (n === 0) return list
  const kind = kindOf(keys[0] as CelValue)
  if (!isComparable(kind)) throw evalError('list elements must be comparable')
  for (let i = 1; i < n; i++) {
    if (kindOf(keys[i] as CelValue) !== kind) throw evalError('list elements must have the same type')
  }
  const less = keyLess(kind)
  const idx = new Array<number>(n)
  for (let i = 0; i < n; i++) idx[i] = i
  goSortSlice(idx, (i, j) => less(keys[idx[i]!] as CelValue, keys[idx[j]!] as CelValue))
  const out = new Array<CelValue>(n)
  for (let i = 0; i < n; i++) out[i] = list[idx[i]!] as CelValue
  return out
}

function sortList(list: CelValue): CelValue {
  return sortByAssociatedKeys(list, list)
}

// ---------------------------------------------------------------------------------------------
// Go's sort.Slice (pdqsort, Go ≥ 1.19; src/sort/zsortfunc.go), ported so that elements with equal
// keys end in the same order as in kube-apiserver. It is stable for n ≤ 12 (insertion sort) but
// not beyond, exactly like cel-go's sort. `less(i, j)` compares the current slots i and j of `p`.

type Less = (i: number, j: number) => boolean

function goSortSlice(p: number[], less: Less): void {
  const n = p.length
  pdqsort(p, less, 0, n, bitsLen(n))
}

function bitsLen(x: number): number {
  return x === 0 ? 0 : 32 - Math.clz32(x)
}

function swap(p: number[], i: number, j: number): void {
  const t = p[i]!
  p[i] = p[j]!
  p[j] = t
}

function insertionSort(p: number[], less: Less, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(j, j - 1); j--) swap(p, j, j - 1)
  }
}

function siftDown(p: number[], less: Less, lo: number, hi: number, first: number): void {
  let root = lo
  for (;;) {
    let child = 2 * root + 1
    if (child >= hi) return
    if (child + 1 < hi && less(first + child, first + child + 1)) child++
    if (!less(first + root, first + child)) return
    swap(p, first + root, first + child)
    root = child
  }
}

function heapSort(p: number[], less: Less, a: number, b: number): void {
  const first = a
  const hi = b - a
  for (let i = ((hi - 1) / 2) | 0; i >= 0; i--) siftDown(p, less, i, hi, first)
  for (let i = hi - 1; i >= 0; i--) {
    swap(p, first, first + i)
    siftDown(p, less, 0, i, first)
  }
}

const unknownHint = 0
const increasingHint = 1
const decreasingHint = 2

function pdqsort(p: number[], less: Less, a: number, b: number, limit: number): void {
  let wasBalanced = true
  let wasPartitioned = true
  for (;;) {
    const length = b - a
    if (length <= 12) {
      insertionSort(p, less, a, b)
      return
    }
    if (limit === 0) {
      heapSort(p, less, a, b)
      return
    }
    if (!wasBalanced) {
      breakPatterns(p, a, b)
      limit--
    }
    let [pivot, hint] = choosePivot(less, a, b)
    if (hint === decreasingHint) {
      reverseRange(p, a, b)
      pivot = b - 1 - (pivot - a)
      hint = increasingHint
    }
    if (wasBalanced && wasPartitioned && hint === increasingHint) {
      if (partialInsertionSort(p, less, a, b)) return
    }
    if (a > 0 && !less(a - 1, pivot)) {
      a = partitionEqual(p, less, a, b, pivot)
      continue
    }
    const [mid, alreadyPartitioned] = partition(p, less, a, b, pivot)
    wasPartitioned = alreadyPartitioned
    const leftLen = mid - a
    const rightLen = b - mid
    const balanceThreshold = (length / 8) | 0
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold
      pdqsort(p, less, a, mid, limit)
      a = mid + 1
    } else {
      wasBalanced = rightLen >= balanceThreshold
      pdqsort(p, less, mid + 1, b, limit)
      b = mid
    }
  }
}

function partition(p: number[], less: Less, a: number, b: number, pivot: number): [number, boolean] {
  swap(p, a, pivot)
  let i = a + 1
  let j = b - 1
  while (i <= j && less(i, a)) i++
  while (i <= j && !less(j, a)) j--
  if (i > j) {
    swap(p, j, a)
    return [j, true]
  }
  swap(p, i, j)
  i++
  j--
  for (;;) {
    while (i <= j && less(i, a)) i++
    while (i <= j && !less(j, a)) j--
    if (i > j) break
    swap(p, i, j)
    i++
    j--
  }
  swap(p, j, a)
  return [j, false]
}

function partitionEqual(p: number[], less: Less, a: number, b: number, pivot: number): number {
  swap(p, a, pivot)
  let i = a + 1
  let j = b - 1
  for (;;) {
    while (i <= j && !less(a, i)) i++
    while (i <= j && less(a, j)) j--
    if (i > j) break
    swap(p, i, j)
    i++
    j--
  }
  return i
}

function partialInsertionSort(p: number[], less: Less, a: number, b: number): boolean {
  const maxSteps = 5
  const shortestShifting = 50
  let i = a + 1
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !less(i, i - 1)) i++
    if (i === b) return true
    if (b - a < shortestShifting) return false
    swap(p, i, i - 1)
    // Go shifts down to index 1 (not a + 1) here; kept as is.
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!less(j, j - 1)) break
        swap(p, j, j - 1)
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!less(j, j - 1)) break
        swap(p, j, j - 1)
      }
    }
  }
  return false
}

const MASK64 = (1n << 64n) - 1n

function breakPatterns(p: number[], a: number, b: number): void {
  const length = b - a
  if (length >= 8) {
    // xorshift64 seeded with the length (Go's sort.go; shifts 13, 7, 17 since Go 1.24).
    let r = BigInt(length)
    const modulus = BigInt(2 ** bitsLen(length))
    const from = a + ((length / 4) | 0) * 2 - 1
    for (let idx = from; idx <= from + 2; idx++) {
      r ^= (r << 13n) & MASK64
      r ^= r >> 7n
      r ^= (r << 17n) & MASK64
      let other = Number(r & (modulus - 1n))
      if (other >= length) other -= length
      swap(p, idx, a + other)
    }
  }
}

function choosePivot(less: Less, a: number, b: number): [number, number] {
  const shortestNinther = 50
  const maxSwaps = 4 * 3
  const l = b - a
  const q = (l / 4) | 0
  const swaps = { n: 0 }
  let i = a + q
  let j = a + q * 2
  let k = a + q * 3
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(less, i - 1, i, i + 1, swaps)
      j = median(less, j - 1, j, j + 1, swaps)
      k = median(less, k - 1, k, k + 1, swaps)
    }
    j = median(less, i, j, k, swaps)
  }
  if (swaps.n === 0) return [j, increasingHint]
  if (swaps.n === maxSwaps) return [j, decreasingHint]
  return [j, unknownHint]
}

function median(less: Less, a: number, b: number, c: number, swaps: { n: number }): number {
  // order2(a, b); order2(b, c); order2(a, b); return b
  if (less(b, a)) {
    swaps.n++
    const t = a
    a = b
    b = t
  }
  if (less(c, b)) {
    swaps.n++
    const t = b
    b = c
    c = t
  }
  if (less(b, a)) {
    swaps.n++
    const t = a
    a = b
    b = t
  }
  return b
}

function reverseRange(p: number[], a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) swap(p, i, j)
}

// ---------------------------------------------------------------------------------------------
// lists.range, reverse, distinct

/**
 * cel-go v0.29 ext/lists.go defaultMaxRangeSize (genRange refuses larger sizes before allocating;
 * v0.26 had no limit and returned [] for negative sizes).
 */
const maxRangeSize = 1_000_000

function range(n: CelValue): CelValue {
  const size = intArg(n)
  // cel-go v0.29 genRange's errors, checked before anything is built
  if (size < 0) throw evalError(`lists.range: size must be non-negative, got ${n}`)
  if (size > maxRangeSize) throw evalError(`lists.range: size ${n} exceeds maximum allowed (${maxRangeSize})`)
  // the list's cost (trackListOutputSize), refused up front when the budget cannot cover it
  reserve('lists.range', size, allocatingListCost(1, size))
  const out = new Array<CelValue>(size)
  for (let i = 0; i < size; i++) out[i] = i
  return out
}

/**
 * cel-go v0.26 genRange (Kubernetes 1.34–1.36): a negative size is the empty list. Sizes past the
 * maximum are refused as in v0.29 (v0.26 allocated until the process died: kelp never does).
 */
function rangeV026(n: CelValue): CelValue {
  return intArg(n) < 0 ? [] : range(n)
}

function reverse(list: List): CelValue {
  const n = list.length
  const out = new Array<CelValue>(n)
  for (let i = 0; i < n; i++) out[i] = list[n - 1 - i] as CelValue
  return out
}

/** First occurrences in order, by CEL equality (`[1, 1.0, 2].distinct() == [1, 2]`). */
function distinct(list: List): CelValue {
  const n = list.length
  if (n === 0) return list
  if (allIdentityComparable(list)) {
    // Strings, bools or safe ints only: CEL equality is `===`, so a Set does it in O(n).
    const seen = new Set<CelValue>()
    const out: CelValue[] = []
    for (let i = 0; i < n; i++) {
      const v = list[i] as CelValue
      if (!seen.has(v)) {
        seen.add(v)
        out.push(v)
      }
    }
    return out
  }
  const out: CelValue[] = []
  for (let i = 0; i < n; i++) {
    const v = list[i] as CelValue
    let seen = false
    for (let j = 0; j < out.length; j++) {
      if (elementEquals(v, out[j] as CelValue)) {
        seen = true
        break
      }
    }
    if (!seen) out.push(v)
  }
  return out
}

function allIdentityComparable(list: List): boolean {
  const t = typeof list[0]
  if (t !== 'string' && t !== 'boolean' && t !== 'number') return false
  for (let i = 0; i < list.length; i++) {
    const v = list[i]
    if (typeof v !== t || (t === 'number' && !Number.isSafeInteger(v))) return false
  }
  return true
}

// ---------------------------------------------------------------------------------------------
// Declarations

const tp = ['T']

function sortOverloads(): OverloadDecl[] {
  return comparableTypes.map((t) =>
    unguarded(memberOverload(`list_${t.name}_sort`, [listOf(t)], listOf(t), sortList as Impl)),
  )
}

function sortByOverloads(): OverloadDecl[] {
  return comparableTypes.map((u) =>
    unguarded(
      memberOverload(
        `list_${u.name}_sortByAssociatedKeys`,
        [listT, listOf(u)],
        listT,
        sortByAssociatedKeys as Impl,
        tp,
      ),
    ),
  )
}

export const listsExtFunctions: FunctionDecl[] = [
  fn('slice', memberOverload('list_slice', [listT, IntType, IntType], listT, slice as Impl, tp)),
  fn(
    'flatten',
    unguarded(memberOverload('list_flatten', [listOf(listT)], listT, flatten0 as Impl, tp)),
    unguarded(memberOverload('list_flatten_int', [listOf(DynType), IntType], listOf(DynType), flatten1 as Impl)),
  ),
  fn('sort', ...sortOverloads()),
  fn('@sortByAssociatedKeys', ...sortByOverloads()),
  fn('lists.range', overload('lists_range', [IntType], listOf(IntType), range as Impl)),
  fn('reverse', memberOverload('list_reverse', [listT], listT, reverse as Impl, tp)),
  fn('distinct', memberOverload('list_distinct', [listT], listT, distinct as Impl, tp)),
]

// ---------------------------------------------------------------------------------------------
// Run-time cost (cel-go v0.26.0 ext/lists.go ProgramOptions, version 3: interpreter.OverloadCostTracker)

/**
 * trackAllocatingListCall: the call (1), the list allocation (10) and `size × factor` (truncated as
 * Go's uint64(float64) conversion is).
 */
function allocatingListCost(factor: number, size: number): number {
  const scaled = size * factor
  return (scaled > 0 ? Math.floor(scaled) : 0) + 1 + ListCreateBaseCost
}

/**
 * trackListSelfCompare: an O(n²) pass, factor 2 (2.1 when the first element is a string or bytes). Its
 * callers assert the list (`args[0].(traits.Lister)`), which panics on a receiver that failed or is no
 * list (a `dyn` one): the evaluation ends with that panic's text and without the call's cost.
 */
function selfCompareCost(arg: CelValue): number {
  const list = assertLister(arg)
  const sz = list.length
  if (sz === 0) return allocatingListCost(2, 0)
  const first = list[0]
  const factor = typeof first === 'string' || first instanceof Uint8Array ? 2 + StringTraversalCostFactor : 2
  return allocatingListCost(factor, sz * sz)
}

/**
 * The extension's cost trackers, by function name: slice, lists.range and reverse by the size of the
 * result; flatten by the size of the input times the depth; distinct and sort by the square of the
 * list's size, @sortByAssociatedKeys (the `sortBy` macro) by the square of the keys' size. cel-go
 * keys them by overload id, so it applies them when the checker resolved the call to one overload
 * (a `sort` of a `list(dyn)` matches every sort overload and costs 1 there).
 */
export const listsExtRuntimeCosts: Readonly<Record<string, RuntimeCost>> = {
  slice: (_args, result) => allocatingListCost(1, actualSize(result)),
  'lists.range': (_args, result) => allocatingListCost(1, actualSize(result)),
  reverse: (_args, result) => allocatingListCost(1, actualSize(result)),
  flatten: (args) => {
    // trackListFlatten: `args[1].(types.Int)`, a panic on a failed or non-int (dyn) depth
    const depth = args.length === 2 ? Number(assertInt(args[1] as CelValue)) : 1
    return allocatingListCost(depth, actualSize(args[0] as CelValue))
  },
  distinct: ([list]) => selfCompareCost(list as CelValue),
  sort: ([list]) => selfCompareCost(list as CelValue),
  '@sortByAssociatedKeys': ([, keys]) => selfCompareCost(keys as CelValue),
}

/**
 * cel-go registers those trackers per overload id (lists.go ProgramOptions, interpreter.OverloadCostTracker):
 * a call the checker left with several candidate overloads (a receiver typed `dyn`) is charged 1.
 */
export const listsExtOverloadKeyedCosts: Readonly<Record<string, readonly string[]>> = {
  slice: ['list_slice'],
  'lists.range': ['lists_range'],
  reverse: ['list_reverse'],
  flatten: ['list_flatten', 'list_flatten_int'],
  distinct: ['list_distinct'],
  sort: comparableTypes.map((t) => `list_${t.name}_sort`),
  '@sortByAssociatedKeys': comparableTypes.map((t) => `list_${t.name}_sortByAssociatedKeys`),
}

/** The functions of ext.Lists(ListsVersion(3)) in cel-go v0.26: lists.range of a negative size is []. */
export const listsExtFunctionsV026: FunctionDecl[] = listsExtFunctions.map((f) =>
  f.name === 'lists.range'
    ? { ...f, overloads: f.overloads.map((o) => (o.id === 'lists_range' ? { ...o, impl: rangeV026 as Impl } : o)) }
    : f,
)
