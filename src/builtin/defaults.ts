import { BoundedMemo } from '../kube/memo.js'
import { setOwn } from '../kube/own-keys.js'
import { isObject, type JSONObject, sortedKeys } from '../kube/values/json.js'
import { newScaledQuantity, parseQuantity } from '../kube/values/quantity.js'
import { zeroOf } from './decode.js'
import { structInfo, type TypeNode } from './gotypes.js'
import { imageTag } from './image.js'
import { defaultPodRequestsAtDecoding } from './pod-level-resources.js'
import { annotationMetrics } from './validation/autoscaling/v1.js'

// Defaulting of built-in objects as kube-apiserver's codec applies it right after decoding
// (the scheme's defaulters: pkg/apis/<group>/<version>/zz_generated.defaults.go at v1.37.2). The
// generated defaulter of a kind visits the type tree depth first: at each struct, its
// SetDefaults_<Type> function (defaults.go), then, field by field, the field's declarative default
// (`+default=`, taken from the OpenAPI by the type table) and the field's own subtree. The
// SetDefaults_ functions below are ported one by one, named as in Kubernetes; they work on the
// decoded object as Go marshals it (a nil pointer or zero omitempty field is absent).
//
// Feature gates follow their defaults at the target release (the `minor`).

export interface DefaultEnv {
  /** The target release's minor version (1.x). */
  readonly minor: number
}

type SetDefaults = (o: JSONObject, env: DefaultEnv) => void

/** A Go zero value as marshalled: absent, null, '', 0, false. */
const isZero = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || v === false
const isNil = (v: unknown) => v === undefined || v === null
const obj = (o: JSONObject, k: string): JSONObject => {
  const v = o[k]
  if (isObject(v)) return v
  const z: JSONObject = {}
  o[k] = z
  return z
}
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

// --- core/v1 (pkg/apis/core/v1/defaults.go)

const DefaultTerminationGracePeriodSeconds = 30

function SetDefaults_Volume(o: JSONObject, env: DefaultEnv): void {
  // ptr.AllPtrFieldsNil(&obj.VolumeSource): no source set
  if (Object.keys(o).every((k) => k === 'name' || isNil(o[k]))) o.emptyDir = {}
  // ImageVolume: beta on by default from 1.35, GA in 1.36
  const image = o.image
  if (env.minor >= 35 && isObject(image) && isZero(image.pullPolicy)) {
    image.pullPolicy =
      imageTag(typeof image.reference === 'string' ? image.reference : '') === 'latest' ? 'Always' : 'IfNotPresent'
  }
}

function SetDefaults_Container(o: JSONObject): void {
  if (isZero(o.imagePullPolicy)) {
    o.imagePullPolicy = imageTag(typeof o.image === 'string' ? o.image : '') === 'latest' ? 'Always' : 'IfNotPresent'
  }
  if (isZero(o.terminationMessagePath)) o.terminationMessagePath = '/dev/termination-log'
  if (isZero(o.terminationMessagePolicy)) o.terminationMessagePolicy = 'File'
}

/** service.ExternallyAccessible: LoadBalancer, NodePort, or ClusterIP with external IPs. */
function externallyAccessible(spec: JSONObject): boolean {
  return (
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && list(spec.externalIPs).length > 0)
  )
}

function SetDefaults_Service(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isZero(spec.sessionAffinity)) spec.sessionAffinity = 'None'
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig
  if (spec.sessionAffinity === 'ClientIP') {
    const c = spec.sessionAffinityConfig
    if (!isObject(c) || !isObject(c.clientIP) || isNil(c.clientIP.timeoutSeconds)) {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } }
    }
  }
  if (isZero(spec.type)) spec.type = 'ClusterIP'
  for (const p of list(spec.ports)) {
    if (!isObject(p)) continue
    if (isZero(p.protocol)) p.protocol = 'TCP'
    if (p.targetPort === 0 || p.targetPort === '' || p.targetPort === undefined) p.targetPort = p.port ?? 0
  }
  if (externallyAccessible(spec) && isZero(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster'
  if (isNil(spec.internalTrafficPolicy)) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') {
      spec.internalTrafficPolicy = 'Cluster'
    }
  }
  if (spec.type === 'LoadBalancer') {
    if (isNil(spec.allocateLoadBalancerNodePorts)) spec.allocateLoadBalancerNodePorts = true
    const status = isObject(o.status) ? o.status : undefined
    const lb = status && isObject(status.loadBalancer) ? status.loadBalancer : undefined
    for (const ing of list(lb?.ingress)) {
      if (isObject(ing) && !isZero(ing.ip) && isNil(ing.ipMode)) ing.ipMode = 'VIP'
    }
  }
}

function defaultRequestsFromLimits(containers: unknown): void {
  for (const c of list(containers)) {
    if (!isObject(c) || !isObject(c.resources)) continue
    const r = c.resources
    if (isNil(r.limits)) continue
    const requests = isObject(r.requests) ? r.requests : (r.requests = {})
    for (const [k, v] of Object.entries(r.limits as JSONObject)) if (!Object.hasOwn(requests, k)) setOwn(requests, k, v)
  }
}

function SetDefaults_Pod(o: JSONObject, env: DefaultEnv): void {
  const spec = obj(o, 'spec')
  const tgps = spec.terminationGracePeriodSeconds
  if (typeof tgps === 'number' && tgps < 0) spec.terminationGracePeriodSeconds = 1
  defaultRequestsFromLimits(spec.containers)
  defaultRequestsFromLimits(spec.initContainers)
  // PodLevelResources (beta on from 1.34) defaults pod-level requests here until PodLevelResourcesFixDefaulting
  // (beta on in 1.37) defers it to PrepareForCreate (src/builtin/pod-prepare.ts)
  if (env.minor >= 34 && env.minor < 37) defaultPodRequestsAtDecoding(o)
  if (isNil(spec.enableServiceLinks)) spec.enableServiceLinks = true
  if (spec.hostNetwork === true) {
    for (const cs of [spec.containers, spec.initContainers]) {
      for (const c of list(cs)) {
        if (!isObject(c)) continue
        for (const p of list(c.ports)) if (isObject(p) && isZero(p.hostPort)) p.hostPort = p.containerPort ?? 0
      }
    }
  }
  // H2CContainerProbe: alpha (off) in 1.37
}

function SetDefaults_PodStatus(o: JSONObject): void {
  const hasIP = !isZero(o.podIP)
  const ips = list(o.podIPs)
  const first = ips[0]
  if (hasIP && ips.length === 0) o.podIPs = [{ ip: o.podIP }]
  else if (!hasIP && ips.length > 0) {
    const ip = isObject(first) ? first.ip : undefined
    if (!isZero(ip)) o.podIP = ip
  } else if (hasIP && ips.length > 0 && (isObject(first) ? first.ip : undefined) !== o.podIP)
    o.podIPs = [{ ip: o.podIP }]
}

function SetDefaults_PodSpec(o: JSONObject): void {
  if (isZero(o.serviceAccountName) && !isZero(o.serviceAccount)) o.serviceAccountName = o.serviceAccount
  if (isZero(o.serviceAccountName)) delete o.serviceAccount
  else o.serviceAccount = o.serviceAccountName
  if (isZero(o.dnsPolicy)) o.dnsPolicy = 'ClusterFirst'
  if (isZero(o.restartPolicy)) o.restartPolicy = 'Always'
  if (isNil(o.securityContext)) o.securityContext = {}
  if (isNil(o.terminationGracePeriodSeconds)) o.terminationGracePeriodSeconds = DefaultTerminationGracePeriodSeconds
  if (isZero(o.schedulerName)) o.schedulerName = 'default-scheduler'
}

function SetDefaults_Probe(o: JSONObject): void {
  if (isZero(o.timeoutSeconds)) o.timeoutSeconds = 1
  if (isZero(o.periodSeconds)) o.periodSeconds = 10
  if (isZero(o.successThreshold)) o.successThreshold = 1
  if (isZero(o.failureThreshold)) o.failureThreshold = 3
}

const defaultMode =
  (mode: number): SetDefaults =>
  (o) => {
    if (isNil(o.defaultMode)) o.defaultMode = mode
  }

function SetDefaults_Secret(o: JSONObject): void {
  if (isZero(o.type)) o.type = 'Opaque'
}

function SetDefaults_ServiceAccountTokenProjection(o: JSONObject): void {
  if (isNil(o.expirationSeconds)) o.expirationSeconds = 3600
}

function SetDefaults_PersistentVolume(o: JSONObject): void {
  const status = obj(o, 'status')
  if (isZero(status.phase)) status.phase = 'Pending'
  const spec = obj(o, 'spec')
  if (isZero(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain'
  if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem'
}

function SetDefaults_PersistentVolumeClaim(o: JSONObject): void {
  const status = obj(o, 'status')
  if (isZero(status.phase)) status.phase = 'Pending'
}

function SetDefaults_PersistentVolumeClaimSpec(o: JSONObject): void {
  if (isNil(o.volumeMode)) o.volumeMode = 'Filesystem'
}

function SetDefaults_Endpoints(o: JSONObject): void {
  for (const ss of list(o.subsets)) {
    if (!isObject(ss)) continue
    for (const p of list(ss.ports)) if (isObject(p) && isZero(p.protocol)) p.protocol = 'TCP'
  }
}

function SetDefaults_HTTPGetAction(o: JSONObject): void {
  if (isZero(o.path)) o.path = '/'
  if (isZero(o.scheme)) o.scheme = 'HTTP'
}

function SetDefaults_Namespace(o: JSONObject): void {
  const meta = obj(o, 'metadata')
  if (typeof meta.name === 'string' && meta.name !== '') {
    const labels = isObject(meta.labels) ? meta.labels : (meta.labels = {})
    labels['kubernetes.io/metadata.name'] = meta.name
    sortKeys(meta, 'labels')
  }
}

function SetDefaults_NamespaceStatus(o: JSONObject): void {
  if (isZero(o.phase)) o.phase = 'Active'
}

function SetDefaults_NodeStatus(o: JSONObject): void {
  if (isNil(o.allocatable) && !isNil(o.capacity)) o.allocatable = structuredClone(o.capacity)
}

function SetDefaults_ObjectFieldSelector(o: JSONObject): void {
  if (isZero(o.apiVersion)) o.apiVersion = 'v1'
}

function SetDefaults_LimitRangeItem(o: JSONObject): void {
  if (o.type !== 'Container') return
  const d = isObject(o.default) ? o.default : (o.default = {})
  const dr = isObject(o.defaultRequest) ? o.defaultRequest : (o.defaultRequest = {})
  for (const [k, v] of Object.entries(isObject(o.max) ? o.max : {})) if (!Object.hasOwn(d, k)) setOwn(d, k, v)
  for (const [k, v] of Object.entries(d)) if (!Object.hasOwn(dr, k)) setOwn(dr, k, v)
  for (const [k, v] of Object.entries(isObject(o.min) ? o.min : {})) if (!Object.hasOwn(dr, k)) setOwn(dr, k, v)
  sortKeys(o, 'default')
  sortKeys(o, 'defaultRequest')
}

/**
 * SetDefaults_ConfigMap makes Data an empty map, which `data,omitempty` drops from the JSON (and the unstructured
 * converter from what admission sees): no visible change. A real kube-apiserver 1.37.2 stores a ConfigMap without
 * data without `data`.
 */
function SetDefaults_ConfigMap(_o: JSONObject): void {}

function SetDefaults_HostPathVolumeSource(o: JSONObject): void {
  if (isNil(o.type)) o.type = ''
}

function SetDefaults_ReplicationController(o: JSONObject): void {
  const spec = obj(o, 'spec')
  const labels = isObject(spec.template) && isObject(spec.template.metadata) ? spec.template.metadata.labels : undefined
  if (isObject(labels)) {
    if (isNil(spec.selector) || Object.keys(spec.selector as object).length === 0) spec.selector = { ...labels }
    const meta = obj(o, 'metadata')
    if (isNil(meta.labels) || Object.keys(meta.labels as object).length === 0) meta.labels = { ...labels }
  }
}

// --- apps/v1 (pkg/apis/apps/v1/defaults.go)

function SetDefaults_Deployment(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isNil(spec.replicas)) spec.replicas = 1
  const strategy = obj(spec, 'strategy')
  if (isZero(strategy.type)) strategy.type = 'RollingUpdate'
  if (strategy.type === 'RollingUpdate') {
    const ru = obj(strategy, 'rollingUpdate')
    if (isNil(ru.maxUnavailable)) ru.maxUnavailable = '25%'
    if (isNil(ru.maxSurge)) ru.maxSurge = '25%'
  }
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10
  if (isNil(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = 600
}

function SetDefaults_DaemonSet(o: JSONObject): void {
  const spec = obj(o, 'spec')
  const us = obj(spec, 'updateStrategy')
  if (isZero(us.type)) us.type = 'RollingUpdate'
  if (us.type === 'RollingUpdate') {
    const ru = obj(us, 'rollingUpdate')
    if (isNil(ru.maxUnavailable)) ru.maxUnavailable = 1
    if (isNil(ru.maxSurge)) ru.maxSurge = 0
  }
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10
}

function SetDefaults_StatefulSet(o: JSONObject, env: DefaultEnv): void {
  const spec = obj(o, 'spec')
  if (isZero(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady'
  const us = obj(spec, 'updateStrategy')
  if (isZero(us.type)) {
    us.type = 'RollingUpdate'
    if (isNil(us.rollingUpdate)) us.rollingUpdate = {}
  }
  if (us.type === 'RollingUpdate' && isObject(us.rollingUpdate)) {
    const ru = us.rollingUpdate
    if (isNil(ru.partition)) ru.partition = 0
    // MaxUnavailableStatefulSet: beta, on by default from 1.37
    if (env.minor >= 37 && isNil(ru.maxUnavailable)) ru.maxUnavailable = 1
  }
  const rp = obj(spec, 'persistentVolumeClaimRetentionPolicy')
  if (isZero(rp.whenDeleted)) rp.whenDeleted = 'Retain'
  if (isZero(rp.whenScaled)) rp.whenScaled = 'Retain'
  if (isNil(spec.replicas)) spec.replicas = 1
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10
}

function SetDefaults_ReplicaSet(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isNil(spec.replicas)) spec.replicas = 1
}

// --- batch/v1 (pkg/apis/batch/v1/defaults.go)

function SetDefaults_Job(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isNil(spec.completions) && isNil(spec.parallelism)) {
    spec.completions = 1
    spec.parallelism = 1
  }
  if (isNil(spec.parallelism)) spec.parallelism = 1
  if (isNil(spec.backoffLimit)) spec.backoffLimit = isNil(spec.backoffLimitPerIndex) ? 6 : 2147483647
  const labels = isObject(spec.template) && isObject(spec.template.metadata) ? spec.template.metadata.labels : undefined
  const meta = obj(o, 'metadata')
  // the template's map itself, as Go assigns it (pkg/apis/batch/v1/defaults.go): the labels PrepareForCreate then
  // adds to the template (job-name, controller-uid) are the Job's too
  if (isObject(labels) && (isNil(meta.labels) || Object.keys(meta.labels as object).length === 0)) meta.labels = labels
  if (isNil(spec.completionMode)) spec.completionMode = 'NonIndexed'
  if (isNil(spec.suspend)) spec.suspend = false
  if (isNil(spec.podReplacementPolicy)) {
    spec.podReplacementPolicy = isNil(spec.podFailurePolicy) ? 'TerminatingOrFailed' : 'Failed'
  }
  if (isNil(spec.manualSelector)) spec.manualSelector = false
}

function SetDefaults_CronJob(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isZero(spec.concurrencyPolicy)) spec.concurrencyPolicy = 'Allow'
  if (isNil(spec.suspend)) spec.suspend = false
  if (isNil(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3
  if (isNil(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1
}

function SetDefaults_PodFailurePolicyOnPodConditionsPattern(o: JSONObject): void {
  if (isZero(o.status)) o.status = 'True'
}

// --- networking/v1

function SetDefaults_NetworkPolicyPort(o: JSONObject): void {
  if (isNil(o.protocol)) o.protocol = 'TCP'
}

function SetDefaults_NetworkPolicy(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (list(spec.policyTypes).length === 0) {
    spec.policyTypes = list(spec.egress).length > 0 ? ['Ingress', 'Egress'] : ['Ingress']
  }
}

function SetDefaults_IngressClass(o: JSONObject): void {
  const spec = isObject(o.spec) ? o.spec : undefined
  if (spec !== undefined && isObject(spec.parameters) && isNil(spec.parameters.scope)) spec.parameters.scope = 'Cluster'
}

// --- autoscaling/v2

const hpaScaleUp = () => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
})
const hpaScaleDown = (): JSONObject => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
})
/** copyHPAScalingRules(from, defaults) in the marshalled field order. */
function hpaRules(from: unknown, defaults: JSONObject): JSONObject {
  if (!isObject(from)) return defaults
  const pick = (k: string) => (isNil(from[k]) ? defaults[k] : from[k])
  const out: JSONObject = {}
  for (const k of ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance']) {
    const v = pick(k)
    if (v !== undefined) out[k] = v
  }
  return out
}

function SetDefaults_HorizontalPodAutoscaler(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isNil(spec.minReplicas)) spec.minReplicas = 1
  if (list(spec.metrics).length === 0) {
    spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]
  }
  if (isObject(spec.behavior)) {
    spec.behavior.scaleUp = hpaRules(spec.behavior.scaleUp, hpaScaleUp())
    spec.behavior.scaleDown = hpaRules(spec.behavior.scaleDown, hpaScaleDown())
  }
}

// --- autoscaling/v1 (pkg/apis/autoscaling/v1/defaults.go), discovery/v1 (pkg/apis/discovery/v1/defaults.go)

function SetDefaults_HorizontalPodAutoscalerV1(o: JSONObject): void {
  const spec = obj(o, 'spec')
  if (isNil(spec.minReplicas)) spec.minReplicas = 1
  // not a defaulter: the conversion to the internal type gives an HPA without metrics (no CPU target, no
  // metrics in the autoscaling.alpha.kubernetes.io/metrics annotation) the CPU target 80
  // (pkg/apis/autoscaling/v1/conversion.go, DefaultCPUUtilization), which the object read back in v1 shows
  if (isNil(spec.targetCPUUtilizationPercentage) && !hasAnnotationMetrics(o)) spec.targetCPUUtilizationPercentage = 80
}

/** The metrics annotation of an autoscaling/v1 HPA holds metrics the conversion uses. */
const hasAnnotationMetrics = (o: JSONObject): boolean => (annotationMetrics(o)?.length ?? 0) > 0

function SetDefaults_EndpointPort(o: JSONObject): void {
  if (isNil(o.name)) o.name = ''
  if (isNil(o.protocol)) o.protocol = 'TCP'
}

// --- scheduling/v1, storage/v1

function SetDefaults_PriorityClass(o: JSONObject): void {
  if (isNil(o.preemptionPolicy)) o.preemptionPolicy = 'PreemptLowerPriority'
}

function SetDefaults_StorageClass(o: JSONObject): void {
  if (isNil(o.reclaimPolicy)) o.reclaimPolicy = 'Delete'
  if (isNil(o.volumeBindingMode)) o.volumeBindingMode = 'Immediate'
}

function SetDefaults_CSIDriver(o: JSONObject, env: DefaultEnv): void {
  const spec = obj(o, 'spec')
  if (isNil(spec.attachRequired)) spec.attachRequired = true
  if (isNil(spec.podInfoOnMount)) spec.podInfoOnMount = false
  if (isNil(spec.storageCapacity)) spec.storageCapacity = false
  if (isNil(spec.fsGroupPolicy)) spec.fsGroupPolicy = 'ReadWriteOnceWithFSType'
  if (list(spec.volumeLifecycleModes).length === 0) spec.volumeLifecycleModes = ['Persistent']
  if (isNil(spec.requiresRepublish)) spec.requiresRepublish = false
  // SELinuxMountReadWriteOncePod: beta on by default since 1.28
  if (isNil(spec.seLinuxMount)) spec.seLinuxMount = false
  // VolumeLimitScaling: beta on by default from 1.37
  if (env.minor >= 37 && isNil(spec.preventPodSchedulingIfMissing)) spec.preventPodSchedulingIfMissing = false
}

// --- admissionregistration/v1

function SetDefaults_ValidatingWebhook(o: JSONObject): void {
  if (isNil(o.failurePolicy)) o.failurePolicy = 'Fail'
  if (isNil(o.matchPolicy)) o.matchPolicy = 'Equivalent'
  if (isNil(o.namespaceSelector)) o.namespaceSelector = {}
  if (isNil(o.objectSelector)) o.objectSelector = {}
  if (isNil(o.timeoutSeconds)) o.timeoutSeconds = 10
}

function SetDefaults_MutatingWebhook(o: JSONObject): void {
  SetDefaults_ValidatingWebhook(o)
  if (isNil(o.reinvocationPolicy)) o.reinvocationPolicy = 'Never'
}

function SetDefaults_Rule(o: JSONObject): void {
  if (isNil(o.scope)) o.scope = '*'
}

function SetDefaults_ServiceReference(o: JSONObject): void {
  if (isNil(o.port)) o.port = 443
}

function SetDefaults_FailurePolicy(o: JSONObject): void {
  if (isNil(o.failurePolicy)) o.failurePolicy = 'Fail'
}

function SetDefaults_MatchResources(o: JSONObject): void {
  if (isNil(o.matchPolicy)) o.matchPolicy = 'Equivalent'
  if (isNil(o.namespaceSelector)) o.namespaceSelector = {}
  if (isNil(o.objectSelector)) o.objectSelector = {}
}

// --- rbac/v1

function SetDefaults_RoleBinding(o: JSONObject): void {
  const ref = obj(o, 'roleRef')
  if (isZero(ref.apiGroup)) ref.apiGroup = 'rbac.authorization.k8s.io'
}

function SetDefaults_Subject(o: JSONObject): void {
  if (isZero(o.apiGroup) && (o.kind === 'User' || o.kind === 'Group')) o.apiGroup = 'rbac.authorization.k8s.io'
}

// --- resource/v1 (pkg/apis/resource/v1/defaults.go; DeviceToleration's operator is a `+default`)

/** SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest: ExactCount, and then one device. */
function SetDefaults_ExactDeviceRequest(o: JSONObject): void {
  if (isZero(o.allocationMode)) o.allocationMode = 'ExactCount'
  if (o.allocationMode === 'ExactCount' && isZero(o.count)) o.count = 1
}

/** SetDefaults_DeviceTaint: the time of the request, truncated to the second. */
function SetDefaults_DeviceTaint(o: JSONObject): void {
  if (isNil(o.timeAdded)) o.timeAdded = `${new Date().toISOString().slice(0, 19)}Z`
}

// --- flowcontrol/v1 (pkg/apis/flowcontrol/v1/defaults.go)

function SetDefaults_FlowSchemaSpec(o: JSONObject): void {
  if (isZero(o.matchingPrecedence)) o.matchingPrecedence = 1000
}

function SetDefaults_ExemptPriorityLevelConfiguration(o: JSONObject): void {
  if (isNil(o.nominalConcurrencyShares)) o.nominalConcurrencyShares = 0
  if (isNil(o.lendablePercent)) o.lendablePercent = 0
}

function SetDefaults_LimitedPriorityLevelConfiguration(o: JSONObject): void {
  if (isNil(o.nominalConcurrencyShares)) o.nominalConcurrencyShares = 30
  if (isNil(o.lendablePercent)) o.lendablePercent = 0
}

function SetDefaults_QueuingConfiguration(o: JSONObject): void {
  if (isZero(o.handSize)) o.handSize = 8
  if (isZero(o.queues)) o.queues = 64
  if (isZero(o.queueLengthLimit)) o.queueLengthLimit = 50
}

/** Type → its SetDefaults_ function, by Go struct id (gotypes.ts). */
const SET_DEFAULTS: Readonly<Record<string, SetDefaults>> = {
  'core/v1.Volume': SetDefaults_Volume,
  'core/v1.Container': SetDefaults_Container,
  'core/v1.EphemeralContainer': SetDefaults_Container,
  'core/v1.Service': SetDefaults_Service,
  'core/v1.Pod': SetDefaults_Pod,
  'core/v1.PodStatus': SetDefaults_PodStatus,
  'core/v1.PodSpec': SetDefaults_PodSpec,
  'core/v1.Probe': SetDefaults_Probe,
  'core/v1.SecretVolumeSource': defaultMode(0o644),
  'core/v1.ConfigMapVolumeSource': defaultMode(0o644),
  'core/v1.DownwardAPIVolumeSource': defaultMode(0o644),
  'core/v1.ProjectedVolumeSource': defaultMode(0o644),
  'core/v1.Secret': SetDefaults_Secret,
  'core/v1.ServiceAccountTokenProjection': SetDefaults_ServiceAccountTokenProjection,
  'core/v1.PersistentVolume': SetDefaults_PersistentVolume,
  'core/v1.PersistentVolumeClaim': SetDefaults_PersistentVolumeClaim,
  'core/v1.PersistentVolumeClaimSpec': SetDefaults_PersistentVolumeClaimSpec,
  'core/v1.Endpoints': SetDefaults_Endpoints,
  'core/v1.HTTPGetAction': SetDefaults_HTTPGetAction,
  'core/v1.Namespace': SetDefaults_Namespace,
  'core/v1.NamespaceStatus': SetDefaults_NamespaceStatus,
  'core/v1.NodeStatus': SetDefaults_NodeStatus,
  'core/v1.ObjectFieldSelector': SetDefaults_ObjectFieldSelector,
  'core/v1.LimitRangeItem': SetDefaults_LimitRangeItem,
  'core/v1.ConfigMap': SetDefaults_ConfigMap,
  'core/v1.HostPathVolumeSource': SetDefaults_HostPathVolumeSource,
  'core/v1.ReplicationController': SetDefaults_ReplicationController,
  'apps/v1.Deployment': SetDefaults_Deployment,
  'apps/v1.DaemonSet': SetDefaults_DaemonSet,
  'apps/v1.StatefulSet': SetDefaults_StatefulSet,
  'apps/v1.ReplicaSet': SetDefaults_ReplicaSet,
  'batch/v1.Job': SetDefaults_Job,
  'batch/v1.CronJob': SetDefaults_CronJob,
  'batch/v1.PodFailurePolicyOnPodConditionsPattern': SetDefaults_PodFailurePolicyOnPodConditionsPattern,
  'networking/v1.NetworkPolicyPort': SetDefaults_NetworkPolicyPort,
  'networking/v1.NetworkPolicy': SetDefaults_NetworkPolicy,
  'networking/v1.IngressClass': SetDefaults_IngressClass,
  'autoscaling/v2.HorizontalPodAutoscaler': SetDefaults_HorizontalPodAutoscaler,
  'autoscaling/v1.HorizontalPodAutoscaler': SetDefaults_HorizontalPodAutoscalerV1,
  'discovery/v1.EndpointPort': SetDefaults_EndpointPort,
  'scheduling/v1.PriorityClass': SetDefaults_PriorityClass,
  'storage/v1.StorageClass': SetDefaults_StorageClass,
  'storage/v1.CSIDriver': SetDefaults_CSIDriver,
  'admissionregistration/v1.ValidatingWebhook': SetDefaults_ValidatingWebhook,
  'admissionregistration/v1.MutatingWebhook': SetDefaults_MutatingWebhook,
  'admissionregistration/v1.Rule': SetDefaults_Rule,
  'admissionregistration/v1.RuleWithOperations': SetDefaults_Rule,
  'admissionregistration/v1.NamedRuleWithOperations': SetDefaults_Rule,
  'admissionregistration/v1.ServiceReference': SetDefaults_ServiceReference,
  // kube-aggregator pkg/apis/apiregistration/v1/defaults.go SetDefaults_ServiceReference: the same port 443
  'apiregistration/v1.ServiceReference': SetDefaults_ServiceReference,
  'admissionregistration/v1.ValidatingAdmissionPolicySpec': SetDefaults_FailurePolicy,
  'admissionregistration/v1.MutatingAdmissionPolicySpec': SetDefaults_FailurePolicy,
  'admissionregistration/v1.MatchResources': SetDefaults_MatchResources,
  'rbac/v1.RoleBinding': SetDefaults_RoleBinding,
  'rbac/v1.ClusterRoleBinding': SetDefaults_RoleBinding,
  'rbac/v1.Subject': SetDefaults_Subject,
  'resource/v1.ExactDeviceRequest': SetDefaults_ExactDeviceRequest,
  'resource/v1.DeviceSubRequest': SetDefaults_ExactDeviceRequest,
  'resource/v1.DeviceTaint': SetDefaults_DeviceTaint,
  'flowcontrol/v1.FlowSchemaSpec': SetDefaults_FlowSchemaSpec,
  'flowcontrol/v1.ExemptPriorityLevelConfiguration': SetDefaults_ExemptPriorityLevelConfiguration,
  'flowcontrol/v1.LimitedPriorityLevelConfiguration': SetDefaults_LimitedPriorityLevelConfiguration,
  'flowcontrol/v1.QueuingConfiguration': SetDefaults_QueuingConfiguration,
}

/** SetDefaults_ResourceList: every quantity rounded up to milli scale (RoundUp(-3)), written canonically. */
function SetDefaults_ResourceList(m: JSONObject): void {
  for (const k of Object.keys(m)) {
    const v = m[k]
    if (typeof v !== 'string') continue
    const up = roundedUp(v)
    if (up !== undefined) m[k] = up
  }
}

/** Quantity texts → the text rounded up to milli scale, or undefined when unchanged (the same few values recur). */
const roundedQuantities = new BoundedMemo<string, string | undefined>(4096)
const roundedUp = (v: string): string | undefined => roundedQuantities.answer(v, computeRoundedUp)
function computeRoundedUp(v: string): string | undefined {
  let out: string | undefined
  const q = parseQuantity(v)
  if (typeof q !== 'string') {
    const r = q.representation
    if (r.kind === 'int64' && r.scale < -3) {
      const div = 10n ** BigInt(-3 - r.scale)
      const neg = r.value < 0n
      const a = neg ? -r.value : r.value
      let up = a / div
      if (up * div !== a) up += 1n
      out = newScaledQuantity(neg ? -up : up, -3, q.format).toString()
    }
  }
  return out
}

function sortKeys(o: JSONObject, k: string): void {
  const m = o[k]
  if (!isObject(m)) return
  const sorted: JSONObject = {}
  for (const key of sortedKeys(m)) setOwn(sorted, key, m[key])
  o[k] = sorted
}

type Defaulter = (v: unknown, env: DefaultEnv) => void

const defaulters = new Map<string, Defaulter | null>()
const building = new Set<string>()

/** The defaulter of a node: undefined when nothing under it has defaults. */
function defaulterOf(t: TypeNode): Defaulter | undefined {
  if (typeof t === 'string') return structDefaulter(t)
  switch (t[0]) {
    case 'p':
      return defaulterOf(t[1])
    case 'l': {
      const e = defaulterOf(t[2])
      if (e === undefined) return undefined
      return (v, env) => {
        if (Array.isArray(v)) for (const x of v) e(x, env)
      }
    }
    case 'm': {
      if (t[1] === 'v1.ResourceList') return (v) => isObject(v) && SetDefaults_ResourceList(v)
      const e = defaulterOf(t[3])
      if (e === undefined) return undefined
      return (v, env) => {
        if (isObject(v)) for (const k of Object.keys(v)) e(v[k], env)
      }
    }
    default:
      return undefined
  }
}

function structDefaulter(id: string): Defaulter | undefined {
  const known = defaulters.get(id)
  if (known !== undefined) return known ?? undefined
  if (building.has(id)) {
    // a recursive type: defer to the finished defaulter
    return (v, env) => defaulters.get(id)?.(v, env)
  }
  building.add(id)
  const info = structInfo(id)
  const own = SET_DEFAULTS[id]
  const steps: {
    name: string
    hasDefault: boolean
    /** A pointer: defaulted when nil; else when zero (or equal to the type's marshalled zero). */
    pointer: boolean
    zero: unknown
    value: unknown
    /** The default is an object or array: copied for each object. */
    clone: boolean
    sub?: Defaulter
  }[] = []
  for (const [name, type] of info.fields) {
    const hasDefault = info.defaults !== undefined && Object.hasOwn(info.defaults, name)
    const sub = defaulterOf(type)
    if (hasDefault || sub !== undefined) {
      const value = hasDefault ? info.defaults?.[name] : undefined
      const pointer = typeof type !== 'string' && type[0] === 'p'
      steps.push({
        name,
        hasDefault,
        pointer,
        // zeroOf of a struct is a fresh object, equal to no value: only primitives compare
        zero: hasDefault && !pointer && typeof type !== 'string' ? zeroOf(type) : undefined,
        value,
        clone: typeof value === 'object' && value !== null,
        ...(sub ? { sub } : {}),
      })
    }
  }
  building.delete(id)
  let d: Defaulter | undefined
  if (own !== undefined || steps.length > 0) {
    d = (v, env) => {
      if (!isObject(v)) return
      if (own !== undefined) own(v, env)
      for (const s of steps) {
        if (s.hasDefault) {
          const cur = v[s.name]
          const zero = s.pointer ? isNil(cur) : isZero(cur) || (s.zero !== undefined && cur === s.zero)
          if (zero) v[s.name] = s.clone ? structuredClone(s.value) : s.value
        }
        if (s.sub !== undefined) {
          const x = v[s.name]
          if (x !== undefined && x !== null) s.sub(x, env)
        }
      }
    }
  }
  defaulters.set(id, d ?? null)
  return d
}

/** Applies the scheme's defaults for the struct `id` to a decoded object (mutated). */
export function applyBuiltinDefaults(id: string, object: JSONObject, env: DefaultEnv): void {
  structDefaulter(id)?.(object, env)
}
