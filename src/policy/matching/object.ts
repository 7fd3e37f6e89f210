import type { Labels, Selector } from '../../kube/labels.js'
import { isObject } from '../../kube/values/json.js'
import type { AdmissionAttributes } from '../attributes.js'
import { newInternalError, type StatusError } from './errors.js'

// objectSelector matching, ported from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/webhook/predicates/object/matcher.go.

/** Supplies the parsed objectSelector (ObjectSelectorProvider); throws when the selector is invalid. */
export interface ObjectSelectorProvider {
  getParsedObjectSelector(): Selector
}

/**
 * The labels of a JSON object as meta.Accessor(obj).GetLabels() reads them, or undefined when the
 * value is not an object with metadata.
 *
 * Go's accessor fails for typed values that have no ObjectMeta (the options kinds a CONNECT request
 * carries: PodExecOptions, NodeProxyOptions, …) and succeeds for everything else; kelp only sees
 * JSON, so it draws the line at `metadata`: a JSON object without a `metadata` object is taken to be
 * such a kind (every object the API server stores has metadata). `metadata.labels` that is not a map
 * of strings reads as no labels (unstructured GetLabels).
 */
export function objectLabels(obj: unknown): Labels | undefined {
  if (!isObject(obj)) return undefined
  const meta = obj['metadata']
  if (!isObject(meta)) return undefined
  const labels = meta['labels']
  if (!isObject(labels)) return {}
  for (const k of Object.keys(labels)) if (typeof labels[k] !== 'string') return {}
  return labels as Labels
}

function matchObject(obj: unknown, selector: Selector): boolean {
  const labels = objectLabels(obj)
  return labels !== undefined && selector.matches(labels)
}

export type SelectorMatch = readonly [matches: boolean, error: StatusError | undefined]

/** The answers without an error, shared (they are read, never changed). */
export const SELECTED: SelectorMatch = [true, undefined] as const
export const NOT_SELECTED: SelectorMatch = [false, undefined] as const

/**
 * Matcher.MatchObjectSelector: an empty selector matches every request; otherwise the object or the
 * old object must match (either one: an UPDATE that removes the label still matches, a DELETE is
 * matched by the old object). An invalid selector is an internal error.
 */
export function matchObjectSelector(
  p: ObjectSelectorProvider,
  attr: Pick<AdmissionAttributes, 'object' | 'oldObject'>,
): SelectorMatch {
  let selector: Selector
  try {
    selector = p.getParsedObjectSelector()
  } catch (e) {
    return [false, newInternalError(e)]
  }
  if (selector.empty()) return SELECTED
  return matchObject(attr.object, selector) || matchObject(attr.oldObject, selector) ? SELECTED : NOT_SELECTED
}
