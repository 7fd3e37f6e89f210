import { FieldPath } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'
import { quantity } from '../validation/core/resources.js'
import { annotationsOf, get, has, metadataOf, obj, objs, str, strs } from './common.js'
import { getWarningsForCIDR, getWarningsForIP } from './ip.js'

// The core group's strategy warnings (k8s.io/kubernetes v1.37.2): pkg/api/service/warnings.go
// GetWarningsForService, pkg/registry/core/{endpoint,node,serviceaccount,resourcequota}/strategy.go. By release
// (`minor`, the releases' sources): the IP and CIDR format warnings from 1.33 (before, other texts, not ported),
// the headless Service's from 1.34, trafficDistribution's and the ResourceQuota's from 1.35, the deprecated
// externalIPs from 1.36, the ServiceAccount's from 1.32.

const SPEC = FieldPath.of('spec')

/** GetWarningsForService (create: old undefined; the warnings do not depend on the old object in 1.37). */
export function getWarningsForService(svc: JSONObject, minor: number): string[] {
  const warnings: string[] = []
  if (has(annotationsOf(svc), 'service.kubernetes.io/topology-aware-hints'))
    warnings.push(
      'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
    )
  const spec = obj(svc.spec) ?? {}
  const clusterIP = str(spec.clusterIP)
  const type = str(spec.type)
  const externalIPs = strs(spec.externalIPs)
  // helper.IsServiceIPSet
  const ips = minor >= 33
  if (ips && clusterIP !== 'None' && clusterIP !== '')
    warnings.push(...strs(spec.clusterIPs).flatMap((ip, i) => getWarningsForIP(SPEC.child('clusterIPs').index(i), ip)))
  const headless = type === 'ClusterIP' && clusterIP === 'None'
  if (headless && minor >= 34) {
    if (str(spec.loadBalancerIP) !== '') warnings.push('spec.loadBalancerIP is ignored for headless services')
    if (externalIPs.length > 0) warnings.push('spec.externalIPs is ignored for headless services')
    if (str(spec.sessionAffinity) !== 'None') warnings.push('spec.SessionAffinity is ignored for headless services')
  }
  if (ips) warnings.push(...externalIPs.flatMap((ip, i) => getWarningsForIP(SPEC.child('externalIPs').index(i), ip)))
  if (minor >= 36 && externalIPs.length > 0 && !headless && type !== 'ExternalName')
    warnings.push('spec.externalIPs is deprecated and may no longer be implemented in some clusters')
  const lbIP = str(spec.loadBalancerIP)
  if (ips && lbIP !== '') warnings.push(...getWarningsForIP(SPEC.child('loadBalancerIP'), lbIP))
  if (ips)
    warnings.push(
      ...strs(spec.loadBalancerSourceRanges).flatMap((cidr, i) =>
        getWarningsForCIDR(SPEC.child('loadBalancerSourceRanges').index(i), cidr),
      ),
    )
  if (type === 'ExternalName' && externalIPs.length > 0)
    warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"')
  if (type !== 'ExternalName' && str(spec.externalName) !== '')
    warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"')
  if (minor >= 35 && spec.trafficDistribution === 'PreferClose')
    warnings.push('spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"')
  return warnings
}

/** The Endpoints strategy's endpointsWarnings (none for the endpoints controller's own objects). */
export function endpointsWarnings(ep: JSONObject, minor: number): string[] {
  if (minor < 33) return []
  if (get(metadataOf(ep).labels, 'endpoints.kubernetes.io/managed-by') === 'endpoint-controller') return []
  const warnings: string[] = []
  objs(ep.subsets).forEach((subset, i) => {
    for (const list of ['addresses', 'notReadyAddresses'])
      warnings.push(
        ...objs(subset[list]).flatMap((a, j) =>
          getWarningsForIP(FieldPath.of('subsets').index(i).child(list).index(j).child('ip'), str(a.ip)),
        ),
      )
  })
  return warnings
}

/** The Node strategy's nodeWarnings. */
export function nodeWarnings(node: JSONObject, minor: number): string[] {
  const spec = obj(node.spec) ?? {}
  const warnings: string[] = []
  if (obj(spec.configSource) !== undefined) warnings.push('spec.configSource: the feature is removed')
  if (str(spec.externalID) !== '')
    warnings.push('spec.externalID: this field is deprecated, and is unused by Kubernetes')
  if (minor >= 33)
    warnings.push(
      ...strs(spec.podCIDRs).flatMap((cidr, i) => getWarningsForCIDR(FieldPath.of('spec', 'podCIDRs').index(i), cidr)),
    )
  return warnings
}

const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets'

/** warnIfHasEnforceMountableSecretsAnnotation: only when the write newly sets the annotation. */
export function serviceAccountWarnings(sa: JSONObject, old: JSONObject | undefined, minor: number): string[] {
  if (minor < 32) return []
  if (old !== undefined && has(annotationsOf(old), ENFORCE_MOUNTABLE_SECRETS)) return []
  if (!has(annotationsOf(sa), ENFORCE_MOUNTABLE_SECRETS)) return []
  return [
    `metadata.annotations[${ENFORCE_MOUNTABLE_SECRETS}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`,
  ]
}

/** The ResourceQuota strategy's WarningsOnCreate: a request above its limit (cpu and memory: the bare name too). */
export function resourceQuotaWarnings(rq: JSONObject, minor: number): string[] {
  if (minor < 35) return []
  const hard = obj(rq.spec)?.hard
  const warnings: string[] = []
  for (const resource of ['cpu', 'memory', 'storage', 'ephemeral-storage']) {
    let requestName = `requests.${resource}`
    if (!has(hard, requestName) && (resource === 'cpu' || resource === 'memory') && has(hard, resource))
      requestName = resource
    const limitName = `limits.${resource}`
    if (!has(hard, requestName) || !has(hard, limitName)) continue
    const request = quantity(get(hard, requestName))
    const limit = quantity(get(hard, limitName))
    if (request !== undefined && limit !== undefined && request.cmp(limit) > 0)
      warnings.push(
        `ResourceQuota ${requestName} (${request.toString()}) should be less than ${limitName} (${limit.toString()})`,
      )
  }
  return warnings
}
