import { FieldPath } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'
import { annotationsOf, get, has, metadataOf, obj, objs, str, strs } from './common.js'
import { getWarningsForCIDR, getWarningsForIP } from './ip.js'

// networking.k8s.io and discovery.k8s.io strategy warnings (k8s.io/kubernetes v1.37.2
// pkg/registry/networking/{ingress,networkpolicy}/strategy.go, pkg/registry/discovery/endpointslice/strategy.go).

const INGRESS_CLASS = 'kubernetes.io/ingress.class'

/** The Ingress strategy's WarningsOnCreate: the class annotation without spec.ingressClassName. */
export function ingressWarnings(ing: JSONObject): string[] {
  return has(annotationsOf(ing), INGRESS_CLASS) && typeof obj(ing.spec)?.ingressClassName !== 'string'
    ? [`annotation "${INGRESS_CLASS}" is deprecated, please use 'spec.ingressClassName' instead`]
    : []
}

/** networkPolicyWarnings: the ipBlocks' CIDRs of ingress, then egress. */
export function networkPolicyWarnings(np: JSONObject, minor: number): string[] {
  // (from 1.33)
  if (minor < 33) return []
  const spec = obj(np.spec) ?? {}
  const warnings: string[] = []
  for (const [rules, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const)
    objs(spec[rules]).forEach((rule, i) => {
      objs(rule[peers]).forEach((peer, j) => {
        const block = obj(peer.ipBlock)
        if (block === undefined) return
        const p = FieldPath.of('spec').child(rules).index(i).child(peers).index(j).child('ipBlock')
        warnings.push(...getWarningsForCIDR(p.child('cidr'), str(block.cidr)))
        warnings.push(...strs(block.except).flatMap((e, k) => getWarningsForCIDR(p.child('except').index(k), e)))
      })
    })
  return warnings
}

const SLICE_CONTROLLERS = new Set(['endpointslice-controller.k8s.io', 'endpointslicemirroring-controller.k8s.io'])

/** warnOnBadIPs: the endpoints' addresses (none for the endpoint slice controllers' own objects). */
function warnOnBadIPs(eps: JSONObject, minor: number): string[] {
  // (from 1.33)
  if (minor < 33) return []
  const managedBy = get(metadataOf(eps).labels, 'endpointslice.kubernetes.io/managed-by')
  if (typeof managedBy === 'string' && SLICE_CONTROLLERS.has(managedBy)) return []
  const warnings: string[] = []
  objs(eps.endpoints).forEach((e, i) => {
    const p = FieldPath.of('endpoints').index(i).child('addresses')
    warnings.push(...strs(e.addresses).flatMap((a, j) => getWarningsForIP(p.index(j), a)))
  })
  return warnings
}

/** The EndpointSlice strategy: FQDN deprecated (create only), then the addresses. */
export function endpointSliceWarnings(eps: JSONObject, old: JSONObject | undefined, minor: number): string[] {
  const deprecated =
    old === undefined && eps.addressType === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : []
  return [...deprecated, ...warnOnBadIPs(eps, minor)]
}
