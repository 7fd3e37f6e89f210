// issue 29: `kelp check` as a user runs it: the built CLI (dist/cli/kelp.cjs) as one whole process, cold, on
// corpora that are not only the bench's own (bench/corpora.js: block- and flow-style Deployments of
// bench/fixtures.js, Deployments with several containers, the real public manifests of the e2e differential
// replicated), beside its peers kubeconform and kubectl-validate on the same files.
//
// Commands, each its own process: `kelp check <corpus>` (the bundled pack, the default), `kelp check <corpus>
// -p policies.yaml --pack off` (the 20 policies of bench/fixtures.js), on the block corpus `--jobs 2` (pack),
// kubeconform and kubectl-validate (bench/peer-schemas.js: offline schemas of the same release); baselines in the
// same rounds: bare `node -e 0`, and js-yaml alone in its own process (`node -e`: loadAll of every file kelp reads,
// the speed of reading YAML). The public corpus' CRDs are given with -p (policy material) to kelp, as schemas to
// kubeconform and as --local-crds to kubectl-validate.
//
// Figures: GNU time's CPU (user + system, all threads), wall and peak RSS of each process (bench/timing.js).
// The machine may be shared and loaded: every round runs every command once, in an order rotated from round to
// round (a neighbour's burst falls on different commands), a corpus' commands next to each other; ratios are
// taken within a round (kelp's CPU over js-yaml's in that round) and their median reported beside the medians
// of the absolute figures. CPU time is what load disturbs least; wall time under load is not the tool's own.
// Every round counts (no warm-up round: the corpora were just written, so their files are in the page cache
// from the start, and a first run's slower binary load is one round of several, which the medians absorb).
// manifests/s = objects / wall; "on one core" = objects / CPU seconds. Targets (issue 29): with the pack ≤ 2.5×
// js-yaml's CPU and ≥ 8,000 manifests/s on one core; with the 20 policies ≤ 2× and ≥ 10,000/s.
//
//   KELP_BENCH_RUNS=5          rounds (medians of these)
//   KELP_BENCH_N=10000         objects per corpus (the public one: whole copies, the nearest count)
//   KELP_BENCH_ONLY=block,pack  corpora (block, flow, containers, public) and commands (pack, p20, jobs2,
//                              kubeconform, kubectl-validate) to run; unlisted kinds all run
//   KELP_BENCH_BASE=/other/kelp  also another checkout's built dist/ in the same rounds (A/B, new / base)
//
//   npm run build && bash test/e2e/peers/build.sh && node bench/cold.js
// Prints Markdown.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { join } from 'node:path'
import { importTs } from '../test/e2e/run-ts.js'
import { blockCorpus, containersCorpus, flowCorpus, publicCorpus, ROOT, writePolicies } from './corpora.js'
import { builtinSchemas, crdSchemas, kubeconformArgs, kubectlValidateArgs, peerTool } from './peer-schemas.js'
import { median, timed } from './timing.js'

const N = Number(process.env.KELP_BENCH_N ?? 10_000)
const RUNS = Number(process.env.KELP_BENCH_RUNS ?? 5)
const ONLY = process.env.KELP_BENCH_ONLY?.split(',').map((s) => s.trim())
const BASE = process.env.KELP_BENCH_BASE
const CORPORA = ['block', 'flow', 'containers', 'public']
const COMMANDS = ['pack', 'p20', 'jobs2', 'kubeconform', 'kubectl-validate']
/** Whether `id` (of the `kind` list) runs: every one of a kind when KELP_BENCH_ONLY names none of that kind. */
const wanted = (id, kind) => ONLY === undefined || !ONLY.some((o) => kind.includes(o)) || ONLY.includes(id)

const { KUBE_VERSION } = await importTs('test/e2e/harness.ts')
const dir = mkdtempSync(join(os.tmpdir(), 'kelp-bench-cold-'))
const kelp = join(ROOT, 'dist/cli/kelp.cjs')
const loadAvg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')
const started = { date: new Date(), load: loadAvg() }

// --- the corpora ------------------------------------------------------------------------------------------
const policies = writePolicies(join(dir, 'policies.yaml'))
const mb = (bytes) => (bytes / 1e6).toFixed(1)
const corpora = []
if (wanted('block', CORPORA))
  corpora.push({
    id: 'block',
    label: 'Deployments of bench/fixtures.js, block style',
    ...blockCorpus(join(dir, 'block'), N),
  })
if (wanted('flow', CORPORA))
  corpora.push({ id: 'flow', label: 'the same Deployments, flow style (`{…}`)', ...flowCorpus(join(dir, 'flow'), N) })
if (wanted('containers', CORPORA))
  corpora.push({
    id: 'containers',
    label: 'Deployments with 3-4 containers, 1-2 init containers, probes, env, volumes',
    ...containersCorpus(join(dir, 'containers'), N),
  })
if (wanted('public', CORPORA)) {
  const p = publicCorpus(join(dir, 'public'), N, join(dir, 'crds.yaml'))
  corpora.push({
    id: 'public',
    label: `real public manifests (test/e2e/differential/public/: ${p.perCopy} objects × ${p.copies} copies, ${p.renamed} renamed; ${p.crds} CRDs with -p)`,
    material: p.crds > 0 ? [p.crdFile] : [],
    ...p,
  })
}

// --- the peers ----------------------------------------------------------------------------------------------
const peers = {}
let peersNote = ''
try {
  const PEERS = join(ROOT, '.cache/peers')
  peers.kubeconform = peerTool(PEERS, 'kubeconform')
  peers['kubectl-validate'] = peerTool(PEERS, 'kubectl-validate')
  peers.schemas = builtinSchemas(join(dir, 'schemas'), KUBE_VERSION)
  for (const c of corpora) {
    c.crdLinks = join(dir, 'schemas', `crds-${c.id}`)
    crdSchemas(peers.schemas, c.material ?? [], c.crdLinks)
  }
} catch (e) {
  peersNote = `peers left out: ${e.message}`
  delete peers.kubeconform
  delete peers['kubectl-validate']
}
// kubectl-validate reads no cluster: without KUBECONFIG it cannot try
const offline = { ...process.env }
delete offline.KUBECONFIG

// --- the commands -------------------------------------------------------------------------------------------
const jsyamlPath = createRequire(import.meta.url).resolve('js-yaml')
// js-yaml alone: every file under the paths (kelp check's choice of extensions), loadAll, the documents counted
const YAML_ONLY = `const fs = require('fs'), path = require('path'), yaml = require(${JSON.stringify(jsyamlPath)})
let n = 0
const read = (p, named) => {
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p).sort()) read(path.join(p, e), false)
  else if (named || /\\.(ya?ml|json)$/.test(p)) for (const d of yaml.loadAll(fs.readFileSync(p, 'utf8'))) if (d != null) n++
}
for (const p of process.argv.slice(1)) read(p, true)
console.log(n)`

const node = process.execPath
const commands = [{ id: 'bare', corpus: undefined, label: '`node -e 0`', cmd: node, args: ['-e', '0'] }]
const kelps = [['', kelp]]
if (BASE) kelps.push(['base ', join(BASE, 'dist/cli/kelp.cjs')])
for (const c of corpora) {
  const paths = [c.id]
  const material = (c.material ?? []).flatMap((f) => ['-p', f])
  const add = (id, label, cmd, args, extra = {}) => commands.push({ id, corpus: c, label, cmd, args, ...extra })
  add('yaml', 'js-yaml alone (`node -e`, loadAll)', node, ['-e', YAML_ONLY, ...paths, ...(c.material ?? [])])
  for (const [prefix, cli] of kelps) {
    if (wanted('pack', COMMANDS))
      add(`${prefix}pack`, `${prefix}\`kelp check\`, bundled pack`, node, [cli, 'check', ...paths, ...material], {
        kelp: 'pack',
      })
    if (wanted('p20', COMMANDS))
      add(
        `${prefix}p20`,
        `${prefix}\`kelp check -p policies.yaml --pack off\` (20 policies)`,
        node,
        [cli, 'check', ...paths, '-p', policies, '--pack', 'off', ...material],
        { kelp: 'p20' },
      )
    if (c.id === 'block' && wanted('jobs2', COMMANDS) && prefix === '')
      add('jobs2', '`kelp check --jobs 2`, bundled pack', node, [cli, 'check', ...paths, '--jobs', '2', ...material], {
        kelp: 'jobs',
      })
  }
  if (peers.kubeconform && wanted('kubeconform', COMMANDS))
    add('kubeconform', `kubeconform ${peers.kubeconform.version}`, peers.kubeconform.bin, [
      ...kubeconformArgs(peers.schemas, paths, ['-summary']),
    ])
  if (peers['kubectl-validate'] && wanted('kubectl-validate', COMMANDS))
    add(
      'kubectl-validate',
      `kubectl-validate ${peers['kubectl-validate'].version}`,
      peers['kubectl-validate'].bin,
      kubectlValidateArgs(peers.schemas, paths, c.crdLinks),
      { env: offline },
    )
}

/** What a command's run said: kelp's summary line, kubeconform's, js-yaml's count, an exit status. */
function said(c, r) {
  const out = r.stdout ?? ''
  if (c.id === 'yaml') return `${out.trim()} documents`
  if (c.kelp) return /^\d+ objects?:.*$/m.exec(out)?.[0] ?? `exit ${r.status}: ${r.stderr.slice(0, 300)}`
  if (c.id === 'kubeconform') return /^Summary:.*$/m.exec(out)?.[0] ?? `exit ${r.status}`
  if (c.id === 'kubectl-validate') {
    // human output, one `<file>...OK` or `<file>...ERROR` (then the errors) a file, in colour
    const plain = out.replace(/\x1b\[[0-9;]*m/g, '')
    const ok = plain.match(/\.{3}OK$/gm)?.length ?? 0
    const failed = plain.match(/\.{3}ERROR$/gm)?.length ?? 0
    return `exit ${r.status}: ${ok} files OK, ${failed} with an error`
  }
  return `exit ${r.status}`
}

// --- the rounds -------------------------------------------------------------------------------------------
const groups = [[commands[0]], ...corpora.map((c) => commands.filter((x) => x.corpus === c))]
const results = new Map(commands.map((c) => [c, []]))
const said1 = new Map()
const rotate = (xs, k) => xs.map((_, i) => xs[(i + k) % xs.length])
for (let round = 0; round < RUNS; round++) {
  for (const g of rotate(groups, round)) {
    for (const c of rotate(g, round % g.length)) {
      const r = timed(c.cmd, c.args, { cwd: dir, env: c.env })
      if (c.kelp && r.status !== 0 && r.status !== 1)
        throw new Error(`${c.label} on ${c.corpus?.id}: exit ${r.status}: ${r.stderr.slice(0, 2000)}`)
      if (round === 0) said1.set(c, said(c, r))
      results.get(c).push({ ms: r.ms, cpu: r.cpu, rss: r.rss })
    }
  }
}
const finished = { date: new Date(), load: loadAvg() }

// --- the tables -------------------------------------------------------------------------------------------
const TARGETS = {
  pack: { ratio: 2.5, rate: 8000 },
  p20: { ratio: 2, rate: 10_000 },
}
const fmt = (x, d = 0) =>
  Number.isNaN(x) ? '–' : x.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d })
/** The median over the rounds of f(this round's figures of command a, of command b). */
const perRound = (a, b, f) => median(results.get(a).map((x, i) => f(x, results.get(b)[i])))
const bare = commands[0]
const cpuInfo = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model
console.log(`## cold CLI (bench/cold.js): ${started.date.toISOString()} – ${finished.date.toISOString()}\n`)
console.log(
  `${cpuInfo}, ${os.availableParallelism()} cores (nproc), Node ${process.version}; load average (1, 5, 15 min) ${started.load} at the start, ${finished.load} at the end. ${RUNS} rounds, medians; ratios per round. N = ${N}.`,
)
if (peersNote) console.log(`\n${peersNote}`)
const verdicts = []
for (const c of corpora) {
  const mine = commands.filter((x) => x.corpus === c)
  const yaml = mine.find((x) => x.id === 'yaml')
  console.log(
    `\n### ${c.objects.toLocaleString('en')} objects: ${c.label}; ${c.files.toLocaleString('en')} files, ${mb(c.bytes)} MB\n`,
  )
  console.log(
    '| command | wall ms | CPU ms | peak RSS MiB | × js-yaml CPU | × js-yaml wall | × node -e 0 CPU | manifests/s | on one core | target | |',
  )
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|')
  for (const x of [bare, ...mine]) {
    const xs = results.get(x)
    const ms = median(xs.map((r) => r.ms))
    const cpu = median(xs.map((r) => r.cpu))
    const rss = median(xs.map((r) => r.rss))
    const rCpu = perRound(x, yaml, (a, b) => a.cpu / b.cpu)
    const rWall = perRound(x, yaml, (a, b) => a.ms / b.ms)
    const rBare = perRound(x, bare, (a, b) => a.cpu / b.cpu)
    const rate = x === bare ? Number.NaN : c.objects / (ms / 1000)
    const core = x === bare ? Number.NaN : c.objects / (cpu / 1000)
    const t = x.kelp && TARGETS[x.kelp]
    let target = ''
    let verdict = ''
    if (t) {
      const ok = [rCpu <= t.ratio, core >= t.rate]
      target = `≤ ${t.ratio}×, ≥ ${t.rate.toLocaleString('en')}/s`
      verdict = ok.map((v) => (v ? 'PASS' : 'MISS')).join(', ')
      if (!x.id.startsWith('base ')) verdicts.push({ corpus: c.id, command: x.id, rCpu, core, ok })
    }
    console.log(
      `| ${x.label} | ${fmt(ms)} | ${fmt(cpu)} | ${fmt(rss)} | ${fmt(rCpu, 2)}× | ${fmt(rWall, 2)}× | ${fmt(rBare, 1)}× | ${fmt(rate)} | ${fmt(core)} | ${target} | ${verdict} |`,
    )
  }
  console.log()
  for (const x of mine) console.log(`- ${x.label}: ${said1.get(x)}`)
  const jobs = mine.find((x) => x.id === 'jobs2')
  const pack = mine.find((x) => x.id === 'pack')
  if (jobs && pack)
    console.log(
      `- \`--jobs 2\` / one thread (pack), per round: wall ${fmt(
        perRound(jobs, pack, (a, b) => a.ms / b.ms),
        2,
      )}×, CPU ${fmt(
        perRound(jobs, pack, (a, b) => a.cpu / b.cpu),
        2,
      )}×, peak RSS ${fmt(
        perRound(jobs, pack, (a, b) => a.rss / b.rss),
        2,
      )}×`,
    )
  for (const k of ['pack', 'p20']) {
    const now = mine.find((x) => x.id === k)
    const base = mine.find((x) => x.id === `base ${k}`)
    if (now && base)
      console.log(
        `- A/B ${k}: this build / base, per round: CPU ${fmt(
          perRound(now, base, (a, b) => a.cpu / b.cpu),
          3,
        )}×, wall ${fmt(
          perRound(now, base, (a, b) => a.ms / b.ms),
          3,
        )}×`,
      )
  }
}
if (verdicts.length > 0) {
  const pass = verdicts.filter((v) => v.ok.every(Boolean)).length
  console.log(`\nTargets met by this build: ${pass} of ${verdicts.length} (both the ratio and the rate).`)
}
if (commands.some((x) => x.id === 'kubeconform' || x.id === 'kubectl-validate'))
  console.log(`
What the peers check: kubeconform validates each object against the JSON schema of its kind (generated from the
release's OpenAPI: structure, types, enums, required fields; -strict: unknown fields) and skips kinds with no schema;
kubectl-validate validates each object as the apiserver validates a custom resource: the release's OpenAPI v3
schema (structure, types, required, unknown fields), ObjectMeta (names, labels) and the CRDs' x-kubernetes-validations
(CEL). Neither decodes a built-in kind as the apiserver does, defaults it, runs its native validation
(pkg/apis/*/validation) nor any admission policy; kelp check does all of these (and here the pack or the 20 policies).`)
rmSync(dir, { recursive: true, force: true })
