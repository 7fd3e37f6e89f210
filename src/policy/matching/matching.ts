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
  /** Where Matcher keeps this criteria's rule outcomes (none: computed for every request). */
  readonly ruleCache?: RuleCache
}

/**
 * The outcome of a MatchResources' excludeResourceRules and resourceRules per request shape (see
 * Matcher.ruleKey), valid for one mapper at one generation. Rules with resourceNames also depend on
 * the request's name: their criteria get no cache.
 */
export interface RuleCache {
  mapper: EquivalentResourceMapper | undefined
  generation: number | undefined
  readonly outcomes: Map<string, RuleOutcome>
}

/** Distinct request shapes kept per criteria (a cluster has a few hundred resources; a bound on abuse). */
const MAX_RULE_OUTCOMES = 1024

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
  const named = (rs: readonly NamedRuleWithOperations[] | null | undefined) =>
    (rs ?? []).some((r) => (r.resourceNames ?? []).length > 0)
  const cacheable = !named(m.resourceRules) && !named(m.excludeResourceRules)
  return {
    getMatchResources: () => m,
    getParsedNamespaceSelector: ns,
    getParsedObjectSelector: obj,
    ...(cacheable ? { ruleCache: { mapper: undefined, generation: undefined, outcomes: new Map() } } : {}),
  }
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
/** A match of the request's own resource and kind (Matcher.matches answers it with one object per request). */
const EXACT = Symbol('exact')
type RuleOutcome = MatchResult | typeof EXACT

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
    const result = this.matchesSelectorsAndRules(attr, mapper, criteria)
    // the common answer (the request's own resource and kind), one object per request rather than per policy
    if (result === EXACT) {
      const last = this.exact
      if (last.matchResource === attr.resource && last.matchKind === attr.kind) return last
      this.exact = { matches: true, matchResource: attr.resource, matchKind: attr.kind }
      return this.exact
    }
    return result
  }

  /** The last exact match answered (its resource and kind are the request's own objects). */
  private exact: MatchResult & { matches: true } = {
    matches: true,
    matchResource: { group: '', version: '', resource: '' },
    matchKind: { group: '', version: '', kind: '' },
  }

  /** The rules' outcome, from the criteria's cache when it has one and the mapper allows it. */
  private ruleOutcome(attr: MatchAttributes, mapper: EquivalentResourceMapper, criteria: MatchCriteria): RuleOutcome {
    const mr = criteria.getMatchResources()
    // no rules at all (a binding's usual matchResources): every resource, nothing to look up
    if (!mr.resourceRules?.length && !mr.excludeResourceRules?.length) return EXACT
    const cache = criteria.ruleCache
    const generation = mapper.generation
    if (cache === undefined || generation === undefined) return ruleOutcome(mr, attr, mapper)
    if (cache.mapper !== mapper || cache.generation !== generation) {
      cache.outcomes.clear()
      cache.mapper = mapper
      cache.generation = generation
    }
    const key = this.ruleKey(attr)
    let outcome = cache.outcomes.get(key)
    if (outcome === undefined) {
      if (cache.outcomes.size >= MAX_RULE_OUTCOMES) cache.outcomes.clear()
      outcome = ruleOutcome(mr, attr, mapper)
      cache.outcomes.set(key, outcome)
    }
    return outcome
  }

  /** The request fields rules read, but the name (criteria with resourceNames are not cached). */
  private key = { group: '', version: '', resource: '', subResource: '', operation: '', cluster: false, text: '' }

  /** The cache key of a request's shape: built once per request, not per policy (compared field by field). */
  private ruleKey(attr: MatchAttributes): string {
    const k = this.key
    const r = attr.resource
    const cluster = attr.namespace === ''
    if (
      k.group !== r.group ||
      k.version !== r.version ||
      k.resource !== r.resource ||
      k.subResource !== attr.subResource ||
      k.operation !== attr.operation ||
      k.cluster !== cluster
    ) {
      this.key = {
        group: r.group,
        version: r.version,
        resource: r.resource,
        subResource: attr.subResource,
        operation: attr.operation,
        cluster,
        text: `${attr.operation} ${r.group}/${r.version}/${r.resource}/${attr.subResource} ${cluster ? 'c' : 'n'}`,
      }
    }
    return this.key.text
  }

  private matchesSelectorsAndRules(
    attr: MatchAttributes,
    mapper: EquivalentResourceMapper,
    criteria: MatchCriteria,
  ): RuleOutcome {
    // indexed, not destructured: destructuring iterates, and the answers are shared frozen arrays
    const ns = this.namespaceMatcher.matchNamespaceSelector(criteria, attr)
    const nsErr = ns[1]
    if (!ns[0] && nsErr === undefined) return NO_MATCH
    const obj = matchObjectSelector(criteria, attr)
    const objErr = obj[1]
    if (!obj[0] && objErr === undefined) return NO_MATCH

    const result = this.ruleOutcome(attr, mapper, criteria)
    if (result !== EXACT && !result.matches) return result

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

/** A MatchResources' rules: excludeResourceRules (a match excludes), then resourceRules (none: every resource). */
function ruleOutcome(mr: MatchResources, attr: MatchAttributes, mapper: EquivalentResourceMapper): RuleOutcome {
  const matchPolicy = mr.matchPolicy
  const exclude = mr.excludeResourceRules
  if (exclude && exclude.length > 0) {
    const excluded = matchesResourceRules(exclude, matchPolicy, attr, mapper)
    if (excluded.matches || excluded.error) return excluded.error ? { matches: false, error: excluded.error } : NO_MATCH
  }
  const rules = mr.resourceRules
  return !rules || rules.length === 0 ? EXACT : matchesResourceRulesOrExact(rules, matchPolicy, attr, mapper)
}

/** matchesResourceRules: exact pass over the rules, then (Equivalent) the equivalent resources. */
export function matchesResourceRules(
  namedRules: readonly NamedRuleWithOperations[],
  matchPolicy: string | null | undefined,
  attr: MatchAttributes,
  mapper: EquivalentResourceMapper,
): MatchResult {
  const r = matchesResourceRulesOrExact(namedRules, matchPolicy, attr, mapper)
  return r === EXACT ? { matches: true, matchResource: attr.resource, matchKind: attr.kind } : r
}

/** matchesResourceRules, with EXACT for a match of the request's own resource (nothing allocated). */
function matchesResourceRulesOrExact(
  namedRules: readonly NamedRuleWithOperations[],
  matchPolicy: string | null | undefined,
  attr: MatchAttributes,
  mapper: EquivalentResourceMapper,
): RuleOutcome {
  if (namedRules.length === 0) return NO_MATCH // (no rule: nothing to try, equivalents included)
  for (const rule of namedRules) {
    if (!ruleMatches(rule, attr)) continue
    if (nameMatches(rule, attr.name)) return EXACT
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
