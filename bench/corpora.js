// The corpora of bench/cold.js, written into a directory: each is a directory of YAML files (what `kelp check
// <dir>`, kubeconform and kubectl-validate read alike) and the material a run passes beside it.
//  - block: Deployments of bench/fixtures.js (two containers, labels, resources), block style, 50 a file;
//  - flow: the same objects as flow-style YAML (js-yaml flowLevel 0: one `{…}` mapping a document);
//  - containers: Deployments with several containers (3-4 containers and 1-2 init containers, probes, env,
//    volumes and mounts), each passing the 20 policies of bench/fixtures.js;
//  - public: the real manifests of test/e2e/differential/public/ (Services, ConfigMaps, RBAC, workloads, custom
//    resources), copied whole until the copies hold about N objects; copy k > 0 renames each object (metadata.name
//    + `-k`, in the text, so each copy is its own object and the text keeps its authors' style). The CRDs of the
//    corpus and those of ../shared/data/crds defining its custom resources go to crds.yaml (-p), not the inputs.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import jsyaml from 'js-yaml'
import { deployment, policyMaterial } from './fixtures.js'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const PUBLIC = join(ROOT, 'test/e2e/differential/public')
export const SHARED_CRDS = join(ROOT, '../shared/data/crds')
/** Documents a file in the generated corpora. */
export const PER_FILE = 50

/** Every .yaml / .yml / .json file under `dir`, sorted (kubectl apply -R's and kelp check's choice). */
export function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (/\.(ya?ml|json)$/.test(name)) out.push(p)
  }
  return out
}

/** A YAML stream's documents with their own text, cut at `---` lines (as the differential's corpus.ts cuts). */
export function splitDocuments(text) {
  // a piece of comments and blank lines only is no document
  return text.split(/^---[ \t]*(?:#.*)?$/m).filter((d) => d.split('\n').some((l) => !/^\s*(#.*)?$/.test(l)))
}

/** The 20 policies with their bindings and Namespace (bench/fixtures.js), as one YAML file. */
export function writePolicies(file) {
  writeFileSync(
    file,
    policyMaterial()
      .map((o) => jsyaml.dump(o))
      .join('---\n'),
  )
  return file
}

/** `objects` (a function of the index) dumped `PER_FILE` a file into `dir`. */
function writeGenerated(dir, n, object, dump) {
  mkdirSync(dir, { recursive: true })
  let bytes = 0
  for (let f = 0; f * PER_FILE < n; f++) {
    const docs = []
    for (let i = f * PER_FILE; i < Math.min(n, (f + 1) * PER_FILE); i++) docs.push(dump(object(i)))
    const text = docs.join('---\n')
    writeFileSync(join(dir, `${String(f).padStart(4, '0')}.yaml`), text)
    bytes += Buffer.byteLength(text)
  }
  return { dir, objects: n, files: Math.ceil(n / PER_FILE), bytes }
}

/** `n` Deployments of bench/fixtures.js, block style. */
export const blockCorpus = (dir, n) => writeGenerated(dir, n, deployment, (o) => jsyaml.dump(o))

/** The same `n` Deployments, flow style: each document one `{…}` mapping. */
export const flowCorpus = (dir, n) =>
  writeGenerated(dir, n, deployment, (o) => jsyaml.dump(o, { flowLevel: 0, lineWidth: -1 }))

/** A Deployment with 3-4 containers and 1-2 init containers, probes, env and volumes, passing the 20 policies. */
export function multiContainerDeployment(i) {
  const probe = (path, port) => ({
    httpGet: { path, port },
    initialDelaySeconds: 5,
    periodSeconds: 10,
    timeoutSeconds: 2,
    failureThreshold: 3,
  })
  const limits = (cpu, memory) => ({ limits: { cpu, memory }, requests: { cpu: '50m', memory: '32Mi' } })
  const containers = [
    {
      name: 'api',
      image: `registry.example.com/shop/api:2.${i}.0`,
      args: ['--listen=:8080', '--metrics=:9090', `--shard=${i % 8}`],
      ports: [
        { name: 'http', containerPort: 8080 },
        { name: 'metrics', containerPort: 9090 },
      ],
      env: [
        { name: 'LOG_LEVEL', value: 'info' },
        { name: 'SHARD', value: String(i % 8) },
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      ],
      envFrom: [{ configMapRef: { name: 'api-config' } }],
      resources: limits('1', '1Gi'),
      readinessProbe: probe('/ready', 8080),
      livenessProbe: probe('/healthz', 8080),
      startupProbe: { ...probe('/healthz', 8080), failureThreshold: 30 },
      volumeMounts: [
        { name: 'config', mountPath: '/etc/api', readOnly: true },
        { name: 'cache', mountPath: '/var/cache/api' },
      ],
      securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
    },
    {
      name: 'web',
      image: 'registry.example.com/shop/proxy:1.27',
      ports: [{ name: 'proxy', containerPort: 8443 }],
      env: [{ name: 'UPSTREAM', value: 'http://localhost:8080' }],
      resources: limits('200m', '128Mi'),
      readinessProbe: { tcpSocket: { port: 8443 }, periodSeconds: 5 },
      volumeMounts: [{ name: 'tls', mountPath: '/etc/tls', readOnly: true }],
    },
    {
      name: 'log-shipper',
      image: 'registry.example.com/shop/shipper:0.9',
      resources: limits('100m', '64Mi'),
      livenessProbe: { exec: { command: ['/bin/shipper', 'health'] }, periodSeconds: 30 },
      volumeMounts: [{ name: 'cache', mountPath: '/var/log/api', readOnly: true }],
    },
  ]
  if (i % 2 === 1)
    containers.push({
      name: 'metrics',
      image: 'registry.example.com/shop/exporter:3.1',
      ports: [{ containerPort: 9100 }],
      resources: limits('100m', '64Mi'),
    })
  const initContainers = [
    {
      name: 'migrate',
      image: `registry.example.com/shop/api:2.${i}.0`,
      command: ['/bin/api', 'migrate'],
      envFrom: [{ secretRef: { name: 'db' } }],
      resources: limits('500m', '256Mi'),
    },
  ]
  if (i % 3 === 0)
    initContainers.push({
      name: 'wait-db',
      image: 'registry.example.com/tools/wait:1.0',
      args: ['db:5432'],
      resources: limits('50m', '32Mi'),
    })
  const labels = { app: 'api', team: 'shop', 'app.kubernetes.io/name': 'api', 'app.kubernetes.io/instance': `api-${i}` }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `api-${i}`, namespace: 'shop', labels, annotations: { 'example.com/owner': 'team-shop' } },
    spec: {
      replicas: 2 + (i % 5),
      selector: { matchLabels: { app: 'api', 'app.kubernetes.io/instance': `api-${i}` } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
      template: {
        metadata: { labels, annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' } },
        spec: {
          serviceAccountName: 'api',
          terminationGracePeriodSeconds: 45,
          securityContext: { fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
          initContainers,
          containers,
          volumes: [
            { name: 'config', configMap: { name: 'api-config' } },
            { name: 'tls', secret: { secretName: `api-tls-${i % 4}` } },
            { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
          ],
        },
      },
    },
  }
}

/** `n` Deployments with several containers, block style. */
export const containersCorpus = (dir, n) => writeGenerated(dir, n, multiContainerDeployment, (o) => jsyaml.dump(o))

/** The API groups kube-apiserver 1.37 serves itself (test/e2e/differential/corpus.ts BUILTIN_GROUPS). */
const BUILTIN_GROUPS = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
])
const groupOf = (apiVersion) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '')

const isCrd = (o) => o?.kind === 'CustomResourceDefinition' && String(o.apiVersion).startsWith('apiextensions.k8s.io/')

/**
 * A document's text with its object's metadata.name given `suffix`, edited in the text: the name of the first
 * `name:` key indented under a block `metadata:`, or inside a flow `metadata: {…}`; unchanged (undefined) when
 * neither is found or the result would not be a DNS label-sized name.
 */
export function renamed(text, name, suffix) {
  if (typeof name !== 'string' || name.length + suffix.length > 63 || !/[a-z0-9]$/.test(name)) return undefined
  const lines = text.split('\n')
  const meta = lines.findIndex((l) => /^metadata:/.test(l))
  if (meta < 0) return undefined
  const quoted = (v) => v === name || v === `"${name}"` || v === `'${name}'`
  const flow = /^(metadata:\s*\{.*?\bname:\s*)("[^"]*"|'[^']*'|[^,}\s]+)/.exec(lines[meta])
  if (flow) {
    if (!quoted(flow[2])) return undefined
    lines[meta] = lines[meta].replace(flow[0], `${flow[1]}${name}${suffix}`)
    return lines.join('\n')
  }
  let indent
  for (let i = meta + 1; i < lines.length; i++) {
    const l = lines[i]
    if (/^\s*(#.*)?$/.test(l)) continue
    const m = /^(\s+)name:\s*(.*?)\s*$/.exec(l)
    const own = /^(\s*)/.exec(l)[1].length
    if (own === 0) return undefined // metadata ended
    indent ??= own
    if (own < indent) return undefined
    if (m && own === indent) {
      if (!quoted(m[2])) return undefined
      lines[i] = `${m[1]}name: ${name}${suffix}`
      return lines.join('\n')
    }
  }
  return undefined
}

/** The CRDs of ../shared/data/crds defining `kinds` (`<group>/<kind>`), the first definition of each. */
function sharedCrds(kinds) {
  const byKind = new Map()
  if (!existsSync(SHARED_CRDS) || kinds.size === 0) return byKind
  const names = [...kinds].map((k) => k.split('/')[1])
  for (const f of walk(SHARED_CRDS)) {
    const text = readFileSync(f, 'utf8')
    // 31 MB of CRDs: parse only the files that can hold one of the kinds
    if (!names.some((k) => text.includes(`kind: ${k}\n`))) continue
    let docs
    try {
      docs = jsyaml.loadAll(text)
    } catch {
      continue
    }
    for (const d of docs)
      if (isCrd(d) && !byKind.has(`${d.spec?.group}/${d.spec?.names?.kind}`))
        byKind.set(`${d.spec.group}/${d.spec.names.kind}`, d)
  }
  return byKind
}

/**
 * The public manifests replicated to about `n` objects (at least one copy) in `dir`/copy-<k>/<repository path>,
 * and their CRDs in `crdFile`. Files that js-yaml cannot read, holding a document that is not an object with
 * apiVersion and kind, or templates (`{{`), are left out (counted in `skippedFiles`): every tool reads the same
 * objects, and each is a manifest as `kubectl apply` would send it.
 */
const ADMISSION_POLICY = /^(?:Validating|Mutating)AdmissionPolicy(?:Binding)?$/

export function publicCorpus(dir, n, crdFile) {
  const files = []
  const crds = new Map() // name -> CRD text
  const customKinds = new Set()
  let skippedFiles = 0
  for (const f of walk(PUBLIC)) {
    const docs = []
    const source = readFileSync(f, 'utf8')
    // a template (`{{`) is an input error to kelp (render it first): not a manifest as applied
    if (source.includes('{{')) {
      skippedFiles++
      continue
    }
    try {
      for (const text of splitDocuments(source)) {
        const object = jsyaml.load(text)
        if (object === null || object === undefined) continue
        if (typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string')
          throw new Error('not an object')
        docs.push({ text, object })
      }
    } catch {
      skippedFiles++
      continue
    }
    const kept = []
    for (const d of docs) {
      if (isCrd(d.object)) crds.set(d.object.metadata?.name, jsyaml.dump(d.object))
      // admission policies and bindings (the Kubernetes documentation's examples, also in a List) would be kelp's
      // policy material and switch the bundled pack off (--pack auto): left out, as the differential's builtins
      // group does
      else if (ADMISSION_POLICY.test(d.object.kind) || d.object.items?.some?.((i) => ADMISSION_POLICY.test(i?.kind)))
        continue
      else {
        kept.push(d)
        const group = groupOf(d.object.apiVersion)
        if (!BUILTIN_GROUPS.has(group) && group !== 'extensions') customKinds.add(`${group}/${d.object.kind}`)
      }
    }
    if (kept.length > 0) files.push({ path: relative(PUBLIC, f), docs: kept })
  }
  // the CRDs defining the corpus' custom resources, from ../shared/data/crds when the corpus has none
  const defined = new Set(
    [...crds.values()].map((t) => jsyaml.load(t)).map((c) => `${c.spec?.group}/${c.spec?.names?.kind}`),
  )
  const shared = sharedCrds(new Set([...customKinds].filter((k) => !defined.has(k))))
  for (const k of [...customKinds].sort())
    if (shared.has(k)) crds.set(shared.get(k).metadata.name, jsyaml.dump(shared.get(k)))
  writeFileSync(crdFile, [...crds.values()].join('---\n'))

  const perCopy = files.reduce((s, f) => s + f.docs.length, 0)
  const copies = Math.max(1, Math.round(n / perCopy))
  let bytes = 0
  let renames = 0
  for (let k = 0; k < copies; k++) {
    for (const f of files) {
      const texts = f.docs.map((d) => {
        if (k === 0) return d.text
        const t = renamed(d.text, d.object.metadata?.name, `-${k}`)
        if (t !== undefined) renames++
        return t ?? d.text
      })
      const file = join(dir, `copy-${String(k).padStart(2, '0')}`, f.path)
      mkdirSync(dirname(file), { recursive: true })
      const text = texts.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n')
      writeFileSync(file, text)
      bytes += Buffer.byteLength(text)
    }
  }
  return {
    dir,
    objects: perCopy * copies,
    files: files.length * copies,
    bytes,
    copies,
    perCopy,
    renamed: renames,
    skippedFiles,
    crds: crds.size,
    crdFile,
    customKinds: [...customKinds].sort(),
  }
}
