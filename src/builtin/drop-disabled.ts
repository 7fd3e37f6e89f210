import type { FeatureGate, FeatureGates } from '../kube/feature-gates.js'
import { DropDisabledPodFields, DropDisabledTemplateFields } from './drop-disabled-pod.js'

// The fields whose feature gate is off in the target release that each kind's strategy drops in
// PrepareForCreate / PrepareForUpdate before its validation and validating admission (kubernetes v1.37.2
// pkg/registry/<group>/<kind>/strategy.go, pkg/api/job/util.go, pkg/api/persistentvolumeclaim/util.go,
// pkg/api/persistentvolume/util.go; the pod specs: drop-disabled-pod.ts). A field the old object already
// sets is kept on update where the Go code checks it. In place, on the decoded v1 object.

type JSONObject = Record<string, unknown>

const isObj = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)
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

/** The kinds' drops, by `group/Kind`: (object, old object or undefined on create, on). */
type Drop = (o: JSONObject, old: JSONObject | undefined, on: FeatureGates) => void

const template =
  (path: string[]): Drop =>
  (o, old, on) =>
    DropDisabledTemplateFields(child(o, ...path), child(old, ...path), on)

const DROPS: Record<string, Drop> = {
  '/Pod': DropDisabledPodFields,
  '/PodTemplate': template(['template']),
  '/ReplicationController': template(['spec', 'template']),
  'apps/Deployment': template(['spec', 'template']),
  'apps/ReplicaSet': template(['spec', 'template']),
  'apps/DaemonSet': template(['spec', 'template']),
  'apps/StatefulSet': (o, old, on) => {
    // dropStatefulSetDisabledFields
    const ru = child(o, 'spec', 'updateStrategy', 'rollingUpdate')
    const oldRU = child(old, 'spec', 'updateStrategy', 'rollingUpdate')
    if (!on('MaxUnavailableStatefulSet') && oldRU?.maxUnavailable === undefined) delete ru?.maxUnavailable
    template(['spec', 'template'])(o, old, on)
  },
  'batch/Job': (o, old, on) => {
    // managedBy on create only (the update keeps the old value through validation's immutability)
    if (old === undefined && !on('JobManagedBy')) delete child(o, 'spec')?.managedBy
    dropDisabledJobFields(child(o, 'spec'), child(old, 'spec'), on)
    template(['spec', 'template'])(o, old, on)
  },
  'batch/CronJob': (o, old, on) => {
    dropDisabledJobFields(child(o, 'spec', 'jobTemplate', 'spec'), child(old, 'spec', 'jobTemplate', 'spec'), on)
    template(['spec', 'jobTemplate', 'spec', 'template'])(o, old, on)
  },
  '/PersistentVolumeClaim': (o, old, on) => {
    const spec = child(o, 'spec')
    if (spec !== undefined) dropDisabledPVCFields(spec, child(old, 'spec'), on)
  },
  '/PersistentVolume': (o, old, on) => {
    // persistentvolume.DropDisabledSpecFields
    const spec = child(o, 'spec')
    if (!on('VolumeAttributesClass') && child(old, 'spec')?.volumeAttributesClassName === undefined)
      delete spec?.volumeAttributesClassName
  },
  'autoscaling/HorizontalPodAutoscaler': (o, old, on) => {
    // dropDisabledFields: toleranceInUse(old) keeps both rules' tolerances
    if (on('HPAConfigurableTolerance')) return
    const oldBehavior = child(old, 'spec', 'behavior')
    if (['scaleUp', 'scaleDown'].some((k) => child(oldBehavior, k)?.tolerance !== undefined)) return
    const behavior = child(o, 'spec', 'behavior')
    for (const k of ['scaleDown', 'scaleUp']) delete child(behavior, k)?.tolerance
  },
  'discovery.k8s.io/EndpointSlice': (o, old, on) => {
    // dropDisabledFieldsOnCreate / OnUpdate
    if (on('PreferSameTrafficDistribution')) return
    if (old !== undefined && objects(old.endpoints).some((e) => child(e, 'hints')?.forNodes !== undefined)) return
    for (const e of objects(o.endpoints)) delete child(e, 'hints')?.forNodes
  },
  'storage.k8s.io/CSIDriver': (o, old, on) => {
    // PrepareForCreate / PrepareForUpdate (the update keeps what the old spec sets)
    const spec = child(o, 'spec')
    const oldSpec = child(old, 'spec')
    const gated: [string, FeatureGate][] = [
      ['seLinuxMount', 'SELinuxMountReadWriteOncePod'],
      ['nodeAllocatableUpdatePeriodSeconds', 'MutableCSINodeAllocatableCount'],
      ['serviceAccountTokenInSecrets', 'CSIServiceAccountTokenSecrets'],
      ['preventPodSchedulingIfMissing', 'VolumeLimitScaling'],
    ]
    for (const [f, gate] of gated) if (!on(gate) && (old === undefined || oldSpec?.[f] === undefined)) delete spec?.[f]
  },
}

/**
 * The strategy's dropping of disabled fields for a write of `object` (`old` on update), in place;
 * kinds without one are left as they are.
 */
export function dropDisabledFields(object: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const kind = typeof object.kind === 'string' ? object.kind : ''
  DROPS[`${group}/${kind}`]?.(object, old, on)
}
