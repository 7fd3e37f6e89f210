import type { FeatureGate, FeatureGates } from '../kube/feature-gates.js'
import { isObject as isObj, type JSONObject } from '../kube/values/json.js'
import { DropDisabledTemplateFields } from './drop-disabled-pod.js'

// The fields whose feature gate is off in the target release that each kind's strategy drops in
// PrepareForCreate / PrepareForUpdate before its validation and validating admission (kubernetes v1.37.2
// pkg/registry/<group>/<kind>/strategy.go, pkg/api/job/util.go, pkg/api/persistentvolumeclaim/util.go,
// pkg/api/persistentvolume/util.go; the pod specs: drop-disabled-pod.ts). A field the old object already
// sets is kept on update where the Go code checks it. In place, on the decoded v1 object. Each is a kind's
// `prepare` in the table of strategies.ts (function declarations, hoisted: the table may read them
// while this module is still loading).

const objects = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.filter(isObj) : [])
const child = (o: JSONObject | undefined, ...keys: string[]): JSONObject | undefined => {
  let v: unknown = o
  for (const k of keys) v = isObj(v) ? v[k] : undefined
  return isObj(v) ? v : undefined
}

/** job.DropDisabledFields (shared by Job and CronJob). */
function dropDisabledJobFields(
  jobSpec: JSONObject | undefined,
  oldJobSpec: JSONObject | undefined,
  on: FeatureGates,
): void {
  if (jobSpec === undefined) return
  if (on('WorkloadWithJob') || oldJobSpec?.scheduling !== undefined) return
  delete jobSpec.scheduling
}

/** persistentvolumeclaim.DropDisabledFields. */
export function dropDisabledPVCFields(spec: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  if (!on('VolumeAttributesClass') && old?.volumeAttributesClassName === undefined)
    delete spec.volumeAttributesClassName
  const ref = child(spec, 'dataSourceRef')
  if (
    !on('CrossNamespaceVolumeDataSource') &&
    typeof ref?.namespace === 'string' &&
    ref.namespace !== '' &&
    old?.dataSourceRef === undefined
  )
    delete spec.dataSourceRef
}

/** The strategy's prepare of a kind: (object, old object or undefined on create, on), in place. */
export type Drop = (o: JSONObject, old: JSONObject | undefined, on: FeatureGates) => void

/** The Deployment, ReplicaSet, DaemonSet and ReplicationController strategies: their pod template's. */
export function dropDisabledSpecTemplateFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  DropDisabledTemplateFields(child(o, 'spec', 'template'), child(old, 'spec', 'template'), on)
}

/** podtemplate strategy: pod.DropDisabledTemplateFields. */
export function dropDisabledPodTemplateFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  DropDisabledTemplateFields(child(o, 'template'), child(old, 'template'), on)
}

/** statefulset strategy: dropStatefulSetDisabledFields, then its pod template's. */
export function dropStatefulSetDisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const ru = child(o, 'spec', 'updateStrategy', 'rollingUpdate')
  const oldRU = child(old, 'spec', 'updateStrategy', 'rollingUpdate')
  if (!on('MaxUnavailableStatefulSet') && oldRU?.maxUnavailable === undefined) delete ru?.maxUnavailable
  dropDisabledSpecTemplateFields(o, old, on)
}

/** job strategy: managedBy (on create only: the update keeps the old value through validation's immutability), job.DropDisabledFields, the pod template's. */
export function dropJobDisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  if (old === undefined && !on('JobManagedBy')) delete child(o, 'spec')?.managedBy
  dropDisabledJobFields(child(o, 'spec'), child(old, 'spec'), on)
  dropDisabledSpecTemplateFields(o, old, on)
}

/** cronjob strategy: job.DropDisabledFields of its job template, the pod template's. */
export function dropCronJobDisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  dropDisabledJobFields(child(o, 'spec', 'jobTemplate', 'spec'), child(old, 'spec', 'jobTemplate', 'spec'), on)
  DropDisabledTemplateFields(
    child(o, 'spec', 'jobTemplate', 'spec', 'template'),
    child(old, 'spec', 'jobTemplate', 'spec', 'template'),
    on,
  )
}

/**
 * persistentvolumeclaim strategy, PrepareForCreate / PrepareForUpdate of the spec: DropDisabledFields, then KEP 1495's
 * EnforceDataSourceBackwardsCompatibility and NormalizeDataSources (AnyVolumeDataSource: on in every release kelp
 * targets, its gate since removed). On update the old spec is normalized too, in place, as the strategy does (and as
 * the apiserver's read of a stored claim already is: defaultOnReadPvc).
 */
export function preparePersistentVolumeClaim(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const spec = child(o, 'spec')
  if (spec === undefined) return
  const oldSpec = child(old, 'spec')
  dropDisabledPVCFields(spec, oldSpec, on)
  enforceDataSourceBackwardsCompatibility(spec, oldSpec)
  normalizeDataSources(spec)
  if (oldSpec !== undefined) normalizeDataSources(oldSpec)
}

/**
 * persistentvolumeclaim.EnforceDataSourceBackwardsCompatibility: on a create (or an update of a claim without a data
 * source) that gives no dataSourceRef, a dataSource other than a PersistentVolumeClaim or a
 * snapshot.storage.k8s.io VolumeSnapshot is dropped, as before KEP 1495.
 */
function enforceDataSourceBackwardsCompatibility(spec: JSONObject, oldSpec: JSONObject | undefined): void {
  if (oldSpec?.dataSource != null || oldSpec?.dataSourceRef != null) return
  if (spec.dataSourceRef != null) return
  const ds = child(spec, 'dataSource')
  if (ds === undefined) return
  const group = typeof ds.apiGroup === 'string' ? ds.apiGroup : ''
  const pvcOrSnapshot =
    (ds.kind === 'PersistentVolumeClaim' && group === '') ||
    (ds.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io')
  if (!pvcOrSnapshot) delete spec.dataSource
}

/**
 * persistentvolumeclaim.NormalizeDataSources: dataSource and dataSourceRef hold the same reference when only one
 * is given (dataSourceRef copied back only without a namespace). Kind, name and apiGroup are copied, an apiGroup
 * only when given (a *string: nil stays nil).
 */
function normalizeDataSources(spec: JSONObject): void {
  const ds = child(spec, 'dataSource')
  const ref = child(spec, 'dataSourceRef')
  const copy = (from: JSONObject): JSONObject => {
    const to: JSONObject = { kind: from.kind ?? '', name: from.name ?? '' }
    if (from.apiGroup != null) to.apiGroup = from.apiGroup
    return to
  }
  if (ds !== undefined && spec.dataSourceRef == null) spec.dataSourceRef = copy(ds)
  else if (ref !== undefined && spec.dataSource == null && (typeof ref.namespace !== 'string' || ref.namespace === ''))
    spec.dataSource = copy(ref)
}

/** persistentvolume strategy: persistentvolume.DropDisabledSpecFields. */
export function dropPVDisabledSpecFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const spec = child(o, 'spec')
  if (!on('VolumeAttributesClass') && child(old, 'spec')?.volumeAttributesClassName === undefined)
    delete spec?.volumeAttributesClassName
}

/** horizontalpodautoscaler strategy: dropDisabledFields (toleranceInUse(old) keeps both rules' tolerances). */
export function dropHPADisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  if (on('HPAConfigurableTolerance')) return
  const oldBehavior = child(old, 'spec', 'behavior')
  if (['scaleUp', 'scaleDown'].some((k) => child(oldBehavior, k)?.tolerance !== undefined)) return
  const behavior = child(o, 'spec', 'behavior')
  for (const k of ['scaleDown', 'scaleUp']) delete child(behavior, k)?.tolerance
}

/** endpointslice strategy: dropDisabledFieldsOnCreate / dropDisabledFieldsOnUpdate. */
export function dropEndpointSliceDisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  if (on('PreferSameTrafficDistribution')) return
  if (old !== undefined && objects(old.endpoints).some((e) => child(e, 'hints')?.forNodes !== undefined)) return
  for (const e of objects(o.endpoints)) delete child(e, 'hints')?.forNodes
}

/** csidriver strategy: PrepareForCreate / PrepareForUpdate (the update keeps what the old spec sets). */
export function dropCSIDriverDisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const spec = child(o, 'spec')
  const oldSpec = child(old, 'spec')
  const gated: [string, FeatureGate][] = [
    ['seLinuxMount', 'SELinuxMountReadWriteOncePod'],
    ['nodeAllocatableUpdatePeriodSeconds', 'MutableCSINodeAllocatableCount'],
    ['serviceAccountTokenInSecrets', 'CSIServiceAccountTokenSecrets'],
    ['preventPodSchedulingIfMissing', 'VolumeLimitScaling'],
  ]
  for (const [f, gate] of gated) if (!on(gate) && (old === undefined || oldSpec?.[f] === undefined)) delete spec?.[f]
}
