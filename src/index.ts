// kelp: Kubernetes CEL, compiled and run as kube-apiserver does.
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
