import type { EquivalentResourceMapper } from '../../kube/resources.js'
import {
  type MatchAttributes,
  type MatchCriteria,
  type Matcher,
  type MatchResult,
  newMatchCriteria,
} from '../matching/matching.js'
import type { MatchResources } from '../matching/types.js'

// The policy-level checks around Matcher.Matches, ported from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/policy/generic/policy_matcher.go (DefinitionMatches, BindingMatches).

// policies and bindings are immutable once loaded: parse their selectors once, not per request
const criteriaCache = new WeakMap<MatchResources, MatchCriteria>()
function criteriaFor(m: MatchResources): MatchCriteria {
  let c = criteriaCache.get(m)
  if (c === undefined) criteriaCache.set(m, (c = newMatchCriteria(m)))
  return c
}

const MATCHES = { matches: true } as const
const NO_MATCH = { matches: false } as const

const nilSelector = (which: string) =>
  new Error(`a nil ${which} selector was passed, please ensure selectors are initialized properly`)

/**
 * DefinitionMatches: a policy's spec.matchConstraints against the request. matchConstraints and both
 * of its selectors are required (the API defaults the selectors; see defaultMatchResources).
 */
export function definitionMatches(
  matcher: Matcher,
  attr: MatchAttributes,
  mapper: EquivalentResourceMapper,
  matchConstraints: MatchResources | null | undefined,
): MatchResult {
  if (!matchConstraints)
    return { matches: false, error: new Error('policy contained no match constraints, a required field') }
  if (!matchConstraints.namespaceSelector) return { matches: false, error: nilSelector('namespace') }
  if (!matchConstraints.objectSelector) return { matches: false, error: nilSelector('object') }
  return matcher.matches(attr, mapper, criteriaFor(matchConstraints))
}

/**
 * BindingMatches: a binding's spec.matchResources against the request; a binding without one matches
 * every request its policy matches.
 */
export function bindingMatches(
  matcher: Matcher,
  attr: MatchAttributes,
  mapper: EquivalentResourceMapper,
  matchResources: MatchResources | null | undefined,
): { readonly matches: boolean; readonly error?: Error } {
  if (!matchResources) return MATCHES
  if (!matchResources.namespaceSelector) return { matches: false, error: nilSelector('namespace') }
  if (!matchResources.objectSelector) return { matches: false, error: nilSelector('object') }
  const r = matcher.matches(attr, mapper, criteriaFor(matchResources))
  return r.error ? { matches: false, error: r.error } : r.matches ? MATCHES : NO_MATCH
}
