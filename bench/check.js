// npm run bench (fourth part): `kelp check` on 5,000 Deployments (3 MB of YAML, one file) with the
// bundled pack, against parsing the same YAML only (js-yaml, the parser kelp uses), and against the
// position-keeping `yaml` parser kelp used before; with one and two threads. Prints Markdown.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jsyaml from 'js-yaml'
import { parseAllDocuments } from 'yaml'
import { check, checkParallel } from '../dist/check/index.js'

const N = 5000
const docs = []
for (let i = 0; i < N; i++) {
  docs.push(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  namespace: ns-${i % 20}
  labels: {app.kubernetes.io/name: app-${i}}
spec:
  replicas: ${i % 7}
  selector: {matchLabels: {app: a${i}}}
  template:
    metadata: {labels: {app: a${i}}}
    spec:
      securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: c
        image: registry.example.com/app:${i % 3 === 0 ? 'latest' : `1.${i}`}
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 200m, memory: 128Mi}}
`)
}
const text = docs.join('---\n')
const dir = mkdtempSync(join(tmpdir(), 'kelp-bench-'))
const file = join(dir, 'all.yaml')
writeFileSync(file, text)

const median = async (fn, runs = 5) => {
  const t = []
  for (let i = 0; i < runs; i++) {
    const s = performance.now()
    await fn()
    t.push(performance.now() - s)
  }
  return t.sort((a, b) => a - b)[Math.floor(runs / 2)]
}
const yamlOnly = await median(() => jsyaml.loadAll(text))
const oldParser = await median(() => parseAllDocuments(text).map((d) => d.toJS()), 3)
const one = await median(() => {
  const r = check({ paths: [file], kubeVersion: '1.36' })
  if (r.objects.length !== N) throw new Error(`${r.objects.length} objects`)
})
const two = await median(() => checkParallel({ paths: [file], kubeVersion: '1.36' }, 2))
const ms = (x) => `${x.toFixed(0)} ms`
console.log(`| ${N} Deployments, ${(text.length / 1e6).toFixed(1)} MB, bundled pack | time | × YAML only |`)
console.log('|---|---|---|')
console.log(`| YAML only (js-yaml loadAll) | ${ms(yamlOnly)} | 1.0× |`)
console.log(
  `| YAML only with positions (\`yaml\` parseAllDocuments + toJS) | ${ms(oldParser)} | ${(oldParser / yamlOnly).toFixed(1)}× |`,
)
console.log(`| kelp check, 1 thread | ${ms(one)} | ${(one / yamlOnly).toFixed(1)}× |`)
console.log(`| kelp check, 2 threads (--jobs 2) | ${ms(two)} | ${(two / yamlOnly).toFixed(1)}× |`)
