import type { NamedRuleWithOperations } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'

// validateRule and the resource-list checks it uses (admissionregistration validation.go).

export function hasWildcard(slice: readonly string[]): boolean {
  return slice.includes('*')
}

/** validateResources: resources with `resource/subresource` forms and their wildcards. */
export function validateResources(resources: readonly string[], fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (resources.length === 0) errs.push(field.required(fldPath, ''))
  // x/*
  const resourcesWithWildcardSubresources = new Set<string>()
  // */x
  const subResourcesWithWildcardResource = new Set<string>()
  let hasDoubleWildcard = false
  let hasSingleWildcard = false
  let hasResourceWithoutSubresource = false
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(field.required(fldPath.index(i), ''))
      return
    }
    if (resSub === '*/*') hasDoubleWildcard = true
    if (resSub === '*') hasSingleWildcard = true
    const slash = resSub.indexOf('/')
    if (slash < 0) {
      hasResourceWithoutSubresource = resSub !== '*'
      return
    }
    const res = resSub.slice(0, slash)
    const sub = resSub.slice(slash + 1)
    if (resourcesWithWildcardSubresources.has(res))
      errs.push(field.invalid(fldPath.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`))
    if (subResourcesWithWildcardResource.has(sub))
      errs.push(field.invalid(fldPath.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`))
    if (sub === '*') resourcesWithWildcardSubresources.add(res)
    if (res === '*') subResourcesWithWildcardResource.add(sub)
  })
  if (resources.length > 1 && hasDoubleWildcard)
    errs.push(field.invalid(fldPath, resources, "if '*/*' is present, must not specify other resources"))
  if (hasSingleWildcard && hasResourceWithoutSubresource)
    errs.push(
      field.invalid(fldPath, resources, "if '*' is present, must not specify other resources without subresources"),
    )
  return errs
}

/** validateResourcesNoSubResources. */
export function validateResourcesNoSubResources(resources: readonly string[], fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (resources.length === 0) errs.push(field.required(fldPath, ''))
  resources.forEach((resource, i) => {
    if (resource === '') errs.push(field.required(fldPath.index(i), ''))
    if (resource.includes('/')) errs.push(field.invalid(fldPath.index(i), resource, 'must not specify subresources'))
  })
  if (resources.length > 1 && hasWildcard(resources))
    errs.push(field.invalid(fldPath, resources, "if '*' is present, must not specify other resources"))
  return errs
}

/** validScopes.List() (sorted). */
export const VALID_SCOPES = ['*', 'Cluster', 'Namespaced'] as const

/** validateRule: apiGroups, apiVersions, resources and scope of a rule. */
export function validateRule(
  rule: NamedRuleWithOperations,
  fldPath: FieldPath,
  allowSubResource: boolean,
): FieldError[] {
  const errs: FieldError[] = []
  const apiGroups = rule.apiGroups ?? []
  const apiVersions = rule.apiVersions ?? []
  if (apiGroups.length === 0) errs.push(field.required(fldPath.child('apiGroups'), ''))
  if (apiGroups.length > 1 && hasWildcard(apiGroups))
    errs.push(
      field.invalid(fldPath.child('apiGroups'), apiGroups, "if '*' is present, must not specify other API groups"),
    )
  // Note: group could be empty, e.g., the legacy "v1" API
  if (apiVersions.length === 0) errs.push(field.required(fldPath.child('apiVersions'), ''))
  if (apiVersions.length > 1 && hasWildcard(apiVersions))
    errs.push(
      field.invalid(
        fldPath.child('apiVersions'),
        apiVersions,
        "if '*' is present, must not specify other API versions",
      ),
    )
  apiVersions.forEach((version, i) => {
    if (version === '') errs.push(field.required(fldPath.child('apiVersions').index(i), ''))
  })
  const resources = rule.resources ?? []
  errs.push(
    ...(allowSubResource
      ? validateResources(resources, fldPath.child('resources'))
      : validateResourcesNoSubResources(resources, fldPath.child('resources'))),
  )
  if (rule.scope !== undefined && rule.scope !== null && !(VALID_SCOPES as readonly string[]).includes(rule.scope))
    errs.push(field.notSupported(fldPath.child('scope'), rule.scope, VALID_SCOPES))
  return errs
}
