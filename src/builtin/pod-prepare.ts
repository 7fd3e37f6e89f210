import type { FeatureGates } from '../kube/feature-gates.js'
import { wholeSeconds } from '../kube/system-fields.js'
import { isObject as isObj, type JSONObject } from '../kube/values/json.js'
import { DropDisabledPodFields } from './drop-disabled-pod.js'
import { DefaultPodLevelResources } from './pod-level-resources.js'

// The Pod strategy's PrepareForCreate and PrepareForUpdate on the spec (kubernetes v1.37.2
// pkg/registry/core/pod/strategy.go), the Pod row's `prepare` (src/builtin/strategies.ts), run before
// validation, after the mutating admission plugins:
// - create: DropDisabledPodFields; matchLabelKeys / mismatchLabelKeys merged into the pod affinity terms'
//   selectors (mutatePodAffinity) and matchLabelKeys into the topology spread constraints' (from 1.34:
//   MatchLabelKeysInPodTopologySpreadSelectorMerge); DefaultPodLevelResources (1.37:
//   PodLevelResourcesFixDefaulting; before, SetDefaults_Pod does it at decoding: src/builtin/defaults.ts).
//   applyAppArmorVersionSkew is run by src/builtin/strategy.ts beforeWrite (it has warnings to return); the
//   status parts (applySchedulingGatedCondition, the QoS class) by src/builtin/prepared.ts with
//   schedulingGatedConditions below.
// - update: the old pod-level resources kept when the new object has none (1.37), DropDisabledPodFields.
// The metadata.generation and status parts of both are prepared.ts's. Works on the decoded v1 object in place.

/** The Pod row's prepare: PrepareForCreate (no old object) or PrepareForUpdate. */
export function preparePod(pod: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  if (old === undefined) {
    DropDisabledPodFields(pod, undefined, on)
    mutatePodAffinity(pod, on)
    mutateTopologySpreadConstraints(pod, on)
    DefaultPodLevelResources(pod, on)
    return
  }
  // preserve existing PLR for requests from potentially PLR-unaware clients that completely dropped the field
  if (on('PodLevelResourcesFixDefaulting') && isObj(pod.spec) && pod.spec.resources === undefined) {
    const oldSpec = old.spec
    if (isObj(oldSpec) && isObj(oldSpec.resources)) pod.spec.resources = structuredClone(oldSpec.resources)
  }
  DropDisabledPodFields(pod, old, on)
}

const labelsOf = (pod: JSONObject): JSONObject | undefined => {
  const meta = pod.metadata
  return isObj(meta) && isObj(meta.labels) ? meta.labels : undefined
}
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

/**
 * applyLabelKeysToLabelSelector: `key <operator> (value)` appended for each key the pod has a label for (one new
 * list per call, not per key: a pod with many keys stays linear).
 */
function applyLabelKeysToLabelSelector(
  selector: JSONObject,
  keys: string[],
  operator: 'In' | 'NotIn',
  labels: JSONObject | undefined,
): void {
  if (labels === undefined) return
  const added: JSONObject[] = []
  for (const key of keys) if (Object.hasOwn(labels, key)) added.push({ key, operator, values: [labels[key]] })
  if (added.length === 0) return
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []
  selector.matchExpressions = [...expressions, ...added]
}

/** applyMatchLabelKeysAndMismatchLabelKeys: a term without a selector matches nothing and is left alone. */
function applyToAffinityTerm(term: unknown, labels: JSONObject | undefined): void {
  if (!isObj(term) || !isObj(term.labelSelector)) return
  applyLabelKeysToLabelSelector(term.labelSelector, strings(term.matchLabelKeys), 'In', labels)
  applyLabelKeysToLabelSelector(term.labelSelector, strings(term.mismatchLabelKeys), 'NotIn', labels)
}

/** mutatePodAffinity: the preferred terms, then the required ones, of podAffinity then podAntiAffinity. */
export function mutatePodAffinity(pod: JSONObject, on: FeatureGates): void {
  const spec = pod.spec
  if (!on('MatchLabelKeysInPodAffinity') || !isObj(spec) || !isObj(spec.affinity)) return
  const labels = labelsOf(pod)
  for (const a of [spec.affinity.podAffinity, spec.affinity.podAntiAffinity]) {
    if (!isObj(a)) continue
    const preferred = a.preferredDuringSchedulingIgnoredDuringExecution
    for (const w of Array.isArray(preferred) ? preferred : [])
      if (isObj(w)) applyToAffinityTerm(w.podAffinityTerm, labels)
    const required = a.requiredDuringSchedulingIgnoredDuringExecution
    for (const t of Array.isArray(required) ? required : []) applyToAffinityTerm(t, labels)
  }
}

/** mutateTopologySpreadConstraints: matchLabelKeys merged as `In` (both gates on: from 1.34 by default). */
export function mutateTopologySpreadConstraints(pod: JSONObject, on: FeatureGates): void {
  const spec = pod.spec
  if (!on('MatchLabelKeysInPodTopologySpread') || !on('MatchLabelKeysInPodTopologySpreadSelectorMerge')) return
  if (!isObj(spec) || !Array.isArray(spec.topologySpreadConstraints)) return
  const labels = labelsOf(pod)
  for (const c of spec.topologySpreadConstraints) {
    if (!isObj(c) || !isObj(c.labelSelector)) continue
    applyLabelKeysToLabelSelector(c.labelSelector, strings(c.matchLabelKeys), 'In', labels)
  }
}

/**
 * applySchedulingGatedCondition on the status PrepareForCreate reset (no condition yet): a pod with scheduling
 * gates starts with PodScheduled False, SchedulingGated (UpdatePodCondition stamps the time of the request).
 * The conditions list, or undefined.
 */
export function schedulingGatedConditions(spec: JSONObject): JSONObject[] | undefined {
  const gates = spec.schedulingGates
  if (!Array.isArray(gates) || gates.length === 0) return undefined
  return [
    {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: wholeSeconds(new Date()),
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    },
  ]
}
