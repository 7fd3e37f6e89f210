import type { Labels, Selector } from '../../kube/labels.js'
import type { AdmissionAttributes } from '../attributes.js'
import { isNotFound, newInternalError, newNotFound, type StatusError } from './errors.js'
import { NOT_SELECTED, objectLabels, SELECTED, type SelectorMatch } from './object.js'

// namespaceSelector matching, ported from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/webhook/predicates/namespace/matcher.go.
//
// The API server reads a namespace's labels from its informer cache, then from the API; kelp reads
// them from a NamespaceLookup over the Namespace objects the user supplied. A namespace the lookup
// does not know is handled as the API server handles a namespace that does not exist: the selector
// match fails with NotFound (`namespaces "x" not found`). Matcher.matches reports that error only
// when the request otherwise matches (rules, object selector), as Go does; the policy dispatcher then
// treats it as a configuration error under the policy's failurePolicy.

/** What the matcher needs of a Namespace object. */
export interface NamespaceInfo {
  readonly labels?: Labels | null
}

/** Finds a namespace by name; undefined when there is no such namespace. */
export type NamespaceLookup = (name: string) => NamespaceInfo | undefined

/** A NamespaceLookup over Namespace manifests (metadata.name, metadata.labels); other kinds are skipped. */
export function namespaceLookupFromObjects(objects: Iterable<unknown>): NamespaceLookup {
  const byName = new Map<string, NamespaceInfo>()
  for (const o of objects) {
    if (typeof o !== 'object' || o === null) continue
    const obj = o as Record<string, unknown>
    if (obj['kind'] !== 'Namespace' || (obj['apiVersion'] !== undefined && obj['apiVersion'] !== 'v1')) continue
    const meta = obj['metadata'] as Record<string, unknown> | undefined
    const name = meta?.['name']
    if (typeof name !== 'string') continue
    byName.set(name, { labels: objectLabels(obj) ?? {} })
  }
  return (name) => byName.get(name)
}

/** Supplies the parsed namespaceSelector (NamespaceSelectorProvider); throws when the selector is invalid. */
export interface NamespaceSelectorProvider {
  getParsedNamespaceSelector(): Selector
}

type NamespaceAttributes = Pick<AdmissionAttributes, 'resource' | 'subResource' | 'operation' | 'namespace' | 'object'>

/** namespace.Matcher. */
export class NamespaceMatcher {
  constructor(readonly lookup: NamespaceLookup = () => undefined) {}

  /** Matcher.GetNamespace: the namespace, or a NotFound error. */
  getNamespace(name: string): NamespaceInfo {
    const ns = this.lookup(name)
    if (ns === undefined) throw newNotFound('', 'namespaces', name)
    return ns
  }

  /**
   * Matcher.GetNamespaceLabels. A CREATE or UPDATE of a Namespace reads the labels of the object being
   * admitted (the stored namespace is not there yet, or is about to change); anything else, a Namespace
   * DELETE included, reads the namespace named by the request. Throws NotFound for an unknown namespace.
   */
  getNamespaceLabels(attr: NamespaceAttributes): Labels {
    if (
      attr.resource.resource === 'namespaces' &&
      attr.subResource === '' &&
      (attr.operation === 'CREATE' || attr.operation === 'UPDATE')
    ) {
      if (typeof attr.object !== 'object' || attr.object === null)
        throw new Error('object does not implement the Object interfaces')
      return objectLabels(attr.object) ?? {}
    }
    return this.getNamespace(attr.namespace).labels ?? {}
  }

  /**
   * Matcher.MatchNamespaceSelector. Requests for cluster-scoped resources other than namespaces always
   * match; an empty selector matches everything; otherwise the namespace's labels decide. Errors: an
   * invalid selector or a failed lookup is an internal error, an unknown namespace is NotFound.
   */
  matchNamespaceSelector(p: NamespaceSelectorProvider, attr: NamespaceAttributes): SelectorMatch {
    if (attr.namespace === '' && attr.resource.resource !== 'namespaces') return SELECTED
    let selector: Selector
    try {
      selector = p.getParsedNamespaceSelector()
    } catch (e) {
      return [false, newInternalError(e)]
    }
    if (selector.empty()) return SELECTED
    let labels: Labels
    try {
      labels = this.getNamespaceLabels(attr)
    } catch (e) {
      if (isNotFound(e)) return [false, e as StatusError]
      return [false, newInternalError(e)]
    }
    return selector.matches(labels) ? SELECTED : NOT_SELECTED
  }
}
