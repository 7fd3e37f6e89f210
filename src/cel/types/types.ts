import { CelObject, Kind } from '../values/base.js'

// CEL types as cel-go's common/types.Type: a kind, a name and type parameters. A Type is
// also a runtime value (the result of `type(x)`, and `int`, `list`, ... as identifiers).

export type TypeKind =
  | 'dyn'
  | 'any'
  | 'null_type'
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'timestamp'
  | 'duration'
  | 'list'
  | 'map'
  | 'type'
  | 'type_param'
  | 'opaque'
  | 'struct'
  | 'error'

export class Type extends CelObject {
  constructor(
    readonly typeKind: TypeKind,
    /** The runtime type name: `int`, `list`, `map`, `google.protobuf.Timestamp`, `optional_type`, ... */
    readonly name: string,
    readonly params: readonly Type[] = [],
  ) {
    super()
  }

  override get kind(): Kind {
    return Kind.Type
  }

  /** As cel-go's FormatCELType prints it: `list(int)`, `map(string, dyn)`, `optional_type(int)`, `type(int)`. */
  override toString(): string {
    if (this.typeKind === 'type' && this.params.length === 0) return 'type'
    if (this.params.length === 0) return this.name
    return `${this.name}(${this.params.map((p) => p.toString()).join(', ')})`
  }

  /** Runtime type equality as cel-go compares type values: by name (parameters ignored at run time). */
  equals(other: Type): boolean {
    return this.name === other.name
  }
}

export const DynType = new Type('dyn', 'dyn')
export const AnyType = new Type('any', 'google.protobuf.Any')
export const NullType = new Type('null_type', 'null_type')
export const BoolType = new Type('bool', 'bool')
export const IntType = new Type('int', 'int')
export const UintType = new Type('uint', 'uint')
export const DoubleType = new Type('double', 'double')
export const StringType = new Type('string', 'string')
export const BytesType = new Type('bytes', 'bytes')
export const TimestampType = new Type('timestamp', 'google.protobuf.Timestamp')
export const DurationType = new Type('duration', 'google.protobuf.Duration')
export const ErrorType = new Type('error', '*error*')
/** `type` itself (the type of type values). */
export const TypeType = new Type('type', 'type')
/** Unparameterised list / map, as `type([1])` returns them. */
export const ListType = new Type('list', 'list', [DynType])
export const MapType = new Type('map', 'map', [DynType, DynType])
export const OptionalTypeName = 'optional_type'

export function listOf(elem: Type): Type {
  return new Type('list', 'list', [elem])
}
export function mapOf(key: Type, value: Type): Type {
  return new Type('map', 'map', [key, value])
}
export function typeOf(t: Type): Type {
  return new Type('type', 'type', [t])
}
export function typeParam(name: string): Type {
  return new Type('type_param', name)
}
export function optionalOf(t: Type): Type {
  return new Type('opaque', OptionalTypeName, [t])
}
/** Library-defined types (Kubernetes `Quantity`, `net.IP`, ...). */
export function opaque(name: string, params: readonly Type[] = []): Type {
  return new Type('opaque', name, params)
}
/** Object types declared from outside (schemas): `fields` is looked up by the checker. */
export function struct(name: string): Type {
  return new Type('struct', name)
}

/**
 * The type values the standard type identifiers denote at run time (`int`, `list`, `type`,
 * `google.protobuf.Timestamp`, `optional_type`, ...): unparameterised, compared by name.
 */
export const STANDARD_TYPE_VALUES: ReadonlyMap<string, Type> = new Map<string, Type>(
  [
    BoolType,
    IntType,
    UintType,
    DoubleType,
    StringType,
    BytesType,
    ListType,
    MapType,
    NullType,
    TypeType,
    TimestampType,
    DurationType,
    opaque(OptionalTypeName),
  ].map((t) => [t.name, t]),
)
