import type { AdmissionAttributes, GroupVersionResource } from '../attributes.js'
import type { RuleWithOperations } from './types.js'

// Rule matching, ported from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/webhook/predicates/rules/rules.go (rules.Matcher).

/** The request fields a rule looks at; `resource` can be overridden (an equivalent resource). */
export type RuleAttributes = Pick<AdmissionAttributes, 'resource' | 'subResource' | 'namespace' | 'operation' | 'kind'>

/** rules.Matcher.Matches: scope, operation, group, version and resource all match. */
export function ruleMatches(rule: RuleWithOperations, attr: RuleAttributes): boolean {
  return (
    ruleScopeMatches(rule, attr) &&
    ruleOperationMatches(rule, attr) &&
    ruleGroupMatches(rule, attr) &&
    ruleVersionMatches(rule, attr) &&
    ruleResourceMatches(rule, attr)
  )
}

function exactOrWildcard(items: readonly string[] | null | undefined, requested: string): boolean {
  if (!items) return false
  for (const item of items) if (item === '*' || item === requested) return true
  return false
}

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces'
}

/**
 * rules.Matcher.scope. A request for a Namespace object carries the namespace's own name as its
 * namespace, so `core/v1 namespaces` counts as cluster-scoped whatever the namespace field says.
 */
export function ruleScopeMatches(rule: RuleWithOperations, attr: RuleAttributes): boolean {
  const scope = rule.scope
  if (scope === undefined || scope === null || scope === '*') return true
  switch (scope) {
    case 'Namespaced':
      return !isNamespaceResource(attr.resource) && attr.namespace !== ''
    case 'Cluster':
      return isNamespaceResource(attr.resource) || attr.namespace === ''
    default:
      return false
  }
}

/** rules.Matcher.group. */
export function ruleGroupMatches(rule: RuleWithOperations, attr: RuleAttributes): boolean {
  return exactOrWildcard(rule.apiGroups, attr.resource.group)
}

/** rules.Matcher.version. */
export function ruleVersionMatches(rule: RuleWithOperations, attr: RuleAttributes): boolean {
  return exactOrWildcard(rule.apiVersions, attr.resource.version)
}

/** rules.Matcher.operation: `*` or the request's operation. */
export function ruleOperationMatches(rule: RuleWithOperations, attr: RuleAttributes): boolean {
  return exactOrWildcard(rule.operations, attr.operation)
}

/**
 * rules.Matcher.resource: `*` matches every main resource (no subresource), `r/*` a resource and all
 * its subresources, `*\/s` subresource s of every resource, `*\/*` everything.
 */
export function ruleResourceMatches(rule: RuleWithOperations, attr: RuleAttributes): boolean {
  const opRes = attr.resource.resource
  const opSub = attr.subResource
  for (const r of rule.resources ?? []) {
    // the common case, a resource without `/`, is compared as it is (no split: this runs per rule and request)
    if (r.indexOf('/') < 0) {
      if ((r === '*' || r === opRes) && opSub === '') return true
      continue
    }
    const [res, sub] = splitResource(r)
    if ((res === '*' || res === opRes) && (sub === '*' || sub === opSub)) return true
  }
  return false
}

/** splitResource: `res/sub` → [res, sub]; `res` → [res, '']. Only the first `/` splits. */
function splitResource(resSub: string): [string, string] {
  const i = resSub.indexOf('/')
  return i < 0 ? [resSub, ''] : [resSub.slice(0, i), resSub.slice(i + 1)]
}

const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
])

/**
 * rules.IsExemptAdmissionConfigurationResource: admission configuration objects (webhook
 * configurations, admission policies and their bindings) are never subject to admission policies.
 */
export function isExemptAdmissionConfigurationResource(attr: Pick<AdmissionAttributes, 'kind'>): boolean {
  return attr.kind.group === 'admissionregistration.k8s.io' && EXEMPT_KINDS.has(attr.kind.kind)
}
