import type { LabelSelector } from '../../kube/labels.js'

// The admissionregistration.k8s.io/v1 types the matcher reads (k8s.io/api admissionregistration/v1
// types.go), as they appear in JSON. Minimal local copies: src/kube/admissionregistration/types.ts
// holds the full API types and these are to be unified with it.

/** OperationType: CREATE, UPDATE, DELETE, CONNECT, or `*` for all. */
export type OperationType = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*'

/** ScopeType: `Cluster`, `Namespaced`, or `*` (the default) for both. */
export type ScopeType = 'Cluster' | 'Namespaced' | '*'

/** MatchPolicyType: Exact, or Equivalent (the API default). */
export type MatchPolicyType = 'Exact' | 'Equivalent'

/** Rule + operations (RuleWithOperations). */
export interface RuleWithOperations {
  readonly operations?: readonly string[] | null
  readonly apiGroups?: readonly string[] | null
  readonly apiVersions?: readonly string[] | null
  /** `pods`, `pods/status`, `pods/*`, `*`, `*\/scale`, … */
  readonly resources?: readonly string[] | null
  readonly scope?: string | null
}

/** NamedRuleWithOperations: a rule further restricted to the named objects (empty: all names). */
export interface NamedRuleWithOperations extends RuleWithOperations {
  readonly resourceNames?: readonly string[] | null
}

/** MatchResources (the policy's matchConstraints, or a binding's matchResources). */
export interface MatchResources {
  readonly namespaceSelector?: LabelSelector | null
  readonly objectSelector?: LabelSelector | null
  readonly resourceRules?: readonly NamedRuleWithOperations[] | null
  readonly excludeResourceRules?: readonly NamedRuleWithOperations[] | null
  readonly matchPolicy?: string | null
}

/**
 * The API server's defaulting of MatchResources (kubernetes pkg/apis/admissionregistration/v1
 * defaults.go: SetDefaults_MatchResources, SetDefaults_Rule): matchPolicy Equivalent, empty
 * namespace and object selectors, and scope `*` on every rule. A policy read from a file has not
 * been through the API server, so a loader applies this before matching; the matcher itself, like
 * Go's, treats an absent selector as selecting nothing.
 */
export function defaultMatchResources(m: MatchResources): MatchResources {
  const rules = (rs: readonly NamedRuleWithOperations[] | null | undefined) =>
    rs?.map((r) => (r.scope === undefined || r.scope === null ? { ...r, scope: '*' } : r))
  const out: {
    -readonly [K in keyof MatchResources]: MatchResources[K]
  } = {
    ...m,
    matchPolicy: m.matchPolicy ?? 'Equivalent',
    namespaceSelector: m.namespaceSelector ?? {},
    objectSelector: m.objectSelector ?? {},
  }
  if (m.resourceRules) out.resourceRules = rules(m.resourceRules)
  if (m.excludeResourceRules) out.excludeResourceRules = rules(m.excludeResourceRules)
  return out
}
