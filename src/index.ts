// kelp: Kubernetes CEL, compiled and run as kube-apiserver does.

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
