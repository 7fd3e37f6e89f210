import { isObject } from '../../kube/values/json.js'
import type { JSONSchemaProps, ValidationRule } from './types.js'

// Decoding a v1 JSONSchemaProps from JSON as the API server's decoder does, then converting it to the
// internal type: unknown keys dropped, `null` read as absent, zero-valued scalars (`false`, `""`) left
// out because Go cannot tell them from absent, empty lists and maps kept because Go can.
// A value of the wrong JSON type is a decoding error in Go (the request fails before validation);
// here it is dropped.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const STRINGS = ['id', '$schema', 'description', 'type', 'format', 'title', 'pattern'] as const
const BOOLS = [
  'nullable',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'uniqueItems',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
] as const
const NUMBERS = ['maximum', 'minimum', 'multipleOf'] as const
const INTEGERS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties'] as const
const STRING_LISTS = ['required', 'x-kubernetes-list-map-keys'] as const
const SCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf'] as const
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions'] as const
const SCHEMA_OR_BOOLS = ['additionalProperties', 'additionalItems'] as const
const STRING_POINTERS = ['$ref', 'x-kubernetes-list-type', 'x-kubernetes-map-type'] as const

/** The internal JSONSchemaProps of a v1 schema given as JSON (undefined when it is not an object). */
export function decodeSchema(raw: unknown): JSONSchemaProps | undefined {
  if (!isObject(raw)) return undefined
  const out: Record<string, unknown> = {}
  for (const k of STRINGS) if (typeof raw[k] === 'string' && raw[k] !== '') out[k] = raw[k]
  for (const k of BOOLS) if (raw[k] === true) out[k] = true
  for (const k of NUMBERS) if (typeof raw[k] === 'number') out[k] = raw[k]
  for (const k of INTEGERS) if (typeof raw[k] === 'number') out[k] = raw[k]
  for (const k of STRING_POINTERS) if (typeof raw[k] === 'string') out[k] = raw[k]
  for (const k of STRING_LISTS) if (Array.isArray(raw[k])) out[k] = (raw[k] as unknown[]).map((s) => stringOf(s))
  for (const k of SCHEMA_LISTS) if (Array.isArray(raw[k])) out[k] = (raw[k] as unknown[]).map(schemaOrEmpty)
  for (const k of SCHEMA_MAPS) {
    const m = raw[k]
    if (isObject(m)) out[k] = mapValues(m, schemaOrEmpty)
  }
  for (const k of SCHEMA_OR_BOOLS) {
    const v = raw[k]
    if (typeof v === 'boolean') out[k] = v
    else if (isObject(v)) out[k] = decodeSchema(v)
  }
  if (raw.default !== undefined && raw.default !== null) out.default = raw.default
  if (raw.example !== undefined && raw.example !== null) out.example = raw.example
  if (Array.isArray(raw.enum)) out.enum = raw.enum.map((e) => (e === undefined ? null : e))
  const items = raw.items
  if (Array.isArray(items)) out.items = items.map(schemaOrEmpty)
  else if (isObject(items)) out.items = decodeSchema(items)
  if (isObject(raw.not)) out.not = decodeSchema(raw.not)
  if (isObject(raw.dependencies)) {
    // JSONSchemaPropsOrStringArray: an object is a schema, a list names properties, anything else is empty
    out.dependencies = mapValues(raw.dependencies, (d) =>
      Array.isArray(d) ? d.map((s) => stringOf(s)) : isObject(d) ? decodeSchema(d) : {},
    )
  }
  if (isObject(raw.externalDocs)) {
    const d: Record<string, string> = {}
    if (typeof raw.externalDocs.description === 'string' && raw.externalDocs.description !== '')
      d.description = raw.externalDocs.description
    if (typeof raw.externalDocs.url === 'string' && raw.externalDocs.url !== '') d.url = raw.externalDocs.url
    out.externalDocs = d
  }
  if (typeof raw['x-kubernetes-preserve-unknown-fields'] === 'boolean')
    out['x-kubernetes-preserve-unknown-fields'] = raw['x-kubernetes-preserve-unknown-fields']
  const rules = raw['x-kubernetes-validations']
  if (Array.isArray(rules)) out['x-kubernetes-validations'] = rules.map(decodeRule)
  return out as JSONSchemaProps
}

function decodeRule(raw: unknown): ValidationRule {
  const out: Record<string, unknown> = {}
  if (!isObject(raw)) return out
  for (const k of ['rule', 'message', 'messageExpression', 'fieldPath'] as const)
    if (typeof raw[k] === 'string' && raw[k] !== '') out[k] = raw[k]
  if (typeof raw.reason === 'string') out.reason = raw.reason
  if (typeof raw.optionalOldSelf === 'boolean') out.optionalOldSelf = raw.optionalOldSelf
  return out
}

function schemaOrEmpty(v: unknown): JSONSchemaProps {
  return decodeSchema(v) ?? {}
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** A copy with `f` applied to each value; keys are defined, not assigned, so `__proto__` stays a key. */
export function mapValues<T>(m: Record<string, unknown>, f: (v: unknown) => T): Record<string, T> {
  const out: Record<string, T> = {}
  for (const k of Object.keys(m)) Object.defineProperty(out, k, { value: f(m[k]), enumerable: true, writable: true })
  return out
}
