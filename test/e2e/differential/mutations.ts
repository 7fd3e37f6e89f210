// One-rule-broken mutations of real built-in objects for the differential corpus (issue 19): each mutation
// breaks one rule of the kind's decoding or validation (a bad name, a selector that does not match the
// template's labels, a missing image, a bad CronJob schedule, a Service port out of range, a ConfigMap key with
// a slash, a Role rule without verbs, a bad quantity, duplicate ports, an unknown field, a wrong type, …) in a
// copy of an object of the public manifests. Deterministic: the bases are taken in file order, spread over the
// kinds a mutation applies to (round robin over the kinds, a stride through each kind's objects). What the
// mutation is expected to do is not written here: the real apiserver's answer is the expectation.

type Obj = Record<string, any>

export interface Base {
  source: string
  object: Obj
}

export interface Mutated {
  source: string
  /** the mutation's id (`<area>/<rule>`) */
  mutation: string
  object: Obj
}

interface Mutation {
  id: string
  /** the kinds it applies to (kind names; `*` any) */
  kinds: string[]
  /** changes the copy in place; false when the object has nothing to mutate */
  apply: (o: Obj) => boolean | undefined
  /** how many bases (default 4) */
  n?: number
}

const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']
const POD_KINDS = ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'PodTemplate']
const BINDINGS = ['RoleBinding', 'ClusterRoleBinding']
const ROLES = ['Role', 'ClusterRole']

/** The PodSpec of a pod-bearing object. */
function podSpec(o: Obj): Obj | undefined {
  switch (o.kind) {
    case 'Pod':
      return o.spec
    case 'PodTemplate':
      return o.template?.spec
    case 'CronJob':
      return o.spec?.jobTemplate?.spec?.template?.spec
    default:
      return o.spec?.template?.spec
  }
}

function container(o: Obj): Obj | undefined {
  const c = podSpec(o)?.containers
  return Array.isArray(c) && c.length > 0 && typeof c[0] === 'object' && c[0] !== null ? c[0] : undefined
}

const withContainer = (f: (c: Obj, o: Obj) => boolean | undefined) => (o: Obj) => {
  const c = container(o)
  return c ? f(c, o) : false
}

const withSpec = (f: (s: Obj, o: Obj) => boolean | undefined) => (o: Obj) => {
  const s = podSpec(o)
  return s ? f(s, o) : false
}

/** The metadata of a workload's pod template (a CronJob's job template's), made when absent. */
function podTemplateMeta(o: Obj): Obj | undefined {
  const t = o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec?.template : o.spec?.template
  if (typeof t !== 'object' || t === null) return undefined
  t.metadata ??= {}
  return t.metadata
}

const resources = (c: Obj, key: 'limits' | 'requests'): Obj => {
  c.resources ??= {}
  c.resources[key] ??= {}
  return c.resources[key]
}

const firstPort = (o: Obj): Obj | undefined =>
  Array.isArray(o.spec?.ports) && typeof o.spec.ports[0] === 'object' ? o.spec.ports[0] : undefined

function ingressPath(o: Obj): Obj | undefined {
  const p = o.spec?.rules?.[0]?.http?.paths?.[0]
  return typeof p === 'object' && p !== null ? p : undefined
}

const meta = (o: Obj): Obj => {
  o.metadata ??= {}
  return o.metadata
}

const MUTATIONS: Mutation[] = [
  // --- object metadata (any kind) ---
  {
    id: 'meta/name-uppercase-underscore',
    kinds: ['*'],
    n: 12,
    apply: (o) => void (meta(o).name = `Bad_${o.metadata.name}`),
  },
  { id: 'meta/name-too-long', kinds: ['*'], n: 8, apply: (o) => void (meta(o).name = 'a'.repeat(254)) },
  { id: 'meta/name-64-chars', kinds: ['*'], n: 8, apply: (o) => void (meta(o).name = 'a'.repeat(64)) },
  { id: 'meta/name-dot', kinds: ['*'], n: 8, apply: (o) => void (meta(o).name = 'a.b') },
  { id: 'meta/name-slash', kinds: ['*'], n: 6, apply: (o) => void (meta(o).name = 'a/b') },
  {
    id: 'meta/label-key-space',
    kinds: ['*'],
    n: 6,
    apply: (o) => void (meta(o).labels = { ...(o.metadata.labels ?? {}), 'bad key': 'x' }),
  },
  {
    id: 'meta/label-value-too-long',
    kinds: ['*'],
    n: 6,
    apply: (o) => void (meta(o).labels = { ...(o.metadata.labels ?? {}), long: 'x'.repeat(64) }),
  },
  {
    id: 'meta/label-value-bad-char',
    kinds: ['*'],
    n: 4,
    apply: (o) => void (meta(o).labels = { ...(o.metadata.labels ?? {}), app: 'a b' }),
  },
  {
    id: 'meta/annotation-key-two-slashes',
    kinds: ['*'],
    n: 6,
    apply: (o) => void (meta(o).annotations = { ...(o.metadata.annotations ?? {}), 'a/b/c': 'x' }),
  },
  { id: 'meta/labels-as-list', kinds: ['*'], n: 6, apply: (o) => void (meta(o).labels = ['app']) },
  { id: 'meta/name-as-number', kinds: ['*'], n: 4, apply: (o) => void (meta(o).name = 42) },
  { id: 'meta/unknown-field-typo', kinds: ['*'], n: 8, apply: (o) => void (meta(o).lables = { app: 'x' }) },
  { id: 'meta/unknown-top-field', kinds: ['*'], n: 8, apply: (o) => void (o.spc = {}) },
  { id: 'meta/generation-string', kinds: ['*'], n: 4, apply: (o) => void (meta(o).generation = 'one') },

  // --- workloads ---
  {
    id: 'workload/selector-not-matching-template',
    kinds: WORKLOADS,
    n: 8,
    apply: (o) => {
      if (!o.spec?.template) return false
      o.spec.template.metadata = { ...(o.spec.template.metadata ?? {}), labels: { mutated: 'yes' } }
    },
  },
  { id: 'workload/selector-empty', kinds: WORKLOADS, apply: (o) => void (o.spec.selector = {}) },
  {
    id: 'workload/selector-missing',
    kinds: WORKLOADS,
    apply: (o) => void delete o.spec.selector,
  },
  {
    id: 'workload/selector-bad-operator',
    kinds: WORKLOADS,
    apply: (o) => void (o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Like', values: ['x'] }] }),
  },
  {
    id: 'workload/replicas-negative',
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet'],
    n: 6,
    apply: (o) => void (o.spec.replicas = -1),
  },
  {
    id: 'workload/replicas-string',
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet'],
    n: 6,
    apply: (o) => void (o.spec.replicas = 'three'),
  },
  {
    id: 'workload/replicas-typo',
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet'],
    apply: (o) => void (o.spec.replica = 2),
  },
  { id: 'workload/min-ready-negative', kinds: WORKLOADS, apply: (o) => void (o.spec.minReadySeconds = -1) },
  {
    id: 'workload/revision-history-negative',
    kinds: WORKLOADS,
    apply: (o) => void (o.spec.revisionHistoryLimit = -1),
  },
  {
    id: 'workload/strategy-type-bad',
    kinds: WORKLOADS.slice(0, 3),
    n: 6,
    apply: (o) => {
      if (o.kind === 'Deployment') o.spec.strategy = { type: 'Rolling' }
      else o.spec.updateStrategy = { type: 'Rolling' }
    },
  },
  {
    id: 'workload/max-unavailable-bad-percent',
    kinds: ['Deployment'],
    apply: (o) => void (o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } }),
  },
  {
    id: 'workload/max-surge-and-unavailable-zero',
    kinds: ['Deployment'],
    apply: (o) => void (o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }),
  },
  {
    id: 'workload/statefulset-pod-management-bad',
    kinds: ['StatefulSet'],
    apply: (o) => void (o.spec.podManagementPolicy = 'Random'),
  },
  {
    id: 'workload/progress-deadline-below-min-ready',
    kinds: ['Deployment'],
    apply: (o) => {
      o.spec.minReadySeconds = 30
      o.spec.progressDeadlineSeconds = 10
    },
  },
  {
    id: 'workload/restart-policy-never',
    kinds: WORKLOADS,
    n: 6,
    apply: withSpec((s) => void (s.restartPolicy = 'Never')),
  },

  // --- pod specs (Pods and the templates of workloads, Jobs, CronJobs) ---
  { id: 'pod/missing-image', kinds: POD_KINDS, n: 10, apply: withContainer((c) => void delete c.image) },
  { id: 'pod/empty-image', kinds: POD_KINDS, n: 4, apply: withContainer((c) => void (c.image = '')) },
  { id: 'pod/image-with-spaces', kinds: POD_KINDS, n: 4, apply: withContainer((c) => void (c.image = ' nginx ')) },
  { id: 'pod/container-name-bad', kinds: POD_KINDS, n: 8, apply: withContainer((c) => void (c.name = 'Bad_Name')) },
  { id: 'pod/container-name-missing', kinds: POD_KINDS, n: 4, apply: withContainer((c) => void delete c.name) },
  {
    id: 'pod/container-name-duplicate',
    kinds: POD_KINDS,
    n: 8,
    apply: withSpec((s) => {
      if (!Array.isArray(s.containers) || s.containers.length === 0) return false
      s.containers.push(structuredClone(s.containers[0]))
    }),
  },
  { id: 'pod/containers-empty', kinds: POD_KINDS, n: 6, apply: withSpec((s) => void (s.containers = [])) },
  {
    id: 'pod/image-pull-policy-bad',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => void (c.imagePullPolicy = 'Sometimes')),
  },
  {
    id: 'pod/container-port-out-of-range',
    kinds: POD_KINDS,
    n: 8,
    apply: withContainer((c) => {
      if (Array.isArray(c.ports) && c.ports[0]) c.ports[0].containerPort = 70000
      else c.ports = [{ containerPort: 70000 }]
    }),
  },
  {
    id: 'pod/container-port-zero',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.ports = [{ containerPort: 0 }])),
  },
  {
    id: 'pod/container-port-duplicate',
    kinds: POD_KINDS,
    n: 8,
    apply: withContainer((c) => {
      const p = Array.isArray(c.ports) && c.ports[0] ? c.ports[0] : { containerPort: 8080 }
      c.ports = [p, structuredClone(p)]
    }),
  },
  {
    id: 'pod/container-port-name-too-long',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.ports = [{ name: 'a-very-long-port-name', containerPort: 8080 }])),
  },
  {
    id: 'pod/container-port-protocol-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.ports = [{ containerPort: 8080, protocol: 'HTTP' }])),
  },
  {
    id: 'pod/container-port-string',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.ports = [{ containerPort: 'http' }])),
  },
  {
    id: 'pod/host-port-out-of-range',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.ports = [{ containerPort: 8080, hostPort: 70000 }])),
  },
  {
    id: 'pod/quantity-cpu-bad-suffix',
    kinds: POD_KINDS,
    n: 8,
    apply: withContainer((c) => void (resources(c, 'limits').cpu = '1x')),
  },
  {
    id: 'pod/quantity-memory-space',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => void (resources(c, 'requests').memory = '512 Mi')),
  },
  {
    id: 'pod/quantity-memory-two-dots',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (resources(c, 'requests').memory = '1.5.5Gi')),
  },
  {
    id: 'pod/quantity-negative',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => void (resources(c, 'requests').memory = '-1Gi')),
  },
  {
    id: 'pod/quantity-as-object',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (resources(c, 'limits').cpu = { value: 1 })),
  },
  {
    id: 'pod/requests-above-limits',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => {
      c.resources = { requests: { cpu: '2' }, limits: { cpu: '1' } }
    }),
  },
  {
    id: 'pod/resource-name-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (resources(c, 'limits')['bad resource'] = '1')),
  },
  {
    id: 'pod/restart-policy-bad',
    kinds: ['Pod', 'Job', 'CronJob'],
    n: 6,
    apply: withSpec((s) => void (s.restartPolicy = 'Sometimes')),
  },
  {
    id: 'pod/volume-mount-undefined',
    kinds: POD_KINDS,
    n: 8,
    apply: withContainer(
      (c) => void (c.volumeMounts = [...(c.volumeMounts ?? []), { name: 'nope', mountPath: '/nope' }]),
    ),
  },
  {
    id: 'pod/volume-mount-relative-path-missing',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => {
      const c = s.containers?.[0]
      if (!c) return false
      s.volumes = [...(s.volumes ?? []), { name: 'scratch', emptyDir: {} }]
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: 'scratch' }]
    }),
  },
  {
    id: 'pod/volume-name-duplicate',
    kinds: POD_KINDS,
    n: 6,
    apply: withSpec(
      (s) => void (s.volumes = [...(s.volumes ?? []), { name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }]),
    ),
  },
  {
    id: 'pod/volume-no-source',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.volumes = [...(s.volumes ?? []), { name: 'empty' }])),
  },
  {
    id: 'pod/volume-two-sources',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec(
      (s) => void (s.volumes = [...(s.volumes ?? []), { name: 'two', emptyDir: {}, hostPath: { path: '/tmp' } }]),
    ),
  },
  {
    id: 'pod/env-name-empty',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => void (c.env = [...(c.env ?? []), { name: '', value: 'x' }])),
  },
  {
    id: 'pod/env-value-and-value-from',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer(
      (c) =>
        void (c.env = [
          ...(c.env ?? []),
          { name: 'BOTH', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        ]),
    ),
  },
  {
    id: 'pod/env-field-path-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer(
      (c) => void (c.env = [...(c.env ?? []), { name: 'F', valueFrom: { fieldRef: { fieldPath: 'spec.nope' } } }]),
    ),
  },
  {
    id: 'pod/env-value-number',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => void (c.env = [...(c.env ?? []), { name: 'PORT', value: 8080 }])),
  },
  {
    id: 'pod/probe-no-handler',
    kinds: POD_KINDS,
    n: 6,
    apply: withContainer((c) => void (c.livenessProbe = { periodSeconds: 10 })),
  },
  {
    id: 'pod/probe-two-handlers',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.readinessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 8080 } })),
  },
  {
    id: 'pod/probe-period-negative',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.livenessProbe = { tcpSocket: { port: 8080 }, periodSeconds: -1 })),
  },
  {
    id: 'pod/probe-port-out-of-range',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.livenessProbe = { httpGet: { path: '/', port: 70000 } })),
  },
  {
    id: 'pod/liveness-success-threshold',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.livenessProbe = { tcpSocket: { port: 8080 }, successThreshold: 2 })),
  },
  { id: 'pod/dns-policy-bad', kinds: POD_KINDS, n: 4, apply: withSpec((s) => void (s.dnsPolicy = 'Sometimes')) },
  {
    id: 'pod/node-selector-key-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.nodeSelector = { 'bad key': 'x' })),
  },
  {
    id: 'pod/service-account-name-bad',
    kinds: POD_KINDS.filter((k) => k !== 'Pod'),
    n: 4,
    apply: withSpec((s) => void (s.serviceAccountName = 'Bad_SA')),
  },
  {
    id: 'pod/toleration-operator-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.tolerations = [{ key: 'a', operator: 'Sometimes', effect: 'NoSchedule' }])),
  },
  {
    id: 'pod/toleration-effect-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.tolerations = [{ key: 'a', operator: 'Exists', effect: 'Never' }])),
  },
  {
    id: 'pod/run-as-user-string',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.securityContext = { runAsUser: 'root' })),
  },
  {
    id: 'pod/run-as-user-negative',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.securityContext = { runAsUser: -1 })),
  },
  {
    id: 'pod/capabilities-as-string',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.securityContext = { capabilities: { add: 'NET_ADMIN' } })),
  },
  {
    id: 'pod/container-field-typo',
    kinds: POD_KINDS,
    n: 8,
    apply: withContainer((c) => void (c.imagePullPolcy = 'Always')),
  },
  { id: 'pod/args-as-string', kinds: POD_KINDS, n: 6, apply: withContainer((c) => void (c.args = '--verbose')) },
  {
    id: 'pod/command-number',
    kinds: POD_KINDS,
    n: 4,
    apply: withContainer((c) => void (c.command = ['sleep', 10])),
  },
  {
    id: 'pod/termination-grace-negative',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.terminationGracePeriodSeconds = -5)),
  },
  {
    id: 'pod/active-deadline-zero',
    kinds: ['Pod', 'Job'],
    n: 4,
    apply: withSpec((s) => void (s.activeDeadlineSeconds = 0)),
  },
  { id: 'pod/hostname-bad', kinds: POD_KINDS, n: 4, apply: withSpec((s) => void (s.hostname = 'Bad_Host')) },
  {
    id: 'pod/affinity-operator-bad',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec(
      (s) =>
        void (s.affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Like', values: ['a'] }] }],
            },
          },
        }),
    ),
  },
  {
    id: 'pod/init-container-missing-image',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.initContainers = [{ name: 'init' }])),
  },
  {
    id: 'pod/image-pull-secret-empty',
    kinds: POD_KINDS,
    n: 4,
    apply: withSpec((s) => void (s.imagePullSecrets = [{}])),
  },

  // --- Services ---
  {
    id: 'service/port-out-of-range',
    kinds: ['Service'],
    n: 8,
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.port = 70000
    },
  },
  {
    id: 'service/port-zero',
    kinds: ['Service'],
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.port = 0
    },
  },
  {
    id: 'service/port-string',
    kinds: ['Service'],
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.port = 'http'
    },
  },
  {
    id: 'service/ports-duplicate',
    kinds: ['Service'],
    n: 8,
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      o.spec.ports.push(structuredClone(p))
    },
  },
  {
    id: 'service/ports-unnamed-multiple',
    kinds: ['Service'],
    n: 6,
    apply: (o) => {
      if (o.spec?.type === 'ExternalName') return false
      o.spec.ports = [{ port: 80 }, { port: 81 }]
    },
  },
  { id: 'service/type-bad', kinds: ['Service'], n: 6, apply: (o) => void (o.spec.type = 'Public') },
  {
    id: 'service/protocol-bad',
    kinds: ['Service'],
    n: 6,
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.protocol = 'HTTP'
    },
  },
  {
    id: 'service/target-port-out-of-range',
    kinds: ['Service'],
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.targetPort = 70000
    },
  },
  {
    id: 'service/target-port-name-bad',
    kinds: ['Service'],
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.targetPort = 'Bad_Port'
    },
  },
  {
    id: 'service/node-port-on-cluster-ip',
    kinds: ['Service'],
    n: 6,
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      o.spec.type = 'ClusterIP'
      p.nodePort = 30080
    },
  },
  {
    id: 'service/node-port-out-of-range',
    kinds: ['Service'],
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      o.spec.type = 'NodePort'
      p.nodePort = 80
    },
  },
  { id: 'service/cluster-ip-bad', kinds: ['Service'], apply: (o) => void (o.spec.clusterIP = 'not-an-ip') },
  {
    id: 'service/selector-key-bad',
    kinds: ['Service'],
    apply: (o) => void (o.spec.selector = { ...(o.spec.selector ?? {}), 'bad key': 'x' }),
  },
  {
    id: 'service/external-name-missing',
    kinds: ['Service'],
    apply: (o) => {
      o.spec.type = 'ExternalName'
      delete o.spec.clusterIP
    },
  },
  {
    id: 'service/session-affinity-bad',
    kinds: ['Service'],
    apply: (o) => void (o.spec.sessionAffinity = 'Sticky'),
  },
  {
    id: 'service/external-traffic-policy-on-cluster-ip',
    kinds: ['Service'],
    apply: (o) => {
      o.spec.type = 'ClusterIP'
      for (const p of o.spec.ports ?? []) delete p.nodePort
      o.spec.externalTrafficPolicy = 'Local'
    },
  },
  {
    id: 'service/ports-field-typo',
    kinds: ['Service'],
    apply: (o) => {
      const p = firstPort(o)
      if (!p) return false
      p.targetport = p.targetPort ?? 80
    },
  },

  // --- ConfigMaps and Secrets ---
  {
    id: 'config/key-with-slash',
    kinds: ['ConfigMap', 'Secret'],
    n: 8,
    apply: (o) => {
      if (o.kind === 'Secret') o.stringData = { ...(o.stringData ?? {}), 'a/b': 'x' }
      else o.data = { ...(o.data ?? {}), 'a/b': 'x' }
    },
  },
  {
    id: 'config/key-with-space',
    kinds: ['ConfigMap', 'Secret'],
    n: 6,
    apply: (o) => {
      if (o.kind === 'Secret') o.data = { ...(o.data ?? {}), 'bad key': 'eA==' }
      else o.data = { ...(o.data ?? {}), 'bad key': 'x' }
    },
  },
  {
    id: 'config/key-dot-dot',
    kinds: ['ConfigMap'],
    apply: (o) => void (o.data = { ...(o.data ?? {}), '..': 'x' }),
  },
  {
    id: 'config/value-number',
    kinds: ['ConfigMap'],
    n: 6,
    apply: (o) => void (o.data = { ...(o.data ?? {}), port: 8080 }),
  },
  {
    id: 'config/value-bool',
    kinds: ['ConfigMap'],
    apply: (o) => void (o.data = { ...(o.data ?? {}), enabled: true }),
  },
  {
    id: 'config/data-and-binary-data-same-key',
    kinds: ['ConfigMap'],
    apply: (o) => {
      o.data = { ...(o.data ?? {}), same: 'x' }
      o.binaryData = { same: 'eA==' }
    },
  },
  {
    id: 'config/binary-data-not-base64',
    kinds: ['ConfigMap'],
    apply: (o) => void (o.binaryData = { blob: 'not base64!' }),
  },
  {
    id: 'config/secret-data-not-base64',
    kinds: ['Secret'],
    n: 6,
    apply: (o) => void (o.data = { ...(o.data ?? {}), password: 'not base64!' }),
  },
  {
    id: 'config/secret-tls-missing-key',
    kinds: ['Secret'],
    apply: (o) => {
      o.type = 'kubernetes.io/tls'
      o.data = { 'tls.crt': 'eA==' }
      delete o.stringData
    },
  },
  {
    id: 'config/secret-type-empty-dockerconfig',
    kinds: ['Secret'],
    apply: (o) => {
      o.type = 'kubernetes.io/dockerconfigjson'
      o.data = {}
      delete o.stringData
    },
  },
  { id: 'config/data-as-list', kinds: ['ConfigMap', 'Secret'], n: 4, apply: (o) => void (o.data = ['x']) },
  { id: 'config/immutable-string', kinds: ['ConfigMap', 'Secret'], apply: (o) => void (o.immutable = 'yes') },

  // --- RBAC ---
  {
    id: 'rbac/rule-empty-verbs',
    kinds: ROLES,
    n: 8,
    apply: (o) => {
      if (!Array.isArray(o.rules) || !o.rules[0]) return false
      o.rules[0].verbs = []
    },
  },
  {
    id: 'rbac/rule-verbs-string',
    kinds: ROLES,
    apply: (o) => {
      if (!Array.isArray(o.rules) || !o.rules[0]) return false
      o.rules[0].verbs = 'get'
    },
  },
  {
    id: 'rbac/rule-no-api-groups',
    kinds: ROLES,
    n: 6,
    apply: (o) => {
      o.rules = [{ resources: ['pods'], verbs: ['get'] }]
    },
  },
  {
    id: 'rbac/rule-non-resource-urls-in-role',
    kinds: ['Role'],
    apply: (o) => void (o.rules = [...(o.rules ?? []), { nonResourceURLs: ['/healthz'], verbs: ['get'] }]),
  },
  {
    id: 'rbac/rule-resources-and-urls',
    kinds: ['ClusterRole'],
    apply: (o) =>
      void (o.rules = [
        ...(o.rules ?? []),
        { apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/healthz'], verbs: ['get'] },
      ]),
  },
  {
    id: 'rbac/rule-field-typo',
    kinds: ROLES,
    apply: (o) => {
      if (!Array.isArray(o.rules) || !o.rules[0]) return false
      o.rules[0].resource = o.rules[0].resources ?? ['pods']
    },
  },
  {
    id: 'rbac/role-ref-kind-bad',
    kinds: BINDINGS,
    n: 6,
    apply: (o) => void (o.roleRef = { ...(o.roleRef ?? {}), kind: 'Policy' }),
  },
  {
    id: 'rbac/role-ref-api-group-bad',
    kinds: BINDINGS,
    apply: (o) => void (o.roleRef = { ...(o.roleRef ?? {}), apiGroup: 'rbac' }),
  },
  {
    id: 'rbac/role-ref-name-missing',
    kinds: BINDINGS,
    apply: (o) => {
      if (!o.roleRef) return false
      delete o.roleRef.name
    },
  },
  {
    id: 'rbac/role-ref-missing',
    kinds: BINDINGS,
    apply: (o) => void delete o.roleRef,
  },
  {
    id: 'rbac/subject-kind-bad',
    kinds: BINDINGS,
    n: 6,
    apply: (o) => {
      if (!Array.isArray(o.subjects) || !o.subjects[0]) return false
      o.subjects[0].kind = 'Person'
    },
  },
  {
    id: 'rbac/subject-name-missing',
    kinds: BINDINGS,
    apply: (o) => {
      if (!Array.isArray(o.subjects) || !o.subjects[0]) return false
      delete o.subjects[0].name
    },
  },
  {
    id: 'rbac/subject-service-account-no-namespace',
    kinds: ['ClusterRoleBinding'],
    apply: (o) => void (o.subjects = [{ kind: 'ServiceAccount', name: 'sa' }]),
  },
  {
    id: 'rbac/subject-user-api-group-bad',
    kinds: BINDINGS,
    apply: (o) => void (o.subjects = [{ kind: 'User', name: 'jane', apiGroup: 'users' }]),
  },

  // --- CronJobs and Jobs ---
  { id: 'batch/schedule-words', kinds: ['CronJob'], n: 6, apply: (o) => void (o.spec.schedule = 'every minute') },
  { id: 'batch/schedule-minute-61', kinds: ['CronJob'], n: 4, apply: (o) => void (o.spec.schedule = '61 * * * *') },
  { id: 'batch/schedule-six-fields', kinds: ['CronJob'], apply: (o) => void (o.spec.schedule = '0 0 * * * *') },
  { id: 'batch/schedule-empty', kinds: ['CronJob'], apply: (o) => void (o.spec.schedule = '') },
  { id: 'batch/schedule-missing', kinds: ['CronJob'], apply: (o) => void delete o.spec.schedule },
  {
    id: 'batch/concurrency-policy-bad',
    kinds: ['CronJob'],
    apply: (o) => void (o.spec.concurrencyPolicy = 'Sometimes'),
  },
  { id: 'batch/time-zone-bad', kinds: ['CronJob'], apply: (o) => void (o.spec.timeZone = 'Mars/Olympus') },
  {
    id: 'batch/starting-deadline-negative',
    kinds: ['CronJob'],
    apply: (o) => void (o.spec.startingDeadlineSeconds = -1),
  },
  {
    id: 'batch/history-limit-negative',
    kinds: ['CronJob'],
    apply: (o) => void (o.spec.successfulJobsHistoryLimit = -1),
  },
  {
    id: 'batch/restart-policy-always',
    kinds: ['Job', 'CronJob'],
    n: 8,
    apply: withSpec((s) => void (s.restartPolicy = 'Always')),
  },
  { id: 'batch/backoff-limit-negative', kinds: ['Job'], n: 4, apply: (o) => void (o.spec.backoffLimit = -1) },
  { id: 'batch/completions-negative', kinds: ['Job'], n: 4, apply: (o) => void (o.spec.completions = -1) },
  { id: 'batch/parallelism-negative', kinds: ['Job'], n: 4, apply: (o) => void (o.spec.parallelism = -1) },
  {
    id: 'batch/completion-mode-bad',
    kinds: ['Job'],
    apply: (o) => void (o.spec.completionMode = 'Ordered'),
  },
  {
    id: 'batch/ttl-negative',
    kinds: ['Job', 'CronJob'],
    n: 4,
    apply: (o) => {
      if (o.kind === 'Job') o.spec.ttlSecondsAfterFinished = -1
      else if (o.spec.jobTemplate?.spec) o.spec.jobTemplate.spec.ttlSecondsAfterFinished = -1
      else return false
    },
  },

  // --- Ingresses ---
  {
    id: 'ingress/path-relative',
    kinds: ['Ingress'],
    n: 6,
    apply: (o) => {
      const p = ingressPath(o)
      if (!p) return false
      p.path = 'api'
      p.pathType = 'Prefix'
    },
  },
  {
    id: 'ingress/path-type-bad',
    kinds: ['Ingress'],
    n: 6,
    apply: (o) => {
      const p = ingressPath(o)
      if (!p) return false
      p.pathType = 'Regex'
    },
  },
  {
    id: 'ingress/path-type-missing',
    kinds: ['Ingress'],
    apply: (o) => {
      const p = ingressPath(o)
      if (!p) return false
      delete p.pathType
    },
  },
  {
    id: 'ingress/backend-port-missing',
    kinds: ['Ingress'],
    n: 6,
    apply: (o) => {
      const p = ingressPath(o)
      if (!p?.backend?.service) return false
      delete p.backend.service.port
    },
  },
  {
    id: 'ingress/backend-port-number-and-name',
    kinds: ['Ingress'],
    apply: (o) => {
      const p = ingressPath(o)
      if (!p?.backend?.service) return false
      p.backend.service.port = { number: 80, name: 'http' }
    },
  },
  {
    id: 'ingress/host-uppercase',
    kinds: ['Ingress'],
    n: 4,
    apply: (o) => {
      if (!o.spec?.rules?.[0]) return false
      o.spec.rules[0].host = 'Bad_Host.example.com'
    },
  },
  {
    id: 'ingress/host-double-wildcard',
    kinds: ['Ingress'],
    apply: (o) => {
      if (!o.spec?.rules?.[0]) return false
      o.spec.rules[0].host = '*.*.example.com'
    },
  },
  {
    id: 'ingress/host-ip',
    kinds: ['Ingress'],
    apply: (o) => {
      if (!o.spec?.rules?.[0]) return false
      o.spec.rules[0].host = '10.0.0.1'
    },
  },
  { id: 'ingress/class-name-bad', kinds: ['Ingress'], apply: (o) => void (o.spec.ingressClassName = 'Bad_Class') },
  {
    id: 'ingress/backend-service-name-bad',
    kinds: ['Ingress'],
    apply: (o) => {
      const p = ingressPath(o)
      if (!p?.backend?.service) return false
      p.backend.service.name = 'Bad_Service'
    },
  },
  {
    id: 'ingress/old-backend-fields',
    kinds: ['Ingress'],
    apply: (o) => {
      const p = ingressPath(o)
      if (!p) return false
      p.backend = { serviceName: 'web', servicePort: 80 }
    },
  },

  // --- other kinds ---
  { id: 'hpa/min-replicas-zero', kinds: ['HorizontalPodAutoscaler'], apply: (o) => void (o.spec.minReplicas = 0) },
  {
    id: 'hpa/max-below-min',
    kinds: ['HorizontalPodAutoscaler'],
    apply: (o) => {
      o.spec.minReplicas = 5
      o.spec.maxReplicas = 2
    },
  },
  {
    id: 'hpa/metric-type-bad',
    kinds: ['HorizontalPodAutoscaler'],
    apply: (o) => void (o.spec.metrics = [{ type: 'Memory' }]),
  },
  {
    id: 'hpa/scale-target-kind-missing',
    kinds: ['HorizontalPodAutoscaler'],
    apply: (o) => {
      if (!o.spec?.scaleTargetRef) return false
      delete o.spec.scaleTargetRef.kind
    },
  },
  {
    id: 'pdb/min-available-and-max-unavailable',
    kinds: ['PodDisruptionBudget'],
    n: 6,
    apply: (o) => {
      o.spec.minAvailable = 1
      o.spec.maxUnavailable = 1
    },
  },
  {
    id: 'pdb/percent-over-100',
    kinds: ['PodDisruptionBudget'],
    apply: (o) => {
      delete o.spec.maxUnavailable
      o.spec.minAvailable = '150%'
    },
  },
  {
    id: 'pdb/negative',
    kinds: ['PodDisruptionBudget'],
    apply: (o) => {
      delete o.spec.minAvailable
      o.spec.maxUnavailable = -1
    },
  },
  {
    id: 'pdb/unhealthy-policy-bad',
    kinds: ['PodDisruptionBudget'],
    apply: (o) => void (o.spec.unhealthyPodEvictionPolicy = 'Sometimes'),
  },
  {
    id: 'pvc/storage-quantity-bad',
    kinds: ['PersistentVolumeClaim', 'StatefulSet'],
    n: 6,
    apply: (o) => {
      const pvc = o.kind === 'StatefulSet' ? o.spec?.volumeClaimTemplates?.[0] : o
      if (!pvc?.spec) return false
      pvc.spec.resources = { requests: { storage: '10 GB' } }
    },
  },
  {
    id: 'pvc/access-mode-bad',
    kinds: ['PersistentVolumeClaim', 'StatefulSet'],
    n: 6,
    apply: (o) => {
      const pvc = o.kind === 'StatefulSet' ? o.spec?.volumeClaimTemplates?.[0] : o
      if (!pvc?.spec) return false
      pvc.spec.accessModes = ['ReadWriteSometimes']
    },
  },
  {
    id: 'pvc/access-modes-missing',
    kinds: ['PersistentVolumeClaim'],
    apply: (o) => void delete o.spec.accessModes,
  },
  {
    id: 'pvc/storage-request-missing',
    kinds: ['PersistentVolumeClaim'],
    apply: (o) => void (o.spec.resources = {}),
  },
  {
    id: 'pvc/volume-mode-bad',
    kinds: ['PersistentVolumeClaim'],
    apply: (o) => void (o.spec.volumeMode = 'Folder'),
  },
  {
    id: 'netpol/protocol-bad',
    kinds: ['NetworkPolicy'],
    n: 6,
    apply: (o) => void (o.spec.ingress = [{ ports: [{ protocol: 'HTTP', port: 80 }] }]),
  },
  {
    id: 'netpol/cidr-bad',
    kinds: ['NetworkPolicy'],
    n: 6,
    apply: (o) => void (o.spec.egress = [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }]),
  },
  {
    id: 'netpol/except-outside-cidr',
    kinds: ['NetworkPolicy'],
    apply: (o) => void (o.spec.egress = [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['192.168.0.0/24'] } }] }]),
  },
  {
    id: 'netpol/policy-type-bad',
    kinds: ['NetworkPolicy'],
    apply: (o) => void (o.spec.policyTypes = ['Sideways']),
  },
  {
    id: 'netpol/port-out-of-range',
    kinds: ['NetworkPolicy'],
    apply: (o) => void (o.spec.ingress = [{ ports: [{ protocol: 'TCP', port: 70000 }] }]),
  },
  {
    id: 'netpol/end-port-below-port',
    kinds: ['NetworkPolicy'],
    apply: (o) => void (o.spec.ingress = [{ ports: [{ protocol: 'TCP', port: 8080, endPort: 80 }] }]),
  },
  {
    id: 'netpol/pod-selector-missing',
    kinds: ['NetworkPolicy'],
    apply: (o) => void delete o.spec.podSelector,
  },
  {
    id: 'storageclass/reclaim-policy-bad',
    kinds: ['StorageClass'],
    apply: (o) => void (o.reclaimPolicy = 'Keep'),
  },
  {
    id: 'storageclass/binding-mode-bad',
    kinds: ['StorageClass'],
    apply: (o) => void (o.volumeBindingMode = 'Later'),
  },
  { id: 'storageclass/provisioner-missing', kinds: ['StorageClass'], apply: (o) => void delete o.provisioner },
  {
    id: 'priorityclass/value-string',
    kinds: ['PriorityClass'],
    apply: (o) => void (o.value = 'high'),
  },
  {
    id: 'priorityclass/reserved-prefix',
    kinds: ['PriorityClass'],
    apply: (o) => void (meta(o).name = 'system-custom'),
  },
  {
    id: 'priorityclass/preemption-policy-bad',
    kinds: ['PriorityClass'],
    apply: (o) => void (o.preemptionPolicy = 'Sometimes'),
  },
  {
    id: 'quota/hard-quantity-bad',
    kinds: ['ResourceQuota'],
    apply: (o) => void (o.spec = { ...(o.spec ?? {}), hard: { ...(o.spec?.hard ?? {}), pods: '10x' } }),
  },
  {
    id: 'limitrange/type-bad',
    kinds: ['LimitRange'],
    apply: (o) => void (o.spec.limits = [{ type: 'Node', max: { cpu: '1' } }]),
  },
  {
    id: 'limitrange/default-above-max',
    kinds: ['LimitRange'],
    apply: (o) => void (o.spec.limits = [{ type: 'Container', max: { cpu: '1' }, default: { cpu: '2' } }]),
  },
  {
    id: 'ingressclass/controller-missing',
    kinds: ['IngressClass'],
    apply: (o) => void (o.spec = {}),
  },
  {
    id: 'ingressclass/controller-bad',
    kinds: ['IngressClass'],
    apply: (o) => void (o.spec = { ...(o.spec ?? {}), controller: 'Bad Controller' }),
  },
  {
    id: 'webhook/side-effects-missing',
    kinds: ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'],
    apply: (o) => {
      if (!Array.isArray(o.webhooks) || !o.webhooks[0]) return false
      delete o.webhooks[0].sideEffects
    },
  },
  {
    id: 'webhook/failure-policy-bad',
    kinds: ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'],
    apply: (o) => {
      if (!Array.isArray(o.webhooks) || !o.webhooks[0]) return false
      o.webhooks[0].failurePolicy = 'Retry'
    },
  },
  {
    id: 'webhook/name-not-qualified',
    kinds: ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'],
    apply: (o) => {
      if (!Array.isArray(o.webhooks) || !o.webhooks[0]) return false
      o.webhooks[0].name = 'webhook'
    },
  },
  {
    id: 'namespace/finalizer-bad',
    kinds: ['Namespace'],
    apply: (o) => void (o.spec = { finalizers: ['bad finalizer'] }),
  },
  {
    id: 'serviceaccount/secrets-as-string',
    kinds: ['ServiceAccount'],
    apply: (o) => void (o.secrets = 'token'),
  },
  {
    id: 'serviceaccount/automount-string',
    kinds: ['ServiceAccount'],
    apply: (o) => void (o.automountServiceAccountToken = 'false'),
  },
  // --- lists given empty: Go decodes `[]` to a non-nil empty slice, which defaulting (`== nil`) keeps and
  // validation sees; omitempty drops it when marshalled, and storage (protobuf) reads it back nil ---
  {
    id: 'empty-list/hpa-scale-up-policies',
    kinds: ['HorizontalPodAutoscaler'],
    apply: (o) => {
      if (o.apiVersion !== 'autoscaling/v2') return false
      o.spec.behavior = { scaleUp: { policies: [] } }
    },
  },
  {
    id: 'empty-list/pod-omitempty-lists',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      s.tolerations ??= []
      s.imagePullSecrets ??= []
      const c = s.containers?.[0]
      if (c === undefined) return false
      c.env ??= []
      c.args ??= []
    }),
  },
  {
    id: 'empty-list/role-rules',
    kinds: ROLES,
    n: 2,
    apply: (o) => void (o.rules = []),
  },
  // --- fields behind a feature gate that is off in 1.37: the strategy's PrepareForCreate drops them before
  // validation (DropDisabledPodFields and the kinds' drops) ---
  {
    id: 'gates/container-stop-signal',
    kinds: POD_KINDS,
    apply: withContainer((c) => void (c.lifecycle = { ...c.lifecycle, stopSignal: 'SIGTERM' })),
  },
  {
    id: 'gates/emptydir-mode-bind-mount-options',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      const c = s.containers?.[0]
      if (c === undefined) return false
      s.volumes = [...(s.volumes ?? []), { name: 'gated-scratch', emptyDir: { mode: 448 } }]
      c.volumeMounts = [
        ...(c.volumeMounts ?? []),
        { name: 'gated-scratch', mountPath: '/gated-scratch', bindMountOptions: ['nosuid'] },
      ]
    }),
  },
  {
    id: 'gates/probe-http-protocol-grpc-mode',
    kinds: POD_KINDS,
    apply: withContainer((c) => {
      c.livenessProbe = { httpGet: { port: 8080, protocol: 'H2C' } }
      c.readinessProbe = { grpc: { port: 9090, mode: 'TLS' } }
    }),
  },
  {
    id: 'gates/secret-volume-default-user',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      s.volumes = [...(s.volumes ?? []), { name: 'gated-secret', secret: { secretName: 'gated', defaultUser: 1000 } }]
    }),
  },
  {
    id: 'gates/job-scheduling',
    kinds: ['Job', 'CronJob'],
    apply: (o) => {
      const spec = o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec : o.spec
      if (spec === undefined) return false
      spec.scheduling = { schedulingPolicy: { basic: {} } }
    },
  },
  {
    id: 'gates/pvc-cross-namespace-data-source',
    kinds: ['PersistentVolumeClaim'],
    n: 2,
    apply: (o) => {
      if (o.spec === undefined) return false
      o.spec.dataSourceRef = { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'source', namespace: 'other' }
    },
  },
  // --- the PodSpec rules ported for issue 28 (kubernetes v1.37.2 ValidatePodSpec and what it calls): one
  // rule each, in a volume, container or field named so that no base has it already ---
  {
    id: 'pod/env-from-no-source',
    kinds: POD_KINDS,
    apply: withContainer((c) => void (c.envFrom = [{ prefix: 'KELP_' }])),
  },
  {
    id: 'pod/env-from-two-sources',
    kinds: POD_KINDS,
    apply: withContainer((c) => void (c.envFrom = [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }])),
  },
  {
    id: 'pod/env-config-map-key-slash',
    kinds: POD_KINDS,
    apply: withContainer(
      (c) => void (c.env = [{ name: 'KELP', valueFrom: { configMapKeyRef: { name: 'cm', key: 'a/b' } } }]),
    ),
  },
  {
    id: 'pod/env-resource-field-unknown',
    kinds: POD_KINDS,
    apply: withContainer(
      (c) => void (c.env = [{ name: 'KELP', valueFrom: { resourceFieldRef: { resource: 'limits.foo' } } }]),
    ),
  },
  {
    id: 'pod/env-field-ref-label-key-bad',
    kinds: POD_KINDS,
    apply: withContainer(
      (c) => void (c.env = [{ name: 'KELP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['a b']" } } }]),
    ),
  },
  {
    id: 'pod/volume-iscsi-bad',
    kinds: POD_KINDS,
    apply: withSpec((s) => void (s.volumes = [{ name: 'kelp', iscsi: { targetPortal: '', iqn: 'bad', lun: 300 } }])),
  },
  {
    id: 'pod/volume-rbd-empty',
    kinds: POD_KINDS,
    apply: withSpec((s) => void (s.volumes = [{ name: 'kelp', rbd: { monitors: [], image: '' } }])),
  },
  {
    id: 'pod/volume-azure-disk-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) => void (s.volumes = [{ name: 'kelp', azureDisk: { diskName: 'd', diskURI: 'x', kind: 'Managed' } }]),
    ),
  },
  {
    id: 'pod/volume-flex-reserved-option',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) => void (s.volumes = [{ name: 'kelp', flexVolume: { driver: 'a/b', options: { 'kubernetes.io/x': 'y' } } }]),
    ),
  },
  {
    id: 'pod/volume-quobyte-registry',
    kinds: POD_KINDS,
    apply: withSpec((s) => void (s.volumes = [{ name: 'kelp', quobyte: { registry: 'registry7861', volume: 'v' } }])),
  },
  {
    id: 'pod/volume-fc-no-lun',
    kinds: POD_KINDS,
    apply: withSpec((s) => void (s.volumes = [{ name: 'kelp', fc: { targetWWNs: ['wwn'] } }])),
  },
  {
    id: 'pod/volume-legacy-required',
    kinds: POD_KINDS,
    n: 8,
    apply: withSpec(
      (s) =>
        void (s.volumes = [
          { name: 'kelp-a', cephfs: { monitors: [] } },
          { name: 'kelp-b', glusterfs: { endpoints: '', path: '' } },
          { name: 'kelp-c', cinder: { volumeID: '', secretRef: { name: '' } } },
          { name: 'kelp-d', scaleIO: { gateway: '', system: '', volumeName: '' } },
          { name: 'kelp-e', storageos: { volumeName: 'Bad_Name' } },
          { name: 'kelp-f', azureFile: { secretName: '', shareName: '' } },
          { name: 'kelp-g', flocker: {} },
          { name: 'kelp-h', portworxVolume: { volumeID: '' } },
          { name: 'kelp-i', vsphereVolume: { volumePath: '' } },
          { name: 'kelp-j', photonPersistentDisk: { pdID: '' } },
        ]),
    ),
  },
  {
    id: 'pod/projected-cluster-trust-bundle-no-name',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.volumes = [{ name: 'kelp', projected: { sources: [{ clusterTrustBundle: { path: 'ca.pem' } }] } }]),
    ),
  },
  {
    id: 'pod/projected-cluster-trust-bundle-name-and-selector',
    kinds: POD_KINDS,
    n: 2,
    apply: withSpec(
      (s) =>
        void (s.volumes = [
          {
            name: 'kelp',
            projected: {
              sources: [
                { clusterTrustBundle: { name: 'a:b', path: 'ca.pem', labelSelector: { matchLabels: { a: 'b' } } } },
              ],
            },
          },
        ]),
    ),
  },
  {
    id: 'pod/projected-pod-certificate-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.volumes = [
          { name: 'kelp', projected: { sources: [{ podCertificate: { signerName: 'a', keyType: 'DSA' } }] } },
        ]),
    ),
  },
  {
    id: 'pod/seccomp-localhost-no-profile',
    kinds: POD_KINDS,
    apply: withContainer((c) => void (c.securityContext = { seccompProfile: { type: 'Localhost' } })),
  },
  {
    id: 'pod/privileged-without-escalation',
    kinds: POD_KINDS,
    apply: withContainer((c) => void (c.securityContext = { privileged: true, allowPrivilegeEscalation: false })),
  },
  {
    id: 'pod/sysctl-duplicate-and-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.securityContext = {
          sysctls: [
            { name: 'kernel.shm_rmid_forced', value: '1' },
            { name: 'kernel.shm_rmid_forced', value: '0' },
            { name: 'Bad!', value: '' },
          ],
        }),
    ),
  },
  {
    id: 'pod/node-affinity-gt-two-values',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1', '2'] }] }],
            },
          },
        }),
    ),
  },
  {
    id: 'pod/pod-anti-affinity-bad-term',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.affinity = {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
                namespaces: ['A_B'],
                topologyKey: '',
              },
            ],
          },
        }),
    ),
  },
  {
    id: 'pod/extended-resource-request-not-limit',
    kinds: POD_KINDS,
    apply: withContainer(
      (c) => void (c.resources = { requests: { 'example.com/kelp': '1' }, limits: { 'example.com/kelp': '2' } }),
    ),
  },
  {
    id: 'pod/host-port-conflict',
    kinds: POD_KINDS,
    apply: withContainer(
      (c) =>
        void (c.ports = [
          { containerPort: 8080, hostPort: 18080 },
          { containerPort: 8081, hostPort: 18080 },
        ]),
    ),
  },
  {
    id: 'pod/probe-grpc-http-bad',
    kinds: POD_KINDS,
    apply: withContainer((c) => {
      c.livenessProbe = { grpc: { port: 0 } }
      c.readinessProbe = { httpGet: { port: 'Bad_Name', scheme: 'FTP', httpHeaders: [{ name: 'a b', value: 'x' }] } }
    }),
  },
  {
    id: 'pod/lifecycle-sleep-negative',
    kinds: POD_KINDS,
    apply: withContainer((c) => void (c.lifecycle = { preStop: { sleep: { seconds: -1 } } })),
  },
  {
    id: 'pod/volume-mount-sub-path-both',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      s.volumes = [...(s.volumes ?? []), { name: 'kelp', emptyDir: {} }]
      s.containers[0].volumeMounts = [{ name: 'kelp', mountPath: '/kelp', subPath: '../x', subPathExpr: 'y' }]
    }),
  },
  {
    id: 'pod/volume-device-not-block',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      s.volumes = [...(s.volumes ?? []), { name: 'kelp', emptyDir: {} }]
      s.containers[0].volumeDevices = [{ name: 'kelp', devicePath: '/dev/kelp' }]
    }),
  },
  {
    id: 'pod/topology-spread-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.topologySpreadConstraints = [
          { maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Foo', minDomains: 0, nodeTaintsPolicy: 'Y' },
        ]),
    ),
  },
  {
    id: 'pod/dns-config-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.dnsConfig = {
          nameservers: ['1.2.3.4', 'abc', '1.1.1.1', '2.2.2.2'],
          searches: ['Bad_'],
          options: [{ name: '' }],
        }),
    ),
  },
  {
    id: 'pod/readiness-and-scheduling-gates-bad',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      s.readinessGates = [{ conditionType: 'a b' }]
      s.schedulingGates = [{ name: 'kelp' }, { name: 'kelp' }]
    }),
  },
  {
    id: 'pod/resource-claims-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.resourceClaims = [
          { name: 'kelp' },
          { name: 'kelp', resourceClaimName: 'y', resourceClaimTemplateName: 'z' },
        ]),
    ),
  },
  {
    id: 'pod/windows-with-linux-fields',
    kinds: POD_KINDS,
    apply: withSpec((s) => {
      s.os = { name: 'windows' }
      s.securityContext = { seLinuxOptions: { level: 's0' }, fsGroup: 1 }
    }),
  },
  {
    id: 'pod/tolerations-bad',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.tolerations = [
          { key: 'a', operator: 'Exists', value: 'x' },
          { key: 'b', effect: 'NoSchedule', tolerationSeconds: 10 },
        ]),
    ),
  },
  {
    id: 'pod/host-aliases-bad',
    kinds: POD_KINDS,
    apply: withSpec((s) => void (s.hostAliases = [{ ip: 'x', hostnames: ['A_B'] }])),
  },
  {
    id: 'pod/resize-policy-bad',
    kinds: POD_KINDS,
    apply: withContainer(
      (c) =>
        void (c.resizePolicy = [
          { resourceName: 'cpu', restartPolicy: 'NotRequired' },
          { resourceName: 'cpu', restartPolicy: 'Bad' },
        ]),
    ),
  },
  {
    id: 'pod/init-container-probe-without-restart',
    kinds: POD_KINDS,
    apply: withSpec(
      (s) =>
        void (s.initContainers = [{ name: 'kelp-init', image: 'busybox', livenessProbe: { tcpSocket: { port: 80 } } }]),
    ),
  },
  {
    id: 'pod/tolerations-annotation-not-json',
    kinds: POD_KINDS,
    apply: (o) => {
      const m = o.kind === 'Pod' ? meta(o) : o.kind === 'PodTemplate' ? o.template?.metadata : podTemplateMeta(o)
      if (m === undefined) return false
      m.annotations = { ...(m.annotations ?? {}), 'scheduler.alpha.kubernetes.io/tolerations': '[{"key": 1}' }
    },
  },
  {
    id: 'pod/tolerations-annotation-bad-toleration',
    kinds: POD_KINDS,
    apply: (o) => {
      const m = o.kind === 'Pod' ? meta(o) : o.kind === 'PodTemplate' ? o.template?.metadata : podTemplateMeta(o)
      if (m === undefined) return false
      m.annotations = {
        ...(m.annotations ?? {}),
        'scheduler.alpha.kubernetes.io/tolerations': '[{"key": "a", "operator": "Exists", "value": "x"}]',
      }
    },
  },
]

/** Whether an object is a clean base: written by hand (not dumped from a cluster with its status or uid). */
const clean = (o: Obj) =>
  o.status === undefined &&
  o.metadata?.uid === undefined &&
  o.metadata?.resourceVersion === undefined &&
  o.metadata?.creationTimestamp === undefined &&
  o.metadata?.generateName === undefined

/** The mutations of the bases (every mutation, each on up to n bases spread over its kinds). */
export function mutations(bases: Base[]): { cases: Mutated[]; ids: number } {
  const byKind = new Map<string, Base[]>()
  for (const b of bases) {
    if (!clean(b.object)) continue
    const list = byKind.get(b.object.kind) ?? []
    list.push(b)
    byKind.set(b.object.kind, list)
  }
  const kindsOrder = [...byKind.keys()].sort()
  const out: Mutated[] = []
  MUTATIONS.forEach((m, mi) => {
    const kinds = m.kinds.includes('*') ? kindsOrder : m.kinds.filter((k) => byKind.has(k))
    const want = m.n ?? 4
    // per kind: a stride through its objects that starts at an offset of the mutation's index
    const cursor = new Map<string, number>(kinds.map((k) => [k, 0]))
    const used = new Set<Base>()
    let made = 0
    let misses = 0
    for (let round = 0; made < want && misses < kinds.length * 4 && kinds.length > 0; round++) {
      const kind = kinds[(round + mi) % kinds.length]!
      const list = byKind.get(kind)!
      const i = cursor.get(kind)!
      cursor.set(kind, i + 1)
      if (i >= list.length) {
        misses++
        continue
      }
      const stride = Math.max(1, Math.floor(list.length / Math.max(1, Math.ceil(want / kinds.length))))
      const base = list[(mi * 7 + i * stride) % list.length]!
      if (used.has(base)) {
        misses++
        continue
      }
      used.add(base)
      const object = structuredClone(base.object)
      let applied: boolean | undefined
      try {
        applied = m.apply(object)
      } catch {
        applied = false // a part the mutation changes is missing (a spec, a list)
      }
      if (applied === false) {
        misses++
        continue
      }
      out.push({ source: `${base.source} (mutation ${m.id})`, mutation: m.id, object })
      made++
    }
  })
  return { cases: out, ids: MUTATIONS.length }
}
