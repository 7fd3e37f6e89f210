import type { FeatureGates } from '../../../kube/feature-gates.js'
import { dropEndpointSliceDisabledFields } from '../../drop-disabled.js'
import { arr, deepEqual, isObj, type JSONObject, obj, str } from '../common.js'

// The EndpointSlice strategy's PrepareForCreate / PrepareForUpdate (kubernetes v1.37.2
// pkg/registry/discovery/endpointslice/strategy.go): dropDisabledFieldsOnCreate / OnUpdate
// (drop-disabled.ts), then dropTopologyOnV1: a discovery.k8s.io/v1 write (the only version kelp decodes)
// loses each endpoint's deprecatedTopology, unless the endpoints did not change; an endpoint without
// nodeName whose kubernetes.io/hostname topology names a node of the old object's topologies (and is a
// valid node name) gets it as nodeName.

const HOSTNAME = 'kubernetes.io/hostname'
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** getDeprecatedTopologyNodeNames. */
function deprecatedTopologyNodeNames(old: JSONObject | undefined): Set<string> {
  const names = new Set<string>()
  for (const ep of arr(old?.endpoints)) {
    const topology = obj(obj(ep)?.deprecatedTopology)
    const name = topology !== undefined && Object.hasOwn(topology, HOSTNAME) ? str(topology[HOSTNAME]) : ''
    if (name.length > 0) names.add(name)
  }
  return names
}

/** dropTopologyOnV1. */
function dropTopologyOnV1(o: JSONObject, old: JSONObject | undefined): void {
  if (old !== undefined && deepEqual(old.endpoints ?? null, o.endpoints ?? null)) return
  const previous = deprecatedTopologyNodeNames(old)
  for (const ep of arr(o.endpoints)) {
    if (!isObj(ep)) continue
    const topology = obj(ep.deprecatedTopology)
    const name = topology !== undefined && Object.hasOwn(topology, HOSTNAME) ? topology[HOSTNAME] : undefined
    if (
      ep.nodeName === undefined &&
      typeof name === 'string' &&
      previous.has(name) &&
      name.length <= 253 &&
      DNS_SUBDOMAIN.test(name)
    )
      ep.nodeName = name
    delete ep.deprecatedTopology
  }
}

/** The EndpointSlice strategy's prepare: the disabled fields dropped, then dropTopologyOnV1. */
export function prepareEndpointSlice(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  dropEndpointSliceDisabledFields(o, old, on)
  dropTopologyOnV1(o, old)
}
