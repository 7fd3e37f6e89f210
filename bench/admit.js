// npm run bench (third part): PolicySet.admit() for a Deployment against 20 ValidatingAdmissionPolicies
// with 20 bindings (each policy matches apps/v1 deployments, one binding each, Deny), and the share of
// the time spent matching, building the activations and evaluating. Prints Markdown for
// docs/benchmarks.md.
import { do_not_optimize, measure } from 'mitata'
import { PolicySet } from '../dist/index.js'
import { sharedActivation } from '../dist/policy/cel/condition.js'
import { createAdmissionRequest, createNamespaceObject } from '../dist/policy/cel/request.js'
import { deployment, policyMaterial } from './fixtures.js'

const objects = policyMaterial()

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
