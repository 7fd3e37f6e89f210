// kelp: Kubernetes CEL, compiled and run as kube-apiserver does.

export {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from './builtin/validation/admissionregistration/index.js'
export {
  type AstNode,
  type CallEstimate,
  type CallEstimator,
  type CostEstimate,
  type Estimable,
  type EstimateContext,
  type EstimateOptions,
  estimateCost,
  type SizeEstimate,
  type SizeEstimator,
  UNBOUNDED_COST,
} from './cel/cost/estimator.js'
export * from './cel/index.js'
// kelp's manifest reader (YAML as kubectl reads it, positions kept) and `kelp check` as a function
export { type CheckManifestsOptions, checkManifests } from './check-api.js'
// Custom resources (docs/crd.md)
export {
  type CompilationResult,
  type CompileRulesOptions,
  compileRules,
  OldScopedVarName,
  ScopedVarName,
} from './crd/compilation.js'
export { CRD, CRDVersion, type CRDVersionSpec, type CustomResourceDefinitionObject } from './crd/crd.js'
export { type CustomResourceResult, type ValidateOptions, validateCustomResource } from './crd/custom-resource.js'
export { validateCustomResourceDefinition } from './crd/definition/index.js'
export { crdCelRuleValidator } from './crd/definition-cel.js'
export { type CRDProblem, CustomResourceDefinitions, type LoadOptions } from './crd/registry.js'
export { StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit } from './crd/rule-checks.js'
export { type ValidationResult, Validator, type ValidatorOptions } from './crd/validator.js'
// ValidatingAdmissionPolicy and the evaluation core (docs/library.md)
export {
  type AdmitResult,
  type AnswerStatus,
  type ApiLifecycle,
  apiLifecycle,
  DEFAULT_USER,
  isAdmissionStatus,
  materialProblems,
  PolicySet,
  type PolicySetOptions,
  type Problem,
  type ValidateRequestOptions,
} from './engine/policy-set.js'
export type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './kube/admissionregistration/types.js'
export {
  type Authorize,
  type AuthzAttributes,
  type AuthzDecision,
  type AuthzRule,
  defaultAuthorize,
  rulesAuthorizer,
} from './kube/authz/authorizer.js'
export {
  AuthorizerType,
  authzLibrary,
  authzSelectorsLibrary,
  newAuthorizer,
  newResourceAuthorizer,
  ResourceCheckType,
} from './kube/authz/library.js'
export { estimateKubeCost, kubeCallEstimators, kubeCostOptions, kubeEstimateCallCost } from './kube/cost.js'
export type { FieldValidation, RequestStatus } from './kube/decoding.js'
export {
  DEFAULT_KUBE_VERSION,
  type KubeEnvOptions,
  type KubeVersion,
  kubeEnv,
  PerCallLimit,
  RuntimeCELCostBudget,
  RuntimeCELCostBudgetMatchConditions,
  SUPPORTED_VERSIONS,
} from './kube/environment.js'
export {
  type BadValue,
  errorBody,
  errorString,
  type FieldError,
  FieldPath,
  field,
  type InvalidStatus,
  kubectlInvalidText,
  newInvalid,
} from './kube/field.js'
export { labelSelectorAsSelector, type Selector } from './kube/labels.js'
export { derivedNameGenerator, type NameGenerator, SimpleNameGenerator } from './kube/names.js'
export { type CRDMapping, RESTMapper, type ResourceInfo } from './kube/resources.js'
export { CorrelatedObject, type Correlation } from './kube/schema/correlation.js'
export { type DeclType, schemaDeclType } from './kube/schema/decltype.js'
export type { JSONSchemaProps, ValidationRule } from './kube/schema/structural.js'
export { unstructuredToVal } from './kube/schema/values.js'
export {
  iterateManifests,
  type Loaded,
  type LoadedObject,
  parseManifests,
} from './manifest/load.js'
export type {
  AdmissionAttributes,
  AdmissionAttributesInput,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  UserInfo,
} from './policy/attributes.js'
export { type CompilationResult as PolicyCompilationResult, CompositedCompiler } from './policy/cel/compile.js'
export type { AdmissionStatus } from './policy/generic/status.js'
export type { DispatchResult, PolicyViolation, ValidationAction } from './policy/validating/dispatcher.js'
export type { Finding, ObjectResult, Report, SourceRef, Summary } from './report/model.js'
