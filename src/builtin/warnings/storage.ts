import { FieldPath } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'
import { isNonInteger, quantity } from '../validation/core/resources.js'
import { annotationsOf, get, goQuote, has, obj, objs, str } from './common.js'
import { getNodeLabelDeprecatedMessage, getWarningsForNodeSelector, getWarningsForNodeSelectorTerm } from './node.js'

// Storage warnings (k8s.io/kubernetes v1.37.2): pkg/api/persistentvolumeclaim/util.go
// (GetWarningsForPersistentVolumeClaim, …Spec), pkg/api/persistentvolume/util.go
// (GetWarningsForPersistentVolume), pkg/api/storage/util.go (GetWarningsForStorageClass,
// GetWarningsForCSIStorageCapacity), pkg/registry/storage/csidriver/strategy.go.

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class'
const ANNOTATIONS = FieldPath.of('metadata', 'annotations')

/** GetWarningsForPersistentVolumeClaimSpec: a fractional storage request or limit (absent: zero, no warning). */
export function getWarningsForPersistentVolumeClaimSpec(p: FieldPath, spec: JSONObject): string[] {
  const warnings: string[] = []
  const resources = obj(spec.resources)
  for (const list of ['requests', 'limits']) {
    const q = quantity(get(resources?.[list], 'storage'))
    if (q !== undefined && isNonInteger(q))
      warnings.push(
        `${p.child('resources').child(list).key('storage')}: fractional byte value ${goQuote(q.toString())} is invalid, must be an integer`,
      )
  }
  return warnings
}

/** GetWarningsForPersistentVolumeClaim. */
export function getWarningsForPersistentVolumeClaim(pvc: JSONObject): string[] {
  const warnings: string[] = []
  if (has(annotationsOf(pvc), BETA_STORAGE_CLASS))
    warnings.push(
      `${ANNOTATIONS.key(BETA_STORAGE_CLASS)}: deprecated since v1.8; use "storageClassName" attribute instead`,
    )
  warnings.push(...getWarningsForPersistentVolumeClaimSpec(FieldPath.of('spec'), obj(pvc.spec) ?? {}))
  return warnings
}

const PV_DEPRECATED_ANNOTATIONS: readonly [string, string][] = [
  [BETA_STORAGE_CLASS, 'deprecated since v1.8; use "storageClassName" attribute instead'],
  ['volume.beta.kubernetes.io/mount-options', 'deprecated since v1.31; use "mountOptions" attribute instead'],
]

const PV_PLUGINS: readonly [string, string][] = [
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
]

/** GetWarningsForPersistentVolume (warningsForPersistentVolumeSpecAndMeta with a nil root). */
export function getWarningsForPersistentVolume(pv: JSONObject, minor: number): string[] {
  const warnings: string[] = []
  const annotations = annotationsOf(pv)
  // (the mount-options annotation from 1.31)
  for (const [key, message] of minor >= 31 ? PV_DEPRECATED_ANNOTATIONS : PV_DEPRECATED_ANNOTATIONS.slice(0, 1))
    if (has(annotations, key)) warnings.push(`${ANNOTATIONS.key(key)}: ${message}`)
  const spec = obj(pv.spec) ?? {}
  if (spec.persistentVolumeReclaimPolicy === 'Recycle')
    warnings.push(
      'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    )
  const required = obj(obj(spec.nodeAffinity)?.required)
  if (required !== undefined) {
    const terms = FieldPath.of('spec', 'nodeAffinity', 'required', 'nodeSelectorTerms')
    warnings.push(
      ...objs(required.nodeSelectorTerms).flatMap((t, i) => getWarningsForNodeSelectorTerm(t, false, terms.index(i))),
    )
  }
  for (const [plugin, message] of PV_PLUGINS)
    if (obj(spec[plugin]) !== undefined) warnings.push(`spec.${plugin}: ${message}`)
  return warnings
}

/** GetWarningsForStorageClass: deprecated node labels in allowedTopologies. */
export function getWarningsForStorageClass(sc: JSONObject): string[] {
  const warnings: string[] = []
  objs(sc.allowedTopologies).forEach((topology, i) => {
    objs(topology.matchLabelExpressions).forEach((e, j) => {
      const msg = getNodeLabelDeprecatedMessage(str(e.key))
      if (msg !== undefined)
        warnings.push(
          `${FieldPath.of('allowedTopologies').index(i).child('matchLabelExpressions').index(j).child('key')}: ${msg}`,
        )
    })
  })
  return warnings
}

/** GetWarningsForCSIStorageCapacity. */
export const getWarningsForCSIStorageCapacity = (c: JSONObject): string[] =>
  getWarningsForNodeSelector(c.nodeTopology, FieldPath.of('nodeTopology'))

const TOKEN_IN_SECRETS =
  'spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes'

/**
 * The CSIDriver strategy's warning (CSIServiceAccountTokenSecrets, on from 1.35): tokenRequests without
 * serviceAccountTokenInSecrets; on update only when tokenRequests changed.
 */
export function csiDriverWarnings(d: JSONObject, old: JSONObject | undefined, minor: number): string[] {
  if (minor < 35) return []
  const spec = obj(d.spec) ?? {}
  const requests = Array.isArray(spec.tokenRequests) ? spec.tokenRequests : []
  if (old !== undefined && JSON.stringify(obj(old.spec)?.tokenRequests ?? []) === JSON.stringify(requests)) return []
  return requests.length > 0 && typeof spec.serviceAccountTokenInSecrets !== 'boolean' ? [TOKEN_IN_SECRETS] : []
}
