import { labelSelectorAsSelector, type Selector } from '../../kube/labels.js'
import { type EquivalentResourceMapper, isEmptyGVK } from '../../kube/resources.js'
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../attributes.js'
import type { StatusError } from './errors.js'
import { type NamespaceLookup, NamespaceMatcher, type NamespaceSelectorProvider } from './namespace.js'
import { matchObjectSelector, type ObjectSelectorProvider } from './object.js'
import { ruleMatches } from './rules.js'
import type { MatchResources, NamedRuleWithOperations } from './types.js'

// The matcher of admission policies, ported from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/policy/matching/matching.go.

/** MatchCriteria: the parsed selectors and the MatchResources they come from. */
export interface MatchCriteria extends NamespaceSelectorProvider, ObjectSelectorProvider {
  getMatchResources(): MatchResources
}

/**
 * MatchCriteria over a MatchResources, parsing each selector once (LabelSelectorAsSelector: absent
 * selects nothing, `{}` everything). A selector that does not parse throws each time it is asked for.
 */
export function newMatchCriteria(m: MatchResources): MatchCriteria {
  const lazy = (ps: MatchResources['namespaceSelector']) => {
    let parsed: { s: Selector } | { e: unknown } | undefined
    return (): Selector => {
      if (parsed === undefined) {
        try {
          parsed = { s: labelSelectorAsSelector(ps) }
        } catch (e) {
          parsed = { e }
        }
      }
      if ('e' in parsed) throw parsed.e
      return parsed.s
    }
  }
  const ns = lazy(m.namespaceSelector)
  const obj = lazy(m.objectSelector)
  return { getMatchResources: () => m, getParsedNamespaceSelector: ns, getParsedObjectSelector: obj }
}

/** The outcome of Matcher.matches: Go's (matches, matchResource, matchKind, err). */
export type MatchResult =
  | {
      readonly matches: true
      /** The resource the policy matched: the request's, or an equivalent one (matchPolicy Equivalent). */
      readonly matchResource: GroupVersionResource
      /** The kind to convert the request to for this policy (the request's kind when no conversion). */
      readonly matchKind: GroupVersionKind
      readonly error?: undefined
    }
  | { readonly matches: false; readonly error?: StatusError | Error }

const NO_MATCH: MatchResult = { matches: false }

export type MatchAttributes = Pick<
  AdmissionAttributes,
  'kind' | 'resource' | 'subResource' | 'name' | 'namespace' | 'operation' | 'object' | 'oldObject'
>

/** matching.Matcher: decides whether a request matches a MatchResources. */
export class Matcher {
  private readonly namespaceMatcher: NamespaceMatcher

  /** `namespaceLookup` finds the namespaces the namespaceSelector reads (none known when absent). */
  constructor(namespaceLookup?: NamespaceLookup) {
    this.namespaceMatcher = new NamespaceMatcher(namespaceLookup)
  }

  /** Matcher.GetNamespace: the namespace, or throws NotFound. */
  getNamespace(name: string) {
    return this.namespaceMatcher.getNamespace(name)
  }

  /**
   * Matcher.Matches. In order: the namespace selector and the object selector (a selector error is
   * held back), excludeResourceRules (a match excludes the request), resourceRules (none: every
   * resource), and only then the held-back selector errors, so a broken selector on a policy that does
   * not apply to the request does not fail it. With matchPolicy Equivalent, when no rule matches the
   * request's resource, each rule is tried against the resources equivalent to it (the mapper's, in
   * order); the first that matches gives matchResource and matchKind, the kind to convert to.
   */
  matches(attr: MatchAttributes, mapper: EquivalentResourceMapper, criteria: MatchCriteria): MatchResult {
    const [nsMatches, nsErr] = this.namespaceMatcher.matchNamespaceSelector(criteria, attr)
    if (!nsMatches && nsErr === undefined) return NO_MATCH
    const [objMatches, objErr] = matchObjectSelector(criteria, attr)
    if (!objMatches && objErr === undefined) return NO_MATCH

    const mr = criteria.getMatchResources()
    const matchPolicy = mr.matchPolicy
    const excluded = matchesResourceRules(mr.excludeResourceRules ?? [], matchPolicy, attr, mapper)
    if (excluded.matches || excluded.error) return excluded.error ? { matches: false, error: excluded.error } : NO_MATCH

    const rules = mr.resourceRules ?? []
    const result: MatchResult =
      rules.length === 0
        ? { matches: true, matchResource: attr.resource, matchKind: attr.kind }
        : matchesResourceRules(rules, matchPolicy, attr, mapper)
    if (!result.matches) return result

    if (nsErr) return { matches: false, error: nsErr }
    if (objErr) return { matches: false, error: objErr }
    return result
  }
}

function nameMatches(rule: NamedRuleWithOperations, name: string): boolean {
  const names = rule.resourceNames ?? []
  // an empty name list always matches (a CREATE without a name, left to generateName, matches no name)
  return names.length === 0 || names.includes(name)
}

function gvrString(r: GroupVersionResource): string {
  return `${r.group}/${r.version}, Resource=${r.resource}`
}

function sameGVR(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource
}

/** matchesResourceRules: exact pass over the rules, then (Equivalent) the equivalent resources. */
export function matchesResourceRules(
  namedRules: readonly NamedRuleWithOperations[],
  matchPolicy: string | null | undefined,
  attr: MatchAttributes,
  mapper: EquivalentResourceMapper,
): MatchResult {
  if (namedRules.length === 0) return NO_MATCH // (no rule: nothing to try, equivalents included)
  for (const rule of namedRules) {
    if (!ruleMatches(rule, attr)) continue
    if (nameMatches(rule, attr.name)) return { matches: true, matchResource: attr.resource, matchKind: attr.kind }
  }
  // undefined or Exact: no fuzzy matching (the API defaults matchPolicy to Equivalent)
  if (matchPolicy === undefined || matchPolicy === null || matchPolicy === 'Exact') return NO_MATCH

  const equivalents = mapper.equivalentResourcesFor(attr.resource, attr.subResource)
  for (const rule of namedRules) {
    for (const equivalent of equivalents) {
      if (sameGVR(equivalent, attr.resource)) continue // already checked
      if (!ruleMatches(rule, { ...attr, resource: equivalent })) continue
      const matchKind = mapper.kindFor(equivalent, attr.subResource)
      if (isEmptyGVK(matchKind))
        return { matches: false, error: new Error(`unable to convert to ${gvrString(equivalent)}: unknown kind`) }
      if (nameMatches(rule, attr.name)) return { matches: true, matchResource: equivalent, matchKind }
    }
  }
  return NO_MATCH
}
