import { goQuote } from '../cel/ext/quote.js'
import { decodeErrorMessage, type FieldValidation, type RequestStatus, strictDecodingError } from '../kube/decoding.js'
import type { FieldError, InvalidStatus } from '../kube/field.js'
import { setOwn } from '../kube/own-keys.js'
import type { JSONObject } from '../kube/values/json.js'
import { decodeStruct, omitEmptyCollections } from './decode.js'
import { applyBuiltinDefaults } from './defaults.js'
import { kindOfLowercase, kindStruct } from './gotypes.js'
import { fieldsNotInRelease } from './release-fields.js'
import { GO_TYPES_RELEASE } from './types.generated.js'

// A built-in object's write before admission, as kube-apiserver's create / update handlers do it
// (apiserver pkg/endpoints/handlers create.go, update.go, patch.go): the body decoded into the
// kind's Go type by the strict JSON serializer (decode.ts), the scheme's defaults applied
// (defaults.ts), and a failed decode answered 400 BadRequest by transformDecodeError:
// `Deployment in version "v1" cannot be handled as a Deployment: <error>`. Unknown fields fail the
// request under fieldValidation Strict (kubectl's default), are `unknown field "x"` warnings under
// Warn, and are dropped silently under Ignore.

export { GO_TYPES_RELEASE }

export interface BuiltinOptions {
  /** Strict (kubectl's default) unless given. */
  readonly fieldValidation?: FieldValidation
  /** The target release's minor version (its fields, feature-gated defaults); default 37. */
  readonly minor?: number
  /**
   * Keep the lists and maps given empty (`policies: []`) that omitempty drops: Go's decoding makes them
   * non-nil empty slices and maps, which its defaulting (`== nil`) keeps and its validation sees. The
   * engine validates this form and then drops them (omitEmptyCollections), as the object is marshalled
   * for the policies and for storage; by default the result is that marshalled form.
   */
  readonly keepEmpty?: boolean
}

export interface BuiltinResult {
  readonly allowed: boolean
  /** The kind's native validation errors (src/builtin/validation; set by the engine after decoding). */
  readonly errors: readonly FieldError[]
  /** `unknown field "spec.replica"` under fieldValidation Warn. */
  readonly warnings: readonly string[]
  /** 400 BadRequest when the body does not decode; 422 Invalid when the native validation fails. */
  readonly status?: RequestStatus | InvalidStatus
  /**
   * Whether the kind's native validation ran (`validated`) or kelp has no validator for it
   * (`not-covered`: decoded and defaulted only); unset when not decoded.
   */
  readonly nativeValidation?: 'validated' | 'not-covered'
  /** What kubectl prints after `Error from server (BadRequest): error when creating "x.yaml": `. */
  readonly message?: string
  /** The object as the apiserver holds it before admission: decoded, written back as Go does, defaulted. */
  readonly object?: JSONObject
  /** Under keepEmpty: whether `object` holds empty lists or maps omitempty drops (marshalBuiltin drops them). */
  readonly keptEmpty?: boolean
  /**
   * The decoder's own error when the object does not decode (`json: cannot unmarshal …`, `strict decoding
   * error: …`), without the request decoding's `<Kind> in version "<v>" cannot be handled as a <Kind>: `.
   */
  readonly decodeError?: string
}

/** Whether kelp decodes objects of this apiVersion / kind as a built-in type. */
export function isBuiltinKind(apiVersion: string, kind: string): boolean {
  return kindStruct(apiVersion, kind) !== undefined
}

/**
 * A kind in lower case that kubectl sends (its discovery mapper knows the lower-case spelling): the scheme has
 * no such kind (apimachinery runtime/scheme.go NotRegisteredErr, through the handler's transformDecodeError).
 */
function notRegistered(apiVersion: string, kind: string): BuiltinResult | undefined {
  const registered = kindOfLowercase(apiVersion, kind)
  if (registered === undefined) return undefined
  const error = `no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`
  const message = decodeErrorMessage(kind, apiVersion.slice(apiVersion.indexOf('/') + 1), error, registered)
  return {
    allowed: false,
    errors: [],
    warnings: [],
    status: { code: 400, reason: 'BadRequest', message },
    message,
    decodeError: error,
  }
}

/** Decodes and defaults a built-in object; undefined when the kind is not one kelp has the Go type of. */
export function decodeBuiltin(object: unknown, options: BuiltinOptions = {}): BuiltinResult | undefined {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined
  const o = object as JSONObject
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const kind = typeof o.kind === 'string' ? o.kind : ''
  const id = kindStruct(apiVersion, kind)
  if (id === undefined) return notRegistered(apiVersion, kind)
  const fieldValidation = options.fieldValidation ?? 'Strict'
  const minor = options.minor ?? 37
  const r = decodeStruct(id, o, fieldValidation !== 'Ignore', fieldsNotInRelease(`1.${minor}`), true)
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1)
  const fail = (error: string, warnings: readonly string[]): BuiltinResult => {
    const message = decodeErrorMessage(kind, version, error)
    return {
      allowed: false,
      errors: [],
      warnings,
      status: { code: 400, reason: 'BadRequest', message },
      message,
      decodeError: error,
    }
  }
  if (r.error !== undefined) return fail(r.error, [])
  if (r.unknownFields.length > 0 && fieldValidation === 'Strict') return fail(strictDecodingError(r.unknownFields), [])
  const decoded = r.object as JSONObject
  applyBuiltinDefaults(id, decoded, { minor })
  if (id === 'core/v1.Secret') mergeStringData(decoded)
  if (r.keptEmpty === true && options.keepEmpty !== true) omitEmptyCollections(id, decoded)
  return {
    allowed: true,
    errors: [],
    warnings: fieldValidation === 'Warn' ? r.unknownFields.map((f) => `unknown field ${goQuote(f)}`) : [],
    object: decoded,
    ...(r.keptEmpty === true && options.keepEmpty === true ? { keptEmpty: true } : {}),
  }
}

/**
 * A built-in object (decoded with keepEmpty) as Go marshals it, in place: its empty omitempty lists and maps
 * dropped; `asStored`: as read back from storage, where every empty list and map is nil (null when written).
 */
export function marshalBuiltin(object: JSONObject, asStored = false): void {
  const id = kindStruct(
    typeof object.apiVersion === 'string' ? object.apiVersion : '',
    typeof object.kind === 'string' ? object.kind : '',
  )
  if (id !== undefined) omitEmptyCollections(id, object, asStored)
}

/**
 * Convert_v1_Secret_To_core_Secret: every stringData value is written over data (as bytes); the internal
 * type has no stringData, so the object admission sees (converted back to v1) and the one stored carry
 * only data, base64.
 */
function mergeStringData(o: JSONObject): void {
  const sd = o.stringData
  if (typeof sd !== 'object' || sd === null || Array.isArray(sd)) return
  const data = { ...(typeof o.data === 'object' && o.data !== null ? (o.data as JSONObject) : {}) }
  for (const [k, v] of Object.entries(sd as JSONObject))
    setOwn(data, k, Buffer.from(typeof v === 'string' ? v : '', 'utf8').toString('base64'))
  delete o.stringData
  if (Object.keys(data).length > 0) o.data = data
}
