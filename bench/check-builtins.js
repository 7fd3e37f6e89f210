// issue 18 "Speed": `kelp check` on 10,000 Deployments × the 20 policies of bench/fixtures.js (one
// Deny binding each, all matching, all passing), with built-in decoding, defaulting and native
// validation on (the default), against js-yaml alone parsing the same files in the same run; and the
// same Deployments with the bundled pack. In-process, as the CLI runs it (prepare: read + build the set,
// admit, keep the results with findings, `-o text` formatted); one thread and two. The variants run
// alternately, KELP_BENCH_RUNS rounds (default 7), and the medians are quoted. Prints Markdown.
// Target: ≥ 10,000 manifests/s on 2 cores and ≤ 2× YAML-only.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jsyaml from 'js-yaml'
import { check } from '../dist/cli/check.js'
import { checkParallel } from '../dist/cli/parallel.js'
import { format } from '../dist/report/index.js'
import { deployment, policyMaterial } from './fixtures.js'

const N = Number(process.env.KELP_BENCH_N ?? 10_000)
const runs = Number(process.env.KELP_BENCH_RUNS ?? 7)
const only = process.env.KELP_BENCH_ONLY?.split(',')
const text = Array.from({ length: N }, (_, i) => jsyaml.dump(deployment(i))).join('---\n')
const policyText = policyMaterial()
  .map((o) => jsyaml.dump(o))
  .join('---\n')
const dir = mkdtempSync(join(tmpdir(), 'kelp-bench-builtins-'))
const file = join(dir, 'deployments.yaml')
const policies = join(dir, 'policies.yaml')
writeFileSync(file, text)
writeFileSync(policies, policyText)

const opts20 = { paths: [file], policies: [policies], kubeVersion: '1.37' }
const optsPack = { paths: [file], kubeVersion: '1.37' }
const expect = (r, allowed) => {
  if (r.summary.objects !== N) throw new Error(`${r.summary.objects} objects`)
  if (allowed && r.summary.allowed !== N) throw new Error(`${JSON.stringify(r.summary)}`)
  return format(r, 'text', { color: false, failOn: 'deny' })
}
const variants = {
  yaml: () => {
    jsyaml.loadAll(text)
    jsyaml.loadAll(policyText)
  },
  check20: () => expect(check(opts20, 'findings'), true),
  check20x2: async () => expect(await checkParallel(opts20, 2, undefined, 'findings'), true),
  pack: () => expect(check(optsPack, 'findings'), false),
  packx2: async () => expect(await checkParallel(optsPack, 2, undefined, 'findings'), false),
}
const names = Object.keys(variants).filter((k) => k === 'yaml' || only === undefined || only.includes(k))
const times = Object.fromEntries(names.map((k) => [k, []]))
for (let r = 0; r < runs; r++) {
  for (const k of names) {
    const s = performance.now()
    await variants[k]()
    times[k].push(performance.now() - s)
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const yamlOnly = median(times.yaml)
const label = {
  yaml: 'YAML only (js-yaml loadAll, both files)',
  check20: 'kelp check -p policies.yaml (20 policies), 1 thread',
  check20x2: 'kelp check -p policies.yaml (20 policies), 2 threads (--jobs 2)',
  pack: 'kelp check, bundled pack, 1 thread',
  packx2: 'kelp check, bundled pack, 2 threads (--jobs 2)',
}
console.log(
  `| ${N} Deployments, ${(text.length / 1e6).toFixed(1)} MB, median of ${runs} alternating runs | time | manifests/s | × YAML only | runs (ms) |`,
)
console.log('|---|---|---|---|---|')
for (const k of names) {
  const m = median(times[k])
  console.log(
    `| ${label[k]} | ${m.toFixed(0)} ms | ${Math.round(N / (m / 1000)).toLocaleString('en')} | ${(m / yamlOnly).toFixed(2)}× | ${times[k].map((t) => t.toFixed(0)).join(', ')} |`,
  )
}
