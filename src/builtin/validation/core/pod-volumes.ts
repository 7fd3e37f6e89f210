import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Subdomain, isQualifiedName } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateAnnotations, validateLabels } from '../../../kube/validation/objectmeta.js'
import { parseQuantity, Quantity } from '../../../kube/values/quantity.js'
import { arr, isObj, type JSONObject, obj, optNum, str, strMap, validateDNS1123Label } from '../common.js'
import {
  validateClusterTrustBundleProjection,
  validatePodCertificateProjection,
  validateUserField,
} from './pod-projections.js'
import { validateLocalDescendingPath, validatePathNoBacksteps } from './pod-security.js'
import { POD_VOLUME_SOURCES, validateISCSIVolumeName } from './pod-volume-sources.js'
import { validatePVCSpec } from './pvc.js'

// The volumes of a PodSpec (kubernetes v1.37.2 pkg/apis/core/validation/validation.go: ValidateVolumes,
// validateVolumeSource and the source validators of the common kinds: emptyDir, hostPath, gitRepo,
// gcePersistentDisk, awsElasticBlockStore, secret, nfs, persistentVolumeClaim, downwardAPI (with
// validateDownwardAPIVolumeFile, validateObjectFieldSelector, validateContainerResourceFieldSelector),
// configMap, projected (secret, configMap, downwardAPI, serviceAccountToken sources; clusterTrustBundle and
// podCertificate in pod-projections.ts), csi, ephemeral
// (ValidatePersistentVolumeClaimTemplate) and image; the rarer in-tree sources (iscsi, glusterfs,
// rbd, cinder, cephfs, fc, flexVolume, azure*, vsphere, photon, portworx, scaleIO, storageos,
// quobyte, flocker) in pod-volume-sources.ts. Field paths are Go's, quirks included: a second source is Forbidden at `cephFS` /
// `downwarAPI`, a gcePersistentDisk's fields are reported under `persistentDisk`.

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive'
const EMPTY_DIR_MODE = 'must be a number between 0 and 01777 (octal), both inclusive'

type Check = (s: JSONObject, p: FieldPath, ctx: VolumeContext) => FieldError[]

interface VolumeContext {
  readonly minor: number
  readonly volName: string
  /** The pod's name (Pods only; templates have none). */
  readonly podName: string | undefined
}

function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined
  const q = parseQuantity(String(v))
  return q instanceof Quantity ? q : undefined
}
const ZERO = quantity('0') as Quantity

/** A file mode field: 0 … max. */
function validateMode(v: unknown, p: FieldPath, max: number, msg: string): FieldError[] {
  const n = optNum(v)
  return n !== undefined && (n > max || n < 0) ? [field.invalid(p, n, msg)] : []
}

/** validateUserField. */

/** ValidateLocalNonReservedPath. */
export function validateLocalNonReservedPath(target: string, p: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(target, p)
  if (target.startsWith('..') && !target.startsWith('../'))
    errs.push(field.invalid(p, target, "must not start with '..'"))
  return errs
}

/** validateKeyToPath. */
function validateKeyToPath(kp: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (str(kp.key).length === 0) errs.push(field.required(p.child('key'), ''))
  const path = str(kp.path)
  if (path.length === 0) errs.push(field.required(p.child('path'), ''))
  errs.push(...validateLocalNonReservedPath(path, p.child('path')))
  errs.push(...validateMode(kp.mode, p.child('mode'), 0o777, FILE_MODE))
  errs.push(...validateUserField(kp.user, p.child('user')))
  return errs
}

const items = (s: JSONObject, p: FieldPath): FieldError[] =>
  arr(s.items).flatMap((kp, i) => validateKeyToPath(obj(kp) ?? {}, p.child('items').index(i)))

const DOWNWARD_FIELDS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
]
const POD_FIELD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
])

/** fieldpath.SplitMaybeSubscriptedPath. */
function splitSubscripted(fp: string): [string, string] | undefined {
  if (!fp.endsWith("']")) return undefined
  const s = fp.slice(0, -2)
  const at = s.indexOf("['")
  if (at <= 0) return undefined
  return [s.slice(0, at), s.slice(at + 2)]
}

/** validateObjectFieldSelector (ConvertDownwardAPIFieldLabel first). */
export function validateObjectFieldSelector(fs: JSONObject, expressions: readonly string[], p: FieldPath) {
  const apiVersion = str(fs.apiVersion)
  if (apiVersion.length === 0) return [field.required(p.child('apiVersion'), '')]
  let fp = str(fs.fieldPath)
  if (fp.length === 0) return [field.required(p.child('fieldPath'), '')]
  const convErr = (m: string) => [field.invalid(p.child('fieldPath'), fp, `error converting fieldPath: ${m}`)]
  if (apiVersion !== 'v1') return convErr(`unsupported pod version: ${apiVersion}`)
  const sub = splitSubscripted(fp)
  if (sub !== undefined) {
    const [path, subscript] = sub
    if (path !== 'metadata.annotations' && path !== 'metadata.labels')
      return convErr(`field label does not support subscript: ${fp}`)
    const key = path === 'metadata.annotations' ? subscript.toLowerCase() : subscript
    return isQualifiedName(key).map((m) => field.invalid(p, key, m))
  }
  if (fp === 'spec.host') fp = 'spec.nodeName'
  else if (!POD_FIELD_LABELS.has(fp)) return convErr(`field label not supported: ${fp}`)
  if (!expressions.includes(fp))
    return [field.notSupported(p.child('fieldPath'), fp, [...expressions].sort(compareStrings))]
  return []
}

const RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
]
const DIVISORS_CPU = ['1m', '1']
const DIVISORS_BYTES = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']

/** validateContainerResourceDivisor. */
function validateDivisor(rName: string, divisor: unknown, p: FieldPath): FieldError[] {
  const q = quantity(divisor)
  if (q === undefined || q.cmp(ZERO) === 0) return []
  const d = q.toString()
  const errs: FieldError[] = []
  const bytesMsg = (what: string) =>
    `only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the ${what}`
  if ((rName === 'limits.cpu' || rName === 'requests.cpu') && !DIVISORS_CPU.includes(d))
    errs.push(
      field.invalid(p.child('divisor'), rName, "only divisor's values 1m and 1 are supported with the cpu resource"),
    )
  if ((rName === 'limits.memory' || rName === 'requests.memory') && !DIVISORS_BYTES.includes(d))
    errs.push(field.invalid(p.child('divisor'), rName, bytesMsg('memory resource')))
  if ((rName === 'limits.ephemeral-storage' || rName === 'requests.ephemeral-storage') && !DIVISORS_BYTES.includes(d))
    errs.push(field.invalid(p.child('divisor'), rName, bytesMsg('local ephemeral storage resource')))
  if ((rName.startsWith('requests.hugepages-') || rName.startsWith('limits.hugepages-')) && !DIVISORS_BYTES.includes(d))
    errs.push(field.invalid(p.child('divisor'), rName, bytesMsg('hugepages resource')))
  return errs
}

/** validateContainerResourceFieldSelector (volume: containerName required; hugepages prefixes allowed). */
export function validateContainerResourceFieldSelector(fs: JSONObject, p: FieldPath, volume: boolean): FieldError[] {
  const errs: FieldError[] = []
  const resource = str(fs.resource)
  if (volume && str(fs.containerName).length === 0) errs.push(field.required(p.child('containerName'), ''))
  else if (resource.length === 0) errs.push(field.required(p.child('resource'), ''))
  else if (
    !RESOURCE_FIELDS.includes(resource) &&
    !resource.startsWith('limits.hugepages-') &&
    !resource.startsWith('requests.hugepages-')
  )
    errs.push(field.notSupported(p.child('resource'), resource, RESOURCE_FIELDS))
  errs.push(...validateDivisor(resource, fs.divisor, p))
  return errs
}

/** validateDownwardAPIVolumeFile. */
function validateDownwardAPIFile(f: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const path = str(f.path)
  if (path.length === 0) errs.push(field.required(p.child('path'), ''))
  errs.push(...validateLocalNonReservedPath(path, p.child('path')))
  if (isObj(f.fieldRef)) {
    errs.push(...validateObjectFieldSelector(f.fieldRef, DOWNWARD_FIELDS, p.child('fieldRef')))
    if (isObj(f.resourceFieldRef))
      errs.push(field.invalid(p, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'))
  } else if (isObj(f.resourceFieldRef))
    errs.push(...validateContainerResourceFieldSelector(f.resourceFieldRef, p.child('resourceFieldRef'), true))
  else errs.push(field.required(p, 'one of fieldRef and resourceFieldRef is required'))
  errs.push(...validateMode(f.mode, p.child('mode'), 0o777, FILE_MODE))
  errs.push(...validateUserField(f.user, p.child('user')))
  return errs
}

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

const validateEmptyDir: Check = (s, p) => {
  const errs: FieldError[] = []
  const q = quantity(s.sizeLimit)
  if (q !== undefined && q.cmp(ZERO) < 0)
    errs.push(field.forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'))
  errs.push(...validateMode(s.mode, p.child('mode'), 0o1777, EMPTY_DIR_MODE))
  return errs
}

const validateHostPath: Check = (s, p) => {
  const path = str(s.path)
  if (path.length === 0) return [field.required(p.child('path'), '')]
  const errs = validatePathNoBacksteps(path, p.child('path'))
  if (typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type))
    errs.push(field.notSupported(p.child('type'), s.type, HOST_PATH_TYPES))
  return errs
}

const validateGitRepo: Check = (s, p) => {
  const errs: FieldError[] = []
  if (str(s.repository).length === 0) errs.push(field.required(p.child('repository'), ''))
  errs.push(...validateLocalDescendingPath(str(s.directory), p.child('directory')))
  return errs
}

const partition = (s: JSONObject, p: FieldPath): FieldError[] => {
  const n = optNum(s.partition) ?? 0
  return n < 0 || n > 255 ? [field.invalid(p.child('partition'), n, 'must be between 1 and 255, inclusive')] : []
}

const validateGCEPD: Check = (s, p) => [
  ...(str(s.pdName).length === 0 ? [field.required(p.child('pdName'), '')] : []),
  ...partition(s, p),
]

const validateAWSEBS: Check = (s, p) => [
  ...(str(s.volumeID).length === 0 ? [field.required(p.child('volumeID'), '')] : []),
  ...partition(s, p),
]

const validateSecret: Check = (s, p) => [
  ...(str(s.secretName).length === 0 ? [field.required(p.child('secretName'), '')] : []),
  ...validateMode(s.defaultMode, p.child('defaultMode'), 0o777, FILE_MODE),
  ...validateUserField(s.defaultUser, p.child('defaultUser')),
  ...items(s, p),
]

const validateConfigMap: Check = (s, p) => [
  ...(str(s.name).length === 0 ? [field.required(p.child('name'), '')] : []),
  ...validateMode(s.defaultMode, p.child('defaultMode'), 0o777, FILE_MODE),
  ...validateUserField(s.defaultUser, p.child('defaultUser')),
  ...items(s, p),
]

const validateNFS: Check = (s, p) => {
  const errs: FieldError[] = []
  if (str(s.server).length === 0) errs.push(field.required(p.child('server'), ''))
  const path = str(s.path)
  if (path.length === 0) errs.push(field.required(p.child('path'), ''))
  if (!path.startsWith('/')) errs.push(field.invalid(p.child('path'), path, 'must be an absolute path'))
  return errs
}

const validatePVC: Check = (s, p) => (str(s.claimName).length === 0 ? [field.required(p.child('claimName'), '')] : [])

const validateDownwardAPI: Check = (s, p) => [
  ...validateMode(s.defaultMode, p.child('defaultMode'), 0o777, FILE_MODE),
  ...validateUserField(s.defaultUser, p.child('defaultUser')),
  ...arr(s.items).flatMap((f) => validateDownwardAPIFile(obj(f) ?? {}, p)),
]

/** validateProjectedVolumeSource / validateProjectionSources (AllowNonLocalProjectedTokenPath off on create). */
const validateProjected: Check = (s, p, { minor }) => {
  const errs: FieldError[] = []
  errs.push(...validateMode(s.defaultMode, p.child('defaultMode'), 0o777, FILE_MODE))
  errs.push(...validateUserField(s.defaultUser, p.child('defaultUser')))
  const paths = new Set<string>()
  const claim = (path: string, bad: unknown) => {
    if (paths.has(path)) errs.push(field.invalid(p, bad, 'conflicting duplicate paths'))
    else paths.add(path)
  }
  arr(s.sources).forEach((x, i) => {
    const src = obj(x) ?? {}
    const sp = p.child('sources').index(i)
    let n = 0
    for (const k of ['secret', 'configMap'] as const) {
      const r = obj(src[k])
      if (r === undefined) continue
      n++
      const rp = sp.child(k)
      if (str(r.name).length === 0) errs.push(field.required(rp.child('name'), ''))
      arr(r.items).forEach((kp, j) => {
        const item = obj(kp) ?? {}
        errs.push(...validateKeyToPath(item, rp.child('items').index(j)))
        if (str(item.path).length > 0) claim(str(item.path), str(r.name))
      })
    }
    const dapi = obj(src.downwardAPI)
    if (dapi !== undefined) {
      n++
      for (const f of arr(dapi.items)) {
        const file = obj(f) ?? {}
        errs.push(...validateDownwardAPIFile(file, sp.child('downwardAPI')))
        if (str(file.path).length > 0) claim(str(file.path), str(file.path))
      }
    }
    const sat = obj(src.serviceAccountToken)
    if (sat !== undefined) {
      n++
      const tp = sp.child('serviceAccountToken')
      const exp = optNum(sat.expirationSeconds)
      if (exp === undefined) errs.push(field.required(tp.child('expirationSeconds'), ''))
      else {
        if (exp < 600)
          errs.push(
            field.invalid(tp.child('expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'),
          )
        if (exp > 2 ** 32)
          errs.push(
            field.invalid(tp.child('expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'),
          )
      }
      // Go reports the token's path at the projected volume's `path`, not the source's
      const path = str(sat.path)
      if (path === '') errs.push(field.required(p.child('path'), ''))
      else errs.push(...validateLocalNonReservedPath(path, p.child('path')))
      errs.push(...validateUserField(sat.user, tp.child('user')))
    }
    const ctb = obj(src.clusterTrustBundle)
    if (ctb !== undefined) {
      n++
      errs.push(...validateClusterTrustBundleProjection(ctb, sp.child('clusterTrustBundle'), minor))
      claim(str(ctb.path), str(ctb.path))
    }
    const cert = obj(src.podCertificate)
    if (cert !== undefined) {
      n++
      const cp = sp.child('podCertificate')
      errs.push(...validatePodCertificateProjection(cert, cp, minor))
      let paths = 0
      for (const k of ['credentialBundlePath', 'keyPath', 'certificateChainPath']) {
        const path = str(cert[k])
        if (path.length === 0) continue
        paths++
        errs.push(...validateLocalNonReservedPath(path, cp.child(k)))
        claim(path, path)
      }
      if (paths === 0)
        errs.push(field.required(cp, 'specify at least one of credentialBundlePath, keyPath, and certificateChainPath'))
    }
    if (n > 1) errs.push(field.forbidden(sp, 'may not specify more than 1 volume type per source'))
  })
  return errs
}

/** ValidateCSIDriverName. */
export function validateCSIDriverName(driver: string, p: FieldPath): FieldError[] {
  if (driver.length === 0) return [field.required(p, '')]
  const errs: FieldError[] = []
  if (driver.length > 63) errs.push(field.tooLong(p, 63))
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(field.invalid(p, driver, m))
  return errs
}

const validateCSI: Check = (s, p) => {
  const errs = validateCSIDriverName(str(s.driver), p.child('driver'))
  const ref = obj(s.nodePublishSecretRef)
  if (ref !== undefined) {
    const name = str(ref.name)
    if (name.length === 0) errs.push(field.required(p.child('nodePublishSecretRef', 'name'), ''))
    else for (const m of nameIsDNSSubdomain(name, false)) errs.push(field.invalid(p.child('name'), name, m))
  }
  return errs
}

// ObjectMeta's fields other than labels and annotations, in declaration order, with the path
// validateFieldAllowList gives each (the Go name with its first letter lowered: UID becomes uID).
const TEMPLATE_META_FIELDS: readonly (readonly [string, string])[] = [
  ['name', 'name'],
  ['generateName', 'generateName'],
  ['namespace', 'namespace'],
  ['selfLink', 'selfLink'],
  ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'],
  ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'],
  ['finalizers', 'finalizers'],
  ['managedFields', 'managedFields'],
]

/**
 * ValidateTemplateObjectMeta (pkg/apis/core/validation/validation.go): a template's labels and annotations, and
 * validateFieldAllowList forbidding every other ObjectMeta field that is set (reflect's IsZero: an empty list
 * given is set). Also resource.k8s.io's claim templates.
 */
export function validateTemplateObjectMeta(meta: JSONObject, mp: FieldPath, minor: number): FieldError[] {
  const errs = validateAnnotations(strMap(meta.annotations), mp.child('annotations'), minor)
  errs.push(...validateLabels(strMap(meta.labels), mp.child('labels'), minor))
  for (const [k, pathName] of TEMPLATE_META_FIELDS) {
    const v = meta[k]
    const zero = v === undefined || v === null || v === '' || v === 0
    if (!zero) errs.push(field.forbidden(mp.child(pathName), 'cannot be set'))
  }
  return errs
}

/** validateEphemeralVolumeSource with ValidatePersistentVolumeClaimTemplate and the PVC name check. */
const validateEphemeral: Check = (s, p, ctx) => {
  const t = obj(s.volumeClaimTemplate)
  if (t === undefined) return [field.required(p.child('volumeClaimTemplate'), '')]
  const tp = p.child('volumeClaimTemplate')
  const errs = validateTemplateObjectMeta(obj(t.metadata) ?? {}, tp.child('metadata'), ctx.minor)
  errs.push(
    ...validatePVCSpec(obj(t.spec) ?? {}, tp.child('spec'), {
      recoverFromExpansionFailure: false,
      allowInvalidLabelValueInSelector: false,
      allowInvalidAPIGroup: false,
      volumeAttributesClass: ctx.minor >= 34,
      minor: ctx.minor,
    }),
  )
  return errs
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never']

const validateImage: Check = (s, p) => {
  const errs: FieldError[] = []
  if (str(s.reference).length === 0) errs.push(field.required(p.child('reference'), ''))
  const pp = str(s.pullPolicy)
  if (pp === '') errs.push(field.required(p.child('pullPolicy'), ''))
  else if (!PULL_POLICIES.includes(pp)) errs.push(field.notSupported(p.child('pullPolicy'), pp, PULL_POLICIES))
  return errs
}

// [json name, path of the "more than 1" error, path of the source's own errors, its validator]
/** A source validator of pod-volume-sources.ts. */
const legacy = (json: string): Check => {
  const check = POD_VOLUME_SOURCES.get(json)
  if (check === undefined) throw new Error(`no validator for volume source ${json}`)
  return (s, p) => check(s, p)
}

const SOURCES: readonly (readonly [string, string, string, Check])[] = [
  ['emptyDir', 'emptyDir', 'emptyDir', validateEmptyDir],
  ['hostPath', 'hostPath', 'hostPath', validateHostPath],
  ['gitRepo', 'gitRepo', 'gitRepo', validateGitRepo],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', validateGCEPD],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', validateAWSEBS],
  ['secret', 'secret', 'secret', validateSecret],
  ['nfs', 'nfs', 'nfs', validateNFS],
  ['iscsi', 'iscsi', 'iscsi', legacy('iscsi')],
  ['glusterfs', 'glusterfs', 'glusterfs', legacy('glusterfs')],
  ['flocker', 'flocker', 'flocker', legacy('flocker')],
  ['persistentVolumeClaim', 'persistentVolumeClaim', 'persistentVolumeClaim', validatePVC],
  ['rbd', 'rbd', 'rbd', legacy('rbd')],
  ['cinder', 'cinder', 'cinder', legacy('cinder')],
  ['cephfs', 'cephFS', 'cephfs', legacy('cephfs')],
  ['quobyte', 'quobyte', 'quobyte', legacy('quobyte')],
  ['downwardAPI', 'downwarAPI', 'downwardAPI', validateDownwardAPI],
  ['fc', 'fc', 'fc', legacy('fc')],
  ['flexVolume', 'flexVolume', 'flexVolume', legacy('flexVolume')],
  ['configMap', 'configMap', 'configMap', validateConfigMap],
  ['azureFile', 'azureFile', 'azureFile', legacy('azureFile')],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', legacy('vsphereVolume')],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', legacy('photonPersistentDisk')],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', legacy('portworxVolume')],
  ['azureDisk', 'azureDisk', 'azureDisk', legacy('azureDisk')],
  ['storageos', 'storageos', 'storageos', legacy('storageos')],
  ['projected', 'projected', 'projected', validateProjected],
  ['scaleIO', 'scaleIO', 'scaleIO', legacy('scaleIO')],
  ['csi', 'csi', 'csi', validateCSI],
  ['ephemeral', 'ephemeral', 'ephemeral', validateEphemeral],
  ['image', 'image', 'image', validateImage],
]

/** validateVolumeSource. */
function validateVolumeSource(vol: JSONObject, p: FieldPath, ctx: VolumeContext): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  for (const [json, morePath, ownPath, check] of SOURCES) {
    const s = obj(vol[json])
    if (s === undefined) continue
    if (n > 0) errs.push(field.forbidden(p.child(morePath), 'may not specify more than 1 volume type'))
    else {
      n++
      errs.push(...check(s, p.child(ownPath), ctx))
      if (json === 'ephemeral' && ctx.podName !== undefined && ctx.podName !== '' && ctx.volName !== '') {
        const pvcName = `${ctx.podName}-${ctx.volName}`
        for (const m of nameIsDNSSubdomain(pvcName, false))
          errs.push(field.invalid(p.child('name'), ctx.volName, `PVC name "${pvcName}": ${m}`))
      }
    }
    // Go checks the iSCSI name whether or not iscsi is the first source
    if (json === 'iscsi') errs.push(...validateISCSIVolumeName(vol, ctx.volName, p))
  }
  if (n === 0) errs.push(field.required(p, 'must specify a volume type'))
  return errs
}

/** ValidateVolumes: the valid volumes by name, and the errors. `podName` only for Pods. */
export function validateVolumes(
  volumes: unknown,
  p: FieldPath,
  minor: number,
  podName?: string,
): [Map<string, JSONObject>, FieldError[]] {
  const errs: FieldError[] = []
  const vols = new Map<string, JSONObject>()
  const list = arr(volumes).map((v) => obj(v) ?? {})
  const created = new Set<string>()
  if (podName !== undefined && podName !== '')
    for (const v of list) if (isObj(v.ephemeral)) created.add(`${podName}-${str(v.name)}`)
  list.forEach((vol, i) => {
    const ip = p.index(i)
    const np = ip.child('name')
    const name = str(vol.name)
    const el = validateVolumeSource(vol, ip, { minor, volName: name, podName })
    if (name.length === 0) el.push(field.required(np, ''))
    else el.push(...validateDNS1123Label(name, np))
    // Go's allNames holds the names of the valid volumes only
    if (vols.has(name)) el.push(field.duplicate(np, name))
    if (el.length === 0) vols.set(name, vol)
    else errs.push(...el)
    const pvc = obj(vol.persistentVolumeClaim)
    if (pvc !== undefined && created.has(str(pvc.claimName)))
      errs.push(
        field.invalid(
          ip.child('persistentVolumeClaim', 'claimName'),
          str(pvc.claimName),
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      )
  })
  return [vols, errs]
}
