import type { FieldPath } from '../../kube/field.js'
import { isValidLabelValue } from '../../kube/validation/names.js'
import type { JSONObject } from '../../kube/values/json.js'
import { mapKeys, obj, objs, str, strs } from './common.js'

// Deprecated node labels in selectors (k8s.io/kubernetes v1.37.2 pkg/api/node/util.go): the node
// selector terms of pods and PersistentVolumes, a CSIStorageCapacity's nodeTopology, a RuntimeClass's
// scheduling.nodeSelector.

const DEPRECATED_NODE_LABELS = new Map<string, string>([
  ['beta.kubernetes.io/arch', 'deprecated since v1.14; use "kubernetes.io/arch" instead'],
  ['beta.kubernetes.io/os', 'deprecated since v1.14; use "kubernetes.io/os" instead'],
  ['failure-domain.beta.kubernetes.io/region', 'deprecated since v1.17; use "topology.kubernetes.io/region" instead'],
  ['failure-domain.beta.kubernetes.io/zone', 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead'],
  ['beta.kubernetes.io/instance-type', 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead'],
  ['app.kubernetes.io/created-by', 'deprecated since v1.9'],
  ['scheduler.alpha.kubernetes.io/preferAvoidPods', 'deprecated since v1.22; use Taints and Tolerations instead'],
  ['node-role.kubernetes.io/master', 'use "node-role.kubernetes.io/control-plane" instead'],
])

/** GetNodeLabelDeprecatedMessage: the message, or undefined when the label is not deprecated. */
export const getNodeLabelDeprecatedMessage = (key: string): string | undefined => DEPRECATED_NODE_LABELS.get(key)

/** GetWarningsForRuntimeClass: one warning per deprecated label of scheduling.nodeSelector (its path, not the key). */
export function getWarningsForRuntimeClass(rc: JSONObject): string[] {
  const warnings: string[] = []
  for (const key of mapKeys(obj(rc.scheduling)?.nodeSelector)) {
    const msg = getNodeLabelDeprecatedMessage(key)
    if (msg !== undefined) warnings.push(`scheduling.nodeSelector: ${msg}`)
  }
  return warnings
}

/** GetWarningsForNodeSelector (a metav1.LabelSelector: matchExpressions, then matchLabels). */
export function getWarningsForNodeSelector(selector: unknown, p: FieldPath): string[] {
  const s = obj(selector)
  if (s === undefined) return []
  const warnings: string[] = []
  objs(s.matchExpressions).forEach((e, i) => {
    const key = str(e.key)
    const msg = getNodeLabelDeprecatedMessage(key)
    if (msg !== undefined) warnings.push(`${p.child('matchExpressions').index(i).child('key')}: ${key} is ${msg}`)
  })
  for (const label of mapKeys(s.matchLabels)) {
    const msg = getNodeLabelDeprecatedMessage(label)
    if (msg !== undefined) warnings.push(`${p.child('matchLabels').child(label)}: ${msg}`)
  }
  return warnings
}

/** GetWarningsForNodeSelectorTerm: deprecated keys of matchExpressions, and (preferred terms) invalid label values. */
export function getWarningsForNodeSelectorTerm(term: unknown, checkLabelValue: boolean, p: FieldPath): string[] {
  const warnings: string[] = []
  objs(obj(term)?.matchExpressions).forEach((e, i) => {
    const key = str(e.key)
    const msg = getNodeLabelDeprecatedMessage(key)
    const at = p.child('matchExpressions').index(i)
    if (msg !== undefined) warnings.push(`${at.child('key')}: ${key} is ${msg}`)
    if (checkLabelValue)
      strs(e.values).forEach((value, j) => {
        for (const m of isValidLabelValue(value))
          warnings.push(`${at.child('values').index(j)}: ${value} is invalid, ${m}`)
      })
  })
  return warnings
}
