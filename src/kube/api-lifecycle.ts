// The lifecycle of built-in API versions: one row per GVK with the release it was introduced,
// deprecated and removed in, from the generated APILifecycle*() methods
// (`api:<group>/<version>/zz_generated.prerelease-lifecycle.go`, kubernetes/api master @ 10b39a39,
// i.e. Kubernetes 1.37 pre-release), cross-checked against every release-1.19 … release-1.36
// branch; plus the Deprecated API Migration Guide (kubernetes/website
// content/en/docs/reference/using-api/deprecation-guide.md, newest section v1.32) for what the
// lifecycle data lacks. The data lives here (src/kube) so that the REST mapping of a release
// (resources.ts) can use it; the queries and texts are src/engine/api-versions.ts
// (see ../../docs/api-versions.md).

/** Lifecycle values compiled into some older release branches (they changed, spec §5.4). */
export interface BranchValues {
  /** First and last `release-1.N` branch with these values. */
  readonly from: string
  readonly to: string
  /** `null`: that branch had no value (no deprecation, no removal, no replacement). */
  readonly deprecated?: string | null
  readonly removed?: string | null
  readonly warnReplacement?: string | null
}

export interface ApiVersionRow {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string
  readonly kind: string
  readonly stability: 'alpha' | 'beta' | 'ga'
  /** APILifecycleIntroduced (GA rows: the earlier of it and the guide's "available since"). */
  readonly introduced?: string
  /** APILifecycleDeprecated: the server warns from this release on. */
  readonly deprecated?: string
  /** APILifecycleRemoved: first release that no longer serves it. */
  readonly removed?: string
  /** APILifecycleReplacement, as `group/version Kind`: what the server's warning names. */
  readonly warnReplacement?: string
  /**
   * What to migrate to (`group/version Kind`), when it differs from warnReplacement: the migration
   * guide's replacement, or the GA version of the same kind in k8s.io/api. `null`: nothing.
   */
  readonly replacement?: string | null
  /** Alpha, or beta added after KEP-3136 (beta APIs off by default): served only with --runtime-config. */
  readonly enabledByDefault?: false
  /** Not something one applies from a manifest (subresource body, review-style create-only call). */
  readonly manifest?: false
  /** First release whose k8s.io/api no longer has the Go type (so no server can serve it), when earlier than removed. */
  readonly typeGoneIn?: string
  /** The release whose section of the migration guide lists the removal. */
  readonly guide?: string
  readonly branches?: readonly BranchValues[]
  readonly note?: string
}

const GUIDE_REMOVAL_NOTE =
  'listed by the migration guide, but apps/v1beta1 never registered a ReplicaSet (spec §5.1 N20)'

// biome-ignore format: one row per line reads as a table
export const API_VERSIONS: readonly ApiVersionRow[] = [
  // ── Removed in 1.16 (migration guide § v1.16) ─────────────────────────────────────────────────
  // api:extensions/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'extensions/v1beta1', kind: 'DaemonSet', stability: 'beta', introduced: '1.1', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 DaemonSet', guide: '1.16' },
  { apiVersion: 'extensions/v1beta1', kind: 'Deployment', stability: 'beta', introduced: '1.1', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 Deployment', guide: '1.16' },
  { apiVersion: 'extensions/v1beta1', kind: 'NetworkPolicy', stability: 'beta', introduced: '1.3', deprecated: '1.9', removed: '1.16', warnReplacement: 'networking.k8s.io/v1 NetworkPolicy', guide: '1.16' },
  { apiVersion: 'extensions/v1beta1', kind: 'PodSecurityPolicy', stability: 'beta', introduced: '1.2', deprecated: '1.11', removed: '1.16', warnReplacement: 'policy/v1beta1 PodSecurityPolicy', guide: '1.16' },
  { apiVersion: 'extensions/v1beta1', kind: 'ReplicaSet', stability: 'beta', introduced: '1.2', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 ReplicaSet', guide: '1.16' },
  { apiVersion: 'extensions/v1beta1', kind: 'DeploymentRollback', stability: 'beta', introduced: '1.2', deprecated: '1.8', removed: '1.16', manifest: false },
  { apiVersion: 'extensions/v1beta1', kind: 'Scale', stability: 'beta', introduced: '1.1', deprecated: '1.2', removed: '1.16', manifest: false },
  // api:apps/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'apps/v1beta1', kind: 'Deployment', stability: 'beta', introduced: '1.6', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 Deployment', guide: '1.16' },
  { apiVersion: 'apps/v1beta1', kind: 'StatefulSet', stability: 'beta', introduced: '1.5', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 StatefulSet', guide: '1.16' },
  { apiVersion: 'apps/v1beta1', kind: 'ControllerRevision', stability: 'beta', introduced: '1.7', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 ControllerRevision' },
  { apiVersion: 'apps/v1beta1', kind: 'DeploymentRollback', stability: 'beta', introduced: '1.6', deprecated: '1.8', removed: '1.16', warnReplacement: 'apps/v1 DeploymentRollback', replacement: null, manifest: false },
  { apiVersion: 'apps/v1beta1', kind: 'Scale', stability: 'beta', introduced: '1.6', deprecated: '1.8', removed: '1.16', warnReplacement: 'autoscaling/v1 Scale', manifest: false },
  // migration guide § v1.16 only (no lifecycle data: the kind was never registered)
  { apiVersion: 'apps/v1beta1', kind: 'ReplicaSet', stability: 'beta', removed: '1.16', replacement: 'apps/v1 ReplicaSet', guide: '1.16', note: GUIDE_REMOVAL_NOTE },
  // api:apps/v1beta2/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'apps/v1beta2', kind: 'DaemonSet', stability: 'beta', introduced: '1.8', deprecated: '1.9', removed: '1.16', warnReplacement: 'apps/v1 DaemonSet', guide: '1.16' },
  { apiVersion: 'apps/v1beta2', kind: 'Deployment', stability: 'beta', introduced: '1.8', deprecated: '1.9', removed: '1.16', warnReplacement: 'apps/v1 Deployment', guide: '1.16' },
  { apiVersion: 'apps/v1beta2', kind: 'ReplicaSet', stability: 'beta', introduced: '1.8', deprecated: '1.9', removed: '1.16', warnReplacement: 'apps/v1 ReplicaSet', guide: '1.16' },
  { apiVersion: 'apps/v1beta2', kind: 'StatefulSet', stability: 'beta', introduced: '1.8', deprecated: '1.9', removed: '1.16', warnReplacement: 'apps/v1 StatefulSet', guide: '1.16' },
  { apiVersion: 'apps/v1beta2', kind: 'ControllerRevision', stability: 'beta', introduced: '1.8', deprecated: '1.9', removed: '1.16', warnReplacement: 'apps/v1 ControllerRevision' },
  { apiVersion: 'apps/v1beta2', kind: 'Scale', stability: 'beta', introduced: '1.8', deprecated: '1.9', removed: '1.16', warnReplacement: 'autoscaling/v1 Scale', manifest: false },

  // ── Removed in 1.21 / 1.24 (alpha, lifecycle data only) ───────────────────────────────────────
  // api:flowcontrol/v1alpha1/zz_generated.prerelease-lifecycle.go (release-1.20 … release-1.28; replacement as of release-1.26)
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1alpha1', kind: 'FlowSchema', stability: 'alpha', introduced: '1.18', deprecated: '1.20', removed: '1.21', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema', enabledByDefault: false, branches: [{ from: '1.20', to: '1.22', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema' }] },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1alpha1', kind: 'PriorityLevelConfiguration', stability: 'alpha', introduced: '1.18', deprecated: '1.20', removed: '1.21', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration', enabledByDefault: false, branches: [{ from: '1.20', to: '1.22', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration' }] },
  // api:storage/v1alpha1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'storage.k8s.io/v1alpha1', kind: 'CSIStorageCapacity', stability: 'alpha', introduced: '1.19', deprecated: '1.21', removed: '1.24', warnReplacement: 'storage.k8s.io/v1beta1 CSIStorageCapacity', enabledByDefault: false },
  { apiVersion: 'storage.k8s.io/v1alpha1', kind: 'VolumeAttachment', stability: 'alpha', introduced: '1.9', deprecated: '1.21', removed: '1.24', warnReplacement: 'storage.k8s.io/v1 VolumeAttachment', enabledByDefault: false },

  // ── Removed in 1.22 (migration guide § v1.22) ─────────────────────────────────────────────────
  // api:admissionregistration/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingWebhookConfiguration', stability: 'beta', introduced: '1.9', deprecated: '1.16', removed: '1.22', warnReplacement: 'admissionregistration.k8s.io/v1 MutatingWebhookConfiguration', guide: '1.22' },
  { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingWebhookConfiguration', stability: 'beta', introduced: '1.9', deprecated: '1.16', removed: '1.22', warnReplacement: 'admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration', guide: '1.22' },
  // apiext:pkg/apis/apiextensions/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition', stability: 'beta', deprecated: '1.16', removed: '1.22', warnReplacement: 'apiextensions.k8s.io/v1 CustomResourceDefinition', guide: '1.22' },
  // aggregator:pkg/apis/apiregistration/v1beta1/zz_generated.prerelease-lifecycle.go (master only)
  { apiVersion: 'apiregistration.k8s.io/v1beta1', kind: 'APIService', stability: 'beta', deprecated: '1.19', removed: '1.22', warnReplacement: 'apiregistration.k8s.io/v1 APIService', guide: '1.22' },
  // api:authentication/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', stability: 'beta', introduced: '1.4', deprecated: '1.19', removed: '1.22', warnReplacement: 'authentication.k8s.io/v1 TokenReview', guide: '1.22', manifest: false },
  // api:authorization/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'LocalSubjectAccessReview', stability: 'beta', introduced: '1.2', deprecated: '1.19', removed: '1.22', warnReplacement: 'authorization.k8s.io/v1 LocalSubjectAccessReview', guide: '1.22', manifest: false },
  { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SelfSubjectAccessReview', stability: 'beta', introduced: '1.2', deprecated: '1.19', removed: '1.22', warnReplacement: 'authorization.k8s.io/v1 SelfSubjectAccessReview', guide: '1.22', manifest: false },
  { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SelfSubjectRulesReview', stability: 'beta', introduced: '1.8', deprecated: '1.19', removed: '1.22', warnReplacement: 'authorization.k8s.io/v1 SelfSubjectRulesReview', guide: '1.22', manifest: false },
  { apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', stability: 'beta', introduced: '1.2', deprecated: '1.19', removed: '1.22', warnReplacement: 'authorization.k8s.io/v1 SubjectAccessReview', guide: '1.22', manifest: false },
  // api:certificates/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'certificates.k8s.io/v1beta1', kind: 'CertificateSigningRequest', stability: 'beta', introduced: '1.12', deprecated: '1.19', removed: '1.22', warnReplacement: 'certificates.k8s.io/v1 CertificateSigningRequest', guide: '1.22' },
  // api:coordination/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'coordination.k8s.io/v1beta1', kind: 'Lease', stability: 'beta', introduced: '1.12', deprecated: '1.19', removed: '1.22', warnReplacement: 'coordination.k8s.io/v1 Lease', guide: '1.22' },
  // api:extensions/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'extensions/v1beta1', kind: 'Ingress', stability: 'beta', introduced: '1.1', deprecated: '1.14', removed: '1.22', warnReplacement: 'networking.k8s.io/v1 Ingress', guide: '1.22' },
  // api:networking/v1beta1/zz_generated.prerelease-lifecycle.go (IngressClass: upstream tag names IngressClassList, types.go)
  { apiVersion: 'networking.k8s.io/v1beta1', kind: 'Ingress', stability: 'beta', introduced: '1.14', deprecated: '1.19', removed: '1.22', warnReplacement: 'networking.k8s.io/v1 Ingress', guide: '1.22' },
  { apiVersion: 'networking.k8s.io/v1beta1', kind: 'IngressClass', stability: 'beta', introduced: '1.18', deprecated: '1.19', removed: '1.22', warnReplacement: 'networking.k8s.io/v1 IngressClassList', replacement: 'networking.k8s.io/v1 IngressClass', guide: '1.22' },
  // api:rbac/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'ClusterRole', stability: 'beta', introduced: '1.6', deprecated: '1.17', removed: '1.22', warnReplacement: 'rbac.authorization.k8s.io/v1 ClusterRole', guide: '1.22' },
  { apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'ClusterRoleBinding', stability: 'beta', introduced: '1.6', deprecated: '1.17', removed: '1.22', warnReplacement: 'rbac.authorization.k8s.io/v1 ClusterRoleBinding', guide: '1.22' },
  { apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'Role', stability: 'beta', introduced: '1.6', deprecated: '1.17', removed: '1.22', warnReplacement: 'rbac.authorization.k8s.io/v1 Role', guide: '1.22' },
  { apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'RoleBinding', stability: 'beta', introduced: '1.6', deprecated: '1.17', removed: '1.22', warnReplacement: 'rbac.authorization.k8s.io/v1 RoleBinding', guide: '1.22' },
  // api:scheduling/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PriorityClass', stability: 'beta', introduced: '1.11', deprecated: '1.14', removed: '1.22', warnReplacement: 'scheduling.k8s.io/v1 PriorityClass', guide: '1.22' },
  // api:storage/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'storage.k8s.io/v1beta1', kind: 'CSIDriver', stability: 'beta', introduced: '1.14', deprecated: '1.19', removed: '1.22', warnReplacement: 'storage.k8s.io/v1 CSIDriver', guide: '1.22' },
  { apiVersion: 'storage.k8s.io/v1beta1', kind: 'CSINode', stability: 'beta', introduced: '1.14', deprecated: '1.17', removed: '1.22', warnReplacement: 'storage.k8s.io/v1 CSINode', guide: '1.22' },
  { apiVersion: 'storage.k8s.io/v1beta1', kind: 'StorageClass', stability: 'beta', introduced: '1.4', deprecated: '1.19', removed: '1.22', warnReplacement: 'storage.k8s.io/v1 StorageClass', guide: '1.22' },
  { apiVersion: 'storage.k8s.io/v1beta1', kind: 'VolumeAttachment', stability: 'beta', introduced: '1.10', deprecated: '1.19', removed: '1.22', warnReplacement: 'storage.k8s.io/v1 VolumeAttachment', guide: '1.22' },
  // Webhook payloads (admission.k8s.io/v1beta1 AdmissionReview, apiextensions.k8s.io/v1beta1 ConversionReview) and
  // apidiscovery.k8s.io/v2beta1 APIGroupDiscovery have lifecycle data too but are no REST resources: left out.

  // ── Removed in 1.25 (migration guide § v1.25) ─────────────────────────────────────────────────
  // api:autoscaling/v2beta1/zz_generated.prerelease-lifecycle.go (release-1.35; replacement v2beta2 in release-1.19 … 1.22)
  { apiVersion: 'autoscaling/v2beta1', kind: 'HorizontalPodAutoscaler', stability: 'beta', introduced: '1.8', deprecated: '1.22', removed: '1.25', warnReplacement: 'autoscaling/v2 HorizontalPodAutoscaler', guide: '1.25', branches: [{ from: '1.19', to: '1.22', warnReplacement: 'autoscaling/v2beta2 HorizontalPodAutoscaler' }] },
  // api:batch/v1beta1/zz_generated.prerelease-lifecycle.go (release-1.19/1.20: deprecated 1.22, no replacement)
  { apiVersion: 'batch/v1beta1', kind: 'CronJob', stability: 'beta', introduced: '1.8', deprecated: '1.21', removed: '1.25', warnReplacement: 'batch/v1 CronJob', guide: '1.25', branches: [{ from: '1.19', to: '1.20', deprecated: '1.22', warnReplacement: null }] },
  { apiVersion: 'batch/v1beta1', kind: 'JobTemplate', stability: 'beta', introduced: '1.8', deprecated: '1.22', removed: '1.25', manifest: false },
  // api:discovery/v1beta1/zz_generated.prerelease-lifecycle.go (release-1.19/1.20: deprecated 1.22, no replacement)
  { apiVersion: 'discovery.k8s.io/v1beta1', kind: 'EndpointSlice', stability: 'beta', introduced: '1.16', deprecated: '1.21', removed: '1.25', warnReplacement: 'discovery.k8s.io/v1 EndpointSlice', guide: '1.25', branches: [{ from: '1.19', to: '1.20', deprecated: '1.22', warnReplacement: null }] },
  // api:events/v1beta1/zz_generated.prerelease-lifecycle.go (no replacement tag; guide: events.k8s.io/v1)
  { apiVersion: 'events.k8s.io/v1beta1', kind: 'Event', stability: 'beta', introduced: '1.8', deprecated: '1.22', removed: '1.25', replacement: 'events.k8s.io/v1 Event', guide: '1.25' },
  // api:node/v1beta1/zz_generated.prerelease-lifecycle.go (no replacement tag; guide: node.k8s.io/v1)
  { apiVersion: 'node.k8s.io/v1beta1', kind: 'RuntimeClass', stability: 'beta', introduced: '1.13', deprecated: '1.22', removed: '1.25', replacement: 'node.k8s.io/v1 RuntimeClass', guide: '1.25' },
  // api:policy/v1beta1/zz_generated.prerelease-lifecycle.go (release-1.19/1.20: deprecated 1.22, no replacement)
  { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', stability: 'beta', introduced: '1.5', deprecated: '1.21', removed: '1.25', warnReplacement: 'policy/v1 PodDisruptionBudget', guide: '1.25', branches: [{ from: '1.19', to: '1.20', deprecated: '1.22', warnReplacement: null }] },
  { apiVersion: 'policy/v1beta1', kind: 'PodSecurityPolicy', stability: 'beta', introduced: '1.10', deprecated: '1.21', removed: '1.25', replacement: null, guide: '1.25', note: 'no replacement API: use Pod Security Admission or a third-party admission webhook (guide)', branches: [{ from: '1.19', to: '1.20', deprecated: '1.22' }] },
  { apiVersion: 'policy/v1beta1', kind: 'Eviction', stability: 'beta', introduced: '1.5', deprecated: '1.22', removed: '1.25', replacement: 'policy/v1 Eviction', manifest: false },

  // ── Removed in 1.26 / 1.27 / 1.29 / 1.32 (migration guide § v1.26, v1.27, v1.29, v1.32) ────────
  // api:autoscaling/v2beta2/zz_generated.prerelease-lifecycle.go (release-1.19 … 1.21: D 1.22 / R 1.25; release-1.22: no replacement)
  { apiVersion: 'autoscaling/v2beta2', kind: 'HorizontalPodAutoscaler', stability: 'beta', introduced: '1.12', deprecated: '1.23', removed: '1.26', warnReplacement: 'autoscaling/v2 HorizontalPodAutoscaler', guide: '1.26', branches: [{ from: '1.19', to: '1.21', deprecated: '1.22', removed: '1.25', warnReplacement: null }, { from: '1.22', to: '1.22', warnReplacement: null }] },
  // api:flowcontrol/v1beta1/zz_generated.prerelease-lifecycle.go (replacement: none in release-1.20 … 1.22, v1beta2 in 1.23 … 1.25, v1beta3 from 1.26; guide: v1beta2)
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kind: 'FlowSchema', stability: 'beta', introduced: '1.20', deprecated: '1.23', removed: '1.26', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema', replacement: 'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema', guide: '1.26', branches: [{ from: '1.20', to: '1.22', warnReplacement: null }, { from: '1.23', to: '1.25', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema' }] },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kind: 'PriorityLevelConfiguration', stability: 'beta', introduced: '1.20', deprecated: '1.23', removed: '1.26', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration', replacement: 'flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration', guide: '1.26', branches: [{ from: '1.20', to: '1.22', warnReplacement: null }, { from: '1.23', to: '1.25', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration' }] },
  // api:storage/v1beta1/zz_generated.prerelease-lifecycle.go (replacement from release-1.24)
  { apiVersion: 'storage.k8s.io/v1beta1', kind: 'CSIStorageCapacity', stability: 'beta', introduced: '1.21', deprecated: '1.24', removed: '1.27', warnReplacement: 'storage.k8s.io/v1 CSIStorageCapacity', guide: '1.27' },
  // api:flowcontrol/v1beta2/zz_generated.prerelease-lifecycle.go (replacement from release-1.26)
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'FlowSchema', stability: 'beta', introduced: '1.23', deprecated: '1.26', removed: '1.29', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema', guide: '1.29' },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'PriorityLevelConfiguration', stability: 'beta', introduced: '1.23', deprecated: '1.26', removed: '1.29', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration', guide: '1.29' },
  // api:flowcontrol/v1beta3/zz_generated.prerelease-lifecycle.go (replacement from release-1.29); on by default via
  // k8s:pkg/controlplane/instance.go legacyBetaEnabledByDefaultResources
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', stability: 'beta', introduced: '1.26', deprecated: '1.29', removed: '1.32', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1 FlowSchema', guide: '1.32' },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'PriorityLevelConfiguration', stability: 'beta', introduced: '1.26', deprecated: '1.29', removed: '1.32', warnReplacement: 'flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration', guide: '1.32' },

  // ── Alpha, and betas off by default (KEP-3136): lifecycle data only ───────────────────────────
  // api:networking/v1alpha1/zz_generated.prerelease-lifecycle.go (ClusterCIDR: type gone after release-1.28;
  // IPAddress/ServiceCIDR: after release-1.33)
  { apiVersion: 'networking.k8s.io/v1alpha1', kind: 'ClusterCIDR', stability: 'alpha', introduced: '1.25', deprecated: '1.28', removed: '1.31', enabledByDefault: false, typeGoneIn: '1.29', replacement: null },
  { apiVersion: 'networking.k8s.io/v1alpha1', kind: 'IPAddress', stability: 'alpha', introduced: '1.27', deprecated: '1.30', removed: '1.33', replacement: 'networking.k8s.io/v1 IPAddress', enabledByDefault: false },
  { apiVersion: 'networking.k8s.io/v1alpha1', kind: 'ServiceCIDR', stability: 'alpha', introduced: '1.27', deprecated: '1.30', removed: '1.33', replacement: 'networking.k8s.io/v1 ServiceCIDR', enabledByDefault: false },
  // api:admissionregistration/v1alpha1/zz_generated.prerelease-lifecycle.go (VAP: generated only from release-1.32, so
  // release-1.26 … 1.31 servers had no deprecation for it)
  { apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', stability: 'alpha', introduced: '1.26', deprecated: '1.29', removed: '1.32', replacement: 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy', enabledByDefault: false, branches: [{ from: '1.26', to: '1.31', deprecated: null, removed: null }] },
  { apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicyBinding', stability: 'alpha', introduced: '1.26', deprecated: '1.29', removed: '1.32', replacement: 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding', enabledByDefault: false, branches: [{ from: '1.26', to: '1.31', deprecated: null, removed: null }] },
  { apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'MutatingAdmissionPolicy', stability: 'alpha', introduced: '1.32', deprecated: '1.35', removed: '1.38', replacement: 'admissionregistration.k8s.io/v1 MutatingAdmissionPolicy', enabledByDefault: false },
  { apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'MutatingAdmissionPolicyBinding', stability: 'alpha', introduced: '1.32', deprecated: '1.35', removed: '1.38', replacement: 'admissionregistration.k8s.io/v1 MutatingAdmissionPolicyBinding', enabledByDefault: false },
  // api:admissionregistration/v1beta1/zz_generated.prerelease-lifecycle.go (MAP replacement from release-1.36)
  { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', stability: 'beta', introduced: '1.28', deprecated: '1.31', removed: '1.34', replacement: 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy', enabledByDefault: false },
  { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', stability: 'beta', introduced: '1.28', deprecated: '1.31', removed: '1.34', replacement: 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding', enabledByDefault: false },
  { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingAdmissionPolicy', stability: 'beta', introduced: '1.34', deprecated: '1.37', removed: '1.40', warnReplacement: 'admissionregistration.k8s.io/v1 MutatingAdmissionPolicy', enabledByDefault: false },
  { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingAdmissionPolicyBinding', stability: 'beta', introduced: '1.34', deprecated: '1.37', removed: '1.40', warnReplacement: 'admissionregistration.k8s.io/v1 MutatingAdmissionPolicyBinding', enabledByDefault: false },
  // api:authentication/v1alpha1, v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'authentication.k8s.io/v1alpha1', kind: 'SelfSubjectReview', stability: 'alpha', introduced: '1.26', deprecated: '1.29', removed: '1.32', replacement: 'authentication.k8s.io/v1 SelfSubjectReview', enabledByDefault: false, manifest: false },
  { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview', stability: 'beta', introduced: '1.27', deprecated: '1.30', removed: '1.33', replacement: 'authentication.k8s.io/v1 SelfSubjectReview', enabledByDefault: false, manifest: false },
  // api:storage/v1alpha1, v1beta1/zz_generated.prerelease-lifecycle.go (replacement from release-1.34)
  { apiVersion: 'storage.k8s.io/v1alpha1', kind: 'VolumeAttributesClass', stability: 'alpha', introduced: '1.29', deprecated: '1.32', removed: '1.35', warnReplacement: 'storage.k8s.io/v1 VolumeAttributesClass', enabledByDefault: false, branches: [{ from: '1.29', to: '1.33', warnReplacement: null }] },
  { apiVersion: 'storage.k8s.io/v1beta1', kind: 'VolumeAttributesClass', stability: 'beta', introduced: '1.31', deprecated: '1.34', removed: '1.37', warnReplacement: 'storage.k8s.io/v1 VolumeAttributesClass', enabledByDefault: false },
  // api:storagemigration/v1alpha1 (type gone after release-1.34), v1beta1 (master; release-1.35/1.36: D 1.38 / R 1.41, no replacement)
  { apiVersion: 'storagemigration.k8s.io/v1alpha1', kind: 'StorageVersionMigration', stability: 'alpha', introduced: '1.30', deprecated: '1.33', removed: '1.36', replacement: 'storagemigration.k8s.io/v1 StorageVersionMigration', enabledByDefault: false, typeGoneIn: '1.35' },
  { apiVersion: 'storagemigration.k8s.io/v1beta1', kind: 'StorageVersionMigration', stability: 'beta', introduced: '1.35', deprecated: '1.37', removed: '1.40', warnReplacement: 'storagemigration.k8s.io/v1 StorageVersionMigration', enabledByDefault: false, branches: [{ from: '1.35', to: '1.36', deprecated: '1.38', removed: '1.41', warnReplacement: null }] },
  // api:certificates/v1alpha1/zz_generated.prerelease-lifecycle.go (ClusterTrustBundle: D 1.29 / R 1.32 in release-1.27 … 1.31;
  // PodCertificateRequest: type gone after release-1.34)
  { apiVersion: 'certificates.k8s.io/v1alpha1', kind: 'ClusterTrustBundle', stability: 'alpha', introduced: '1.26', deprecated: '1.34', removed: '1.37', replacement: 'certificates.k8s.io/v1 ClusterTrustBundle', enabledByDefault: false, branches: [{ from: '1.27', to: '1.31', deprecated: '1.29', removed: '1.32' }] },
  { apiVersion: 'certificates.k8s.io/v1alpha1', kind: 'PodCertificateRequest', stability: 'alpha', introduced: '1.34', deprecated: '1.37', removed: '1.40', replacement: 'certificates.k8s.io/v1 PodCertificateRequest', enabledByDefault: false, typeGoneIn: '1.35' },
  // api:certificates/v1beta1/zz_generated.prerelease-lifecycle.go (master; release-1.33 … 1.35: D 1.36 / R 1.39,
  // release-1.36: D 1.37 / R 1.40, PodCertificateRequest release-1.35/1.36: D 1.38 / R 1.41; no replacement before master)
  { apiVersion: 'certificates.k8s.io/v1beta1', kind: 'ClusterTrustBundle', stability: 'beta', introduced: '1.33', deprecated: '1.37', removed: '1.40', warnReplacement: 'certificates.k8s.io/v1 ClusterTrustBundle', enabledByDefault: false, branches: [{ from: '1.33', to: '1.35', deprecated: '1.36', removed: '1.39', warnReplacement: null }, { from: '1.36', to: '1.36', warnReplacement: null }] },
  { apiVersion: 'certificates.k8s.io/v1beta1', kind: 'PodCertificateRequest', stability: 'beta', introduced: '1.35', deprecated: '1.37', removed: '1.40', warnReplacement: 'certificates.k8s.io/v1 PodCertificateRequest', enabledByDefault: false, branches: [{ from: '1.35', to: '1.36', deprecated: '1.38', removed: '1.41', warnReplacement: null }] },
  // api:coordination/v1alpha1 (type gone after release-1.31), v1alpha2, v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'coordination.k8s.io/v1alpha1', kind: 'LeaseCandidate', stability: 'alpha', introduced: '1.31', deprecated: '1.34', removed: '1.37', enabledByDefault: false, typeGoneIn: '1.32' },
  { apiVersion: 'coordination.k8s.io/v1alpha2', kind: 'LeaseCandidate', stability: 'alpha', introduced: '1.32', deprecated: '1.35', removed: '1.38', enabledByDefault: false },
  { apiVersion: 'coordination.k8s.io/v1beta1', kind: 'LeaseCandidate', stability: 'beta', introduced: '1.33', deprecated: '1.36', removed: '1.39', enabledByDefault: false },
  // api:networking/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'networking.k8s.io/v1beta1', kind: 'IPAddress', stability: 'beta', introduced: '1.31', deprecated: '1.34', removed: '1.37', replacement: 'networking.k8s.io/v1 IPAddress', enabledByDefault: false },
  { apiVersion: 'networking.k8s.io/v1beta1', kind: 'ServiceCIDR', stability: 'beta', introduced: '1.31', deprecated: '1.34', removed: '1.37', replacement: 'networking.k8s.io/v1 ServiceCIDR', enabledByDefault: false },
  // api:resource/v1alpha3/zz_generated.prerelease-lifecycle.go (DeviceClass … ResourceSlice: types gone after release-1.33)
  { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'DeviceClass', stability: 'alpha', introduced: '1.31', deprecated: '1.34', removed: '1.37', warnReplacement: 'resource.k8s.io/v1beta1 DeviceClass', enabledByDefault: false, typeGoneIn: '1.34' },
  { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'ResourceClaim', stability: 'alpha', introduced: '1.31', deprecated: '1.34', removed: '1.37', warnReplacement: 'resource.k8s.io/v1beta1 ResourceClaim', enabledByDefault: false, typeGoneIn: '1.34' },
  { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'ResourceClaimTemplate', stability: 'alpha', introduced: '1.31', deprecated: '1.34', removed: '1.37', warnReplacement: 'resource.k8s.io/v1beta1 ResourceClaimTemplate', enabledByDefault: false, typeGoneIn: '1.34' },
  { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'ResourceSlice', stability: 'alpha', introduced: '1.31', deprecated: '1.34', removed: '1.37', warnReplacement: 'resource.k8s.io/v1beta1 ResourceSlice', enabledByDefault: false, typeGoneIn: '1.34' },
  { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'DeviceTaintRule', stability: 'alpha', introduced: '1.33', deprecated: '1.36', removed: '1.39', replacement: 'resource.k8s.io/v1 DeviceTaintRule', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'ResourcePoolStatusRequest', stability: 'alpha', introduced: '1.36', deprecated: '1.39', removed: '1.42', enabledByDefault: false },
  // api:resource/v1beta1/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'resource.k8s.io/v1beta1', kind: 'DeviceClass', stability: 'beta', introduced: '1.32', deprecated: '1.35', removed: '1.38', replacement: 'resource.k8s.io/v1 DeviceClass', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta1', kind: 'ResourceClaim', stability: 'beta', introduced: '1.32', deprecated: '1.35', removed: '1.38', replacement: 'resource.k8s.io/v1 ResourceClaim', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta1', kind: 'ResourceClaimTemplate', stability: 'beta', introduced: '1.32', deprecated: '1.35', removed: '1.38', replacement: 'resource.k8s.io/v1 ResourceClaimTemplate', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta1', kind: 'ResourceSlice', stability: 'beta', introduced: '1.32', deprecated: '1.35', removed: '1.38', replacement: 'resource.k8s.io/v1 ResourceSlice', enabledByDefault: false },
  // api:resource/v1beta2/zz_generated.prerelease-lifecycle.go
  { apiVersion: 'resource.k8s.io/v1beta2', kind: 'DeviceClass', stability: 'beta', introduced: '1.33', deprecated: '1.36', removed: '1.39', replacement: 'resource.k8s.io/v1 DeviceClass', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta2', kind: 'ResourceClaim', stability: 'beta', introduced: '1.33', deprecated: '1.36', removed: '1.39', replacement: 'resource.k8s.io/v1 ResourceClaim', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta2', kind: 'ResourceClaimTemplate', stability: 'beta', introduced: '1.33', deprecated: '1.36', removed: '1.39', replacement: 'resource.k8s.io/v1 ResourceClaimTemplate', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta2', kind: 'ResourceSlice', stability: 'beta', introduced: '1.33', deprecated: '1.36', removed: '1.39', replacement: 'resource.k8s.io/v1 ResourceSlice', enabledByDefault: false },
  { apiVersion: 'resource.k8s.io/v1beta2', kind: 'DeviceTaintRule', stability: 'beta', introduced: '1.36', deprecated: '1.39', removed: '1.42', replacement: 'resource.k8s.io/v1 DeviceTaintRule', enabledByDefault: false },
  // api:lifecycle/v1alpha1, api:scheduling/v1beta1/zz_generated.prerelease-lifecycle.go (master only: 1.37 pre-release)
  { apiVersion: 'lifecycle.k8s.io/v1alpha1', kind: 'Eviction', stability: 'alpha', introduced: '1.37', deprecated: '1.40', removed: '1.43', enabledByDefault: false },
  { apiVersion: 'lifecycle.k8s.io/v1alpha1', kind: 'EvictionRequest', stability: 'alpha', introduced: '1.37', deprecated: '1.40', removed: '1.43', enabledByDefault: false },
  { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', stability: 'beta', introduced: '1.37', deprecated: '1.40', removed: '1.43', enabledByDefault: false },
  { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', stability: 'beta', introduced: '1.37', deprecated: '1.40', removed: '1.43', enabledByDefault: false },

  // ── GA versions deprecated but never removed (api:core/v1/lifecycle.go, hand-written) ─────────
  { apiVersion: 'v1', kind: 'ComponentStatus', stability: 'ga', introduced: '1.0', deprecated: '1.19', manifest: false },
  // Endpoints: release-1.33+ (KEP-4974)
  { apiVersion: 'v1', kind: 'Endpoints', stability: 'ga', introduced: '1.0', deprecated: '1.33', warnReplacement: 'discovery.k8s.io/v1 EndpointSlice' },

  // ── GA replacements: served from `introduced` on. api:<group>/<version>/zz_generated.prerelease-lifecycle.go
  // APILifecycleIntroduced, or the migration guide's "available since" where earlier (the lifecycle tags of
  // some old GA types were set later than the version shipped; such rows say so).
  { apiVersion: 'apps/v1', kind: 'DaemonSet', stability: 'ga', introduced: '1.9' },
  { apiVersion: 'apps/v1', kind: 'Deployment', stability: 'ga', introduced: '1.9' },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', stability: 'ga', introduced: '1.9' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', stability: 'ga', introduced: '1.9' },
  { apiVersion: 'apps/v1', kind: 'ControllerRevision', stability: 'ga', introduced: '1.9' },
  // NetworkPolicy: lifecycle 1.7 (guide: 1.8)
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', stability: 'ga', introduced: '1.7' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', stability: 'ga', introduced: '1.19' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', stability: 'ga', introduced: '1.19' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', stability: 'ga', introduced: '1.33' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', stability: 'ga', introduced: '1.33' },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', stability: 'ga', introduced: '1.16' },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', stability: 'ga', introduced: '1.16' },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', stability: 'ga', introduced: '1.30' },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', stability: 'ga', introduced: '1.30' },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', stability: 'ga', introduced: '1.36' },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', stability: 'ga', introduced: '1.36' },
  // guide § v1.22 (CRD: apiext; APIService: aggregator)
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', stability: 'ga', introduced: '1.16' },
  { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', stability: 'ga', introduced: '1.10' },
  { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', stability: 'ga', introduced: '1.6', manifest: false },
  { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', stability: 'ga', introduced: '1.28', manifest: false },
  // guide: 1.6 (lifecycle tags say 1.19 for the three below)
  { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', stability: 'ga', introduced: '1.6', manifest: false },
  { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', stability: 'ga', introduced: '1.6', manifest: false },
  { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', stability: 'ga', introduced: '1.6', manifest: false },
  { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', stability: 'ga', introduced: '1.6', manifest: false },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', stability: 'ga', introduced: '1.23' },
  { apiVersion: 'batch/v1', kind: 'CronJob', stability: 'ga', introduced: '1.21' },
  { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', stability: 'ga', introduced: '1.19' },
  { apiVersion: 'certificates.k8s.io/v1', kind: 'ClusterTrustBundle', stability: 'ga', introduced: '1.37' },
  { apiVersion: 'certificates.k8s.io/v1', kind: 'PodCertificateRequest', stability: 'ga', introduced: '1.37' },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', stability: 'ga', introduced: '1.14' },
  { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', stability: 'ga', introduced: '1.21' },
  { apiVersion: 'events.k8s.io/v1', kind: 'Event', stability: 'ga', introduced: '1.19' },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', stability: 'ga', introduced: '1.29' },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', stability: 'ga', introduced: '1.29' },
  { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', stability: 'ga', introduced: '1.20' },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', stability: 'ga', introduced: '1.21' },
  { apiVersion: 'policy/v1', kind: 'Eviction', stability: 'ga', introduced: '1.22', manifest: false },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', stability: 'ga', introduced: '1.8' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', stability: 'ga', introduced: '1.8' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', stability: 'ga', introduced: '1.8' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', stability: 'ga', introduced: '1.8' },
  { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', stability: 'ga', introduced: '1.34' },
  { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', stability: 'ga', introduced: '1.34' },
  { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', stability: 'ga', introduced: '1.34' },
  { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', stability: 'ga', introduced: '1.34' },
  { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceTaintRule', stability: 'ga', introduced: '1.37' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', stability: 'ga', introduced: '1.14' },
  // CSIDriver: lifecycle 1.18 (guide says 1.19)
  { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', stability: 'ga', introduced: '1.18' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', stability: 'ga', introduced: '1.17' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', stability: 'ga', introduced: '1.24' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', stability: 'ga', introduced: '1.6' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', stability: 'ga', introduced: '1.13' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', stability: 'ga', introduced: '1.34' },
  { apiVersion: 'storagemigration.k8s.io/v1', kind: 'StorageVersionMigration', stability: 'ga', introduced: '1.37' },
]

const BY_GVK = new Map<string, ApiVersionRow>(API_VERSIONS.map((r) => [`${r.apiVersion} ${r.kind}`, r]))

/** The lifecycle row of `apiVersion` + `kind` (exact kind; undefined when the table has none). */
export function lifecycleRow(apiVersion: string, kind: string): ApiVersionRow | undefined {
  return BY_GVK.get(`${apiVersion} ${kind}`)
}

const minorOf = (v: string) => Number(/^1\.(\d+)$/.exec(v)?.[1] ?? Number.NaN)

/**
 * Whether a kube-apiserver of release 1.<minor> has the GVK compiled in (introduced, not removed,
 * its Go type still there) and whether it serves it with default flags. Removal follows the values
 * of that release's branch (`branches`), as apiserver deleted_kinds.go compares them.
 */
export function lifecycleAt(row: ApiVersionRow, minor: number): { compiled: boolean; enabledByDefault: boolean } {
  let removed = row.removed
  for (const b of row.branches ?? []) {
    if (minor >= minorOf(b.from) && minor <= minorOf(b.to) && b.removed !== undefined) removed = b.removed ?? undefined
  }
  const gone = [removed, row.typeGoneIn].some((r) => r !== undefined && minorOf(r) <= minor)
  const later = row.introduced !== undefined && minorOf(row.introduced) > minor
  return { compiled: !gone && !later, enabledByDefault: row.enabledByDefault !== false }
}
