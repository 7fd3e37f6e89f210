import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes, GroupVersionKind } from '../attributes.js'
import type { MatchResources as MatcherMatchResources } from '../matching/types.js'
import type { DispatchContext, PolicyHook } from './hooks.js'
import { collectParams } from './params.js'
import { bindingMatches, definitionMatches } from './policy-matcher.js'

// The invocations of a request (apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go
// Dispatch): per policy, definition matching; per binding, binding matching and params; one invocation
// per policy × binding × param, in order. A configuration error of a policy or binding is a PolicyError
// under the policy's failurePolicy. The validating dispatcher plans its matching per request shape
// instead (validating/dispatcher.ts) and makes the same decisions.

/** One policy × binding × param the request matched. */
export interface Invocation<H extends PolicyHook> {
  readonly hook: H
  readonly binding: H['bindings'][number]
  readonly param: JSONObject | null
  readonly matchKind: GroupVersionKind
  readonly matchResource: AdmissionAttributes['resource']
  /** The invocation's identity across a reinvocation: policy, binding, param namespace and name. */
  readonly key: string
}

/** An error of a policy (or binding) (generic.PolicyError). */
export interface PolicyError {
  readonly policy: string
  readonly binding?: string
  readonly message: string
  /** PolicyError.Error(). */
  readonly text: string
}

/** A PolicyError with the Status reason it answers with and the policy's failurePolicy. */
export interface FailedInvocation extends PolicyError {
  readonly reason: string
  readonly failurePolicy: string
}

/** An object's metadata ({} when it has none). */
export const metadataOf = (o: JSONObject | null): JSONObject =>
  o !== null && typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as JSONObject) : {}

/** `namespace/name` (or `name`) of a param; undefined for no param. */
export function paramName(p: JSONObject | null): string | undefined {
  if (p === null) return undefined
  const m = metadataOf(p)
  const ns = typeof m.namespace === 'string' && m.namespace !== '' ? `${m.namespace}/` : ''
  return `${ns}${String(m.name ?? '')}`
}

export function policyError<H extends PolicyHook>(
  inv: { hook: H; binding?: H['bindings'][number] },
  message: string,
  reason: string,
): FailedInvocation {
  const policy = inv.hook.policy.metadata?.name ?? ''
  const binding = inv.binding?.metadata?.name
  const text =
    binding !== undefined
      ? `policy '${policy}' with binding '${binding}' denied request: ${message}`
      : `policy "${policy}" denied request: ${message}`
  return {
    policy,
    ...(binding !== undefined ? { binding } : {}),
    message,
    text,
    reason,
    failurePolicy: inv.hook.policy.spec?.failurePolicy ?? 'Fail',
  }
}

/** generic Dispatch: the invocations (policy × binding × param) the request matches, in order. */
export function collectInvocations<H extends PolicyHook>(
  a: AdmissionAttributes,
  hooks: readonly H[],
  ctx: DispatchContext,
  errors: FailedInvocation[],
): Invocation<H>[] {
  const out: Invocation<H>[] = []
  for (const hook of hooks) {
    const m = definitionMatches(
      ctx.matcher,
      a,
      ctx.mapper,
      hook.policy.spec?.matchConstraints as MatcherMatchResources | undefined,
    )
    if (m.error !== undefined) {
      errors.push(policyError({ hook }, `failed to configure policy: ${m.error.message}`, ''))
      continue
    }
    if (!m.matches) continue
    if (hook.configurationError !== undefined) {
      errors.push(policyError({ hook }, `failed to configure policy: ${hook.configurationError}`, ''))
      continue
    }
    for (const binding of hook.bindings) {
      const bm = bindingMatches(
        ctx.matcher,
        a,
        ctx.mapper,
        binding.spec?.matchResources as MatcherMatchResources | undefined,
      )
      if (bm.error !== undefined) {
        errors.push(policyError({ hook, binding }, `failed to configure binding: ${bm.error.message}`, ''))
        continue
      }
      if (!bm.matches) continue
      const p = collectParams(hook.policy.spec?.paramKind, hook.params, binding.spec?.paramRef, a.namespace)
      if ('error' in p) {
        errors.push(policyError({ hook, binding }, `failed to configure binding: ${p.error}`, ''))
        continue
      }
      for (const param of p.params) {
        const pm = param === null ? {} : metadataOf(param)
        out.push({
          hook,
          binding,
          param,
          matchKind: m.matchKind,
          matchResource: m.matchResource,
          key: JSON.stringify([
            hook.policy.metadata?.name ?? '',
            binding.metadata?.name ?? '',
            pm.namespace ?? '',
            pm.name ?? '',
          ]),
        })
      }
    }
  }
  return out
}
