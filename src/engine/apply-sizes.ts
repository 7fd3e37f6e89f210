// The size limits a `kubectl apply` request meets (kubectl 1.37, kube-apiserver 1.37, etcd 3.7), from what
// kubectl sends: on a create, the object with the `kubectl.kubernetes.io/last-applied-configuration` annotation
// added, whose value is the object's own JSON (kubectl pkg/util/apply.go GetModifiedConfiguration, with
// unstructured's JSON encoder: Go encoding/json and a trailing newline), so the body is about twice the object.
//
// - The body: apiserver pkg/server/config.go MaxRequestBodyBytes (3 MiB), read by endpoints/handlers/rest.go
//   limitedReadBody before anything else; one byte over is 413 `Request entity too large: limit is 3145728`.
// - The annotations: apimachinery pkg/api/validation/objectmeta.go ValidateAnnotations, keys and values together
//   at most TotalAnnotationSizeLimitB (256 KiB): `metadata.annotations: Too long: may not be more than 262144
//   bytes`, a 422 of the registry's validation, which runs before the validating admission policies. With the
//   last-applied copy, every object of more than about 256 KiB of JSON meets it (the well-known refusal of
//   large CRDs by `kubectl apply`).
// - etcd's --max-request-bytes (embed/config.go DefaultMaxRequestBytes, 1.5 MiB: `etcdserver: request is too
//   large`) is not checked: an object within the annotation limit is stored in at most about 1 MiB (its own
//   256 KiB, the same again as the annotation, its managedFields; protobuf for built-in kinds, which is smaller
//   than the JSON), so through `kubectl apply` the two limits above always answer first. `kubectl create` or a
//   server-side apply of a 2 MB object (no annotation) meets it; kelp does not model those requests.
//
// Sizes are Go's encoding/json bytes: JSON.stringify's, with `<`, `>`, `&`, U+2028 and U+2029 escaped as Go
// escapes them (\u003c); Go and JS may write a float's digits differently (1e21 and beyond), a byte or two.

import { isObject, type JSONObject } from '../kube/values/json.js'

/** apiserver MaxRequestBodyBytes. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024
/** apimachinery TotalAnnotationSizeLimitB. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/**
 * Below this many characters of JSON no limit can be reached (the annotation's escaped copy is at most 6 bytes a
 * character, 6 × 24 KiB plus the object's own annotations < 256 KiB): the common case costs one JSON.stringify.
 */
const SMALL_JSON = 24 * 1024

/** JSON text as Go's encoding/json writes it: HTML characters and line separators escaped. */
const goEscaped = (json: string): string =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** Characters a number or a bigint takes at most in JSON (`-1.2345678901234567e-308`; a bigint as a number). */
const NUMBER_CHARS = 25

/**
 * Whether `JSON.stringify(v)` is certainly shorter than `limit` characters, without writing it: an upper bound
 * summed over the values (a string's characters at most 6 each, as `\u001f`), given up once it reaches the limit.
 * Anything else than JSON values (a `toJSON` method) answers false: the caller writes it to know.
 */
export function jsonShorterThan(v: unknown, limit: number): boolean {
  let left = limit
  const stack: unknown[] = [v]
  while (stack.length > 0) {
    const x = stack.pop()
    if (typeof x === 'string') left -= 2 + 6 * x.length
    else if (typeof x === 'number' || typeof x === 'bigint') left -= NUMBER_CHARS
    else if (x === null || x === undefined || typeof x === 'boolean') left -= 5
    else if (Array.isArray(x)) {
      // the brackets and commas first: a huge array gives up before its items are stacked
      left -= 2 + x.length
      if (left <= 0) return false
      for (let i = 0; i < x.length; i++) stack.push(x[i])
    } else if (typeof x === 'object' && typeof (x as { toJSON?: unknown }).toJSON !== 'function') {
      left -= 2
      for (const k in x) {
        if (!Object.hasOwn(x, k)) continue
        // the key, its quotes, the colon and the comma
        left -= 4 + 6 * k.length
        if (left <= 0) return false
        stack.push((x as Record<string, unknown>)[k])
      }
    } else return false
    if (left <= 0) return false
  }
  return true
}

function stringify(v: unknown): string | undefined {
  try {
    return JSON.stringify(v)
  } catch {
    try {
      // a bigint (an integer beyond 2^53) as its digits' length allows
      return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x))
    } catch {
      return undefined // too deep to write: the engine answers it
    }
  }
}

/** What a size limit answers to a `kubectl apply` of `o`, if one does. */
export type SizeRefusal =
  | { readonly limit: 'body'; readonly bytes: number }
  | { readonly limit: 'annotations'; readonly bytes: number }

/**
 * The limit `kubectl apply` of this object meets, if any: the body (on a create, the object with its
 * last-applied annotation; on an update of `old`, the patch, of which kelp knows a lower bound: the new
 * annotation and what the object grew by) or the annotations with the last-applied one. `namespace`: the
 * request's, for a namespaced object ('' or undefined for a cluster-scoped one).
 */
export function applySizeRefusal(
  o: JSONObject,
  old: JSONObject | undefined,
  namespace?: string,
): SizeRefusal | undefined {
  // the common case: an object too small for any limit, told without writing it; room for what kubectl adds
  // below (the namespace, `"annotations":{}`); removing a last-applied annotation only shortens it
  const ns = namespace === undefined ? 0 : 6 * namespace.length
  if (jsonShorterThan(o, SMALL_JSON - ns - 64)) return undefined
  if (o.metadata !== undefined && !isObject(o.metadata)) return undefined // does not decode: the engine's answer
  let meta: JSONObject | undefined = o.metadata
  const annotations = meta?.annotations
  if (annotations !== undefined && annotations !== null && !isObject(annotations)) return undefined
  // the configuration kubectl records: the object as it sends it (a namespaced object without a namespace
  // given the context's: cli-runtime's builder sets it), without a last-applied annotation of its own
  let applied = o
  if (namespace !== undefined && namespace !== '' && meta?.namespace === undefined) {
    meta = { ...meta, namespace }
    applied = { ...o, metadata: meta }
  }
  // kubectl sets the annotations to what they were without it: `"annotations":{}` when there were none
  if (!isObject(annotations)) applied = { ...o, metadata: { ...meta, annotations: {} } }
  else if (Object.hasOwn(annotations, LAST_APPLIED)) {
    const { [LAST_APPLIED]: _, ...rest } = annotations
    applied = { ...o, metadata: { ...meta, annotations: rest } }
  }
  const json = stringify(applied)
  if (json === undefined || json.length < SMALL_JSON) return undefined
  const annotation = `${goEscaped(json)}\n`
  // the annotation as a JSON string inside the body (its backslashes and quotes escaped once more)
  const quoted = Buffer.byteLength(goEscaped(JSON.stringify(annotation)))
  const sent = {
    ...applied,
    metadata: { ...(meta ?? {}), annotations: { ...(annotations ?? {}), [LAST_APPLIED]: '' } },
  }
  const body =
    old === undefined
      ? Buffer.byteLength(goEscaped(stringify(sent) ?? '')) - 2 + quoted + 1
      : // the patch carries the new annotation and every changed field's new value: at least what the object grew by
        quoted + Math.max(0, Buffer.byteLength(goEscaped(json)) - Buffer.byteLength(goEscaped(stringify(old) ?? '')))
  if (body > MAX_REQUEST_BODY_BYTES) return { limit: 'body', bytes: body }
  let total = Buffer.byteLength(LAST_APPLIED) + Buffer.byteLength(annotation)
  if (isObject(annotations)) {
    for (const [k, v] of Object.entries(annotations)) {
      if (k === LAST_APPLIED) continue
      if (typeof v !== 'string') return undefined // does not decode: the engine's answer
      total += Buffer.byteLength(k) + Buffer.byteLength(v)
    }
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) return { limit: 'annotations', bytes: total }
  return undefined
}
