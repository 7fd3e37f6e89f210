import { GoStruct } from '../../kube/field.js'
import { type LabelSelector, LabelSelectorError, labelSelectorAsSelector, type Selector } from '../../kube/labels.js'
import { isObject as isObj, type JSONObject } from '../../kube/values/json.js'

// Label selectors as the workload validations (apps, batch) use them: as a bad value, and converted.

/** A *metav1.LabelSelector as a bad value: its JSON (fields in declaration order). */
export const selectorValue = (s: JSONObject) =>
  new GoStruct([
    ...(isObj(s.matchLabels) ? [['matchLabels', s.matchLabels] as const] : []),
    ...(Array.isArray(s.matchExpressions) && s.matchExpressions.length > 0
      ? [['matchExpressions', s.matchExpressions] as const]
      : []),
  ])

/** metav1.LabelSelectorAsSelector: the selector, or undefined when it does not convert. */
export function asSelector(s: unknown): Selector | undefined {
  try {
    return labelSelectorAsSelector(isObj(s) ? (s as unknown as LabelSelector) : undefined)
  } catch (e) {
    if (e instanceof LabelSelectorError) return undefined
    throw e
  }
}
