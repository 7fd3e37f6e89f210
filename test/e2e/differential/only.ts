// The differential's CREATE cases of some kinds against an apiserver that is already running (`npm run cluster`'s,
// or the e2e run's), for working on those kinds without the whole run: each case is a `kubectl apply
// --dry-run=server` (nothing is written: no material, no namespace, no sentinel), kelp check runs on the same files
// as the harness's user, and the answers are compared and summarized as the full run does. Only the groups
// without material of their own (builtins): a group's policies and CRDs would have to be installed first.
//   npm run build && node test/e2e/run-ts.js test/e2e/differential/only.ts <kubeconfig> APIService,CertificateSigningRequest
// A third argument keeps the cases whose source path contains it (a directory of public/, a case file).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Cluster, type ClusterInfo, KUBE_VERSION, ROOT } from '../harness.js'
import { buildCorpus } from './corpus.js'
import { compare, identityArgs, kelpAnswer, kelpCheck, kubectlAnswer, type Outcome } from './runner.js'
import { summarize } from './summary.js'

const [kubeconfig, kinds, source] = process.argv.slice(2)
if (kubeconfig === undefined || kinds === undefined) {
  console.error('usage: only.ts <kubeconfig> <Kind>[,<Kind>…] [source path part]')
  process.exit(2)
}
const wanted = new Set(kinds.split(','))
// the harness's kubeconfig: server, CA and the admin's certificate and key by path
const text = readFileSync(kubeconfig, 'utf8')
const field = (name: string) => new RegExp(`${name}: (\\S+)`).exec(text)?.[1] ?? ''
const dir = dirname(field('client-certificate'))
const info: ClusterInfo = {
  version: KUBE_VERSION,
  binDir: join(ROOT, '.cache/kube', KUBE_VERSION),
  dir,
  server: field('server'),
  kubeconfig,
  caFile: field('certificate-authority'),
  caKeyFile: join(dir, 'ca.key'),
  adminCertFile: field('client-certificate'),
  adminKeyFile: field('client-key'),
  etcdLog: '',
  apiserverLog: '',
  pids: { etcd: 0, apiserver: 0 },
}
const cluster = Cluster.attach(info)
const as = await identityArgs(cluster)
const outcomes: Outcome[] = []
for (const g of buildCorpus().filter((g) => g.install.length === 0)) {
  const cases = g.cases.filter(
    (c) => wanted.has(c.kind) && c.old === undefined && (source === undefined || c.source.includes(source)),
  )
  if (cases.length === 0) continue
  console.log(`[only] ${g.id}: ${cases.length} cases`)
  const kelp = await kelpCheck(
    [...as, ...g.kelpArgs],
    cases.map((c) => c.file),
    g.namespace,
    undefined,
    true,
  )
  for (const c of cases) {
    const ns = c.namespace ? [] : ['-n', g.namespace]
    const k = kubectlAnswer(await cluster.kubectl([...ns, 'apply', '--dry-run=server', '-o', 'json', '-f', c.file]))
    const e = kelpAnswer(kelp.blocks.get(c.file)?.[0], kelp.outcomes.get(c.file)?.[0])
    const stored = kelp.storedByFile.get(c.file)
    const answer = stored ? { ...e, stored } : e
    outcomes.push({ case: c, kubectl: k, kelp: answer, differences: compare(c, k, answer) })
  }
}
console.log(summarize(outcomes).text.split('\nevery known difference:')[0])
