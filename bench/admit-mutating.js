// npm run bench (after bench/admit.js): PolicySet.admit() for a Deployment with 10 MutatingAdmissionPolicies
// (one binding each; 5 ApplyConfiguration, 5 JSONPatch, all matching apps/v1 deployments and all changing the
// object) in front of the 20 ValidatingAdmissionPolicies of bench/admit.js, next to the 20 VAPs alone and the
// 10 MAPs alone; and the 10 MAPs when they match but change nothing (the object already as they would leave
// it). Medians (mitata p50), 8 rotated Deployments, every result checked before timing. Prints Markdown for
// docs/benchmarks.md.
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { do_not_optimize, measure } from 'mitata'
import { PolicySet } from '../dist/index.js'
import { applyConfiguration, deployment, jsonPatch, mutatingMaterial, policyMaterial } from './fixtures.js'

const ac = applyConfiguration
const jp = jsonPatch
const mutations = [
  ac('Object{metadata: Object.metadata{labels: {"app.kubernetes.io/name": object.metadata.name}}}'),
  ac('Object{metadata: Object.metadata{annotations: {"kelp.dev/owner": object.metadata.labels.team}}}'),
  ac(
    'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{securityContext: Object.spec.template.spec.securityContext{seccompProfile: Object.spec.template.spec.securityContext.seccompProfile{type: "RuntimeDefault"}}}}}}',
  ),
  ac(
    'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{name: c.name, securityContext: Object.spec.template.spec.containers.securityContext{allowPrivilegeEscalation: false}})}}}}',
  ),
  ac('Object{spec: Object.spec{revisionHistoryLimit: 5}}'),
  jp('[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("kelp.dev/mutated"), value: "true"}]'),
  jp('[JSONPatch{op: "add", path: "/spec/template/metadata/labels/tier", value: "frontend"}]'),
  jp('[JSONPatch{op: "replace", path: "/spec/progressDeadlineSeconds", value: 300}]'),
  jp('[JSONPatch{op: "add", path: "/spec/minReadySeconds", value: object.spec.replicas > 5 ? 20 : 10}]'),
  jp('[JSONPatch{op: "add", path: "/spec/template/spec/containers/0/env", value: [{"name": "KELP", "value": "1"}]}]'),
]

const vaps = policyMaterial()
const maps = mutatingMaterial(mutations, 'mutate')
const ns = vaps.at(-1)
const build = (objects) => {
  const set = PolicySet.build(objects)
  if (set.problems.length > 0) throw new Error(set.problems[0].message)
  return set
}
const objects = Array.from({ length: 8 }, (_, i) => deployment(i))
const reqs = (set, objs = objects) => objs.map((o) => set.request(o))
const check = (set, rs, mutated) => {
  for (const r of rs) {
    const res = set.admit(r)
    if (!res.allowed) throw new Error(res.status?.message ?? res.builtin?.message)
    if (mutated !== undefined && (res.mutations?.filter((m) => m.patch.length > 0).length ?? 0) !== mutated)
      throw new Error(`expected ${mutated} mutations, got ${res.mutations?.length}`)
  }
  return rs
}
// each row's set and requests, built only when the row runs (a child process builds one)
const setups = {
  vap: () => {
    const set = build(vaps)
    return [set, check(set, reqs(set))]
  },
  map: () => {
    const set = build([...maps, ns])
    return [set, check(set, reqs(set), 10)]
  },
  both: () => {
    const set = build([...maps, ...vaps])
    return [set, check(set, reqs(set), 10)]
  },
  settled: () => {
    // the objects as the 10 policies leave them: admitted again, the policies match and change nothing
    const set = build([...maps, ...vaps])
    const settled = objects.map((o) => set.admit(set.request(o)).mutatedObject)
    return [set, check(set, reqs(set, settled), 0)]
  },
}
const fmt = (ns) => (ns < 1000 ? `${ns.toFixed(0)} ns` : `${(ns / 1000).toFixed(1)} µs`)
const time = async (set, rs) => {
  let n = 0
  return (await measure(() => do_not_optimize(set.admit(rs[n++ & 7])), { min_cpu_time: 600e6 })).p50
}
const rows = {
  vap: ['20 VAPs (the set of bench/admit.js)'],
  map: ['10 MAPs (5 ApplyConfiguration, 5 JSONPatch), each changing the object'],
  both: ['10 MAPs + 20 VAPs'],
  settled: ['10 MAPs + 20 VAPs, the object already as the MAPs leave it (no change)'],
}
const only = process.argv[2]
if (only !== undefined) {
  // one row in this process (the parent runs each row in a fresh process, ROUNDS times)
  const [set, rs] = setups[only]()
  console.log(JSON.stringify(await time(set, rs)))
} else {
  const ROUNDS = 3
  const results = {}
  for (let round = 0; round < ROUNDS; round++)
    for (const key of Object.keys(rows)) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), key], { encoding: 'utf8' })
      ;(results[key] ??= []).push(Number(out.trim()))
    }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `${new Date().toISOString()} ${cpu} (${os.cpus().length} cores), Node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; median of ${ROUNDS} fresh processes per row`,
  )
  console.log('')
  console.log('| admit(): Deployment (CREATE) | p50 (median of runs) | runs | vs 20 VAPs |')
  console.log('|---|---|---|---|')
  const base = median(results.vap)
  for (const [key, [label]] of Object.entries(rows)) {
    const m = median(results[key])
    console.log(`| ${label} | ${fmt(m)} | ${results[key].map(fmt).join(', ')} | ${(m / base).toFixed(2)}× |`)
  }
}
