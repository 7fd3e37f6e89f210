import { isObject, type JSONObject } from '../kube/values/json.js'
import type { Quantity } from '../kube/values/quantity.js'
import { quantity } from './validation/core/resources.js'

// A pod's resources summed over its containers (k8s.io/component-helpers resource/helpers.go
// aggregateContainerResourcesByFn, as PodRequests / PodLimits read the spec: no status resources, no DRA claim
// statuses): regular containers add up; sidecars (restartable init containers) add to them, and an init
// container's use is its own plus the sidecars' started before it; the pod's is the larger of the two. With
// apimachinery's Quantity arithmetic, whose formats decide how a sum is written. Resource lists read from input
// are Maps (any resource name, `__proto__` included). Used by LimitRanger, the pod-level resource defaulting and the
// pod-level resources validation (validatePodResourceConsistency).

export type ResourceList = Map<string, Quantity>

/** A ResourceList of the decoded object (quantities that do not parse left out: decoding refused them). */
export function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map()
  if (!isObject(v)) return out
  for (const k of Object.keys(v)) {
    const q = quantity(v[k])
    if (q !== undefined) out.set(k, q)
  }
  return out
}

/** addResourceList: a name new to `list` is copied in, else added to the one there (whose format the sum keeps). */
export function addResourceList(list: ResourceList, add: ResourceList): void {
  for (const [name, q] of add) {
    const have = list.get(name)
    list.set(name, have === undefined ? q.clone() : have.add(q))
  }
}

/** maxResourceList: the greater of the two for every name of `other`. */
export function maxResourceList(list: ResourceList, other: ResourceList): void {
  for (const [name, q] of other) {
    const have = list.get(name)
    // (cmp on copies: a comparison may bring a quantity to a common scale)
    if (have === undefined || q.clone().cmp(have.clone()) > 0) list.set(name, q.clone())
  }
}

const objects = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.filter(isObject) : [])
const resourcesOf = (c: JSONObject, k: 'requests' | 'limits'): ResourceList =>
  resourceList(isObject(c.resources) ? c.resources[k] : undefined)

/** aggregateContainerResourcesByFn over the spec's containers' requests or limits. */
export function aggregateContainerResources(spec: JSONObject, k: 'requests' | 'limits'): ResourceList {
  const result: ResourceList = new Map()
  for (const c of objects(spec.containers)) addResourceList(result, resourcesOf(c, k))
  const restartable: ResourceList = new Map()
  const init: ResourceList = new Map()
  for (const c of objects(spec.initContainers)) {
    let use = resourcesOf(c, k)
    if (c.restartPolicy === 'Always') {
      addResourceList(result, use)
      addResourceList(restartable, use)
      use = restartable
    } else {
      const combined: ResourceList = new Map()
      addResourceList(combined, use)
      addResourceList(combined, restartable)
      use = combined
    }
    maxResourceList(init, use)
  }
  maxResourceList(result, init)
  return result
}
