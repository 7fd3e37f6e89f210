import { goQuote } from '../../cel/ext/quote.js'
import { isDNS1123Label } from '../../kube/validation/names.js'

// The NamespaceLifecycle admission plugin (k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle/
// admission.go Admit), on by default and first of the default chain: a create in a namespace that does not
// exist is answered with the namespace's NotFound before anything validates the object. Offline, kelp knows
// for sure only that a name which is not a DNS label can never be a namespace (the Namespace strategy refuses
// it); a namespace merely absent from the inputs is assumed to exist (PolicySetOptions.namespaces). The
// immortal namespaces (default, kube-system, kube-public) matter only to DELETE, and a terminating namespace
// cannot be written in a manifest (its status is the cluster's).

/** The plugin's NotFound for the request's namespace, or undefined (cluster-scoped, a Namespace, not a create). */
export function namespaceLifecycle(a: {
  readonly operation: string
  readonly namespace: string
  readonly kind: { readonly group: string; readonly kind: string }
}): string | undefined {
  if (a.namespace === '' || (a.kind.group === '' && a.kind.kind === 'Namespace')) return undefined
  if (a.operation !== 'CREATE') return undefined
  return isDNS1123Label(a.namespace).length > 0 ? `namespaces ${goQuote(a.namespace)} not found` : undefined
}
