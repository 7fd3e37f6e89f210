// npm run bench (CLI part): what a user feels at the command line, with the built CLI (dist/); every figure a whole
// process timed by GNU time (bench/timing.js: wall, CPU user + system, peak RSS). Issue 29's targets beside:
//  - cold start: `kelp check one.yaml` (one Deployment, the bundled pack) against bare `node -e 0`, several
//    alternating runs, medians of the runs and of the pairs' differences (target: at most bare node + 150 ms);
//  - large inputs: 1,000,000 small documents in one file (KELP_BENCH_LARGE: another count), wall time and peak RSS
//    against the input's size (target: peak RSS ≤ 2× the input), read from the file and piped;
//  - `--base HEAD` on 5,000 files in a git repository against the plain run (target: within 2x), in the repository
//    just committed to and in a clone of it.
// The cold-CLI comparisons on 10,000 manifests with peers are bench/cold.js. Prints Markdown.
import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, timed as time } from './timing.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'dist/cli/kelp.cjs')
const dir = mkdtempSync(join(tmpdir(), 'kelp-bench-cli-'))
const runs = Number(process.env.KELP_BENCH_RUNS ?? 9)
const large = Number(process.env.KELP_BENCH_LARGE ?? 1_000_000)
const verdict = (ok) => (ok ? 'PASS' : 'MISS')

/** Wall time (ms), CPU time (user + system, ms) and peak RSS (MiB) of `node args`. */
const timed = (args, cwd = dir) => time(process.execPath, args, { cwd })

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
  `| ${name} | ${median(xs.map((x) => x.ms)).toFixed(0)} | ${median(xs.map((x) => x.cpu)).toFixed(0)} | ${median(xs.map((x) => x.rss)).toFixed(0)} |`
console.log('### kelp check, cold start (one Deployment, bundled pack)\n')
console.log(`| ${runs} alternating runs, medians | wall ms | CPU ms | peak RSS MiB |`)
console.log('|---|--:|--:|--:|')
console.log(row('node -e 0', bare))
console.log(row('kelp check one.yaml', cold))
const diff = (k) => median(cold.map((x, i) => x[k] - bare[i][k]))
console.log(
  `| difference (median of the pairs; target ≤ 150 ms wall) | ${diff('ms').toFixed(0)} ${verdict(diff('ms') <= 150)} | ${diff('cpu').toFixed(0)} | ${diff('rss').toFixed(0)} |\n`,
)

// 1,000,000 small documents, one file
const big = join(dir, 'million.yaml')
const fd = openSync(big, 'w')
let buf = ''
for (let i = 0; i < large; i++) {
  buf += `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}}\ndata: {k: v}\n---\n`
  if (buf.length > 1 << 20) {
    writeSync(fd, buf)
    buf = ''
  }
}
writeSync(fd, buf)
closeSync(fd)
const size = statSync(big).size / (1 << 20)
const m = timed([cli, 'check', big, '--pack', 'off'])
console.log(`### kelp check, ${large.toLocaleString('en')} documents in one file (${size.toFixed(0)} MiB)\n`)
console.log(
  `wall ${(m.ms / 1000).toFixed(1)} s, CPU ${(m.cpu / 1000).toFixed(1)} s, peak RSS ${m.rss.toFixed(0)} MiB: ${(m.rss / size).toFixed(2)}× the input (target ≤ 2×: ${verdict(m.rss <= 2 * size)})\n`,
)
// the same piped (`cat … | kelp check -`: standard input, spooled to a temporary file as it comes; GNU time's peak
// RSS is the largest process's, kelp's)
const piped = time('sh', ['-c', `cat '${big}' | '${process.execPath}' '${cli}' check - --pack off`], { cwd: dir })
console.log(
  `piped to \`kelp check -\`: wall ${(piped.ms / 1000).toFixed(1)} s, CPU ${(piped.cpu / 1000).toFixed(1)} s (cat's included), peak RSS ${piped.rss.toFixed(0)} MiB: ${(piped.rss / size).toFixed(2)}× the input\n`,
)

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
// Two checkouts: the repository just committed to (its objects loose: git reads 5,000 files), and a clone of it
// (its objects in one pack, as a CI checkout of a pull request has them; --no-local: a local clone would link
// the loose objects).
const clone = join(dir, 'clone')
execFileSync('git', ['clone', '-q', '--no-local', repo, clone])
console.log('### kelp check --base HEAD, 5,000 files\n')
for (const [label, cwd] of [
  ['just committed (loose objects)', repo],
  ['a clone (packed objects)', clone],
]) {
  const plain = []
  const based = []
  for (let i = 0; i < Math.min(runs, 5); i++) {
    plain.push(timed([cli, 'check', '.'], cwd).ms)
    based.push(timed([cli, 'check', '.', '--base', 'HEAD'], cwd).ms)
  }
  const ratio = median(based) / median(plain)
  console.log(
    `- ${label}: plain ${median(plain).toFixed(0)} ms, --base HEAD ${median(based).toFixed(0)} ms: ${ratio.toFixed(2)}x (target ≤ 2x: ${verdict(ratio <= 2)})`,
  )
}
console.log('')
// the large input alone is 72 MiB
rmSync(dir, { recursive: true, force: true })
