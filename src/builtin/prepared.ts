import { featureEnabled } from '../kube/feature-gates.js'
import { copyOwn } from '../kube/own-keys.js'
import { deepEqualJSON } from '../kube/schema/deep-equal.js'
import { filledOnCreate, keptOnUpdate, wholeSeconds } from '../kube/system-fields.js'
import { isObject as isObj, type JSONObject } from '../kube/values/json.js'
import { decodeStruct } from './decode.js'
import { kindStruct } from './gotypes.js'
import { isSupportedPodLevelResource } from './pod-level-resources.js'
import { schedulingGatedConditions } from './pod-prepare.js'
import { prepareJobForCreate } from './validation/batch/validation.js'
import { quantity, ZERO } from './validation/core/resources.js'
import { serviceAsCreated } from './validation/core/service.js'

// A built-in object as validating admission sees it (kubernetes v1.37.2): after the create or update handler
// and the store have prepared it, before createValidation / updateValidation (registry/generic/registry/
// store.go Create / Update), so what the ValidatingAdmissionPolicies read and what is stored (stored.ts) are
// one object but for the storage codec's read-back. From the decoded, defaulted and mutated object:
// - create: rest.FillObjectMetaSystemFields (a uid, kelp's placeholder: the server's is random; the
//   creationTimestamp, the time of the request); rest.BeforeCreate's namespace (a namespaced object takes the
//   request's, a cluster-scoped one loses its own); the kinds' PrepareForCreate (the status reset to its zero
//   value: Namespace phase Active, PersistentVolume phase Pending, Pod phase Pending, its QoS class and a gated
//   pod's PodScheduled condition (pod-prepare.ts, whose spec part the strategy ran before validation); generation
//   1; a Namespace's `kubernetes` finalizer; a Job's generated selector and labels); a Service's BeginCreate hooks
//   (validation/core/service.ts serviceAsCreated); StorageObjectInUseProtection's finalizer (a mutating plugin
//   the engine does not run in its own stage); the v1 conversion on the way to the policies (a DaemonSet's
//   templateGeneration as the `deprecated.daemonset.template.generation` annotation; the apiVersion and kind of a
//   StatefulSet's volumeClaimTemplates: pkg/apis/apps/v1/conversion.go).
// - update: rest.BeforeUpdate (generation, uid and creationTimestamp from the stored object) and the kinds'
//   PrepareForUpdate (the old status kept; generation counted when the spec changed).
// Copy on write: the given object is never changed; what is not prepared is shared with it. Not done
// (docs/known-differences.md): metadata.managedFields (the field manager's entry for kubectl's apply).

/** The kinds whose PrepareForCreate resets the status (`group/Kind`) and sets generation 1. */
export const RESET_STATUS: ReadonlySet<string> = new Set([
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
  '/ReplicationController',
  '/Service',
  '/PersistentVolumeClaim',
  '/PersistentVolume',
  '/ResourceQuota',
  '/Namespace',
  '/Pod',
  'autoscaling/HorizontalPodAutoscaler',
  'policy/PodDisruptionBudget',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/ServiceCIDR',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/CSINode',
  'certificates.k8s.io/CertificateSigningRequest',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'resource.k8s.io/ResourceClaim',
  'resource.k8s.io/DeviceTaintRule',
])

const GENERATION = new Set([
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
  '/ReplicationController',
  'autoscaling/HorizontalPodAutoscaler',
  'policy/PodDisruptionBudget',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/NetworkPolicy',
  'discovery.k8s.io/EndpointSlice',
  'scheduling.k8s.io/PriorityClass',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'resource.k8s.io/ResourceSlice',
  'resource.k8s.io/DeviceClass',
  'resource.k8s.io/DeviceTaintRule',
  '/Pod',
  // pkg/registry/core/podtemplate/strategy.go PrepareForCreate: template.Generation = 1
  '/PodTemplate',
])

const DS_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation'

/** pkg/apis/core/helper/qos resourceQOS: requests equal to limits (Burstable if not), zero (BestEffort) or not. */
function resourceQOS(res: JSONObject, name: string): string {
  const req = quantity((isObj(res.requests) ? res.requests : {})[name]) ?? ZERO
  const lim = quantity((isObj(res.limits) ? res.limits : {})[name]) ?? ZERO
  if (req.cmp(lim) !== 0) return 'Burstable'
  return req.isZero() ? 'BestEffort' : 'Guaranteed'
}

/** requirementsQOS: BestEffort without any request or limit, else the cpu and memory classes when they agree. */
function requirementsQOS(res: JSONObject): string {
  const n = (v: unknown) => (isObj(v) ? Object.keys(v).length : 0)
  if (n(res.requests) === 0 && n(res.limits) === 0) return 'BestEffort'
  let qos = ''
  for (const name of ['cpu', 'memory']) {
    const q = resourceQOS(res, name)
    if (q === 'Burstable') return q
    if (qos === '') qos = q
    else if (qos !== q) return 'Burstable'
  }
  return qos
}

/**
 * ComputePodQOS (kubernetes v1.37.2 pkg/apis/core/helper/qos): the pod-level resources when set (PodLevelResources,
 * beta on from 1.34), else the containers' (init first): one Burstable container, or two that disagree, make it
 * Burstable. Pod-level resources are set when a request or limit names cpu, memory or a hugepage
 * (IsPodLevelResourcesSet, with PodLevelResourcesFixKubeletQOSClass, on in 1.37); before 1.37 a spec.resources given
 * at all counts, `resources: {}` included (BestEffort then, whatever the containers ask).
 */
function podQOS(spec: JSONObject, minor: number): string {
  const res = isObj(spec.resources) ? spec.resources : undefined
  if (res !== undefined && featureEnabled('PodLevelResources', minor)) {
    const supported = (v: unknown) => isObj(v) && Object.keys(v).some(isSupportedPodLevelResource)
    if (
      !featureEnabled('PodLevelResourcesFixKubeletQOSClass', minor) ||
      supported(res.requests) ||
      supported(res.limits)
    )
      return requirementsQOS(res)
  }
  let qos = ''
  for (const c of [
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
    ...(Array.isArray(spec.containers) ? spec.containers : []),
  ]) {
    const q = requirementsQOS(isObj(c) && isObj(c.resources) ? c.resources : {})
    if (q === 'Burstable') return q
    if (qos === '') qos = q
    else if (qos !== q) return 'Burstable'
  }
  return qos === '' ? 'BestEffort' : qos
}

/**
 * The zero status of a kind as Go marshals it, not defaulted (a claim's is `{}`: its phase Pending is the
 * defaulting of the object read back from storage), made once per apiVersion and kind: a frozen, shared value.
 */
const zeroStatuses = new Map<string, unknown>()

function zeroStatus(apiVersion: string, kind: string): unknown {
  const key = `${apiVersion}/${kind}`
  if (zeroStatuses.has(key)) return zeroStatuses.get(key)
  const id = kindStruct(apiVersion, kind)
  const decoded = id === undefined ? undefined : decodeStruct(id, { apiVersion, kind }, false).object
  const status = deepFreeze(isObj(decoded) ? decoded.status : undefined)
  zeroStatuses.set(key, status)
  return status
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x)
    Object.freeze(v)
  }
  return v
}

/** The status a create starts from (PrepareForCreate), by kind. */
function createStatus(gk: string, o: JSONObject, minor: number): unknown {
  if (gk === '/Namespace') return { phase: 'Active' }
  // the time of the request (NowFunc), whole seconds as metav1.Time marshals
  if (gk === '/PersistentVolume') return { phase: 'Pending', lastPhaseTransitionTime: wholeSeconds(new Date()) }
  if (gk === '/Pod') {
    // pkg/registry/core/pod/strategy.go PrepareForCreate: applySchedulingGatedCondition, then the QoS class of
    // the spec DefaultPodLevelResources completed (the strategy's prepare ran before: pod-prepare.ts)
    const spec = isObj(o.spec) ? o.spec : {}
    const conditions = schedulingGatedConditions(spec)
    const qosClass = podQOS(spec, minor)
    return conditions === undefined ? { phase: 'Pending', qosClass } : { phase: 'Pending', conditions, qosClass }
  }
  return zeroStatus(String(o.apiVersion), String(o.kind))
}

export interface PrepareOptions {
  /** The request's namespace; '' for a cluster-scoped kind. */
  readonly namespace: string
  readonly namespaced: boolean
  readonly minor?: number
}

/** The object's `group/Kind`. */
export function groupKindOf(object: JSONObject): string {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  return `${group}/${typeof object.kind === 'string' ? object.kind : ''}`
}

/**
 * A shallow copy of `o[key]` as an object (a new empty one when it is not an object), set on `o`. copyOwn, not
 * Object.assign: a `__proto__` annotation stays an own key of the copy.
 */
function own(o: JSONObject, key: string): JSONObject {
  const v = o[key]
  const copy: JSONObject = isObj(v) ? (copyOwn(v) as JSONObject) : {}
  o[key] = copy
  return copy
}

/** The object a create hands to validating admission (see the top of the file); `object` is not changed. */
export function preparedForCreate(object: JSONObject, options: PrepareOptions): JSONObject {
  const gk = groupKindOf(object)
  const minor = options.minor ?? 37
  let o = copyOwn(object) as JSONObject
  // WipeObjectMetaSystemFields, then FillObjectMetaSystemFields
  const meta = filledOnCreate(isObj(o.metadata) ? o.metadata : {})
  o.metadata = meta
  for (const k of ['selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds']) delete meta[k]
  if (options.namespaced) {
    if (typeof meta.namespace !== 'string' || meta.namespace === '') meta.namespace = options.namespace
  } else delete meta.namespace
  if (RESET_STATUS.has(gk)) o.status = createStatus(gk, o, minor)
  if (GENERATION.has(gk)) meta.generation = 1
  if (gk === '/Namespace') {
    const spec = own(o, 'spec')
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : []
    if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes']
  }
  if (gk === 'apps/DaemonSet') {
    // the annotation carries spec.templateGeneration; PrepareForCreate raises one below 1 to 1
    const annotations = own(meta, 'annotations')
    const given = Number.parseInt(String(annotations[DS_TEMPLATE_GENERATION] ?? ''), 10)
    if (!(given >= 1)) annotations[DS_TEMPLATE_GENERATION] = '1'
  }
  if (gk === 'apps/StatefulSet' && isObj(o.spec) && Array.isArray(o.spec.volumeClaimTemplates)) {
    const spec = own(o, 'spec')
    spec.volumeClaimTemplates = (spec.volumeClaimTemplates as unknown[]).map((t) =>
      isObj(t) ? { ...t, apiVersion: 'v1', kind: 'PersistentVolumeClaim' } : t,
    )
  }
  if (gk === '/Service') o = serviceAsCreated(o, minor) ?? o
  // StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection): its finalizer, once
  // (a VolumeAttributesClass's with the VolumeAttributesClass gate on: admitVAC)
  const protection =
    gk === '/PersistentVolumeClaim'
      ? 'kubernetes.io/pvc-protection'
      : gk === '/PersistentVolume'
        ? 'kubernetes.io/pv-protection'
        : gk === 'storage.k8s.io/VolumeAttributesClass' && featureEnabled('VolumeAttributesClass', minor)
          ? 'kubernetes.io/vac-protection'
          : ''
  if (protection !== '') {
    const m = o.metadata as JSONObject
    const finalizers = Array.isArray(m.finalizers) ? m.finalizers : []
    if (!finalizers.includes(protection)) m.finalizers = [...finalizers, protection]
  }
  if (gk === 'batch/Job') o = prepareJobForCreate(o)
  return o
}

/** The kinds whose generation counts changes of something else than spec (their PrepareForUpdate). */
const GENERATION_OF: Readonly<Record<string, (o: JSONObject) => unknown>> = {
  // apps deployment strategy.go: spec or annotations
  'apps/Deployment': (o) => [o.spec, isObj(o.metadata) ? o.metadata.annotations : undefined],
  // admissionregistration validatingwebhookconfiguration / mutatingwebhookconfiguration strategy.go: webhooks
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': (o) => o.webhooks,
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': (o) => o.webhooks,
  // core podtemplate strategy.go: the template
  '/PodTemplate': (o) => o.template,
}

/** The object an update hands to validating admission (see the top of the file); `object` is not changed. */
export function preparedForUpdate(object: JSONObject, old: JSONObject): JSONObject {
  const gk = groupKindOf(object)
  const o = copyOwn(object) as JSONObject
  // rest.BeforeUpdate: the uid when none is given and the creationTimestamp, and the generation, are the stored ones
  const meta = keptOnUpdate(isObj(o.metadata) ? o.metadata : {}, old)
  o.metadata = meta
  const oldMeta: JSONObject = isObj(old.metadata) ? old.metadata : {}
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation
  else delete meta.generation
  if (RESET_STATUS.has(gk))
    o.status = old.status === undefined ? zeroStatus(String(o.apiVersion), String(o.kind)) : old.status
  if (gk === '/Namespace' && isObj(o.spec)) {
    const spec = own(o, 'spec')
    const oldSpec = isObj(old.spec) ? old.spec : {}
    if (oldSpec.finalizers === undefined) delete spec.finalizers
    else spec.finalizers = oldSpec.finalizers
  }
  if (GENERATION.has(gk)) {
    const of = Object.hasOwn(GENERATION_OF, gk) ? GENERATION_OF[gk]! : (x: JSONObject) => x.spec
    if (!deepEqualJSON(of(o) ?? null, of(old) ?? null)) meta.generation = Number(oldMeta.generation ?? 0) + 1
  }
  if (gk === 'apps/DaemonSet') {
    const annotations = own(meta, 'annotations')
    const oldAnnotations: JSONObject = isObj(oldMeta.annotations) ? oldMeta.annotations : {}
    const template = (x: JSONObject) => (isObj(x.spec) ? x.spec.template : undefined)
    const given = Number.parseInt(String(oldAnnotations[DS_TEMPLATE_GENERATION] ?? ''), 10)
    const previous = Number.isNaN(given) ? 0 : given
    annotations[DS_TEMPLATE_GENERATION] = String(
      deepEqualJSON(template(o) ?? null, template(old) ?? null) ? previous : previous + 1,
    )
  }
  return o
}
