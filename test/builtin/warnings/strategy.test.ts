import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../../src/builtin/index.js'
import { beforeCreate, beforeUpdate } from '../../../src/builtin/strategy.js'
import { strategyWarnings } from '../../../src/builtin/warnings/index.js'
import { PolicySet } from '../../../src/engine/policy-set.js'

// The strategies' warnings through rest.BeforeCreate / BeforeUpdate (src/builtin/strategy.ts). Expected texts:
// k8s.io/kubernetes v1.37.2 pkg/registry/*/*/strategy.go (WarningsOnCreate / WarningsOnUpdate), each also
// printed by kube-apiserver v1.37.2 for the same object (kubectl apply --dry-run=server; the differential's
// cases/kinds/warnings.yaml and cases/updates/warn-*.yaml).

type O = Record<string, unknown>
const request = { namespaced: true, namespace: 'default', minor: 37 }
const decoded = (o: O) => {
  const b = decodeBuiltin(o, { minor: 37, keepEmpty: true })
  if (b?.object === undefined) throw new Error('not decoded')
  return b
}
const DNS_LABEL_DOTS =
  'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]'
const GRACE =
  'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1'

const replicaSet = (replicas: number, labels: O = {}): O => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'warn.rs', namespace: 'default', labels },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'w' } },
    template: {
      metadata: { labels: { app: 'w' } },
      spec: { terminationGracePeriodSeconds: -1, containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
})

describe('WarningsOnCreate / WarningsOnUpdate through BeforeCreate / BeforeUpdate', () => {
  it('create: the name warning, then the template warnings, after the decoding warnings', () => {
    const o = replicaSet(1)
    ;(o.spec as O).bogus = 1
    const b = decodeBuiltin(o, { minor: 37, keepEmpty: true, fieldValidation: 'Warn' })!
    expect(beforeCreate(b, request).warnings).toEqual(['unknown field "spec.bogus"', DNS_LABEL_DOTS, GRACE])
  })

  it('update: the template warned about only when the spec changed (generation), never the name', () => {
    const old = decoded(replicaSet(1)).object as O
    expect(beforeUpdate(decoded(replicaSet(1, { x: 'z' })), old, request).warnings).toEqual([])
    expect(beforeUpdate(decoded(replicaSet(3)), old, request).warnings).toEqual([GRACE])
  })

  it('a refused write has no strategy warning (WarningsOnCreate runs after validation)', () => {
    const r = beforeCreate(decoded(replicaSet(-1)), request)
    expect(r.allowed).toBe(false)
    expect(r.warnings).toEqual([])
  })

  it("a ReplicationController's update warns about the old template (rcStrategy.WarningsOnUpdate)", () => {
    const rc = (grace: number): O => ({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'warn-rc', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { app: 'w' },
        template: {
          metadata: { labels: { app: 'w' } },
          spec: { terminationGracePeriodSeconds: grace, containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    })
    const old = decoded(rc(-1)).object as O
    expect(beforeUpdate(decoded(rc(5)), old, request).warnings).toEqual([GRACE])
  })

  it('Ingress, PersistentVolumeClaim, StatefulSet, CronJob texts', () => {
    expect(
      strategyWarnings(
        'networking.k8s.io',
        'Ingress',
        { metadata: { annotations: { 'kubernetes.io/ingress.class': 'x' } } },
        undefined,
        37,
      ),
    ).toEqual(['annotation "kubernetes.io/ingress.class" is deprecated, please use \'spec.ingressClassName\' instead'])
    expect(
      strategyWarnings(
        '',
        'PersistentVolumeClaim',
        { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 's' } }, spec: {} },
        undefined,
        37,
      ),
    ).toEqual([
      'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
    ])
    expect(strategyWarnings('apps', 'StatefulSet', { spec: { revisionHistoryLimit: -1 } }, undefined, 37)).toEqual([
      'spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended',
    ])
    // the CronJob's update: Go's path is spec.spec.schedule
    expect(
      strategyWarnings(
        'batch',
        'CronJob',
        { metadata: { name: 'c' }, spec: { schedule: 'TZ=UTC 0 * * * *' } },
        { spec: { schedule: 'TZ=UTC 0 * * * *' } },
        37,
      ),
    ).toEqual([
      'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
    ])
    expect(strategyWarnings('', 'ConfigMap', {}, undefined, 37)).toEqual([])
  })

  it('admissionregistration: the static suffix (create while ManifestBasedAdmissionControlConfig is off, 1.36; update)', () => {
    const vap = { metadata: { name: 'p.static.k8s.io' } }
    const text =
      'metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API'
    const g = 'admissionregistration.k8s.io'
    expect(strategyWarnings(g, 'ValidatingAdmissionPolicy', vap, undefined, 36)).toEqual([text])
    expect(strategyWarnings(g, 'ValidatingAdmissionPolicy', vap, undefined, 37)).toEqual([])
    expect(strategyWarnings(g, 'ValidatingAdmissionPolicyBinding', vap, vap, 37)).toEqual([text])
    expect(strategyWarnings(g, 'MutatingWebhookConfiguration', vap, vap, 35)).toEqual([])
  })
})

const apparmorPod = (value: string): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p',
    namespace: 'default',
    annotations: { 'container.apparmor.security.beta.kubernetes.io/c': value },
  },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})
const APPARMOR =
  'metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead'

describe("the Pod strategy's applyAppArmorVersionSkew (pkg/registry/core/pod/strategy.go)", () => {
  it('copies the annotation into the container field and warns', () => {
    const r = beforeCreate(decoded(apparmorPod('localhost/prof')), request)
    expect(r.allowed).toBe(true)
    expect(r.warnings).toEqual([APPARMOR])
    const c = ((r.object as O).spec as { containers: O[] }).containers[0]!
    expect(c.securityContext).toEqual({ appArmorProfile: { type: 'Localhost', localhostProfile: 'prof' } })
  })

  it('an annotation no valid field derives from: warned, not copied, even though validation refuses the pod', () => {
    const r = beforeCreate(decoded(apparmorPod('bogus')), request)
    expect(r.allowed).toBe(false)
    expect(r.warnings).toEqual([APPARMOR])
  })

  // k8s.io/kubernetes v1.30.0 to v1.33.0 pkg/registry/core/pod/strategy.go: the field synced into the annotation too
  it("up to 1.33, a field without its annotation gets it (the container's, else the pod's)", () => {
    const pod = (minor: number) => {
      const o: O = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'default' },
        spec: {
          securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'a',
              image: 'nginx',
              securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'x' } },
            },
            { name: 'b', image: 'nginx' },
          ],
        },
      }
      const b = decodeBuiltin(o, { minor, keepEmpty: true })!
      const r = beforeCreate(b, { ...request, minor })
      return [r.warnings, ((r.object as O).metadata as O).annotations]
    }
    expect(pod(33)).toEqual([
      [],
      {
        'container.apparmor.security.beta.kubernetes.io/a': 'localhost/x',
        'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
      },
    ])
    expect(pod(34)).toEqual([[], undefined])
  })

  it('the validating policies see the copied field (PrepareForCreate runs before validating admission)', () => {
    const set = PolicySet.build([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'apparmor' },
        spec: {
          matchConstraints: {
            resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
          },
          validations: [
            {
              expression:
                "object.spec.containers.all(c, has(c.securityContext) && has(c.securityContext.appArmorProfile) && c.securityContext.appArmorProfile.type == 'RuntimeDefault')",
              message: 'RuntimeDefault only',
            },
          ],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'apparmor' },
        spec: { policyName: 'apparmor', validationActions: ['Deny'] },
      },
    ])
    const allowed = set.validate(apparmorPod('runtime/default'))
    expect(allowed.allowed).toBe(true)
    expect(allowed.warnings).toEqual([APPARMOR])
    expect(set.validate(apparmorPod('unconfined')).allowed).toBe(false)
  })
})

// each release's sources (k8s.io/kubernetes v1.30.0 … v1.36.0): a warning older releases did not have is not given
describe('warnings by release', () => {
  it("a Service's warnings as each release words them", () => {
    const svc = {
      spec: {
        type: 'ClusterIP',
        clusterIP: 'None',
        externalIPs: ['10.0.0.1'],
        sessionAffinity: 'ClientIP',
        trafficDistribution: 'PreferClose',
      },
    }
    const at = (minor: number) => strategyWarnings('', 'Service', svc, undefined, minor)
    expect(at(33)).toEqual([])
    expect(at(34)).toEqual([
      'spec.externalIPs is ignored for headless services',
      'spec.SessionAffinity is ignored for headless services',
    ])
    expect(at(35)).toEqual([...at(34), 'spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"'])
    expect(
      strategyWarnings('', 'Service', { spec: { type: 'ClusterIP', externalIPs: ['10.0.0.1'] } }, undefined, 35),
    ).toEqual([])
    expect(
      strategyWarnings('', 'Service', { spec: { type: 'ClusterIP', externalIPs: ['10.0.0.1'] } }, undefined, 36),
    ).toEqual(['spec.externalIPs is deprecated and may no longer be implemented in some clusters'])
  })

  it("a template's duplicate port names from 1.33, overlapping paths from 1.32", () => {
    const rs = {
      metadata: { name: 'rs' },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'a', ports: [{ name: 'p', containerPort: 1, protocol: 'TCP' }] },
              { name: 'b', ports: [{ name: 'p', containerPort: 2, protocol: 'TCP' }] },
            ],
            volumes: [
              {
                name: 'v',
                secret: {
                  secretName: 's',
                  items: [
                    { key: 'a', path: 'x' },
                    { key: 'b', path: 'x' },
                  ],
                },
              },
            ],
          },
        },
      },
    }
    const overlap = 'volume "v" (Secret "s"): overlapping paths: "x" with "x"'
    const names =
      'spec.template.spec.containers[1].ports[0]: duplicate port name "p" with spec.template.spec.containers[0].ports[0], services and probes that select ports by name will use spec.template.spec.containers[0].ports[0]'
    expect(strategyWarnings('apps', 'ReplicaSet', rs, undefined, 31)).toEqual([])
    expect(strategyWarnings('apps', 'ReplicaSet', rs, undefined, 32)).toEqual([overlap])
    expect(strategyWarnings('apps', 'ReplicaSet', rs, undefined, 33)).toEqual([overlap, names])
  })
})

describe('hostile input', () => {
  const KINDS: [string, string][] = [
    ['', 'Pod'],
    ['', 'PodTemplate'],
    ['', 'ReplicationController'],
    ['', 'Service'],
    ['', 'Endpoints'],
    ['', 'Node'],
    ['', 'PersistentVolume'],
    ['', 'PersistentVolumeClaim'],
    ['', 'ResourceQuota'],
    ['', 'ServiceAccount'],
    ['apps', 'Deployment'],
    ['apps', 'StatefulSet'],
    ['apps', 'DaemonSet'],
    ['batch', 'CronJob'],
    ['networking.k8s.io', 'Ingress'],
    ['networking.k8s.io', 'NetworkPolicy'],
    ['discovery.k8s.io', 'EndpointSlice'],
    ['storage.k8s.io', 'StorageClass'],
    ['storage.k8s.io', 'CSIStorageCapacity'],
    ['storage.k8s.io', 'CSIDriver'],
    ['node.k8s.io', 'RuntimeClass'],
    ['resource.k8s.io', 'ResourceSlice'],
    ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'],
  ]
  // every field the warning functions read, given a value of each wrong shape
  const shapes: unknown[] = [
    null,
    1,
    'x',
    true,
    [],
    [null, 1, 'x', []],
    { __proto__: 1 },
    JSON.parse('{"__proto__":{"a":1}}'),
  ]
  it('wrong types anywhere (and __proto__ keys): no throw', () => {
    for (const [group, kind] of KINDS)
      for (const v of shapes) {
        const o = JSON.parse(
          JSON.stringify({
            metadata: { name: v, annotations: v, labels: v },
            spec: {
              template: v,
              jobTemplate: v,
              containers: v,
              volumes: v,
              hard: v,
              ports: v,
              clusterIPs: v,
              driver: v,
            },
            webhooks: v,
            subsets: v,
            endpoints: v,
            scheduling: v,
            allowedTopologies: v,
            nodeTopology: v,
          }) ?? '{}',
        )
        expect(() => strategyWarnings(group, kind, o, undefined, 37)).not.toThrow()
        expect(() => strategyWarnings(group, kind, o, o, 37)).not.toThrow()
      }
  })
})
