import { nameIsDNSSubdomain } from '../kube/validation/objectmeta.js'
import {
  dropCronJobDisabledFields,
  dropCSIDriverDisabledFields,
  dropDisabledPodTemplateFields,
  dropDisabledSpecTemplateFields,
  dropEndpointSliceDisabledFields,
  dropHPADisabledFields,
  dropJobDisabledFields,
  dropPVCDisabledFields,
  dropPVDisabledSpecFields,
  dropStatefulSetDisabledFields,
} from './drop-disabled.js'
import { DropDisabledPodFields } from './drop-disabled-pod.js'
import type { StrategyRow } from './strategy.js'
import * as webhooks from './validation/admissionregistration/webhooks.js'
import * as apps from './validation/apps/validation.js'
import * as autoscaling from './validation/autoscaling/validation.js'
import * as batch from './validation/batch/validation.js'
import * as config from './validation/core/config.js'
import * as namespace from './validation/core/namespace.js'
import * as pod from './validation/core/pod.js'
import * as pvc from './validation/core/pvc.js'
import * as quota from './validation/core/quota.js'
import * as service from './validation/core/service.js'
import * as ingress from './validation/networking/ingress.js'
import * as networking from './validation/networking/validation.js'
import * as policy from './validation/policy/validation.js'
import * as rbac from './validation/rbac/validation.js'
import * as scheduling from './validation/scheduling/validation.js'
import * as storage from './validation/storage/validation.js'

// The built-in kinds' registry strategies (kubernetes v1.37.2 pkg/registry/<group>/<kind>/strategy.go),
// as far as kelp models them: per group, versions and kind,
// - prepare: PrepareForCreate / PrepareForUpdate, the fields whose feature gate is off dropped
//   (drop-disabled.ts, drop-disabled-pod.ts);
// - validate / validateUpdate: Validate / ValidateUpdate, the ports of pkg/apis/<group>/validation
//   (validation/<group>/);
// - metadataOnly: a kind whose validation kelp does not cover but whose ObjectMeta name rule it knows
//   (its create's metadata is checked, nothing else; `nativeValidation` stays `not-covered`).
// This table is the one answer to "which kinds does kelp validate natively": a kind absent here, or
// without validate, is decoded and defaulted only (`not-covered`). No row has WarningsOnCreate /
// WarningsOnUpdate yet (kelp reports no strategy warnings). strategy.ts indexes the rows once (a Map
// lookup per object) and runs them (beforeCreate / beforeUpdate).

// biome-ignore format: one row per line
export const STRATEGIES: readonly StrategyRow[] = [
  // core (pkg/apis/core/validation)
  { group: '', versions: ['v1'], kind: 'Pod', prepare: DropDisabledPodFields, validate: pod.validatePodCreate, validateUpdate: pod.validatePodUpdate },
  { group: '', versions: ['v1'], kind: 'PodTemplate', prepare: dropDisabledPodTemplateFields, validate: pod.validatePodTemplate, validateUpdate: pod.validatePodTemplateUpdate },
  { group: '', versions: ['v1'], kind: 'ReplicationController', prepare: dropDisabledSpecTemplateFields },
  { group: '', versions: ['v1'], kind: 'Service', validate: service.beforeServiceCreate, validateUpdate: service.beforeServiceUpdate },
  { group: '', versions: ['v1'], kind: 'PersistentVolumeClaim', prepare: dropPVCDisabledFields, validate: pvc.validatePersistentVolumeClaim, validateUpdate: pvc.validatePersistentVolumeClaimUpdate },
  { group: '', versions: ['v1'], kind: 'PersistentVolume', prepare: dropPVDisabledSpecFields },
  { group: '', versions: ['v1'], kind: 'ConfigMap', validate: config.validateConfigMap, validateUpdate: config.validateConfigMapUpdate },
  { group: '', versions: ['v1'], kind: 'Secret', validate: config.validateSecret, validateUpdate: config.validateSecretUpdate },
  { group: '', versions: ['v1'], kind: 'Namespace', validate: namespace.validateNamespaceCreate, validateUpdate: namespace.validateNamespaceUpdate },
  { group: '', versions: ['v1'], kind: 'ServiceAccount', validate: namespace.validateServiceAccount, validateUpdate: namespace.validateServiceAccountUpdate },
  { group: '', versions: ['v1'], kind: 'LimitRange', validate: quota.validateLimitRange, validateUpdate: (o, _old, minor) => quota.validateLimitRange(o, minor) },
  { group: '', versions: ['v1'], kind: 'ResourceQuota', validate: quota.validateResourceQuota, validateUpdate: quota.validateResourceQuotaUpdate },
  { group: '', versions: ['v1'], kind: 'Endpoints', metadataOnly: nameIsDNSSubdomain },
  // apps
  { group: 'apps', versions: ['v1'], kind: 'Deployment', prepare: dropDisabledSpecTemplateFields, validate: apps.validateDeployment, validateUpdate: apps.validateDeploymentUpdate },
  { group: 'apps', versions: ['v1'], kind: 'ReplicaSet', prepare: dropDisabledSpecTemplateFields, validate: apps.validateReplicaSet, validateUpdate: apps.validateReplicaSetUpdate },
  { group: 'apps', versions: ['v1'], kind: 'DaemonSet', prepare: dropDisabledSpecTemplateFields, validate: apps.validateDaemonSet, validateUpdate: apps.validateDaemonSetUpdate },
  { group: 'apps', versions: ['v1'], kind: 'StatefulSet', prepare: dropStatefulSetDisabledFields, validate: apps.validateStatefulSet, validateUpdate: apps.validateStatefulSetUpdate },
  // batch
  { group: 'batch', versions: ['v1'], kind: 'Job', prepare: dropJobDisabledFields, validate: batch.validateJob, validateUpdate: batch.validateJobUpdate },
  { group: 'batch', versions: ['v1'], kind: 'CronJob', prepare: dropCronJobDisabledFields, validate: batch.validateCronJobCreate, validateUpdate: batch.validateCronJobUpdate },
  // autoscaling (v1 has no behavior: its prepare finds nothing to drop)
  { group: 'autoscaling', versions: ['v2'], kind: 'HorizontalPodAutoscaler', prepare: dropHPADisabledFields, validate: autoscaling.validateHorizontalPodAutoscaler, validateUpdate: autoscaling.validateHorizontalPodAutoscalerUpdate },
  { group: 'autoscaling', versions: ['v1'], kind: 'HorizontalPodAutoscaler', prepare: dropHPADisabledFields },
  // networking.k8s.io
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'NetworkPolicy', validate: networking.validateNetworkPolicy, validateUpdate: networking.validateNetworkPolicyUpdate },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'Ingress', validate: ingress.validateIngressCreate, validateUpdate: ingress.validateIngressUpdate },
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
  { group: 'storage.k8s.io', versions: ['v1'], kind: 'CSIDriver', prepare: dropCSIDriverDisabledFields, metadataOnly: nameIsDNSSubdomain },
  // discovery.k8s.io
  { group: 'discovery.k8s.io', versions: ['v1'], kind: 'EndpointSlice', prepare: dropEndpointSliceDisabledFields },
  // admissionregistration.k8s.io
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'ValidatingWebhookConfiguration', validate: webhooks.validateValidatingWebhookConfiguration, validateUpdate: webhooks.validateValidatingWebhookConfigurationUpdate },
  { group: 'admissionregistration.k8s.io', versions: ['v1'], kind: 'MutatingWebhookConfiguration', validate: webhooks.validateMutatingWebhookConfiguration, validateUpdate: webhooks.validateMutatingWebhookConfigurationUpdate },
]
