// What the webhook adds to a write, end to end: a real kube-apiserver (test/e2e/harness.ts, binaries from
// test/e2e/kube/build.sh) takes N Deployment creates in a namespace with no webhook and N in a namespace whose
// writes go to `kelp serve` (the bundled pack, registered by a ValidatingWebhookConfiguration as the e2e suite
// does), alternating one write of each, from a kubectl-free client (node:https, the admin certificate, one
// keep-alive connection). Reported: the latency of each (median, p90, p99) and the difference.
//
//   npm run build && node bench/webhook-e2e.js          # KELP_BENCH_WRITES (default 400)
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { importTs } from '../test/e2e/run-ts.js'

const { Cluster, ROOT } = await importTs('test/e2e/harness.ts')
const { startKelpServe, registerWebhook, eventually } = await importTs('test/e2e/webhook/kelp-serve.ts')

const N = Number(process.env.KELP_BENCH_WRITES ?? 400)
const cluster = await Cluster.start({ log: (l) => console.error(`[cluster] ${l}`) })
let kelp
try {
  const plain = await cluster.namespace('bench-plain')
  const hooked = await cluster.namespace('bench-webhook')
  const dir = join(cluster.dir, 'bench-policies')
  mkdirSync(dir, { recursive: true })
  for (const f of readdirSync(join(ROOT, 'policies')).filter((f) => f.endsWith('.yaml')))
    copyFileSync(join(ROOT, 'policies', f), join(dir, f))
  kelp = await startKelpServe(cluster, 'bench-kelp', [dir], ['--log-level', 'warn'])
  await registerWebhook(cluster, {
    configName: 'bench-kelp',
    namespace: hooked,
    url: kelp.url,
    caBundle: cluster.caBundle(),
  })
  // a Deployment the whole pack admits without a warning
  const deployment = (ns, name) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/name': 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web', 'app.kubernetes.io/name': 'web' } },
        spec: {
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'app',
              image: 'registry.example/web:1.4.2',
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            },
          ],
        },
      },
    },
  })
  const write = async (ns, name) => {
    const t = performance.now()
    const r = await cluster.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, name))
    const ms = performance.now() - t
    if (r.status !== 201) throw new Error(`write ${ns}/${name}: ${r.status} ${r.text}`)
    return ms
  }
  // the webhook in force: a denied probe
  await eventually(async () => {
    const r = await cluster.request('POST', `/api/v1/namespaces/${hooked}/pods?dryRun=All`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probe' },
      spec: { containers: [{ name: 'c', image: 'busybox:latest' }] },
    })
    return r.status >= 400 && r.text.includes('validate.kelp.dev')
  })
  const before = await kelp.metrics()
  // warm-up: 50 of each, not counted
  for (let i = 0; i < 50; i++) {
    await write(plain, `warm-${i}`)
    await write(hooked, `warm-${i}`)
  }
  const a = []
  const b = []
  for (let i = 0; i < N; i++) {
    a.push(await write(plain, `w-${i}`))
    b.push(await write(hooked, `w-${i}`))
  }
  const after = await kelp.metrics()
  const reviews =
    after.sum('kelp_admission_reviews_total', { allowed: 'true' }) -
    before.sum('kelp_admission_reviews_total', { allowed: 'true' })
  const q = (xs, p) => {
    const s = [...xs].sort((x, y) => x - y)
    return s[Math.min(s.length - 1, Math.floor(p * s.length))]
  }
  const stat = (xs) => ({ median: q(xs, 0.5), p90: q(xs, 0.9), p99: q(xs, 0.99) })
  const sa = stat(a)
  const sb = stat(b)
  const f = (x) => x.toFixed(2)
  console.log(
    JSON.stringify(
      {
        writes: N,
        reviewsAnswered: reviews,
        cpu: cpus()[0]?.model,
        withoutWebhookMs: sa,
        withWebhookMs: sb,
        addedMs: { median: sb.median - sa.median, p90: sb.p90 - sa.p90, p99: sb.p99 - sa.p99 },
      },
      null,
      1,
    ),
  )
  console.log(
    `| ${N} Deployment creates, one at a time | ${f(sa.median)} / ${f(sa.p90)} / ${f(sa.p99)} ms | ` +
      `${f(sb.median)} / ${f(sb.p90)} / ${f(sb.p99)} ms | +${f(sb.median - sa.median)} / +${f(sb.p90 - sa.p90)} / +${f(sb.p99 - sa.p99)} ms |`,
  )
  if (reviews !== N + 50) throw new Error(`kelp answered ${reviews} reviews for ${N + 50} writes`)
} finally {
  await kelp?.stop()
  await cluster.stop()
}
