// kelp check next to its peers on the differential corpus (test/e2e/differential/corpus.ts): kubeconform and
// kubectl-validate, built from the Go module proxy by test/e2e/peers/build.sh into .cache/peers/. Each tool runs
// once per material group over the group's CREATE cases; reported: wall time, what each says (valid / invalid /
// skipped or not validated), and, when the differential e2e test has run (its .cache/e2e/differential/outcomes.json),
// how often each agrees with what kube-apiserver 1.37 answered to kubectl apply --dry-run=server of the same file.
//
// Schemas, offline: bench/peer-schemas.js (shared with bench/cold.js).
//
//   bash test/e2e/peers/build.sh && npm run build && node bench/peers.js
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { importTs } from '../test/e2e/run-ts.js'
import { builtinSchemas, crdSchemas, kubeconformArgs, kubectlValidateArgs, peerTool } from './peer-schemas.js'

const { ROOT, KUBE_VERSION } = await importTs('test/e2e/harness.ts')
const { buildCorpus, OUT } = await importTs('test/e2e/differential/corpus.ts')

const PEERS = join(ROOT, '.cache/peers')
const kubeconform = peerTool(PEERS, 'kubeconform')
const kubectlValidate = peerTool(PEERS, 'kubectl-validate')

const run = (cmd, args) =>
  new Promise((resolve) => {
    const t = performance.now()
    execFile(cmd, args, { maxBuffer: 1 << 30, encoding: 'utf8' }, (e, stdout, stderr) =>
      resolve({ code: e ? (e.code ?? 1) : 0, stdout, stderr, ms: performance.now() - t }),
    )
  })

// --- schemas --------------------------------------------------------------------------------------------
const SCHEMAS = join(PEERS, `schemas-${KUBE_VERSION}`)
const schemas = builtinSchemas(SCHEMAS, KUBE_VERSION)

// --- the corpus -------------------------------------------------------------------------------------------
const groups = buildCorpus()
const crdFilesOf = (g) =>
  g.install.filter((f) => existsSync(f) && /kind:\s*CustomResourceDefinition/.test(readFileSync(f, 'utf8')))
const rows = []
const verdicts = new Map() // case file -> { tool: 'valid' | 'invalid' | 'skipped' }
for (const g of groups) {
  const cases = g.cases.filter((c) => !c.old)
  const files = cases.map((c) => c.file)
  // a group of UPDATEs only (updates) has no CREATE to compare: with no path, each tool would wait on stdin
  if (files.length === 0) continue
  const crdFiles = crdFilesOf(g)
  // CRD schemas for kubeconform; a directory of links for kubectl-validate
  const crdLinks = join(SCHEMAS, `crds-${g.id}`)
  crdSchemas(schemas, crdFiles, crdLinks)
  const record = (file, name, v) => {
    const r = verdicts.get(file) ?? {}
    r[name] = v
    verdicts.set(file, r)
  }
  // kelp check
  const kelp = await run(process.execPath, [
    join(ROOT, 'dist/cli/kelp.cjs'),
    'check',
    ...g.kelpArgs,
    '-n',
    g.namespace,
    '--fail-on',
    'none',
    '-o',
    'json',
    ...files,
  ])
  for (const o of JSON.parse(kelp.stdout).objects)
    record(
      o.source.file,
      'kelp',
      o.outcome === 'allowed' || o.outcome === 'warned' ? 'valid' : o.outcome === 'denied' ? 'invalid' : 'skipped',
    )
  // kubeconform
  const kc = await run(kubeconform.bin, kubeconformArgs(schemas, files, ['-output', 'json', '-n', '2']))
  for (const r of JSON.parse(kc.stdout).resources ?? [])
    record(
      r.filename,
      'kubeconform',
      r.status === 'statusValid' ? 'valid' : r.status === 'statusSkipped' ? 'skipped' : 'invalid',
    )
  // kubeconform lists valid resources only with -verbose: what it did not list was valid
  for (const f of files) if (!verdicts.get(f)?.kubeconform) record(f, 'kubeconform', 'valid')
  // kubectl-validate
  const kv = await run(kubectlValidate.bin, kubectlValidateArgs(schemas, files, crdLinks, ['-o', 'json']))
  let kvOut = {}
  try {
    kvOut = JSON.parse(kv.stdout)
  } catch {
    console.error(`kubectl-validate (${g.id}) did not answer JSON: ${kv.stderr.slice(0, 500)}`)
  }
  for (const [file, results] of Object.entries(kvOut)) {
    const list = Array.isArray(results) ? results : [results]
    const bad = list.some((r) => r?.status && r.status !== 'Success')
    const missing = list.some((r) => /failed to retrieve validator|no matches|not found/i.test(r?.message ?? ''))
    record(file, 'kubectl-validate', missing ? 'skipped' : bad ? 'invalid' : 'valid')
  }
  rows.push({ group: g.id, cases: files.length, kelp: kelp.ms, kubeconform: kc.ms, kubectlValidate: kv.ms })
}

// --- against the apiserver's answers ------------------------------------------------------------------------
const outcomesFile = join(OUT, '..', 'differential-outcomes.json')
const cluster = existsSync(outcomesFile)
  ? new Map(JSON.parse(readFileSync(outcomesFile, 'utf8')).map((o) => [basename(o.file), o]))
  : undefined
const tools = ['kelp', 'kubeconform', 'kubectl-validate']
const count = (name, pred) => [...verdicts.values()].filter((v) => pred(v[name])).length
console.log(
  `corpus: ${verdicts.size} objects in ${groups.length} groups; kubeconform ${kubeconform.version}, kubectl-validate ${kubectlValidate.version}`,
)
console.log('| group | cases | kelp check | kubeconform | kubectl-validate |')
console.log('| --- | --- | --- | --- | --- |')
for (const r of rows)
  console.log(
    `| ${r.group} | ${r.cases} | ${(r.kelp / 1000).toFixed(2)} s | ${(r.kubeconform / 1000).toFixed(2)} s | ${(r.kubectlValidate / 1000).toFixed(2)} s |`,
  )
const total = (k) => rows.reduce((a, r) => a + r[k], 0) / 1000
console.log(
  `| all | ${verdicts.size} | ${total('kelp').toFixed(2)} s | ${total('kubeconform').toFixed(2)} s | ${total('kubectlValidate').toFixed(2)} s |`,
)
console.log()
console.log(
  '| tool | valid | invalid | skipped / not validated | same verdict as kube-apiserver (custom resources / built-in kinds) |',
)
console.log('| --- | --- | --- | --- | --- |')
for (const t of tools) {
  let agreement = 'run the differential e2e test first'
  if (cluster) {
    const by = (builtIn) => {
      let same = 0
      let n = 0
      for (const [file, v] of verdicts) {
        const o = cluster.get(basename(file))
        if (!o || o.builtIn !== builtIn || o.kubectlAccepted === undefined) continue
        n++
        if ((v[t] === 'valid') === o.kubectlAccepted && v[t] !== 'skipped') same++
      }
      return `${same}/${n} (${((100 * same) / Math.max(n, 1)).toFixed(1)}%)`
    }
    agreement = `${by(false)} / ${by(true)}`
  }
  console.log(
    `| ${t} | ${count(t, (x) => x === 'valid')} | ${count(t, (x) => x === 'invalid')} | ${count(t, (x) => x === 'skipped' || x === undefined)} | ${agreement} |`,
  )
}
