import { errorString } from '../../kube/field.js'
import { getObjectMeta, setObjectMeta } from '../../kube/objectmeta-unstructured.js'
import { deepCopy, isObject, type JSONObject } from '../../kube/values/json.js'
import { coerce } from './coerce.js'
import { applyDefaults, pruneDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting.js'
import { prune } from './pruning.js'
import type { JSONSchemaProps } from './schema.js'
import { goSprintV, goTypeOf } from './unstructured.js'

// apiextensions-apiserver pkg/apiserver/customresource_handler.go: what decoding does to a custom
// resource before any validation. unstructuredSchemaCoercer.apply: metadata decoded as ObjectMeta,
// unknown fields pruned, non-nullable nulls without default dropped, embedded resources coerced,
// metadata written back normalized; then unstructuredDefaulter applies the schema defaults.
// Requests report the unknown fields (field validation Strict or Warn) and fail on malformed
// metadata; objects read from storage drop malformed metadata silently and get generation 1 if
// they had none.

/** unstructuredSchemaCoercer's settings. */
export interface DecodeOptions {
  /** Drop metadata fields of the wrong type instead of failing (objects read from storage). */
  readonly dropInvalidMetadata?: boolean
  /** Give objects without a generation generation 1 (objects read from storage). */
  readonly repairGeneration?: boolean
  /** Report unknown fields (requests with fieldValidation Strict or Warn). */
  readonly returnUnknownFieldPaths?: boolean
  /** The CRD's spec.preserveUnknownFields (legacy): nothing is pruned. */
  readonly preserveUnknownFields?: boolean
  /** Write a zero creationTimestamp as null (apiservers before 1.34). */
  readonly nullCreationTimestamp?: boolean
}

/** How the storage decoder reads objects back. */
export const FROM_STORAGE: DecodeOptions = { dropInvalidMetadata: true, repairGeneration: true }

export interface Decoded {
  /** The decoded, pruned and defaulted copy (undefined when decoding failed). */
  readonly object?: JSONObject
  /** Unknown fields, in the apiserver's order: metadata's, then pruned ones, then embedded metadata's. */
  readonly unknownFields: string[]
  /** Why decoding failed (the text after `cannot be handled as a <Kind>: `). */
  readonly error?: string
}

/** unstructured.NestedString at the root: the kind / apiVersion accessor error, if any. */
function stringFieldError(obj: JSONObject, k: string): string | undefined {
  if (!Object.hasOwn(obj, k) || obj[k] === null || typeof obj[k] === 'string') return undefined
  return `.${k} accessor error: ${goSprintV(obj[k])} is of the type ${goTypeOf(obj[k])}, expected string`
}

/**
 * unstructuredSchemaCoercer.apply on `obj` (mutated): the unknown field paths it reports, or the
 * error that fails decoding.
 */
export function applySchemaCoercer(
  obj: JSONObject,
  schema: JSONSchemaProps | undefined,
  opts: DecodeOptions = {},
): { unknownFields: string[]; error?: string } {
  const track = opts.returnUnknownFieldPaths === true
  const drop = opts.dropInvalidMetadata === true
  for (const k of ['kind', 'apiVersion']) {
    const e = stringFieldError(obj, k)
    if (e !== undefined) return { unknownFields: [], error: e }
  }
  const meta = getObjectMeta(obj, { dropMalformedFields: drop, returnUnknownFieldPaths: track })
  if (meta.error !== undefined) return { unknownFields: [], error: meta.error }
  const unknownFields = [...meta.unknownFields]
  if (!opts.preserveUnknownFields) {
    const pruned = prune(obj, schema, true)
    if (track) unknownFields.push(...pruned)
    pruneNonNullableNullsWithoutDefaults(obj, schema)
  }
  const c = coerce(undefined, obj, schema, false, { dropInvalidFields: drop, returnUnknownFieldPaths: track })
  if (c.error !== undefined) return { unknownFields: [], error: errorString(c.error) }
  unknownFields.push(...c.unknownFields)
  const m = meta.meta
  if (m !== undefined && opts.repairGeneration && Number(m.generation) === 0) m.generation = 1
  if (meta.found) setObjectMeta(obj, m, !opts.nullCreationTimestamp)
  return { unknownFields }
}

/**
 * Decodes a copy of `input` as the apiserver does for a CRD version with this structural schema:
 * the schema coercer, then the defaulter.
 */
export function decodeCustomResource(
  input: unknown,
  schema: JSONSchemaProps | undefined,
  opts: DecodeOptions = {},
): Decoded {
  if (!isObject(input)) return { unknownFields: [], error: 'Object is not a JSON object' }
  const obj = deepCopy(input)
  const r = applySchemaCoercer(obj, schema, opts)
  if (r.error !== undefined) return { unknownFields: [], error: r.error }
  if (schema !== undefined) applyDefaults(obj, pruneDefaults(schema))
  return { object: obj, unknownFields: r.unknownFields }
}
