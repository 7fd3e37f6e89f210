import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import {
  arr,
  isObj,
  type JSONObject,
  keys,
  nameIsDNSLabel,
  obj,
  optNum,
  optStr,
  str,
  strs,
  validateDNS1123Label,
  validateDNS1123Subdomain,
} from '../common.js'
import { validateCSIDriverName } from './pod-volumes.js'

// The volume sources of a PersistentVolume: kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// (validateHostPathVolumeSource, validateGCEPersistentDiskVolumeSource, …, validateCSIPersistentVolumeSource),
// in the order ValidatePersistentVolumeSpec visits them, each with the path its errors carry (gcePersistentDisk
// reports at `persistentDisk`, cephfs's "more than 1" at `cephFS`: Go's own paths). The sources a Pod's volume
// shares with a PersistentVolume (rbd, cephfs, quobyte, fc, flexVolume, vsphere, photon, portworx, azureDisk,
// scaleIO, flocker: one Go function for both) are exported for pod-volume-sources.ts.

type Check = (s: JSONObject, p: FieldPath, pvName: string) => FieldError[]

const req = (s: JSONObject, k: string, p: FieldPath, detail = ''): FieldError[] =>
  str(s[k]).length === 0 ? [field.required(p.child(k), detail)] : []

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
]

/** validatePathNoBacksteps. */
export function validatePathNoBacksteps(path: string, p: FieldPath): FieldError[] {
  return path.split('/').includes('..') ? [field.invalid(p, path, "must not contain '..'")] : []
}

const validateHostPath: Check = (s, p) => {
  const path = str(s.path)
  if (path.length === 0) return [field.required(p.child('path'), '')]
  const errs = validatePathNoBacksteps(path, p.child('path'))
  if (typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type))
    errs.push(field.notSupported(p.child('type'), s.type, HOST_PATH_TYPES))
  return errs
}

const PARTITION = 'must be between 1 and 255, inclusive'
const partition = (s: JSONObject, p: FieldPath): FieldError[] => {
  const n = optNum(s.partition) ?? 0
  return n < 0 || n > 255 ? [field.invalid(p.child('partition'), n, PARTITION)] : []
}
export const INCLUSIVE_0_255 = 'must be between 0 and 255, inclusive'

const validateGCEPD: Check = (s, p) => [...req(s, 'pdName', p), ...partition(s, p)]
const validateAWSEBS: Check = (s, p) => [...req(s, 'volumeID', p), ...partition(s, p)]

const validateGlusterfs: Check = (s, p) => {
  const errs = [...req(s, 'endpoints', p), ...req(s, 'path', p)]
  const ns = optStr(s.endpointsNamespace)
  if (ns !== undefined) {
    if (ns === '')
      errs.push(
        field.invalid(
          p.child('endpointsNamespace'),
          ns,
          'if the endpointnamespace is set, it must be a valid namespace name',
        ),
      )
    else for (const m of nameIsDNSLabel(ns, false)) errs.push(field.invalid(p.child('endpointsNamespace'), ns, m))
  }
  return errs
}

export const validateFlocker: Check = (s, p) => {
  const errs: FieldError[] = []
  const name = str(s.datasetName)
  const uuid = str(s.datasetUUID)
  if (name.length === 0 && uuid.length === 0)
    errs.push(field.required(p, 'one of datasetName and datasetUUID is required'))
  if (name.length !== 0 && uuid.length !== 0)
    errs.push(field.invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'))
  if (name.includes('/')) errs.push(field.invalid(p.child('datasetName'), name, "must not contain '/'"))
  return errs
}

const validateNFS: Check = (s, p) => {
  const errs = req(s, 'server', p)
  const path = str(s.path)
  if (path.length === 0) errs.push(field.required(p.child('path'), ''))
  if (!path.startsWith('/')) errs.push(field.invalid(p.child('path'), path, 'must be an absolute path'))
  return errs
}

export const validateRBD: Check = (s, p) => [
  ...(arr(s.monitors).length === 0 ? [field.required(p.child('monitors'), '')] : []),
  ...req(s, 'image', p),
]

/** net.SplitHostPort succeeds. */
function splitsHostPort(hp: string): boolean {
  const last = hp.lastIndexOf(':')
  if (last < 0) return false
  if (hp.startsWith('[')) {
    const end = hp.indexOf(']')
    if (end < 0 || end + 1 !== last) return false
    return !hp.slice(1, end).includes('[') && !hp.slice(last + 1).includes(']')
  }
  const host = hp.slice(0, last)
  if (host.includes(':')) return false
  return !hp.includes('[') && !hp.includes(']')
}

export const validateQuobyte: Check = (s, p) => {
  const errs: FieldError[] = []
  const registry = str(s.registry)
  const msg = 'must be a host:port pair or multiple pairs separated by commas'
  if (registry.length === 0) errs.push(field.required(p.child('registry'), msg))
  else if (str(s.tenant).length >= 65)
    errs.push(field.required(p.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'))
  else
    for (const hp of registry.split(','))
      if (!splitsHostPort(hp)) errs.push(field.invalid(p.child('registry'), registry, msg))
  errs.push(...req(s, 'volume', p))
  return errs
}

export const validateCephFS: Check = (s, p) =>
  arr(s.monitors).length === 0 ? [field.required(p.child('monitors'), '')] : []

export const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/
export const EUI = /^eui.[A-Za-z0-9]{16}$/
export const NAA = /^naa.[A-Za-z0-9]{32}$/
export const hasISCSIPrefix = (v: string) => v.startsWith('iqn') || v.startsWith('eui') || v.startsWith('naa')
export const badISCSIFormat = (v: string) =>
  (v.startsWith('iqn') && !IQN.test(v)) ||
  (v.startsWith('eui') && !EUI.test(v)) ||
  (v.startsWith('naa') && !NAA.test(v))

const validateISCSI: Check = (s, p, pvName) => {
  const errs = req(s, 'targetPortal', p)
  const portal = str(s.targetPortal)
  const initiator = optStr(s.initiatorName)
  if (initiator !== undefined && `${pvName}:${portal}`.length > 64)
    errs.push(
      field.invalid(
        p.child('targetportal'),
        portal,
        'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
      ),
    )
  const iqn = str(s.iqn)
  if (iqn.length === 0) errs.push(field.required(p.child('iqn'), ''))
  else if (!hasISCSIPrefix(iqn) || badISCSIFormat(iqn))
    errs.push(field.invalid(p.child('iqn'), iqn, 'must be valid format'))
  const lun = optNum(s.lun) ?? 0
  if (lun < 0 || lun > 255) errs.push(field.invalid(p.child('lun'), lun, INCLUSIVE_0_255))
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !isObj(s.secretRef))
    errs.push(field.required(p.child('secretRef'), ''))
  const ref = obj(s.secretRef)
  if (ref !== undefined && str(ref.name).length === 0) errs.push(field.required(p.child('secretRef', 'name'), ''))
  if (initiator !== undefined) {
    const ip = p.child('initiatorname')
    if (!hasISCSIPrefix(initiator)) errs.push(field.invalid(ip, initiator, 'must be valid format'))
    if (badISCSIFormat(initiator)) errs.push(field.invalid(ip, initiator, 'must be valid format'))
  }
  return errs
}

/** A secretRef that needs both name and namespace (cinder, storageos). */
const secretRefNameNamespace = (s: JSONObject, p: FieldPath): FieldError[] => {
  const ref = obj(s.secretRef)
  if (ref === undefined) return []
  return [...req(ref, 'name', p.child('secretRef')), ...req(ref, 'namespace', p.child('secretRef'))]
}

const validateCinder: Check = (s, p) => [...req(s, 'volumeID', p), ...secretRefNameNamespace(s, p)]

export const validateFC: Check = (s, p) => {
  const errs: FieldError[] = []
  const wwns = strs(s.targetWWNs)
  const wwids = strs(s.wwids)
  if (wwns.length < 1 && wwids.length < 1)
    errs.push(field.required(p.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'))
  if (wwns.length !== 0 && wwids.length !== 0)
    errs.push(field.invalid(p.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'))
  if (wwns.length !== 0) {
    const lun = optNum(s.lun)
    if (lun === undefined) errs.push(field.required(p.child('lun'), 'lun is required if targetWWNs is specified'))
    else if (lun < 0 || lun > 255) errs.push(field.invalid(p.child('lun'), lun, INCLUSIVE_0_255))
  }
  return errs
}

export const validateFlex: Check = (s, p) => {
  const errs = req(s, 'driver', p)
  for (const k of keys(s.options)) {
    const slash = k.indexOf('/')
    const ns = slash >= 0 ? k.slice(0, slash) : k
    const normalized = `.${ns.toLowerCase()}`
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io'))
      errs.push(field.invalid(p.child('options').key(k), k, 'kubernetes.io and k8s.io namespaces are reserved'))
  }
  return errs
}

const validateAzureFile: Check = (s, p) => {
  const errs = [...req(s, 'secretName', p), ...req(s, 'shareName', p)]
  const ns = optStr(s.secretNamespace)
  if (ns !== undefined && ns.length === 0) errs.push(field.required(p.child('secretNamespace'), ''))
  return errs
}

export const validateVsphere: Check = (s, p) => req(s, 'volumePath', p)
export const validatePhoton: Check = (s, p) => req(s, 'pdID', p)
export const validatePortworx: Check = (s, p) => req(s, 'volumeID', p)

const CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite']
const DISK_KINDS = ['Dedicated', 'Managed', 'Shared']
export const validateAzureDisk: Check = (s, p) => {
  const errs = [...req(s, 'diskName', p), ...req(s, 'diskURI', p)]
  const uri = str(s.diskURI)
  const mode = optStr(s.cachingMode)
  if (mode !== undefined && !CACHING_MODES.includes(mode))
    errs.push(field.notSupported(p.child('cachingMode'), mode, CACHING_MODES))
  const kind = optStr(s.kind)
  if (kind !== undefined && !DISK_KINDS.includes(kind)) errs.push(field.notSupported(p.child('kind'), kind, DISK_KINDS))
  if (kind === 'Managed' && !uri.startsWith('/subscriptions/'))
    errs.push(
      field.notSupported(p.child('diskURI'), uri, [
        '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
      ]),
    )
  if (kind !== undefined && kind !== 'Managed' && !uri.startsWith('https://'))
    errs.push(
      field.notSupported(p.child('diskURI'), uri, [
        'https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd',
      ]),
    )
  return errs
}

export const validateScaleIO: Check = (s, p) => [
  ...req(s, 'gateway', p),
  ...req(s, 'system', p),
  ...req(s, 'volumeName', p),
]

const validateLocal: Check = (s, p) => {
  const path = str(s.path)
  if (path === '') return [field.required(p.child('path'), '')]
  return validatePathNoBacksteps(path, p.child('path'))
}

const validateStorageOS: Check = (s, p) => {
  const name = str(s.volumeName)
  const errs =
    name.length === 0 ? [field.required(p.child('volumeName'), '')] : validateDNS1123Label(name, p.child('volumeName'))
  const ns = str(s.volumeNamespace)
  if (ns.length > 0) errs.push(...validateDNS1123Label(ns, p.child('volumeNamespace')))
  errs.push(...secretRefNameNamespace(s, p))
  return errs
}

/** validatePVSecretReference. */
function validatePVSecretReference(ref: JSONObject, p: FieldPath): FieldError[] {
  const name = str(ref.name)
  const errs =
    name.length === 0 ? [field.required(p.child('name'), '')] : validateDNS1123Subdomain(name, p.child('name'))
  const ns = str(ref.namespace)
  if (ns.length === 0) errs.push(field.required(p.child('namespace'), ''))
  else errs.push(...validateDNS1123Label(ns, p.child('namespace')))
  return errs
}

const validateCSI: Check = (s, p) => {
  const errs = validateCSIDriverName(str(s.driver), p.child('driver'))
  errs.push(...req(s, 'volumeHandle', p))
  for (const k of [
    'controllerPublishSecretRef',
    'controllerExpandSecretRef',
    'nodePublishSecretRef',
    'nodeExpandSecretRef',
  ]) {
    const ref = obj(s[k])
    if (ref !== undefined) errs.push(...validatePVSecretReference(ref, p.child(k)))
  }
  return errs
}

/** [json name, path of the "more than 1" error, path of the source's own errors, its validator], in Go's order. */
export const PV_SOURCES: readonly (readonly [string, string, string, Check])[] = [
  ['hostPath', 'hostPath', 'hostPath', validateHostPath],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', validateGCEPD],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', validateAWSEBS],
  ['glusterfs', 'glusterfs', 'glusterfs', validateGlusterfs],
  ['flocker', 'flocker', 'flocker', validateFlocker],
  ['nfs', 'nfs', 'nfs', validateNFS],
  ['rbd', 'rbd', 'rbd', validateRBD],
  ['quobyte', 'quobyte', 'quobyte', validateQuobyte],
  ['cephfs', 'cephFS', 'cephfs', validateCephFS],
  ['iscsi', 'iscsi', 'iscsi', validateISCSI],
  ['cinder', 'cinder', 'cinder', validateCinder],
  ['fc', 'fc', 'fc', validateFC],
  // flexVolume: counted without the "more than 1" check (Go's own omission)
  ['flexVolume', '', 'flexVolume', validateFlex],
  ['azureFile', 'azureFile', 'azureFile', validateAzureFile],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', validateVsphere],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', validatePhoton],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', validatePortworx],
  ['azureDisk', 'azureDisk', 'azureDisk', validateAzureDisk],
  ['scaleIO', 'scaleIO', 'scaleIO', validateScaleIO],
  ['local', 'local', 'local', validateLocal],
  ['storageos', 'storageos', 'storageos', validateStorageOS],
  ['csi', 'csi', 'csi', validateCSI],
]

/** The sources whose mount options annotation is allowed (pkg/volume/validation checkMountOption). */
export const MOUNT_OPTION_SOURCES = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'nfs',
  'rbd',
  'quobyte',
  'iscsi',
  'cinder',
  'cephfs',
  'azureFile',
  'vsphereVolume',
  'azureDisk',
  'photonPersistentDisk',
]
