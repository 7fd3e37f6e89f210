import { isUtf8 } from 'node:buffer'
import { createHash, randomBytes } from 'node:crypto'
import { type AdmitResult, isAdmissionStatus, type PolicySet } from '../engine/policy-set.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type {
  AdmissionAttributes,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  UserInfo,
} from '../policy/attributes.js'
import { jsonSizeWithin, parseJSONExact } from './json.js'

// The admission webhook adapter, framework-neutral: an AdmissionReview (admission.k8s.io/v1) in, an
// AdmissionReview out, with the same PolicySet.admit() the CLI uses. Usable from node:http(s),
// Express, Fastify, … : hand `handle()` the body (raw bytes, text, or an already parsed object) and
// write back `status`, `headers` and `JSON.stringify(body)`.
//
// Who decides what:
// - The engine (PolicySet.admit) decides everything about the request itself: which policies match,
//   every validation, messageExpression, Warn / Audit / Deny actions, the Status (code and reason per
//   the first Deny's reason), the warnings, the audit annotations, CRD validation of custom resources,
//   and evaluation errors: a policy's `failurePolicy` (Fail → a Deny, Ignore → nothing) is applied in
//   the engine exactly as kube-apiserver's ValidatingAdmissionPolicy dispatcher applies it.
// - This adapter only translates: AdmissionRequest → AdmissionAttributes, AdmitResult →
//   AdmissionResponse, following what kube-apiserver's webhook dispatcher accepts
//   (apiserver pkg/admission/plugin/webhook/request/admissionreview.go VerifyAdmissionResponse,
//   validating/dispatcher.go callHook, errors/statuserror.go ToStatusErr).
// - A request kelp cannot answer (malformed body: 400; no policy set loaded: 503; an internal error:
//   500) is an HTTP error, not an AdmissionReview: kube-apiserver then treats the call as failed and
//   the *webhook configuration's* failurePolicy decides (Fail rejects, Ignore admits), as for any
//   webhook that cannot be reached.

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1'
export const ADMISSION_KIND = 'AdmissionReview'

/** metav1.Status as an AdmissionResponse carries it (`response.status`). */
export interface ResponseStatus {
  readonly status: 'Failure'
  readonly code: number
  readonly reason: string
  readonly message: string
  readonly details?: unknown
}

/** admission/v1 AdmissionResponse (the fields a validating webhook may set; a mutating one also the patch). */
export interface AdmissionResponse {
  readonly uid: string
  readonly allowed: boolean
  readonly status?: ResponseStatus
  readonly warnings?: readonly string[]
  readonly auditAnnotations?: Readonly<Record<string, string>>
  /** /mutate: the only patch type admission/v1 has, set with `patch`. */
  readonly patchType?: 'JSONPatch'
  /** /mutate: base64 of the RFC 6902 patch (JSON) from the review's object to the mutated one. */
  readonly patch?: string
}

/**
 * What a handler answers: `validate` (POST /validate: the validating policies, CRD validation; the
 * object is taken as the apiserver sends it, mutations already applied) or `mutate` (POST /mutate:
 * the MutatingAdmissionPolicies, answered as a JSON patch).
 */
export type AdmissionMode = 'validate' | 'mutate'

export interface AdmissionReviewResponse {
  readonly apiVersion: typeof ADMISSION_API_VERSION
  readonly kind: typeof ADMISSION_KIND
  readonly response: AdmissionResponse
}

/** What the HTTP layer writes: the status code, the JSON body, extra headers. */
export interface HandlerResponse {
  readonly status: number
  readonly body: object
  readonly headers?: Record<string, string>
}

/** One admitted request, for metrics and logs. */
export interface AdmitEvent {
  readonly attributes: AdmissionAttributes
  readonly result: AdmitResult
  readonly response: AdmissionResponse
  /** The set that answered (metrics label by what it loaded, not by request text). */
  readonly policySet?: PolicySet
  /** The endpoint's mode (unset: validate). */
  readonly mode?: AdmissionMode
}

export interface AdmissionHandlerOptions {
  /** Called after each request the engine answered (not for 4xx / 5xx). Exceptions are ignored. */
  readonly onAdmit?: (event: AdmitEvent) => void
  /**
   * `validate` (default): the AdmitResult as a validating webhook's answer. `mutate`: as a mutating
   * webhook's (mutationResponse). The set decides what runs: give a mutating handler a set of the
   * MutatingAdmissionPolicies (with the CRDs, params, Namespaces), a validating one a set without them.
   */
  readonly mode?: AdmissionMode
}

export interface AdmissionHandler {
  handle(body: unknown): HandlerResponse
  /**
   * Several requests at once, stage by stage: every body parsed, then every request admitted, then
   * every answer built. The answers are those of `handle()` one by one (one policy set serves the
   * whole batch); a server that gathers the requests which arrived together spends less per request
   * this way, because each stage's code and data stay in the CPU's caches (docs/benchmarks.md).
   */
  handleAll(bodies: readonly unknown[]): HandlerResponse[]
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  413: 'RequestEntityTooLarge',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
}

/**
 * An HTTP error as a metav1.Status (what the apiserver's REST client decodes from an error response
 * and shows in `failed calling webhook "<name>": …`).
 */
export function errorResponse(code: number, message: string, headers: Record<string, string> = {}): HandlerResponse {
  return {
    status: code,
    body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: REASONS[code], code },
    headers: { ...JSON_HEADERS, ...headers },
  }
}

class BadRequest extends Error {}

/** A request answered before its AdmissionReview (400, 500, 503): the answer, carried between stages. */
class Refusal {
  constructor(readonly response: HandlerResponse) {}
}

/** Empty or white space only: JSON.parse refuses it; this says so in words (the error path only). */
const emptyBody = () => new BadRequest('request body is empty: expected an AdmissionReview')

/**
 * The body as a JSON value: bytes (UTF-8) or text parsed, anything else taken as already parsed.
 * Bytes must be valid UTF-8 (`isUtf8`: the same strict check as a fatal TextDecoder, which this
 * replaced; a leading byte order mark is dropped as TextDecoder drops it), then are decoded directly.
 */
function parseBody(body: unknown): unknown {
  let text: string
  if (body instanceof Uint8Array) {
    if (!isUtf8(body)) throw new BadRequest('request body is not valid UTF-8')
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
    text = bytes.toString('utf8', bom ? 3 : 0)
  } else if (typeof body === 'string') text = body
  else if (body === undefined || body === null) throw emptyBody()
  else return body
  try {
    return parseJSONExact(text) // integers past 2^53 exact, as the apiserver's int64s
  } catch (e) {
    // a text JSON.parse accepts has a character other than white space: only a refused one can be empty
    if (text.trim() === '') throw emptyBody()
    throw new BadRequest(`request body is not valid JSON: ${(e as Error).message}`)
  }
}

const str = (v: unknown, field: string, required = false): string => {
  if (v === undefined || v === null) {
    if (required) throw new BadRequest(`${field} is required`)
    return ''
  }
  if (typeof v !== 'string') throw new BadRequest(`${field} must be a string`)
  if (required && v === '') throw new BadRequest(`${field} is required`)
  return v
}

function gvkOf(v: unknown, field: string): GroupVersionKind {
  if (!isObject(v)) throw new BadRequest(`${field} is required (group, version, kind)`)
  return {
    group: str(v.group, `${field}.group`),
    version: str(v.version, `${field}.version`, true),
    kind: str(v.kind, `${field}.kind`, true),
  }
}

function gvrOf(v: unknown, field: string): GroupVersionResource {
  if (!isObject(v)) throw new BadRequest(`${field} is required (group, version, resource)`)
  return {
    group: str(v.group, `${field}.group`),
    version: str(v.version, `${field}.version`, true),
    resource: str(v.resource, `${field}.resource`, true),
  }
}

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']

function objectOf(v: unknown, field: string): JSONObject | null {
  if (v === undefined || v === null) return null
  if (!isObject(v)) throw new BadRequest(`${field} must be a JSON object`)
  return v
}

function userInfoOf(v: unknown): UserInfo {
  if (v === undefined || v === null) return {}
  if (!isObject(v)) throw new BadRequest('request.userInfo must be a JSON object')
  const groups = v.groups ?? []
  if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string'))
    throw new BadRequest('request.userInfo.groups must be a list of strings')
  const extra = v.extra ?? {}
  if (!isObject(extra) || !Object.values(extra).every((x) => Array.isArray(x) && x.every((s) => typeof s === 'string')))
    throw new BadRequest('request.userInfo.extra must map strings to lists of strings')
  return {
    username: str(v.username, 'request.userInfo.username'),
    uid: str(v.uid, 'request.userInfo.uid'),
    groups: groups as string[],
    extra: extra as Record<string, string[]>,
  }
}

/**
 * AdmissionReview → (uid, AdmissionAttributes). `kind` / `resource` / `subResource` are what the
 * webhook matched (the object is in that version); `requestKind` / `requestResource` /
 * `requestSubResource` what the user asked for (webhook/request/admissionreview.go CreateV1AdmissionReview).
 */
export function parseAdmissionReview(body: unknown): { uid: string; attributes: AdmissionAttributes } {
  const review = parseBody(body)
  if (!isObject(review)) throw new BadRequest('request body is not a JSON object: expected an AdmissionReview')
  const apiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : ''
  const kind = typeof review.kind === 'string' ? review.kind : ''
  if (apiVersion !== ADMISSION_API_VERSION || kind !== ADMISSION_KIND) {
    const hint =
      apiVersion === 'admission.k8s.io/v1beta1'
        ? ' (kelp answers admission.k8s.io/v1 only: set admissionReviewVersions: ["v1"])'
        : ''
    throw new BadRequest(
      `expected ${ADMISSION_API_VERSION}, Kind=${ADMISSION_KIND}, got ${apiVersion || '<no apiVersion>'}, Kind=${kind || '<no kind>'}${hint}`,
    )
  }
  const req = review.request
  if (!isObject(req)) throw new BadRequest('AdmissionReview has no request')
  const uid = str(req.uid, 'request.uid', true)
  const operation = str(req.operation, 'request.operation', true)
  if (!(OPERATIONS as readonly string[]).includes(operation))
    throw new BadRequest(
      `request.operation: unsupported value "${operation}": supported values: ${OPERATIONS.map((o) => `"${o}"`).join(', ')}`,
    )
  if (req.dryRun !== undefined && req.dryRun !== null && typeof req.dryRun !== 'boolean')
    throw new BadRequest('request.dryRun must be a boolean')
  // one literal, the optional keys set after it: spreads in an object literal cost ~1 µs each on
  // Node 20's V8 (docs/benchmarks.md); the checks run in the order the fields are listed
  const kindOf = gvkOf(req.kind, 'request.kind')
  const resource = gvrOf(req.resource, 'request.resource')
  const subResource = str(req.subResource, 'request.subResource')
  const requestKind = req.requestKind != null ? gvkOf(req.requestKind, 'request.requestKind') : undefined
  const requestResource =
    req.requestResource != null ? gvrOf(req.requestResource, 'request.requestResource') : undefined
  const requestSubResource =
    req.requestSubResource != null ? str(req.requestSubResource, 'request.requestSubResource') : undefined
  const attributes: { -readonly [K in keyof AdmissionAttributes]: AdmissionAttributes[K] } = {
    uid,
    kind: kindOf,
    resource,
    subResource,
    name: str(req.name, 'request.name'),
    namespace: str(req.namespace, 'request.namespace'),
    operation: operation as Operation,
    object: objectOf(req.object, 'request.object'),
    oldObject: objectOf(req.oldObject, 'request.oldObject'),
    options: objectOf(req.options, 'request.options'),
    userInfo: userInfoOf(req.userInfo),
    dryRun: req.dryRun === true,
  }
  if (requestKind !== undefined) attributes.requestKind = requestKind
  if (requestResource !== undefined) attributes.requestResource = requestResource
  if (requestSubResource !== undefined) attributes.requestSubResource = requestSubResource
  return { uid, attributes }
}

// --- audit annotations -----------------------------------------------------------------------------

const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure'
const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/
const MAX_NAME_PART = 63

/**
 * The key a webhook must answer for one of the engine's audit annotation keys. kube-apiserver
 * records a webhook's annotation `k` as `<webhook name>/k` and drops it unless that is a qualified
 * name with exactly one `/` (validating/dispatcher.go callHook → admission attributes AddAnnotation
 * checkKeyFormat), so `k` must be one name part (≤ 63 characters, [A-Za-z0-9][-A-Za-z0-9_.]*).
 * The engine's keys are in-process ones with a `/`:
 * - `validation.policy.admission.k8s.io/validation_failure` → `validation_failure`
 * - `<policy>/<key>` → `<policy>_<key>`; when that is over 63 characters,
 *   `<key, cut to 54>-<first 8 hex digits of sha256(policy)>` (stable, distinct per policy).
 */
export function webhookAuditAnnotationKey(key: string): string {
  if (key === VALIDATION_FAILURE_KEY) return 'validation_failure'
  const slash = key.indexOf('/')
  if (slash < 0) return QUALIFIED_NAME_PART.test(key) && key.length <= MAX_NAME_PART ? key : hashedKey('', key)
  const policy = key.slice(0, slash)
  const name = key.slice(slash + 1)
  const joined = `${policy}_${name}`
  if (joined.length <= MAX_NAME_PART && QUALIFIED_NAME_PART.test(joined)) return joined
  return hashedKey(policy, name)
}

function hashedKey(policy: string, name: string): string {
  const hash = createHash('sha256').update(policy).digest('hex').slice(0, 8)
  let base = name.replace(/[^-A-Za-z0-9_.]/g, '_').slice(0, MAX_NAME_PART - 9)
  base = base.replace(/^[^A-Za-z0-9]+/, '')
  return base === '' ? hash : `${base}-${hash}`
}

// --- the response ----------------------------------------------------------------------------------

/**
 * The Status a denied request answers. kube-apiserver shows it as `admission webhook "<name>" denied
 * the request: <message>` with this code and reason (errors/statuserror.go ToStatusErr, which also
 * raises a code below 400 to 400). For a ValidatingAdmissionPolicy the message is the policy
 * plugin's (`ValidatingAdmissionPolicy '<p>' with binding '<b>' denied request: …`) without the
 * `<resource> "<name>" is forbidden: ` prefix the in-process plugin adds (the webhook prefix takes its
 * place); for a custom resource, the apiextensions Status (`<Kind>.<group> "<name>" is invalid: …`).
 */
function deniedStatus(result: AdmitResult): ResponseStatus {
  // a set that decodes built-in objects (PolicySet builtins, on by default) refuses one that does not
  // decode (400) or fails its kind's validation (422) with the apiserver's Status
  const s = result.status
  if (s === undefined) return { status: 'Failure', code: 403, reason: 'Forbidden', message: 'denied by kelp' }
  let message = s.message
  let details: unknown
  if ('details' in s && s.details !== undefined) {
    details = s.details
    // the admission plugins' Status: its cause is the message without the `… is forbidden: ` prefix
    if (isAdmissionStatus(s)) {
      const cause = s.details.causes[0]?.message
      if (cause !== undefined && cause !== '') message = cause
    }
  }
  return {
    status: 'Failure',
    code: s.code,
    reason: s.reason,
    message,
    ...(details !== undefined ? { details } : {}),
  }
}

/**
 * AdmitResult → AdmissionResponse. Warnings are passed as the engine wrote them (the texts the
 * apiserver itself would send for the same policies): kube-apiserver feeds a webhook's warnings to
 * the same per-request recorder as in-process warnings (endpoints/filters/warning.go), which drops
 * empty ones and ones with control characters, deduplicates, and past 4096 characters in total cuts
 * each to 256, so kelp does not filter them a second time.
 */
export function admissionResponse(uid: string, result: AdmitResult): AdmissionResponse {
  // built field by field (the same keys in the same order as before: uid, allowed, status, warnings,
  // auditAnnotations), without spreads or entry arrays on the common path (allowed, nothing to add)
  const response: {
    uid: string
    allowed: boolean
    status?: ResponseStatus
    warnings?: readonly string[]
    auditAnnotations?: Readonly<Record<string, string>>
  } = { uid, allowed: result.allowed }
  if (!result.allowed) response.status = deniedStatus(result)
  if (result.warnings.length > 0) response.warnings = [...result.warnings]
  let auditAnnotations: Record<string, string> | undefined
  const annotations = result.auditAnnotations
  for (const k in annotations) {
    if (!Object.hasOwn(annotations, k)) continue
    auditAnnotations ??= {}
    const key = webhookAuditAnnotationKey(k)
    if (!(key in auditAnnotations)) auditAnnotations[key] = annotations[k] as string
  }
  if (auditAnnotations !== undefined) response.auditAnnotations = auditAnnotations
  return response
}

// --- /mutate -------------------------------------------------------------------------------------

/**
 * JSON text of a patch with int64s exact: values of the review read as bigint (json.ts) are written
 * back as the integer literals they were (JSON.stringify refuses bigint).
 */
export function stringifyExact(value: unknown): string {
  let marked = false
  const token = BIGINT_TOKEN
  const text = JSON.stringify(value, (_k, v) => {
    if (typeof v !== 'bigint') return v
    marked = true
    return `${token}${v.toString()}`
  })
  if (!marked) return text
  return text.replace(new RegExp(`"${token}(-?\\d+)"`, 'g'), '$1')
}
/** A marker no JSON text of a review holds (random per process). */
const BIGINT_TOKEN = `kelp-bigint-${randomBytes(8).toString('hex')}:`

/**
 * The largest object the apiserver accepts: its request body limit (apiserver handlers/rest.go
 * limitedReadBody, 3 MiB; etcd stores still less, 1.5 MiB by default).
 */
export const MAX_OBJECT_BYTES = 3 * 1024 * 1024
/**
 * A mutation whose object is over that limit is denied with the apiserver's own error for a body over
 * it (`apierrors.NewRequestEntityTooLargeError("limit is 3145728")`: 413 RequestEntityTooLarge). A
 * denial, not an HTTP error: an HTTP error is a failed call, which `failurePolicy: Ignore` would admit
 * unmutated, while the apiserver never stores such an object whatever the policy (running the policy
 * itself, the write fails in storage); it shows as `admission webhook "<name>" denied the request:
 * Request entity too large: limit is 3145728` with code 413 (errors/statuserror.go ToStatusErr).
 */
const OBJECT_TOO_LARGE: ResponseStatus = {
  status: 'Failure',
  code: 413,
  reason: 'RequestEntityTooLarge',
  message: `Request entity too large: limit is ${MAX_OBJECT_BYTES}`,
}

/**
 * AdmitResult → a mutating webhook's AdmissionResponse (apiserver webhook/mutating/dispatcher.go
 * callAttrMutatingHook: a patch needs patchType JSONPatch; the patched object is then decoded and
 * defaulted by the apiserver). Allowed with `patch` (base64 of the RFC 6902 JSON from the review's
 * object to the mutated one) only when the mutating policies changed it; a mutation that failed under
 * failurePolicy Fail is the plugin's denial (`policy '<p>' with binding '<b>' denied request: …`); a
 * mutated object over the apiserver's size limit is denied (OBJECT_TOO_LARGE). No warnings or audit annotations: the mutating policies make none, and the apiserver reports its own
 * schema warnings itself.
 */
export function mutationResponse(uid: string, result: AdmitResult): AdmissionResponse {
  if (!result.allowed) return { uid, allowed: false, status: deniedStatus(result) }
  const patch = result.patch
  if (patch === undefined || patch.length === 0) return { uid, allowed: true }
  // Measured before anything is serialised: a cheap expression can make an object that is huge as
  // text (a 2 MB field listed 100 times is 100 references in memory, a 267 MB patch once written)
  const mutated = result.mutatedObject
  if (mutated !== undefined && jsonSizeWithin(mutated, MAX_OBJECT_BYTES) > MAX_OBJECT_BYTES)
    return { uid, allowed: false, status: OBJECT_TOO_LARGE }
  return { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(stringifyExact(patch)).toString('base64') }
}

/**
 * The framework-neutral handler. `getPolicySet` is read once per request (the server swaps sets
 * atomically by returning another one; a request in flight keeps the set it started with).
 */
const VALIDATE_ONLY = { mutating: false } as const

export function createAdmissionHandler(
  getPolicySet: () => PolicySet | undefined,
  options: AdmissionHandlerOptions = {},
): AdmissionHandler {
  type Parsed = { uid: string; attributes: AdmissionAttributes }
  const mutate = options.mode === 'mutate'
  /** Stage 1: the review, or the 400 it gets. */
  const parse = (body: unknown): Parsed | Refusal => {
    try {
      return parseAdmissionReview(body)
    } catch (e) {
      if (e instanceof BadRequest) return new Refusal(errorResponse(400, e.message))
      throw e
    }
  }
  /** Stage 2: the engine's decision, or the 500 of an engine failure. */
  const admit = (set: PolicySet, parsed: Parsed): AdmitResult | Refusal => {
    try {
      // validate mode runs no mutating policy of a set that holds some (docs/webhook.md: /validate applies no mutation)
      return set.admit(parsed.attributes, mutate ? undefined : VALIDATE_ONLY)
    } catch (e) {
      // an engine bug, not an evaluation error (those are decisions): the webhook's failurePolicy decides
      const message = `internal error evaluating the request: ${(e as Error).message ?? String(e)}`
      return new Refusal(errorResponse(500, message))
    }
  }
  /** Stage 3: the AdmissionReview answered. */
  const answer = (parsed: Parsed, result: AdmitResult, policySet: PolicySet): HandlerResponse => {
    const response = mutate ? mutationResponse(parsed.uid, result) : admissionResponse(parsed.uid, result)
    if (options.onAdmit !== undefined) {
      try {
        options.onAdmit(
          mutate
            ? { attributes: parsed.attributes, result, response, policySet, mode: 'mutate' }
            : { attributes: parsed.attributes, result, response, policySet },
        )
      } catch {
        // observers never change the answer
      }
    }
    const review: AdmissionReviewResponse = { apiVersion: ADMISSION_API_VERSION, kind: ADMISSION_KIND, response }
    return { status: 200, body: review, headers: { 'content-type': 'application/json' } }
  }
  const noSet = () => new Refusal(errorResponse(503, 'no policy set is loaded yet'))

  return {
    handle(body: unknown): HandlerResponse {
      const parsed = parse(body)
      if (parsed instanceof Refusal) return parsed.response
      const set = getPolicySet()
      if (set === undefined) return noSet().response
      const result = admit(set, parsed)
      return result instanceof Refusal ? result.response : answer(parsed, result, set)
    },
    handleAll(bodies: readonly unknown[]): HandlerResponse[] {
      const n = bodies.length
      const parsed: (Parsed | Refusal)[] = new Array(n)
      for (let i = 0; i < n; i++) parsed[i] = parse(bodies[i])
      const set = getPolicySet()
      const results: (AdmitResult | Refusal)[] = new Array(n)
      for (let i = 0; i < n; i++) {
        const p = parsed[i] as Parsed | Refusal
        results[i] = p instanceof Refusal ? p : set === undefined ? noSet() : admit(set, p)
      }
      const out: HandlerResponse[] = new Array(n)
      for (let i = 0; i < n; i++) {
        const r = results[i] as AdmitResult | Refusal
        out[i] = r instanceof Refusal ? r.response : answer(parsed[i] as Parsed, r, set as PolicySet)
      }
      return out
    },
  }
}
