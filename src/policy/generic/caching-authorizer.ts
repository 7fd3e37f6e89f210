import type { Authorize } from '../../kube/authz/authorizer.js'

/**
 * admission/plugin/authorizer/caching_authorizer.go: decisions cached for the duration of one request,
 * keyed by the attributes with the user's groups sorted (equivalent checks answer alike, and the
 * authorizer is asked once).
 */
export function cachingAuthorizer(inner: Authorize): Authorize {
  const decisions = new Map<string, ReturnType<Authorize>>()
  return (a) => {
    const key = JSON.stringify({
      user: a.user,
      groups: [...a.groups].sort(),
      verb: a.verb,
      resourceRequest: a.resourceRequest,
      apiGroup: a.apiGroup ?? '',
      apiVersion: a.apiVersion ?? '',
      resource: a.resource ?? '',
      subresource: a.subresource ?? '',
      namespace: a.namespace ?? '',
      name: a.name ?? '',
      fieldSelector: a.fieldSelector ?? '',
      labelSelector: a.labelSelector ?? '',
      path: a.path ?? '',
    })
    const cached = decisions.get(key)
    if (cached !== undefined) return cached
    const d = inner(a)
    decisions.set(key, d)
    return d
  }
}
