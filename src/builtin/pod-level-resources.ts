import type { FeatureGates } from '../kube/feature-gates.js'
import { setOwn } from '../kube/own-keys.js'
import { isObject as isObj, type JSONObject, sortedKeys } from '../kube/values/json.js'
import { aggregateContainerResources, type ResourceList, resourceList } from './resource-helpers.js'
import { isHugePageResourceName, isOvercommitAllowed } from './validation/core/resources.js'

// A Pod's pod-level resources (spec.resources) defaulted from its containers' (PodLevelResources, beta on from
// 1.34), in two places by release (kubernetes v1.37.2):
// - 1.34–1.36: at decoding, SetDefaults_Pod's defaultHugePagePodLimits and defaultPodRequests
//   (pkg/apis/core/v1/defaults.go), before the mutating admission plugins;
// - 1.37 (PodLevelResourcesFixDefaulting, beta on): in the Pod strategy's PrepareForCreate, after them,
//   DefaultPodLevelResources (pkg/api/pod/util.go): hugepage limits, requests, then limits.
// The containers' resources are summed as component-helpers resource/helpers.go aggregates them (sidecars, i.e.
// restartable init containers, add to the regular containers; an init container's use is its own plus the
// sidecars' before it; the pod's is the larger), with apimachinery's Quantity arithmetic, whose formats decide
// how a sum is written. Resource lists read from input are Maps (any resource name, `__proto__` included).

const objects = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.filter(isObj) : [])

/** resourcehelper.IsSupportedPodLevelResource: cpu, memory and the hugepages. */
export const isSupportedPodLevelResource = (n: string): boolean =>
  n === 'cpu' || n === 'memory' || isHugePageResourceName(n)

/**
 * The list written back in place of `given` (its entries kept as they are, the new ones as Go marshals a
 * Quantity), keys in Go's map order. Undefined when nothing was added.
 */
function written(given: unknown, added: ResourceList): JSONObject | undefined {
  if (added.size === 0) return undefined
  const merged: JSONObject = isObj(given) ? { ...given } : {}
  for (const [k, q] of added) setOwn(merged, k, q.toString())
  const out: JSONObject = {}
  for (const k of sortedKeys(merged)) setOwn(out, k, merged[k])
  return out
}

const has = (list: unknown, k: string): boolean => isObj(list) && Object.hasOwn(list, k)
const nonEmpty = (v: unknown): boolean => isObj(v) && Object.keys(v).length > 0

/** defaultHugePagePodLimits (both releases): a hugepage without a pod-level request or limit takes the containers'. */
function defaultHugePagePodLimits(spec: JSONObject, res: JSONObject): void {
  const added: ResourceList = new Map()
  for (const [name, q] of aggregateContainerResources(spec, 'limits')) {
    if (!isSupportedPodLevelResource(name) || !isHugePageResourceName(name)) continue
    if (has(res.requests, name) || has(res.limits, name)) continue
    added.set(name, q)
  }
  const limits = written(res.limits, added)
  if (limits !== undefined) res.limits = limits
}

/**
 * The requests a pod-level limit or the containers' requests give (defaultPodRequests, defaultPodLevelRequests):
 * an overcommittable supported resource takes the containers' sum, then a supported limit its own value.
 */
function defaultPodLevelRequests(spec: JSONObject, res: JSONObject): void {
  const added: ResourceList = new Map()
  const missing = (name: string) => !has(res.requests, name) && !added.has(name)
  for (const [name, q] of aggregateContainerResources(spec, 'requests'))
    if (missing(name) && isSupportedPodLevelResource(name) && isOvercommitAllowed(name)) added.set(name, q)
  for (const [name, q] of resourceList(res.limits))
    if (missing(name) && isSupportedPodLevelResource(name)) added.set(name, q)
  const requests = written(res.requests, added)
  if (requests !== undefined) res.requests = requests
}

/**
 * defaultPodLevelLimits (1.37): a supported resource with a pod-level request and no pod-level limit takes the
 * containers' summed limits when every container (init, regular, ephemeral) has one, raised to the request.
 */
function defaultPodLevelLimits(spec: JSONObject, res: JSONObject): void {
  const requests = resourceList(res.requests)
  const candidates = new Set<string>()
  for (const name of requests.keys())
    if (isSupportedPodLevelResource(name) && !has(res.limits, name)) candidates.add(name)
  for (const c of [
    ...objects(spec.initContainers),
    ...objects(spec.containers),
    ...objects(spec.ephemeralContainers),
  ]) {
    if (candidates.size === 0) break
    const limits = isObj(c.resources) ? c.resources.limits : undefined
    for (const name of candidates) if (!has(limits, name)) candidates.delete(name)
  }
  if (candidates.size === 0) return
  const aggregated = aggregateContainerResources(spec, 'limits')
  const added: ResourceList = new Map()
  for (const name of candidates) {
    let v = aggregated.get(name)
    if (v === undefined) continue
    const request = requests.get(name)
    if (request !== undefined && request.clone().cmp(v) > 0) v = request
    added.set(name, v)
  }
  const limits = written(res.limits, added)
  if (limits !== undefined) res.limits = limits
}

/** The pod-level resources when some request or limit is set (the functions' common guard). */
function podLevelResources(pod: JSONObject): [JSONObject, JSONObject] | undefined {
  const spec = pod.spec
  if (!isObj(spec) || !isObj(spec.resources)) return undefined
  const res = spec.resources
  return nonEmpty(res.requests) || nonEmpty(res.limits) ? [spec, res] : undefined
}

/** DefaultPodLevelResources: the strategy's PrepareForCreate, with PodLevelResourcesFixDefaulting (1.37). In place. */
export function DefaultPodLevelResources(pod: JSONObject, on: FeatureGates): void {
  if (!on('PodLevelResources') || !on('PodLevelResourcesFixDefaulting')) return
  const found = podLevelResources(pod)
  if (found === undefined) return
  const [spec, res] = found
  defaultHugePagePodLimits(spec, res)
  defaultPodLevelRequests(spec, res)
  defaultPodLevelLimits(spec, res)
}

/** SetDefaults_Pod's pod-level part before PodLevelResourcesFixDefaulting (1.34–1.36). In place. */
export function defaultPodRequestsAtDecoding(pod: JSONObject): void {
  const found = podLevelResources(pod)
  if (found === undefined) return
  const [spec, res] = found
  defaultHugePagePodLimits(spec, res)
  // defaultPodRequests: only when pod-level limits are given (after the hugepage ones were added)
  if (nonEmpty(res.limits)) defaultPodLevelRequests(spec, res)
}
