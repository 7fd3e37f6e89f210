import { ErrorValue, evalError, noSuchOverload } from '../common/errors.js'
import { optionalIndex, optionalSelect } from '../ext/optionals.js'
import type { Impl } from '../functions.js'
import { celEquals, celNotEquals } from '../values/equality.js'
import { buildMap, mapEntries, mapGet, mapHas, mapKeys } from '../values/maps.js'
import { compareStrings } from '../values/strings.js'
import { goTypeName } from '../values/typeof.js'
import { CelMap, type CelValue, isPlainMap, MapValue, Optional } from '../values/values.js'

// Helpers the compiled programs call. Both back ends (generated JS and closures) call exactly
// these, so their semantics cannot drift apart; the fast paths here are the common JSON cases
// and everything else goes to the environment's overloads.

/**
 * `operand.field`, as cel-go's attribute qualification (interpreter/attributes.go refQualify): maps
 * by key (missing → `no such key: field`), optionals chain, a list rejects a string index, and
 * anything else has no such key. A property holding `undefined` (not a JSON value) is absent.
 */
export function select(operand: CelValue, field: string): CelValue {
  if (isPlainMap(operand)) {
    const v = operand[field]
    if (v !== undefined && Object.hasOwn(operand, field)) return v as CelValue
    throw evalError(`no such key: ${field}`)
  }
  if (operand instanceof CelMap || operand instanceof MapValue) {
    const v = mapGet(operand, field)
    if (v === undefined) throw evalError(`no such key: ${field}`)
    return v
  }
  if (operand instanceof Optional) return optionalSelect(operand, field)
  if (Array.isArray(operand)) throw evalError("unsupported index type 'string' in list")
  throw evalError(`no such key: ${field}`)
}

/** `select` for generated code: an optional operand bails (its cost depends on presence). */
export function selectJs(operand: CelValue, field: string): CelValue {
  // a lazy map first (admission's `variables`: most selections the generated code does not inline)
  if (operand instanceof MapValue) {
    const v = operand.find(field)
    if (v === undefined) throw evalError(`no such key: ${field}`)
    return v
  }
  if (operand instanceof Optional) bail()
  return select(operand, field)
}

/**
 * The cost of a qualifier applied to an optional (cel-go evalWatchConstQual.QualifyIfPresent, and
 * the other watched qualifiers: observed only when the value is present): 1 when `r` has a value.
 */
export function presence(r: CelValue): number {
  return r instanceof Optional && r.value !== undefined ? 1 : 0
}

/**
 * `has(operand.field)`: presence on maps and optionals; a presence test on a value that is no
 * container is simply false (cel-go refQualify without EnableErrorOnBadPresenceTest, as Kubernetes
 * runs it), except on a list, which rejects the string index.
 */
export function has(operand: CelValue, field: string): boolean {
  if (isPlainMap(operand)) return operand[field] !== undefined && Object.hasOwn(operand, field)
  if (operand instanceof CelMap || operand instanceof MapValue) return mapHas(operand, field)
  if (operand instanceof Optional) return operand.value === undefined ? false : has(operand.value, field)
  if (Array.isArray(operand)) throw evalError("unsupported index type 'string' in list")
  return false
}

/** The operator helpers of one environment: fast paths inline, the env's overloads otherwise. */
export interface Ops {
  eq(a: CelValue, b: CelValue): boolean
  ne(a: CelValue, b: CelValue): boolean
  lt(a: CelValue, b: CelValue): CelValue
  le(a: CelValue, b: CelValue): CelValue
  gt(a: CelValue, b: CelValue): CelValue
  ge(a: CelValue, b: CelValue): CelValue
  add(a: CelValue, b: CelValue): CelValue
  sub(a: CelValue, b: CelValue): CelValue
  index(a: CelValue, b: CelValue): CelValue
  /** `index` for generated code: an optional operand bails (its cost depends on presence). */
  indexJs(a: CelValue, b: CelValue): CelValue
  in(a: CelValue, b: CelValue): CelValue
  size(a: CelValue): CelValue
  not(a: CelValue): CelValue
}

export function makeOps(slow: {
  lt: Impl
  le: Impl
  gt: Impl
  ge: Impl
  add: Impl
  sub: Impl
  index: Impl
  in: Impl
  size: Impl
}): Ops {
  return {
    eq: (a, b) => (typeof a === typeof b && typeof a !== 'object' ? a === b : celEquals(a, b)),
    ne: (a, b) => (typeof a === typeof b && typeof a !== 'object' ? a !== b : celNotEquals(a, b)),
    // Numbers of any CEL numeric type compare by value (cross-type numeric comparison); NaN takes the slow path.
    lt: (a, b) =>
      typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)
        ? a < b
        : typeof a === 'string' && typeof b === 'string'
          ? compareStrings(a, b) < 0
          : slow.lt(a, b),
    le: (a, b) =>
      typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)
        ? a <= b
        : typeof a === 'string' && typeof b === 'string'
          ? compareStrings(a, b) <= 0
          : slow.le(a, b),
    gt: (a, b) =>
      typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)
        ? a > b
        : typeof a === 'string' && typeof b === 'string'
          ? compareStrings(a, b) > 0
          : slow.gt(a, b),
    ge: (a, b) =>
      typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)
        ? a >= b
        : typeof a === 'string' && typeof b === 'string'
          ? compareStrings(a, b) >= 0
          : slow.ge(a, b),
    add: (a, b) => {
      if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
        const r = a + b
        if (Number.isSafeInteger(r)) return r
      } else if (typeof a === 'string' && typeof b === 'string') return a + b
      return slow.add(a, b)
    },
    sub: (a, b) => {
      if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
        const r = a - b
        if (Number.isSafeInteger(r)) return r || 0
      }
      return slow.sub(a, b)
    },
    index: (a, b) => {
      if (Array.isArray(a)) {
        if (typeof b === 'number' && Number.isSafeInteger(b) && b >= 0 && b < a.length) return a[b] as CelValue
      } else if (typeof b === 'string' && isPlainMap(a) && Object.hasOwn(a, b)) return a[b] as CelValue
      if (a instanceof Optional) return optionalIndex(a, b)
      return slow.index(a, b)
    },
    indexJs: (a, b) => {
      if (Array.isArray(a)) {
        if (typeof b === 'number' && Number.isSafeInteger(b) && b >= 0 && b < a.length) return a[b] as CelValue
      } else if (typeof b === 'string' && isPlainMap(a) && Object.hasOwn(a, b)) return a[b] as CelValue
      if (a instanceof Optional) bail()
      return slow.index(a, b)
    },
    in: (a, b) => {
      if (typeof a === 'string' && isPlainMap(b)) return Object.hasOwn(b, a)
      return slow.in(a, b)
    },
    size: (a) => (Array.isArray(a) ? a.length : slow.size(a)),
    not: (a) => {
      if (typeof a === 'boolean') return !a
      throw noSuchOverload()
    },
  }
}

/** Iteration range of a comprehension: list elements, or map keys (cel-go's iterator). */
export function iterRange(v: CelValue): readonly CelValue[] {
  if (Array.isArray(v)) return v
  if (isPlainMap(v)) return Object.keys(v)
  if (v instanceof CelMap || v instanceof MapValue) return mapKeys(v)
  throw evalError(`got '${typeName(v)}', expected iterable type`)
}

/** For two-variable comprehensions: [index or key, value] pairs. */
export function iterPairs(v: CelValue): [CelValue, CelValue][] {
  if (Array.isArray(v)) return v.map((e, i) => [i, e as CelValue])
  if (isPlainMap(v)) return Object.keys(v).map((k) => [k, v[k] as CelValue])
  if (v instanceof CelMap) return [...v.entries.values()]
  if (v instanceof MapValue) return mapEntries(v)
  // interpretable.go evalFold with two variables
  throw evalError(`unsupported comprehension range type: ${typeName(v)}`)
}

function typeName(v: CelValue): string {
  // cel-go prints the Go type of the value here (e.g. types.Int)
  return goTypeName(v) ?? 'object'
}

/** Reading a comprehension accumulator: an error value held there is raised on read. */
export function accu(v: CelValue | ErrorValue): CelValue {
  if (v instanceof ErrorValue) throw v
  return v
}

/** Runs a step, keeping an error as the accumulator's value (cel-go keeps errors as values). */
export function caught(e: unknown): ErrorValue {
  if (e instanceof ErrorValue) return e
  throw e
}

/** cel-go's logical_and once neither side was `false`: true only when both are true; else the error. */
export function andFail(l: CelValue | ErrorValue, r: CelValue | ErrorValue): boolean {
  if (l === true && r === true) return true
  throw termError(l, r)
}

/**
 * evalAnd / evalOr: the first term that is no bool decides the error, its own or `no such overload`
 * (`dyn('s') || object.missing` is no such overload, not the missing key).
 */
function termError(l: CelValue | ErrorValue, r: CelValue | ErrorValue): ErrorValue {
  for (const t of [l, r]) {
    if (t instanceof ErrorValue) return t
    if (typeof t !== 'boolean') return noSuchOverload()
  }
  return noSuchOverload()
}

/** cel-go's logical_or once neither side was `true`: false only when both are false; else the error. */
export function orFail(l: CelValue | ErrorValue, r: CelValue | ErrorValue): boolean {
  if (l === false && r === false) return false
  throw termError(l, r)
}

export { optionalIndex, optionalSelect }

export function isError(v: unknown): v is ErrorValue {
  return v instanceof ErrorValue
}

export function fail(message: string): never {
  throw evalError(message)
}

export { noSuchOverload }

/** `c ? a : b` with a non-bool condition. */
export function condFail(_c: CelValue): never {
  throw noSuchOverload()
}

/** A declared variable read from the activation (own properties only). */
export function variable(act: Readonly<Record<string, CelValue>>, name: string): CelValue {
  if (Object.hasOwn(act, name)) return act[name] as CelValue
  return missingVar(name)
}

/** A variable the plan expected in the activation (declared, but not supplied). */
export function missingVar(name: string): never {
  throw evalError(`no such attribute(s): ${name}`)
}

/**
 * An undeclared (possibly dotted) name resolved against the activation: the most qualified
 * candidate the activation has wins, remaining parts are field selections (cel-go's maybe-attributes).
 */
export function resolveAttr(
  act: Readonly<Record<string, CelValue>>,
  candidates: readonly { name: string; fields: readonly string[] }[],
): CelValue {
  for (const c of candidates) {
    if (Object.hasOwn(act, c.name)) {
      let v = act[c.name] as CelValue
      for (const f of c.fields) v = select(v, f)
      return v
    }
  }
  // cel-go reports the candidate names of the most qualified attribute (the whole dotted name).
  const full = candidates.filter((c) => c.fields.length === 0).map((c) => c.name)
  throw evalError(`no such attribute(s): ${full.join(', ')}`)
}

/** `[a, ?b]`: optional elements are included only when they hold a value. */
export function optionalList(elems: CelValue[], optional: readonly boolean[]): CelValue[] {
  const out: CelValue[] = []
  for (let i = 0; i < elems.length; i++) {
    const v = elems[i] as CelValue
    if (!optional[i]) out.push(v)
    else if (v instanceof Optional) {
      if (v.value !== undefined) out.push(v.value)
    } else throw evalError(`cannot initialize optional list element from non-optional value ${String(v)}`)
  }
  return out
}

/** A map literal; `{?k: v}` entries are included only when v holds a value. */
export function mapLiteral(keys: CelValue[], values: CelValue[], optional: readonly boolean[] | null): CelValue {
  if (!optional) return buildMap(keys, values)
  const ks: CelValue[] = []
  const vs: CelValue[] = []
  for (let i = 0; i < keys.length; i++) {
    const v = values[i] as CelValue
    if (!optional[i]) {
      ks.push(keys[i] as CelValue)
      vs.push(v)
    } else if (v instanceof Optional) {
      if (v.value !== undefined) {
        ks.push(keys[i] as CelValue)
        vs.push(v.value)
      }
    } else throw evalError(`cannot initialize optional entry '${String(keys[i])}' from non-optional value ${String(v)}`)
  }
  return buildMap(ks, vs)
}

/** `a.or(b)` / `a.orValue(b)`: b is evaluated only when a is optional.none() (cel-go decorateOptionalOr). */
export {
  orShortCircuit,
  orShortCircuitV029,
  orValueShortCircuit,
  orValueShortCircuitV029,
} from '../ext/optionals.js'

/** Thrown by generated code when a case needs the exact (closure) evaluator. */
export const BAIL: unique symbol = Symbol('kelp.bail')

export function bail(): never {
  throw BAIL
}

// cel-go's EvalCancelledError for the cost limit (defined with the allocation guards that also raise it).
export { CostLimitExceeded } from '../cost/budget.js'

/** Cost of resolving an undeclared (dotted) name: the attribute and each remaining qualifier. */
export function attrCost(
  act: Readonly<Record<string, CelValue>>,
  candidates: readonly { name: string; fields: readonly string[] }[],
): number {
  for (const c of candidates) if (Object.hasOwn(act, c.name)) return 1 + c.fields.length
  return 1
}

export {
  actualSize,
  addCost,
  argTraversalCost,
  containsCost,
  inCost,
  matchesCost,
  minSizeCost,
  orderingCost,
  receiverTraversalCost,
  traversalCost,
} from '../cost/runtime.js'
