import fc from 'fast-check'
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listOf,
  mapOf,
  StringType,
  TimestampType,
  type Type,
  UintType,
} from '../../../src/cel/types/types.js'
import { buildMap } from '../../../src/cel/values/maps.js'
import { Duration, Timestamp } from '../../../src/cel/values/time.js'
import { type CelValue, Double, Optional, Uint } from '../../../src/cel/values/values.js'

// Random activations: JSON-like values as Kubernetes hands them to CEL (see docs/values.md), with
// the wrappers JSON cannot express and the object keys that trip JavaScript (`__proto__`,
// `constructor`, `toString`, ...). Sizes stay small so that nested macros cannot run long.

/** Object keys: ordinary ones and those that mean something to JavaScript objects. */
export const KEYS = [
  'a',
  'b',
  'c',
  'x',
  'name',
  '',
  '0',
  'é',
  '😀',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
] as const

/** An own, enumerable data property, even for `__proto__` (as JSON.parse creates it). */
export function defineOwn(o: object, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
}

/** A plain map value; `nullProto` makes it like the maps CEL itself builds. */
export function plainMap(entries: readonly (readonly [string, CelValue])[], nullProto = false): CelValue {
  const o: object = nullProto ? Object.create(null) : {}
  for (const [k, v] of entries) defineOwn(o, k, v)
  return o as CelValue
}

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const SAFE = 2n ** 53n - 1n

/** ints: plain safe numbers, with the edges of the safe range. */
export const intArb: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -5, max: 10 }),
  fc.constantFrom(0, 1, -1, 255, 1000, 2 ** 31, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
  fc.maxSafeInteger(),
)

/** ints beyond ±(2^53-1): bigints (never a bigint inside the safe range). */
export const bigIntArb: fc.Arbitrary<bigint> = fc.oneof(
  fc.constantFrom(SAFE + 1n, -SAFE - 1n, INT64_MAX, INT64_MIN, 2n ** 62n),
  fc.bigInt({ min: SAFE + 1n, max: INT64_MAX }),
  fc.bigInt({ min: INT64_MIN, max: -SAFE - 1n }),
)

/** doubles: fractional or non-finite plain numbers, and Double for integral values. */
export const doubleArb: fc.Arbitrary<CelValue> = fc.oneof(
  fc.constantFrom(
    0.5,
    -1.5,
    1e-7,
    1e300,
    -1e300,
    Number.NaN,
    Infinity,
    -Infinity,
    2 ** 53,
    2 ** 64,
    1.7976931348623157e308,
  ),
  fc.double({ noInteger: true }),
  fc.constantFrom(0, -0, 1, -1, 2, 100, 2 ** 52).map((v) => new Double(v)),
)

export const uintArb: fc.Arbitrary<Uint> = fc
  .oneof(fc.constantFrom(0n, 1n, 2n ** 53n, 2n ** 63n, 2n ** 64n - 1n), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))
  .map((v) => new Uint(v))

/** Code points: mostly ASCII, some Latin-1, BMP and astral; never a lone surrogate. */
const codePoint = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constantFrom(0x0a, 0x09, 0x00, 0x85, 0xa0, 0x2028, 0xfeff, 0xe9) },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }) },
)

export const stringArb: fc.Arbitrary<string> = fc.oneof(
  fc.array(codePoint, { maxLength: 8 }).map((cps) => String.fromCodePoint(...cps)),
  fc.constantFrom(...KEYS),
  fc.constantFrom('true', 'false', '1', '-1', '1.5', '1h', '2023-01-01T00:00:00Z', 'a,b', '  x  ', 'ABC'),
)

export const bytesArb: fc.Arbitrary<Uint8Array> = fc.uint8Array({ maxLength: 6 })

/** Timestamps inside cel-go's range (years 1..9999). */
export const timestampArb: fc.Arbitrary<Timestamp> = fc
  .tuple(fc.integer({ min: -62135596800, max: 253402300799 }), fc.integer({ min: 0, max: 999_999_999 }))
  .map(([s, n]) => new Timestamp(s, n))

export const durationArb: fc.Arbitrary<Duration> = fc
  .oneof(
    fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
    fc.constantFrom(0n, 1n, -1n, 1_000_000_000n, INT64_MAX, INT64_MIN),
  )
  .map((n) => new Duration(n))

export const scalarArb: fc.Arbitrary<CelValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  intArb,
  bigIntArb,
  doubleArb,
  uintArb,
  stringArb,
  bytesArb,
  timestampArb,
  durationArb,
)

const keyArb = fc.constantFrom(...KEYS)

/** Any CEL value an activation may hold (lists and maps nested up to `depth`). */
export const valueArb: fc.Arbitrary<CelValue> = fc.letrec<{ value: CelValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3, depthIdentifier: 'value' },
    scalarArb,
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .tuple(fc.uniqueArray(fc.tuple(keyArb, tie('value')), { maxLength: 4, selector: (e) => e[0] }), fc.boolean())
      .map(([entries, nullProto]) => plainMap(entries, nullProto)),
    // maps with int / uint / bool keys (CelMap)
    fc
      .array(
        fc.tuple(fc.oneof(fc.integer({ min: -2, max: 3 }), fc.boolean(), fc.constant(new Uint(7n))), tie('value')),
        {
          maxLength: 3,
        },
      )
      .map((es) => {
        const seen = new Set<unknown>()
        const ks: CelValue[] = []
        const vs: CelValue[] = []
        for (const [k, v] of es) {
          const norm = k instanceof Uint ? 7 : k
          if (seen.has(norm)) continue
          seen.add(norm)
          ks.push(k)
          vs.push(v)
        }
        return buildMap(ks, vs)
      }),
    tie('value').map((v) => new Optional(v)),
    fc.constant(Optional.none),
  ),
})).value

/** Lists whose elements share a kind (what list functions expect), sometimes mixed. */
export const listArb: fc.Arbitrary<CelValue> = fc.oneof(
  fc.array(intArb, { maxLength: 4 }),
  fc.array(stringArb, { maxLength: 4 }),
  fc.array(doubleArb, { maxLength: 3 }),
  fc.array(fc.boolean(), { maxLength: 3 }),
  fc.array(fc.array(intArb, { maxLength: 3 }), { maxLength: 3 }),
  fc.array(valueArb, { maxLength: 3 }),
)

/** Maps with string keys, as JSON objects (nested objects inside). */
export const mapArb: fc.Arbitrary<CelValue> = fc
  .tuple(fc.uniqueArray(fc.tuple(keyArb, valueArb), { maxLength: 5, selector: (e) => e[0] }), fc.boolean())
  .map(([entries, nullProto]) => plainMap(entries, nullProto))

/** The variables expressions refer to (see exprs.ts), each with the kind its name suggests. */
export const VARIABLES: Readonly<Record<string, fc.Arbitrary<CelValue>>> = {
  i: intArb,
  j: fc.oneof(intArb, bigIntArb),
  d: doubleArb,
  u: uintArb,
  s: stringArb,
  b: fc.boolean(),
  by: bytesArb,
  t: timestampArb,
  du: durationArb,
  l: listArb,
  m: mapArb,
  x: valueArb,
  y: valueArb,
}

/** VARIABLES declared with the types of their values (the checker's environment for generated expressions). */
export const VARIABLE_TYPES: Readonly<Record<keyof typeof VARIABLES, Type>> = {
  i: IntType,
  j: IntType,
  d: DoubleType,
  u: UintType,
  s: StringType,
  b: BoolType,
  by: BytesType,
  t: TimestampType,
  du: DurationType,
  l: listOf(DynType),
  m: mapOf(DynType, DynType),
  x: DynType,
  y: DynType,
}

/**
 * An activation: each variable usually of its kind, sometimes any value, sometimes absent, with
 * `toString`/`constructor` sometimes present as variables too.
 */
export const activationArb: fc.Arbitrary<Record<string, CelValue>> = fc
  .tuple(
    fc.record(
      Object.fromEntries(
        Object.entries(VARIABLES).map(([k, arb]) => [
          k,
          fc.oneof(
            { weight: 8, arbitrary: arb.map((v) => ({ v })) },
            { weight: 1, arbitrary: valueArb.map((v) => ({ v })) },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
        ]),
      ) as Record<string, fc.Arbitrary<{ v: CelValue } | undefined>>,
    ),
    fc.subarray(['toString', 'constructor', '__proto__']),
    valueArb,
  )
  .map(([vars, extra, v]) => {
    const act: Record<string, CelValue> = {}
    for (const [k, slot] of Object.entries(vars)) if (slot) act[k] = slot.v
    for (const k of extra) defineOwn(act, k, v)
    return act
  })

/** Freezes lists and plain maps all the way down, so an evaluation that mutates its input fails loudly. */
export function deepFreeze<T>(v: T): T {
  if (Array.isArray(v)) {
    for (const e of v) deepFreeze(e)
    Object.freeze(v)
  } else if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v)
    if (proto === Object.prototype || proto === null) {
      for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k])
      Object.freeze(v)
    }
  }
  return v
}
