// The six reference expressions of ../shared/spec/cel-libraries-evaluation.md §7 (appendix B),
// with the same bindings: JSON-shaped objects, 8 structurally identical copies rotated per call.

const container = (i, tag) => ({
  name: `c${i}`,
  image: `registry.example.com/team/app${i}:${tag}`,
  ports: [{ containerPort: 8080 + i, protocol: 'TCP' }],
  resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
  env: [
    { name: 'MODE', value: 'prod' },
    { name: 'IDX', value: String(i) },
  ],
  securityContext: { runAsNonRoot: true, readOnlyRootFilesystem: true },
})
const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web', tier: 'frontend' },
    annotations: { 'a/b': 'c' },
    generation: 4,
    uid: '1b2c',
  },
  spec: {
    replicas: 3,
    revisionHistoryLimit: 10,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [0, 1, 2, 3, 4].map((i) => container(i, `v1.${i}.0`)),
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
      },
    },
  },
  status: { replicas: 3, readyReplicas: 3 },
})
const scaleSelf = () => ({ minReplicas: 1, replicas: 3, maxReplicas: 5 })
const ingressSelf = () => ({
  spec: {
    ingressClassName: 'nginx',
    tls: [
      { hosts: ['a.example.com', 'b.example.com'], secretName: 's1' },
      { hosts: ['c.example.com'], secretName: 's2' },
    ],
    rules: [{ host: 'a.example.com' }],
  },
})
const itemsSelf = () => ({ items: Array.from({ length: 100 }, (_, i) => (i % 12 === 0 ? `a-item-${i}` : `item-${i}`)) })

function cpLen(s) {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0xd800 || c > 0xdbff) n++
  }
  return n
}

export const cases = [
  {
    id: 'replicas',
    expr: 'object.spec.replicas <= 5',
    vars: () => ({ object: deployment() }),
    js: (c) => c.object.spec.replicas <= 5,
  },
  {
    id: 'containers.all',
    expr: "object.spec.template.spec.containers.all(c, c.image.contains(':') && !c.image.endsWith(':latest'))",
    vars: () => ({ object: deployment() }),
    js: (c) =>
      c.object.spec.template.spec.containers.every((x) => x.image.includes(':') && !x.image.endsWith(':latest')),
  },
  {
    id: 'min<=r<=max',
    expr: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
    vars: () => ({ self: scaleSelf() }),
    js: (c) => c.self.minReplicas <= c.self.replicas && c.self.replicas <= c.self.maxReplicas,
  },
  {
    id: 'has(tls)?all',
    expr: 'has(self.spec.tls) ? self.spec.tls.all(t, t.hosts.size() > 0) : true',
    vars: () => ({ self: ingressSelf() }),
    js: (c) => ('tls' in c.self.spec ? c.self.spec.tls.every((t) => t.hosts.length > 0) : true),
  },
  {
    id: 'filter.size',
    expr: "self.items.filter(i, i.startsWith('a')).size() < 10",
    vars: () => ({ self: itemsSelf() }),
    js: (c) => c.self.items.filter((i) => i.startsWith('a')).length < 10,
  },
  {
    id: 'oldSelf',
    expr: 'self == oldSelf || self.size() > oldSelf.size()',
    vars: () => ({ self: 'hello-world-2', oldSelf: 'hello-world' }),
    // CEL size() counts code points; a faithful closure must too
    js: (c) => c.self === c.oldSelf || cpLen(c.self) > cpLen(c.oldSelf),
  },
]

/** 8 distinct, same-shaped binding objects per case, rotated per call. */
export function bindings(c) {
  return Array.from({ length: 8 }, () => c.vars())
}
