import { isObject, type JSONObject } from '../../kube/values/json.js'

// The DefaultTolerationSeconds admission plugin (kubernetes plugin/pkg/admission/defaulttolerationseconds/
// admission.go Admit), on by default: every Pod (create and update, no subresource) that does not already
// tolerate the node.kubernetes.io/not-ready and unreachable NoExecute taints gets a toleration of each for
// 300 seconds (the kube-apiserver flags --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds, left at their defaults).

export const TaintNodeNotReady = 'node.kubernetes.io/not-ready'
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable'
const defaultTolerationSeconds = 300

/** Admit: appends the tolerations the Pod lacks, in place (keys in the order a decoded v1 Toleration has them). */
export function admitDefaultTolerationSeconds(pod: JSONObject): void {
  if (!isObject(pod.spec)) return
  const spec = pod.spec
  const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as unknown[]) : []
  let notReady = false
  let unreachable = false
  for (const t of tolerations) {
    if (!isObject(t)) continue
    const key = typeof t.key === 'string' ? t.key : ''
    const effect = typeof t.effect === 'string' ? t.effect : ''
    if (effect !== 'NoExecute' && effect !== '') continue
    if (key === TaintNodeNotReady || key === '') notReady = true
    if (key === TaintNodeUnreachable || key === '') unreachable = true
  }
  const added: JSONObject[] = []
  for (const [key, tolerated] of [
    [TaintNodeNotReady, notReady],
    [TaintNodeUnreachable, unreachable],
  ] as const)
    if (!tolerated)
      added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds })
  if (added.length > 0) spec.tolerations = [...tolerations, ...added]
}
