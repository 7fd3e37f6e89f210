import type { Decl, Type as ExprType } from '@bufbuild/cel-spec/cel/expr/checked_pb.js'
import { Type_PrimitiveType, Type_WellKnownType } from '@bufbuild/cel-spec/cel/expr/checked_pb.js'
import type { ExprValue } from '@bufbuild/cel-spec/cel/expr/eval_pb.js'
import type { MapValue, Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js'
import { type Any, anyUnpack, DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt'
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  ErrorType,
  IntType,
  ListType,
  listOf,
  MapType,
  mapOf,
  NullType,
  OptionalTypeName,
  opaque,
  StringType,
  TimestampType,
  type Type,
  TypeType,
  typeOf,
  typeParam,
  UintType,
} from '../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { CelMap, type CelValue, type MapKey, mkDouble, mkInt, Uint } from '../../src/cel/values/values.js'

// Converts cel-spec protobuf data (cel.expr.Value, cel.expr.Type, cel.expr.Decl) into kelp's value
// and type model. Anything that needs protobuf messages throws Unsupported: the runner turns it
// into a skip, so a test never runs with a half-converted input.

/** Raised for inputs kelp does not model (messages, enums, wrappers, Any, errors / unknowns as bindings). */
export class Unsupported extends Error {
  override get name(): string {
    return 'Unsupported'
  }
}

const TIMESTAMP_URL = 'type.googleapis.com/google.protobuf.Timestamp'
const DURATION_URL = 'type.googleapis.com/google.protobuf.Duration'
const NANOS_PER_SECOND = 1_000_000_000n

/** cel.expr.Value → kelp value, following the value model of src/cel/values/values.ts. */
export function fromValue(v: Value): CelValue {
  const k = v.kind
  switch (k.case) {
    case 'nullValue':
      return null
    case 'boolValue':
      return k.value
    case 'int64Value':
      return mkInt(k.value)
    case 'uint64Value':
      return new Uint(k.value)
    case 'doubleValue':
      return mkDouble(k.value)
    case 'stringValue':
      return k.value
    case 'bytesValue':
      return k.value
    case 'listValue':
      return k.value.values.map(fromValue)
    case 'mapValue':
      return fromMapValue(k.value)
    case 'typeValue':
      return typeFromName(k.value)
    case 'objectValue':
      return fromAny(k.value)
    case 'enumValue':
      throw new Unsupported(`enum value ${k.value.type}`)
    case undefined:
      throw new Unsupported('empty cel.expr.Value')
  }
}

function fromMapValue(m: MapValue): CelValue {
  const entries = m.entries.map((e) => {
    if (!e.key || !e.value) throw new Unsupported('map entry without key or value')
    return [fromValue(e.key), fromValue(e.value)] as const
  })
  if (entries.every(([key]) => typeof key === 'string')) {
    const out: Record<string, CelValue> = Object.create(null)
    for (const [key, value] of entries) out[key as string] = value
    return out
  }
  const map = new Map<MapKey, [CelValue, CelValue]>()
  for (const [key, value] of entries) map.set(mapKeyOf(key), [key, value])
  return new CelMap(map)
}

/** The normalised CelMap key (values.ts): numerically equal int / uint keys share one entry. */
export function mapKeyOf(key: CelValue): MapKey {
  if (typeof key === 'string' || typeof key === 'boolean' || typeof key === 'number') return key
  if (typeof key === 'bigint') return key
  if (key instanceof Uint) return mkInt(key.value)
  throw new Unsupported(`map key of unsupported kind: ${String(key)}`)
}

/** Timestamps and durations arrive packed in google.protobuf.Any; every other message is unsupported. */
function fromAny(any: Any): CelValue {
  if (any.typeUrl === TIMESTAMP_URL) {
    const ts = anyUnpack(any, TimestampSchema)
    if (!ts) throw new Unsupported('undecodable google.protobuf.Timestamp')
    return new Timestamp(Number(ts.seconds), ts.nanos)
  }
  if (any.typeUrl === DURATION_URL) {
    const d = anyUnpack(any, DurationSchema)
    if (!d) throw new Unsupported('undecodable google.protobuf.Duration')
    return new Duration(d.seconds * NANOS_PER_SECOND + BigInt(d.nanos))
  }
  throw new Unsupported(`message ${any.typeUrl}`)
}

const TYPES_BY_NAME: ReadonlyMap<string, Type> = new Map(
  [
    NullType,
    BoolType,
    IntType,
    UintType,
    DoubleType,
    StringType,
    BytesType,
    TimestampType,
    DurationType,
    ListType,
    MapType,
    TypeType,
    DynType,
  ].map((t) => [t.name, t]),
)

/**
 * A `typeValue` (cel-go prints runtime types by name: `int`, `list`, `google.protobuf.Timestamp`).
 * Runtime type values compare by name (types.ts), so parameters do not matter here.
 */
export function typeFromName(name: string): Type {
  const t = TYPES_BY_NAME.get(name)
  if (t) return t
  if (name === OptionalTypeName) return opaque(OptionalTypeName, [DynType])
  throw new Unsupported(`type value ${name}`)
}

const PRIMITIVES: Record<Type_PrimitiveType, Type | undefined> = {
  [Type_PrimitiveType.PRIMITIVE_TYPE_UNSPECIFIED]: undefined,
  [Type_PrimitiveType.BOOL]: BoolType,
  [Type_PrimitiveType.INT64]: IntType,
  [Type_PrimitiveType.UINT64]: UintType,
  [Type_PrimitiveType.DOUBLE]: DoubleType,
  [Type_PrimitiveType.STRING]: StringType,
  [Type_PrimitiveType.BYTES]: BytesType,
}

/** cel.expr.Type → kelp Type (declarations and deduced types). Messages, wrappers and Any are unsupported. */
export function fromExprType(t: ExprType | undefined): Type {
  const k = t?.typeKind
  switch (k?.case) {
    case 'dyn':
      return DynType
    case 'null':
      return NullType
    case 'primitive': {
      const p = PRIMITIVES[k.value]
      if (p) return p
      break
    }
    case 'wellKnown':
      if (k.value === Type_WellKnownType.TIMESTAMP) return TimestampType
      if (k.value === Type_WellKnownType.DURATION) return DurationType
      break
    case 'listType':
      return listOf(fromExprType(k.value.elemType))
    case 'mapType':
      return mapOf(fromExprType(k.value.keyType), fromExprType(k.value.valueType))
    case 'typeParam':
      return typeParam(k.value)
    case 'type':
      return typeOf(fromExprType(k.value))
    case 'error':
      return ErrorType
    case 'messageType':
      // The well-known time messages are CEL's timestamp and duration types.
      if (k.value === TimestampType.name) return TimestampType
      if (k.value === DurationType.name) return DurationType
      break
    case 'abstractType':
      return opaque(k.value.name, k.value.parameterTypes.map(fromExprType))
  }
  throw new Unsupported(`type ${k?.case ?? 'unset'}${k && typeof k.value === 'string' ? ` ${k.value}` : ''}`)
}

/** typeEnv → the `declarations` option of compile (identifiers only; function declarations are unsupported). */
export function fromTypeEnv(decls: readonly Decl[]): Record<string, Type> {
  const out: Record<string, Type> = Object.create(null)
  for (const d of decls) {
    if (d.declKind.case !== 'ident') throw new Unsupported(`function declaration ${d.name}`)
    out[d.name] = fromExprType(d.declKind.value.type)
  }
  return out
}

/** bindings → activation. Error and unknown bindings are unsupported (cel-spec uses none in the relevant files). */
export function fromBindings(bindings: { readonly [name: string]: ExprValue }): Record<string, CelValue> {
  const out: Record<string, CelValue> = Object.create(null)
  for (const [name, ev] of Object.entries(bindings)) {
    if (ev.kind.case !== 'value') throw new Unsupported(`binding ${name} is ${ev.kind.case ?? 'unset'}`)
    out[name] = fromValue(ev.kind.value)
  }
  return out
}
