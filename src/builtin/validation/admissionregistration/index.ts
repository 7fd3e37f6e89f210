// Validation of admissionregistration.k8s.io ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding objects, as the API server validates them on create and update
// (pkg/apis/admissionregistration/validation/validation.go).

export type {
  CompileContext,
  CompileHook,
  CompileOutcome,
  CompileResult,
  EnvironmentType,
  ExpressionKind,
  PolicyValidationHooks,
  VariableDefinition,
} from '../../../kube/admissionregistration/compile-hook.js'
export {
  applyDefaults,
  applyMutatingAdmissionPolicyBindingDefaults,
  applyMutatingAdmissionPolicyDefaults,
  applyValidatingAdmissionPolicyBindingDefaults,
  applyValidatingAdmissionPolicyDefaults,
} from '../../../kube/admissionregistration/defaults.js'
export { type LabelSelectorValidationOptions, validateLabelSelector } from '../../../kube/validation/label-selector.js'
export { validateValidatingAdmissionPolicyBinding, validateValidatingAdmissionPolicyBindingUpdate } from './binding.js'
export {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
} from './mutating-policy.js'
export { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyUpdate } from './policy.js'
export { STATIC_CONFIG_SUFFIX, validateStaticSuffix } from './static-suffix.js'
