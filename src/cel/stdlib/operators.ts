import { ErrorValue } from '../common/errors.js'
import { reserve, stringUnits } from '../cost/budget.js'
import { type FunctionDecl, fn, memberOverload, overload } from '../functions.js'
import {
  BoolType,
  BytesType,
  DoubleType,
  DynType,
  IntType,
  listOf,
  mapOf,
  optionalOf,
  StringType,
  typeParam,
  UintType,
} from '../types/types.js'
import {
  celCompare,
  celEquals,
  celNotEquals,
  compareBytes,
  compareNumbers,
  elementEquals,
  nanOrderError,
} from '../values/equality.js'
import { goValueString } from '../values/format.js'
import { type CelMapValue, isMap, mapGet, mapHas, mapSize } from '../values/maps.js'
import { codePointLength, compareStrings } from '../values/strings.js'
import { noSuchOverloadFor } from '../values/traits.js'
import { qualifierGoType, typeNameOf } from '../values/typeof.js'
import { type CelValue, Double, Kind, ListValue, mkDouble, Uint } from '../values/values.js'
import {
  addInt,
  addUint,
  divideInt,
  divideUint,
  doubleToIntLossless,
  INT64_MAX,
  type Int,
  moduloInt,
  moduloUint,
  multiplyInt,
  multiplyUint,
  negateInt,
  subtractInt,
  subtractUint,
} from './int64.js'

// cel-go v0.26 standard operators (common/stdlib/standard.go; overload ids from
// common/overloads/overloads.go). Timestamp and duration overloads of the arithmetic and
// relational operators live in ./time.ts.

export {
  addInt,
  addUint,
  divideInt,
  divideUint,
  moduloInt,
  moduloUint,
  multiplyInt,
  multiplyUint,
  negateInt,
  subtractInt,
  subtractUint,
}

/** A double value: a plain number, or a Double wrapping an integral one. */
export type Dbl = number | Double

function dv(v: Dbl): number {
  return typeof v === 'number' ? v : v.value
}

// ---- doubles: IEEE 754, no errors (1.0 / 0.0 is +Inf)

export function addDouble(a: Dbl, b: Dbl): number | Double {
  return mkDouble(dv(a) + dv(b))
}
export function subtractDouble(a: Dbl, b: Dbl): number | Double {
  return mkDouble(dv(a) - dv(b))
}
export function multiplyDouble(a: Dbl, b: Dbl): number | Double {
  return mkDouble(dv(a) * dv(b))
}
export function divideDouble(a: Dbl, b: Dbl): number | Double {
  return mkDouble(dv(a) / dv(b))
}
export function negateDouble(a: Dbl): number | Double {
  return mkDouble(-dv(a))
}

// ---- concatenation

export function addString(a: string, b: string): string {
  return a + b
}

export function addBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  // its cost (`ceil((size(a) + size(b)) * 0.1)`, charged after the call), refused before allocating
  reserve('_+_', a.length + b.length, stringUnits(a.length + b.length))
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/** List concatenation; an empty side returns the other list itself (lists are immutable). */
export function addList(a: readonly CelValue[], b: readonly CelValue[]): readonly CelValue[] {
  if (a.length === 0 && !(a instanceof ListValue)) return b
  if (b.length === 0 && !(a instanceof ListValue)) return a
  // cel-go concatenates lazily (cost 1); kelp copies, so the copy counts against the budget:
  // repeated doubling (`[a + a].all(b, [b + b].all(...))`) ends with the cost-limit error.
  reserve('_+_', a.length + b.length, a.length + b.length)
  if (a instanceof ListValue) return a.add(b)
  return a.concat(b)
}

// ---- logic and equality

export function logicalNot(a: boolean): boolean {
  return !a
}

export function equals(a: CelValue, b: CelValue): boolean {
  return celEquals(a, b)
}

export function notEquals(a: CelValue, b: CelValue): boolean {
  return celNotEquals(a, b)
}

// ---- ordering. The generic forms serve any comparable pair (cel-go dispatches every relational
// overload to traits.Comparer.Compare); the typed forms are the hot paths of single overloads.

export function lessThan(a: CelValue, b: CelValue): boolean {
  return compareAs('_<_', a, b) < 0
}
export function lessEquals(a: CelValue, b: CelValue): boolean {
  return compareAs('_<=_', a, b) <= 0
}
export function greaterThan(a: CelValue, b: CelValue): boolean {
  return compareAs('_>_', a, b) > 0
}
export function greaterEquals(a: CelValue, b: CelValue): boolean {
  return compareAs('_>=_', a, b) >= 0
}

/** celCompare, with cel-go's text for a left operand that is no Comparer (`no such overload: _<_`). */
function compareAs(fn: string, a: CelValue, b: CelValue): number {
  try {
    return celCompare(a, b)
  } catch (e) {
    if (e instanceof ErrorValue && e.message === 'no such overload') throw noSuchOverloadFor(fn, [a, b])
    throw e
  }
}

// int↔int and int↔uint compare exactly with JS relational operators on number/bigint mixes.
export function lessInt(a: Int, b: Int): boolean {
  return a < b
}
export function lessEqualsInt(a: Int, b: Int): boolean {
  return a <= b
}
export function greaterInt(a: Int, b: Int): boolean {
  return a > b
}
export function greaterEqualsInt(a: Int, b: Int): boolean {
  return a >= b
}

export function lessDouble(a: Dbl, b: Dbl): boolean {
  const x = dv(a)
  const y = dv(b)
  if (x < y) return true
  if (Number.isNaN(x) || Number.isNaN(y)) throw nanOrderError()
  return false
}
export function lessEqualsDouble(a: Dbl, b: Dbl): boolean {
  const x = dv(a)
  const y = dv(b)
  if (x <= y) return true
  if (Number.isNaN(x) || Number.isNaN(y)) throw nanOrderError()
  return false
}
export function greaterDouble(a: Dbl, b: Dbl): boolean {
  return lessDouble(b, a)
}
export function greaterEqualsDouble(a: Dbl, b: Dbl): boolean {
  return lessEqualsDouble(b, a)
}

export function lessString(a: string, b: string): boolean {
  return compareStrings(a, b) < 0
}
export function lessEqualsString(a: string, b: string): boolean {
  return compareStrings(a, b) <= 0
}
export function greaterString(a: string, b: string): boolean {
  return compareStrings(a, b) > 0
}
export function greaterEqualsString(a: string, b: string): boolean {
  return compareStrings(a, b) >= 0
}

// ---- indexing, membership, size

/**
 * `list[i]` (the attribute path of cel-go's interpreter: refQualify, missingIndex). Declared for an
 * int index; a dyn uint or double index that converts losslessly to int works too, as in cel-go.
 */
export function indexList(l: readonly CelValue[], i: CelValue): CelValue {
  if (typeof i === 'number' && i >= 0 && i < l.length && Number.isInteger(i)) return l[i] as CelValue
  checkQualifier(i)
  const n = listIndexOf(i)
  if (typeof n === 'number' && n >= 0 && n < l.length) return l[n] as CelValue
  throw new ErrorValue(`index out of bounds: ${goValueString(i)}`)
}

/** `map[key]`: cel-go's key look-up, `no such key: %v` when absent. */
export function indexMap(m: CelMapValue, key: CelValue): CelValue {
  if (typeof key !== 'string') checkQualifier(key)
  const v = mapGet(m, key)
  if (v === undefined) throw new ErrorValue(`no such key: ${goValueString(key)}`)
  return v
}

/**
 * `c[k]` for any operands, as cel-go's interpreter qualifies a value (interpreter/attributes.go
 * refQualify with types.IndexOrError): lists accept int indices and uint / double indices that
 * convert losslessly to int; maps use their key look-up; anything else has `no such key`.
 */
export function index(c: CelValue, k: CelValue): CelValue {
  if (Array.isArray(c)) return indexList(c, k)
  if (isMap(c)) return indexMap(c, k)
  checkQualifier(k)
  throw new ErrorValue(`no such key: ${goValueString(k)}`)
}

/**
 * cel-go qualifies by the index's value (attributes.go attrQualify → newQualifier), which refuses any
 * value but a string, int, uint, bool or double before it looks at the operand: `m[[1]]` is `invalid
 * qualifier type: *types.baseList`, not a missing key.
 */
function checkQualifier(k: CelValue): void {
  const goType = qualifierGoType(k)
  if (goType !== undefined) throw new ErrorValue(`invalid qualifier type: ${goType}`)
}

/** cel-go types.IndexOrError. */
function listIndexOf(k: CelValue): Int {
  switch (typeof k) {
    case 'bigint':
      return k
    case 'number': {
      if (Number.isSafeInteger(k)) return k
      const i = doubleToIntLossless(k)
      if (i === undefined) throw new ErrorValue(`unsupported index value ${goValueString(k)} in list`)
      return i
    }
    case 'object':
      if (k instanceof Double) return k.value + 0
      if (k instanceof Uint) {
        if (k.value > INT64_MAX) throw new ErrorValue(`unsupported index value ${k.value} in list`)
        return Number(k.value) // beyond 2^53 it is out of bounds either way
      }
  }
  throw new ErrorValue(`unsupported index type '${typeNameOf(k)}' in list`)
}

/** `v in list`: heterogeneous equality with each element (cel-go baseList.Contains). */
export function inList(v: CelValue, l: readonly CelValue[]): boolean {
  for (let i = 0; i < l.length; i++) if (elementEquals(v, l[i] as CelValue)) return true
  return false
}

/** `k in map`: key presence with cel-go's numeric key look-up. */
export function inMap(k: CelValue, m: CelMapValue): boolean {
  return mapHas(m, k)
}

/** `v in c` for any operands. */
export function inValue(v: CelValue, c: CelValue): boolean {
  if (Array.isArray(c)) return inList(v, c)
  if (isMap(c)) return mapHas(c, v)
  throw noSuchOverloadFor('@in', [v, c])
}

/** size(string) counts code points (cel-go String.Size: len([]rune(s))). */
export function sizeString(s: string): number {
  return codePointLength(s)
}
export function sizeBytes(b: Uint8Array): number {
  return b.length
}
export function sizeList(l: readonly CelValue[]): number {
  return l.length
}
export function sizeMap(m: CelMapValue): number {
  return mapSize(m)
}

/** size(x) for any sized value. */
export function size(v: CelValue): number {
  if (typeof v === 'string') return codePointLength(v)
  if (Array.isArray(v)) return v.length
  if (v instanceof Uint8Array) return v.length
  if (isMap(v)) return mapSize(v)
  throw noSuchOverloadFor('size', [v])
}

// ---- declarations

/** The compiler implements these itself (non-strict or special forms); the declarations type-check them. */
function specialForm(): never {
  throw new Error('special form: evaluated by the compiler, not called')
}

const A = typeParam('A')
const B = typeParam('B')
const K = typeParam('K')
const V = typeParam('V')
const listA = listOf(A)
const mapAB = mapOf(A, B)
const listV = listOf(V)
const mapKV = mapOf(K, V)
const optV = optionalOf(V)
const Bool = BoolType
const Int_ = IntType
const Uint_ = UintType
const Double_ = DoubleType
const Str = StringType
const Bytes = BytesType

// cross-type numeric comparisons (CrossTypeNumericComparisons, which Kubernetes enables)
const cmp = (f: (c: number) => boolean) => (a: CelValue, b: CelValue) =>
  f(compareNumbers(a, kindOfNum(a), b, kindOfNum(b)))
function kindOfNum(v: CelValue): Kind {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? Kind.Int : Kind.Double
  if (typeof v === 'bigint') return Kind.Int
  return v instanceof Uint ? Kind.Uint : Kind.Double
}
function relational(
  name: string,
  prefix: string,
  ints: (a: Int, b: Int) => boolean,
  doubles: (a: Dbl, b: Dbl) => boolean,
  strings: (a: string, b: string) => boolean,
  test: (c: number) => boolean,
): FunctionDecl {
  const generic = cmp(test)
  return fn(
    name,
    overload(`${prefix}_bool`, [Bool, Bool], Bool, (a: boolean, b: boolean) => test(a === b ? 0 : a ? 1 : -1)),
    overload(`${prefix}_int64`, [Int_, Int_], Bool, ints),
    overload(`${prefix}_int64_double`, [Int_, Double_], Bool, generic),
    overload(`${prefix}_int64_uint64`, [Int_, Uint_], Bool, (a: Int, b: Uint) =>
      test(a < b.value ? -1 : a > b.value ? 1 : 0),
    ),
    overload(`${prefix}_uint64`, [Uint_, Uint_], Bool, (a: Uint, b: Uint) =>
      test(a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
    ),
    overload(`${prefix}_uint64_double`, [Uint_, Double_], Bool, generic),
    overload(`${prefix}_uint64_int64`, [Uint_, Int_], Bool, (a: Uint, b: Int) =>
      test(a.value < b ? -1 : a.value > b ? 1 : 0),
    ),
    overload(`${prefix}_double`, [Double_, Double_], Bool, doubles),
    overload(`${prefix}_double_int64`, [Double_, Int_], Bool, generic),
    overload(`${prefix}_double_uint64`, [Double_, Uint_], Bool, generic),
    overload(`${prefix}_string`, [Str, Str], Bool, strings),
    overload(`${prefix}_bytes`, [Bytes, Bytes], Bool, (a: Uint8Array, b: Uint8Array) => test(compareBytes(a, b))),
  )
}

export const operatorFunctions: FunctionDecl[] = [
  // Special forms: short-circuiting / non-strict, compiled directly.
  fn('_?_:_', overload('conditional', [Bool, A, A], A, specialForm, ['A'])),
  fn('_&&_', overload('logical_and', [Bool, Bool], Bool, specialForm)),
  fn('_||_', overload('logical_or', [Bool, Bool], Bool, specialForm)),
  fn('@not_strictly_false', overload('not_strictly_false', [Bool], Bool, specialForm)),
  // cel.OptionalTypes() syntax (cel/library.go): `a.?b` and `a[?b]`.
  fn('_?._', overload('select_optional_field', [DynType, Str], optV, specialForm, ['V'])),
  fn(
    '_[?_]',
    overload('list_optindex_optional_int', [listV, Int_], optV, specialForm, ['V']),
    overload('optional_list_optindex_optional_int', [optionalOf(listV), Int_], optV, specialForm, ['V']),
    overload('map_optindex_optional_value', [mapKV, K], optV, specialForm, ['K', 'V']),
    overload('optional_map_optindex_optional_value', [optionalOf(mapKV), K], optV, specialForm, ['K', 'V']),
  ),

  fn('!_', overload('logical_not', [Bool], Bool, logicalNot)),
  fn('_==_', overload('equals', [A, A], Bool, equals, ['A'])),
  fn('_!=_', overload('not_equals', [A, A], Bool, notEquals, ['A'])),

  fn(
    '_+_',
    overload('add_bytes', [Bytes, Bytes], Bytes, addBytes),
    overload('add_double', [Double_, Double_], Double_, addDouble),
    overload('add_int64', [Int_, Int_], Int_, addInt),
    overload('add_list', [listA, listA], listA, addList, ['A']),
    overload('add_string', [Str, Str], Str, addString),
    overload('add_uint64', [Uint_, Uint_], Uint_, addUint),
  ),
  fn(
    '_/_',
    overload('divide_double', [Double_, Double_], Double_, divideDouble),
    overload('divide_int64', [Int_, Int_], Int_, divideInt),
    overload('divide_uint64', [Uint_, Uint_], Uint_, divideUint),
  ),
  fn(
    '_%_',
    overload('modulo_int64', [Int_, Int_], Int_, moduloInt),
    overload('modulo_uint64', [Uint_, Uint_], Uint_, moduloUint),
  ),
  fn(
    '_*_',
    overload('multiply_double', [Double_, Double_], Double_, multiplyDouble),
    overload('multiply_int64', [Int_, Int_], Int_, multiplyInt),
    overload('multiply_uint64', [Uint_, Uint_], Uint_, multiplyUint),
  ),
  fn(
    '-_',
    overload('negate_double', [Double_], Double_, negateDouble),
    overload('negate_int64', [Int_], Int_, negateInt),
  ),
  fn(
    '_-_',
    overload('subtract_double', [Double_, Double_], Double_, subtractDouble),
    overload('subtract_int64', [Int_, Int_], Int_, subtractInt),
    overload('subtract_uint64', [Uint_, Uint_], Uint_, subtractUint),
  ),

  relational('_<_', 'less', lessInt, lessDouble, lessString, (c) => c < 0),
  relational('_<=_', 'less_equals', lessEqualsInt, lessEqualsDouble, lessEqualsString, (c) => c <= 0),
  relational('_>_', 'greater', greaterInt, greaterDouble, greaterString, (c) => c > 0),
  relational('_>=_', 'greater_equals', greaterEqualsInt, greaterEqualsDouble, greaterEqualsString, (c) => c >= 0),

  fn(
    '_[_]',
    overload('index_list', [listA, Int_], A, indexList, ['A']),
    overload('index_map', [mapAB, A], B, indexMap, ['A', 'B']),
  ),
  fn(
    '@in',
    overload('in_list', [A, listA], Bool, inList, ['A']),
    overload('in_map', [A, mapAB], Bool, inMap, ['A', 'B']),
  ),
  fn(
    'size',
    overload('size_bytes', [Bytes], Int_, sizeBytes),
    memberOverload('bytes_size', [Bytes], Int_, sizeBytes),
    overload('size_list', [listA], Int_, sizeList, ['A']),
    memberOverload('list_size', [listA], Int_, sizeList, ['A']),
    overload('size_map', [mapAB], Int_, sizeMap, ['A', 'B']),
    memberOverload('map_size', [mapAB], Int_, sizeMap, ['A', 'B']),
    overload('size_string', [Str], Int_, sizeString),
    memberOverload('string_size', [Str], Int_, sizeString),
  ),
]
