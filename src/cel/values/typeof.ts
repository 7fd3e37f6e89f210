import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  IntType,
  ListType,
  MapType,
  NullType,
  OptionalTypeName,
  opaque,
  StringType,
  TimestampType,
  type Type,
  TypeType,
  typeParam,
  UintType,
} from '../types/types.js'
import { CelObject, type CelValue, Kind, kindOf, type OpaqueValue } from './values.js'

// The runtime type of a value: what `type(v)` returns (cel-go ref.Val.Type()). Runtime types are
// unparameterised: `type([1])` is `list`, `type(optional.of(1))` is `optional_type`; type values
// compare by name.

/** cel-go types.OptionalType: the opaque `optional_type` with its declared parameter T. */
export const OptionalRuntimeType: Type = opaque(OptionalTypeName, [typeParam('T')])

// One Type per library-defined opaque type name, so `type(x)` does not allocate.
const opaqueTypes = new Map<string, Type>()

function opaqueType(name: string): Type {
  let t = opaqueTypes.get(name)
  if (t === undefined) {
    t = opaque(name)
    opaqueTypes.set(name, t)
  }
  return t
}

export function typeValueOf(v: CelValue): Type {
  switch (typeof v) {
    case 'string':
      return StringType
    case 'number':
      return Number.isSafeInteger(v) ? IntType : DoubleType
    case 'boolean':
      return BoolType
    case 'bigint':
      return IntType
    case 'object':
      if (v === null) return NullType
      if (Array.isArray(v)) return ListType
      if (v instanceof CelObject) {
        switch (v.kind) {
          case Kind.Double:
            return DoubleType
          case Kind.Uint:
            return UintType
          case Kind.Map:
            return MapType
          case Kind.Timestamp:
            return TimestampType
          case Kind.Duration:
            return DurationType
          case Kind.Type:
            return TypeType
          case Kind.Optional:
            return OptionalRuntimeType
          case Kind.Opaque:
            return opaqueType((v as OpaqueValue).typeName)
        }
        throw new TypeError(`not a CEL value: kind ${v.kind}`)
      }
      if (v instanceof Uint8Array) return BytesType
      return MapType
  }
  throw new TypeError(`not a CEL value: ${typeof v}`)
}

/** The runtime type name for messages: `int`, `list`, `google.protobuf.Timestamp`, `optional_type`, ... */
export function typeNameOf(v: CelValue): string {
  return typeValueOf(v).name
}

/**
 * The Go type (`%T`) of a CEL value as cel-go prints it in some errors (`unsupported comprehension
 * range type: types.String`, `invalid qualifier type: *types.baseList`, Go's panics); a library value's
 * own (`goType`: `cel.Quantity`, `cel.IP`, …), undefined for one that does not say.
 */
export function goTypeName(v: CelValue): string | undefined {
  switch (kindOf(v)) {
    case Kind.String:
      return 'types.String'
    case Kind.Int:
      return 'types.Int'
    case Kind.Uint:
      return 'types.Uint'
    case Kind.Bool:
      return 'types.Bool'
    case Kind.Double:
      return 'types.Double'
    case Kind.List:
      return '*types.baseList'
    case Kind.Map:
      return '*types.baseMap'
    case Kind.Bytes:
      return 'types.Bytes'
    case Kind.Null:
      return 'types.Null'
    case Kind.Duration:
      return 'types.Duration'
    case Kind.Timestamp:
      return 'types.Timestamp'
    case Kind.Type:
      return '*types.Type'
    case Kind.Optional:
      return '*types.Optional'
    default:
      return (v as { goType?: string }).goType
  }
}

/**
 * The Go type (`%T`) of a value cel-go's attributes.go newQualifier refuses as an index, or undefined
 * for one it takes (strings, ints, uints, bools, doubles) or a library value that names no Go type.
 */
export function qualifierGoType(v: CelValue): string | undefined {
  switch (kindOf(v)) {
    case Kind.String:
    case Kind.Int:
    case Kind.Uint:
    case Kind.Bool:
    case Kind.Double:
      return undefined
    default:
      return goTypeName(v)
  }
}
