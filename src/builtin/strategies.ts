import type { FeatureGates } from '../kube/feature-gates.js'
import { nameIsDNSSubdomain, type ValidateNameFunc } from '../kube/validation/objectmeta.js'
import type { JSONObject } from '../kube/values/json.js'
import {
  dropCronJobDisabledFields,
  dropCSIDriverDisabledFields,
  dropDisabledPodTemplateFields,
  dropDisabledSpecTemplateFields,
  dropHPADisabledFields,
  dropJobDisabledFields,
  dropPVDisabledSpecFields,
  dropStatefulSetDisabledFields,
  preparePersistentVolumeClaim,
} from './drop-disabled.js'
import { preparePod } from './pod-prepare.js'
import * as webhooks from './validation/admissionregistration/webhooks.js'
import * as apiservice from './validation/apiregistration/apiservice.js'
import * as controllerrevision from './validation/apps/controllerrevision.js'
import * as apps from './validation/apps/validation.js'
import * as autoscalingV1 from './validation/autoscaling/v1.js'
import * as autoscaling from './validation/autoscaling/validation.js'
import * as batch from './validation/batch/validation.js'
import * as csr from './validation/certificates/certificatesigningrequest.js'
import * as clustertrustbundle from './validation/certificates/clustertrustbundle.js'
import * as podcertificaterequest from './validation/certificates/podcertificaterequest.js'
import { prepareCertificateSigningRequest } from './validation/certificates/prepare.js'
import * as coordination from './validation/coordination/validation.js'
import * as config from './validation/core/config.js'
import * as endpoints from './validation/core/endpoints.js'
import * as namespace from './validation/core/namespace.js'
import * as node from './validation/core/node.js'
import * as persistentVolume from './validation/core/persistent-volume.js'
import * as pod from './validation/core/pod.js'
import * as pvc from './validation/core/pvc.js'
import * as quota from './validation/core/quota.js'
import * as replicationController from './validation/core/replication-controller.js'
import * as service from './validation/core/service.js'
import { prepareEndpointSlice } from './validation/discovery/prepare.js'
import * as discovery from './validation/discovery/validation.js'
import * as events from './validation/events/validation.js'
import * as flowcontrol from './validation/flowcontrol/validation.js'
import * as ingress from './validation/networking/ingress.js'
import * as ipaddress from './validation/networking/ipaddress.js'
import * as servicecidr from './validation/networking/servicecidr.js'
import * as networking from './validation/networking/validation.js'
import * as runtimeclass from './validation/node/validation.js'
import * as policy from './validation/policy/validation.js'
import * as rbac from './validation/rbac/validation.js'
import type { Validate, ValidateUpdate } from './validation/registry.js'
import * as resourceClaim from './validation/resource/claim.js'
import * as deviceClass from './validation/resource/device-class.js'
import {
  dropResourceClaimDisabledFields,
  dropResourceClaimTemplateDisabledFields,
  dropResourceSliceDisabledFields,
} from './validation/resource/prepare.js'
import * as resourceSlice from './validation/resource/slice.js'
import * as scheduling from './validation/scheduling/validation.js'
import * as csidriver from './validation/storage/csidriver.js'
import * as csinode from './validation/storage/csinode.js'
import * as csistoragecapacity from './validation/storage/csistoragecapacity.js'
import * as storage from './validation/storage/validation.js'
import * as volumeattachment from './validation/storage/volumeattachment.js'
import * as volumeattributesclass from './validation/storage/volumeattributesclass.js'

// The built-in kinds' registry strategies (kubernetes v1.37.2 pkg/registry/<group>/<kind>/strategy.go),
// as far as kelp models them: per group, versions and kind,
// - prepare: PrepareForCreate / PrepareForUpdate, the fields whose feature gate is off dropped
//   (drop-disabled.ts, drop-disabled-pod.ts);
// - validate / validateUpdate: Validate / ValidateUpdate, the ports of pkg/apis/<group>/validation
//   (validation/<group>/);
// - metadataOnly: a kind whose validation kelp does not cover but whose ObjectMeta name rule it knows: the
//   ObjectMeta part of its Validate (ValidateObjectMeta with the kind's Validate*Name, cited per row), and
//   on update the ObjectMeta validations its ValidateUpdate runs (metadataOnUpdate: `meta` its create
//   rules again, `update` ValidateObjectMetaUpdate; default update); `nativeValidation` stays `not-covered`.
//   Not modelled on these rows: the further metadata rules some kinds' Validate has (core's
//   validateKubeFinalizerName, Node's taint and avoid-pods annotations).
// This table is the one answer to "which kinds does kelp validate natively": a kind absent here, or
// without validate, is `not-covered`; every kind kelp decodes still gets the generic registry's
// ObjectMeta validation (rest.BeforeCreate's path-segment names, BeforeUpdate's validateCommonFields).
// The kinds kelp does not decode yet (storagemigration) have
// their rows for when it does. No row has WarningsOnCreate /
// WarningsOnUpdate yet (kelp reports no strategy warnings). strategy.ts indexes the rows once (a Map
// lookup per object) and runs them (beforeCreate / beforeUpdate).

/**
 * The user a request is attributed to (authentication/v1 UserInfo; the engine's request user): the strategies that
 * read it (a CertificateSigningRequest's PrepareForCreate copies it into the spec).
 */
export interface RequestUser {
  readonly username?: string
  readonly uid?: string
  readonly groups?: readonly string[]
  readonly extra?: Readonly<Record<string, readonly string[]>>
}

/** PrepareForCreate (old undefined) / PrepareForUpdate, in place; `user` the request's (genericapirequest.UserFrom). */
export type Prepare = (o: JSONObject, old: JSONObject | undefined, on: FeatureGates, user?: RequestUser) => void

/** One row of the table (strategies.ts): a kind's strategy as kelp models it. */
export interface StrategyRow {
  /** '' for core. */
  readonly group: string
  readonly versions: readonly string[]
  readonly kind: string
  /** PrepareForCreate (old undefined) / PrepareForUpdate: drops disabled fields (and what else it does), in place. */
  readonly prepare?: Prepare
  /** Validate (pkg/apis/<group>/validation). */
  readonly validate?: Validate
  /** ValidateUpdate. */
  readonly validateUpdate?: ValidateUpdate
  /**
   * Not covered, but the ObjectMeta part of its Validate is known: ValidateObjectMeta with this name rule (the
   * kind's Validate*Name); the rest of its Validate is taken to pass.
   */
  readonly metadataOnly?: ValidateNameFunc
  /**
   * With metadataOnly: what the kind's ValidateUpdate runs of ObjectMeta, in its order: `meta` the create
   * rules with the name rule on the new object (kinds whose update calls their Validate), `update`
   * ValidateObjectMetaUpdate. Default `['update']`; `[]` for a kind whose update checks no ObjectMeta.
   */
  readonly metadataOnUpdate?: readonly MetadataCheck[]
}

/** One ObjectMeta validation a kind's ValidateUpdate runs (StrategyRow.metadataOnUpdate). */
export type MetadataCheck = 'meta' | 'update'

// biome-ignore format: one row per line
export const STRATEGIES: readonly StrategyRow[] = [
  // core (pkg/apis/core/validation)
  { group: '', versions: ['v1'], kind: 'Pod', prepare: preparePod, validate: pod.validatePodCreate, validateUpdate: pod.validatePodUpdate },
  { group: '', versions: ['v1'], kind: 'PodTemplate', prepare: dropDisabledPodTemplateFields, validate: pod.validatePodTemplate, validateUpdate: pod.validatePodTemplateUpdate },
  { group: '', versions: ['v1'], kind: 'ReplicationController', prepare: dropDisabledSpecTemplateFields, validate: replicationController.validateReplicationController, validateUpdate: replicationController.validateReplicationControllerUpdate },
  { group: '', versions: ['v1'], kind: 'Service', validate: service.beforeServiceCreate, validateUpdate: service.beforeServiceUpdate },
  { group: '', versions: ['v1'], kind: 'PersistentVolumeClaim', prepare: preparePersistentVolumeClaim, validate: pvc.validatePersistentVolumeClaim, validateUpdate: pvc.validatePersistentVolumeClaimUpdate },
  { group: '', versions: ['v1'], kind: 'PersistentVolume', prepare: dropPVDisabledSpecFields, validate: persistentVolume.validatePersistentVolume, validateUpdate: persistentVolume.validatePersistentVolumeUpdate },
  { group: '', versions: ['v1'], kind: 'ConfigMap', validate: config.validateConfigMap, validateUpdate: config.validateConfigMapUpdate },
  { group: '', versions: ['v1'], kind: 'Secret', validate: config.validateSecret, validateUpdate: config.validateSecretUpdate },
  { group: '', versions: ['v1'], kind: 'Namespace', validate: namespace.validateNamespaceCreate, validateUpdate: namespace.validateNamespaceUpdate },
  { group: '', versions: ['v1'], kind: 'ServiceAccount', validate: namespace.validateServiceAccount, validateUpdate: namespace.validateServiceAccountUpdate },
  { group: '', versions: ['v1'], kind: 'LimitRange', validate: quota.validateLimitRange, validateUpdate: (o, _old, minor) => quota.validateLimitRange(o, minor) },
  { group: '', versions: ['v1'], kind: 'ResourceQuota', validate: quota.validateResourceQuota, validateUpdate: quota.validateResourceQuotaUpdate },
  { group: '', versions: ['v1'], kind: 'Endpoints', validate: endpoints.validateEndpointsCreate, validateUpdate: endpoints.validateEndpointsUpdate },
  { group: '', versions: ['v1'], kind: 'Node', prepare: node.prepareNode, validate: node.validateNode, validateUpdate: node.validateNodeUpdate },
  // ValidateEventCreate for core/v1 requests: legacyValidateEvent only, no ObjectMeta (the generic registry's rules apply)
  { group: '', versions: ['v1'], kind: 'Event' },
  // apps
  { group: 'apps', versions: ['v1'], kind: 'Deployment', prepare: dropDisabledSpecTemplateFields, validate: apps.validateDeployment, validateUpdate: apps.validateDeploymentUpdate },
  { group: 'apps', versions: ['v1'], kind: 'ReplicaSet', prepare: dropDisabledSpecTemplateFields, validate: apps.validateReplicaSet, validateUpdate: apps.validateReplicaSetUpdate },
  { group: 'apps', versions: ['v1'], kind: 'DaemonSet', prepare: dropDisabledSpecTemplateFields, validate: apps.validateDaemonSet, validateUpdate: apps.validateDaemonSetUpdate },
  { group: 'apps', versions: ['v1'], kind: 'ControllerRevision', validate: controllerrevision.validateControllerRevisionCreate, validateUpdate: controllerrevision.validateControllerRevisionUpdate },
  { group: 'apps', versions: ['v1'], kind: 'StatefulSet', prepare: dropStatefulSetDisabledFields, validate: apps.validateStatefulSet, validateUpdate: apps.validateStatefulSetUpdate },
  // batch
  { group: 'batch', versions: ['v1'], kind: 'Job', prepare: dropJobDisabledFields, validate: batch.validateJob, validateUpdate: batch.validateJobUpdate },
  { group: 'batch', versions: ['v1'], kind: 'CronJob', prepare: dropCronJobDisabledFields, validate: batch.validateCronJobCreate, validateUpdate: batch.validateCronJobUpdate },
  // autoscaling (v1 has no behavior: its prepare finds nothing to drop)
  { group: 'autoscaling', versions: ['v2'], kind: 'HorizontalPodAutoscaler', prepare: dropHPADisabledFields, validate: autoscaling.validateHorizontalPodAutoscaler, validateUpdate: autoscaling.validateHorizontalPodAutoscalerUpdate },
  // v1 objects converted to the same internal type (validation/autoscaling/v1.ts)
  { group: 'autoscaling', versions: ['v1'], kind: 'HorizontalPodAutoscaler', prepare: autoscalingV1.prepareHorizontalPodAutoscalerV1, validate: autoscalingV1.validateHorizontalPodAutoscalerV1, validateUpdate: autoscalingV1.validateHorizontalPodAutoscalerV1Update },
  // networking.k8s.io
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'NetworkPolicy', validate: networking.validateNetworkPolicy, validateUpdate: networking.validateNetworkPolicyUpdate },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'Ingress', validate: ingress.validateIngressCreate, validateUpdate: ingress.validateIngressUpdate },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'ServiceCIDR', validate: servicecidr.validateServiceCIDR, validateUpdate: servicecidr.validateServiceCIDRUpdate },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'IPAddress', validate: ipaddress.validateIPAddress, validateUpdate: ipaddress.validateIPAddressUpdate },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'IngressClass', validate: ingress.validateIngressClass, validateUpdate: ingress.validateIngressClassUpdate },
  // policy
  { group: 'policy', versions: ['v1'], kind: 'PodDisruptionBudget', validate: policy.validatePodDisruptionBudget, validateUpdate: policy.validatePodDisruptionBudgetUpdate },
  // rbac.authorization.k8s.io
  { group: 'rbac.authorization.k8s.io', versions: ['v1'], kind: 'Role', validate: rbac.validateRole, validateUpdate: rbac.validateRoleUpdate },
  { group: 'rbac.authorization.k8s.io', versions: ['v1'], kind: 'ClusterRole', validate: rbac.validateClusterRole, validateUpdate: rbac.validateClusterRoleUpdate },
  { group: 'rbac.authorization.k8s.io', versions: ['v1'], kind: 'RoleBinding', validate: rbac.validateRoleBinding, validateUpdate: rbac.validateRoleBindingUpdate },
  { group: 'rbac.authorization.k8s.io', versions: ['v1'], kind: 'ClusterRoleBinding', validate: rbac.validateClusterRoleBinding, validateUpdate: rbac.validateClusterRoleBindingUpdate },
  // scheduling.k8s.io
  { group: 'scheduling.k8s.io', versions: ['v1'], kind: 'PriorityClass', validate: scheduling.validatePriorityClass, validateUpdate: scheduling.validatePriorityClassUpdate },
  // storage.k8s.io
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'StorageClass', validate: storage.validateStorageClass, validateUpdate: storage.validateStorageClassUpdate },
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'CSIDriver', prepare: dropCSIDriverDisabledFields, validate: csidriver.validateCSIDriver, validateUpdate: csidriver.validateCSIDriverUpdate },
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'CSINode', validate: csinode.validateCSINode, validateUpdate: csinode.validateCSINodeUpdate },
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'VolumeAttachment', validate: volumeattachment.validateVolumeAttachment, validateUpdate: volumeattachment.validateVolumeAttachmentUpdate },
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'CSIStorageCapacity', validate: csistoragecapacity.validateCSIStorageCapacity, validateUpdate: csistoragecapacity.validateCSIStorageCapacityUpdate },
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'VolumeAttributesClass', validate: volumeattributesclass.validateVolumeAttributesClass, validateUpdate: volumeattributesclass.validateVolumeAttributesClassUpdate },
  // discovery.k8s.io
  { group: 'discovery.k8s.io', versions: ['v1'], kind: 'EndpointSlice', prepare: prepareEndpointSlice, validate: discovery.validateEndpointSliceCreate, validateUpdate: discovery.validateEndpointSliceUpdate },
  // certificates.k8s.io
  { group: 'certificates.k8s.io', versions: ['v1'], kind: 'CertificateSigningRequest', prepare: prepareCertificateSigningRequest, validate: csr.validateCertificateSigningRequestCreate, validateUpdate: csr.validateCertificateSigningRequestUpdate },
  { group: 'certificates.k8s.io', versions: ['v1'], kind: 'PodCertificateRequest', validate: podcertificaterequest.validatePodCertificateRequestCreate, validateUpdate: podcertificaterequest.validatePodCertificateRequestUpdate },
  { group: 'certificates.k8s.io', versions: ['v1'], kind: 'ClusterTrustBundle', validate: clustertrustbundle.validateClusterTrustBundle, validateUpdate: clustertrustbundle.validateClusterTrustBundleUpdate },
  // coordination.k8s.io
  { group: 'coordination.k8s.io', versions: ['v1'], kind: 'Lease', prepare: coordination.dropLeaseDisabledFields, validate: coordination.validateLease, validateUpdate: coordination.validateLeaseUpdate },
  // node.k8s.io
  { group: 'node.k8s.io', versions: ['v1'], kind: 'RuntimeClass', validate: runtimeclass.validateRuntimeClass, validateUpdate: runtimeclass.validateRuntimeClassUpdate },
  // resource.k8s.io
  { group: 'resource.k8s.io', versions: ['v1'], kind: 'ResourceClaim', prepare: dropResourceClaimDisabledFields, validate: resourceClaim.validateResourceClaim, validateUpdate: resourceClaim.validateResourceClaimUpdate },
  { group: 'resource.k8s.io', versions: ['v1'], kind: 'ResourceClaimTemplate', prepare: dropResourceClaimTemplateDisabledFields, validate: resourceClaim.validateResourceClaimTemplate, validateUpdate: resourceClaim.validateResourceClaimTemplateUpdate },
  { group: 'resource.k8s.io', versions: ['v1'], kind: 'DeviceClass', validate: deviceClass.validateDeviceClass, validateUpdate: deviceClass.validateDeviceClassUpdate },
  { group: 'resource.k8s.io', versions: ['v1'], kind: 'ResourceSlice', prepare: dropResourceSliceDisabledFields, validate: resourceSlice.validateResourceSlice, validateUpdate: resourceSlice.validateResourceSliceUpdate },
  { group: 'resource.k8s.io', versions: ['v1'], kind: 'DeviceTaintRule', validate: resourceSlice.validateDeviceTaintRule, validateUpdate: resourceSlice.validateDeviceTaintRuleUpdate },
  // flowcontrol.apiserver.k8s.io (their updates run the create validation)
  { group: 'flowcontrol.apiserver.k8s.io', versions: ['v1'], kind: 'FlowSchema', validate: flowcontrol.validateFlowSchema, validateUpdate: flowcontrol.validateFlowSchemaUpdate },
  { group: 'flowcontrol.apiserver.k8s.io', versions: ['v1'], kind: 'PriorityLevelConfiguration', validate: flowcontrol.validatePriorityLevelConfiguration, validateUpdate: flowcontrol.validatePriorityLevelConfigurationUpdate },
  // events.k8s.io: core's ValidateEventCreate / ValidateEventUpdate for an events.k8s.io/v1 request
  { group: 'events.k8s.io', versions: ['v1'], kind: 'Event', validate: events.validateEventCreate, validateUpdate: events.validateEventUpdate },
  // storagemigration.k8s.io (not decoded yet): ValidateStorageVersionMigration: NameIsDNSSubdomain; its update: it, then ValidateObjectMetaUpdate
  { group: 'storagemigration.k8s.io', versions: ['v1'], kind: 'StorageVersionMigration', metadataOnly: nameIsDNSSubdomain, metadataOnUpdate: ['meta', 'update'] },
  // admissionregistration.k8s.io
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'ValidatingWebhookConfiguration', validate: webhooks.validateValidatingWebhookConfiguration, validateUpdate: webhooks.validateValidatingWebhookConfigurationUpdate },
  // the admission policies and bindings (validated as material by src/engine/hooks.ts): NameIsDNSSubdomain; their updates call the create validation
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'ValidatingAdmissionPolicy', metadataOnly: nameIsDNSSubdomain, metadataOnUpdate: ['meta'] },
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'ValidatingAdmissionPolicyBinding', metadataOnly: nameIsDNSSubdomain, metadataOnUpdate: ['meta'] },
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'MutatingAdmissionPolicy', metadataOnly: nameIsDNSSubdomain, metadataOnUpdate: ['meta'] },
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'MutatingAdmissionPolicyBinding', metadataOnly: nameIsDNSSubdomain, metadataOnUpdate: ['meta'] },
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'MutatingWebhookConfiguration', validate: webhooks.validateMutatingWebhookConfiguration, validateUpdate: webhooks.validateMutatingWebhookConfigurationUpdate },
  // apiregistration.k8s.io: kube-aggregator's APIService (k8s.io/kube-aggregator pkg/registry/apiservice/strategy.go)
  { group: 'apiregistration.k8s.io', versions: ['v1'], kind: 'APIService', prepare: apiservice.prepareAPIService, validate: apiservice.validateAPIService, validateUpdate: apiservice.validateAPIServiceUpdate },
]
