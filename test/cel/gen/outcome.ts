import { CelError, type CelStage } from '../../../src/cel/common/errors.js'
import { type Activation, type CompileOptions, compile, type Program } from '../../../src/cel/program.js'
import { Type } from '../../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../../src/cel/values/time.js'
import { CelMap, type CelValue, Double, OpaqueValue, Optional, Uint } from '../../../src/cel/values/values.js'

// What running an expression produced, in a form two runs can be compared by: a value, or a
// CelError's stage and message. Anything thrown that is not a CelError is rethrown, so a property
// that runs expressions fails on it with the original exception.

export type Outcome =
  | { readonly ok: true; readonly value: CelValue }
  | { readonly ok: false; readonly stage: CelStage; readonly message: string }

function asOutcome(e: unknown): Outcome {
  if (e instanceof CelError) return { ok: false, stage: e.stage, message: e.message }
  throw e
}

/** Compiles; a CelError becomes an outcome. */
export function compileOutcome(expr: string, options: CompileOptions = {}): Program | Outcome {
  try {
    return compile(expr, options)
  } catch (e) {
    return asOutcome(e)
  }
}

export function evalOutcome(program: Program, act: Activation): Outcome {
  try {
    return { ok: true, value: program.evaluate(act) }
  } catch (e) {
    return asOutcome(e)
  }
}

/** Compiles and evaluates. */
export function run(expr: string, act: Activation = {}, options: CompileOptions = {}): Outcome {
  const p = compileOutcome(expr, options)
  return 'ok' in p ? p : evalOutcome(p, act)
}

export function sameOutcome(a: Outcome, b: Outcome): boolean {
  if (a.ok && b.ok) return sameValue(a.value, b.value)
  if (!a.ok && !b.ok) return a.stage === b.stage && a.message === b.message
  return false
}

const SAFE = 9007199254740991n

function entriesOf(m: CelValue): [CelValue, CelValue][] | undefined {
  if (m instanceof CelMap) return [...m.entries.values()]
  if (m === null || typeof m !== 'object' || Array.isArray(m) || m instanceof Uint8Array) return undefined
  if (m instanceof Timestamp || m instanceof Duration || m instanceof Double || m instanceof Uint) return undefined
  if (m instanceof Optional || m instanceof Type || m instanceof OpaqueValue) return undefined
  return Object.keys(m).map((k) => [k, (m as Record<string, CelValue>)[k] as CelValue])
}

/**
 * Strict typed deep equality: int, uint and double differ (`1`, `new Uint(1n)`, `new Double(1)`),
 * NaN equals NaN and -0.0 differs from 0.0 (the same computation gives the same bits), maps compare
 * as sets of entries whatever their representation and order.
 */
export function sameValue(a: CelValue, b: CelValue): boolean {
  if (typeof a !== 'object' || a === null) return typeof a === typeof b && Object.is(a, b)
  if (typeof b !== 'object' || b === null) return false
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i])
  if (a instanceof Double) return b instanceof Double && Object.is(a.value, b.value)
  if (a instanceof Uint) return b instanceof Uint && a.value === b.value
  if (a instanceof Timestamp)
    return b instanceof Timestamp && a.seconds === b.seconds && a.nanos === b.nanos && a.offset === b.offset
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos
  if (a instanceof Optional)
    return (
      b instanceof Optional &&
      (a.value === undefined ? b.value === undefined : b.value !== undefined && sameValue(a.value, b.value))
    )
  if (a instanceof Type) return b instanceof Type && a.toString() === b.toString()
  if (a instanceof OpaqueValue) return b instanceof OpaqueValue && a.typeName === b.typeName && a.equals(b)
  const ea = entriesOf(a)
  const eb = entriesOf(b)
  if (!ea || !eb || ea.length !== eb.length) return false
  return ea.every(([k, v]) => eb.some(([k2, v2]) => sameValue(k, k2) && sameValue(v, v2)))
}

/** Why `v` is not a CEL value in kelp's model (docs/values.md), or undefined when it is one. */
export function invalidValue(v: unknown, path = '$'): string | undefined {
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return undefined
    case 'number':
      return Object.is(v, -0) ? `${path}: -0 as a plain number (int -0)` : undefined
    case 'bigint':
      return v >= -SAFE && v <= SAFE
        ? `${path}: bigint ${v} inside the safe range`
        : v < -(2n ** 63n) || v >= 2n ** 63n
          ? `${path}: bigint ${v} outside int64`
          : undefined
    case 'object': {
      if (v === null || v instanceof Uint8Array || v instanceof Type || v instanceof OpaqueValue) return undefined
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const r = invalidValue(v[i], `${path}[${i}]`)
          if (r) return r
        }
        return undefined
      }
      if (v instanceof Double)
        return Number.isSafeInteger(v.value) ? undefined : `${path}: Double(${v.value}) should be a plain number`
      if (v instanceof Uint) return v.value >= 0n && v.value < 2n ** 64n ? undefined : `${path}: uint out of range`
      if (v instanceof Timestamp)
        return Number.isInteger(v.seconds) && Number.isInteger(v.nanos) && v.nanos >= 0 && v.nanos < 1e9
          ? undefined
          : `${path}: malformed timestamp`
      if (v instanceof Duration)
        return v.nanos >= -(2n ** 63n) && v.nanos < 2n ** 63n ? undefined : `${path}: duration out of range`
      if (v instanceof Optional) return v.value === undefined ? undefined : invalidValue(v.value, `${path}.value()`)
      if (v instanceof CelMap) {
        for (const [k, x] of v.entries.values()) {
          const r = invalidValue(k, `${path}{key}`) ?? invalidValue(x, `${path}[${show(k)}]`)
          if (r) return r
        }
        return undefined
      }
      const proto = Object.getPrototypeOf(v)
      if (proto !== Object.prototype && proto !== null) return `${path}: not a CEL value (${proto?.constructor?.name})`
      for (const k of Object.keys(v)) {
        const r = invalidValue((v as Record<string, unknown>)[k], `${path}.${k}`)
        if (r) return r
      }
      return undefined
    }
    default:
      return `${path}: not a CEL value (${typeof v})`
  }
}

/** A readable rendering for failure messages (bigint, wrappers, own `__proto__` keys). */
export function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v !== 'object' || v === null) return String(v)
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`
  if (v instanceof Uint8Array) return `b[${[...v].join(' ')}]`
  if (v instanceof Double) return `Double(${show(v.value)})`
  if (v instanceof Uint) return `Uint(${v.value}n)`
  if (v instanceof Timestamp) return `Timestamp(${v.seconds}, ${v.nanos})`
  if (v instanceof Duration) return `Duration(${v.nanos}n)`
  if (v instanceof Optional) return v.value === undefined ? 'Optional.none' : `Optional(${show(v.value)})`
  if (v instanceof Type) return `Type(${v.toString()})`
  if (v instanceof CelMap)
    return `CelMap{${[...v.entries.values()].map(([k, x]) => `${show(k)}: ${show(x)}`).join(', ')}}`
  // Outcomes (gen/outcome.ts) print as such.
  const o = v as { ok?: unknown; stage?: unknown; message?: unknown; value?: unknown }
  if ('ok' in o && 'message' in o) return `${o.stage} error: ${o.message}`
  if ('ok' in o && 'value' in o) return `value ${show(o.value)}`
  const proto = Object.getPrototypeOf(v) === null ? 'null-proto ' : ''
  return `${proto}{${Object.keys(v)
    .map((k) => `${JSON.stringify(k)}: ${show((v as Record<string, unknown>)[k])}`)
    .join(', ')}}`
}
