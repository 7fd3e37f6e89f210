import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../src/builtin/index.js'
import { storedOnCreate } from '../../src/builtin/stored.js'

// The expected objects are what a real kube-apiserver 1.37.2 answered to `kubectl create --dry-run=server
// -n default -o json` of the same manifests (uid, resourceVersion, creationTimestamp and managedFields left
// out: the server makes them up).

type O = Record<string, any>

const stored = (o: O, namespaced = true): O => {
  const r = decodeBuiltin(o)
  if (r?.object === undefined) throw new Error(r?.message ?? 'not decoded')
  return storedOnCreate(r.object, { namespace: namespaced ? 'default' : '', namespaced })
}

describe('storedOnCreate: the object a create stores', () => {
  it('DaemonSet: system fields wiped, namespace from the request, status reset, generation and the template generation annotation', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds', selfLink: '/x', uid: '1234', deletionGracePeriodSeconds: 5 },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
      status: { numberReady: 3, currentNumberScheduled: 1, desiredNumberScheduled: 1, numberMisscheduled: 0 },
    }
    expect(stored(ds)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        annotations: { 'deprecated.daemonset.template.generation': '1' },
        generation: 1,
        name: 'ds',
        namespace: 'default',
      },
      spec: {
        revisionHistoryLimit: 10,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                image: 'nginx',
                imagePullPolicy: 'Always',
                name: 'c',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
        updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 }, type: 'RollingUpdate' },
      },
      status: { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 },
    })
  })
  it('Secret: stringData merged into data (the v1 conversion)', () => {
    const s = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      data: { x: 'eA==' },
      stringData: { a: 'b' },
    }
    expect(stored(s)).toEqual({
      apiVersion: 'v1',
      data: { a: 'Yg==', x: 'eA==' },
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      type: 'Opaque',
    })
  })
  it("a cluster-scoped object's namespace is cleared", () => {
    const r = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r', namespace: 'x' },
    }
    expect(stored(r, false)).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
      rules: null,
    })
  })
  it('PodDisruptionBudget: the status a manifest carries is replaced by the zero status', () => {
    const p = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'p', namespace: 'default' },
      spec: { minAvailable: 1 },
      status: { currentHealthy: 3, desiredHealthy: 1, disruptionsAllowed: 2, expectedPods: 3 },
    }
    expect(stored(p)).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { generation: 1, name: 'p', namespace: 'default' },
      spec: { minAvailable: 1 },
      status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 },
    })
  })
  it('StatefulSet: the volumeClaimTemplates get apiVersion and kind; Namespace: the kubernetes finalizer, phase Active', () => {
    const st = stored({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'st', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        serviceName: 'x',
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        volumeClaimTemplates: [
          {
            metadata: { name: 'd' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    })
    expect(st.spec.volumeClaimTemplates[0]).toMatchObject({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' })
    expect(st.metadata.generation).toBe(1)
    expect(st.status).toEqual({ availableReplicas: 0, replicas: 0 })
    const ns = storedOnCreate(
      decodeBuiltin({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nsx' } })!.object!,
      {
        namespace: '',
        namespaced: false,
      },
    ) as O
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] })
    expect(ns.status).toEqual({ phase: 'Active' })
  })
  // a real kube-apiserver 1.37.2 stored argo-cd's controller/testdata pod (requests of cpu, memory and
  // ephemeral-storage, no limits; dumped with status.qosClass BestEffort and phase Running) with status phase
  // Pending and qosClass Burstable; without resources the class is BestEffort (qos.go requirementsQOS)
  it('Pod: status phase Pending and the QoS class the resources give', () => {
    const pod = (resources: O) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources }] },
      status: { phase: 'Running', qosClass: 'BestEffort' },
    })
    expect(stored(pod({ requests: { 'ephemeral-storage': '100Mi', memory: '128Mi', cpu: '250m' } })).status).toEqual({
      phase: 'Pending',
      qosClass: 'Burstable',
    })
    expect(stored(pod({})).status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' })
    expect(stored(pod({ limits: { cpu: '1', memory: '1Gi' } })).status).toEqual({
      phase: 'Pending',
      qosClass: 'Guaranteed',
    })
  })
  // a real kube-apiserver 1.37.2 (kubectl apply --dry-run=server -o json of bundled-pack test Pods, the namespace's
  // default ServiceAccount made by hand, no PriorityClass) stored: serviceAccountName and serviceAccount default,
  // priority 0, preemptionPolicy PreemptLowerPriority, the not-ready / unreachable tolerations (300 s) and the
  // kube-api-access-<random> projected volume mounted read-only in the container
  it('Pod: the ServiceAccount, Priority and DefaultTolerationSeconds admission plugins', () => {
    const p = stored({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    })
    expect(p.spec.serviceAccountName).toBe('default')
    expect(p.spec.serviceAccount).toBe('default')
    expect(p.spec.priority).toBe(0)
    expect(p.spec.preemptionPolicy).toBe('PreemptLowerPriority')
    expect(p.spec.tolerations).toEqual([
      { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
      { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
    ])
    expect(p.spec.containers[0].volumeMounts).toEqual([
      { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: 'kube-api-access-00000', readOnly: true },
    ])
    expect(p.spec.volumes).toEqual([
      {
        name: 'kube-api-access-00000',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            {
              downwardAPI: {
                items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
              },
            },
          ],
        },
      },
    ])
  })
  // a real kube-apiserver 1.37.2 (single-stack IPv4, --service-cluster-ip-range 10.96.0.0/16) stored a ClusterIP
  // Service with spec.clusterIP / clusterIPs allocated, ipFamilies [IPv4], ipFamilyPolicy SingleStack; a claim
  // with the kubernetes.io/pvc-protection finalizer (the allocated IP is random: kelp's is a placeholder)
  it('Service: IP families and an allocated cluster IP; PersistentVolumeClaim: the protection finalizer', () => {
    const svc = stored({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'default' },
      spec: { ports: [{ port: 80 }] },
    })
    expect(svc.spec.ipFamilies).toEqual(['IPv4'])
    expect(svc.spec.ipFamilyPolicy).toBe('SingleStack')
    expect(svc.spec.clusterIPs).toEqual([svc.spec.clusterIP])
    const pvc = stored({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    })
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection'])
  })

  // a real kube-apiserver 1.37.2 stored a VolumeAttributesClass with the kubernetes.io/vac-protection finalizer
  // (differential case builtins meta-vac; storageobjectinuseprotection admitVAC, VolumeAttributesClass gate on since 1.34)
  it('VolumeAttributesClass: the protection finalizer', () => {
    const vac = stored(
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttributesClass',
        metadata: { name: 'v' },
        driverName: 'csi.example.com',
        parameters: { iops: '100' },
      },
      false,
    )
    expect(vac.metadata.finalizers).toEqual(['kubernetes.io/vac-protection'])
  })
})
