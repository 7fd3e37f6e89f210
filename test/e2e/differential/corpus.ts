// The differential corpus: groups of cases that share their policy material. Each case is one object in a file
// of its own (documents are split out of their files with their text unchanged, so kubectl and kelp read the
// same bytes), optionally with a previous revision (an UPDATE). Generated files go to .cache/e2e/differential/.
//
// Groups:
// - crds: the real CRDs of ../shared/data/crds (read in place; the first file of each CRD name; skipped with a
//   message if the directory is absent), with two objects per CRD made from its schema: every required field
//   filled for each served version, and an empty spec for the storage version
// - pack: the bundled pack (instantiated for 1.37 as kelp check does) + policies/tests/namespaces.yaml, with the
//   objects of the pack's test suites (CREATE, and UPDATE where a suite gives an old object), examples/, the CLI's
//   manifest fixtures and the public manifests of test/e2e/differential/public/
// - builtins: built-in kinds alone (no pack, no policies): every object of the public manifests of
//   test/e2e/differential/public/ (real repositories, each named with its commit in its SOURCE.md) but the admission
//   inputs that would reach every case (reachesEveryCase), the one-rule-broken mutations of them (mutations.ts),
//   cases/yaml-go.yaml (YAML go-yaml reads otherwise),
//   cases/yaml-flow.yaml (flow-style manifests), cases/decode-order.yaml (two decoding errors in one object),
//   cases/metadata.yaml (bad metadata on kinds whose spec validation kelp has not ported), cases/kinds/*.yaml
//   (valid and one-rule-broken objects per family of kinds, written from the kinds' Go validation)
// - podsecurity: cases/podsecurity.yaml in a Namespace labelled for the PodSecurity admission plugin
// - prepared: cases/prepared/objects.yaml (CREATE, and UPDATE over objects.old.yaml) under a Warn policy printing
//   what it reads of the object the store prepared (server fields, generation, status)
// - pod-prepare: cases/pod-prepare/objects.yaml (CREATE, and UPDATE over objects.old.yaml), Pods the Pod strategy's
//   PrepareForCreate changes, under a Warn policy printing the merged selectors, pod-level resources and status
// - fixtures: the CLI's and the webhook e2e's CRD and policy fixtures with their objects (UPDATEs from old/)
// - updates: pairs of manifests (cases/updates/<case>.old.yaml, <case>.yaml) applied one after the other, kelp
//   check --old modelling kubectl apply's patch over the stored object (issue 26)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import yaml from 'js-yaml'
import { decodeStream } from '../../../src/kube/yaml/decode.js'
import { ROOT } from '../harness.js'
import { mutations } from './mutations.js'

export interface Case {
  id: string
  group: string
  /** where the object comes from (a repository path or a generator) */
  source: string
  file: string
  /** the previous revision (created for real before the dry run; kelp check --old) */
  old?: string
  kind: string
  apiVersion: string
  name: string
  namespace?: string
  /** a kind of a built-in API group that the material's CRDs do not define */
  builtIn: boolean
  /** a public manifest's object as its repository has it (not a mutation nor a generated object) */
  real?: boolean
  /** the mutation that made the case (mutations.ts) */
  mutation?: string
}

export interface Group {
  id: string
  /** files kubectl installs before the cases (CRDs first) */
  install: string[]
  /** kelp check's arguments for the material */
  kelpArgs: string[]
  /** the namespace the cases without one are applied to (-n) */
  namespace: string
  cases: Case[]
  notes: string[]
}

export const OUT = join(ROOT, '.cache/e2e/differential')
export const CRD_DIR = join(ROOT, '../shared/data/crds')

type Obj = Record<string, any>

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (/\.(ya?ml|json)$/.test(name)) out.push(p)
  }
  return out
}

/** The documents of a YAML stream with their own text (split at `---` lines), parsed; unparsable ones left out. */
function documents(text: string, unread?: { n: number }): { text: string; object: Obj }[] {
  const out: { text: string; object: Obj }[] = []
  for (const chunk of text.split(/^---[ \t]*(?:#.*)?$/m)) {
    if (chunk.trim() === '') continue
    let object: unknown
    try {
      object = yaml.load(chunk)
    } catch {
      // js-yaml's default schema refuses what it cannot load (an unknown tag, go-yaml's escape `\'`): the
      // case's identity from kelp's reading, which kubectl's is compared with; what neither reads is left out
      // (counted by addFiles)
      const read = [...decodeStream(chunk)]
      object = read.length === 1 && read[0]?.error === undefined ? read[0]?.value : undefined
      if (object === undefined) {
        if (unread !== undefined) unread.n++
        continue
      }
    }
    if (typeof object === 'object' && object !== null && !Array.isArray(object))
      out.push({ text: chunk, object: object as Obj })
  }
  return out
}

const isObject = (o: Obj) =>
  typeof o.apiVersion === 'string' && typeof o.kind === 'string' && typeof o.metadata?.name === 'string'

/** The API groups kube-apiserver 1.37 serves itself (kubectl api-versions of a bare apiserver). */
export const BUILTIN_GROUPS = new Set([
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

/**
 * The classes among each group's cases that kelp's Priority and RuntimeClass admission plugins read as the cluster's
 * (src/builtin/admission/inputs.ts): kelp check reads all of a group's case files in one run, while each case is a dry
 * run that creates nothing. Keys `<group>/<kind>/<name>` (known-differences.ts `class-in-inputs`).
 */
export const CLASSES_IN_INPUTS = new Set<string>()
const ADMISSION_CLASSES = new Set(['scheduling.k8s.io/PriorityClass', 'node.k8s.io/RuntimeClass'])

const apiGroup = (apiVersion: unknown) => (String(apiVersion).includes('/') ? String(apiVersion).split('/')[0]! : '')

/**
 * An admission input that would reach every case of the builtins group: an admission policy or binding (kelp check's
 * policy material), a class the cluster defaults to (a globalDefault PriorityClass, a StorageClass or IngressClass
 * annotated as the default) or a LimitRange without a namespace (it lands in the group's, where every case without
 * one is applied). kelp check reads all of a group's case files in one run, so the policies would be admitted
 * against and the plugins would give the class or the limits to every Pod, PersistentVolumeClaim or Ingress of the
 * group, while the dry runs never create them. Left out of the builtins group, which runs without policies and
 * whose cases/kinds/plugins.yaml tests the plugins without them.
 */
const reachesEveryCase = (o: Obj): boolean =>
  (apiGroup(o.apiVersion) === 'admissionregistration.k8s.io' && /AdmissionPolicy(Binding)?$/.test(String(o.kind))) ||
  (o.apiVersion === 'v1' && o.kind === 'LimitRange' && o.metadata?.namespace === undefined) ||
  (o.apiVersion === 'scheduling.k8s.io/v1' && o.kind === 'PriorityClass' && o.globalDefault === true) ||
  (((o.apiVersion === 'storage.k8s.io/v1' && o.kind === 'StorageClass') ||
    (o.apiVersion === 'networking.k8s.io/v1' && o.kind === 'IngressClass')) &&
    Object.entries(o.metadata?.annotations ?? {}).some(([k, v]) => k.endsWith('/is-default-class') && v === 'true'))

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120)

class Builder {
  readonly cases: Case[] = []
  readonly notes: string[] = []
  private n = 0
  constructor(
    readonly group: string,
    readonly crdKinds: Set<string>,
  ) {
    mkdirSync(join(OUT, group), { recursive: true })
  }

  add(source: string, text: string, object: Obj, old?: { text: string }, extra: Partial<Case> = {}) {
    const id = `${this.group}/${String(++this.n).padStart(4, '0')}-${slug(`${object.kind}-${object.metadata?.name}`)}`
    const file = join(OUT, `${id}.yaml`)
    writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`)
    let oldFile: string | undefined
    if (old) {
      oldFile = join(OUT, `${id}.old.yaml`)
      writeFileSync(oldFile, old.text)
    }
    const group = apiGroup(object.apiVersion)
    if (ADMISSION_CLASSES.has(`${group}/${object.kind}`))
      CLASSES_IN_INPUTS.add(`${this.group}/${object.kind}/${object.metadata?.name}`)
    this.cases.push({
      id,
      group: this.group,
      source,
      file,
      ...(oldFile ? { old: oldFile } : {}),
      kind: object.kind,
      apiVersion: object.apiVersion,
      name: String(object.metadata?.name),
      ...(typeof object.metadata?.namespace === 'string' ? { namespace: object.metadata.namespace } : {}),
      // a group the apiserver serves itself, of a kind no CRD of the material defines
      builtIn: !this.crdKinds.has(`${group}/${object.kind}`) && BUILTIN_GROUPS.has(group),
      ...extra,
    })
  }

  /** Every Kubernetes object of the files (one case each); non-objects counted in a note. */
  addFiles(label: string, files: string[], skip: (o: Obj) => boolean = () => false, extra: Partial<Case> = {}) {
    let skipped = 0
    const unread = { n: 0 }
    for (const f of files) {
      const docs = documents(readFileSync(f, 'utf8'), unread)
      for (const d of docs) {
        if (!isObject(d.object) || skip(d.object)) {
          skipped++
          continue
        }
        this.add(relative(ROOT, f), d.text, d.object, undefined, extra)
      }
      if (docs.length === 0) skipped++
    }
    if (skipped > 0) this.notes.push(`${label}: ${skipped} documents or files that are not Kubernetes objects left out`)
    if (unread.n > 0)
      this.notes.push(`${label}: ${unread.n} documents neither js-yaml nor kelp's reader reads left out`)
  }
}

// --- objects made from a CRD's schema ------------------------------------------------------------------

function sample(schema: Obj | undefined, depth: number): unknown {
  if (!schema || depth > 12) return undefined
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if (schema['x-kubernetes-int-or-string']) return 1
  const type = schema.type
  if (type === 'object' || (type === undefined && schema.properties)) {
    const out: Obj = {}
    const props: Obj = schema.properties ?? {}
    for (const key of schema.required ?? []) {
      const v = sample(props[key], depth + 1)
      out[key] = v === undefined ? {} : v
    }
    return out
  }
  if (type === 'array') {
    const n = Math.min(schema.minItems ?? 0, 2)
    const items: unknown[] = []
    for (let i = 0; i < n; i++) items.push(sample(schema.items, depth + 1) ?? {})
    return items
  }
  if (type === 'string') {
    switch (schema.format) {
      case 'date-time':
        return '2025-01-01T00:00:00Z'
      case 'date':
        return '2025-01-01'
      case 'byte':
        return 'YQ=='
      case 'duration':
        return '1s'
      case 'ipv4':
        return '10.0.0.1'
      case 'uri':
        return 'https://example.com'
    }
    let s = 'example'
    if (typeof schema.minLength === 'number' && s.length < schema.minLength) s = s.padEnd(schema.minLength, 'a')
    if (typeof schema.maxLength === 'number' && s.length > schema.maxLength) s = s.slice(0, schema.maxLength)
    return s
  }
  if (type === 'integer' || type === 'number') {
    let v = typeof schema.minimum === 'number' ? schema.minimum : 1
    if (schema.exclusiveMinimum === true || typeof schema.exclusiveMinimum === 'number') v += 1
    if (typeof schema.maximum === 'number' && v > schema.maximum) v = schema.maximum
    return v
  }
  if (type === 'boolean') return false
  return undefined
}

function crdCases(b: Builder, crds: { file: string; crd: Obj }[], namespace: string) {
  for (const { file, crd } of crds) {
    const { group, names, scope } = crd.spec
    const storage = crd.spec.versions.find((v: Obj) => v.storage)?.name
    for (const v of crd.spec.versions as Obj[]) {
      if (v.served === false) continue
      const schema = v.schema?.openAPIV3Schema ?? {}
      const base = (name: string): Obj => ({
        apiVersion: `${group}/${v.name}`,
        kind: names.kind,
        metadata: { name, ...(scope === 'Namespaced' ? { namespace } : {}) },
      })
      const filled = sample(schema, 0) as Obj
      const object = { ...(typeof filled === 'object' && filled ? filled : {}), ...base(`filled-${v.name}`) }
      delete object.status
      b.add(`${relative(ROOT, file)} (required fields of ${v.name})`, JSON.stringify(object, null, 1), object)
      if (v.name === storage && schema.properties?.spec) {
        const empty = { ...base('empty'), spec: {} }
        b.add(`${relative(ROOT, file)} (empty spec)`, JSON.stringify(empty, null, 1), empty)
      }
    }
  }
}

/** The CRDs of ../shared/data/crds: the first file that defines each name (name order of the paths). */
export function realCrds(): { files: string[]; crds: { file: string; crd: Obj }[]; duplicates: number } | undefined {
  if (!existsSync(CRD_DIR)) return undefined
  const seen = new Set<string>()
  const crds: { file: string; crd: Obj }[] = []
  const files = new Set<string>()
  let duplicates = 0
  for (const file of walk(CRD_DIR)) {
    if (!file.endsWith('.yaml')) continue
    for (const d of documents(readFileSync(file, 'utf8'))) {
      if (d.object.kind !== 'CustomResourceDefinition') continue
      const name = d.object.metadata?.name
      if (seen.has(name)) {
        duplicates++
        continue
      }
      seen.add(name)
      crds.push({ file, crd: d.object })
      files.add(file)
    }
  }
  // a file whose every CRD was seen before is not installed; one that mixes is (kelp and the cluster get the same)
  return { files: [...files], crds, duplicates }
}

// --- the pack's test suites -----------------------------------------------------------------------------

function suiteCases(b: Builder) {
  const dir = join(ROOT, 'policies/tests')
  let skipped = 0
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.kelp-test.yaml'))) {
    const suite = yaml.load(readFileSync(join(dir, f), 'utf8')) as Obj
    for (const t of suite.tests ?? []) {
      // a test that needs what kubectl cannot send: another user, a named resource, DELETE, a release other
      // than the cluster's
      if (
        !t.object ||
        t.userInfo ||
        t.operation ||
        t.resource ||
        t.oldResource ||
        (t.kubeVersions && !/1\.37|>=1\.3[0-7]/.test(t.kubeVersions))
      ) {
        skipped++
        continue
      }
      const source = `policies/tests/${f}: ${t.name}`
      b.add(source, yaml.dump(t.object), t.object, t.oldObject ? { text: yaml.dump(t.oldObject) } : undefined)
    }
  }
  if (skipped > 0)
    b.notes.push(`pack suites: ${skipped} tests left out (userInfo, resource references, DELETE or another release)`)
}

// --- the corpus -----------------------------------------------------------------------------------------

export function buildCorpus(): Group[] {
  rmSync(OUT, { recursive: true, force: true })
  mkdirSync(OUT, { recursive: true })
  const groups: Group[] = []

  // custom resources of the real CRDs
  const real = realCrds()
  if (real === undefined) console.log(`[differential] ${CRD_DIR} is absent: the real-CRD cases are skipped`)
  else {
    const kinds = new Set(real.crds.map(({ crd }) => `${crd.spec.group}/${crd.spec.names.kind}`))
    const b = new Builder('crds', kinds)
    crdCases(b, real.crds, 'diff-crds')
    b.notes.push(
      `real CRDs: ${real.crds.length} distinct names from ${real.files.length} files (${real.duplicates} later definitions of a name left out)`,
    )
    groups.push({
      id: 'crds',
      install: real.files,
      kelpArgs: ['--pack', 'off', ...real.files.flatMap((f) => ['-p', f])],
      namespace: 'diff-crds',
      cases: b.cases,
      notes: b.notes,
    })
  }

  // the bundled pack: its suites, the examples, manifests, public manifests
  {
    const b = new Builder('pack', new Set())
    suiteCases(b)
    b.addFiles('examples', walk(join(ROOT, 'examples')))
    b.addFiles(
      'CLI manifest fixtures',
      walk(join(ROOT, 'test/cli/fixtures/manifests')).filter((f) => !f.endsWith('broken.yaml')),
    )
    b.addFiles('public manifests', walk(join(ROOT, 'test/e2e/differential/public/kubernetes-examples')))
    groups.push({
      id: 'pack',
      install: [join(OUT, 'pack-material.json'), join(ROOT, 'policies/tests/namespaces.yaml')],
      kelpArgs: ['-p', join(ROOT, 'policies/tests/namespaces.yaml')],
      namespace: 'diff-pack',
      cases: b.cases,
      notes: b.notes,
    })
  }

  // built-in kinds alone: the public manifests' objects of the groups the apiserver serves, and their mutations
  {
    const b = new Builder('builtins', new Set())
    const publicFiles = walk(join(ROOT, 'test/e2e/differential/public'))
    const builtin = (o: Obj) => BUILTIN_GROUPS.has(apiGroup(o.apiVersion))
    const defaults = publicFiles.flatMap((f) =>
      documents(readFileSync(f, 'utf8'))
        .filter((d) => isObject(d.object) && reachesEveryCase(d.object))
        .map((d) => `${d.object.kind} ${d.object.metadata?.name} (${relative(ROOT, f)})`),
    )
    b.addFiles('public manifests of built-in kinds', publicFiles, (o) => !builtin(o) || reachesEveryCase(o), {
      real: true,
    })
    if (defaults.length > 0)
      b.notes.push(`admission inputs that would reach every case, left out: ${defaults.join(', ')}`)
    // YAML go-yaml reads otherwise than js-yaml (the fixes of src/kube/yaml/refusals.ts), flow-style manifests
    // (one-line flow collections, read by src/kube/yaml/simple.ts), and which of two decoding errors is answered
    b.addFiles(
      'YAML cases',
      ['yaml-go.yaml', 'yaml-flow.yaml', 'decode-order.yaml'].map((f) => join(ROOT, 'test/e2e/differential/cases', f)),
    )
    // bad metadata on the kinds whose spec validation kelp has not ported (the generic registry's ObjectMeta rules)
    b.addFiles('metadata cases', [join(ROOT, 'test/e2e/differential/cases/metadata.yaml')])
    // one file per family of kinds: valid objects and one-rule-broken ones written from the kinds' Go validation
    const kindFiles = join(ROOT, 'test/e2e/differential/cases/kinds')
    if (existsSync(kindFiles)) b.addFiles('kind cases', walk(kindFiles))
    const bases = publicFiles.flatMap((f) =>
      documents(readFileSync(f, 'utf8'))
        .filter((d) => isObject(d.object) && builtin(d.object) && !reachesEveryCase(d.object))
        .map((d) => ({ source: relative(ROOT, f), object: d.object })),
    )
    const m = mutations(bases)
    for (const c of m.cases)
      b.add(c.source, `${JSON.stringify(c.object, null, 2)}\n`, c.object, undefined, { mutation: c.mutation })
    b.notes.push(
      `public manifests: ${publicFiles.length} files; ${m.cases.length} one-rule-broken mutations (${m.ids} mutations)`,
    )
    groups.push({
      id: 'builtins',
      install: [],
      kelpArgs: ['--pack', 'off'],
      namespace: 'diff-builtins',
      cases: b.cases,
      notes: b.notes,
    })
  }

  // fixtures with their own material
  const fixture = (id: string, material: string[], objects: string[], olds: string[] = []) => {
    const kinds = new Set<string>()
    for (const f of material)
      for (const d of documents(readFileSync(f, 'utf8')))
        if (d.object.kind === 'CustomResourceDefinition')
          kinds.add(`${d.object.spec.group}/${d.object.spec.names.kind}`)
    const b = new Builder(id, kinds)
    const oldByKey = new Map<string, string>()
    for (const f of olds)
      for (const d of documents(readFileSync(f, 'utf8')))
        if (isObject(d.object)) oldByKey.set(`${d.object.kind}/${d.object.metadata.name}`, d.text)
    for (const f of objects)
      for (const d of documents(readFileSync(f, 'utf8'))) {
        if (!isObject(d.object)) continue
        const old = oldByKey.get(`${d.object.kind}/${d.object.metadata.name}`)
        b.add(relative(ROOT, f), d.text, d.object, old ? { text: old } : undefined)
        if (old) b.add(`${relative(ROOT, f)} (as a CREATE)`, d.text, d.object)
      }
    groups.push({
      id,
      install: material,
      kelpArgs: ['--pack', 'off', ...material.flatMap((f) => ['-p', f])],
      namespace: `diff-${id}`,
      cases: b.cases,
      notes: b.notes,
    })
  }
  const F = join(ROOT, 'test/cli/fixtures')
  const W = join(ROOT, 'test/e2e/webhook/manifests')
  fixture('cli-crd', [join(F, 'crd/widgets.yaml')], [join(F, 'crd/widget.yaml')], [join(F, 'old/widget.yaml')])
  // the PodSecurity admission plugin: pods and pod controllers in a Namespace labelled enforce=baseline,
  // warn=restricted, audit=restricted (the Namespace is the group's material)
  const C = join(ROOT, 'test/e2e/differential/cases')
  fixture('podsecurity', [join(C, 'podsecurity-namespace.yaml')], [join(C, 'podsecurity.yaml')])
  // what a policy reads of the object the store prepared (a Warn policy printing the server's fields and status)
  const P = join(C, 'prepared')
  fixture('prepared', [join(P, 'policy.yaml')], [join(P, 'objects.yaml')], [join(P, 'objects.old.yaml')])
  // the Pod strategy's PrepareForCreate / PrepareForUpdate (matchLabelKeys merged, pod-level resources defaulted)
  const PP = join(C, 'pod-prepare')
  fixture('pod-prepare', [join(PP, 'policy.yaml')], [join(PP, 'objects.yaml')], [join(PP, 'objects.old.yaml')])
  // warnings no header can carry (a control character in a Warn policy's message): dropped, as the recorder drops them
  const WH = join(C, 'warn-headers')
  fixture('warn-headers', [join(WH, 'policy.yaml')], [join(WH, 'objects.yaml')])
  fixture(
    'cli-policies',
    [join(F, 'policies/replicas.yaml')],
    walk(join(F, 'manifests')).filter((f) => !f.endsWith('broken.yaml')),
  )
  fixture(
    'webhook-widgets',
    [join(W, 'widget-crd.yaml'), join(W, 'widget-policy.yaml')],
    [join(W, 'widgets.yaml'), join(ROOT, 'test/e2e/differential/cases/widgets.yaml')],
    [join(ROOT, 'test/e2e/differential/cases/widgets.old.yaml')],
  )
  // UPDATEs as kubectl apply makes them (issue 26): each <case>.old.yaml applied for real, then <case>.yaml
  // applied over it (an unchanged Job and headless Service, an image changed, a container, an env var and a
  // ConfigMap key removed, a Service port added, a custom resource field removed, a ValidatingAdmissionPolicy
  // on UPDATE comparing object with oldObject, a manifest whose uid the update patches in); each case in a
  // namespace of its own
  {
    const U = join(ROOT, 'test/e2e/differential/cases/updates')
    // the CRD before the previous revisions are made, the policy after them (runner.ts install)
    const material = [join(U, 'crd.yaml'), join(U, 'policy.yaml')]
    const kinds = new Set<string>()
    for (const d of documents(readFileSync(material[0]!, 'utf8')))
      if (d.object.kind === 'CustomResourceDefinition') kinds.add(`${d.object.spec.group}/${d.object.spec.names.kind}`)
    const b = new Builder('updates', kinds)
    for (const f of readdirSync(U).sort()) {
      if (!f.endsWith('.old.yaml')) continue // the pairs: <case>.old.yaml and <case>.yaml
      const text = readFileSync(join(U, f.replace(/\.old\.yaml$/, '.yaml')), 'utf8')
      const [d] = documents(text)
      if (d !== undefined)
        b.add(`test/e2e/differential/cases/updates/${f}`, text, d.object, { text: readFileSync(join(U, f), 'utf8') })
    }
    groups.push({
      id: 'updates',
      install: material,
      kelpArgs: ['--pack', 'off', ...material.flatMap((f) => ['-p', f])],
      namespace: 'diff-updates',
      cases: b.cases,
      notes: b.notes,
    })
  }
  for (const g of groups) mkdirSync(dirname(join(OUT, g.id)), { recursive: true })
  return groups
}
