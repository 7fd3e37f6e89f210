// Offline authorization for the `authorizer` CEL variable. kube-apiserver asks its authorizer
// chain (RBAC, webhooks, ...); offline, kelp asks a user-supplied function or a rules list.

/** The attributes kube-apiserver passes to its authorizer (k8s.io/apiserver authorizer.Attributes). */
export interface AuthzAttributes {
  readonly user: string
  readonly groups: readonly string[]
  readonly verb: string
  /** Resource requests. */
  readonly resourceRequest: boolean
  readonly apiGroup?: string
  readonly apiVersion?: string
  readonly resource?: string
  readonly subresource?: string
  readonly namespace?: string
  readonly name?: string
  readonly fieldSelector?: string
  readonly labelSelector?: string
  /** Non-resource requests. */
  readonly path?: string
}

export type AuthzDecisionKind = 'Allow' | 'Deny' | 'NoOpinion'

export interface AuthzDecision {
  readonly decision: AuthzDecisionKind
  readonly reason?: string
  /** An evaluation error of the authorizer (`errored()` / `error()`). */
  readonly error?: string
}

/** The authorizer callback of the library API. */
export type Authorize = (attributes: AuthzAttributes) => AuthzDecision

/**
 * The documented default when no decisions are given: every check is `NoOpinion` (so `allowed()`
 * is false), with the reason below. This is what an RBAC-only cluster answers for a request no
 * role grants, and it errs on the side of denying.
 */
export const defaultAuthorize: Authorize = () => ({
  decision: 'NoOpinion',
  reason: 'kelp: no authorization rules given (offline default: no opinion)',
})

/**
 * A rule of the CLI's rules file (YAML or JSON list). Every field given must match (`*` or absent
 * matches anything; lists match any element); the first matching rule decides; no match is NoOpinion.
 */
export interface AuthzRule {
  readonly user?: string | readonly string[]
  readonly group?: string | readonly string[]
  readonly verb?: string | readonly string[]
  readonly apiGroup?: string | readonly string[]
  readonly resource?: string | readonly string[]
  readonly subresource?: string | readonly string[]
  readonly namespace?: string | readonly string[]
  readonly name?: string | readonly string[]
  readonly path?: string | readonly string[]
  readonly decision: 'allow' | 'deny' | 'Allow' | 'Deny'
  readonly reason?: string
}

function matches(want: string | readonly string[] | undefined, got: string | undefined): boolean {
  if (want === undefined) return true
  const list = typeof want === 'string' ? [want] : want
  return list.some((w) => w === '*' || w === (got ?? ''))
}

/** An Authorize function answering from rules (first match wins). */
export function rulesAuthorizer(rules: readonly AuthzRule[]): Authorize {
  return (a) => {
    for (const r of rules) {
      const groupOk =
        r.group === undefined || (typeof r.group === 'string' ? [r.group] : r.group).some((g) => a.groups.includes(g))
      if (
        matches(r.user, a.user) &&
        groupOk &&
        matches(r.verb, a.verb) &&
        (a.resourceRequest
          ? r.path === undefined &&
            matches(r.apiGroup, a.apiGroup) &&
            matches(r.resource, a.resource) &&
            matches(r.subresource, a.subresource) &&
            matches(r.namespace, a.namespace) &&
            matches(r.name, a.name)
          : matches(r.path, a.path) && r.resource === undefined)
      ) {
        const allow = r.decision.toLowerCase() === 'allow'
        return { decision: allow ? 'Allow' : 'Deny', reason: r.reason ?? '' }
      }
    }
    return { decision: 'NoOpinion', reason: '' }
  }
}
