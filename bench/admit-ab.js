// admit() of two builds in one process (KELP_BENCH_BASE: another checkout, built): interleaved rounds, the
// median of the per-round ratios, so that a neighbour's load falls on both sides alike. Cases: `none` (a
// ConfigMap no policy matches: the pipeline's own cost), `vap` (a Deployment, 20 policies), `map` (3
// MutatingAdmissionPolicies and the 20). Usage: KELP_BENCH_BASE=/path/to/base node bench/admit-ab.js vap
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { applyConfiguration as ac, deployment, jsonPatch as jp, mutatingMaterial, policyMaterial } from './fixtures.js'

if (!process.env.KELP_BENCH_BASE) throw new Error('KELP_BENCH_BASE: the base checkout (with dist/ built)')
const base = await import(pathToFileURL(join(process.env.KELP_BENCH_BASE, 'dist/index.js')).href)
const next = await import('../dist/index.js')
const which = process.argv[2] ?? 'vap'
const maps = mutatingMaterial(
  [
    ac('Object{metadata: Object.metadata{labels: {"app.kubernetes.io/name": object.metadata.name}}}'),
    ac('Object{spec: Object.spec{revisionHistoryLimit: 5}}'),
    jp('[JSONPatch{op: "replace", path: "/spec/progressDeadlineSeconds", value: 300}]'),
  ],
  'm',
)
const material =
  which === 'vap'
    ? policyMaterial()
    : which === 'map'
      ? [...maps, ...policyMaterial()]
      : policyMaterial().filter((o) => o.kind === 'Namespace')
const objs = Array.from({ length: 8 }, (_, i) =>
  which === 'none'
    ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}`, namespace: 'default' }, data: { a: 'b' } }
    : deployment(i),
)
const setup = (m) => {
  const set = m.PolicySet.build(material)
  if (set.problems.length) throw new Error(set.problems[0].message)
  const reqs = objs.map((o) => set.request(o))
  const first = JSON.stringify(reqs.map((r) => set.admit(r)))
  return { set, reqs, first }
}
const A = setup(base)
const B = setup(next)
if (A.first !== B.first) throw new Error('answers differ')
const N = which === 'none' ? 4000 : which === 'vap' ? 400 : 60
const run = ({ set, reqs }) => {
  const t = process.hrtime.bigint()
  for (let i = 0; i < N; i++) set.admit(reqs[i & 7])
  return Number(process.hrtime.bigint() - t) / N
}
for (let i = 0; i < 5; i++) {
  run(A)
  run(B)
}
const ratios = [],
  as = [],
  bs = []
for (let r = 0; r < 80; r++) {
  let a, b
  if (r & 1) {
    a = run(A)
    b = run(B)
  } else {
    b = run(B)
    a = run(A)
  }
  as.push(a)
  bs.push(b)
  ratios.push(b / a)
}
const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1]
console.log(
  `${which}: base ${(med(as) / 1000).toFixed(2)} µs, new ${(med(bs) / 1000).toFixed(2)} µs, new/base median ratio ${med(ratios).toFixed(3)}`,
)
