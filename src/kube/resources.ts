import { compareStrings } from '../cel/values/strings.js'
import { lifecycleAt, lifecycleRow } from './api-lifecycle.js'
import {
  RELEASES as GENERATED_RELEASES,
  ROWS as GENERATED_ROWS,
  type GeneratedRow,
} from './builtin-schemas/generated.js'
import type { GroupVersionKind, GroupVersionResource } from './gvk.js'
import { isObject } from './values/json.js'

// The REST mapping of each release: which resources the API server serves, their kinds, scope and
// subresources, and which resources are equivalent (the same objects under another group/version).
// For 1.30 and later it is read from the release's published OpenAPI v3 documents (generated.ts,
// scripts/generate-builtin-schemas.js; builtinResourcesAt); the hand-kept table below (ROWS,
// OTHER_RELEASE_ROWS) serves the releases before 1.30 (API-version answers).
//
// EquivalentResourceRegistry is k8s.io/apimachinery v0.36.3 pkg/runtime/mapper.go. The kube-apiserver
// registers every (resource, subresource) → kind it installs (RegisterKindFor), in installation order:
// core v1 first, then the groups in the order of pkg/controlplane/instance.go's RESTStorageProviders
// (apiserverinternal, authentication, authorization, autoscaling, batch, certificates, coordination,
// discovery, networking, node, policy, rbac, scheduling, storage, storagemigration, flowcontrol, apps,
// admissionregistration, events, resource), then apiextensions (CRDs) and apiregistration
// (aggregator); within a group, versions in priority order. Resources are equivalent when they share
// a storage prefix: all versions of one group/resource, plus core `events` ≡ `events.k8s.io events`
// (kubeapiserver default_storage_factory_builder.go AddCohabitatingResources; the other cohabiting
// pairs were with the extensions group, no longer served).
//
// How ROWS (the hand-kept 1.36 table, for releases before 1.30) was built: from k8s.io/client-go v0.36.3 kubernetes/typed/<group>/<version>:
// each typed client gives the resource (gentype.NewClient…("plural")), the kind, the scope (whether
// its constructor takes a namespace), `status` (UpdateStatus) and the other subresources its methods
// call (.SubResource("scale") with the kind they return: autoscaling/v1 Scale, authentication/v1
// TokenRequest, …); group names from k8s.io/api v0.36.3 register.go. Prerelease versions whose
// APILifecycleRemoved (k8s.io/api zz_generated.prerelease-lifecycle.go) is 1.36 or earlier were
// dropped, as were rbac/v1alpha1 and node/v1alpha1 (client-go keeps clients the server no longer
// serves) and the typed Eviction client (pods/eviction is a subresource, not a resource). Added by hand
// from the API discovery document (kubernetes api/discovery/api__v1.json) and the registries in
// pkg/registry: core `bindings`; the connect and other subresources client-go has no method for
// (pods attach, binding, eviction → policy/v1 Eviction, exec, log, portforward, proxy; nodes/proxy;
// services/proxy; namespaces/finalize); apiextensions.k8s.io/v1 customresourcedefinitions and
// apiregistration.k8s.io/v1 apiservices, which have no typed client in k8s.io/client-go.
//
// Served by default: the GA versions. Since 1.24 new beta APIs are off by default, and by 1.36 no
// pre-1.24 beta is left, so every alpha and beta version here is off unless enabled (RESTMapper's
// runtimeConfig, as kube-apiserver --runtime-config). A beta or alpha API that also needs a feature
// gate is assumed to have it when its version is enabled.

export type { GroupVersionKind, GroupVersionResource }

const EMPTY_GVK: GroupVersionKind = { group: '', version: '', kind: '' }

function grKey(group: string, resource: string): string {
  return `${group}/${resource}`
}

function gvrKey(r: GroupVersionResource): string {
  return `${r.group}/${r.version}/${r.resource}`
}

/** runtime.EquivalentResourceMapper: equivalent resources and the kind of a (resource, subresource). */
export interface EquivalentResourceMapper {
  /**
   * The resources equivalent to this one that have the subresource (the resource itself included), in
   * registration order; empty when the resource is unknown.
   */
  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[]
  /** The kind of the (resource, subresource); the empty GVK when unknown (as Go's zero value). */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind
  /**
   * Changes whenever the mapping does. A mapper that has it lets the policy matcher cache rule
   * outcomes per request shape (without it, every request asks the mapper again).
   */
  readonly generation?: number
}

/** True for the zero GroupVersionKind. */
export function isEmptyGVK(k: GroupVersionKind): boolean {
  return k.group === '' && k.version === '' && k.kind === ''
}

/**
 * runtime.equivalentResourceRegistry (NewEquivalentResourceRegistry / …WithIdentity): resources whose
 * identity key is the same are equivalent; the key function returns '' for the default key, the
 * group/resource.
 */
export class EquivalentResourceRegistry implements EquivalentResourceMapper {
  private readonly resources = new Map<string, Map<string, GroupVersionResource[]>>()
  private readonly kinds = new Map<string, Map<string, GroupVersionKind>>()
  private readonly keys = new Map<string, string>()

  constructor(private readonly keyFunc?: (group: string, resource: string) => string) {}

  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[] {
    const key = this.keys.get(grKey(resource.group, resource.resource))
    if (key === undefined) return []
    return this.resources.get(key)?.get(subresource) ?? []
  }

  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind {
    return this.kinds.get(gvrKey(resource))?.get(subresource) ?? EMPTY_GVK
  }

  registerKindFor(resource: GroupVersionResource, subresource: string, kind: GroupVersionKind): void {
    const rk = gvrKey(resource)
    let ks = this.kinds.get(rk)
    if (ks === undefined) this.kinds.set(rk, (ks = new Map()))
    ks.set(subresource, kind)
    let key = this.keyFunc?.(resource.group, resource.resource) ?? ''
    const gr = grKey(resource.group, resource.resource)
    if (key === '') key = resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`
    this.keys.set(gr, key)
    let bySub = this.resources.get(key)
    if (bySub === undefined) this.resources.set(key, (bySub = new Map()))
    let list = bySub.get(subresource)
    if (list === undefined) bySub.set(subresource, (list = []))
    list.push({ group: resource.group, version: resource.version, resource: resource.resource })
  }
}

/** One served group/version/resource. */
export interface ResourceInfo {
  readonly group: string
  readonly version: string
  readonly resource: string
  readonly kind: string
  readonly namespaced: boolean
  /** Subresource name → the kind a request for it carries (status: the resource's own kind). */
  readonly subresources: Readonly<Record<string, GroupVersionKind>>
  /** False for a CustomResourceDefinition's resource. */
  readonly builtin: boolean
  /** A CRD's spec.names.singular, which discovery serves (built-in resources: the lower-cased kind). */
  readonly singular?: string
}

/** A built-in resource of the table, with whether its version is served by default. */
export interface BuiltinResourceInfo extends ResourceInfo {
  readonly defaultEnabled: boolean
}

const N = true
const C = false
// [groupVersion, kind, resource, namespaced, subresources]; a subresource is `name` (the resource's
// own kind) or `name=group/version/Kind` (`name=v1/Kind` for core).
type Row = readonly [string, string, string, boolean, string?]
// biome-ignore format: a table
const ROWS: readonly Row[] = [
  ['v1', 'Binding', 'bindings', N],
  ['v1', 'ComponentStatus', 'componentstatuses', C],
  ['v1', 'ConfigMap', 'configmaps', N],
  ['v1', 'Endpoints', 'endpoints', N],
  ['v1', 'Event', 'events', N],
  ['v1', 'LimitRange', 'limitranges', N],
  ['v1', 'Namespace', 'namespaces', C, 'finalize status'],
  ['v1', 'Node', 'nodes', C, 'proxy=v1/NodeProxyOptions status'],
  ['v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', N, 'status'],
  ['v1', 'PersistentVolume', 'persistentvolumes', C, 'status'],
  ['v1', 'Pod', 'pods', N, 'attach=v1/PodAttachOptions binding=v1/Binding ephemeralcontainers eviction=policy/v1/Eviction exec=v1/PodExecOptions log portforward=v1/PodPortForwardOptions proxy=v1/PodProxyOptions resize status'],
  ['v1', 'PodTemplate', 'podtemplates', N],
  ['v1', 'ReplicationController', 'replicationcontrollers', N, 'scale=autoscaling/v1/Scale status'],
  ['v1', 'ResourceQuota', 'resourcequotas', N, 'status'],
  ['v1', 'Secret', 'secrets', N],
  ['v1', 'ServiceAccount', 'serviceaccounts', N, 'token=authentication.k8s.io/v1/TokenRequest'],
  ['v1', 'Service', 'services', N, 'proxy=v1/ServiceProxyOptions status'],
  ['internal.apiserver.k8s.io/v1alpha1', 'StorageVersion', 'storageversions', C, 'status'],
  ['authentication.k8s.io/v1', 'SelfSubjectReview', 'selfsubjectreviews', C],
  ['authentication.k8s.io/v1', 'TokenReview', 'tokenreviews', C],
  ['authorization.k8s.io/v1', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', N],
  ['authorization.k8s.io/v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', C],
  ['authorization.k8s.io/v1', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', C],
  ['authorization.k8s.io/v1', 'SubjectAccessReview', 'subjectaccessreviews', C],
  ['autoscaling/v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', N, 'status'],
  ['autoscaling/v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', N, 'status'],
  ['batch/v1', 'CronJob', 'cronjobs', N, 'status'],
  ['batch/v1', 'Job', 'jobs', N, 'status'],
  ['certificates.k8s.io/v1', 'CertificateSigningRequest', 'certificatesigningrequests', C, 'approval status'],
  ['certificates.k8s.io/v1beta1', 'ClusterTrustBundle', 'clustertrustbundles', C],
  ['certificates.k8s.io/v1beta1', 'PodCertificateRequest', 'podcertificaterequests', N, 'status'],
  ['certificates.k8s.io/v1alpha1', 'ClusterTrustBundle', 'clustertrustbundles', C],
  ['coordination.k8s.io/v1', 'Lease', 'leases', N],
  ['coordination.k8s.io/v1beta1', 'LeaseCandidate', 'leasecandidates', N],
  ['coordination.k8s.io/v1alpha2', 'LeaseCandidate', 'leasecandidates', N],
  ['discovery.k8s.io/v1', 'EndpointSlice', 'endpointslices', N],
  ['networking.k8s.io/v1', 'IngressClass', 'ingressclasses', C],
  ['networking.k8s.io/v1', 'Ingress', 'ingresses', N, 'status'],
  ['networking.k8s.io/v1', 'IPAddress', 'ipaddresses', C],
  ['networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies', N],
  ['networking.k8s.io/v1', 'ServiceCIDR', 'servicecidrs', C, 'status'],
  ['networking.k8s.io/v1beta1', 'IPAddress', 'ipaddresses', C],
  ['networking.k8s.io/v1beta1', 'ServiceCIDR', 'servicecidrs', C, 'status'],
  ['node.k8s.io/v1', 'RuntimeClass', 'runtimeclasses', C],
  ['policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', N, 'status'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'clusterrolebindings', C],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', C],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', N],
  ['rbac.authorization.k8s.io/v1', 'Role', 'roles', N],
  ['scheduling.k8s.io/v1', 'PriorityClass', 'priorityclasses', C],
  ['scheduling.k8s.io/v1alpha2', 'PodGroup', 'podgroups', N, 'status'],
  ['scheduling.k8s.io/v1alpha2', 'Workload', 'workloads', N],
  ['storage.k8s.io/v1', 'CSIDriver', 'csidrivers', C],
  ['storage.k8s.io/v1', 'CSINode', 'csinodes', C],
  ['storage.k8s.io/v1', 'CSIStorageCapacity', 'csistoragecapacities', N],
  ['storage.k8s.io/v1', 'StorageClass', 'storageclasses', C],
  ['storage.k8s.io/v1', 'VolumeAttachment', 'volumeattachments', C, 'status'],
  ['storage.k8s.io/v1', 'VolumeAttributesClass', 'volumeattributesclasses', C],
  ['storage.k8s.io/v1beta1', 'VolumeAttributesClass', 'volumeattributesclasses', C],
  ['storagemigration.k8s.io/v1beta1', 'StorageVersionMigration', 'storageversionmigrations', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', 'flowschemas', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', C, 'status'],
  ['apps/v1', 'ControllerRevision', 'controllerrevisions', N],
  ['apps/v1', 'DaemonSet', 'daemonsets', N, 'status'],
  ['apps/v1', 'Deployment', 'deployments', N, 'scale=autoscaling/v1/Scale status'],
  ['apps/v1', 'ReplicaSet', 'replicasets', N, 'scale=autoscaling/v1/Scale status'],
  ['apps/v1', 'StatefulSet', 'statefulsets', N, 'scale=autoscaling/v1/Scale status'],
  ['admissionregistration.k8s.io/v1', 'MutatingAdmissionPolicy', 'mutatingadmissionpolicies', C],
  ['admissionregistration.k8s.io/v1', 'MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings', C],
  ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', C],
  ['admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'validatingadmissionpolicies', C, 'status'],
  ['admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', C],
  ['admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', C],
  ['admissionregistration.k8s.io/v1beta1', 'MutatingAdmissionPolicy', 'mutatingadmissionpolicies', C],
  ['admissionregistration.k8s.io/v1beta1', 'MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings', C],
  ['admissionregistration.k8s.io/v1alpha1', 'MutatingAdmissionPolicy', 'mutatingadmissionpolicies', C],
  ['admissionregistration.k8s.io/v1alpha1', 'MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings', C],
  ['events.k8s.io/v1', 'Event', 'events', N],
  ['resource.k8s.io/v1', 'DeviceClass', 'deviceclasses', C],
  ['resource.k8s.io/v1', 'ResourceClaim', 'resourceclaims', N, 'status'],
  ['resource.k8s.io/v1', 'ResourceClaimTemplate', 'resourceclaimtemplates', N],
  ['resource.k8s.io/v1', 'ResourceSlice', 'resourceslices', C],
  ['resource.k8s.io/v1beta2', 'DeviceClass', 'deviceclasses', C],
  ['resource.k8s.io/v1beta2', 'DeviceTaintRule', 'devicetaintrules', C, 'status'],
  ['resource.k8s.io/v1beta2', 'ResourceClaim', 'resourceclaims', N, 'status'],
  ['resource.k8s.io/v1beta2', 'ResourceClaimTemplate', 'resourceclaimtemplates', N],
  ['resource.k8s.io/v1beta2', 'ResourceSlice', 'resourceslices', C],
  ['resource.k8s.io/v1beta1', 'DeviceClass', 'deviceclasses', C],
  ['resource.k8s.io/v1beta1', 'ResourceClaim', 'resourceclaims', N, 'status'],
  ['resource.k8s.io/v1beta1', 'ResourceClaimTemplate', 'resourceclaimtemplates', N],
  ['resource.k8s.io/v1beta1', 'ResourceSlice', 'resourceslices', C],
  ['resource.k8s.io/v1alpha3', 'DeviceTaintRule', 'devicetaintrules', C, 'status'],
  ['resource.k8s.io/v1alpha3', 'ResourcePoolStatusRequest', 'resourcepoolstatusrequests', C, 'status'],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'customresourcedefinitions', C, 'status'],
  ['apiregistration.k8s.io/v1', 'APIService', 'apiservices', C, 'status'],
]

// Resources kube-apiserver 1.16 … 1.35 served that the 1.36 table lacks (removed since), and those
// 1.37 adds. Same columns as ROWS. Sources, per row block: k8s.io/client-go typed clients
// (kubernetes/typed/<group>/<version>, read as for ROWS): master @ 32ce75a7 (1.37 pre-release) where
// the client is still there; otherwise the last client-go release that had it (named; k8s.io/client-go history). A GVK is served at a release as
// the lifecycle table (api-lifecycle.ts) says; removals up to 1.16 are not listed (no supported
// release serves them).
// biome-ignore format: a table
const OTHER_RELEASE_ROWS: readonly Row[] = [
  // client-go master: apps, batch, certificates, coordination, discovery, extensions, networking,
  // node, policy, rbac, scheduling, storage, flowcontrol, admissionregistration, events, lifecycle
  ['autoscaling/v2beta2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', N, 'status'], // client-go v0.35
  ['autoscaling/v2beta1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', N, 'status'], // client-go v0.35
  ['batch/v1beta1', 'CronJob', 'cronjobs', N, 'status'],
  ['certificates.k8s.io/v1', 'ClusterTrustBundle', 'clustertrustbundles', C],
  ['certificates.k8s.io/v1', 'PodCertificateRequest', 'podcertificaterequests', N, 'status'],
  ['certificates.k8s.io/v1beta1', 'CertificateSigningRequest', 'certificatesigningrequests', C, 'approval status'],
  ['certificates.k8s.io/v1alpha1', 'PodCertificateRequest', 'podcertificaterequests', N, 'status'], // client-go v0.34
  ['coordination.k8s.io/v1beta1', 'Lease', 'leases', N],
  ['coordination.k8s.io/v1alpha1', 'LeaseCandidate', 'leasecandidates', N], // client-go v0.31
  ['discovery.k8s.io/v1beta1', 'EndpointSlice', 'endpointslices', N],
  // extensions registers before networking (pkg/controlplane instance.go RESTStorageProviders, release-1.21)
  ['extensions/v1beta1', 'Ingress', 'ingresses', N, 'status'],
  ['networking.k8s.io/v1beta1', 'Ingress', 'ingresses', N, 'status'],
  ['networking.k8s.io/v1beta1', 'IngressClass', 'ingressclasses', C],
  ['networking.k8s.io/v1alpha1', 'ClusterCIDR', 'clustercidrs', C], // client-go v0.28
  ['networking.k8s.io/v1alpha1', 'IPAddress', 'ipaddresses', C], // client-go v0.33
  ['networking.k8s.io/v1alpha1', 'ServiceCIDR', 'servicecidrs', C, 'status'], // client-go v0.33
  ['node.k8s.io/v1beta1', 'RuntimeClass', 'runtimeclasses', C],
  ['policy/v1beta1', 'PodDisruptionBudget', 'poddisruptionbudgets', N, 'status'],
  ['policy/v1beta1', 'PodSecurityPolicy', 'podsecuritypolicies', C], // client-go v0.28
  ['rbac.authorization.k8s.io/v1beta1', 'ClusterRoleBinding', 'clusterrolebindings', C],
  ['rbac.authorization.k8s.io/v1beta1', 'ClusterRole', 'clusterroles', C],
  ['rbac.authorization.k8s.io/v1beta1', 'RoleBinding', 'rolebindings', N],
  ['rbac.authorization.k8s.io/v1beta1', 'Role', 'roles', N],
  ['scheduling.k8s.io/v1beta1', 'PriorityClass', 'priorityclasses', C],
  ['scheduling.k8s.io/v1beta1', 'PodGroup', 'podgroups', N, 'status'],
  ['scheduling.k8s.io/v1beta1', 'Workload', 'workloads', N],
  ['storage.k8s.io/v1beta1', 'CSIDriver', 'csidrivers', C],
  ['storage.k8s.io/v1beta1', 'CSINode', 'csinodes', C],
  ['storage.k8s.io/v1beta1', 'CSIStorageCapacity', 'csistoragecapacities', N],
  ['storage.k8s.io/v1beta1', 'StorageClass', 'storageclasses', C],
  ['storage.k8s.io/v1beta1', 'VolumeAttachment', 'volumeattachments', C, 'status'],
  ['storage.k8s.io/v1alpha1', 'CSIStorageCapacity', 'csistoragecapacities', N],
  ['storage.k8s.io/v1alpha1', 'VolumeAttachment', 'volumeattachments', C, 'status'],
  ['storage.k8s.io/v1alpha1', 'VolumeAttributesClass', 'volumeattributesclasses', C],
  ['storagemigration.k8s.io/v1', 'StorageVersionMigration', 'storageversionmigrations', C, 'status'],
  ['storagemigration.k8s.io/v1alpha1', 'StorageVersionMigration', 'storageversionmigrations', C, 'status'], // client-go v0.34
  ['flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', 'flowschemas', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1beta3', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1beta2', 'FlowSchema', 'flowschemas', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1beta2', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1beta1', 'FlowSchema', 'flowschemas', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1beta1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', C, 'status'],
  ['flowcontrol.apiserver.k8s.io/v1alpha1', 'FlowSchema', 'flowschemas', C, 'status'], // client-go v0.28
  ['flowcontrol.apiserver.k8s.io/v1alpha1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', C, 'status'], // client-go v0.28
  ['admissionregistration.k8s.io/v1beta1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', C],
  ['admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', 'validatingadmissionpolicies', C, 'status'],
  ['admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', C],
  ['admissionregistration.k8s.io/v1beta1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', C],
  ['admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicy', 'validatingadmissionpolicies', C, 'status'],
  ['admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', C],
  ['events.k8s.io/v1beta1', 'Event', 'events', N],
  ['resource.k8s.io/v1', 'DeviceTaintRule', 'devicetaintrules', C, 'status'],
  // client-go v0.33
  ['resource.k8s.io/v1alpha3', 'DeviceClass', 'deviceclasses', C],
  ['resource.k8s.io/v1alpha3', 'ResourceClaim', 'resourceclaims', N, 'status'],
  ['resource.k8s.io/v1alpha3', 'ResourceClaimTemplate', 'resourceclaimtemplates', N],
  ['resource.k8s.io/v1alpha3', 'ResourceSlice', 'resourceslices', C],
  ['lifecycle.k8s.io/v1alpha1', 'Eviction', 'evictions', N, 'status'],
  ['lifecycle.k8s.io/v1alpha1', 'EvictionRequest', 'evictionrequests', N, 'status'],
  // apiextensions-apiserver / kube-aggregator v1beta1 (served until 1.22, as their v1)
  ['apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition', 'customresourcedefinitions', C, 'status'],
  ['apiregistration.k8s.io/v1beta1', 'APIService', 'apiservices', C, 'status'],
]

function parseGV(gv: string): [string, string] {
  const i = gv.indexOf('/')
  return i < 0 ? ['', gv] : [gv.slice(0, i), gv.slice(i + 1)]
}

function isGA(version: string): boolean {
  return /^v\d+$/.test(version)
}

function toInfo([gv, kind, resource, namespaced, subs]: Row, defaultEnabled: boolean): BuiltinResourceInfo {
  const [group, version] = parseGV(gv)
  const subresources: Record<string, GroupVersionKind> = {}
  for (const s of subs ? subs.split(' ') : []) {
    const eq = s.indexOf('=')
    if (eq < 0) {
      subresources[s] = { group, version, kind }
      continue
    }
    const target = s.slice(eq + 1)
    const slash = target.lastIndexOf('/')
    const [g, v] = parseGV(target.slice(0, slash))
    subresources[s.slice(0, eq)] = { group: g, version: v, kind: target.slice(slash + 1) }
  }
  return { group, version, resource, kind, namespaced, subresources, builtin: true, defaultEnabled }
}

/**
 * Registration order of the groups (pkg/controlplane/instance.go RESTStorageProviders, then
 * apiextensions and apiregistration): a group not listed (a new one) goes before apiextensions.k8s.io.
 */
const GROUP_ORDER = [
  '',
  'internal.apiserver.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'extensions',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'apps',
  'admissionregistration.k8s.io',
  'events.k8s.io',
  'resource.k8s.io',
  'lifecycle.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
]

function groupRank(group: string): number {
  const i = GROUP_ORDER.indexOf(group)
  return i >= 0 ? i : GROUP_ORDER.indexOf('apiextensions.k8s.io') - 0.5
}

/**
 * apimachinery version.CompareKubeAwareVersionStrings, highest first: GA before beta before alpha,
 * then the higher major, then the higher minor; versions that do not look like Kubernetes versions
 * after, by name. The scheme's version priority of every built-in group follows it.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v)
    if (m === null) return undefined
    return { major: Number(m[1]), rank: m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, minor: Number(m[3] ?? 0) }
  }
  const x = parse(a)
  const y = parse(b)
  if (x === undefined || y === undefined) {
    if (x !== undefined) return -1
    if (y !== undefined) return 1
    return compareStrings(a, b)
  }
  return y.rank - x.rank || y.major - x.major || y.minor - x.minor
}

/** The rows of a release from its published OpenAPI documents (generated.ts), in registration order. */
function documentRows(release: string): readonly Row[] | undefined {
  const ids = GENERATED_RELEASES[release]
  if (ids === undefined) return undefined
  const rows = ids.map((i) => {
    const [gv, kind, resource, namespaced, subs] = GENERATED_ROWS[i] as GeneratedRow
    return [gv, kind, resource, namespaced, subs === '' ? undefined : subs] as Row
  })
  const key = (r: Row) => parseGV(r[0])
  return rows.sort((a, b) => {
    const [ga, va] = key(a)
    const [gb, vb] = key(b)
    return (
      groupRank(ga) - groupRank(gb) ||
      (ga < gb ? -1 : ga > gb ? 1 : 0) ||
      compareKubeAwareVersions(va, vb) ||
      (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0)
    )
  })
}

/**
 * ROWS and OTHER_RELEASE_ROWS in registration order: a group's other versions after its 1.36 rows;
 * extensions before networking; groups 1.36 lacks before apiextensions.
 */
function allRows(): readonly Row[] {
  const out = [...ROWS]
  const groupOf = (r: Row) => parseGV(r[0])[0]
  for (const r of OTHER_RELEASE_ROWS) {
    const g = groupOf(r)
    let at = -1
    for (let i = 0; i < out.length; i++) if (groupOf(out[i] as Row) === g) at = i + 1
    if (at < 0) {
      const before = g === 'extensions' ? 'networking.k8s.io' : 'apiextensions.k8s.io'
      at = out.findIndex((x) => groupOf(x) === before)
    }
    out.splice(at, 0, r)
  }
  return out
}

/** Off by default: the lifecycle table's enabledByDefault where it has the GVK, else GA only. */
function enabledByDefault(r: Row, minor: number): boolean {
  const row = lifecycleRow(r[0], r[1])
  return row === undefined ? isGA(parseGV(r[0])[1]) : lifecycleAt(row, minor).enabledByDefault
}

const byRelease = new Map<number, readonly BuiltinResourceInfo[]>()

/**
 * The built-in resources a kube-apiserver of `release` (`1.16` … `1.37`) has, in registration order,
 * each with whether default flags serve it.
 *
 * 1.30 and later (the releases with shipped schemas): the resources, kinds, scopes and subresources
 * its published OpenAPI v3 documents declare (api/openapi-spec/v3, generated with every API enabled;
 * src/kube/builtin-schemas/generated.ts); whether default flags serve them is the lifecycle table's
 * enabledByDefault (api-lifecycle.ts: alpha, and betas after KEP-3136), else GA only.
 *
 * Before 1.30: the hand-kept table (ROWS, OTHER_RELEASE_ROWS) with the lifecycle table deciding
 * (introduced, removed, Go type gone, off by default) for the GVKs it has; the others (GA kinds of
 * every release: core v1, batch/v1 Job, …; a few alpha versions without lifecycle data) are as in 1.36.
 */
export function builtinResourcesAt(release: string): readonly BuiltinResourceInfo[] {
  const m = /^1\.(\d+)$/.exec(release)
  if (m === null) throw new RangeError(`unsupported Kubernetes release '${release}' (expected 1.<minor>)`)
  const minor = Number(m[1])
  const cached = byRelease.get(minor)
  if (cached !== undefined) return cached
  const list: BuiltinResourceInfo[] = []
  const fromDocuments = documentRows(release)
  if (fromDocuments !== undefined) {
    for (const r of fromDocuments) list.push(toInfo(r, enabledByDefault(r, minor)))
  } else {
    for (const r of allRows()) {
      const row = lifecycleRow(r[0], r[1])
      if (row === undefined) {
        if (ROWS.includes(r)) list.push(toInfo(r, isGA(parseGV(r[0])[1])))
        continue
      }
      const at = lifecycleAt(row, minor)
      if (at.compiled) list.push(toInfo(r, at.enabledByDefault))
    }
  }
  byRelease.set(minor, list)
  return list
}

/**
 * Every built-in resource kube-apiserver 1.36 can serve, default-enabled or not, in registration
 * order (builtinResourcesAt('1.36'), from its published OpenAPI documents).
 */
export const BUILTIN_RESOURCES: readonly BuiltinResourceInfo[] = builtinResourcesAt('1.36')

/** A CustomResourceDefinition as the REST mapping needs it. */
export interface CRDMapping {
  /** spec.group */
  readonly group: string
  /** spec.names.kind */
  readonly kind: string
  /** spec.names.plural */
  readonly plural: string
  /** spec.names.singular (defaulted to the lower-cased kind when empty) */
  readonly singular?: string
  /** spec.scope === 'Namespaced' */
  readonly namespaced: boolean
  /** The served versions, in spec.versions order (all of them are equivalent). */
  readonly versions: readonly string[]
  /** Subresources of every version: `status`, `scale`. */
  readonly subresources?: readonly string[]
  /** Per-version subresources, overriding `subresources` for the versions listed. */
  readonly versionSubresources?: Readonly<Record<string, readonly string[]>>
}

/**
 * The mapping of a CustomResourceDefinition manifest (apiextensions.k8s.io/v1): served versions in
 * spec.versions order, each with its own subresources (status, scale).
 */
export function crdMappingFromObject(crd: Record<string, unknown>): CRDMapping {
  const spec = isObject(crd['spec']) ? crd['spec'] : {}
  const names = isObject(spec['names']) ? spec['names'] : {}
  const versions: string[] = []
  const versionSubresources: Record<string, readonly string[]> = {}
  for (const v of Array.isArray(spec['versions']) ? spec['versions'] : []) {
    if (!isObject(v) || typeof v['name'] !== 'string' || v['served'] === false) continue
    versions.push(v['name'])
    const subs = isObject(v['subresources']) ? v['subresources'] : {}
    versionSubresources[v['name']] = ['status', 'scale'].filter((s) => isObject(subs[s]))
  }
  return {
    group: String(spec['group'] ?? ''),
    kind: String(names['kind'] ?? ''),
    plural: String(names['plural'] ?? ''),
    ...(typeof names['singular'] === 'string' && names['singular'] !== '' ? { singular: names['singular'] } : {}),
    namespaced: spec['scope'] === 'Namespaced',
    versions,
    versionSubresources,
  }
}

export interface RESTMapperOptions {
  /**
   * Group-versions to serve or not, as kube-apiserver --runtime-config: `group/version` (`v1` or
   * `api/v1` for core) → on/off, and `api/all`, `api/ga`, `api/beta`, `api/alpha`. A specific
   * group-version wins over the api/ keys; `api/<stability>` over `api/all`.
   */
  readonly runtimeConfig?: Readonly<Record<string, boolean>>
  /** CRDs to map from the start (more can be added with addCRD). */
  readonly crds?: readonly CRDMapping[]
  /**
   * The release whose built-in resources are mapped (`1.16` … `1.37`, builtinResourcesAt); without
   * it, the 1.36 table (BUILTIN_RESOURCES).
   */
  readonly release?: string
}

function stability(version: string): 'ga' | 'beta' | 'alpha' {
  return isGA(version) ? 'ga' : version.includes('beta') ? 'beta' : 'alpha'
}

/**
 * The REST mapping kelp works with: the built-in resources kube-apiserver of the release serves (1.36
 * unless `release` says; by default, or as runtimeConfig says), plus the CRDs added at run time. It is the matcher's
 * EquivalentResourceMapper, and maps kinds to resources for the CLI building admission attributes.
 */
export class RESTMapper implements EquivalentResourceMapper {
  private readonly builtins: readonly ResourceInfo[]
  private readonly crds = new Map<string, CRDMapping>()
  private index: {
    registry: EquivalentResourceRegistry
    byGVR: Map<string, ResourceInfo>
    byGVK: Map<string, ResourceInfo[]>
    byLowercaseGVK: Map<string, ResourceInfo>
    all: ResourceInfo[]
  } | null = null

  constructor(options: RESTMapperOptions = {}) {
    const rc = options.runtimeConfig ?? {}
    const enabled = (r: BuiltinResourceInfo): boolean => {
      const gv = r.group === '' ? r.version : `${r.group}/${r.version}`
      const specific = rc[gv] ?? (r.group === '' ? rc[`api/${r.version}`] : undefined)
      return specific ?? rc[`api/${stability(r.version)}`] ?? rc['api/all'] ?? r.defaultEnabled
    }
    const builtins = options.release === undefined ? BUILTIN_RESOURCES : builtinResourcesAt(options.release)
    this.builtins = builtins.filter(enabled).map(({ defaultEnabled: _, ...r }) => r)
    for (const crd of options.crds ?? []) this.addCRD(crd)
  }

  /** Adds (or replaces: same group and plural) a CRD; its served versions become equivalent resources. */
  addCRD(crd: CRDMapping): void {
    this.crds.set(grKey(crd.group, crd.plural), crd)
    this.index = null
    this.changes++
  }

  private changes = 0
  /** EquivalentResourceMapper.generation: counts the additions and removals of CRDs. */
  get generation(): number {
    return this.changes
  }

  /** Removes a CRD added earlier (by group and plural); false when there was none. */
  removeCRD(group: string, plural: string): boolean {
    const had = this.crds.delete(grKey(group, plural))
    if (had) {
      this.index = null
      this.changes++
    }
    return had
  }

  private build() {
    if (this.index) return this.index
    // cohabiting resources (kubeapiserver default_storage_factory_builder.go AddCohabitatingResources):
    // core and events.k8s.io events; networking.k8s.io and extensions ingresses (served until 1.22)
    const registry = new EquivalentResourceRegistry((group, resource) =>
      resource === 'events' && (group === '' || group === 'events.k8s.io')
        ? 'events'
        : resource === 'ingresses' && (group === 'extensions' || group === 'networking.k8s.io')
          ? 'ingresses.networking.k8s.io'
          : '',
    )
    const byGVR = new Map<string, ResourceInfo>()
    const byGVK = new Map<string, ResourceInfo[]>()
    const byLowercaseGVK = new Map<string, ResourceInfo>()
    const all: ResourceInfo[] = []
    const add = (r: ResourceInfo) => {
      const gvr = { group: r.group, version: r.version, resource: r.resource }
      if (byGVR.has(gvrKey(gvr))) return
      byGVR.set(gvrKey(gvr), r)
      all.push(r)
      registry.registerKindFor(gvr, '', { group: r.group, version: r.version, kind: r.kind })
      for (const [sub, kind] of Object.entries(r.subresources)) registry.registerKindFor(gvr, sub, kind)
      const k = `${r.group}/${r.version}/${r.kind}`
      const list = byGVK.get(k)
      if (list) list.push(r)
      else byGVK.set(k, [r])
      const lower = `${r.group}/${r.version}/${r.kind.toLowerCase()}`
      if (lower !== k && !byLowercaseGVK.has(lower)) byLowercaseGVK.set(lower, r)
    }
    for (const r of this.builtins) add(r)
    for (const crd of this.crds.values()) {
      for (const version of crd.versions) {
        const subs = crd.versionSubresources?.[version] ?? crd.subresources ?? []
        const subresources: Record<string, GroupVersionKind> = {}
        for (const s of subs) {
          if (s === 'status') subresources[s] = { group: crd.group, version, kind: crd.kind }
          else if (s === 'scale') subresources[s] = { group: 'autoscaling', version: 'v1', kind: 'Scale' }
        }
        add({
          group: crd.group,
          version,
          resource: crd.plural,
          kind: crd.kind,
          namespaced: crd.namespaced,
          subresources,
          builtin: false,
          ...(crd.singular !== undefined ? { singular: crd.singular } : {}),
        })
      }
    }
    this.index = { registry, byGVR, byGVK, byLowercaseGVK, all }
    return this.index
  }

  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[] {
    return this.build().registry.equivalentResourcesFor(resource, subresource)
  }

  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind {
    return this.build().registry.kindFor(resource, subresource)
  }

  /** The served resource, or undefined. */
  resourceFor(resource: GroupVersionResource): ResourceInfo | undefined {
    return this.build().byGVR.get(gvrKey(resource))
  }

  /**
   * The resources serving a kind (RESTMapping): usually one; a kind served by several resources (none
   * among the built-ins) lists them in registration order.
   */
  resourcesForKind(kind: GroupVersionKind): readonly ResourceInfo[] {
    return this.build().byGVK.get(`${kind.group}/${kind.version}/${kind.kind}`) ?? []
  }

  /**
   * The resource kubectl's discovery mapper finds for a kind written all in lower case (client-go
   * restmapper/discovery.go registers `strings.ToLower(resource.Kind)` beside each kind): kubectl sends the
   * object, and the apiserver refuses it (a built-in kind cannot be decoded; a custom resource's `kind` is
   * invalid). Undefined for any other spelling (`configMap`: no matches for kind).
   */
  resourceForLowercaseKind(kind: GroupVersionKind): ResourceInfo | undefined {
    return this.build().byLowercaseGVK.get(`${kind.group}/${kind.version}/${kind.kind}`)
  }

  /** Every served resource, in registration order (built-ins, then CRDs). */
  resources(): readonly ResourceInfo[] {
    return this.build().all
  }
}
