import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  StringType,
  TimestampType,
  type Type,
} from '../../cel/types/types.js'
import { escape } from './escaping.js'
import {
  additionalPropertiesSchema,
  isEmbeddedResource,
  isIntOrString,
  type JSONSchemaProps,
  withTypeAndObjectMeta,
} from './structural.js'

// Structural schemas as CEL declared types (apiserver pkg/cel/common/schemas.go SchemaDeclType,
// pkg/cel/types.go DeclType): the CEL type of each schema node, and the size figures the cost
// estimator uses (MaxElements, MinSerializedSize, pkg/cel/limits.go). A DeclType tree is built once
// per schema and shared by every rule compiled against it; object type names are given by the
// type provider (provider.ts), since the apiserver renames them per compilation.

/** apiserver config MaxRequestSizeBytes: the basis of "unbounded" estimates. */
export const MaxRequestSizeBytes = 3_145_728
const MaxDurationSizeJSON = 32
const MaxDatetimeSizeJSON = 32
const MinDurationSizeJSON = 3
const JSONDateSize = 12
const MinDatetimeSizeJSON = 21
const MinStringSize = 2
const MinBoolSize = 4
const MinNumberSize = 1

export interface DeclField {
  /** The property name as written in the schema (unescaped). */
  readonly name: string
  readonly type: DeclType
  readonly required: boolean
}

export type DeclType =
  | {
      readonly kind: 'simple'
      /** The CEL type (dyn for int-or-string). */
      readonly cel: Type
      readonly maxElements: number
      readonly minSerializedSize: number
    }
  | {
      readonly kind: 'list'
      readonly elem: DeclType
      readonly maxElements: number
      readonly minSerializedSize: number
    }
  | {
      readonly kind: 'map'
      readonly elem: DeclType
      readonly maxElements: number
      readonly minSerializedSize: number
    }
  | {
      readonly kind: 'object'
      /** By escaped name (the name CEL expressions use). */
      readonly fields: ReadonlyMap<string, DeclField>
      readonly maxElements: number
      readonly minSerializedSize: number
    }

const simple = (cel: Type, minSerializedSize: number, maxElements = 0): DeclType => ({
  kind: 'simple',
  cel,
  minSerializedSize,
  maxElements,
})
const BoolDecl = simple(BoolType, MinBoolSize)
const IntDecl = simple(IntType, MinNumberSize)
const DoubleDecl = simple(DoubleType, MinNumberSize)
/** The key type of maps (StringType, unbounded). */
export const StringKeyDecl = simple(StringType, MinStringSize)

export interface DeclTypeOptions {
  /** Cap metadata.name / generateName lengths at the resource roots (Kubernetes 1.37+). */
  readonly capMetadataNames?: boolean
}

const cache = new WeakMap<JSONSchemaProps, { root?: DeclType | null; node?: DeclType | null; capped?: boolean }>()

/**
 * SchemaDeclType(s, isResourceRoot): the declared type of a schema node, or undefined when the node
 * is not visible to CEL (no type, e.g. only x-kubernetes-preserve-unknown-fields; or an array
 * without items).
 */
export function schemaDeclType(
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
  options: DeclTypeOptions = {},
): DeclType | undefined {
  if (s === undefined) return undefined
  const capped = options.capMetadataNames ?? false
  let entry = cache.get(s)
  if (entry === undefined || entry.capped !== capped) {
    entry = { capped }
    cache.set(s, entry)
  }
  const slot = isResourceRoot ? 'root' : 'node'
  const hit = entry[slot]
  if (hit !== undefined) return hit ?? undefined
  const t = build(s, isResourceRoot, capped)
  entry[slot] = t ?? null
  return t
}

function build(s: JSONSchemaProps, isResourceRoot: boolean, capped: boolean): DeclType | undefined {
  if (isIntOrString(s)) {
    return simple(
      DynType,
      1,
      s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : maxStringLengthPerRequest(s),
    )
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s, capped)
  const opts = { capMetadataNames: capped }
  switch (s.type) {
    case 'array': {
      if (s.items === undefined) return undefined
      const items = schemaDeclType(s.items, isEmbeddedResource(s.items), opts)
      if (items === undefined) return undefined
      const maxItems =
        s.maxItems !== undefined
          ? zeroIfNegative(s.maxItems)
          : Math.floor((MaxRequestSizeBytes - 2) / (items.minSerializedSize + 1))
      return { kind: 'list', elem: items, maxElements: maxItems, minSerializedSize: 2 }
    }
    case 'object': {
      const ap = additionalPropertiesSchema(s)
      if (ap !== undefined) {
        const values = schemaDeclType(ap, isEmbeddedResource(ap), opts)
        if (values === undefined) return undefined
        const maxProperties =
          s.maxProperties !== undefined
            ? zeroIfNegative(s.maxProperties)
            : Math.floor((MaxRequestSizeBytes - 2) / (values.minSerializedSize + 6))
        return { kind: 'map', elem: values, maxElements: maxProperties, minSerializedSize: 2 }
      }
      const fields = new Map<string, DeclField>()
      const required = new Set(s.required ?? [])
      let minSerializedSize = 2
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const ft = schemaDeclType(prop, isEmbeddedResource(prop), opts)
        if (ft === undefined) continue
        const escaped = escape(name)
        if (escaped !== undefined) fields.set(escaped, { name, type: ft, required: required.has(name) })
        // `default: null` is no default (the v1 → internal conversion turns a null JSON into a nil
        // Default); the name counts in bytes (Go len)
        if (required.has(name) && (prop.default === undefined || prop.default === null))
          minSerializedSize += Buffer.byteLength(name, 'utf8') + ft.minSerializedSize + 4
      }
      return { kind: 'object', fields, maxElements: 0, minSerializedSize }
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return simple(
            BytesType,
            MinStringSize,
            s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : maxStringLengthPerRequest(s),
          )
        case 'duration':
          return simple(DurationType, MinDurationSizeJSON, maxStringLengthPerRequest(s))
        case 'date':
          return simple(TimestampType, JSONDateSize, maxStringLengthPerRequest(s))
        case 'date-time':
          return simple(TimestampType, MinDatetimeSizeJSON, maxStringLengthPerRequest(s))
      }
      return simple(
        StringType,
        MinStringSize,
        s.maxLength !== undefined
          ? zeroIfNegative(s.maxLength) * 4
          : s.enum !== undefined && s.enum.length > 0
            ? maxEnumLength(s)
            : maxStringLengthPerRequest(s),
      )
    case 'boolean':
      return BoolDecl
    case 'number':
      return DoubleDecl
    case 'integer':
      return IntDecl
  }
  return undefined
}

function zeroIfNegative(v: number): number {
  return Math.max(v, 0)
}

function maxStringLengthPerRequest(s: JSONSchemaProps): number {
  if (isIntOrString(s)) return MaxRequestSizeBytes - 2
  switch (s.format) {
    case 'duration':
      return MaxDurationSizeJSON
    case 'date':
      return JSONDateSize
    case 'date-time':
      return MaxDatetimeSizeJSON
  }
  return MaxRequestSizeBytes - 2
}

/** estimateMaxStringEnumLength: the longest enum value in bytes (Go len). */
function maxEnumLength(s: JSONSchemaProps): number {
  let max = 0
  for (const v of s.enum ?? []) if (typeof v === 'string') max = Math.max(max, Buffer.byteLength(v, 'utf8'))
  return max
}
