import { goQuote } from '../cel/ext/quote.js'

// What the apiserver says when a request body does not decode into its kind, shared by custom
// resources (src/crd) and built-in kinds (src/builtin): apimachinery's strict decoding error, the
// handlers' transformDecodeError wording, and the request statuses that precede validation.

/** `?fieldValidation=`: kubectl sends Strict by default (`--validate=strict`), the apiserver's own default is Warn. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

/** A request rejected before validation: 404 for a kind not served, 400 for a body that does not decode. */
export interface RequestStatus {
  /** 504 Timeout: a request the apiserver does not finish within its timeout (see MAX_SCHEMA_ERRORS). */
  readonly code: 400 | 404 | 504
  readonly reason: 'BadRequest' | 'NotFound' | 'Timeout'
  readonly message: string
}

/** runtime.NewStrictDecodingError(...).Error() for unknown fields. */
export function strictDecodingError(unknownFields: readonly string[]): string {
  return `strict decoding error: ${unknownFields.map((f) => `unknown field "${f}"`).join(', ')}`
}

/**
 * transformDecodeError: the BadRequest message of a failed decode,
 * `<Kind> in version "<version>" cannot be handled as a <Kind>: <error>` (`into`: the kind of the handler's
 * type, when the body names another).
 */
export function decodeErrorMessage(kind: string, version: string, error: string, into = kind): string {
  return `${kind} in version ${goQuote(version)} cannot be handled as a ${into}: ${error}`
}
