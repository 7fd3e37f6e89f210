import type { JSONObject } from '../../../kube/values/json.js'
import { ALLOWED, type Check, type CheckResult, items, joinQuote, nameOf, obj, pluralize, sortedSet } from './check.js'
import { checkHostPathVolumesID } from './host-path-volumes.js'

// policy/check_restrictedVolumes.go: restricted, inline volumes limited to configMap, csi, downwardAPI, emptyDir,
// ephemeral, image, persistentVolumeClaim, projected and secret, 1.0+ (overrides the baseline hostPath check).

export const CheckRestrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumVersion: 0, checkPod: restrictedVolumes_1_0, overrideCheckIDs: [checkHostPathVolumesID] }],
}

const allowedSources = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'image',
  'persistentVolumeClaim',
  'projected',
  'secret',
]

/** The named sources in the order of the Go switch (the first set one names the volume's type). */
const restrictedSources = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
]

function restrictedVolumes_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badVolumes: string[] = []
  const badVolumeTypes = new Set<string>()
  for (const volume of items(podSpec, 'volumes')) {
    if (allowedSources.some((s) => obj(volume, s) !== undefined)) continue
    badVolumes.push(nameOf(volume))
    badVolumeTypes.add(restrictedSources.find((s) => obj(volume, s) !== undefined) ?? 'unknown')
  }
  if (badVolumes.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'restricted volume types',
    forbiddenDetail: `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', badVolumeTypes.size)} ${joinQuote(sortedSet(badVolumeTypes))}`,
  }
}
