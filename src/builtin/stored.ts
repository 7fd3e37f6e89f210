import { featureEnabled } from '../kube/feature-gates.js'
import { deepEqualJSON } from '../kube/schema/deep-equal.js'
import { isObject as isObj, type JSONObject } from '../kube/values/json.js'
import { admitServiceAccount } from './admission/serviceaccount.js'
import { decodeBuiltin, marshalBuiltin } from './index.js'
import { prepareJobForCreate } from './validation/batch/validation.js'
import { quantity, ZERO } from './validation/core/resources.js'
import { serviceAsCreated } from './validation/core/service.js'

// A built-in object as a create stores it (what `kubectl apply --dry-run=server -o yaml` prints, for
// `kelp check -o yaml`), from the decoded and defaulted object, by the steps of the create path kelp
// reproduces (kubernetes v1.37.2):
// - the handler: rest.WipeObjectMetaSystemFields (selfLink, uid, creationTimestamp, deletionTimestamp,
//   deletionGracePeriodSeconds; the server's own uid and creationTimestamp are not printed: they are random);
// - rest.BeforeCreate: EnsureObjectNamespaceMatchesRequestNamespace (a namespaced object takes the request's
//   namespace, a cluster-scoped one loses its own);
// - the kinds' strategies' PrepareForCreate (pkg/registry/*/*/strategy.go): the status reset to the zero
//   value (Namespace: phase Active; PersistentVolume: phase Pending; Pod: phase Pending and its QoS class),
//   generation 1, a Namespace's
//   `kubernetes` finalizer, a DaemonSet's templateGeneration 1, a Job's generated selector and labels;
// - the v1 conversions the object makes on its way in and out (a Secret's stringData is merged into data
//   when it is decoded, src/builtin/index.ts mergeStringData, so admission sees it too): a DaemonSet's templateGeneration as the
//   `deprecated.daemonset.template.generation` annotation and the apiVersion and kind of a StatefulSet's
//   volumeClaimTemplates (pkg/apis/apps/v1/conversion.go).
// - a Pod's default mutating admission plugins, in the namespace's default ServiceAccount without settings of its
//   own and with no PriorityClass in the cluster (plugin/pkg/admission): ServiceAccount (serviceAccountName
//   default, the kube-api-access-<random> projected token volume mounted in every container; the random suffix
//   is `00000` here), Priority (priority 0 and PreemptLowerPriority without a class; the two system classes),
//   DefaultTolerationSeconds (the not-ready and unreachable NoExecute tolerations, 300 s).
// - a Service's BeginCreate hooks (validation/core/service.ts serviceAsCreated: single-stack IPv4, placeholder IPs
//   and node ports, the cluster's being random).
// - StorageObjectInUseProtection's pvc-protection / pv-protection finalizer; a PersistentVolume's
//   lastPhaseTransitionTime is the time kelp runs.
// - the storage codec's read-back (protobuf has no empty-but-set list or map): every empty list or map is nil, so
//   omitted, or null where the field is not omitempty (`rules: null` for a Role given `rules: []`).
// Not done (docs/known-differences.md): the rest of a Pod's PrepareForCreate (the scheduling gates' condition, …)
// and the autoscaling/v1 conversion annotations.

/** The kinds whose PrepareForCreate resets the status (`group/Kind`) and sets generation 1. */
const RESET_STATUS = new Set([
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
/** The suffix kelp gives the token volume (the plugin's is 5 random characters of utilrand's alphabet, never 0). */
export const TOKEN_VOLUME_PLACEHOLDER = 'kube-api-access-00000'
const SYSTEM_PRIORITY: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
}

/**
 * The Priority and DefaultTolerationSeconds admission plugins on a Pod's spec (in place); the
 * ServiceAccount one is src/builtin/admission/serviceaccount.ts (the engine runs it before the policies).
 */
function podAdmission(spec: JSONObject): void {
  const list = (k: string): unknown[] => (Array.isArray(spec[k]) ? (spec[k] as unknown[]) : [])
  // Priority (priority/admission.go admitPod: no default class in the cluster)
  const cls = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : ''
  if (cls === '' || SYSTEM_PRIORITY[cls] !== undefined) {
    spec.priority ??= cls === '' ? 0 : SYSTEM_PRIORITY[cls]
    spec.preemptionPolicy ??= 'PreemptLowerPriority'
  }
  // DefaultTolerationSeconds (defaulttolerationseconds/admission.go)
  const tolerations = list('tolerations').filter(isObj)
  const tolerates = (key: string) =>
    tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect))
  const added: JSONObject[] = []
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'])
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 })
  if (added.length > 0) spec.tolerations = [...list('tolerations'), ...added]
}

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
 * beta on), else the containers' (init first): one Burstable container, or two that disagree, make it Burstable.
 */
function podQOS(spec: JSONObject): string {
  const res = isObj(spec.resources) ? spec.resources : undefined
  const n = (v: unknown) => (isObj(v) ? Object.keys(v).length : 0)
  if (res !== undefined && n(res.requests) + n(res.limits) > 0) return requirementsQOS(res)
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

export interface StoredOptions {
  /** The request's namespace; '' for a cluster-scoped kind. */
  readonly namespace: string
  readonly namespaced: boolean
  readonly minor?: number
}

/** The object's `group/Kind` and a copy of it to store, its metadata an object of the copy. */
function copyToStore(object: JSONObject): { gk: string; o: JSONObject; meta: JSONObject } {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const kind = typeof object.kind === 'string' ? object.kind : ''
  const o: JSONObject = structuredClone(object)
  const meta: JSONObject = isObj(o.metadata) ? o.metadata : {}
  o.metadata = meta
  return { gk: `${group}/${kind}`, o, meta }
}

/** The object a create stores (see above), from the decoded and defaulted object; a copy. */
export function storedOnCreate(object: JSONObject, options: StoredOptions): JSONObject {
  const copy = copyToStore(object)
  const gk = copy.gk
  let o = copy.o
  const meta = copy.meta
  for (const k of ['selfLink', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'])
    delete meta[k]
  if (options.namespaced) {
    if (typeof meta.namespace !== 'string' || meta.namespace === '') meta.namespace = options.namespace
  } else delete meta.namespace
  let reencode = false
  if (RESET_STATUS.has(gk)) {
    delete o.status
    reencode = true
    if (gk === '/Namespace') o.status = { phase: 'Active' }
    // the time of the request (NowFunc), whole seconds as metav1.Time marshals
    if (gk === '/PersistentVolume')
      o.status = { phase: 'Pending', lastPhaseTransitionTime: `${new Date().toISOString().slice(0, 19)}Z` }
    if (gk === '/Pod') o.status = { phase: 'Pending', qosClass: podQOS(isObj(o.spec) ? o.spec : {}) }
  }
  if (gk === '/Pod' && isObj(o.spec)) {
    const mirror = isObj(meta.annotations) && Object.hasOwn(meta.annotations, 'kubernetes.io/config.mirror')
    if (!mirror) {
      // objects given here directly get the plugin's mutation; one the engine admitted has it (a named
      // ServiceAccount: the plugin ran, with that ServiceAccount's automount, which may have said no token)
      const named = isObj(o.spec) && typeof o.spec.serviceAccountName === 'string' && o.spec.serviceAccountName !== ''
      if (!named) admitServiceAccount(o, () => TOKEN_VOLUME_PLACEHOLDER)
      podAdmission(o.spec as JSONObject)
    }
  }
  if (GENERATION.has(gk)) meta.generation = 1
  if (gk === '/Namespace') {
    const spec: JSONObject = isObj(o.spec) ? o.spec : {}
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : []
    if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes']
    o.spec = spec
  }
  if (gk === 'apps/DaemonSet') {
    // the annotation carries spec.templateGeneration; PrepareForCreate raises one below 1 to 1
    const annotations: JSONObject = isObj(meta.annotations) ? meta.annotations : {}
    const given = Number.parseInt(String(annotations[DS_TEMPLATE_GENERATION] ?? ''), 10)
    if (!(given >= 1)) annotations[DS_TEMPLATE_GENERATION] = '1'
    meta.annotations = annotations
  }
  if (gk === 'apps/StatefulSet' && isObj(o.spec) && Array.isArray(o.spec.volumeClaimTemplates)) {
    o.spec.volumeClaimTemplates = o.spec.volumeClaimTemplates.map((t) =>
      isObj(t) ? { ...t, apiVersion: 'v1', kind: 'PersistentVolumeClaim' } : t,
    )
  }
  if (gk === '/Service') o = serviceAsCreated(o, options.minor ?? 37) ?? o
  // StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection): its finalizer, once
  // (a VolumeAttributesClass's with the VolumeAttributesClass gate on: admitVAC)
  const protection =
    gk === '/PersistentVolumeClaim'
      ? 'kubernetes.io/pvc-protection'
      : gk === '/PersistentVolume'
        ? 'kubernetes.io/pv-protection'
        : gk === 'storage.k8s.io/VolumeAttributesClass' && featureEnabled('VolumeAttributesClass', options.minor ?? 37)
          ? 'kubernetes.io/vac-protection'
          : ''
  if (protection !== '') {
    const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : []
    if (!finalizers.includes(protection)) meta.finalizers = [...finalizers, protection]
  }
  if (gk === 'batch/Job') {
    o = prepareJobForCreate(o)
    delete (o.metadata as JSONObject).uid
  }
  if (reencode) {
    // the reset status as Go marshals its zero value (defaulted again: defaulting is idempotent)
    const again = decodeBuiltin(o, { fieldValidation: 'Ignore', minor: options.minor ?? 37 })
    o = (again?.object as JSONObject | undefined) ?? o
  }
  // read back through the storage codec (protobuf): an empty list or map comes back nil
  marshalBuiltin(o, true)
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

/**
 * The object an update stores, from the admitted (decoded, defaulted, patched) object and the stored `old`
 * (kubernetes v1.37.2): rest.BeforeUpdate takes the generation from the old object; the kinds' strategies'
 * PrepareForUpdate keep the old status (the main resource never writes it) and count a generation when the
 * spec changed (Deployment: or its annotations; webhook configurations: their webhooks); a DaemonSet's
 * templateGeneration counts changes of its template; read back through the storage codec. A copy.
 */
export function storedOnUpdate(
  object: JSONObject,
  old: JSONObject,
  options: { readonly minor?: number } = {},
): JSONObject {
  const copy = copyToStore(object)
  const gk = copy.gk
  let o = copy.o
  const meta = copy.meta
  const oldMeta: JSONObject = isObj(old.metadata) ? old.metadata : {}
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation
  else delete meta.generation
  let reencode = false
  if (RESET_STATUS.has(gk)) {
    if (old.status === undefined) delete o.status
    else o.status = structuredClone(old.status)
    reencode = true
  }
  if (gk === '/Namespace' && isObj(o.spec)) {
    const oldSpec = isObj(old.spec) ? old.spec : {}
    if (oldSpec.finalizers === undefined) delete o.spec.finalizers
    else o.spec.finalizers = structuredClone(oldSpec.finalizers)
  }
  if (GENERATION.has(gk)) {
    const of = Object.hasOwn(GENERATION_OF, gk) ? GENERATION_OF[gk]! : (x: JSONObject) => x.spec
    if (!deepEqualJSON(of(o) ?? null, of(old) ?? null)) meta.generation = Number(oldMeta.generation ?? 0) + 1
  }
  if (gk === 'apps/DaemonSet') {
    const annotations: JSONObject = isObj(meta.annotations) ? meta.annotations : {}
    const oldAnnotations: JSONObject = isObj(oldMeta.annotations) ? oldMeta.annotations : {}
    const template = (x: JSONObject) => (isObj(x.spec) ? x.spec.template : undefined)
    const given = Number.parseInt(String(oldAnnotations[DS_TEMPLATE_GENERATION] ?? ''), 10)
    const previous = Number.isNaN(given) ? 0 : given
    annotations[DS_TEMPLATE_GENERATION] = String(
      deepEqualJSON(template(o) ?? null, template(old) ?? null) ? previous : previous + 1,
    )
    meta.annotations = annotations
  }
  if (reencode) {
    const again = decodeBuiltin(o, { fieldValidation: 'Ignore', minor: options.minor ?? 37 })
    o = (again?.object as JSONObject | undefined) ?? o
  }
  marshalBuiltin(o, true)
  return o
}
