import type { FeatureGates } from '../kube/feature-gates.js'
import { isObject as isObj, type JSONObject } from '../kube/values/json.js'

// A pod spec's fields whose feature gate is off in the target release, dropped as the strategies of the
// pod-bearing kinds drop them in PrepareForCreate / PrepareForUpdate (kubernetes v1.37.2 pkg/api/pod/util.go
// DropDisabledPodFields, DropDisabledTemplateFields; the gates' defaults per release: src/kube/feature-gates.ts),
// before the strategy's validation and validating admission: a dropped field is neither validated nor seen
// by the policies, and is not stored. On update most fields are kept when the old object already uses
// them (the `…InUse(old)` checks), so an object written while the gate was on stays writable. Works on the
// decoded v1 object in place; a Go nil is an absent key (the fields are omitempty).

const NONE: readonly JSONObject[] = []
/** The objects of a list (callers only read the list): the list itself when all are objects, as usual. */
const objects = (v: unknown): readonly JSONObject[] =>
  Array.isArray(v) ? (v.every(isObj) ? (v as JSONObject[]) : v.filter(isObj)) : NONE
const nonEmpty = (v: unknown): boolean =>
  Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : false

type Spec = JSONObject | undefined

/** ContainerIter with AllContainers: init containers, then containers, then ephemeral containers. */
function allContainers(spec: Spec): readonly JSONObject[] {
  if (spec === undefined) return []
  // the common pod: regular containers only, all objects; their list itself serves (callers only read it)
  const cs = spec.containers
  if (
    spec.initContainers === undefined &&
    spec.ephemeralContainers === undefined &&
    Array.isArray(cs) &&
    cs.every(isObj)
  )
    return cs as JSONObject[]
  return [...objects(spec.initContainers), ...objects(spec.containers), ...objects(spec.ephemeralContainers)]
}

const someContainer = (spec: Spec, f: (c: JSONObject) => boolean): boolean => allContainers(spec).some(f)
const volumes = (spec: Spec): readonly JSONObject[] => objects(spec?.volumes)
const projectedSources = (spec: Spec): JSONObject[] =>
  volumes(spec).flatMap((v) => (isObj(v.projected) ? objects(v.projected.sources) : []))
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const
const HANDLERS = ['postStart', 'preStop'] as const
/** Whether `f` holds for a probe of `c` (liveness, readiness, startup), without a list built per container. */
function someProbe(c: JSONObject, f: (p: JSONObject) => boolean): boolean {
  for (const k of PROBES) {
    const p = c[k]
    if (isObj(p) && f(p)) return true
  }
  return false
}
/** Whether `f` holds for an httpGet of `c`'s probes, then of its lifecycle handlers (postStart, preStop). */
function someHTTPGet(c: JSONObject, f: (h: JSONObject) => boolean): boolean {
  if (someProbe(c, (p) => isObj(p.httpGet) && f(p.httpGet))) return true
  const lifecycle = c.lifecycle
  if (!isObj(lifecycle)) return false
  for (const k of HANDLERS) {
    const h = lifecycle[k]
    if (isObj(h) && isObj(h.httpGet) && f(h.httpGet)) return true
  }
  return false
}

/** DropDisabledPodFields: a Pod's spec and annotations (its status is the old one's, or reset, on a write). */
export function DropDisabledPodFields(pod: JSONObject, oldPod: JSONObject | undefined, on: FeatureGates): void {
  dropDisabledFields(pod, oldPod, on)
}

/** DropDisabledTemplateFields: a pod template of a workload. */
export function DropDisabledTemplateFields(template: unknown, oldTemplate: unknown, on: FeatureGates): void {
  if (!isObj(template)) return
  dropDisabledFields(template, isObj(oldTemplate) ? oldTemplate : undefined, on)
}

/** dropDisabledFields of a pod or template (its `spec` and `metadata.annotations`). */
function dropDisabledFields(pod: JSONObject, oldPod: JSONObject | undefined, on: FeatureGates): void {
  if (!isObj(pod.spec)) pod.spec = {}
  const spec = pod.spec as JSONObject
  const old = isObj(oldPod?.spec) ? oldPod.spec : undefined

  if (!on('UserNamespacesSupport') && !hostUsersInUse(old)) delete spec.hostUsers
  if (!on('SupplementalGroupsPolicy') && !supplementalGroupsPolicyInUse(old) && isObj(spec.securityContext))
    delete spec.securityContext.supplementalGroupsPolicy

  if (!on('PodLevelResources') && !podLevelResourcesInUse(old)) delete spec.resources
  dropDisabledProcMountField(spec, old, on)
  dropDisabledNodeInclusionPolicyFields(spec, old, on)
  if (!on('MatchLabelKeysInPodTopologySpread') && !matchLabelKeysInTopologySpreadInUse(old))
    for (const c of objects(spec.topologySpreadConstraints)) delete c.matchLabelKeys
  dropDisabledMatchLabelKeysFieldInPodAffinity(spec, old, on)
  if (!on('DynamicResourceAllocation') && !dynamicResourceAllocationInUse(old)) {
    for (const c of allContainers(spec)) if (isObj(c.resources)) delete c.resources.claims
    delete spec.resourceClaims
  }
  if (!on('ClusterTrustBundleProjection') && !clusterTrustBundleProjectionInUse(old))
    for (const s of projectedSources(spec)) delete s.clusterTrustBundle
  if (!on('PodCertificateRequest') && !podCertificateProjectionInUse(old))
    for (const s of projectedSources(spec)) delete s.podCertificate
  if (!on('AtomicWriteVolumeUserFields') && !atomicWriteVolumeUserFieldsInUse(old))
    dropAtomicWriteVolumeUserFields(spec)
  if (!on('GenericWorkload') && !(old?.schedulingGroup !== undefined)) delete spec.schedulingGroup
  if (!on('GRPCContainerProbeTLS') && !grpcProbeModeInUse(old))
    for (const c of allContainers(spec))
      someProbe(c, (p) => {
        if (isObj(p.grpc)) delete p.grpc.mode
        return false
      })
  if (!on('EvictionRequestAPI') && !nonEmpty(old?.evictionResponders)) delete spec.evictionResponders

  // resizePolicy only: spec resources stay (mutable for some controllers; ValidatePodUpdate decides)
  if (!on('InPlacePodVerticalScaling') && !inPlacePodVerticalScalingInUse(old))
    for (const c of allContainers(spec)) delete c.resizePolicy
  if (!on('ContainerRestartRules') && !containerRestartRulesInUse(old)) dropContainerRestartRules(spec)
  if (!on('RecursiveReadOnlyMounts') && !rroInUse(old))
    for (const c of allContainers(spec)) for (const m of objects(c.volumeMounts)) delete m.recursiveReadOnly
  if (!on('EmptyDirVolumeMode') && !emptyDirVolumeModeInUse(old))
    for (const v of volumes(spec)) if (isObj(v.emptyDir)) delete v.emptyDir.mode
  if (!on('VolumeBindMountOptions') && !bindMountOptionsInUse(old))
    for (const c of allContainers(spec)) for (const m of objects(c.volumeMounts)) delete m.bindMountOptions
  if (!on('HostnameOverride') && old?.hostnameOverride === undefined) delete spec.hostnameOverride

  if (!on('EnvFiles') && !podFileKeyRefInUse(old))
    for (const c of allContainers(spec))
      for (const e of objects(c.env)) if (isObj(e.valueFrom)) delete e.valueFrom.fileKeyRef
  dropImageVolumes(spec, old, on)
  if (!on('SELinuxChangePolicy') && !seLinuxChangePolicyInUse(old) && isObj(spec.securityContext))
    delete spec.securityContext.seLinuxChangePolicy
  dropContainerStopSignals(spec, old, on)
  dropHTTPProbeProtocol(spec, old, on)
  const meta = pod.metadata
  if (isObj(meta) && isObj(meta.annotations)) {
    DropInitContainerAnnotations(meta.annotations)
    // an empty map is not marshalled (omitempty)
    if (Object.keys(meta.annotations).length === 0) delete meta.annotations
  }
}

const hostUsersInUse = (s: Spec) => s?.hostUsers !== undefined
const supplementalGroupsPolicyInUse = (s: Spec) =>
  isObj(s?.securityContext) && s.securityContext.supplementalGroupsPolicy !== undefined
const seLinuxChangePolicyInUse = (s: Spec) =>
  isObj(s?.securityContext) && s.securityContext.seLinuxChangePolicy !== undefined

/** podLevelResourcesInUse: non-empty pod-level requests or limits. */
const podLevelResourcesInUse = (s: Spec) =>
  isObj(s?.resources) && (nonEmpty(s.resources.requests) || nonEmpty(s.resources.limits))

/**
 * dropDisabledProcMountField: a procMount given is forced to Default rather than dropped (the field was
 * wrongly forced non-nil in 1.12; dropping it would diff against stored objects).
 */
function dropDisabledProcMountField(spec: JSONObject, old: Spec, on: FeatureGates): void {
  if (on('ProcMountType') || procMountInUse(old)) return
  for (const c of allContainers(spec))
    if (isObj(c.securityContext) && c.securityContext.procMount !== undefined) c.securityContext.procMount = 'Default'
}

const procMountInUse = (s: Spec) =>
  someContainer(
    s,
    (c) =>
      isObj(c.securityContext) &&
      c.securityContext.procMount !== undefined &&
      c.securityContext.procMount !== 'Default',
  )

function dropDisabledNodeInclusionPolicyFields(spec: JSONObject, old: Spec, on: FeatureGates): void {
  if (on('NodeInclusionPolicyInPodTopologySpread')) return
  const inUse = (k: string) => objects(old?.topologySpreadConstraints).some((c) => c[k] !== undefined)
  if (!inUse('nodeTaintsPolicy')) for (const c of objects(spec.topologySpreadConstraints)) delete c.nodeTaintsPolicy
  if (!inUse('nodeAffinityPolicy')) for (const c of objects(spec.topologySpreadConstraints)) delete c.nodeAffinityPolicy
}

const matchLabelKeysInTopologySpreadInUse = (s: Spec) =>
  objects(s?.topologySpreadConstraints).some((c) => nonEmpty(c.matchLabelKeys))

/** The pod (anti-)affinity terms: required ones, then the preferred ones' podAffinityTerm. */
function affinityTerms(s: Spec): JSONObject[] {
  const affinity = isObj(s?.affinity) ? s.affinity : undefined
  const out: JSONObject[] = []
  for (const a of [affinity?.podAffinity, affinity?.podAntiAffinity]) {
    if (!isObj(a)) continue
    out.push(...objects(a.requiredDuringSchedulingIgnoredDuringExecution))
    for (const w of objects(a.preferredDuringSchedulingIgnoredDuringExecution))
      if (isObj(w.podAffinityTerm)) out.push(w.podAffinityTerm)
  }
  return out
}

function dropDisabledMatchLabelKeysFieldInPodAffinity(spec: JSONObject, old: Spec, on: FeatureGates): void {
  if (!isObj(spec.affinity) || on('MatchLabelKeysInPodAffinity')) return
  if (affinityTerms(old).some((t) => nonEmpty(t.matchLabelKeys) || nonEmpty(t.mismatchLabelKeys))) return
  for (const t of affinityTerms(spec)) {
    delete t.matchLabelKeys
    delete t.mismatchLabelKeys
  }
}

/** dynamicResourceAllocationInUse: pod-level claims (container claims need one). */
const dynamicResourceAllocationInUse = (s: Spec) => nonEmpty(s?.resourceClaims)
const clusterTrustBundleProjectionInUse = (s: Spec) =>
  projectedSources(s).some((p) => p.clusterTrustBundle !== undefined)
const podCertificateProjectionInUse = (s: Spec) => projectedSources(s).some((p) => p.podCertificate !== undefined)

/** The volume sources whose items carry `user` (KeyToPath, DownwardAPIVolumeFile) and their `defaultUser`. */
function atomicWriteVolumeUserFieldsInUse(s: Spec): boolean {
  const items = (src: unknown) => (isObj(src) ? objects(src.items).some((i) => i.user !== undefined) : false)
  for (const v of volumes(s)) {
    const src = [v.secret, v.configMap, v.downwardAPI, v.projected].find(isObj)
    if (src === undefined) continue
    if (src.defaultUser !== undefined) return true
    if (src === v.projected) {
      for (const p of objects(src.sources)) {
        const inner = [p.secret, p.downwardAPI, p.configMap].find(isObj)
        if (
          inner !== undefined
            ? items(inner)
            : [p.serviceAccountToken, p.clusterTrustBundle, p.podCertificate].some(
                (x) => isObj(x) && x.user !== undefined,
              )
        )
          return true
      }
    } else if (items(src)) return true
  }
  return false
}

function dropAtomicWriteVolumeUserFields(spec: JSONObject): void {
  const dropItems = (src: JSONObject) => {
    for (const i of objects(src.items)) delete i.user
  }
  for (const v of volumes(spec)) {
    // the first source set, as the Go switch takes it
    const src = [v.secret, v.configMap, v.downwardAPI, v.projected].find(isObj)
    if (src === undefined) continue
    delete src.defaultUser
    if (src !== v.projected) {
      dropItems(src)
      continue
    }
    for (const p of objects(src.sources)) {
      const inner = [p.secret, p.downwardAPI, p.configMap].find(isObj)
      if (inner !== undefined) dropItems(inner)
      else {
        const own = [p.serviceAccountToken, p.clusterTrustBundle, p.podCertificate].find(isObj)
        if (own !== undefined) delete own.user
      }
    }
  }
}

const grpcProbeModeInUse = (s: Spec) =>
  someContainer(s, (c) => someProbe(c, (p) => isObj(p.grpc) && p.grpc.mode !== undefined))

/** inPlacePodVerticalScalingInUse: a resizePolicy of a container or init container (not ephemeral). */
const inPlacePodVerticalScalingInUse = (s: Spec) =>
  [...objects(s?.initContainers), ...objects(s?.containers)].some((c) => nonEmpty(c.resizePolicy))

/** dropContainerRestartRules: a sidecar's `restartPolicy: Always` stays (SidecarContainers). */
function dropContainerRestartRules(spec: JSONObject): void {
  for (const c of objects(spec.initContainers)) {
    if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') delete c.restartPolicy
    delete c.restartPolicyRules
  }
  for (const c of [...objects(spec.containers), ...objects(spec.ephemeralContainers)]) {
    delete c.restartPolicy
    delete c.restartPolicyRules
  }
}

function containerRestartRulesInUse(old: Spec): boolean {
  if (old === undefined) return false
  for (const c of objects(old.initContainers))
    if ((c.restartPolicy !== undefined && c.restartPolicy !== 'Always') || nonEmpty(c.restartPolicyRules)) return true
  return objects(old.containers).some((c) => c.restartPolicy !== undefined)
}

const rroInUse = (s: Spec) =>
  someContainer(s, (c) => objects(c.volumeMounts).some((m) => m.recursiveReadOnly !== undefined))
const emptyDirVolumeModeInUse = (s: Spec) => volumes(s).some((v) => isObj(v.emptyDir) && v.emptyDir.mode !== undefined)
const bindMountOptionsInUse = (s: Spec) =>
  someContainer(s, (c) => objects(c.volumeMounts).some((m) => nonEmpty(m.bindMountOptions)))
const podFileKeyRefInUse = (s: Spec) =>
  someContainer(s, (c) => objects(c.env).some((e) => isObj(e.valueFrom) && e.valueFrom.fileKeyRef !== undefined))

/** dropImageVolumes: the image volumes go, and every container's mounts of them. */
function dropImageVolumes(spec: JSONObject, old: Spec, on: FeatureGates): void {
  if (on('ImageVolume') || volumes(old).some((v) => v.image !== undefined)) return
  const names = new Set<unknown>()
  const kept: unknown[] = []
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) {
    if (isObj(v) && v.image !== undefined) names.add(v.name)
    else kept.push(v)
  }
  // Go appends to a nil slice: nothing left is nil (omitted)
  if (kept.length > 0) spec.volumes = kept
  else delete spec.volumes
  for (const c of allContainers(spec)) {
    const mounts = (Array.isArray(c.volumeMounts) ? c.volumeMounts : []).filter((m) => !(isObj(m) && names.has(m.name)))
    if (mounts.length > 0) c.volumeMounts = mounts
    else delete c.volumeMounts
  }
}

/** dropContainerStopSignals: a lifecycle left empty goes too. */
function dropContainerStopSignals(spec: JSONObject, old: Spec, on: FeatureGates): void {
  const inUse = someContainer(old, (c) => isObj(c.lifecycle) && c.lifecycle.stopSignal !== undefined)
  if (on('ContainerStopSignals') || inUse) return
  for (const c of allContainers(spec)) {
    if (!isObj(c.lifecycle) || c.lifecycle.stopSignal === undefined) continue
    delete c.lifecycle.stopSignal
    if (c.lifecycle.postStart === undefined && c.lifecycle.preStop === undefined) delete c.lifecycle
  }
}

function dropHTTPProbeProtocol(spec: JSONObject, old: Spec, on: FeatureGates): void {
  const inUse = someContainer(old, (c) => someHTTPGet(c, (h) => h.protocol !== undefined))
  if (on('H2CContainerProbe') || inUse) return
  for (const c of allContainers(spec))
    someHTTPGet(c, (h) => {
      delete h.protocol
      return false
    })
}

/** The legacy alpha / beta init container annotations (removed in 1.8 for spec.initContainers). */
const INIT_CONTAINER_ANNOTATIONS = [
  'pod.beta.kubernetes.io/init-containers',
  'pod.alpha.kubernetes.io/init-containers',
  'pod.beta.kubernetes.io/init-container-statuses',
  'pod.alpha.kubernetes.io/init-container-statuses',
]

export function DropInitContainerAnnotations(annotations: JSONObject): void {
  for (const k of INIT_CONTAINER_ANNOTATIONS) delete annotations[k]
}
