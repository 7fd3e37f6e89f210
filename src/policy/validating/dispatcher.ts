import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../kube/admissionregistration/types.js'
import type { Authorize } from '../../kube/authz/authorizer.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes } from '../attributes.js'
import { RequestVariables, type SharedActivation, sharedActivation } from '../cel/condition.js'
import { createAdmissionRequest, createNamespaceObject } from '../cel/request.js'
import { cachingAuthorizer } from '../generic/caching-authorizer.js'
import type { DispatchContext, PolicyHook as GenericPolicyHook } from '../generic/hooks.js'
import { collectParams } from '../generic/params.js'
import { bindingMatches, definitionMatches } from '../generic/policy-matcher.js'
import { type AdmissionStatus, forbiddenStatus } from '../generic/status.js'
import type { MatchResult } from '../matching/matching.js'
import type { MatchResources as MatcherMatchResources } from '../matching/types.js'
import type { PolicyDecision, PolicyValidator, ValidateResult } from './validator.js'

// Dispatching a request to the ValidatingAdmissionPolicies (apiserver pkg/admission/plugin/policy/
// validating/dispatcher.go Dispatch): per policy, definition matching; per binding, binding
// matching, params, one Validate per param; decisions applied through the binding's
// validationActions (Deny collected, Warn as warnings, Audit as audit annotations); the first
// collected Deny answers the request, as admission.NewForbidden with the decision's reason.

/** A ValidatingAdmissionPolicy with its bindings, compiled (generic.PolicyHook[…, Validator]). */
export interface PolicyHook extends GenericPolicyHook<ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding> {
  readonly validator: PolicyValidator
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
  /** With a Warn action: the `Warning:` text it added (DispatchResult.warnings holds the same string). */
  readonly warning?: string
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

/** Truncates to the first `max` bytes of the UTF-8 text, as Go slices a string. */
function truncateBytes(s: string, max: number): string {
  const b = Buffer.from(s)
  return b.length <= max ? s : b.subarray(0, max).toString()
}

/**
 * The last Warn text of each binding's validations (by the binding object, which a policy set keeps): a
 * validation that fails with the message it gave before (the message batch hands the same string to pods alike)
 * gives the same string again, so a run's reports hold one copy of it, hashed once.
 */
const lastWarnings = new WeakMap<object, { policy: string; message: string; text: string }[]>()

function warningText(
  binding: ValidatingAdmissionPolicyBinding,
  index: number,
  policyName: string,
  bindingName: string,
  message: string,
): string {
  let last = lastWarnings.get(binding)
  if (last === undefined) lastWarnings.set(binding, (last = []))
  const kept = last[index]
  // the binding's name is its object's; the policy's is compared too (a binding names one, by that name)
  if (kept !== undefined && kept.message === message && kept.policy === policyName) return kept.text
  const text = `Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${message}`
  last[index] = { policy: policyName, message, text }
  return text
}

/** A denial collected for the request's Status (the first one answers). */
interface Denial {
  readonly policy: string
  readonly binding?: string
  readonly message: string
  readonly reason?: string
}

/**
 * What one dispatch collects, and the values every policy of the request shares (built on first use:
 * a request no policy matches builds none of them).
 */
class Collector {
  readonly denied: Denial[] = []
  readonly warnings: string[] = []
  readonly annotations: Record<string, string> = {}
  readonly violations: PolicyViolation[] = []
  private authorizer: Authorize | undefined
  /** null until looked up (undefined: the request has no Namespace object). */
  private namespaceValue: JSONObject | undefined | null = null
  private shared: SharedActivation | undefined
  /** The variables the request's policies share (RequestVariables). */
  private variables: RequestVariables | undefined

  constructor(
    readonly a: AdmissionAttributes,
    readonly ctx: DispatchContext,
  ) {}

  /** One caching authorizer for the whole request (dispatcher.go: NewCachingAuthorizer(c.authz)). */
  authorize = (): Authorize => {
    this.authorizer ??= cachingAuthorizer(this.ctx.authorize)
    return this.authorizer
  }

  /** The request's Namespace object; the Namespace object itself is not given its own namespaceObject. */
  namespace(): JSONObject | undefined {
    if (this.namespaceValue === null) {
      const a = this.a
      const isNamespace = a.kind.group === '' && a.kind.version === 'v1' && a.kind.kind === 'Namespace'
      this.namespaceValue = a.namespace !== '' && !isNamespace ? this.ctx.namespaceObject(a.namespace) : undefined
    }
    return this.namespaceValue
  }

  /** The activation of the policies evaluated on the request as it is (validator.shared, no conversion). */
  sharedActivation(): SharedActivation {
    this.shared ??= sharedActivation(
      this.a,
      createAdmissionRequest(this.a),
      createNamespaceObject(this.namespace()),
      this.authorize,
    )
    return this.shared
  }

  requestVariables(): RequestVariables {
    this.variables ??= new RequestVariables()
    return this.variables
  }

  /** AddAnnotation: the first value of a key sticks. */
  addAnnotation(k: string, v: string): void {
    if (!(k in this.annotations)) this.annotations[k] = v
  }

  configError(err: string, hook: PolicyHook, binding?: ValidatingAdmissionPolicyBinding): void {
    const policy = hook.policy.metadata?.name ?? ''
    const fp = hook.policy.spec?.failurePolicy ?? 'Fail'
    if (fp === 'Ignore') return
    const message =
      fp === 'Fail'
        ? `failed to configure ${binding === undefined ? 'policy' : 'binding'}: ${err}`
        : `unrecognized failure policy: '${fp}'`
    const b = binding?.metadata?.name
    this.denied.push({ policy, ...(b !== undefined ? { binding: b } : {}), message })
    this.violations.push({
      policy,
      ...(b !== undefined ? { binding: b } : {}),
      message,
      evaluation: 'Error',
      actions: ['Deny'],
    })
  }

  /** One Validate's decisions through the binding's validationActions; its audit annotations kept in `collected`. */
  record(
    result: ValidateResult,
    policyName: string,
    binding: ValidatingAdmissionPolicyBinding,
    collected: Map<string, string[]>,
  ): void {
    const bindingName = binding.metadata?.name ?? ''
    const bs = binding.spec ?? {}
    const actions = (bs.validationActions ?? []) as readonly ValidationAction[]
    result.decisions.forEach((d: PolicyDecision, i: number) => {
      if (d.action !== 'Deny') return
      // one string for the warning and the violation: a report finds one by the other without hashing a copy
      const warning = actions.includes('Warn') ? warningText(binding, i, policyName, bindingName, d.message) : undefined
      this.violations.push({
        policy: policyName,
        binding: bindingName,
        message: d.message,
        ...(d.reason !== undefined ? { reason: d.reason } : {}),
        expressionIndex: i,
        evaluation: d.evaluation === 'Error' ? 'Error' : 'Deny',
        actions,
        ...(warning !== undefined ? { warning } : {}),
      })
      for (const action of actions) {
        if (action === 'Deny') {
          this.denied.push({
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
          this.addAnnotation(ValidationFailureKey, value)
        } else if (action === 'Warn') {
          this.warnings.push(warning as string)
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
        this.denied.push({ policy: policyName, binding: bindingName, message: ann.error ?? '' })
        this.violations.push({
          policy: policyName,
          binding: bindingName,
          message: ann.error ?? '',
          evaluation: 'Error',
          actions: ['Deny'],
        })
      }
    }
  }

  result(): DispatchResult {
    const { denied, warnings, annotations, violations } = this
    if (denied.length === 0) return { allowed: true, warnings, auditAnnotations: annotations, violations }
    const first = denied[0] as Denial
    const message =
      first.binding !== undefined
        ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
        : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`
    return {
      allowed: false,
      status: forbiddenStatus(this.a, message, first.reason || 'Invalid'),
      warnings,
      auditAnnotations: annotations,
      violations,
    }
  }
}

/**
 * The matching of a list of hooks, planned once. Policies (and bindings) whose match resources are
 * the same JSON share a slot: matching depends on the request and the match resources alone, so a
 * request is matched against each distinct one once (sets often repeat one namespaceSelector or one
 * set of rules across all their policies).
 */
interface MatchPlan {
  readonly hooks: readonly PolicyHook[]
  /** Each hook's bindings array, as planned (a changed one invalidates the plan). */
  readonly bindings: readonly (readonly ValidatingAdmissionPolicyBinding[])[]
  readonly definitionSlots: readonly number[]
  readonly bindingSlots: readonly (readonly number[])[]
  readonly slots: number
}

type BindingMatch = ReturnType<typeof bindingMatches>

const plans = new WeakMap<readonly PolicyHook[], MatchPlan>()

function matchPlan(hooks: readonly PolicyHook[]): MatchPlan {
  const planned = plans.get(hooks)
  if (planned !== undefined && samePlan(planned, hooks)) return planned
  const slotOf = new Map<string, number>()
  const slot = (key: string) => {
    let i = slotOf.get(key)
    if (i === undefined) slotOf.set(key, (i = slotOf.size))
    return i
  }
  const plan: MatchPlan = {
    hooks: [...hooks],
    bindings: hooks.map((h) => h.bindings),
    definitionSlots: hooks.map((h) => slot(`policy ${JSON.stringify(h.policy.spec?.matchConstraints)}`)),
    bindingSlots: hooks.map((h) => h.bindings.map((b) => slot(`binding ${JSON.stringify(b.spec?.matchResources)}`))),
    slots: slotOf.size,
  }
  plans.set(hooks, plan)
  return plan
}

function samePlan(plan: MatchPlan, hooks: readonly PolicyHook[]): boolean {
  if (plan.hooks.length !== hooks.length) return false
  for (let i = 0; i < hooks.length; i++) {
    const h = hooks[i] as PolicyHook
    if (plan.hooks[i] !== h || plan.bindings[i] !== h.bindings) return false
  }
  return true
}

/** Dispatch: the admission outcome of the policies for one request. */
export function dispatch(a: AdmissionAttributes, hooks: readonly PolicyHook[], ctx: DispatchContext): DispatchResult {
  const out = new Collector(a, ctx)
  const plan = matchPlan(hooks)
  // this request's match of each slot, on first use
  const matched: (MatchResult | BindingMatch | undefined)[] = new Array(plan.slots)
  for (let h = 0; h < hooks.length; h++) {
    const hook = hooks[h] as PolicyHook
    const slot = plan.definitionSlots[h] as number
    let m = matched[slot] as MatchResult | undefined
    if (m === undefined) {
      const spec = hook.policy.spec ?? {}
      m = definitionMatches(ctx.matcher, a, ctx.mapper, spec.matchConstraints as MatcherMatchResources | undefined)
      matched[slot] = m
    }
    if (m.error !== undefined) {
      out.configError(m.error.message, hook)
      continue
    }
    if (!m.matches) continue
    if (hook.configurationError !== undefined) {
      out.configError(hook.configurationError, hook)
      continue
    }
    dispatchBindings(out, hook, m, plan.bindingSlots[h] as readonly number[], matched)
  }
  return out.result()
}

/**
 * The request's match of a binding, from its slot (bindings with the same matchResources share one);
 * no closure per hook: dispatch runs for every request.
 */
function bindingMatch(
  out: Collector,
  hook: PolicyHook,
  b: number,
  slots: readonly number[],
  matched: (MatchResult | BindingMatch | undefined)[],
): BindingMatch {
  const slot = slots[b] as number
  let bm = matched[slot] as BindingMatch | undefined
  if (bm === undefined) {
    const bs = hook.bindings[b]?.spec ?? {}
    bm = bindingMatches(out.ctx.matcher, out.a, out.ctx.mapper, bs.matchResources as MatcherMatchResources | undefined)
    matched[slot] = bm
  }
  return bm
}

/** The bindings of one matching policy: binding matching, params, one Validate per param. */
function dispatchBindings(
  out: Collector,
  hook: PolicyHook,
  m: MatchResult & { matches: true },
  slots: readonly number[],
  matched: (MatchResult | BindingMatch | undefined)[],
): void {
  const a = out.a
  const ctx = out.ctx
  const policyName = hook.policy.metadata?.name ?? ''
  const spec = hook.policy.spec ?? {}
  // the request as it is, no params: the request's shared activation serves (validateShared)
  const shared = hook.validator.shared && m.matchResource === a.resource && m.matchKind === a.kind
  let collected: Map<string, string[]> | undefined
  let versioned: AdmissionAttributes | undefined
  for (let b = 0; b < hook.bindings.length; b++) {
    const binding = hook.bindings[b] as ValidatingAdmissionPolicyBinding
    const bs = binding.spec ?? {}
    const bm = bindingMatch(out, hook, b, slots, matched)
    if (bm.error !== undefined) {
      out.configError(bm.error.message, hook, binding)
      continue
    }
    if (!bm.matches) continue
    const p = collectParams(spec.paramKind, hook.params, bs.paramRef, a.namespace)
    if ('error' in p) {
      out.configError(p.error, hook, binding)
      continue
    }
    if (shared) {
      // a shared policy has no paramKind, so its one param is null
      const result = hook.validator.validateShared(out.sharedActivation())
      if (result !== undefined) out.record(result, policyName, binding, (collected ??= new Map()))
      continue
    }
    if (versioned === undefined && p.params.length > 0) {
      const sameKind =
        m.matchKind.group === a.kind.group && m.matchKind.version === a.kind.version && m.matchKind.kind === a.kind.kind
      versioned = sameKind || ctx.convert === undefined ? a : ctx.convert(a, m.matchKind)
    }
    const namespace = out.namespace()
    for (const param of p.params) {
      const wrapped = param !== null && versioned !== undefined ? withParamKind(param, spec.paramKind) : param
      const result = hook.validator.validate({
        matchedResource: m.matchResource,
        attributes: versioned ?? a,
        params: wrapped,
        ...(namespace !== undefined ? { namespace } : {}),
        authorize: out.authorize(),
        requestVariables: out.requestVariables(),
      })
      out.record(result, policyName, binding, (collected ??= new Map()))
    }
  }
  if (collected !== undefined)
    for (const [key, values] of collected) out.addAnnotation(`${policyName}/${key}`, values.join(', '))
}

/** wrappedParam: a typed param gets apiVersion/kind from paramKind (JSON params already carry them). */
function withParamKind(param: JSONObject, pk: { apiVersion?: string; kind?: string } | undefined): JSONObject {
  if (pk === undefined || (typeof param.apiVersion === 'string' && typeof param.kind === 'string')) return param
  return { ...param, apiVersion: pk.apiVersion ?? '', kind: pk.kind ?? '' }
}
