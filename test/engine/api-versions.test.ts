import { describe, expect, it } from 'vitest'
import {
  API_VERSIONS,
  apiVersionStatus,
  deprecationWarning,
  lookupApiVersion,
  noMatchesMessage,
  parseKubeVersion,
  resourceMappingError,
  SUPPORTED_TARGETS,
} from '../../src/engine/api-versions.js'

// Sources: ../shared/spec/api-deprecations.md (cited as §n), which quotes kubernetes/api
// `<group>/<version>/zz_generated.prerelease-lifecycle.go` (master and release-1.19 … release-1.36),
// apiserver pkg/endpoints/deprecation/deprecation.go (warning text and when it is sent),
// apiserver pkg/server/deleted_kinds.go (when a removed version stops being served),
// cli-runtime pkg/resource/mapper.go + apimachinery pkg/api/meta/errors.go (kubectl's error text), and
// the Deprecated API Migration Guide (kubernetes/website deprecation-guide.md).

const at = (apiVersion: string, kind: string, target: string) => apiVersionStatus(apiVersion, kind, target)
const minor = (v: string) => Number(v.split('.')[1])

// Every apiserver warning the spec derives from the newest lifecycle values: §5.1 (migration guide
// rows) and §5.2 (lifecycle-only rows), last column, verbatim.
// The spec rows, verbatim.
const SPEC_WARNINGS: [string, string, string, string][] = [
  [
    '§5.1',
    'flowcontrol.apiserver.k8s.io/v1beta3',
    'FlowSchema',
    'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema',
  ],
  [
    '§5.1',
    'flowcontrol.apiserver.k8s.io/v1beta3',
    'PriorityLevelConfiguration',
    'flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration',
  ],
  [
    '§5.1',
    'flowcontrol.apiserver.k8s.io/v1beta2',
    'FlowSchema',
    'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema',
  ],
  [
    '§5.1',
    'flowcontrol.apiserver.k8s.io/v1beta2',
    'PriorityLevelConfiguration',
    'flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration',
  ],
  [
    '§5.1',
    'storage.k8s.io/v1beta1',
    'CSIStorageCapacity',
    'storage.k8s.io/v1beta1 CSIStorageCapacity is deprecated in v1.24+, unavailable in v1.27+; use storage.k8s.io/v1 CSIStorageCapacity',
  ],
  [
    '§5.1',
    'autoscaling/v2beta2',
    'HorizontalPodAutoscaler',
    'autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler',
  ],
  [
    '§5.1',
    'flowcontrol.apiserver.k8s.io/v1beta1',
    'FlowSchema',
    'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema is deprecated in v1.23+, unavailable in v1.26+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema',
  ],
  [
    '§5.1',
    'flowcontrol.apiserver.k8s.io/v1beta1',
    'PriorityLevelConfiguration',
    'flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration is deprecated in v1.23+, unavailable in v1.26+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration',
  ],
  [
    '§5.1',
    'autoscaling/v2beta1',
    'HorizontalPodAutoscaler',
    'autoscaling/v2beta1 HorizontalPodAutoscaler is deprecated in v1.22+, unavailable in v1.25+; use autoscaling/v2 HorizontalPodAutoscaler',
  ],
  [
    '§5.1',
    'batch/v1beta1',
    'CronJob',
    'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob',
  ],
  [
    '§5.1',
    'discovery.k8s.io/v1beta1',
    'EndpointSlice',
    'discovery.k8s.io/v1beta1 EndpointSlice is deprecated in v1.21+, unavailable in v1.25+; use discovery.k8s.io/v1 EndpointSlice',
  ],
  [
    '§5.1',
    'events.k8s.io/v1beta1',
    'Event',
    'events.k8s.io/v1beta1 Event is deprecated in v1.22+, unavailable in v1.25+',
  ],
  [
    '§5.1',
    'node.k8s.io/v1beta1',
    'RuntimeClass',
    'node.k8s.io/v1beta1 RuntimeClass is deprecated in v1.22+, unavailable in v1.25+',
  ],
  [
    '§5.1',
    'policy/v1beta1',
    'PodDisruptionBudget',
    'policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget',
  ],
  [
    '§5.1',
    'policy/v1beta1',
    'PodSecurityPolicy',
    'policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+',
  ],
  [
    '§5.1',
    'admissionregistration.k8s.io/v1beta1',
    'MutatingWebhookConfiguration',
    'admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration is deprecated in v1.16+, unavailable in v1.22+; use admissionregistration.k8s.io/v1 MutatingWebhookConfiguration',
  ],
  [
    '§5.1',
    'admissionregistration.k8s.io/v1beta1',
    'ValidatingWebhookConfiguration',
    'admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration is deprecated in v1.16+, unavailable in v1.22+; use admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration',
  ],
  [
    '§5.1',
    'apiextensions.k8s.io/v1beta1',
    'CustomResourceDefinition',
    'apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; use apiextensions.k8s.io/v1 CustomResourceDefinition',
  ],
  [
    '§5.1',
    'apiregistration.k8s.io/v1beta1',
    'APIService',
    'apiregistration.k8s.io/v1beta1 APIService is deprecated in v1.19+, unavailable in v1.22+; use apiregistration.k8s.io/v1 APIService',
  ],
  [
    '§5.1',
    'authentication.k8s.io/v1beta1',
    'TokenReview',
    'authentication.k8s.io/v1beta1 TokenReview is deprecated in v1.19+, unavailable in v1.22+; use authentication.k8s.io/v1 TokenReview',
  ],
  [
    '§5.1',
    'authorization.k8s.io/v1beta1',
    'LocalSubjectAccessReview',
    'authorization.k8s.io/v1beta1 LocalSubjectAccessReview is deprecated in v1.19+, unavailable in v1.22+; use authorization.k8s.io/v1 LocalSubjectAccessReview',
  ],
  [
    '§5.1',
    'authorization.k8s.io/v1beta1',
    'SelfSubjectAccessReview',
    'authorization.k8s.io/v1beta1 SelfSubjectAccessReview is deprecated in v1.19+, unavailable in v1.22+; use authorization.k8s.io/v1 SelfSubjectAccessReview',
  ],
  [
    '§5.1',
    'authorization.k8s.io/v1beta1',
    'SelfSubjectRulesReview',
    'authorization.k8s.io/v1beta1 SelfSubjectRulesReview is deprecated in v1.19+, unavailable in v1.22+; use authorization.k8s.io/v1 SelfSubjectRulesReview',
  ],
  [
    '§5.1',
    'authorization.k8s.io/v1beta1',
    'SubjectAccessReview',
    'authorization.k8s.io/v1beta1 SubjectAccessReview is deprecated in v1.19+, unavailable in v1.22+; use authorization.k8s.io/v1 SubjectAccessReview',
  ],
  [
    '§5.1',
    'certificates.k8s.io/v1beta1',
    'CertificateSigningRequest',
    'certificates.k8s.io/v1beta1 CertificateSigningRequest is deprecated in v1.19+, unavailable in v1.22+; use certificates.k8s.io/v1 CertificateSigningRequest',
  ],
  [
    '§5.1',
    'coordination.k8s.io/v1beta1',
    'Lease',
    'coordination.k8s.io/v1beta1 Lease is deprecated in v1.19+, unavailable in v1.22+; use coordination.k8s.io/v1 Lease',
  ],
  [
    '§5.1',
    'extensions/v1beta1',
    'Ingress',
    'extensions/v1beta1 Ingress is deprecated in v1.14+, unavailable in v1.22+; use networking.k8s.io/v1 Ingress',
  ],
  [
    '§5.1',
    'networking.k8s.io/v1beta1',
    'Ingress',
    'networking.k8s.io/v1beta1 Ingress is deprecated in v1.19+, unavailable in v1.22+; use networking.k8s.io/v1 Ingress',
  ],
  [
    '§5.1',
    'networking.k8s.io/v1beta1',
    'IngressClass',
    'networking.k8s.io/v1beta1 IngressClass is deprecated in v1.19+, unavailable in v1.22+; use networking.k8s.io/v1 IngressClassList',
  ],
  [
    '§5.1',
    'rbac.authorization.k8s.io/v1beta1',
    'ClusterRole',
    'rbac.authorization.k8s.io/v1beta1 ClusterRole is deprecated in v1.17+, unavailable in v1.22+; use rbac.authorization.k8s.io/v1 ClusterRole',
  ],
  [
    '§5.1',
    'rbac.authorization.k8s.io/v1beta1',
    'ClusterRoleBinding',
    'rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding is deprecated in v1.17+, unavailable in v1.22+; use rbac.authorization.k8s.io/v1 ClusterRoleBinding',
  ],
  [
    '§5.1',
    'rbac.authorization.k8s.io/v1beta1',
    'Role',
    'rbac.authorization.k8s.io/v1beta1 Role is deprecated in v1.17+, unavailable in v1.22+; use rbac.authorization.k8s.io/v1 Role',
  ],
  [
    '§5.1',
    'rbac.authorization.k8s.io/v1beta1',
    'RoleBinding',
    'rbac.authorization.k8s.io/v1beta1 RoleBinding is deprecated in v1.17+, unavailable in v1.22+; use rbac.authorization.k8s.io/v1 RoleBinding',
  ],
  [
    '§5.1',
    'scheduling.k8s.io/v1beta1',
    'PriorityClass',
    'scheduling.k8s.io/v1beta1 PriorityClass is deprecated in v1.14+, unavailable in v1.22+; use scheduling.k8s.io/v1 PriorityClass',
  ],
  [
    '§5.1',
    'storage.k8s.io/v1beta1',
    'CSIDriver',
    'storage.k8s.io/v1beta1 CSIDriver is deprecated in v1.19+, unavailable in v1.22+; use storage.k8s.io/v1 CSIDriver',
  ],
  [
    '§5.1',
    'storage.k8s.io/v1beta1',
    'CSINode',
    'storage.k8s.io/v1beta1 CSINode is deprecated in v1.17+, unavailable in v1.22+; use storage.k8s.io/v1 CSINode',
  ],
  [
    '§5.1',
    'storage.k8s.io/v1beta1',
    'StorageClass',
    'storage.k8s.io/v1beta1 StorageClass is deprecated in v1.19+, unavailable in v1.22+; use storage.k8s.io/v1 StorageClass',
  ],
  [
    '§5.1',
    'storage.k8s.io/v1beta1',
    'VolumeAttachment',
    'storage.k8s.io/v1beta1 VolumeAttachment is deprecated in v1.19+, unavailable in v1.22+; use storage.k8s.io/v1 VolumeAttachment',
  ],
  [
    '§5.1',
    'apps/v1beta1',
    'Deployment',
    'apps/v1beta1 Deployment is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 Deployment',
  ],
  [
    '§5.1',
    'apps/v1beta1',
    'StatefulSet',
    'apps/v1beta1 StatefulSet is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 StatefulSet',
  ],
  [
    '§5.1',
    'apps/v1beta2',
    'DaemonSet',
    'apps/v1beta2 DaemonSet is deprecated in v1.9+, unavailable in v1.16+; use apps/v1 DaemonSet',
  ],
  [
    '§5.1',
    'apps/v1beta2',
    'Deployment',
    'apps/v1beta2 Deployment is deprecated in v1.9+, unavailable in v1.16+; use apps/v1 Deployment',
  ],
  [
    '§5.1',
    'apps/v1beta2',
    'ReplicaSet',
    'apps/v1beta2 ReplicaSet is deprecated in v1.9+, unavailable in v1.16+; use apps/v1 ReplicaSet',
  ],
  [
    '§5.1',
    'apps/v1beta2',
    'StatefulSet',
    'apps/v1beta2 StatefulSet is deprecated in v1.9+, unavailable in v1.16+; use apps/v1 StatefulSet',
  ],
  [
    '§5.1',
    'extensions/v1beta1',
    'DaemonSet',
    'extensions/v1beta1 DaemonSet is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 DaemonSet',
  ],
  [
    '§5.1',
    'extensions/v1beta1',
    'Deployment',
    'extensions/v1beta1 Deployment is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 Deployment',
  ],
  [
    '§5.1',
    'extensions/v1beta1',
    'NetworkPolicy',
    'extensions/v1beta1 NetworkPolicy is deprecated in v1.9+, unavailable in v1.16+; use networking.k8s.io/v1 NetworkPolicy',
  ],
  [
    '§5.1',
    'extensions/v1beta1',
    'PodSecurityPolicy',
    'extensions/v1beta1 PodSecurityPolicy is deprecated in v1.11+, unavailable in v1.16+; use policy/v1beta1 PodSecurityPolicy',
  ],
  [
    '§5.1',
    'extensions/v1beta1',
    'ReplicaSet',
    'extensions/v1beta1 ReplicaSet is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 ReplicaSet',
  ],
  [
    '§5.2',
    'apps/v1beta1',
    'ControllerRevision',
    'apps/v1beta1 ControllerRevision is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 ControllerRevision',
  ],
  [
    '§5.2',
    'apps/v1beta1',
    'DeploymentRollback',
    'apps/v1beta1 DeploymentRollback is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 DeploymentRollback',
  ],
  [
    '§5.2',
    'apps/v1beta1',
    'Scale',
    'apps/v1beta1 Scale is deprecated in v1.8+, unavailable in v1.16+; use autoscaling/v1 Scale',
  ],
  [
    '§5.2',
    'apps/v1beta2',
    'ControllerRevision',
    'apps/v1beta2 ControllerRevision is deprecated in v1.9+, unavailable in v1.16+; use apps/v1 ControllerRevision',
  ],
  [
    '§5.2',
    'apps/v1beta2',
    'Scale',
    'apps/v1beta2 Scale is deprecated in v1.9+, unavailable in v1.16+; use autoscaling/v1 Scale',
  ],
  [
    '§5.2',
    'extensions/v1beta1',
    'DeploymentRollback',
    'extensions/v1beta1 DeploymentRollback is deprecated in v1.8+, unavailable in v1.16+',
  ],
  ['§5.2', 'extensions/v1beta1', 'Scale', 'extensions/v1beta1 Scale is deprecated in v1.2+, unavailable in v1.16+'],
  [
    '§5.2',
    'flowcontrol.apiserver.k8s.io/v1alpha1',
    'FlowSchema',
    'flowcontrol.apiserver.k8s.io/v1alpha1 FlowSchema is deprecated in v1.20+, unavailable in v1.21+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema',
  ],
  [
    '§5.2',
    'flowcontrol.apiserver.k8s.io/v1alpha1',
    'PriorityLevelConfiguration',
    'flowcontrol.apiserver.k8s.io/v1alpha1 PriorityLevelConfiguration is deprecated in v1.20+, unavailable in v1.21+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration',
  ],
  [
    '§5.2',
    'admission.k8s.io/v1beta1',
    'AdmissionReview',
    'admission.k8s.io/v1beta1 AdmissionReview is deprecated in v1.19+, unavailable in v1.22+; use admission.k8s.io/v1 AdmissionReview',
  ],
  [
    '§5.2',
    'apiextensions.k8s.io/v1beta1',
    'ConversionReview',
    'apiextensions.k8s.io/v1beta1 ConversionReview is deprecated in v1.19+, unavailable in v1.22+; use apiextensions.k8s.io/v1 ConversionReview',
  ],
  [
    '§5.2',
    'storage.k8s.io/v1alpha1',
    'CSIStorageCapacity',
    'storage.k8s.io/v1alpha1 CSIStorageCapacity is deprecated in v1.21+, unavailable in v1.24+; use storage.k8s.io/v1beta1 CSIStorageCapacity',
  ],
  [
    '§5.2',
    'storage.k8s.io/v1alpha1',
    'VolumeAttachment',
    'storage.k8s.io/v1alpha1 VolumeAttachment is deprecated in v1.21+, unavailable in v1.24+; use storage.k8s.io/v1 VolumeAttachment',
  ],
  ['§5.2', 'batch/v1beta1', 'JobTemplate', 'batch/v1beta1 JobTemplate is deprecated in v1.22+, unavailable in v1.25+'],
  ['§5.2', 'policy/v1beta1', 'Eviction', 'policy/v1beta1 Eviction is deprecated in v1.22+, unavailable in v1.25+'],
  [
    '§5.2',
    'networking.k8s.io/v1alpha1',
    'ClusterCIDR',
    'networking.k8s.io/v1alpha1 ClusterCIDR is deprecated in v1.28+, unavailable in v1.31+',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1alpha1',
    'ValidatingAdmissionPolicy',
    'admissionregistration.k8s.io/v1alpha1 ValidatingAdmissionPolicy is deprecated in v1.29+, unavailable in v1.32+',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1alpha1',
    'ValidatingAdmissionPolicyBinding',
    'admissionregistration.k8s.io/v1alpha1 ValidatingAdmissionPolicyBinding is deprecated in v1.29+, unavailable in v1.32+',
  ],
  [
    '§5.2',
    'authentication.k8s.io/v1alpha1',
    'SelfSubjectReview',
    'authentication.k8s.io/v1alpha1 SelfSubjectReview is deprecated in v1.29+, unavailable in v1.32+',
  ],
  [
    '§5.2',
    'authentication.k8s.io/v1beta1',
    'SelfSubjectReview',
    'authentication.k8s.io/v1beta1 SelfSubjectReview is deprecated in v1.30+, unavailable in v1.33+',
  ],
  [
    '§5.2',
    'networking.k8s.io/v1alpha1',
    'IPAddress',
    'networking.k8s.io/v1alpha1 IPAddress is deprecated in v1.30+, unavailable in v1.33+',
  ],
  [
    '§5.2',
    'networking.k8s.io/v1alpha1',
    'ServiceCIDR',
    'networking.k8s.io/v1alpha1 ServiceCIDR is deprecated in v1.30+, unavailable in v1.33+',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1beta1',
    'ValidatingAdmissionPolicy',
    'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1beta1',
    'ValidatingAdmissionPolicyBinding',
    'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicyBinding is deprecated in v1.31+, unavailable in v1.34+',
  ],
  [
    '§5.2',
    'apidiscovery.k8s.io/v2beta1',
    'APIGroupDiscovery',
    'apidiscovery.k8s.io/v2beta1 APIGroupDiscovery is deprecated in v1.32+, unavailable in v1.35+',
  ],
  [
    '§5.2',
    'storage.k8s.io/v1alpha1',
    'VolumeAttributesClass',
    'storage.k8s.io/v1alpha1 VolumeAttributesClass is deprecated in v1.32+, unavailable in v1.35+; use storage.k8s.io/v1 VolumeAttributesClass',
  ],
  [
    '§5.2',
    'storagemigration.k8s.io/v1alpha1',
    'StorageVersionMigration',
    'storagemigration.k8s.io/v1alpha1 StorageVersionMigration is deprecated in v1.33+, unavailable in v1.36+',
  ],
  [
    '§5.2',
    'certificates.k8s.io/v1alpha1',
    'ClusterTrustBundle',
    'certificates.k8s.io/v1alpha1 ClusterTrustBundle is deprecated in v1.34+, unavailable in v1.37+',
  ],
  [
    '§5.2',
    'coordination.k8s.io/v1alpha1',
    'LeaseCandidate',
    'coordination.k8s.io/v1alpha1 LeaseCandidate is deprecated in v1.34+, unavailable in v1.37+',
  ],
  [
    '§5.2',
    'networking.k8s.io/v1beta1',
    'IPAddress',
    'networking.k8s.io/v1beta1 IPAddress is deprecated in v1.34+, unavailable in v1.37+',
  ],
  [
    '§5.2',
    'networking.k8s.io/v1beta1',
    'ServiceCIDR',
    'networking.k8s.io/v1beta1 ServiceCIDR is deprecated in v1.34+, unavailable in v1.37+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1alpha3',
    'DeviceClass',
    'resource.k8s.io/v1alpha3 DeviceClass is deprecated in v1.34+, unavailable in v1.37+; use resource.k8s.io/v1beta1 DeviceClass',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1alpha3',
    'ResourceClaim',
    'resource.k8s.io/v1alpha3 ResourceClaim is deprecated in v1.34+, unavailable in v1.37+; use resource.k8s.io/v1beta1 ResourceClaim',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1alpha3',
    'ResourceClaimTemplate',
    'resource.k8s.io/v1alpha3 ResourceClaimTemplate is deprecated in v1.34+, unavailable in v1.37+; use resource.k8s.io/v1beta1 ResourceClaimTemplate',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1alpha3',
    'ResourceSlice',
    'resource.k8s.io/v1alpha3 ResourceSlice is deprecated in v1.34+, unavailable in v1.37+; use resource.k8s.io/v1beta1 ResourceSlice',
  ],
  [
    '§5.2',
    'storage.k8s.io/v1beta1',
    'VolumeAttributesClass',
    'storage.k8s.io/v1beta1 VolumeAttributesClass is deprecated in v1.34+, unavailable in v1.37+; use storage.k8s.io/v1 VolumeAttributesClass',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1alpha1',
    'MutatingAdmissionPolicy',
    'admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicy is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1alpha1',
    'MutatingAdmissionPolicyBinding',
    'admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicyBinding is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'coordination.k8s.io/v1alpha2',
    'LeaseCandidate',
    'coordination.k8s.io/v1alpha2 LeaseCandidate is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta1',
    'DeviceClass',
    'resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta1',
    'ResourceClaim',
    'resource.k8s.io/v1beta1 ResourceClaim is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta1',
    'ResourceClaimTemplate',
    'resource.k8s.io/v1beta1 ResourceClaimTemplate is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta1',
    'ResourceSlice',
    'resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+',
  ],
  [
    '§5.2',
    'coordination.k8s.io/v1beta1',
    'LeaseCandidate',
    'coordination.k8s.io/v1beta1 LeaseCandidate is deprecated in v1.36+, unavailable in v1.39+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1alpha3',
    'DeviceTaintRule',
    'resource.k8s.io/v1alpha3 DeviceTaintRule is deprecated in v1.36+, unavailable in v1.39+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta2',
    'DeviceClass',
    'resource.k8s.io/v1beta2 DeviceClass is deprecated in v1.36+, unavailable in v1.39+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta2',
    'ResourceClaim',
    'resource.k8s.io/v1beta2 ResourceClaim is deprecated in v1.36+, unavailable in v1.39+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta2',
    'ResourceClaimTemplate',
    'resource.k8s.io/v1beta2 ResourceClaimTemplate is deprecated in v1.36+, unavailable in v1.39+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta2',
    'ResourceSlice',
    'resource.k8s.io/v1beta2 ResourceSlice is deprecated in v1.36+, unavailable in v1.39+',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1beta1',
    'MutatingAdmissionPolicy',
    'admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy is deprecated in v1.37+, unavailable in v1.40+; use admissionregistration.k8s.io/v1 MutatingAdmissionPolicy',
  ],
  [
    '§5.2',
    'admissionregistration.k8s.io/v1beta1',
    'MutatingAdmissionPolicyBinding',
    'admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicyBinding is deprecated in v1.37+, unavailable in v1.40+; use admissionregistration.k8s.io/v1 MutatingAdmissionPolicyBinding',
  ],
  [
    '§5.2',
    'certificates.k8s.io/v1alpha1',
    'PodCertificateRequest',
    'certificates.k8s.io/v1alpha1 PodCertificateRequest is deprecated in v1.37+, unavailable in v1.40+',
  ],
  [
    '§5.2',
    'certificates.k8s.io/v1beta1',
    'ClusterTrustBundle',
    'certificates.k8s.io/v1beta1 ClusterTrustBundle is deprecated in v1.37+, unavailable in v1.40+; use certificates.k8s.io/v1 ClusterTrustBundle',
  ],
  [
    '§5.2',
    'certificates.k8s.io/v1beta1',
    'PodCertificateRequest',
    'certificates.k8s.io/v1beta1 PodCertificateRequest is deprecated in v1.37+, unavailable in v1.40+; use certificates.k8s.io/v1 PodCertificateRequest',
  ],
  [
    '§5.2',
    'storagemigration.k8s.io/v1beta1',
    'StorageVersionMigration',
    'storagemigration.k8s.io/v1beta1 StorageVersionMigration is deprecated in v1.37+, unavailable in v1.40+; use storagemigration.k8s.io/v1 StorageVersionMigration',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1alpha3',
    'ResourcePoolStatusRequest',
    'resource.k8s.io/v1alpha3 ResourcePoolStatusRequest is deprecated in v1.39+, unavailable in v1.42+',
  ],
  [
    '§5.2',
    'resource.k8s.io/v1beta2',
    'DeviceTaintRule',
    'resource.k8s.io/v1beta2 DeviceTaintRule is deprecated in v1.39+, unavailable in v1.42+',
  ],
  [
    '§5.2',
    'lifecycle.k8s.io/v1alpha1',
    'Eviction',
    'lifecycle.k8s.io/v1alpha1 Eviction is deprecated in v1.40+, unavailable in v1.43+',
  ],
  [
    '§5.2',
    'lifecycle.k8s.io/v1alpha1',
    'EvictionRequest',
    'lifecycle.k8s.io/v1alpha1 EvictionRequest is deprecated in v1.40+, unavailable in v1.43+',
  ],
  [
    '§5.2',
    'scheduling.k8s.io/v1beta1',
    'PodGroup',
    'scheduling.k8s.io/v1beta1 PodGroup is deprecated in v1.40+, unavailable in v1.43+',
  ],
  [
    '§5.2',
    'scheduling.k8s.io/v1beta1',
    'Workload',
    'scheduling.k8s.io/v1beta1 Workload is deprecated in v1.40+, unavailable in v1.43+',
  ],
]

/** §5.2 rows kelp leaves out: webhook payloads / discovery documents, no REST resource to serve or remove. */
const NOT_RESOURCES = new Set([
  'admission.k8s.io/v1beta1 AdmissionReview',
  'apiextensions.k8s.io/v1beta1 ConversionReview',
  'apidiscovery.k8s.io/v2beta1 APIGroupDiscovery',
])

/**
 * Where the release that last serves a deprecated version compiled other lifecycle values than the
 * newest (§5.4, checked in kubernetes/api release branches): what that server really sends.
 */
const BRANCH_WARNINGS: Record<string, { target: string; warning: string | undefined }> = {
  // release-1.23 … 1.25: replacement v1beta2 (v1beta3 only from release-1.26, when v1beta1 is gone)
  'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema': {
    target: '1.25',
    warning:
      'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema is deprecated in v1.23+, unavailable in v1.26+; use flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema',
  },
  'flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration': {
    target: '1.25',
    warning:
      'flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration is deprecated in v1.23+, unavailable in v1.26+; use flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration',
  },
  // release-1.20 … 1.22: replacement v1beta1
  'flowcontrol.apiserver.k8s.io/v1alpha1 FlowSchema': {
    target: '1.20',
    warning:
      'flowcontrol.apiserver.k8s.io/v1alpha1 FlowSchema is deprecated in v1.20+, unavailable in v1.21+; use flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema',
  },
  'flowcontrol.apiserver.k8s.io/v1alpha1 PriorityLevelConfiguration': {
    target: '1.20',
    warning:
      'flowcontrol.apiserver.k8s.io/v1alpha1 PriorityLevelConfiguration is deprecated in v1.20+, unavailable in v1.21+; use flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration',
  },
  // admissionregistration/v1alpha1 has generated lifecycle methods only from release-1.32 (§5.2 "lifecycle seen"),
  // so 1.29 … 1.31 servers never warned; 1.32 no longer serves it.
  'admissionregistration.k8s.io/v1alpha1 ValidatingAdmissionPolicy': { target: '1.31', warning: undefined },
  'admissionregistration.k8s.io/v1alpha1 ValidatingAdmissionPolicyBinding': { target: '1.31', warning: undefined },
}

describe('the spec’s warning texts (§3.1 format, §5.1/§5.2 values)', () => {
  for (const [section, apiVersion, kind, warning] of SPEC_WARNINGS) {
    const key = `${apiVersion} ${kind}`
    if (NOT_RESOURCES.has(key)) {
      it(`${key} is not a served resource: not in the table (${section})`, () => {
        expect(lookupApiVersion(apiVersion, kind)).toBeUndefined()
        expect(at(apiVersion, kind, '1.20').status).toBe('unknown')
      })
      continue
    }
    it(`${key}: ${section}`, () => {
      const row = lookupApiVersion(apiVersion, kind)
      expect(row).toBeDefined()
      if (!row?.deprecated) throw new Error('no deprecation')
      // The newest lifecycle values give exactly the spec's text.
      expect(deprecationWarning(apiVersion, kind, row.deprecated, row.removed, row.warnReplacement)).toBe(warning)
      // The last supported release that still serves it (and warns, 1.19+) sends that text.
      const serving = SUPPORTED_TARGETS.filter((t) => at(apiVersion, kind, t).status === 'deprecated')
      const last = serving[serving.length - 1]
      const exception = BRANCH_WARNINGS[key]
      if (exception) {
        expect(at(apiVersion, kind, exception.target).warning).toBe(exception.warning)
      } else if (last && minor(last) >= 19) {
        expect(at(apiVersion, kind, last).warning).toBe(warning)
      }
    })
  }
})

describe('§3.1 examples, each at releases that serve it', () => {
  it('policy/v1beta1 PodSecurityPolicy (api:policy/v1beta1 lifecycle, guide § v1.25)', () => {
    for (const t of ['1.21', '1.22', '1.23', '1.24']) {
      const s = at('policy/v1beta1', 'PodSecurityPolicy', t)
      expect(s.status).toBe('deprecated')
      expect(s.warning).toBe('policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+')
      expect(s.replacement).toBeUndefined()
    }
  })
  it('flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema (api:flowcontrol/v1beta3 lifecycle)', () => {
    expect(at('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', '1.29').warning).toBe(
      'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema',
    )
  })
  it('v1 Endpoints (api:core/v1/lifecycle.go, KEP-4974): deprecated from 1.33, never removed', () => {
    expect(at('v1', 'Endpoints', '1.32')).toMatchObject({ status: 'served', deprecatedIn: '1.33' })
    for (const t of ['1.33', '1.36', '1.37']) {
      const s = at('v1', 'Endpoints', t)
      expect(s.status).toBe('deprecated')
      expect(s.warning).toBe('v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice')
      expect(s.removedIn).toBeUndefined()
      expect(s.replacement).toEqual({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice' })
    }
  })
  it('extensions/v1beta1 Ingress (api:extensions/v1beta1 lifecycle, guide § v1.22)', () => {
    expect(at('extensions/v1beta1', 'Ingress', '1.21').warning).toBe(
      'extensions/v1beta1 Ingress is deprecated in v1.14+, unavailable in v1.22+; use networking.k8s.io/v1 Ingress',
    )
  })
  it('resource.k8s.io/v1beta1 ResourceClaim: no replacement tag (api:resource/v1beta1 lifecycle)', () => {
    const s = at('resource.k8s.io/v1beta1', 'ResourceClaim', '1.36')
    expect(s.warning).toBe('resource.k8s.io/v1beta1 ResourceClaim is deprecated in v1.35+, unavailable in v1.38+')
    expect(s.replacement).toEqual({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim' })
  })
  it('v1 ComponentStatus (api:core/v1/lifecycle.go)', () => {
    expect(at('v1', 'ComponentStatus', '1.36').warning).toBe('v1 ComponentStatus is deprecated in v1.19+')
  })
})

describe('served / deprecated / removed boundaries (deleted_kinds.go: removed ≤ target ⇒ not served)', () => {
  const cases: [string, string, [string, string][]][] = [
    // guide § v1.22, api:extensions/v1beta1
    [
      'extensions/v1beta1',
      'Ingress',
      [
        ['1.16', 'deprecated'],
        ['1.21', 'deprecated'],
        ['1.22', 'removed'],
        ['1.36', 'removed'],
      ],
    ],
    // guide § v1.16: removed in every supported release
    [
      'extensions/v1beta1',
      'Deployment',
      [
        ['1.16', 'removed'],
        ['1.37', 'removed'],
      ],
    ],
    ['apps/v1beta2', 'StatefulSet', [['1.16', 'removed']]],
    // guide § v1.25, api:batch/v1beta1 (release-1.19/1.20 compiled deprecated=1.22: no warning there)
    [
      'batch/v1beta1',
      'CronJob',
      [
        ['1.20', 'served'],
        ['1.21', 'deprecated'],
        ['1.24', 'deprecated'],
        ['1.25', 'removed'],
      ],
    ],
    // guide § v1.26, api:autoscaling/v2beta2 (release-1.22: deprecated=1.23)
    [
      'autoscaling/v2beta2',
      'HorizontalPodAutoscaler',
      [
        ['1.22', 'served'],
        ['1.23', 'deprecated'],
        ['1.25', 'deprecated'],
        ['1.26', 'removed'],
      ],
    ],
    // guide § v1.27, api:storage/v1beta1
    [
      'storage.k8s.io/v1beta1',
      'CSIStorageCapacity',
      [
        ['1.23', 'served'],
        ['1.24', 'deprecated'],
        ['1.26', 'deprecated'],
        ['1.27', 'removed'],
      ],
    ],
    // guide § v1.29, api:flowcontrol/v1beta2
    [
      'flowcontrol.apiserver.k8s.io/v1beta2',
      'FlowSchema',
      [
        ['1.22', 'unknown'],
        ['1.23', 'served'],
        ['1.26', 'deprecated'],
        ['1.29', 'removed'],
      ],
    ],
    // guide § v1.32, api:flowcontrol/v1beta3
    [
      'flowcontrol.apiserver.k8s.io/v1beta3',
      'PriorityLevelConfiguration',
      [
        ['1.28', 'served'],
        ['1.29', 'deprecated'],
        ['1.31', 'deprecated'],
        ['1.32', 'removed'],
      ],
    ],
    // api:policy/v1beta1 (release-1.19/1.20: deprecated=1.22)
    [
      'policy/v1beta1',
      'PodDisruptionBudget',
      [
        ['1.20', 'served'],
        ['1.21', 'deprecated'],
        ['1.25', 'removed'],
      ],
    ],
    // api:networking/v1beta1 (beta off by default, KEP-3136)
    [
      'networking.k8s.io/v1beta1',
      'ServiceCIDR',
      [
        ['1.30', 'unknown'],
        ['1.31', 'served'],
        ['1.34', 'deprecated'],
        ['1.36', 'deprecated'],
        ['1.37', 'removed'],
      ],
    ],
    // api:authentication/v1beta1
    [
      'authentication.k8s.io/v1beta1',
      'SelfSubjectReview',
      [
        ['1.29', 'served'],
        ['1.30', 'deprecated'],
        ['1.33', 'removed'],
      ],
    ],
    // api:admissionregistration/v1beta1
    [
      'admissionregistration.k8s.io/v1beta1',
      'ValidatingAdmissionPolicy',
      [
        ['1.27', 'unknown'],
        ['1.28', 'served'],
        ['1.31', 'deprecated'],
        ['1.34', 'removed'],
      ],
    ],
    [
      'admissionregistration.k8s.io/v1beta1',
      'MutatingAdmissionPolicy',
      [
        ['1.34', 'served'],
        ['1.36', 'served'],
        ['1.37', 'deprecated'],
      ],
    ],
    // api:resource/v1alpha3: lifecycle removed=1.37, but the types left k8s.io/api after release-1.33
    [
      'resource.k8s.io/v1alpha3',
      'DeviceClass',
      [
        ['1.33', 'served'],
        ['1.34', 'removed'],
      ],
    ],
    // api:networking/v1alpha1 ClusterCIDR: removed=1.31, type gone after release-1.28
    [
      'networking.k8s.io/v1alpha1',
      'ClusterCIDR',
      [
        ['1.28', 'deprecated'],
        ['1.29', 'removed'],
      ],
    ],
    // GA replacements (introduced: api:<group>/v1 lifecycle / guide "available since")
    [
      'networking.k8s.io/v1',
      'Ingress',
      [
        ['1.18', 'unknown'],
        ['1.19', 'served'],
        ['1.37', 'served'],
      ],
    ],
    [
      'flowcontrol.apiserver.k8s.io/v1',
      'FlowSchema',
      [
        ['1.28', 'unknown'],
        ['1.29', 'served'],
      ],
    ],
  ]
  for (const [apiVersion, kind, expectations] of cases) {
    for (const [target, status] of expectations) {
      it(`${apiVersion} ${kind} at ${target}: ${status}`, () => {
        expect(at(apiVersion, kind, target).status).toBe(status)
      })
    }
  }
})

describe('removed: the client error and what to use instead', () => {
  it('extensions/v1beta1 Ingress at 1.22 (guide § v1.22)', () => {
    const s = at('extensions/v1beta1', 'Ingress', '1.22')
    expect(s).toMatchObject({
      status: 'removed',
      removedIn: '1.22',
      deprecatedIn: '1.14',
      message: 'no matches for kind "Ingress" in version "extensions/v1beta1"',
      replacement: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
    })
    expect(s.warning).toBeUndefined()
  })
  it('replacement names per the migration guide (§5.1)', () => {
    const expected: [string, string, string, string][] = [
      ['extensions/v1beta1', 'Deployment', 'apps/v1', 'Deployment'],
      ['extensions/v1beta1', 'DaemonSet', 'apps/v1', 'DaemonSet'],
      ['extensions/v1beta1', 'ReplicaSet', 'apps/v1', 'ReplicaSet'],
      ['extensions/v1beta1', 'NetworkPolicy', 'networking.k8s.io/v1', 'NetworkPolicy'],
      ['apps/v1beta1', 'ReplicaSet', 'apps/v1', 'ReplicaSet'],
      ['apps/v1beta1', 'StatefulSet', 'apps/v1', 'StatefulSet'],
      ['apps/v1beta2', 'DaemonSet', 'apps/v1', 'DaemonSet'],
      ['networking.k8s.io/v1beta1', 'Ingress', 'networking.k8s.io/v1', 'Ingress'],
      // N19: the server says IngressClassList; the thing to write is IngressClass
      ['networking.k8s.io/v1beta1', 'IngressClass', 'networking.k8s.io/v1', 'IngressClass'],
      ['rbac.authorization.k8s.io/v1beta1', 'ClusterRoleBinding', 'rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
      [
        'admissionregistration.k8s.io/v1beta1',
        'ValidatingWebhookConfiguration',
        'admissionregistration.k8s.io/v1',
        'ValidatingWebhookConfiguration',
      ],
      [
        'apiextensions.k8s.io/v1beta1',
        'CustomResourceDefinition',
        'apiextensions.k8s.io/v1',
        'CustomResourceDefinition',
      ],
      ['apiregistration.k8s.io/v1beta1', 'APIService', 'apiregistration.k8s.io/v1', 'APIService'],
      ['storage.k8s.io/v1beta1', 'CSIDriver', 'storage.k8s.io/v1', 'CSIDriver'],
      ['storage.k8s.io/v1beta1', 'CSINode', 'storage.k8s.io/v1', 'CSINode'],
      ['storage.k8s.io/v1beta1', 'StorageClass', 'storage.k8s.io/v1', 'StorageClass'],
      ['storage.k8s.io/v1beta1', 'VolumeAttachment', 'storage.k8s.io/v1', 'VolumeAttachment'],
      ['scheduling.k8s.io/v1beta1', 'PriorityClass', 'scheduling.k8s.io/v1', 'PriorityClass'],
      ['coordination.k8s.io/v1beta1', 'Lease', 'coordination.k8s.io/v1', 'Lease'],
      [
        'certificates.k8s.io/v1beta1',
        'CertificateSigningRequest',
        'certificates.k8s.io/v1',
        'CertificateSigningRequest',
      ],
      ['authorization.k8s.io/v1beta1', 'SubjectAccessReview', 'authorization.k8s.io/v1', 'SubjectAccessReview'],
      ['batch/v1beta1', 'CronJob', 'batch/v1', 'CronJob'],
      ['discovery.k8s.io/v1beta1', 'EndpointSlice', 'discovery.k8s.io/v1', 'EndpointSlice'],
      // N11: no replacement tag (no "; use" in the warning), the guide names events.k8s.io/v1
      ['events.k8s.io/v1beta1', 'Event', 'events.k8s.io/v1', 'Event'],
      ['node.k8s.io/v1beta1', 'RuntimeClass', 'node.k8s.io/v1', 'RuntimeClass'],
      ['policy/v1beta1', 'PodDisruptionBudget', 'policy/v1', 'PodDisruptionBudget'],
      ['autoscaling/v2beta1', 'HorizontalPodAutoscaler', 'autoscaling/v2', 'HorizontalPodAutoscaler'],
      ['autoscaling/v2beta2', 'HorizontalPodAutoscaler', 'autoscaling/v2', 'HorizontalPodAutoscaler'],
      ['storage.k8s.io/v1beta1', 'CSIStorageCapacity', 'storage.k8s.io/v1', 'CSIStorageCapacity'],
      ['flowcontrol.apiserver.k8s.io/v1beta1', 'FlowSchema', 'flowcontrol.apiserver.k8s.io/v1', 'FlowSchema'],
      [
        'flowcontrol.apiserver.k8s.io/v1beta2',
        'PriorityLevelConfiguration',
        'flowcontrol.apiserver.k8s.io/v1',
        'PriorityLevelConfiguration',
      ],
      ['flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', 'flowcontrol.apiserver.k8s.io/v1', 'FlowSchema'],
    ]
    for (const [apiVersion, kind, rv, rk] of expected) {
      const s = at(apiVersion, kind, '1.36')
      expect(s.status, `${apiVersion} ${kind}`).toBe('removed')
      expect(s.replacement, `${apiVersion} ${kind}`).toEqual({ apiVersion: rv, kind: rk })
      expect(s.message).toBe(noMatchesMessage(kind, apiVersion))
    }
  })
  it('PodSecurityPolicy has no replacement API (guide N14, N17)', () => {
    expect(at('policy/v1beta1', 'PodSecurityPolicy', '1.25').replacement).toBeUndefined()
    expect(at('extensions/v1beta1', 'PodSecurityPolicy', '1.36').replacement).toBeUndefined()
    // while policy/v1beta1 is still served, extensions/v1beta1's tagged replacement is it
    expect(at('extensions/v1beta1', 'PodSecurityPolicy', '1.20').replacement).toEqual({
      apiVersion: 'policy/v1beta1',
      kind: 'PodSecurityPolicy',
    })
  })
  it('the suggestion is what the target serves: flowcontrol v1beta1 → v1beta2 → v1beta3 → v1 (guide N15, N16, N18)', () => {
    const fs = (t: string) => at('flowcontrol.apiserver.k8s.io/v1beta1', 'FlowSchema', t).replacement?.apiVersion
    expect(fs('1.24')).toBe('flowcontrol.apiserver.k8s.io/v1beta2')
    expect(fs('1.26')).toBe('flowcontrol.apiserver.k8s.io/v1beta3')
    expect(fs('1.29')).toBe('flowcontrol.apiserver.k8s.io/v1')
  })
  it('a replacement not yet served says when it arrives (autoscaling/v2 in 1.23, guide § v1.25)', () => {
    expect(at('autoscaling/v2beta1', 'HorizontalPodAutoscaler', '1.22')).toMatchObject({
      status: 'deprecated',
      replacement: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
      replacementAvailableIn: '1.23',
    })
    expect(at('autoscaling/v2beta1', 'HorizontalPodAutoscaler', '1.23').replacementAvailableIn).toBeUndefined()
  })
})

describe('warnings as the server of each release sends them (deprecation.go; §5.4 branch values)', () => {
  it('no warnings before 1.19 (the Warning header arrived in 1.19)', () => {
    const s = at('extensions/v1beta1', 'Ingress', '1.18')
    expect(s.status).toBe('deprecated')
    expect(s.warning).toBeUndefined()
    expect(at('extensions/v1beta1', 'Ingress', '1.19').warning).toContain('is deprecated in v1.14+')
  })
  it('autoscaling/v2beta1 HPA: release-1.22 names v2beta2, release-1.23+ names v2', () => {
    expect(at('autoscaling/v2beta1', 'HorizontalPodAutoscaler', '1.22').warning).toBe(
      'autoscaling/v2beta1 HorizontalPodAutoscaler is deprecated in v1.22+, unavailable in v1.25+; use autoscaling/v2beta2 HorizontalPodAutoscaler',
    )
    expect(at('autoscaling/v2beta1', 'HorizontalPodAutoscaler', '1.24').warning).toBe(
      'autoscaling/v2beta1 HorizontalPodAutoscaler is deprecated in v1.22+, unavailable in v1.25+; use autoscaling/v2 HorizontalPodAutoscaler',
    )
  })
  it('release-1.19/1.20 compiled deprecated=1.22 for CronJob, EndpointSlice, PDB, PSP: no warning, served', () => {
    for (const [av, k] of [
      ['batch/v1beta1', 'CronJob'],
      ['discovery.k8s.io/v1beta1', 'EndpointSlice'],
      ['policy/v1beta1', 'PodDisruptionBudget'],
      ['policy/v1beta1', 'PodSecurityPolicy'],
    ] as const) {
      expect(at(av, k, '1.20')).toMatchObject({ status: 'served', deprecatedIn: '1.22', removedIn: '1.25' })
      expect(at(av, k, '1.21').deprecatedIn).toBe('1.21')
    }
  })
  it('networking.k8s.io/v1beta1 IngressClass: the warning names IngressClassList (types.go tag, N19)', () => {
    expect(at('networking.k8s.io/v1beta1', 'IngressClass', '1.21').warning).toBe(
      'networking.k8s.io/v1beta1 IngressClass is deprecated in v1.19+, unavailable in v1.22+; use networking.k8s.io/v1 IngressClassList',
    )
  })
  it('certificates.k8s.io/v1alpha1 ClusterTrustBundle: release-1.27 … 1.31 said D 1.29 / R 1.32, later D 1.34 / R 1.37', () => {
    expect(at('certificates.k8s.io/v1alpha1', 'ClusterTrustBundle', '1.30').warning).toBe(
      'certificates.k8s.io/v1alpha1 ClusterTrustBundle is deprecated in v1.29+, unavailable in v1.32+',
    )
    expect(at('certificates.k8s.io/v1alpha1', 'ClusterTrustBundle', '1.33').status).toBe('served')
    expect(at('certificates.k8s.io/v1alpha1', 'ClusterTrustBundle', '1.36').warning).toBe(
      'certificates.k8s.io/v1alpha1 ClusterTrustBundle is deprecated in v1.34+, unavailable in v1.37+',
    )
    expect(at('certificates.k8s.io/v1alpha1', 'ClusterTrustBundle', '1.37').status).toBe('removed')
  })
  it('a List kind warns with its item kind (installer.go sets the registered kind)', () => {
    const s = at('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchemaList', '1.30')
    expect(s.warning).toBe(
      'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema',
    )
    expect(at('extensions/v1beta1', 'IngressList', '1.22').message).toBe(
      'no matches for kind "IngressList" in version "extensions/v1beta1"',
    )
  })
})

describe('alpha and post-KEP-3136 betas: off by default (§2.2)', () => {
  it('admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy needs --runtime-config', () => {
    const s = at('admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', '1.31')
    expect(s).toMatchObject({
      status: 'deprecated',
      warning:
        'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+',
      offByDefault: {
        runtimeConfig: '--runtime-config=admissionregistration.k8s.io/v1beta1=true',
        message: 'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"',
      },
      replacement: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy' },
    })
  })
  it('flowcontrol v1beta3 stayed on (legacyBetaEnabledByDefaultResources), as did pre-1.24 betas', () => {
    expect(at('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', '1.28').offByDefault).toBeUndefined()
    expect(at('storage.k8s.io/v1beta1', 'CSIStorageCapacity', '1.25').offByDefault).toBeUndefined()
    expect(at('storage.k8s.io/v1beta1', 'VolumeAttributesClass', '1.33').offByDefault).toBeDefined()
  })
  it('admissionregistration.k8s.io/v1alpha1 VAP: no lifecycle methods before release-1.32, so no warning in 1.29 … 1.31', () => {
    const s = at('admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicy', '1.30')
    expect(s.status).toBe('served')
    expect(s.warning).toBeUndefined()
    expect(s.offByDefault).toBeDefined()
    expect(at('admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicy', '1.32').status).toBe('removed')
  })
  it('a version newer than the target is unknown there, with the client error and the release it arrives', () => {
    expect(at('resource.k8s.io/v1beta2', 'ResourceClaim', '1.32')).toMatchObject({
      status: 'unknown',
      introducedIn: '1.33',
      message: 'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1beta2"',
    })
  })
})

describe('kubectl error text (cli-runtime mapper.go, apimachinery meta/errors.go; §3.3)', () => {
  it('no matches for kind', () => {
    expect(noMatchesMessage('Ingress', 'extensions/v1beta1')).toBe(
      'no matches for kind "Ingress" in version "extensions/v1beta1"',
    )
  })
  it('the observed transcript (§3.3)', () => {
    expect(
      resourceMappingError({
        name: 'nginx',
        source: 'deployment.yaml',
        apiVersion: 'apps/v1beta2',
        kind: 'Deployment',
      }),
    ).toBe(
      'resource mapping not found for name: "nginx" namespace: "" from "deployment.yaml": no matches for kind "Deployment" in version "apps/v1beta2"\nensure CRDs are installed first',
    )
  })
  it('quotes like Go %q', () => {
    expect(noMatchesMessage('A"b\\c\n', 'v1')).toBe('no matches for kind "A\\"b\\\\c\\n" in version "v1"')
  })
})

describe('targets (SUPPORTED_TARGETS, --kube-version)', () => {
  it('1.16 … 1.37, every minor', () => {
    expect(SUPPORTED_TARGETS[0]).toBe('1.16')
    expect(SUPPORTED_TARGETS[SUPPORTED_TARGETS.length - 1]).toBe('1.37')
    for (const [i, t] of SUPPORTED_TARGETS.entries()) expect(t).toBe(`1.${16 + i}`)
  })
  it('accepts what kubectl version and the other tools print', () => {
    for (const v of ['1.36', 'v1.36', '1.36.2', 'v1.36.0', 'v1.30.2+k3s1', 'v1.30.14-eks-931bdca', 'v1.37.0-beta.0'])
      expect(parseKubeVersion(v).ok, v).toBe(true)
    expect(parseKubeVersion('v1.30.2+k3s1')).toEqual({ ok: true, target: '1.30' })
  })
  it('refuses others', () => {
    expect(parseKubeVersion('1.15')).toEqual({
      ok: false,
      error: "unsupported Kubernetes version '1.15' (supported: 1.16 to 1.37)",
    })
    expect(parseKubeVersion('2.0').ok).toBe(false)
    expect(parseKubeVersion('1.38').ok).toBe(false)
    for (const v of ['', '1', 'latest', '1.x', 'v1.36.'])
      expect(parseKubeVersion(v)).toEqual({
        ok: false,
        error: `invalid Kubernetes version '${v}' (expected 1.<minor>, such as 1.36)`,
      })
    expect(() => at('apps/v1', 'Deployment', '1.15')).toThrow(RangeError)
  })
  it('unknown GVKs are unknown', () => {
    expect(at('v1', 'Pod', '1.36')).toEqual({ status: 'unknown' })
    expect(at('example.com/v1', 'Widget', '1.36')).toEqual({ status: 'unknown' })
  })
})

describe('the table itself', () => {
  it('one row per GVK, well-formed values', () => {
    const keys = API_VERSIONS.map((r) => `${r.apiVersion} ${r.kind}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const r of API_VERSIONS) {
      for (const v of [r.introduced, r.deprecated, r.removed, r.typeGoneIn, r.guide])
        if (v !== undefined) expect(v, `${r.apiVersion} ${r.kind}`).toMatch(/^1\.\d+$/)
      if (r.deprecated && r.removed) expect(minor(r.deprecated)).toBeLessThan(minor(r.removed))
      if (r.guide) expect(r.removed, `${r.apiVersion} ${r.kind}`).toBe(r.guide)
      for (const ref of [r.warnReplacement, r.replacement])
        if (ref) expect(ref).toMatch(/^[a-z0-9.-]+(\/[a-z0-9]+)? [A-Z]\w+$/)
      if (r.stability === 'ga') expect(r.removed).toBeUndefined()
    }
  })
  it('covers the brief’s list of deprecated/removed GVKs served by default (guide §5.1 + v1 Endpoints)', () => {
    // docs/api-versions.md: 164 rows = 26 alpha + 82 beta + 2 deprecated GA (core v1) + 54 GA replacements
    expect(API_VERSIONS.length).toBe(164)
    expect(API_VERSIONS.filter((r) => r.stability !== 'ga' || r.deprecated).length).toBe(110)
    const guideRows = API_VERSIONS.filter((r) => r.guide)
    expect(guideRows.length).toBe(50) // §5.1: 49 rows with lifecycle data + apps/v1beta1 ReplicaSet (N20)
    for (const [av, k] of [
      ['policy/v1beta1', 'PodSecurityPolicy'],
      ['batch/v1beta1', 'CronJob'],
      ['networking.k8s.io/v1beta1', 'IngressClass'],
      ['flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'],
      ['v1', 'Endpoints'],
      ['authorization.k8s.io/v1beta1', 'SelfSubjectRulesReview'],
    ])
      expect(lookupApiVersion(av as string, k as string), `${av} ${k}`).toBeDefined()
  })
  it('§5.3 removals by release: removed from that release on, served the release before', () => {
    const byRelease: Record<string, string[]> = {
      '1.22': [
        'admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration',
        'apiextensions.k8s.io/v1beta1 CustomResourceDefinition',
        'apiregistration.k8s.io/v1beta1 APIService',
        'authentication.k8s.io/v1beta1 TokenReview',
        'certificates.k8s.io/v1beta1 CertificateSigningRequest',
        'coordination.k8s.io/v1beta1 Lease',
        'extensions/v1beta1 Ingress',
        'networking.k8s.io/v1beta1 IngressClass',
        'rbac.authorization.k8s.io/v1beta1 Role',
        'scheduling.k8s.io/v1beta1 PriorityClass',
        'storage.k8s.io/v1beta1 CSINode',
      ],
      '1.25': [
        'autoscaling/v2beta1 HorizontalPodAutoscaler',
        'batch/v1beta1 CronJob',
        'discovery.k8s.io/v1beta1 EndpointSlice',
        'events.k8s.io/v1beta1 Event',
        'node.k8s.io/v1beta1 RuntimeClass',
        'policy/v1beta1 PodDisruptionBudget',
        'policy/v1beta1 PodSecurityPolicy',
      ],
      '1.26': [
        'autoscaling/v2beta2 HorizontalPodAutoscaler',
        'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema',
        'flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration',
      ],
      '1.27': ['storage.k8s.io/v1beta1 CSIStorageCapacity'],
      '1.29': [
        'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema',
        'flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration',
      ],
      '1.32': [
        'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema',
        'flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration',
        'authentication.k8s.io/v1alpha1 SelfSubjectReview',
      ],
      '1.33': [
        'authentication.k8s.io/v1beta1 SelfSubjectReview',
        'networking.k8s.io/v1alpha1 IPAddress',
        'networking.k8s.io/v1alpha1 ServiceCIDR',
      ],
      '1.34': [
        'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy',
        'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicyBinding',
      ],
      '1.35': ['storage.k8s.io/v1alpha1 VolumeAttributesClass'],
      '1.37': [
        'certificates.k8s.io/v1alpha1 ClusterTrustBundle',
        'networking.k8s.io/v1beta1 IPAddress',
        'networking.k8s.io/v1beta1 ServiceCIDR',
        'storage.k8s.io/v1beta1 VolumeAttributesClass',
      ],
    }
    for (const [release, gvks] of Object.entries(byRelease)) {
      const before = `1.${minor(release) - 1}`
      for (const gvk of gvks) {
        const [av = '', k = ''] = gvk.split(' ')
        expect(at(av, k, release).status, `${gvk} at ${release}`).toBe('removed')
        expect(at(av, k, before).status, `${gvk} at ${before}`).not.toBe('removed')
      }
    }
  })
})
