// issue 18 "Speed": `kelp check` on 10,000 Deployments × the 20 policies of bench/fixtures.js (one
// Deny binding each, all matching, all passing), with built-in decoding, defaulting and native
// validation on (the default), against js-yaml alone parsing the same files in the same run; and the
// same Deployments with the bundled pack. In-process, as the CLI runs it (prepare: read + build the set,
// admit, keep the results with findings, `-o text` formatted); one thread and two. The variants run
// alternately, KELP_BENCH_RUNS rounds (default 7); medians of wall time and of CPU time (this process:
// user + system, GC threads and workers included), which a shared machine disturbs less.
// Target: ≥ 10,000 manifests/s on 2 cores and ≤ 2× YAML-only.
//   KELP_BENCH_N=10000           Deployments
//   KELP_BENCH_ONLY=check20,pack  the variants (check20, check20x2, pack, packx2; default all)
//   KELP_BENCH_BASE=/other/kelp   also run another checkout's dist/ (built) in the same rounds (A/B)
// Prints Markdown.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import jsyaml from 'js-yaml'
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

const roots = { '': join(dirname(fileURLToPath(import.meta.url)), '..') }
if (process.env.KELP_BENCH_BASE) roots['base: '] = process.env.KELP_BENCH_BASE
const opts20 = { paths: [file], policies: [policies], kubeVersion: '1.37' }
const optsPack = { paths: [file], kubeVersion: '1.37' }
const label = {
  check20: 'kelp check -p policies.yaml (20 policies), 1 thread',
  check20x2: 'kelp check -p policies.yaml (20 policies), 2 threads (--jobs 2)',
  pack: 'kelp check, bundled pack, 1 thread',
  packx2: 'kelp check, bundled pack, 2 threads (--jobs 2)',
}
const variants = {
  yaml: {
    label: 'YAML only (js-yaml loadAll, both files)',
    run: () => {
      jsyaml.loadAll(text)
      jsyaml.loadAll(policyText)
    },
  },
}
for (const [prefix, root] of Object.entries(roots)) {
  // the check pipeline's module (dist/cli/ before issue 27 moved it below the faces: a base built before it)
  const pipeline = existsSync(join(root, 'dist/check/index.js'))
    ? await import(join(root, 'dist/check/index.js'))
    : { ...(await import(join(root, 'dist/cli/check.js'))), ...(await import(join(root, 'dist/cli/parallel.js'))) }
  const { check, checkParallel } = pipeline
  const { format } = await import(join(root, 'dist/report/index.js'))
  const expect = (r, allowed) => {
    if (r.summary.objects !== N) throw new Error(`${r.summary.objects} objects`)
    if (allowed && r.summary.allowed !== N) throw new Error(`${JSON.stringify(r.summary)}`)
    return format(r, 'text', { color: false, failOn: 'deny' })
  }
  const all = {
    check20: () => expect(check(opts20, 'findings'), true),
    check20x2: async () => expect(await checkParallel(opts20, 2, undefined, 'findings'), true),
    pack: () => expect(check(optsPack, 'findings'), false),
    packx2: async () => expect(await checkParallel(optsPack, 2, undefined, 'findings'), false),
  }
  for (const [k, run] of Object.entries(all))
    if (only === undefined || only.includes(k)) variants[`${prefix}${k}`] = { label: `${prefix}${label[k]}`, run }
}
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const wall = Object.fromEntries(Object.keys(variants).map((k) => [k, []]))
const cpus = Object.fromEntries(Object.keys(variants).map((k) => [k, []]))
for (let r = 0; r < runs; r++) {
  for (const [k, v] of Object.entries(variants)) {
    const c = cpu()
    const s = performance.now()
    await v.run()
    wall[k].push(performance.now() - s)
    cpus[k].push(cpu() - c)
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const yamlWall = median(wall.yaml)
const yamlCPU = median(cpus.yaml)
console.log(
  `| ${N} Deployments, ${(text.length / 1e6).toFixed(1)} MB, medians of ${runs} alternating runs | wall | manifests/s | × YAML only (wall) | CPU | × YAML only (CPU) | wall per run (ms) |`,
)
console.log('|---|---|---|---|---|---|---|')
for (const [k, v] of Object.entries(variants)) {
  const m = median(wall[k])
  const c = median(cpus[k])
  console.log(
    `| ${v.label} | ${m.toFixed(0)} ms | ${Math.round(N / (m / 1000)).toLocaleString('en')} | ${(m / yamlWall).toFixed(2)}× | ${c.toFixed(0)} ms | ${(c / yamlCPU).toFixed(2)}× | ${wall[k].map((t) => t.toFixed(0)).join(', ')} |`,
  )
}
