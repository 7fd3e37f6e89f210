// The hooks of a policy set: each admission policy kind's policies and bindings defaulted, validated as the
// apiserver's registry validates them (refused ones are problems), and paired policy × bindings × params:
// generic/plugin.go's policy source (a policy without bindings does nothing, a binding without its policy
// is ignored, as in a cluster). One builder for ValidatingAdmissionPolicies and MutatingAdmissionPolicies.

import {
  validateStaticSuffix,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from '../builtin/validation/admissionregistration/index.js'
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
} from '../builtin/validation/admissionregistration/mutating-policy.js'
import {
  applyMutatingAdmissionPolicyBindingDefaults,
  applyMutatingAdmissionPolicyDefaults,
  applyValidatingAdmissionPolicyBindingDefaults,
  applyValidatingAdmissionPolicyDefaults,
} from '../kube/admissionregistration/defaults.js'
import type {
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../kube/admissionregistration/types.js'
import { type FieldError, newInvalid } from '../kube/field.js'
import type { RESTMapper } from '../kube/resources.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type { policyCompileHook } from '../policy/cel/validation-hook.js'
import { type ParamSource, paramKindGVK } from '../policy/generic/params.js'
import type { Indexed, Problem } from './material.js'
import { gvkOf } from './objects.js'

type Named = { metadata?: { name?: string } }
type Bound = Named & { spec?: { policyName?: string } }
type Compile = ReturnType<typeof policyCompileHook>
type ParamKind = Parameters<typeof paramKindGVK>[0]

/** One admission policy kind: its names, defaulting and validation (the registry's strategy of each). */
export interface PolicyKind<P extends Named, B extends Bound> {
  readonly policy: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy'
  readonly binding: 'ValidatingAdmissionPolicyBinding' | 'MutatingAdmissionPolicyBinding'
  readonly defaultPolicy: (p: P) => P
  readonly validatePolicy: (p: P, options: { compile: Compile }) => FieldError[]
  readonly defaultBinding: (b: B) => B
  readonly validateBinding: (b: B) => FieldError[]
  /**
   * Policies, and each policy's bindings, in name order (mutating: they run in sequence, and the
   * apiserver's order is its informers' listing, which no manifest can fix; names are what a reader can
   * predict); else in input order (validating: every policy runs on the same object).
   */
  readonly byName: boolean
}

export const VALIDATING: PolicyKind<ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding> = {
  policy: 'ValidatingAdmissionPolicy',
  binding: 'ValidatingAdmissionPolicyBinding',
  defaultPolicy: applyValidatingAdmissionPolicyDefaults,
  validatePolicy: validateValidatingAdmissionPolicy,
  defaultBinding: applyValidatingAdmissionPolicyBindingDefaults,
  validateBinding: validateValidatingAdmissionPolicyBinding,
  byName: false,
}

export const MUTATING: PolicyKind<MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding> = {
  policy: 'MutatingAdmissionPolicy',
  binding: 'MutatingAdmissionPolicyBinding',
  defaultPolicy: applyMutatingAdmissionPolicyDefaults,
  validatePolicy: validateMutatingAdmissionPolicy,
  defaultBinding: applyMutatingAdmissionPolicyBindingDefaults,
  validateBinding: validateMutatingAdmissionPolicyBinding,
  byName: true,
}

/** A refused policy or binding as a problem: the 422 Invalid kubectl prints for it. */
export function policyProblem(index: number, kind: string, obj: Named, errors: FieldError[]): Problem {
  const name = obj.metadata?.name ?? ''
  const status = newInvalid('admissionregistration.k8s.io', kind, name, errors)
  return { index, kind, name, errors, message: status.message }
}

/** What building hooks needs of the set being built. */
export interface HookContext {
  readonly compile: Compile
  /** Material accepted without validation (a cluster accepted it; the bundled pack). */
  readonly trusted: (o: object) => boolean
  readonly problems: Problem[]
  readonly mapper: RESTMapper
  /** The inputs that are no material: the param candidates. */
  readonly others: readonly JSONObject[]
  /** The namespace kubectl creates a namespaced input without one in (its context namespace; `default`). */
  readonly namespace?: string
  /** The target release's minor version (the strategies' version-dependent create rules; default the newest). */
  readonly minor?: number
}

/** The valid policies by name and the valid bindings by the policy they name (the diagnostics read both). */
export interface AdmittedMaterial<P, B> {
  readonly valid: Map<string, P>
  readonly bindingsByPolicy: Map<string, B[]>
}

/** Defaulted and validated policies and bindings; the refused ones go to `ctx.problems`. */
export function admitMaterial<P extends Named, B extends Bound>(
  kind: PolicyKind<P, B>,
  policies: readonly Indexed<P>[],
  bindings: readonly Indexed<B>[],
  ctx: HookContext,
): AdmittedMaterial<P, B> {
  const valid = new Map<string, P>()
  for (const { index, obj } of policies) {
    const p = kind.defaultPolicy(obj)
    // the strategy's Validate: the kind's validation, then (1.37+) the reserved name suffix
    const errors = ctx.trusted(obj)
      ? []
      : [
          ...kind.validatePolicy(p, { compile: ctx.compile }),
          ...validateStaticSuffix(p.metadata?.name, ctx.minor ?? 37),
        ]
    if (errors.length > 0) ctx.problems.push(policyProblem(index, kind.policy, p, errors))
    else valid.set(p.metadata?.name ?? '', p)
  }
  const bindingsByPolicy = new Map<string, B[]>()
  for (const { index, obj } of bindings) {
    const b = kind.defaultBinding(obj)
    const errors = ctx.trusted(obj)
      ? []
      : [...kind.validateBinding(b), ...validateStaticSuffix(b.metadata?.name, ctx.minor ?? 37)]
    if (errors.length > 0) {
      ctx.problems.push(policyProblem(index, kind.binding, b, errors))
      continue
    }
    const name = b.spec?.policyName ?? ''
    bindingsByPolicy.set(name, [...(bindingsByPolicy.get(name) ?? []), b])
  }
  return { valid, bindingsByPolicy }
}

/** A policy's params: the param objects of its paramKind, or why there are none to read. */
export interface PolicyParams {
  readonly params?: ParamSource
  /** e.g. `failed to find resource referenced by paramKind: '…'` (every request it matches fails). */
  readonly configurationError?: string
}

const NO_PARAMS: PolicyParams = {}

/** The param source of a policy's paramKind (policy/generic/policy_source.go: the paramKind's informer). */
export function paramsOf(
  paramKind: ParamKind | null | undefined,
  mapper: RESTMapper,
  others: readonly JSONObject[],
  namespace = 'default',
): PolicyParams {
  if (paramKind === undefined || paramKind === null) return NO_PARAMS
  const gvk = paramKindGVK(paramKind)
  const resource = mapper.resourcesForKind(gvk)[0]
  if (resource === undefined)
    return {
      configurationError: `failed to find resource referenced by paramKind: '${gvk.group}/${gvk.version}, Kind=${gvk.kind}'`,
    }
  const objects = others.filter((o) => {
    const g = gvkOf(o)
    return g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind
  })
  return {
    params: {
      namespaced: resource.namespaced,
      // a namespaced param written without a namespace is where `kubectl apply` creates it: the context's
      objects: resource.namespaced ? objects.map((o) => inNamespace(o, namespace)) : objects,
    },
  }
}

/** The object with `metadata.namespace` set when it has none (a copy; the input is not changed). */
function inNamespace(o: JSONObject, namespace: string): JSONObject {
  const meta = isObject(o.metadata) ? o.metadata : undefined
  if (typeof meta?.namespace === 'string' && meta.namespace !== '') return o
  return { ...o, metadata: { ...meta, namespace } }
}

const byName = (x: Named, y: Named) => {
  const a = x.metadata?.name ?? ''
  const b = y.metadata?.name ?? ''
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The hooks of the admitted material: one per valid policy with bindings, made by `hook` from the
 * policy, its bindings and its params (in the kind's order).
 */
export function pairHooks<P extends Named & { spec?: { paramKind?: unknown } | null }, B extends Bound, H>(
  kind: PolicyKind<P, B>,
  admitted: AdmittedMaterial<P, B>,
  ctx: HookContext,
  hook: (policy: P, bindings: B[], params: PolicyParams) => H,
): H[] {
  const hooks: H[] = []
  const policies = kind.byName ? [...admitted.valid.values()].sort(byName) : [...admitted.valid.values()]
  for (const policy of policies) {
    const bs = admitted.bindingsByPolicy.get(policy.metadata?.name ?? '')
    if (bs === undefined) continue
    const params = paramsOf(
      policy.spec?.paramKind as ParamKind | null | undefined,
      ctx.mapper,
      ctx.others,
      ctx.namespace,
    )
    hooks.push(hook(policy, kind.byName ? [...bs].sort(byName) : bs, params))
  }
  return hooks
}
