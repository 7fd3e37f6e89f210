import { describe, expect, test } from 'vitest'
import { imageTag } from '../../src/builtin/image.js'
import { decodeBuiltin } from '../../src/builtin/index.js'

type O = Record<string, any>
const stored = (o: O, minor?: number): O => {
  const r = decodeBuiltin(o, minor === undefined ? {} : { minor })
  if (r?.object === undefined) throw new Error(r?.message ?? 'not a built-in')
  return r.object as O
}
const deploy = (spec: O = {}) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec })

// kubernetes v1.37.2 pkg/apis/apps/v1/defaults_test.go TestSetDefaultDeployment: the five cases,
// compared on the spec (defaultTemplate is a PodSpec defaulted by SetDefaults_PodSpec)
describe('apps/v1 TestSetDefaultDeployment', () => {
  const defaultTemplate = {
    metadata: {},
    spec: {
      containers: null,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  }
  const rolling = (maxSurge: unknown = '25%') => ({
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: '25%', maxSurge },
  })
  const cases: [O, O][] = [
    [{}, { replicas: 1, strategy: rolling(), revisionHistoryLimit: 10, progressDeadlineSeconds: 600 }],
    [
      { replicas: 5, strategy: { rollingUpdate: { maxSurge: 5 } } },
      { replicas: 5, strategy: rolling(5), revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
    ],
    [
      { replicas: 3, strategy: { type: 'RollingUpdate', rollingUpdate: null } },
      { replicas: 3, strategy: rolling(), revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
    ],
    [
      { replicas: 5, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0 },
      { replicas: 5, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, progressDeadlineSeconds: 600 },
    ],
    [
      { replicas: 5, strategy: { type: 'Recreate' }, progressDeadlineSeconds: 30, revisionHistoryLimit: 2 },
      { replicas: 5, strategy: { type: 'Recreate' }, progressDeadlineSeconds: 30, revisionHistoryLimit: 2 },
    ],
  ]
  test.each(cases)('%j', (spec, expected) => {
    const got = stored(deploy(spec)).spec
    expect(got).toEqual({ selector: null, template: defaultTemplate, ...expected })
  })
})

// pkg/apis/core/v1/defaults_test.go TestPodDefaults (testPodDefaults, features at their 1.37 defaults):
// the expectedDefaults table, for a pod with one of each defaulted part
describe('core/v1 TestPodDefaults', () => {
  const probe = () => ({ httpGet: { port: 80 }, grpc: { port: 9 } })
  const container = () => ({
    name: 'c',
    image: 'img:1',
    ports: [{ containerPort: 80 }],
    env: [
      { name: 'e', valueFrom: { fieldRef: { fieldPath: 'x' }, fileKeyRef: { volumeName: 'v', path: 'p', key: 'k' } } },
    ],
    resources: { limits: { cpu: '1' } },
    livenessProbe: probe(),
    readinessProbe: probe(),
    startupProbe: probe(),
    lifecycle: { postStart: { httpGet: { port: 80 } }, preStop: { httpGet: { port: 80 } } },
  })
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      containers: [container()],
      initContainers: [container()],
      ephemeralContainers: [container()],
      volumes: [
        { name: 'empty' },
        { name: 'az', azureDisk: { diskName: 'd', diskURI: 'u' } },
        { name: 'cm', configMap: {} },
        { name: 'dapi', downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'x' } }] } },
        { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: {} } } },
        { name: 'hp', hostPath: { path: '/x' } },
        { name: 'iscsi', iscsi: { targetPortal: 't', iqn: 'i', lun: 0 } },
        { name: 'img', image: { reference: 'r:1' } },
        {
          name: 'proj',
          projected: {
            sources: [
              { downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'x' } }] } },
              { serviceAccountToken: { path: 't' } },
            ],
          },
        },
        { name: 'rbd', rbd: { monitors: ['m'], image: 'i' } },
        { name: 'sio', scaleIO: { gateway: 'g', system: 's', secretRef: {} } },
        { name: 'sec', secret: {} },
      ],
    },
  }
  const s = stored(pod).spec
  const at = (path: string) => path.split('.').reduce((v: any, k) => v?.[/^\d+$/.test(k) ? Number(k) : k], s)
  const expectedDefaults: [string, unknown][] = []
  for (const c of ['containers.0', 'initContainers.0', 'ephemeralContainers.0']) {
    expectedDefaults.push(
      [`${c}.env.0.valueFrom.fieldRef.apiVersion`, 'v1'],
      [`${c}.env.0.valueFrom.fileKeyRef.optional`, false],
      [`${c}.imagePullPolicy`, 'IfNotPresent'],
      [`${c}.lifecycle.postStart.httpGet.path`, '/'],
      [`${c}.lifecycle.postStart.httpGet.scheme`, 'HTTP'],
      [`${c}.lifecycle.preStop.httpGet.path`, '/'],
      [`${c}.lifecycle.preStop.httpGet.scheme`, 'HTTP'],
      [`${c}.ports.0.protocol`, 'TCP'],
      [`${c}.terminationMessagePath`, '/dev/termination-log'],
      [`${c}.terminationMessagePolicy`, 'File'],
    )
    for (const p of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      expectedDefaults.push(
        [`${c}.${p}.failureThreshold`, 3],
        [`${c}.${p}.httpGet.path`, '/'],
        [`${c}.${p}.httpGet.scheme`, 'HTTP'],
        [`${c}.${p}.periodSeconds`, 10],
        [`${c}.${p}.successThreshold`, 1],
        [`${c}.${p}.timeoutSeconds`, 1],
        [`${c}.${p}.grpc.service`, ''],
      )
    }
  }
  expectedDefaults.push(
    // requests are defaulted from limits for the containers and init containers of a Pod
    ['containers.0.resources.requests', { cpu: '1' }],
    ['initContainers.0.resources.requests', { cpu: '1' }],
    ['dnsPolicy', 'ClusterFirst'],
    ['enableServiceLinks', true],
    ['restartPolicy', 'Always'],
    ['schedulerName', 'default-scheduler'],
    ['securityContext', {}],
    ['terminationGracePeriodSeconds', 30],
    ['volumes.0.emptyDir', {}],
    ['volumes.1.azureDisk.cachingMode', 'ReadWrite'],
    ['volumes.1.azureDisk.fsType', 'ext4'],
    ['volumes.1.azureDisk.kind', 'Shared'],
    ['volumes.1.azureDisk.readOnly', false],
    ['volumes.2.configMap.defaultMode', 420],
    ['volumes.3.downwardAPI.defaultMode', 420],
    ['volumes.3.downwardAPI.items.0.fieldRef.apiVersion', 'v1'],
    ['volumes.4.ephemeral.volumeClaimTemplate.spec.volumeMode', 'Filesystem'],
    ['volumes.5.hostPath.type', ''],
    ['volumes.6.iscsi.iscsiInterface', 'default'],
    ['volumes.7.image.pullPolicy', 'IfNotPresent'],
    ['volumes.8.projected.defaultMode', 420],
    ['volumes.8.projected.sources.0.downwardAPI.items.0.fieldRef.apiVersion', 'v1'],
    ['volumes.8.projected.sources.1.serviceAccountToken.expirationSeconds', 3600],
    ['volumes.9.rbd.keyring', '/etc/ceph/keyring'],
    ['volumes.9.rbd.pool', 'rbd'],
    ['volumes.9.rbd.user', 'admin'],
    ['volumes.10.scaleIO.fsType', 'xfs'],
    ['volumes.10.scaleIO.storageMode', 'ThinProvisioned'],
    ['volumes.11.secret.defaultMode', 420],
  )
  test.each(expectedDefaults)('.Spec.%s', (path, value) => expect(at(path)).toEqual(value))
  test('ephemeral containers get no requests from limits (SetDefaults_Pod covers containers and init containers)', () => {
    expect(at('ephemeralContainers.0.resources.requests')).toBeUndefined()
  })
})

describe('core/v1 defaults_test.go, more tables', () => {
  const svc = (spec: O, status?: O) =>
    stored({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec, ...(status ? { status } : {}) })
  // TestSetDefaultService
  test('TestSetDefaultService', () => {
    const s = svc({}).spec
    expect(s.sessionAffinity).toBe('None')
    expect(s.type).toBe('ClusterIP')
  })
  // TestSetDefaultServiceSessionAffinityConfig
  test('TestSetDefaultServiceSessionAffinityConfig', () => {
    expect(
      svc({ sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }).spec
        .sessionAffinityConfig,
    ).toBeUndefined()
    expect(svc({ sessionAffinity: 'ClientIP' }).spec.sessionAffinityConfig).toEqual({
      clientIP: { timeoutSeconds: 10800 },
    })
    expect(
      svc({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }).spec
        .sessionAffinityConfig,
    ).toEqual({ clientIP: { timeoutSeconds: 5 } })
  })
  // TestSetDefaultServiceLoadbalancerIPMode
  test('TestSetDefaultServiceLoadbalancerIPMode', () => {
    const s = svc(
      { type: 'LoadBalancer' },
      { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { ip: '1.2.3.5', ipMode: 'Proxy' }] } },
    )
    expect(s.status.loadBalancer.ingress).toEqual([
      { ip: '1.2.3.4', ipMode: 'VIP' },
      { ip: '1.2.3.5', ipMode: 'Proxy' },
    ])
    expect(s.spec.allocateLoadBalancerNodePorts).toBe(true)
  })
  // TestSetDefaultServiceTargetPort, TestSetDefaultServicePort
  test('TestSetDefaultServiceTargetPort / TestSetDefaultServicePort', () => {
    expect(svc({ ports: [{ port: 1234 }] }).spec.ports[0].targetPort).toBe(1234)
    expect(svc({ ports: [{ port: 1234, targetPort: 5678 }] }).spec.ports[0].targetPort).toBe(5678)
    expect(svc({ ports: [{ port: 1234, targetPort: 'p' }] }).spec.ports[0].targetPort).toBe('p')
    expect(svc({ ports: [{ protocol: 'UDP', port: 9376, targetPort: 'p' }] }).spec.ports[0]).toEqual({
      protocol: 'UDP',
      port: 9376,
      targetPort: 'p',
    })
    expect(svc({ ports: [{ port: 9376 }] }).spec.ports[0].protocol).toBe('TCP')
  })
  // TestSetDefaultServiceExternalTraffic
  test('TestSetDefaultServiceExternalTraffic', () => {
    expect(svc({}).spec.externalTrafficPolicy).toBeUndefined()
    expect(svc({ type: 'NodePort' }).spec.externalTrafficPolicy).toBe('Cluster')
    expect(svc({ type: 'LoadBalancer' }).spec.externalTrafficPolicy).toBe('Cluster')
    expect(svc({ type: 'ClusterIP', externalIPs: ['1.2.3.4'] }).spec.externalTrafficPolicy).toBe('Cluster')
  })
  // TestSetDefaultServiceInternalTrafficPolicy
  test('TestSetDefaultServiceInternalTrafficPolicy', () => {
    expect(svc({}).spec.internalTrafficPolicy).toBe('Cluster')
    expect(svc({ internalTrafficPolicy: 'Local' }).spec.internalTrafficPolicy).toBe('Local')
    expect(svc({ type: 'ExternalName', externalName: 'x' }).spec.internalTrafficPolicy).toBeUndefined()
  })
  // TestSetDefaultSecret, TestSetDefaultNamespace(Labels), TestSetDefaultPersistentVolume(Claim)
  test('TestSetDefaultSecret', () =>
    expect(stored({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }).type).toBe('Opaque'))
  test('TestSetDefaultNamespace / TestSetDefaultNamespaceLabels', () => {
    const ns = stored({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'test' } })
    expect(ns.status.phase).toBe('Active')
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'test' })
  })
  test('TestSetDefaultPersistentVolume', () => {
    const pv = stored({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' } })
    expect(pv.status.phase).toBe('Pending')
    expect(pv.spec.persistentVolumeReclaimPolicy).toBe('Retain')
    expect(pv.spec.volumeMode).toBe('Filesystem')
  })
  test('TestSetDefaultPersistentVolumeClaim', () => {
    const pvc = stored({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' } })
    expect(pvc.status.phase).toBe('Pending')
    expect(pvc.spec.volumeMode).toBe('Filesystem')
  })
  // TestSetDefaultEndpointsProtocol
  test('TestSetDefaultEndpointsProtocol', () => {
    const ep = stored({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'e' },
      subsets: [{ ports: [{ port: 1 }, { port: 2, protocol: 'UDP' }] }],
    })
    expect(ep.subsets[0].ports.map((p: O) => p.protocol)).toEqual(['TCP', 'UDP'])
  })
  // TestSetDefaultReplicationController(Replicas)
  test('TestSetDefaultReplicationController / Replicas', () => {
    const rc = stored({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'r' },
      spec: { template: { metadata: { labels: { foo: 'bar' } } } },
    })
    expect(rc.spec.selector).toEqual({ foo: 'bar' })
    expect(rc.metadata.labels).toEqual({ foo: 'bar' })
    expect(rc.spec.replicas).toBe(1)
    const rc0 = stored({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'r' },
      spec: { replicas: 0 },
    })
    expect(rc0.spec.replicas).toBe(0)
  })
  // TestSetMinimumScalePod: requests and limits rounded up to milli scale
  test('TestSetMinimumScalePod', () => {
    const p = stored({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', resources: { limits: { memory: '1n' }, requests: { cpu: '1n' } } }] },
    })
    expect(p.spec.containers[0].resources).toEqual({ limits: { memory: '1m' }, requests: { cpu: '1m', memory: '1m' } })
  })
  // TestSetDefaultPodSpecHostNetwork / TestPodHostNetworkDefaults: host ports default to container ports
  test('TestSetDefaultPodSpecHostNetwork', () => {
    const p = stored({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { hostNetwork: true, containers: [{ name: 'c', ports: [{ containerPort: 12345 }] }] },
    })
    expect(p.spec.containers[0].ports[0].hostPort).toBe(12345)
  })
  // TestSetDefaultPodTerminationGracePeriodSeconds
  test('TestSetDefaultPodTerminationGracePeriodSeconds', () => {
    const p = (t: number) =>
      stored({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { terminationGracePeriodSeconds: t } })
        .spec.terminationGracePeriodSeconds
    expect(p(-1)).toBe(1)
    expect(p(0)).toBe(0)
    expect(p(5)).toBe(5)
  })
  // TestSetDefaultServiceAccountAlias
  test('TestSetDefaultServiceAccountAlias', () => {
    const p = (spec: O) => stored({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }).spec
    expect(p({ serviceAccount: 'a' })).toMatchObject({ serviceAccount: 'a', serviceAccountName: 'a' })
    expect(p({ serviceAccountName: 'b' })).toMatchObject({ serviceAccount: 'b', serviceAccountName: 'b' })
    expect(p({ serviceAccount: 'a', serviceAccountName: 'b' })).toMatchObject({
      serviceAccount: 'b',
      serviceAccountName: 'b',
    })
  })
  // TestSetDefaultPodStatusPodIPs
  test('TestSetDefaultPodStatusPodIPs', () => {
    const st = (status: O) =>
      stored({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, status }).status
    expect(st({ podIP: '1.1.1.1' }).podIPs).toEqual([{ ip: '1.1.1.1' }])
    expect(st({ podIPs: [{ ip: '2.2.2.2' }] }).podIP).toBe('2.2.2.2')
    expect(st({ podIP: '1.1.1.1', podIPs: [{ ip: '2.2.2.2' }] }).podIPs).toEqual([{ ip: '1.1.1.1' }])
  })
  // TestSetDefaultLimitRangeItem
  test('TestSetDefaultLimitRangeItem', () => {
    const lr = stored({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l' },
      spec: { limits: [{ type: 'Container', max: { cpu: '100m' }, min: { memory: '100Mi' } }] },
    })
    expect(lr.spec.limits[0].default).toEqual({ cpu: '100m' })
    expect(lr.spec.limits[0].defaultRequest).toEqual({ cpu: '100m', memory: '100Mi' })
  })
  // TestSetDefaultNodeStatusAllocatable
  test('TestSetDefaultNodeStatusAllocatable', () => {
    const n = stored({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      status: { capacity: { cpu: '1', memory: '1Gi' } },
    })
    expect(n.status.allocatable).toEqual({ cpu: '1', memory: '1Gi' })
  })
  // SetDefaults_ConfigMap makes the typed Data an empty map; ConfigMap.Data is `json:"data,omitempty"`, so
  // the JSON (what admission sees, what the apiserver answers: test/e2e/mutating) has no data
  test('ConfigMap data {} (omitted when written)', () =>
    expect(stored({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }).data).toBeUndefined())
})

// image pull policy: SetDefaults_Container over parsers.ParseImageName (TestSetDefaultsContainer-style)
test.each([
  ['nginx', 'latest'],
  ['nginx:latest', 'latest'],
  ['nginx:1.27', '1.27'],
  ['registry.example.com:5000/team/app', 'latest'],
  ['registry.example.com:5000/team/app:v2', 'v2'],
  ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', ''],
  ['nginx:1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', '1'],
  ['Nginx', ''],
  ['', ''],
])('imageTag(%j) = %j', (image, tag) => expect(imageTag(image)).toBe(tag))

describe('apps, batch and the other groups (their defaults_test.go)', () => {
  const kind = (apiVersion: string, k: string, rest: O) =>
    stored({ apiVersion, kind: k, metadata: { name: 'x' }, ...rest })
  // apps/v1 TestSetDefaultDaemonSetSpec
  test('TestSetDefaultDaemonSetSpec', () => {
    const s = kind('apps/v1', 'DaemonSet', { spec: {} }).spec
    expect(s.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } })
    expect(s.revisionHistoryLimit).toBe(10)
    expect(
      kind('apps/v1', 'DaemonSet', { spec: { updateStrategy: { type: 'OnDelete' } } }).spec.updateStrategy,
    ).toEqual({ type: 'OnDelete' })
  })
  // apps/v1 TestSetDefaultStatefulSet (MaxUnavailableStatefulSet on by default from 1.37)
  test('TestSetDefaultStatefulSet', () => {
    const s = kind('apps/v1', 'StatefulSet', { spec: {} }).spec
    expect(s).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    })
    const s36 = stored({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x' }, spec: {} }, 36).spec
    expect(s36.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } })
    expect(
      kind('apps/v1', 'StatefulSet', { spec: { updateStrategy: { type: 'OnDelete' } } }).spec.updateStrategy,
    ).toEqual({ type: 'OnDelete' })
  })
  // apps/v1 TestSetDefaultReplicaSetReplicas
  test('TestSetDefaultReplicaSetReplicas', () => {
    expect(kind('apps/v1', 'ReplicaSet', { spec: {} }).spec.replicas).toBe(1)
    expect(kind('apps/v1', 'ReplicaSet', { spec: { replicas: 0 } }).spec.replicas).toBe(0)
    expect(kind('apps/v1', 'ReplicaSet', { spec: { replicas: 3 } }).spec.replicas).toBe(3)
  })
  // apps/v1 TestDefaultRequestIsNotSetForReplicaSet: only Pods get requests from limits
  test('TestDefaultRequestIsNotSetForReplicaSet', () => {
    const s = kind('apps/v1', 'ReplicaSet', {
      spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '100m' } } }] } } },
    }).spec
    expect(s.template.spec.containers[0].resources.requests).toBeUndefined()
  })
  // batch/v1 defaults_test.go TestSetDefaultJob
  test('TestSetDefaultJob', () => {
    const j = kind('batch/v1', 'Job', { spec: { template: { metadata: { labels: { a: 'b' } } } } })
    expect(j.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      manualSelector: false,
    })
    expect(j.metadata.labels).toEqual({ a: 'b' })
    expect(kind('batch/v1', 'Job', { spec: { completions: 5 } }).spec).toMatchObject({ completions: 5, parallelism: 1 })
    expect(kind('batch/v1', 'Job', { spec: { parallelism: 5 } }).spec.completions).toBeUndefined()
    expect(kind('batch/v1', 'Job', { spec: { backoffLimitPerIndex: 1 } }).spec.backoffLimit).toBe(2147483647)
    const pfp = kind('batch/v1', 'Job', {
      spec: { podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } },
    }).spec
    expect(pfp.podReplacementPolicy).toBe('Failed')
    expect(pfp.podFailurePolicy.rules[0].onPodConditions[0].status).toBe('True')
  })
  // batch/v1 TestSetDefaultCronJob
  test('TestSetDefaultCronJob', () => {
    expect(kind('batch/v1', 'CronJob', { spec: {} }).spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    })
  })
  // networking/v1 TestSetDefaultNetworkPolicy
  test('TestSetDefaultNetworkPolicy', () => {
    expect(kind('networking.k8s.io/v1', 'NetworkPolicy', { spec: {} }).spec.policyTypes).toEqual(['Ingress'])
    expect(kind('networking.k8s.io/v1', 'NetworkPolicy', { spec: { egress: [{}] } }).spec.policyTypes).toEqual([
      'Ingress',
      'Egress',
    ])
    expect(
      kind('networking.k8s.io/v1', 'NetworkPolicy', { spec: { ingress: [{ ports: [{ port: 80 }] }] } }).spec.ingress[0]
        .ports[0].protocol,
    ).toBe('TCP')
  })
  // autoscaling/v2 TestSetDefaultHPA
  test('TestSetDefaultHPA', () => {
    const s = kind('autoscaling/v2', 'HorizontalPodAutoscaler', {
      spec: { behavior: { scaleUp: { stabilizationWindowSeconds: 5 } } },
    }).spec
    expect(s.minReplicas).toBe(1)
    expect(s.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ])
    expect(s.behavior.scaleUp).toEqual({
      stabilizationWindowSeconds: 5,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    })
    expect(s.behavior.scaleDown).toEqual({
      selectPolicy: 'Max',
      policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    })
  })
  test('scheduling/v1 PriorityClass, storage/v1 StorageClass and CSIDriver', () => {
    expect(
      stored({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p' }, value: 1 })
        .preemptionPolicy,
    ).toBe('PreemptLowerPriority')
    const sc = stored({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 's' },
      provisioner: 'x',
    })
    expect([sc.reclaimPolicy, sc.volumeBindingMode]).toEqual(['Delete', 'Immediate'])
    expect(
      stored({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'c' }, spec: {} }).spec,
    ).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      volumeLifecycleModes: ['Persistent'],
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      seLinuxMount: false,
      preventPodSchedulingIfMissing: false,
    })
  })
  test('admissionregistration/v1 TestDefaultAdmissionWebhook', () => {
    const w = stored({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'w' },
      webhooks: [
        {
          name: 'a.b.c',
          clientConfig: { service: { name: 's', namespace: 'n' } },
          rules: [{ operations: ['CREATE'] }],
        },
      ],
    }).webhooks[0]
    expect(w).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      clientConfig: { service: { port: 443 } },
      rules: [{ scope: '*' }],
    })
  })
  test('rbac/v1 TestSetDefaultRoleBinding / Subject', () => {
    const rb = stored({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'r' },
      roleRef: { kind: 'Role', name: 'x' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'ServiceAccount', name: 's' },
      ],
    })
    expect(rb.roleRef.apiGroup).toBe('rbac.authorization.k8s.io')
    expect(rb.subjects.map((s: O) => s.apiGroup)).toEqual(['rbac.authorization.k8s.io', undefined])
  })
})
