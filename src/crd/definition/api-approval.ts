import { goQuote } from '../../cel/ext/quote.js'
import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { parseRequestURI, URLError } from '../../kube/values/url.js'
import type { CustomResourceDefinition } from './types.js'

// validateAPIApproval (validation.go) with apihelpers.GetAPIApprovalState: groups under k8s.io and
// kubernetes.io are reserved to APIs approved by the Kubernetes community, which name the approving
// pull request (a URL) in an annotation, or opt out with a reason starting with "unapproved".

export const KUBE_API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io'

/** apihelpers.IsProtectedCommunityGroup. */
export function isProtectedCommunityGroup(group: string): boolean {
  return (
    group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io')
  )
}

type ApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing'

function getAPIApprovalState(annotations: Readonly<Record<string, string>> | undefined): [ApprovalState, string] {
  const annotation = annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? ''
  const url = parseRequestURI(annotation)
  if (annotation.length === 0)
    return [
      'missing',
      `protected groups must have approval annotation "${KUBE_API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
    ]
  if (annotation.startsWith('unapproved')) return ['bypassed', `not approved: ${goQuote(annotation)}`]
  if (!(url instanceof URLError) && url.host.length > 0 && url.scheme.length > 0)
    return ['approved', `approved in ${annotation}`]
  return [
    'invalid',
    `protected groups must have approval annotation "${KUBE_API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  ]
}

/** On create: a protected group needs an approval annotation that is a URL or starts with "unapproved". */
export function validateAPIApproval(crd: CustomResourceDefinition): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec?.group ?? '')) return []
  const annotations = crd.metadata?.annotations
  const [state, reason] = getAPIApprovalState(annotations)
  const path = FieldPath.of('metadata', 'annotations').key(KUBE_API_APPROVED_ANNOTATION)
  switch (state) {
    case 'approved':
    case 'bypassed':
      return []
    case 'missing':
      return [field.required(path, reason)]
    default:
      return [field.invalid(path, annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '', reason)]
  }
}
