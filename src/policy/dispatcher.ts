import { goQuote } from '../cel/ext/quote.js'
import type { Authorize } from '../kube/authz/authorizer.js'
import type { EquivalentResourceMapper } from '../kube/resources.js'
import type { AdmissionAttributes, GroupVersionKind } from './attributes.js'
import type { Matcher } from './matching/matching.js'
import { bindingMatches, definitionMatches } from './matching/policy-matcher.js'
import type { MatchResources as MatcherMatchResources } from './matching/types.js'
import { collectParams, type ParamSource } from './params.js'
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types.js'
import type { PolicyDecision, PolicyValidator } from './validator.js'

// Dispatching a request to the ValidatingAdmissionPolicies (apiserver pkg/admission/plugin/policy/
// validating/dispatcher.go Dispatch): per policy, definition matching; per binding, binding
// matching, params, one Validate per param; decisions applied through the binding's
// validationActions (Deny collected, Warn as warnings, Audit as audit annotations); the first
// collected Deny answers the request, as admission.NewForbidden with the decision's reason.

type JSONObject = Record<string, unknown>

/** A policy with its bindings, compiled (generic.PolicyHook). */
export interface PolicyHook {
  readonly policy: ValidatingAdmissionPolicy
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[]
  readonly validator: PolicyValidator
  /** The param objects of the policy's paramKind (undefined when it has none or it is unknown). */
  readonly params?: ParamSource
  /** e.g. `failed to find resource referenced by paramKind: '…'`. */
  readonly configurationError?: string
}

export interface DispatchContext {
  readonly matcher: Matcher
  readonly mapper: EquivalentResourceMapper
  /** The Namespace object of a namespaced request (undefined: none; the matcher's lookup decides). */
  readonly namespaceObject: (name: string) => JSONObject | undefined
  readonly authorize: Authorize
  /** Converts the request's object to the kind a policy matched (matchPolicy Equivalent). */
  readonly convert?: (a: AdmissionAttributes, to: GroupVersionKind) => AdmissionAttributes
}

export type ValidationAction = 'Deny' | 'Warn' | 'Audit'

/** One failed validation (or error) of one policy/binding/param, with the actions that applied. */
export interface PolicyViolation {
  readonly policy: string
  readonly binding?: string
  /** The decision message (`failed expression: …`, the message, an error). */
  readonly message: string
  readonly reason?: string
  /** Index of the validation (Deny / Audit report it); undefined for configuration errors. */
  readonly expressionIndex?: number
  readonly evaluation: 'Deny' | 'Error'
  /** What the binding did with it; configuration errors and audit annotation errors deny directly. */
  readonly actions: readonly ValidationAction[]
}

export interface AdmissionStatus {
  readonly kind: 'Status'
  readonly apiVersion: 'v1'
  readonly status: 'Failure'
  readonly message: string
  readonly reason: string
  readonly code: number
  readonly details: {
    readonly group?: string
    readonly kind: string
    readonly name: string
    readonly causes: readonly { readonly message: string }[]
  }
}

export interface DispatchResult {
  readonly allowed: boolean
  /** The Status of a denied request (403/422/401/413 per the first Deny's reason). */
  readonly status?: AdmissionStatus
  /** `Warning:` texts (Warn actions). */
  readonly warnings: readonly string[]
  /** Audit annotations: `<policy>/<key>` values and `validation.policy.admission.k8s.io/validation_failure`. */
  readonly auditAnnotations: Readonly<Record<string, string>>
  /** Every Deny / Error decision with its actions, in evaluation order (for reports). */
  readonly violations: readonly PolicyViolation[]
}

const ValidationFailureKey = 'validation.policy.admission.k8s.io/validation_failure'
const MaxAuditAnnotationValueLength = 10 * 1024

/** reasonToCode. */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403
    case 'Unauthorized':
      return 401
    case 'RequestEntityTooLarge':
      return 413
    default:
      return 422
  }
}

/** extractResourceName: the request name, else the object's name or generateName, else Unknown. */
function resourceName(a: AdmissionAttributes): string {
  if (a.name !== '') return a.name
  const m = a.object?.metadata as JSONObject | undefined
  if (typeof m?.name === 'string' && m.name !== '') return m.name
  if (typeof m?.generateName === 'string' && m.generateName !== '') return m.generateName
  return 'Unknown'
}

/** admission.NewForbidden(a, err) with the decision's reason and code, and the message as a cause. */
export function forbiddenStatus(a: AdmissionAttributes, message: string, reason: string): AdmissionStatus {
  const gr = a.resource.group === '' ? a.resource.resource : `${a.resource.resource}.${a.resource.group}`
  const name = resourceName(a)
  const full = gr === '' ? `forbidden: ${message}` : `${gr} ${goQuote(name)} is forbidden: ${message}`
  return {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: full,
    reason,
    code: reasonToCode(reason),
    details: {
      ...(a.resource.group !== '' ? { group: a.resource.group } : {}),
      kind: a.resource.resource,
      name,
      causes: [{ message }],
    },
  }
}

/** Truncates to the first `max` bytes of the UTF-8 text, as Go slices a string. */
function truncateBytes(s: string, max: number): string {
  const b = Buffer.from(s)
  return b.length <= max ? s : b.subarray(0, max).toString()
}

/** Dispatch: the admission outcome of the policies for one request. */
export function dispatch(a: AdmissionAttributes, hooks: readonly PolicyHook[], ctx: DispatchContext): DispatchResult {
  const denied: { policy: string; binding?: string; message: string; reason?: string }[] = []
  const warnings: string[] = []
  const annotations: Record<string, string> = {}
  const violations: PolicyViolation[] = []
  const addAnnotation = (k: string, v: string) => {
    // AddAnnotation: the first value of a key sticks
    if (!(k in annotations)) annotations[k] = v
  }

  const configError = (err: string, hook: PolicyHook, binding?: ValidatingAdmissionPolicyBinding) => {
    const policy = hook.policy.metadata?.name ?? ''
    const fp = hook.policy.spec?.failurePolicy ?? 'Fail'
    if (fp === 'Ignore') return
    const message =
      fp === 'Fail'
        ? `failed to configure ${binding === undefined ? 'policy' : 'binding'}: ${err}`
        : `unrecognized failure policy: '${fp}'`
    const b = binding?.metadata?.name
    denied.push({ policy, ...(b !== undefined ? { binding: b } : {}), message })
    violations.push({
      policy,
      ...(b !== undefined ? { binding: b } : {}),
      message,
      evaluation: 'Error',
      actions: ['Deny'],
    })
  }

  // one caching authorizer for the whole request (dispatcher.go: NewCachingAuthorizer(c.authz))
  const authorize = cachingAuthorizer(ctx.authorize)

  for (const hook of hooks) {
    const policyName = hook.policy.metadata?.name ?? ''
    const spec = hook.policy.spec ?? {}
    const m = definitionMatches(ctx.matcher, a, ctx.mapper, spec.matchConstraints as MatcherMatchResources | undefined)
    if (m.error !== undefined) {
      configError(m.error.message, hook)
      continue
    }
    if (!m.matches) continue
    if (hook.configurationError !== undefined) {
      configError(hook.configurationError, hook)
      continue
    }
    const collected = new Map<string, string[]>()
    let versioned: AdmissionAttributes | undefined
    for (const binding of hook.bindings) {
      const bindingName = binding.metadata?.name ?? ''
      const bs = binding.spec ?? {}
      const bm = bindingMatches(ctx.matcher, a, ctx.mapper, bs.matchResources as MatcherMatchResources | undefined)
      if (bm.error !== undefined) {
        configError(bm.error.message, hook, binding)
        continue
      }
      if (!bm.matches) continue
      const p = collectParams(spec.paramKind, hook.params, bs.paramRef, a.namespace)
      if ('error' in p) {
        configError(p.error, hook, binding)
        continue
      }
      if (versioned === undefined && p.params.length > 0) {
        const sameKind =
          m.matchKind.group === a.kind.group &&
          m.matchKind.version === a.kind.version &&
          m.matchKind.kind === a.kind.kind
        versioned = sameKind || ctx.convert === undefined ? a : ctx.convert(a, m.matchKind)
      }
      // the Namespace object itself is not given its own namespaceObject
      const isNamespace = a.kind.group === '' && a.kind.version === 'v1' && a.kind.kind === 'Namespace'
      const namespace = a.namespace !== '' && !isNamespace ? ctx.namespaceObject(a.namespace) : undefined
      const actions = (bs.validationActions ?? []) as readonly ValidationAction[]
      for (const param of p.params) {
        const wrapped = param !== null && versioned !== undefined ? withParamKind(param, spec.paramKind) : param
        const result = hook.validator.validate({
          matchedResource: m.matchResource,
          attributes: versioned ?? a,
          params: wrapped,
          ...(namespace !== undefined ? { namespace } : {}),
          authorize,
        })
        result.decisions.forEach((d: PolicyDecision, i: number) => {
          if (d.action !== 'Deny') return
          violations.push({
            policy: policyName,
            binding: bindingName,
            message: d.message,
            ...(d.reason !== undefined ? { reason: d.reason } : {}),
            expressionIndex: i,
            evaluation: d.evaluation === 'Error' ? 'Error' : 'Deny',
            actions,
          })
          for (const action of actions) {
            if (action === 'Deny') {
              denied.push({
                policy: policyName,
                binding: bindingName,
                message: d.message,
                ...(d.reason ? { reason: d.reason } : {}),
              })
            } else if (action === 'Audit') {
              const value = JSON.stringify([
                {
                  message: d.message,
                  policy: bs.policyName ?? '',
                  binding: bindingName,
                  expressionIndex: i,
                  validationActions: actions,
                },
              ])
              addAnnotation(ValidationFailureKey, value)
            } else if (action === 'Warn') {
              warnings.push(
                `Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`,
              )
            }
          }
        })
        for (const ann of result.auditAnnotations) {
          if (ann.action === 'Publish') {
            const value = truncateBytes(ann.value ?? '', MaxAuditAnnotationValueLength)
            const values = collected.get(ann.key) ?? []
            if (!values.includes(value)) values.push(value)
            collected.set(ann.key, values)
          } else if (ann.action === 'Error') {
            denied.push({ policy: policyName, binding: bindingName, message: ann.error ?? '' })
            violations.push({
              policy: policyName,
              binding: bindingName,
              message: ann.error ?? '',
              evaluation: 'Error',
              actions: ['Deny'],
            })
          }
        }
      }
    }
    for (const [key, values] of collected) addAnnotation(`${policyName}/${key}`, values.join(', '))
  }

  if (denied.length === 0) return { allowed: true, warnings, auditAnnotations: annotations, violations }
  const first = denied[0] as (typeof denied)[number]
  const message =
    first.binding !== undefined
      ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
      : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`
  return {
    allowed: false,
    status: forbiddenStatus(a, message, first.reason || 'Invalid'),
    warnings,
    auditAnnotations: annotations,
    violations,
  }
}

/**
 * admission/plugin/authorizer/caching_authorizer.go: decisions cached for the duration of one request,
 * keyed by the attributes with the user's groups sorted (equivalent checks answer alike, and the
 * authorizer is asked once).
 */
function cachingAuthorizer(inner: Authorize): Authorize {
  const decisions = new Map<string, ReturnType<Authorize>>()
  return (a) => {
    const key = JSON.stringify({
      user: a.user,
      groups: [...a.groups].sort(),
      verb: a.verb,
      resourceRequest: a.resourceRequest,
      apiGroup: a.apiGroup ?? '',
      apiVersion: a.apiVersion ?? '',
      resource: a.resource ?? '',
      subresource: a.subresource ?? '',
      namespace: a.namespace ?? '',
      name: a.name ?? '',
      fieldSelector: a.fieldSelector ?? '',
      labelSelector: a.labelSelector ?? '',
      path: a.path ?? '',
    })
    const cached = decisions.get(key)
    if (cached !== undefined) return cached
    const d = inner(a)
    decisions.set(key, d)
    return d
  }
}

/** wrappedParam: a typed param gets apiVersion/kind from paramKind (JSON params already carry them). */
function withParamKind(param: JSONObject, pk: { apiVersion?: string; kind?: string } | undefined): JSONObject {
  if (pk === undefined || (typeof param.apiVersion === 'string' && typeof param.kind === 'string')) return param
  return { ...param, apiVersion: pk.apiVersion ?? '', kind: pk.kind ?? '' }
}
