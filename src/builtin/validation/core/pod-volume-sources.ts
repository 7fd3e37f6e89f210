import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { type JSONObject, obj, optNum, optStr, str, utf8Len, validateDNS1123Label } from '../common.js'
import {
  badISCSIFormat,
  hasISCSIPrefix,
  INCLUSIVE_0_255,
  validateAzureDisk,
  validateCephFS,
  validateFC,
  validateFlex,
  validateFlocker,
  validatePhoton,
  validatePortworx,
  validateQuobyte,
  validateRBD,
  validateScaleIO,
  validateVsphere,
} from './persistent-volume-sources.js'

// The in-tree volume sources of a Pod's volume that kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// validates in validateVolumeSource beyond the common ones of pod-volumes.ts: iscsi, glusterfs, flocker, rbd,
// cinder, cephfs, quobyte, fc, flexVolume, azureFile, vsphereVolume, photonPersistentDisk, portworxVolume,
// azureDisk, storageos, scaleIO. Where Go has one function for a Pod's and a PersistentVolume's source the
// PersistentVolume's port is used (persistent-volume-sources.ts); the Pod's own functions differ from their
// PersistentVolume twins as written here (a local secretRef with a name only, no namespaces, the iSCSI texts).

type Check = (s: JSONObject, p: FieldPath) => FieldError[]

const req = (s: JSONObject, k: string, p: FieldPath): FieldError[] =>
  str(s[k]).length === 0 ? [field.required(p.child(k), '')] : []

/** A LocalObjectReference secretRef: its name is required when it is set (cinder, storageos). */
const secretRefName = (s: JSONObject, p: FieldPath): FieldError[] => {
  const ref = obj(s.secretRef)
  return ref !== undefined && str(ref.name).length === 0 ? [field.required(p.child('secretRef', 'name'), '')] : []
}

const ISCSI_PREFIX = 'must be valid format starting with iqn, eui, or naa'

/** validateISCSIVolumeSource. */
const validateISCSI: Check = (s, p) => {
  const errs = req(s, 'targetPortal', p)
  const iqn = str(s.iqn)
  if (iqn.length === 0) errs.push(field.required(p.child('iqn'), ''))
  else if (!hasISCSIPrefix(iqn)) errs.push(field.invalid(p.child('iqn'), iqn, ISCSI_PREFIX))
  else if (badISCSIFormat(iqn)) errs.push(field.invalid(p.child('iqn'), iqn, 'must be valid format'))
  const lun = optNum(s.lun) ?? 0
  if (lun < 0 || lun > 255) errs.push(field.invalid(p.child('lun'), lun, INCLUSIVE_0_255))
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && obj(s.secretRef) === undefined)
    errs.push(field.required(p.child('secretRef'), ''))
  const initiator = optStr(s.initiatorName)
  if (initiator !== undefined) {
    const ip = p.child('initiatorname')
    // two checks, not one chain: a name without a known prefix gets the first only
    if (!hasISCSIPrefix(initiator)) errs.push(field.invalid(ip, initiator, ISCSI_PREFIX))
    if (badISCSIFormat(initiator)) errs.push(field.invalid(ip, initiator, 'must be valid format'))
  }
  return errs
}

/** validateGlusterfsVolumeSource (a Pod's has no endpointsNamespace). */
const validateGlusterfs: Check = (s, p) => [...req(s, 'endpoints', p), ...req(s, 'path', p)]

/** validateCinderVolumeSource. */
const validateCinder: Check = (s, p) => [...req(s, 'volumeID', p), ...secretRefName(s, p)]

/** validateAzureFile (a Pod's has no secretNamespace). */
const validateAzureFile: Check = (s, p) => [...req(s, 'secretName', p), ...req(s, 'shareName', p)]

/** validateStorageOSVolumeSource. */
const validateStorageOS: Check = (s, p) => {
  const name = str(s.volumeName)
  const errs =
    name.length === 0 ? [field.required(p.child('volumeName'), '')] : validateDNS1123Label(name, p.child('volumeName'))
  const ns = str(s.volumeNamespace)
  if (ns.length > 0) errs.push(...validateDNS1123Label(ns, p.child('volumeNamespace')))
  errs.push(...secretRefName(s, p))
  return errs
}

const pv =
  (f: (s: JSONObject, p: FieldPath, pvName: string) => FieldError[]): Check =>
  (s, p) =>
    f(s, p, '')

/** The validators by the source's JSON name. */
export const POD_VOLUME_SOURCES: ReadonlyMap<string, Check> = new Map([
  ['iscsi', validateISCSI],
  ['glusterfs', validateGlusterfs],
  ['flocker', pv(validateFlocker)],
  ['rbd', pv(validateRBD)],
  ['cinder', validateCinder],
  ['cephfs', pv(validateCephFS)],
  ['quobyte', pv(validateQuobyte)],
  ['fc', pv(validateFC)],
  ['flexVolume', pv(validateFlex)],
  ['azureFile', validateAzureFile],
  ['vsphereVolume', pv(validateVsphere)],
  ['photonPersistentDisk', pv(validatePhoton)],
  ['portworxVolume', pv(validatePortworx)],
  ['azureDisk', pv(validateAzureDisk)],
  ['storageos', validateStorageOS],
  ['scaleIO', pv(validateScaleIO)],
])

const ISCSI_NAME_TOO_LONG =
  'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'

/** validateVolumeSource's iSCSI name rule, checked whether or not iscsi is the volume's first source. */
export function validateISCSIVolumeName(vol: JSONObject, volName: string, p: FieldPath): FieldError[] {
  const s = obj(vol.iscsi)
  if (s === undefined || optStr(s.initiatorName) === undefined) return []
  return utf8Len(`${volName}:${str(s.targetPortal)}`) > 64
    ? [field.invalid(p.child('name'), volName, ISCSI_NAME_TOO_LONG)]
    : []
}
