// Stage 1: the resources no admission policy sees.

import type { AdmitResult } from '../answer.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * Resources no ValidatingAdmissionPolicy sees (apiserver pkg/admission/plugin/policy/generic/plugin.go
 * Dispatch): the admission policy resources themselves (`admissionResources`, excluded from API-based
 * policies to avoid circular dependencies) and the non-persisted review resources kube-apiserver
 * passes to SetExcludedAdmissionResources (kubernetes pkg/kubeapiserver/admission/exclusion/resources.go).
 */
const EXCLUDED_RESOURCES = new Set([
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'admissionregistration.k8s.io/mutatingadmissionpolicies',
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
  'authentication.k8s.io/selfsubjectreviews',
  'authentication.k8s.io/tokenreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authorization.k8s.io/subjectaccessreviews',
])

const EXCLUDED_GROUPS = new Set([...EXCLUDED_RESOURCES].map((r) => r.slice(0, r.indexOf('/'))))

// the group first: most requests are of other groups, and then no key string is built
export const isExcludedResource = (group: string, resource: string) =>
  EXCLUDED_GROUPS.has(group) && EXCLUDED_RESOURCES.has(`${group}/${resource}`)

/** generic/plugin.go Dispatch: requests for excluded resources never reach the policies (allowed, nothing said). */
export function excludedResources(_ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  const r = s.request.resource
  return isExcludedResource(r.group, r.resource)
    ? { allowed: true, warnings: [], auditAnnotations: {}, violations: [] }
    : undefined
}
