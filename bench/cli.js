// npm run bench (CLI part): what a user feels at the command line, with the built CLI (dist/).
//  - cold start: `kelp check one.yaml` (one Deployment, the bundled pack) against bare `node -e 0`,
//    several alternating runs, medians (target: at most bare node + 200 ms);
//  - large inputs: 1,000,000 small documents in one file, wall time and peak RSS (bounded memory);
//  - `--base HEAD` on 5,000 files in a git repository against the plain run (target: within 2x).
// Prints Markdown.
import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'dist/cli/kelp.cjs')
const dir = mkdtempSync(join(tmpdir(), 'kelp-bench-cli-'))
const runs = Number(process.env.KELP_BENCH_RUNS ?? 9)

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/**
 * Wall time (ms), CPU time (user + system, ms) and peak RSS (MiB) of one process, from GNU time when
 * present, else wall time only. CPU time is what a busy shared machine disturbs least.
 */
function timed(args, cwd = dir) {
  const start = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, ...args], { cwd, encoding: 'utf8' })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.error) {
    const t0 = process.hrtime.bigint()
    spawnSync(process.execPath, args, { cwd })
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: Number.NaN, rss: Number.NaN }
  }
  const [kb, user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number)
  return { ms, cpu: ((user ?? 0) + (sys ?? 0)) * 1000, rss: (kb ?? 0) / 1024 }
}

const one = join(dir, 'one.yaml')
writeFileSync(
  one,
  `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`,
)

const bare = []
const cold = []
for (let i = 0; i < runs; i++) {
  bare.push(timed(['-e', '0']))
  cold.push(timed([cli, 'check', one]))
}
const row = (name, xs) =>
  `| ${name} | ${median(xs.map((x) => x.ms)).toFixed(0)} | ${median(xs.map((x) => x.cpu)).toFixed(0)} |`
console.log('### kelp check, cold start (one Deployment, bundled pack)\n')
console.log('| | median wall ms | median CPU ms |')
console.log('|---|---|---|')
console.log(row('node -e 0', bare))
console.log(row('kelp check one.yaml', cold))
const diff = (k) => median(cold.map((x) => x[k])) - median(bare.map((x) => x[k]))
console.log(`| difference (target ≤ 200 ms) | ${diff('ms').toFixed(0)} | ${diff('cpu').toFixed(0)} |\n`)

// 1,000,000 small documents, one file
const big = join(dir, 'million.yaml')
const fd = openSync(big, 'w')
let buf = ''
for (let i = 0; i < 1_000_000; i++) {
  buf += `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}}\ndata: {k: v}\n---\n`
  if (buf.length > 1 << 20) {
    writeSync(fd, buf)
    buf = ''
  }
}
writeSync(fd, buf)
closeSync(fd)
const m = timed([cli, 'check', big, '--pack', 'off'])
console.log('### kelp check, 1,000,000 documents in one file (75 MB)\n')
console.log(`wall ${(m.ms / 1000).toFixed(1)} s, peak RSS ${m.rss.toFixed(0)} MiB\n`)

// --base HEAD on 5,000 files
const repo = join(dir, 'repo')
mkdirSync(repo)
for (let i = 0; i < 5000; i++)
  writeFileSync(join(repo, `f${i}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm${i}}\ndata: {k: v}\n`)
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], { cwd: repo })
git('init', '-q')
git('add', '.')
git('commit', '-qm', 'base')
const plain = []
const based = []
for (let i = 0; i < Math.min(runs, 5); i++) {
  plain.push(timed([cli, 'check', '.'], repo).ms)
  based.push(timed([cli, 'check', '.', '--base', 'HEAD'], repo).ms)
}
console.log('### kelp check --base HEAD, 5,000 files\n')
console.log(
  `plain ${median(plain).toFixed(0)} ms, --base HEAD ${median(based).toFixed(0)} ms: ${(median(based) / median(plain)).toFixed(2)}x (target ≤ 2x)\n`,
)
