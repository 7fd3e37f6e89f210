import type { JSONObject } from '../../kube/values/json.js'
import * as admissionregistration from './admissionregistration.js'
import { obj, str } from './common.js'
import {
  endpointsWarnings,
  getWarningsForService,
  nodeWarnings,
  resourceQuotaWarnings,
  serviceAccountWarnings,
} from './core.js'
import { endpointSliceWarnings, ingressWarnings, networkPolicyWarnings } from './networking.js'
import { getWarningsForRuntimeClass } from './node.js'
import {
  csiDriverWarnings,
  getWarningsForCSIStorageCapacity,
  getWarningsForPersistentVolume,
  getWarningsForPersistentVolumeClaim,
  getWarningsForStorageClass,
} from './storage.js'
import type { KindWarnings } from './workloads.js'
import * as workloads from './workloads.js'

export { applyAppArmorVersionSkew } from './apparmor.js'
export { recordWarnings } from './recorder.js'

// The kinds' strategies' WarningsOnCreate / WarningsOnUpdate (k8s.io/kubernetes v1.37.2
// pkg/registry/<group>/<kind>/strategy.go), by group and kind: what rest.BeforeCreate / BeforeUpdate add to
// the response's warnings once validation passed. Kinds whose strategy returns nil have no row. Not ported:
// a kubernetes.io/tls Secret whose key does not match its certificate (crypto/tls X509KeyPair's error).

type Warnings = (o: JSONObject, minor: number) => string[]
const same = (f: Warnings): KindWarnings => ({ onCreate: f, onUpdate: (o, _old, minor) => f(o, minor) })
const createOnly = (f: Warnings): KindWarnings => ({ onCreate: f, onUpdate: () => [] })

function resourceSliceWarnings(rs: JSONObject, minor: number): string[] {
  // (from 1.35)
  if (minor < 35) return []
  const driver = str(obj(rs.spec)?.driver)
  return driver === driver.toLowerCase()
    ? []
    : [`spec.driver: driver names should be lowercase; "${driver}" contains uppercase characters`]
}

const TABLE: ReadonlyMap<string, ReadonlyMap<string, KindWarnings>> = new Map([
  [
    '',
    new Map<string, KindWarnings>([
      ['Pod', workloads.pod],
      ['PodTemplate', workloads.podTemplate],
      ['ReplicationController', workloads.replicationController],
      ['Service', same(getWarningsForService)],
      ['Endpoints', same(endpointsWarnings)],
      ['Node', same(nodeWarnings)],
      ['PersistentVolume', same(getWarningsForPersistentVolume)],
      ['PersistentVolumeClaim', same(getWarningsForPersistentVolumeClaim)],
      ['ResourceQuota', createOnly(resourceQuotaWarnings)],
      [
        'ServiceAccount',
        { onCreate: (o, minor) => serviceAccountWarnings(o, undefined, minor), onUpdate: serviceAccountWarnings },
      ],
    ]),
  ],
  [
    'apps',
    new Map<string, KindWarnings>([
      ['Deployment', workloads.deployment],
      ['ReplicaSet', workloads.replicaSet],
      ['DaemonSet', workloads.daemonSet],
      ['StatefulSet', workloads.statefulSet],
    ]),
  ],
  [
    'batch',
    new Map<string, KindWarnings>([
      ['Job', workloads.job],
      ['CronJob', workloads.cronJob],
    ]),
  ],
  [
    'networking.k8s.io',
    new Map<string, KindWarnings>([
      ['Ingress', createOnly(ingressWarnings)],
      ['NetworkPolicy', same(networkPolicyWarnings)],
    ]),
  ],
  [
    'discovery.k8s.io',
    new Map<string, KindWarnings>([
      [
        'EndpointSlice',
        { onCreate: (o, minor) => endpointSliceWarnings(o, undefined, minor), onUpdate: endpointSliceWarnings },
      ],
    ]),
  ],
  ['node.k8s.io', new Map<string, KindWarnings>([['RuntimeClass', same(getWarningsForRuntimeClass)]])],
  [
    'storage.k8s.io',
    new Map<string, KindWarnings>([
      ['StorageClass', same(getWarningsForStorageClass)],
      ['CSIStorageCapacity', same(getWarningsForCSIStorageCapacity)],
      [
        'CSIDriver',
        {
          onCreate: (o, minor) => csiDriverWarnings(o, undefined, minor),
          onUpdate: (o, old, m) => csiDriverWarnings(o, old, m),
        },
      ],
    ]),
  ],
  ['resource.k8s.io', new Map<string, KindWarnings>([['ResourceSlice', same(resourceSliceWarnings)]])],
  [
    'admissionregistration.k8s.io',
    new Map<string, KindWarnings>([
      ['ValidatingAdmissionPolicy', admissionregistration.policy],
      ['ValidatingAdmissionPolicyBinding', admissionregistration.policy],
      ['MutatingAdmissionPolicy', admissionregistration.policy],
      ['MutatingAdmissionPolicyBinding', admissionregistration.policy],
      ['ValidatingWebhookConfiguration', admissionregistration.webhookConfiguration],
      ['MutatingWebhookConfiguration', admissionregistration.webhookConfiguration],
    ]),
  ],
])

/**
 * strategy.WarningsOnCreate (`old` undefined) or WarningsOnUpdate of a decoded, defaulted, prepared and
 * validated built-in object of `group`/`kind`; [] for kinds without warnings.
 */
export function strategyWarnings(
  group: string,
  kind: string,
  object: JSONObject,
  old: JSONObject | undefined,
  minor: number,
): string[] {
  const w = TABLE.get(group)?.get(kind)
  if (w === undefined) return []
  return old === undefined ? w.onCreate(object, minor) : w.onUpdate(object, old, minor)
}
