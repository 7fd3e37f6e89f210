// kelp audit on a live cluster, as a user runs it: a real kube-apiserver (test/e2e/harness.ts, binaries from
// test/e2e/kube/build.sh) holding N Deployments (of the public manifests' ordinary shape: two containers, labels,
// resources, a security context; a tenth of them breaking the bundled pack's rules), audited with the bundled
// pack's policies as candidate material by the built CLI, a whole process (node dist/cli/kelp.cjs audit -p
// policies/): wall time, CPU time, peak RSS (GNU time), objects per second. For each N the audit is
// run three times and the medians reported. The cluster's LISTs are paginated (500 a page) and the client's rate
// limit raised (--qps 1000) so that the figure is kelp's, not client-go's default 5 requests a second.
//
//   npm run build && node bench/audit.js                 # KELP_BENCH_AUDIT="10000,100000"
//   KELP_BENCH_BASE=/other/kelp KELP_BENCH_RUNS=7 …   # also that checkout's built CLI, runs alternating
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { importTs } from '../test/e2e/run-ts.js'

const { Cluster, ROOT } = await importTs('test/e2e/harness.ts')
const SIZES = (process.env.KELP_BENCH_AUDIT ?? '10000,100000').split(',').map(Number)
const RUNS = Number(process.env.KELP_BENCH_RUNS ?? 3)
/** Another checkout's built dist/, audited in the same rounds (runs alternating; A/B CPU ratio of the medians). */
const BASE = process.env.KELP_BENCH_BASE

const deployment = (name, bad) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { 'app.kubernetes.io/name': 'web', 'app.kubernetes.io/part-of': 'bench' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name, 'app.kubernetes.io/name': 'web' } },
      spec: {
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: ['app', 'sidecar'].map((c) => ({
          name: c,
          image: `registry.example/${c}:1.4.2`,
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
          securityContext: { allowPrivilegeEscalation: bad, capabilities: { drop: ['ALL'] } },
        })),
      },
    },
  },
})

/** Creates objects with `concurrency` requests in flight. */
async function createMany(cluster, ns, from, to, concurrency = 32) {
  let next = from
  const worker = async () => {
    while (next < to) {
      const i = next++
      const r = await cluster.request(
        'POST',
        `/apis/apps/v1/namespaces/${ns}/deployments`,
        deployment(`d${i}`, i % 10 === 0),
      )
      if (r.status !== 201) throw new Error(`create d${i}: ${r.status} ${r.text}`)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

function audit(kubeconfig, root = ROOT) {
  const args = [join(root, 'dist/cli/kelp.cjs'), 'audit', '--kubeconfig', kubeconfig, '-p', join(ROOT, 'policies')]
  const start = process.hrtime.bigint()
  // text output: only the results with findings are kept (what bounds memory), the summary line counts all
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', '%M %U %S', process.execPath, ...args, '--qps', '1000', '--burst', '1000', '--fail-on', 'none'],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    },
  )
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  const [rss, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number)
  if (r.status !== 0) throw new Error(`kelp audit: ${r.status} ${r.stderr}`)
  const m = /^(\d+) objects?: (\d+) allowed, (\d+) denied/m.exec(r.stdout)
  if (m === null) throw new Error(`kelp audit: no summary line in ${r.stdout.slice(-300)}`)
  const summary = { objects: Number(m[1]), denied: Number(m[3]) }
  return { wall, cpu: (user + sys) * 1000, rssMiB: rss / 1024, summary }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const cluster = await Cluster.start({ log: (l) => console.error(`[cluster] ${l}`) })
try {
  const ns = await cluster.namespace('bench-audit')
  let have = 0
  console.log(
    `kelp audit, bundled pack as candidate policies; ${cpus()[0]?.model ?? ''} × ${cpus().length}; ${new Date().toISOString()}`,
  )
  console.log('objects   wall (ms)   CPU (ms)   objects/s (wall)   peak RSS (MiB)   denied')
  for (const n of SIZES) {
    const t = Date.now()
    await createMany(cluster, ns, have, n)
    have = n
    console.error(`[bench] ${n} Deployments stored (${Date.now() - t} ms)`)
    const runs = []
    const based = []
    for (let i = 0; i < RUNS; i++) {
      runs.push(audit(cluster.kubeconfig))
      if (BASE !== undefined) based.push(audit(cluster.kubeconfig, BASE))
    }
    const row = (rs, label) => {
      const wall = median(rs.map((r) => r.wall))
      const cpu = median(rs.map((r) => r.cpu))
      const rss = median(rs.map((r) => r.rssMiB))
      const s = rs[0].summary
      console.log(
        `${String(s.objects).padStart(7)}   ${wall.toFixed(0).padStart(9)}   ${cpu.toFixed(0).padStart(8)}   ${((s.objects / wall) * 1000).toFixed(0).padStart(16)}   ${rss.toFixed(0).padStart(14)}   ${s.denied}${label}`,
      )
      return cpu
    }
    const cpu = row(runs, '')
    if (BASE !== undefined) {
      const baseCpu = row(based, '   (base)')
      console.log(`        this build / base, CPU medians: ${(cpu / baseCpu).toFixed(3)}×`)
    }
  }
} finally {
  await cluster.stop()
}
