import type { Type } from '../types/types.js'
import type { CelValue } from '../values/values.js'

/**
 * Object types declared from outside the expression language: cel-go's types.Provider as the
 * checker uses it. Kubernetes schemas (OpenAPI / CRD structural schemas, declared in later
 * issues) implement it: each object schema becomes a `struct('<name>')` type whose fields are
 * answered here, so `object.spec.replicsa` fails with `undefined field 'replicsa'`.
 *
 * - `findStructType(name)`: the type a qualified name denotes (`struct(name)`, or a library's
 *   opaque type), or undefined. Used for identifiers that are not declared variables (a type
 *   name as a value has type `type(T)`), for message construction `T{...}`, and to validate a
 *   struct type before selecting its fields (`unexpected failed resolution of 'T'` otherwise).
 * - `findFieldType(structType, field)`: the declared type of a field, or undefined (then
 *   `undefined field 'f'`). Both `x.f` and `has(x.f)` use it.
 * - `fieldNames(structType)`: the declared field names (optional; for tooling and error hints).
 *
 * Maps with dyn values, and dyn itself, select to dyn without consulting the provider.
 */
export interface TypeProvider {
  findStructType(name: string): Type | undefined
  findFieldType(structType: Type, field: string): Type | undefined
  fieldNames?(structType: Type): string[]
  /**
   * cel-go types.Provider NewValue: builds the value of message construction `T{f: v, ...}` (the
   * fields set, optional fields left out when none). Absent: message construction is refused when
   * planned (kelp has no protobuf types). The Kubernetes mutation types (`Object`, `JSONPatch`)
   * implement it.
   */
  newValue?(typeName: string, fields: Readonly<Record<string, CelValue>>): CelValue
}
