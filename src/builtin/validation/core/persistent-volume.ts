import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, isObj, type JSONObject, keys, obj, optStr, str, strs, validateImmutableField } from '../common.js'
import { type GoValue, goDiff } from '../go-diff.js'
import { MOUNT_OPTION_SOURCES, PV_SOURCES } from './persistent-volume-sources.js'
import { validateNodeSelector } from './pod-affinity.js'
import { quantity, validatePositiveQuantityValue, ZERO } from './resources.js'

// core/v1 PersistentVolume: kubernetes v1.37.2 pkg/apis/core/validation/validation.go ValidatePersistentVolume
// (ObjectMeta with ValidatePersistentVolumeName, NameIsDNSSubdomain, cluster-scoped; ValidatePersistentVolumeSpec:
// access modes, capacity, reclaim policy, node affinity, exactly one volume source
// (persistent-volume-sources.ts), storageClassName, volumeMode, volumeAttributesClassName) and
// pkg/volume/validation's checkMountOption, as the strategy runs them; on update the same, then
// ValidatePersistentVolumeUpdate (which runs ValidatePersistentVolume again: its errors appear twice, as in
// Go), the source immutable with its diff, volumeMode immutable (at the path `volumeMode`, Go's own), the
// node affinity immutable while MutablePVNodeAffinity is off, volumeAttributesClassName not unset. The
// kind's declarative rules cover ObjectMeta only (alpha), not enforced.

const META = FieldPath.of('metadata')
const SPEC = FieldPath.of('spec')
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain']
const VOLUME_MODES = ['Block', 'Filesystem']
const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options'

interface Opts {
  /** EnableVolumeAttributesClass (the gate, on from 1.34; or the old PV sets the field). */
  readonly volumeAttributesClass: boolean
  /** AllowInvalidLabelValueInRequiredNodeAffinity (the old PV's required terms have one). */
  readonly allowInvalidLabelValue: boolean
}

/** path.Clean(p) == "/": an absolute path whose `..` steps climb back to the root. */
function cleansToRoot(p: string): boolean {
  if (!p.startsWith('/')) return false
  let depth = 0
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue
    if (s === '..') depth = Math.max(0, depth - 1)
    else depth++
  }
  return depth === 0
}

/** ValidatePersistentVolumeSpec (validateInlinePersistentVolumeSpec false: a PersistentVolume object's). */
function validatePersistentVolumeSpec(spec: JSONObject, pvName: string, o: Opts, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const modes = strs(spec.accessModes)
  if (modes.length === 0) errs.push(field.required(SPEC.child('accessModes'), ''))
  let rwop = false
  let other = false
  for (const m of modes) {
    if (!ACCESS_MODES.includes(m)) errs.push(field.notSupported(SPEC.child('accessModes'), m, ACCESS_MODES))
    if (m === 'ReadWriteOncePod') rwop = true
    else if (ACCESS_MODES.includes(m)) other = true
  }
  if (rwop && other)
    errs.push(field.forbidden(SPEC.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'))
  const capacity = obj(spec.capacity) ?? {}
  const capNames = keys(capacity)
  const cp = SPEC.child('capacity')
  if (capNames.length === 0) errs.push(field.required(cp, ''))
  if (!Object.hasOwn(capacity, 'storage') || capNames.length > 1)
    errs.push(field.notSupported(cp, isObj(spec.capacity) ? capacityValue(capacity) : null, ['storage']))
  for (const r of capNames) {
    const q = quantity(capacity[r])
    if (q === undefined) continue
    // validateBasicResource: Value() < 0 (rounded up to an integer)
    if (q.cmp(ZERO) < 0 && (q.asInt64() ?? -1n) < 0n)
      errs.push(field.invalid(cp.key(r), Number(q.asInt64() ?? 0n), 'must be a valid resource quantity'))
    errs.push(...validatePositiveQuantityValue(q, cp.key(r)))
  }
  const reclaim = str(spec.persistentVolumeReclaimPolicy)
  if (reclaim.length > 0 && !RECLAIM_POLICIES.includes(reclaim))
    errs.push(field.notSupported(SPEC.child('persistentVolumeReclaimPolicy'), reclaim, RECLAIM_POLICIES))
  let nodeAffinitySpecified = false
  const na = obj(spec.nodeAffinity)
  if (na !== undefined) {
    nodeAffinitySpecified = true
    const np = SPEC.child('nodeAffinity')
    const required = obj(na.required)
    if (required !== undefined)
      errs.push(...validateNodeSelector(required, o.allowInvalidLabelValue, np.child('required'), minor))
    else errs.push(field.required(np.child('required'), 'must specify required node constraints'))
  }
  let n = 0
  for (const [json, morePath, ownPath, check] of PV_SOURCES) {
    const s = obj(spec[json])
    if (s === undefined) continue
    if (n > 0 && morePath !== '') {
      errs.push(field.forbidden(SPEC.child(morePath), 'may not specify more than 1 volume type'))
      continue
    }
    n++
    errs.push(...check(s, SPEC.child(ownPath), pvName))
    if (json === 'local' && !nodeAffinitySpecified)
      errs.push(field.required(SPEC.child('nodeAffinity'), 'Local volume requires node affinity'))
  }
  if (n === 0) errs.push(field.required(SPEC, 'must specify a volume type'))
  const hostPath = obj(spec.hostPath)
  if (hostPath !== undefined && cleansToRoot(str(hostPath.path)) && reclaim === 'Recycle')
    errs.push(
      field.forbidden(SPEC.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"),
    )
  const sc = str(spec.storageClassName)
  if (sc.length > 0)
    for (const m of nameIsDNSSubdomain(sc, false)) errs.push(field.invalid(SPEC.child('storageClassName'), sc, m))
  const vm = optStr(spec.volumeMode)
  if (vm !== undefined && !VOLUME_MODES.includes(vm))
    errs.push(field.notSupported(SPEC.child('volumeMode'), vm, VOLUME_MODES))
  const vac = optStr(spec.volumeAttributesClassName)
  if (vac !== undefined && o.volumeAttributesClass) {
    const vp = SPEC.child('volumeAttributesClassName')
    if (vac.length === 0) errs.push(field.required(vp, 'an empty string is disallowed'))
    else for (const m of nameIsDNSSubdomain(vac, false)) errs.push(field.invalid(vp, vac, m))
    if (!isObj(spec.csi))
      errs.push(field.required(SPEC.child('csi'), 'has to be specified when using volumeAttributesClassName'))
  }
  return errs
}

/** The capacity (a ResourceList) as the error prints it: the quantities' canonical texts. */
function capacityValue(capacity: JSONObject): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const k of keys(capacity)) out[k] = quantity(capacity[k])?.toString() ?? str(capacity[k])
  return out
}

/** checkMountOption (pkg/volume/validation/pv_validation.go). */
function checkMountOption(pv: JSONObject): FieldError[] {
  const spec = obj(pv.spec) ?? {}
  if (MOUNT_OPTION_SOURCES.some((k) => isObj(spec[k]))) return []
  const annotations = obj(obj(pv.metadata)?.annotations)
  if (annotations === undefined || !Object.hasOwn(annotations, MOUNT_OPTIONS_ANNOTATION)) return []
  return [
    field.forbidden(
      META.child('annotations', MOUNT_OPTIONS_ANNOTATION),
      'may not specify mount options for this volume type',
    ),
  ]
}

/** HasInvalidLabelValueInNodeSelectorTerms of the old PV's required terms. */
function hasInvalidLabelValue(old: JSONObject | undefined, minor: number): boolean {
  const required = obj(obj(obj(old?.spec)?.nodeAffinity)?.required)
  if (required === undefined) return false
  return validateNodeSelector(required, false, SPEC, minor).some((e) => e.type === 'FieldValueInvalid')
}

/** ValidationOptionsForPersistentVolume. */
function options(old: JSONObject | undefined, minor: number): Opts {
  return {
    volumeAttributesClass: minor >= 34 || optStr(obj(old?.spec)?.volumeAttributesClassName) !== undefined,
    allowInvalidLabelValue: hasInvalidLabelValue(old, minor),
  }
}

/** ValidatePersistentVolume, then checkMountOption (what the strategy's Validate runs). */
function validate(pv: JSONObject, o: Opts, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(pv, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, path: META })
  errs.push(...validatePersistentVolumeSpec(obj(pv.spec) ?? {}, str(obj(pv.metadata)?.name), o, minor))
  return errs
}

/** The strategy's Validate. */
export function validatePersistentVolume(pv: JSONObject, minor: number): FieldError[] {
  return [...validate(pv, options(undefined, minor), minor), ...checkMountOption(pv)]
}

// The internal PersistentVolumeSource's fields (pkg/apis/core/types.go), in declaration order: the json name and
// the Go name. The diff of an immutable source prints the struct as encoding/json marshals it.
const GO_SOURCES: readonly (readonly [string, string])[] = [
  ['gcePersistentDisk', 'GCEPersistentDisk'],
  ['awsElasticBlockStore', 'AWSElasticBlockStore'],
  ['hostPath', 'HostPath'],
  ['glusterfs', 'Glusterfs'],
  ['nfs', 'NFS'],
  ['rbd', 'RBD'],
  ['iscsi', 'ISCSI'],
  ['cinder', 'Cinder'],
  ['cephfs', 'CephFS'],
  ['fc', 'FC'],
  ['flocker', 'Flocker'],
  ['flexVolume', 'FlexVolume'],
  ['azureFile', 'AzureFile'],
  ['vsphereVolume', 'VsphereVolume'],
  ['quobyte', 'Quobyte'],
  ['azureDisk', 'AzureDisk'],
  ['photonPersistentDisk', 'PhotonPersistentDisk'],
  ['portworxVolume', 'PortworxVolume'],
  ['scaleIO', 'ScaleIO'],
  ['local', 'Local'],
  ['storageos', 'StorageOS'],
  ['csi', 'CSI'],
]

const secretRef = (v: unknown): GoValue => {
  const r = obj(v)
  return r === undefined
    ? null
    : {
        struct: [
          ['Name', str(r.name)],
          ['Namespace', str(r.namespace)],
        ],
      }
}
const optString = (v: unknown): GoValue => (typeof v === 'string' ? v : null)

// The Go layouts of the sources kelp renders in a diff; another source's fields follow its JSON keys.
const LAYOUTS: Record<string, (s: JSONObject) => GoValue> = {
  hostPath: (s) => ({
    struct: [
      ['Path', str(s.path)],
      ['Type', optString(s.type)],
    ],
  }),
  nfs: (s) => ({
    struct: [
      ['Server', str(s.server)],
      ['Path', str(s.path)],
      ['ReadOnly', s.readOnly === true],
    ],
  }),
  local: (s) => ({
    struct: [
      ['Path', str(s.path)],
      ['FSType', optString(s.fsType)],
    ],
  }),
  csi: (s) => {
    const attrs = obj(s.volumeAttributes)
    const map: Record<string, GoValue> = Object.create(null)
    for (const k of keys(attrs)) map[k] = str(attrs?.[k])
    return {
      struct: [
        ['Driver', str(s.driver)],
        ['VolumeHandle', str(s.volumeHandle)],
        ['ReadOnly', s.readOnly === true],
        ['FSType', str(s.fsType)],
        ['VolumeAttributes', attrs === undefined ? null : { map }],
        ['ControllerPublishSecretRef', secretRef(s.controllerPublishSecretRef)],
        ['NodeStageSecretRef', secretRef(s.nodeStageSecretRef)],
        ['NodePublishSecretRef', secretRef(s.nodePublishSecretRef)],
        ['ControllerExpandSecretRef', secretRef(s.controllerExpandSecretRef)],
        ['NodeExpandSecretRef', secretRef(s.nodeExpandSecretRef)],
      ],
    }
  },
}

function goJSONValue(v: unknown): GoValue {
  if (v === undefined || v === null) return null
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
  if (typeof v === 'bigint') return Number(v)
  if (Array.isArray(v)) return v.map(goJSONValue)
  const o = v as JSONObject
  return { struct: Object.keys(o).map((k) => [k.charAt(0).toUpperCase() + k.slice(1), goJSONValue(o[k])] as const) }
}

function goSource(spec: JSONObject): GoValue {
  return {
    struct: GO_SOURCES.map(([json, goName]) => {
      const s = obj(spec[json])
      const layout = LAYOUTS[json]
      return [goName, s === undefined ? null : layout !== undefined ? layout(s) : goJSONValue(s)] as const
    }),
  }
}

/** getMaskNodeSelectorLabelChangeEqualities: a beta node label may become its GA name. */
const BETA_TO_GA: Record<string, string> = {
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'beta.kubernetes.io/instance-type': 'node.kubernetes.io/instance-type',
}
function maskBetaLabels(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskBetaLabels)
  if (!isObj(v)) return v
  const out: JSONObject = Object.create(null)
  for (const k of Object.keys(v)) {
    const x = v[k]
    out[k] = k === 'key' && typeof x === 'string' && Object.hasOwn(BETA_TO_GA, x) ? BETA_TO_GA[x] : maskBetaLabels(x)
  }
  return out
}

/** The strategy's ValidateUpdate: ValidatePersistentVolume, checkMountOption, ValidatePersistentVolumeUpdate. */
export function validatePersistentVolumeUpdate(pv: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const o = options(old, minor)
  const errs = [...validate(pv, o, minor), ...checkMountOption(pv)]
  // ValidatePersistentVolumeUpdate: ValidatePersistentVolume again, then the update rules
  errs.push(...validate(pv, o, minor))
  const spec = obj(pv.spec) ?? {}
  const oldSpec = obj(old.spec) ?? {}
  let newSpec = spec
  const oldCSI = obj(oldSpec.csi)
  const newCSI = obj(spec.csi)
  if (
    oldCSI !== undefined &&
    oldCSI.controllerExpandSecretRef === undefined &&
    newCSI?.controllerExpandSecretRef !== undefined
  ) {
    const { controllerExpandSecretRef: _dropped, ...rest } = newCSI
    newSpec = { ...spec, csi: rest }
  }
  const sourcesOf = (s: JSONObject) => GO_SOURCES.map(([json]) => s[json] ?? null)
  if (!deepEqual(sourcesOf(newSpec), sourcesOf(oldSpec)))
    errs.push(
      field.forbidden(
        SPEC.child('persistentvolumesource'),
        `spec.persistentvolumesource is immutable after creation\n${goDiff(goSource(oldSpec), goSource(newSpec))}`,
      ),
    )
  errs.push(...validateImmutableField(spec.volumeMode, oldSpec.volumeMode, FieldPath.of('volumeMode')))
  // MutablePVNodeAffinity is alpha (off) in 1.35–1.37
  if (
    oldSpec.nodeAffinity !== undefined &&
    !deepEqual(maskBetaLabels(spec.nodeAffinity ?? null), maskBetaLabels(oldSpec.nodeAffinity))
  )
    errs.push(
      field.invalid(
        FieldPath.of('nodeAffinity'),
        spec.nodeAffinity ?? null,
        'field is immutable, except for updating from beta label to GA',
      ),
    )
  if (
    !deepEqual(oldSpec.volumeAttributesClassName ?? null, spec.volumeAttributesClassName ?? null) &&
    o.volumeAttributesClass &&
    oldSpec.volumeAttributesClassName !== undefined &&
    spec.volumeAttributesClassName === undefined
  )
    errs.push(field.forbidden(SPEC.child('volumeAttributesClassName'), 'update from non-nil value to nil is forbidden'))
  return errs
}
