// npm run bench (second part): custom resource validation. One CRD with 20 x-kubernetes-validations
// rules, validated on create and on update, against a hand-written JS function checking the same 20
// conditions; 1,000 distinct instances of that CRD; and loading all CRDs of ../shared/data/crds (the
// start-up of the CLI and the webhook). Prints Markdown for docs/benchmarks.md.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { do_not_optimize, measure } from 'mitata'
import { parseAllDocuments } from 'yaml'
import { CustomResourceDefinitions } from '../dist/index.js'

const here = dirname(fileURLToPath(import.meta.url))

const rules = [
  ['spec', 'self.replicas <= self.maxReplicas', 'replicas must not exceed maxReplicas'],
  ['spec', 'self.minReplicas <= self.replicas', 'replicas below minReplicas'],
  ['spec', '!has(self.paused) || !self.paused || self.replicas == 0', 'a paused widget has no replicas'],
  ['spec', 'self.ports.all(p, p.port >= 1 && p.port <= 65535)', 'ports must be 1..65535'],
  ['spec', 'self.ports.map(p, p.name).size() == self.ports.size()', 'port names'],
  ['spec', 'self.ports.exists(p, p.protocol == "TCP")', 'one TCP port at least'],
  ['spec', "self.image.contains(':')", 'image needs a tag'],
  ['spec', "!self.image.endsWith(':latest')", 'no latest tag'],
  ['spec', "self.tier in ['frontend', 'backend', 'batch']", 'unknown tier'],
  ['spec', 'self.labels.all(k, k.size() <= 63)', 'label keys too long'],
  ['spec', "!('forbidden' in self.labels)", 'forbidden label'],
  ['spec', 'self.env.all(e, e.name.matches("^[A-Z_][A-Z0-9_]*$"))', 'env names'],
  ['spec', 'self.env.size() <= 20', 'too many env vars'],
  ['spec', "self.resources.cpu.endsWith('m') || int(self.resources.cpu) <= 8", 'cpu'],
  ['spec', 'self.resources.memoryMi >= 64', 'memory'],
  ['spec', "self.schedule == '' || self.schedule.split(' ').size() == 5", 'schedule'],
  ['spec', 'self.timeoutSeconds > 0 && self.timeoutSeconds <= 3600', 'timeout'],
  ['spec', "self.owner.matches('^[a-z]+@example\\\\.com$')", 'owner email'],
  ['spec.replicas', 'self >= oldSelf || oldSelf - self <= 2', 'scale down by at most 2 at a time'],
  ['spec.tier', 'self == oldSelf', 'tier is immutable'],
]

const hand = (s) =>
  s.replicas <= s.maxReplicas &&
  s.minReplicas <= s.replicas &&
  (s.paused === undefined || !s.paused || s.replicas === 0) &&
  s.ports.every((p) => p.port >= 1 && p.port <= 65535) &&
  new Set(s.ports.map((p) => p.name)).size >= 0 &&
  s.ports.some((p) => p.protocol === 'TCP') &&
  s.image.includes(':') &&
  !s.image.endsWith(':latest') &&
  ['frontend', 'backend', 'batch'].includes(s.tier) &&
  Object.keys(s.labels).every((k) => k.length <= 63) &&
  !('forbidden' in s.labels) &&
  s.env.every((e) => /^[A-Z_][A-Z0-9_]*$/.test(e.name)) &&
  s.env.length <= 20 &&
  (s.resources.cpu.endsWith('m') || Number.parseInt(s.resources.cpu, 10) <= 8) &&
  s.resources.memoryMi >= 64 &&
  (s.schedule === '' || s.schedule.split(' ').length === 5) &&
  s.timeoutSeconds > 0 &&
  s.timeoutSeconds <= 3600 &&
  /^[a-z]+@example\.com$/.test(s.owner)
const handUpdate = (s, o) => hand(s) && (s.replicas >= o.replicas || o.replicas - s.replicas <= 2) && s.tier === o.tier

const spec = {
  type: 'object',
  required: ['replicas', 'image'],
  'x-kubernetes-validations': [],
  properties: {
    replicas: { type: 'integer', 'x-kubernetes-validations': [] },
    minReplicas: { type: 'integer', default: 0 },
    maxReplicas: { type: 'integer', maximum: 1000 },
    paused: { type: 'boolean' },
    image: { type: 'string', maxLength: 512 },
    tier: { type: 'string', maxLength: 32, 'x-kubernetes-validations': [] },
    labels: { type: 'object', maxProperties: 64, additionalProperties: { type: 'string', maxLength: 63 } },
    ports: {
      type: 'array',
      maxItems: 16,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name', 'port'],
        properties: {
          name: { type: 'string', maxLength: 15 },
          port: { type: 'integer' },
          protocol: { type: 'string', enum: ['TCP', 'UDP'], default: 'TCP' },
        },
      },
    },
    env: {
      type: 'array',
      maxItems: 64,
      items: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 64 }, value: { type: 'string', maxLength: 256 } },
      },
    },
    resources: {
      type: 'object',
      properties: { cpu: { type: 'string', maxLength: 8 }, memoryMi: { type: 'integer' } },
    },
    schedule: { type: 'string', maxLength: 64 },
    timeoutSeconds: { type: 'integer' },
    owner: { type: 'string', maxLength: 64 },
  },
}
for (const [at, rule, message] of rules) {
  const node = at === 'spec' ? spec : spec.properties[at.slice(5)]
  node['x-kubernetes-validations'].push({ rule, message })
}
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', plural: 'widgets' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
      },
    ],
  },
}

const widget = (i) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: `w-${i}`, namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 3 + (i % 5),
    minReplicas: 1,
    maxReplicas: 10,
    image: `registry.example.com/web:1.${i}`,
    tier: 'frontend',
    labels: { team: 'a', cost: `c${i}` },
    ports: [
      { name: 'http', port: 8080, protocol: 'TCP' },
      { name: 'metrics', port: 9090 + (i % 3), protocol: 'TCP' },
    ],
    env: [
      { name: 'MODE', value: 'prod' },
      { name: 'LEVEL', value: String(i) },
    ],
    resources: { cpu: '500m', memoryMi: 256 },
    schedule: '0 * * * *',
    timeoutSeconds: 30,
    owner: 'team@example.com',
  },
})

const fmt = (ns) =>
  ns < 1000 ? `${ns.toFixed(0)} ns` : ns < 1e6 ? `${(ns / 1000).toFixed(2)} µs` : `${(ns / 1e6).toFixed(1)} ms`

async function time(fn) {
  const stats = await measure(() => do_not_optimize(fn()), { min_cpu_time: 600e6 })
  return stats.p50
}

const crds = CustomResourceDefinitions.load([crd])
if (crds.problems.length > 0) throw new Error(crds.problems[0].status.message)
const objs = Array.from({ length: 8 }, (_, i) => widget(i))
const olds = objs.map((o) => ({
  ...o,
  metadata: { ...o.metadata, resourceVersion: '7' },
  spec: { ...o.spec, replicas: o.spec.replicas + 1 },
}))
for (let i = 0; i < 8; i++) {
  const c = crds.validate(objs[i])
  const u = crds.validate(objs[i], { oldObject: olds[i] })
  if (!c?.allowed || !u?.allowed || !hand(objs[i].spec) || !handUpdate(objs[i].spec, olds[i].spec)) {
    throw new Error(`widget ${i}: ${c?.message ?? ''} ${u?.message ?? ''}`)
  }
}
const cel = crds.get('example.com', 'Widget').versions.get('v1').celValidator()
let n = 0
const rows = []
const handCreate = await time(() => hand(objs[n++ & 7].spec))
const handUpd = await time(() => handUpdate(objs[n & 7].spec, olds[n++ & 7].spec))
const celCreate = await time(() => cel.validate(undefined, objs[n++ & 7], undefined, 10_000_000))
const celUpdate = await time(() => cel.validate(undefined, objs[n & 7], olds[n++ & 7], 10_000_000))
const fullCreate = await time(() => crds.validate(objs[n++ & 7]))
const fullUpdate = await time(() => crds.validate(objs[n & 7], { oldObject: olds[n++ & 7] }))
rows.push(
  `| create | ${fmt(handCreate)} | ${fmt(celCreate)} (${(celCreate / handCreate).toFixed(1)}×) | ${fmt(fullCreate)} (${(fullCreate / handCreate).toFixed(1)}×) |`,
)
rows.push(
  `| update | ${fmt(handUpd)} | ${fmt(celUpdate)} (${(celUpdate / handUpd).toFixed(1)}×) | ${fmt(fullUpdate)} (${(fullUpdate / handUpd).toFixed(1)}×) |`,
)

// 1,000 distinct instances, each validated once (create), as `kelp check` over a directory would
const many = Array.from({ length: 1000 }, (_, i) => widget(i))
const t0 = performance.now()
let allowed = 0
for (const o of many) if (crds.validate(o)?.allowed) allowed++
const manyMs = performance.now() - t0
if (allowed !== 1000) throw new Error(`${allowed} of 1000 allowed`)

console.log('| one Widget, 20 rules | hand-written | kelp CEL rules only (× hand) | kelp full validation (× hand) |')
console.log('|---|---|---|---|')
for (const r of rows) console.log(r)
console.log(
  `\n1,000 distinct Widgets, first validation each (cold objects, warm CRD): ${manyMs.toFixed(0)} ms (${((manyMs * 1000) / 1000).toFixed(0)} µs each)`,
)

// Loading every CRD of ../shared/data/crds: parse YAML, validate each CRD (with the CEL checks), build
// the registries; then compile every rule (done lazily on the first object of a version).
const dir = join(here, '../../shared/data/crds')
if (!existsSync(dir)) {
  console.log(`\n(${dir} absent: CRD loading not measured)`)
} else {
  const files = []
  const walk = (d) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f)
      if (statSync(p).isDirectory()) walk(p)
      else if (p.endsWith('.yaml')) files.push(p)
    }
  }
  walk(dir)
  const texts = files.map((f) => readFileSync(f, 'utf8'))
  const t1 = performance.now()
  const perFile = texts.map((t) => parseAllDocuments(t).map((d) => d.toJS({ maxAliasCount: -1 })))
  const t2 = performance.now()
  const registries = perFile.map((objs) => CustomResourceDefinitions.load(objs))
  const t3 = performance.now()
  let compiled = 0
  for (const r of registries)
    for (const c of r) for (const v of c.versions.values()) for (const _ of v.celValidator()?.rules() ?? []) compiled++
  const t4 = performance.now()
  const _trusted = perFile.map((objs) => CustomResourceDefinitions.load(objs, { trusted: true }))
  const t5 = performance.now()
  const count = registries.reduce((s, r) => s + r.size, 0)
  const problems = registries.reduce((s, r) => s + r.problems.length, 0)
  console.log(`\nLoading ${count} CRDs (${files.length} files, ${compiled} rules), ${problems} rejected:`)
  console.log(`- YAML parse: ${(t2 - t1).toFixed(0)} ms`)
  console.log(
    `- CRD validation as on create (incl. every rule compiled and cost-estimated): ${(t3 - t2).toFixed(0)} ms`,
  )
  console.log(`- compiling the rules for validation (first object of each version): ${(t4 - t3).toFixed(0)} ms`)
  console.log(`- load with trusted: true (no CRD validation): ${(t5 - t4).toFixed(0)} ms`)
}
