// npm run bench (third part): PolicySet.admit() for a Deployment against 20 ValidatingAdmissionPolicies
// with 20 bindings (each policy matches apps/v1 deployments, one binding each, Deny), and the share of
// the time spent matching, building the activations and evaluating. Prints Markdown for
// docs/benchmarks.md.
import { do_not_optimize, measure } from 'mitata'
import { PolicySet } from '../dist/index.js'
import { sharedActivation } from '../dist/policy/condition.js'
import { createAdmissionRequest, createNamespaceObject } from '../dist/policy/request.js'

const validations = [
  'object.spec.replicas <= 50',
  "object.metadata.name.matches('^[a-z0-9-]+$')",
  "has(object.metadata.labels) && 'app' in object.metadata.labels",
  'object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.limits))',
  "object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))",
  'object.spec.template.spec.containers.all(c, c.image.contains(":"))',
  '!has(object.spec.template.spec.hostNetwork) || !object.spec.template.spec.hostNetwork',
  '!has(object.spec.template.spec.hostPID) || !object.spec.template.spec.hostPID',
  'object.spec.template.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)',
  'object.spec.template.spec.containers.size() <= 10',
  'object.spec.selector.matchLabels.all(k, k in object.spec.template.metadata.labels)',
  "request.operation in ['CREATE', 'UPDATE']",
  'object.spec.template.spec.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort > 0 && p.containerPort < 65536))',
  "object.metadata.namespace != 'kube-system'",
  '!has(object.spec.template.spec.volumes) || object.spec.template.spec.volumes.all(v, !has(v.hostPath))',
  'object.spec.template.spec.containers.map(c, c.name).size() == object.spec.template.spec.containers.size()',
  "quantity(object.spec.template.spec.containers[0].resources.limits.memory).compareTo(quantity('4Gi')) <= 0",
  "!has(object.spec.strategy) || object.spec.strategy.type in ['RollingUpdate', 'Recreate']",
  'object.spec.template.spec.containers.exists(c, c.name == object.metadata.labels.app)',
  "variables.team != ''",
]
const objects = []
validations.forEach((expression, i) => {
  objects.push({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: `policy-${i}` },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
        ],
      },
      ...(expression.includes('variables')
        ? {
            variables: [
              {
                name: 'team',
                expression:
                  "has(object.metadata.labels) && 'team' in object.metadata.labels ? object.metadata.labels.team : ''",
              },
            ],
          }
        : {}),
      validations: [{ expression, message: `rule ${i}` }],
    },
  })
  objects.push({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: `binding-${i}` },
    spec: {
      policyName: `policy-${i}`,
      validationActions: ['Deny'],
      matchResources: {
        namespaceSelector: {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
        },
      },
    },
  })
})
objects.push({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'shop', labels: { 'kubernetes.io/metadata.name': 'shop', env: 'prod' } },
})

const deployment = (i) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: `web-${i}`, namespace: 'shop', labels: { app: 'web', team: 'shop' } },
  spec: {
    replicas: 3 + (i % 4),
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate' },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: `registry.example.com/web:1.${i}`,
            ports: [{ containerPort: 8080 }],
            resources: { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
          },
          {
            name: 'sidecar',
            image: 'registry.example.com/proxy:2.1',
            resources: { limits: { cpu: '100m', memory: '64Mi' } },
          },
        ],
      },
    },
  },
})

const set = PolicySet.build(objects)
if (set.problems.length > 0) throw new Error(set.problems[0].message)
if (set.policies.length !== 20) throw new Error(`${set.policies.length} policies`)
const reqs = Array.from({ length: 8 }, (_, i) => set.request(deployment(i)))
for (const r of reqs) {
  const res = set.admit(r)
  if (!res.allowed) throw new Error(res.status?.message)
}
const fmt = (ns) => (ns < 1000 ? `${ns.toFixed(0)} ns` : `${(ns / 1000).toFixed(2)} µs`)
const time = async (fn) => (await measure(() => do_not_optimize(fn()), { min_cpu_time: 600e6 })).p50
let n = 0
const total = await time(() => set.admit(reqs[n++ & 7]))

// matching only: the same set with each policy's Validate replaced by a no-op (validateShared is the
// dispatcher's path for policies with validations only)
const matchOnly = PolicySet.build(objects)
for (const h of matchOnly.policies) {
  h.validator.validate = () => ({ decisions: [], auditAnnotations: [] })
  h.validator.validateShared = () => undefined
}
const matching = await time(() => matchOnly.admit(reqs[n++ & 7]))

// building the activations: once per request, the request and namespace values and the activation the
// policies with validations only share (the one policy with variables builds its own batch: evaluating)
const ns = objects.at(-1)
const authorize = () => ({ decision: 'NoOpinion', reason: '' })
const activation = await time(() => {
  const a = reqs[n++ & 7]
  return sharedActivation(a, createAdmissionRequest(a), createNamespaceObject(ns), () => authorize)
})
// a request parsed afresh each time, as the webhook sees them (the parse measured alone and subtracted)
const base = reqs.map((r) => JSON.stringify(r))
const parse = await time(() => JSON.parse(base[n++ & 7]))
const fresh = Math.max(0, (await time(() => set.admit(JSON.parse(base[n++ & 7])))) - parse)
const evaluation = Math.max(0, total - matching - activation)
const pct = (x) => `${((x / total) * 100).toFixed(0)}%`
console.log('| admit(): Deployment, 20 policies × 1 binding | time | share |')
console.log('|---|---|---|')
console.log(`| total (p50) | ${fmt(total)} | 100% |`)
console.log(`| matching (rules, selectors, bindings, params) | ${fmt(matching)} | ${pct(matching)} |`)
console.log(
  `| building activations (request, namespaceObject, the shared activation) | ${fmt(activation)} | ${pct(activation)} |`,
)
console.log(`| evaluating (20 validations, messages, audit annotations) | ${fmt(evaluation)} | ${pct(evaluation)} |`)
console.log(
  `| total, a freshly parsed request each time (p50, JSON.parse ${fmt(parse)} subtracted) | ${fmt(fresh)} | |`,
)
