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

/** persistentvolumeclaim strategy: persistentvolumeclaim.DropDisabledFields of its spec. */
export function dropPVCDisabledFields(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const spec = child(o, 'spec')
  if (spec !== undefined) dropDisabledPVCFields(spec, child(old, 'spec'), on)
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
