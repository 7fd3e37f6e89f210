import { Type } from '../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import {
  CelMap,
  CelObject,
  type CelValue,
  Double,
  Kind,
  kindOf,
  OpaqueValue,
  Optional,
  Uint,
} from '../../src/cel/values/values.js'

// Strict typed comparison of an expected conformance value with kelp's result, as cel-spec's
// simple.proto asks ("match the evaluation result exactly via value equality semantics. This
// coincides with proto equality, except: maps are order-agnostic; a NaN matches any NaN").
// Proto equality is typed: int 1, uint 1 and double 1.0 are three different cel.expr.Values,
// and the cel-spec runner (tests/simple/simple.go) compares doubles by their text, so -0.0 ≠ 0.0.
// It also checks that kelp's result uses the canonical representation of values.ts.

/** Returns undefined when equal, otherwise a one-line description of the first difference. */
export function diffValues(expected: CelValue, actual: CelValue): string | undefined {
  return diffAt('', expected, actual)
}

function diffAt(path: string, want: CelValue, got: CelValue): string | undefined {
  const bad = representationIssue(got)
  if (bad) return `${where(path)}non-canonical value ${formatValue(got)}: ${bad}`
  const wk = kindOf(want)
  const gk = kindOf(got)
  if (wk !== gk)
    return `${where(path)}want ${formatValue(want)} (${KIND_NAMES[wk]}), got ${formatValue(got)} (${KIND_NAMES[gk]})`
  const mismatch = (): string => `${where(path)}want ${formatValue(want)}, got ${formatValue(got)}`
  switch (wk) {
    case Kind.Null:
      return undefined
    case Kind.Bool:
    case Kind.String:
      return want === got ? undefined : mismatch()
    case Kind.Int:
      // Canonical ints: number inside the safe range, bigint outside, so one of the two is exact.
      return BigInt(want as number | bigint) === BigInt(got as number | bigint) ? undefined : mismatch()
    case Kind.Uint:
      return (want as Uint).value === (got as Uint).value ? undefined : mismatch()
    case Kind.Double:
      // Object.is: NaN matches NaN, -0.0 differs from 0.0.
      return Object.is(doubleOf(want), doubleOf(got)) ? undefined : mismatch()
    case Kind.Bytes:
      return bytesEqual(want as Uint8Array, got as Uint8Array) ? undefined : mismatch()
    case Kind.Timestamp: {
      const a = want as Timestamp
      const b = got as Timestamp
      return a.seconds === b.seconds && a.nanos === b.nanos ? undefined : mismatch()
    }
    case Kind.Duration:
      return (want as Duration).nanos === (got as Duration).nanos ? undefined : mismatch()
    case Kind.Type:
      return (want as Type).name === (got as Type).name ? undefined : mismatch()
    case Kind.List:
      return diffLists(path, want as readonly CelValue[], got as readonly CelValue[])
    case Kind.Map:
      return diffMaps(path, want, got)
    case Kind.Optional: {
      const a = (want as Optional).value
      const b = (got as Optional).value
      if (a === undefined || b === undefined) return a === b ? undefined : mismatch()
      return diffAt(`${path}.value()`, a, b)
    }
    case Kind.Opaque:
      return (want as OpaqueValue).typeName === (got as OpaqueValue).typeName &&
        (want as OpaqueValue).equals(got as OpaqueValue)
        ? undefined
        : mismatch()
  }
  return mismatch()
}

function diffLists(path: string, want: readonly CelValue[], got: readonly CelValue[]): string | undefined {
  if (want.length !== got.length) return `${where(path)}want ${want.length} elements, got ${got.length}`
  for (let i = 0; i < want.length; i++) {
    const d = diffAt(`${path}[${i}]`, want[i]!, got[i]!)
    if (d) return d
  }
  return undefined
}

/** Order-agnostic; keys match by typed equality (an int key never matches a uint key). */
function diffMaps(path: string, want: CelValue, got: CelValue): string | undefined {
  const we = mapEntries(want)
  const ge = mapEntries(got)
  if (we.length !== ge.length) return `${where(path)}want ${we.length} entries, got ${ge.length}`
  for (const [wk, wv] of we) {
    const hit = ge.find(([gk]) => diffAt('', wk, gk) === undefined)
    if (!hit) return `${where(path)}missing key ${formatValue(wk)} in ${formatValue(got)}`
    const d = diffAt(`${path}[${formatValue(wk)}]`, wv, hit[1])
    if (d) return d
  }
  return undefined
}

/** The entries of either map representation: a plain object (string keys) or a CelMap. */
export function mapEntries(m: CelValue): (readonly [CelValue, CelValue])[] {
  if (m instanceof CelMap) return [...m.entries.values()].map(([k, v]) => [k, v] as const)
  const obj = m as { readonly [key: string]: CelValue }
  return Object.keys(obj).map((k) => [k, obj[k]!] as const)
}

/** Why a result breaks the value model of values.ts, or undefined when it is canonical. */
function representationIssue(v: CelValue): string | undefined {
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? 'int -0 (ints are never -0; a double -0.0 is Double(-0))' : undefined
    case 'bigint':
      return v >= -9007199254740991n && v <= 9007199254740991n ? 'int in the safe range held as bigint' : undefined
    case 'object':
      if (v instanceof Double && !Number.isSafeInteger(v.value)) return 'Double wrapping a non-integral double'
      if (v instanceof Uint && (v.value < 0n || v.value >= 1n << 64n)) return 'uint out of range'
      if (v instanceof Timestamp && (v.nanos < 0 || v.nanos >= 1e9)) return 'timestamp nanos out of [0, 1e9)'
      return undefined
    case 'boolean':
    case 'string':
      return undefined
  }
  return `not a CEL value (${typeof v})`
}

function doubleOf(v: CelValue): number {
  return v instanceof Double ? v.value : (v as number)
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function where(path: string): string {
  return path ? `at ${path}: ` : ''
}

const KIND_NAMES: Record<Kind, string> = {
  [Kind.Null]: 'null',
  [Kind.Bool]: 'bool',
  [Kind.Int]: 'int',
  [Kind.Uint]: 'uint',
  [Kind.Double]: 'double',
  [Kind.String]: 'string',
  [Kind.Bytes]: 'bytes',
  [Kind.List]: 'list',
  [Kind.Map]: 'map',
  [Kind.Timestamp]: 'timestamp',
  [Kind.Duration]: 'duration',
  [Kind.Type]: 'type',
  [Kind.Optional]: 'optional',
  [Kind.Opaque]: 'opaque',
}

/** A CEL-like rendering for reports: `1`, `1.0`, `1u`, `"s"`, `b"\x00"`, `{"a": [1]}`. Never throws. */
export function formatValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v)
    case 'number':
      if (Number.isSafeInteger(v)) return Object.is(v, -0) ? '-0 (int!)' : String(v)
      return formatDouble(v)
    case 'bigint':
      return String(v)
    case 'boolean':
      return String(v)
    case 'undefined':
      return 'undefined'
    case 'object':
      return formatObject(v)
  }
  return String(v)
}

function formatObject(v: object | null): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`
  if (v instanceof Uint8Array) return `b"${[...v].map(formatByte).join('')}"`
  if (v instanceof Double) return formatDouble(v.value)
  if (v instanceof Uint) return `${v.value}u`
  if (v instanceof Timestamp) return `timestamp(${v.seconds}s+${v.nanos}ns)`
  if (v instanceof Duration) return `duration(${v.nanos}ns)`
  if (v instanceof Type) return `type(${v.toString()})`
  if (v instanceof Optional) return v.value === undefined ? 'optional.none()' : `optional.of(${formatValue(v.value)})`
  if (v instanceof OpaqueValue) return `<${v.typeName}>`
  if (v instanceof CelMap)
    return `{${mapEntries(v)
      .map(([k, x]) => `${formatValue(k)}: ${formatValue(x)}`)
      .join(', ')}}`
  if (v instanceof CelObject) return `<${v.constructor.name}>`
  if (v instanceof Error) return `${v.name}: ${v.message}`
  const proto = Object.getPrototypeOf(v)
  if (proto !== null && proto !== Object.prototype) return `<${proto?.constructor?.name ?? 'object'}>`
  const obj = v as Record<string, unknown>
  return `{${Object.keys(obj)
    .map((k) => `${JSON.stringify(k)}: ${formatValue(obj[k])}`)
    .join(', ')}}`
}

function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf'
  if (Object.is(x, -0)) return '-0.0'
  const s = String(x)
  return /[.eE]/.test(s) ? s : `${s}.0`
}

function formatByte(b: number): string {
  return b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c
    ? String.fromCharCode(b)
    : `\\x${b.toString(16).padStart(2, '0')}`
}
