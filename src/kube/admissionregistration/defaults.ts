import { isObject } from '../values/json.js'
import type {
  MatchResources,
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  NamedRuleWithOperations,
  ParamRef,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from './types.js'

// The defaults the API server applies to admissionregistration.k8s.io/v1 (and v1beta1) policies and
// bindings before validating them (pkg/apis/admissionregistration/v1/defaults.go and the generated
// zz_generated.defaults.go that walks the objects): SetDefaults_ValidatingAdmissionPolicySpec,
// SetDefaults_MatchResources, SetDefaults_Rule; SetDefaults_ParamRef only for v1alpha1 (the one version whose
// defaults.go has it: a v1 or v1beta1 binding without parameterNotFoundAction is refused, `Required value`).
// The input is not modified; a field already set (even to an invalid value) is kept.

/** SetDefaults_Rule: `scope: "*"`. */
function defaultRule(rule: NamedRuleWithOperations): NamedRuleWithOperations {
  return rule.scope === undefined || rule.scope === null ? { ...rule, scope: '*' } : rule
}

/** SetDefaults_MatchResources (and SetDefaults_Rule on every resource rule). */
export function defaultMatchResources(mr: MatchResources): MatchResources {
  const out: { -readonly [K in keyof MatchResources]: MatchResources[K] } = { ...mr }
  if (out.matchPolicy === undefined || out.matchPolicy === null) out.matchPolicy = 'Equivalent'
  if (out.namespaceSelector === undefined || out.namespaceSelector === null) out.namespaceSelector = {}
  if (out.objectSelector === undefined || out.objectSelector === null) out.objectSelector = {}
  if (Array.isArray(out.resourceRules)) out.resourceRules = out.resourceRules.map(defaultRule)
  if (Array.isArray(out.excludeResourceRules)) out.excludeResourceRules = out.excludeResourceRules.map(defaultRule)
  return out
}

/** SetDefaults_ParamRef (pkg/apis/admissionregistration/v1alpha1/defaults.go only): `parameterNotFoundAction: Deny`. */
function defaultParamRef(ref: ParamRef, apiVersion: unknown): ParamRef {
  return apiVersion === 'admissionregistration.k8s.io/v1alpha1' &&
    (ref.parameterNotFoundAction === undefined || ref.parameterNotFoundAction === null)
    ? { ...ref, parameterNotFoundAction: 'Deny' }
    : ref
}

/** SetObjectDefaults_ValidatingAdmissionPolicy: `failurePolicy: Fail`, match constraints defaulted. */
export function applyValidatingAdmissionPolicyDefaults(policy: ValidatingAdmissionPolicy): ValidatingAdmissionPolicy {
  const spec = { ...(isObject(policy.spec) ? policy.spec : {}) }
  if (spec.failurePolicy === undefined || spec.failurePolicy === null) spec.failurePolicy = 'Fail'
  if (isObject(spec.matchConstraints)) spec.matchConstraints = defaultMatchResources(spec.matchConstraints)
  return { ...policy, spec }
}

/** SetObjectDefaults_ValidatingAdmissionPolicyBinding: paramRef and matchResources defaulted. */
export function applyValidatingAdmissionPolicyBindingDefaults(
  binding: ValidatingAdmissionPolicyBinding,
): ValidatingAdmissionPolicyBinding {
  const spec = { ...(isObject(binding.spec) ? binding.spec : {}) }
  if (isObject(spec.paramRef)) spec.paramRef = defaultParamRef(spec.paramRef, binding.apiVersion)
  if (isObject(spec.matchResources)) spec.matchResources = defaultMatchResources(spec.matchResources)
  return { ...binding, spec }
}

/**
 * The defaults of either kind, chosen by `kind` (`ValidatingAdmissionPolicy` or
 * `ValidatingAdmissionPolicyBinding`); any other object is returned unchanged.
 */
export function applyDefaults<T extends ValidatingAdmissionPolicy | ValidatingAdmissionPolicyBinding>(obj: T): T {
  if (obj.kind === 'ValidatingAdmissionPolicy')
    return applyValidatingAdmissionPolicyDefaults(obj as ValidatingAdmissionPolicy) as T
  if (obj.kind === 'ValidatingAdmissionPolicyBinding')
    return applyValidatingAdmissionPolicyBindingDefaults(obj as ValidatingAdmissionPolicyBinding) as T
  return obj
}

/**
 * SetObjectDefaults_MutatingAdmissionPolicy (v1, v1beta1, v1alpha1 zz_generated.defaults.go):
 * SetDefaults_MutatingAdmissionPolicySpec (`failurePolicy: Fail`), match constraints defaulted.
 * reinvocationPolicy has no default (validation requires it).
 */
export function applyMutatingAdmissionPolicyDefaults(policy: MutatingAdmissionPolicy): MutatingAdmissionPolicy {
  const spec = { ...(isObject(policy.spec) ? policy.spec : {}) }
  if (spec.failurePolicy === undefined || spec.failurePolicy === null) spec.failurePolicy = 'Fail'
  if (isObject(spec.matchConstraints)) spec.matchConstraints = defaultMatchResources(spec.matchConstraints)
  return { ...policy, spec }
}

/** SetObjectDefaults_MutatingAdmissionPolicyBinding: paramRef and matchResources defaulted. */
export function applyMutatingAdmissionPolicyBindingDefaults(
  binding: MutatingAdmissionPolicyBinding,
): MutatingAdmissionPolicyBinding {
  const spec = { ...(isObject(binding.spec) ? binding.spec : {}) }
  if (isObject(spec.paramRef)) spec.paramRef = defaultParamRef(spec.paramRef, binding.apiVersion)
  if (isObject(spec.matchResources)) spec.matchResources = defaultMatchResources(spec.matchResources)
  return { ...binding, spec }
}
