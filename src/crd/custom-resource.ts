import { parseGroupVersion } from '../kube/api-version.js'
import type { FieldValidation, RequestStatus } from '../kube/decoding.js'
import { RuntimeCELCostBudget } from '../kube/environment.js'
import { type FieldError, type InvalidStatus, kubectlInvalidText, newInvalid } from '../kube/field.js'
import type { NameGenerator } from '../kube/names.js'
import { CorrelatedObject, type Correlation } from '../kube/schema/correlation.js'
import { isObject } from '../kube/values/json.js'
import type { CRD } from './crd.js'
import { SchemaErrorLimit } from './structural/openapi-errors.js'
import { type Operation, validateStructure } from './structural/structure.js'

// Validating a custom resource write as the apiserver does (apiextensions-apiserver
// pkg/registry/customresource/strategy.go Validate / ValidateUpdate): the version must be served,
// a deprecated version warns; then the structural steps of validateStructure (decoding, pruning,
// defaulting, type meta, metadata, OpenAPI schema with ratcheting, embedded resources, list-type
// invariants) and, unless one of those errors blocks them, the x-kubernetes-validations rules with
// one 10M cost budget for the object, sharing the update's correlation for ratcheting.

export interface ValidateOptions {
  /** The object before the update (an UPDATE); absent for a CREATE. */
  readonly oldObject?: unknown
  /** How unknown fields are treated; Strict (kubectl's default) unless given. */
  readonly fieldValidation?: FieldValidation
  /** The request's namespace (namespaced kinds); the object's own when not given. */
  readonly namespace?: string
  /** `status` for a write to the status subresource (an UPDATE of /status). */
  readonly subresource?: 'status'
  /**
   * A CREATE with generateName and no name: the name the store gives it before validation (default:
   * kube-apiserver's SimpleNameGenerator, the prefix plus 5 random characters).
   */
  readonly generateName?: NameGenerator
}

/** The outcome of a custom resource write. */
export interface CustomResourceResult {
  readonly allowed: boolean
  /** Field errors (422 Invalid), in the apiserver's order. */
  readonly errors: readonly FieldError[]
  /** `Warning:` texts: deprecation, unknown fields under Warn, ratcheted rule failures, finalizer names. */
  readonly warnings: readonly string[]
  /** The Status the apiserver answers when not allowed. */
  readonly status?: InvalidStatus | RequestStatus
  /** What kubectl prints for the failure (`The Widget "x" is invalid: ...`, or the request error). */
  readonly message?: string
  /** The object as stored: decoded, pruned and defaulted (undefined when rejected before validation). */
  readonly object?: unknown
  /**
   * The CRD's conversion webhook the apiserver would call to store this version (crd.ts conversionWebhookFor):
   * its answer is outside kelp's reach, so an accepted object is accepted as far as the apiserver's own checks go.
   */
  readonly conversionWebhook?: string
}

function rejected(code: 400 | 404, message: string, warnings: readonly string[]): CustomResourceResult {
  const reason = code === 404 ? 'NotFound' : 'BadRequest'
  return { allowed: false, errors: [], warnings, status: { code, reason, message }, message }
}

/**
 * An update as `kubectl apply` makes it: a patch of the stored object, so the new object carries the
 * stored resourceVersion (manifests have none; a PUT without one fails `must be specified for an
 * update`). A stored object always has one; a manifest used as the old object gets a placeholder.
 */
function asStored(object: unknown, old: unknown): [unknown, unknown] {
  const meta = (o: unknown) => (isObject(o) && isObject(o.metadata) ? o.metadata : undefined)
  const oldRV = meta(old)?.resourceVersion
  const rv = typeof oldRV === 'string' && oldRV !== '' ? oldRV : '1'
  if (rv !== oldRV && isObject(old)) old = { ...old, metadata: { ...meta(old), resourceVersion: rv } }
  const newRV = meta(object)?.resourceVersion
  if ((newRV === undefined || newRV === '') && isObject(object)) {
    object = { ...object, metadata: { ...meta(object), resourceVersion: rv } }
  }
  return [object, old]
}

/** apierrors.NewTimeoutError as the handler answers a request past its deadline (what kubectl prints after `(Timeout): `). */
const TIMEOUT_MESSAGE = 'Timeout: request did not complete within requested timeout - context deadline exceeded'

/** Validates one custom resource against its CRD (create, or update when `oldObject` is given). */
export function validateCustomResource(crd: CRD, object: unknown, options: ValidateOptions = {}): CustomResourceResult {
  try {
    return validate(crd, object, options)
  } catch (e) {
    // a body of more wrongly typed values than the apiserver checks within its request timeout
    if (e instanceof SchemaErrorLimit)
      return {
        allowed: false,
        errors: [],
        warnings: [],
        status: { code: 504, reason: 'Timeout', message: TIMEOUT_MESSAGE },
        message: TIMEOUT_MESSAGE,
      }
    throw e
  }
}

function validate(crd: CRD, object: unknown, options: ValidateOptions): CustomResourceResult {
  const obj = (object ?? {}) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } }
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : ''
  const { group, version } = parseGroupVersion(apiVersion)
  const v = crd.versions.get(version)
  if (v === undefined || !v.served)
    return rejected(404, `no matches for kind "${crd.kind}" in version "${apiVersion}"`, [])
  const warnings: string[] = []
  const deprecation = v.deprecationWarning
  if (deprecation !== undefined) warnings.push(deprecation)
  let old = options.oldObject
  if (old !== undefined) [object, old] = asStored(object, old)
  const operation: Operation =
    old === undefined ? 'CREATE' : options.subresource === 'status' ? 'UPDATE_STATUS' : 'UPDATE'
  const schema = v.schema
  let correlation: Correlation | undefined
  const subresources = v.spec.subresources
  const s = validateStructure(schema, object, {
    operation,
    oldObject: old,
    resource: { group: crd.group, version, kind: crd.kind, namespaced: crd.namespaced },
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    fieldValidation: options.fieldValidation ?? 'Strict',
    statusSubresource: subresources?.status !== undefined,
    ...(subresources?.scale !== undefined ? { scale: subresources.scale } : {}),
    version: crd.kubeVersion,
    ...(options.generateName !== undefined ? { generateName: options.generateName } : {}),
    correlate: (o, oldObj) => (correlation = new CorrelatedObject(o, oldObj, schema)),
  })
  warnings.push(...s.warnings)
  if (s.requestError !== undefined) return rejected(400, s.requestError, warnings)
  const errors: FieldError[] = [...s.errors]
  const cel = s.runCEL ? v.celValidator() : undefined
  if (cel !== undefined) {
    // a status update validates the whole object's rules against the old object, as the strategy does
    if (s.oldObject !== undefined) correlation ??= new CorrelatedObject(s.object, s.oldObject, schema)
    const r = cel.validate(undefined, s.object, s.oldObject, RuntimeCELCostBudget, correlation)
    errors.push(...r.errors)
    warnings.push(...r.warnings)
  }
  if (errors.length === 0) errors.push(...s.errorsIfOtherwiseValid)
  if (errors.length === 0) {
    warnings.push(...s.warningsIfValid)
    const conversionWebhook = crd.conversionWebhookFor(version)
    return { allowed: true, errors, warnings, object: s.object, ...(conversionWebhook ? { conversionWebhook } : {}) }
  }
  // the stored object's name: generated from generateName on CREATE (errors.NewInvalid in the
  // strategy's caller names the object as it is then)
  const storedName = (s.object?.metadata as { name?: unknown } | undefined)?.name ?? obj.metadata?.name
  const name = typeof storedName === 'string' ? storedName : ''
  // BeforeCreate / BeforeUpdate name the object's own group and kind (the unstructured typer's
  // ObjectKinds), which differ from the CRD's when the kind is wrong
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : crd.kind
  const status = newInvalid(group, kind, name, errors)
  return { allowed: false, errors, warnings, status, message: kubectlInvalidText(status), object: s.object }
}
