// The differential runner: per group, installs the material in the real apiserver, applies each case with
// `kubectl apply --dry-run=server` (after creating the previous revision for real, for an UPDATE), runs
// `kelp check` on the same files, and compares the verdict (accepted / rejected), the error text kubectl prints
// with kelp's text output, and the Warning: lines.
//
// Normalizations (what kubectl adds around the apiserver's answer and kelp's text output leaves out):
// `error when creating "<file>": `, the `error when applying patch: … error when patching "<file>": ` preamble of an
// UPDATE, and `resource mapping not found for name: … from "<file>": ` / `ensure CRDs are installed first` around
// a no-match; kelp's one line per cause of an Invalid joined as kubectl prints the Status; the causes of a
// multi-cause Invalid sorted on both sides (sortCauses: the apiserver's order is Go map order). Compared: the
// verdict; the error kubectl prints against any of kelp's denials (the apiserver returns the first Deny of the
// policies in its informer's order, which changes between runs); the Warning: lines as a multiset (same reason);
// for a built-in object both accept (CREATE or UPDATE), the object as stored: what `kubectl apply --dry-run=server -o json`
// prints against `kelp check -o yaml`, field for field (storedDiff: the fields the server sets itself and
// kubectl's last-applied annotation left out, generated uids and allocated IPs and ports compared as present).
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import yaml from 'js-yaml'
import { bundledPack } from '../../../src/check/pack.js'
import type { Cluster, ExecResult } from '../harness.js'
import { ROOT } from '../harness.js'
import { type Case, type Group, OUT } from './corpus.js'

export interface Answer {
  accepted: boolean
  /** the error, normalized; '' when accepted */
  error: string
  /** kelp: every denial, normalized (the apiserver answers one of them) */
  errors?: string[]
  warnings: string[]
  raw: string
  /** the object as stored (kubectl apply --dry-run=server -o json; kelp check -o yaml), when accepted */
  stored?: Record<string, unknown>
}

export interface Outcome {
  case: Case
  kubectl?: Answer
  kelp?: Answer
  /** why the case could not be compared (its previous revision was refused, …) */
  skipped?: string
  differences: Difference[]
}

export interface Difference {
  case: Case
  aspect: 'verdict' | 'error' | 'warnings' | 'stored'
  kubectl: string
  kelp: string
  /** everything kelp printed for the object (its Info: notes among it) */
  kelpRaw?: string
  /** kubectl's whole answer (its verdict and error beside a warnings difference) */
  kubectlAnswer?: { accepted: boolean; error: string }
  /** aspect stored: the field that differs */
  field?: FieldDiff
}

const SENTINEL = 'kelp-differential-sentinel'

function run(cmd: string, args: string[], input?: string, timeoutMs = 300_000): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      args,
      { timeout: timeoutMs, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' },
      (e, stdout, stderr) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr }),
    )
    child.stdin!.end(input ?? '')
  })
}

async function pool<T>(items: T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  let i = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) await f(items[i++]!)
    }),
  )
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// --- what kubectl printed ---------------------------------------------------------------------------------

export function normalizeKubectl(text: string): string {
  return text
    .replace(/error when applying patch:[\s\S]*?error when patching "[^"]*": /g, '')
    .replace(/error when creating "[^"]*": /g, '')
    .replace(/error when retrieving current configuration of:[\s\S]*?from server for: "[^"]*": /g, '')
    .replace(/resource mapping not found for name: "[^"]*" namespace: "[^"]*" from "[^"]*": /g, '')
    .trimEnd()
    .replace(/\nensure CRDs are installed first$/, '')
}

/**
 * The causes of a multi-cause Invalid in name order: kube-openapi's object validator walks the schema's properties
 * in Go map order (validate/object_validator.go `for pName, pSchema := range o.Properties`), so the apiserver's
 * order changes from run to run; the `<nil>` note it appends stays last.
 */
export function sortCauses(error: string): string {
  const m = /^(The \S+ "[^"]*" is invalid: )\n((?:\* [^\n]*(?:\n|$))+)$/.exec(error)
  if (!m) return error
  const causes = m[2]!.trimEnd().split('\n')
  const note = causes.filter((c) => c.startsWith('* <nil>: '))
  const rest = causes.filter((c) => !c.startsWith('* <nil>: ')).sort()
  return `${m[1]}\n${[...rest, ...note].join('\n')}`
}

export function kubectlAnswer(r: ExecResult): Answer {
  const lines = r.stderr.split('\n')
  const warnings = lines.filter((l) => l.startsWith('Warning: ')).map((l) => l.slice(9))
  const error = normalizeKubectl(lines.filter((l) => !l.startsWith('Warning: ')).join('\n'))
  let stored: Record<string, unknown> | undefined
  if (r.code === 0 && r.stdout.trimStart().startsWith('{')) {
    try {
      stored = JSON.parse(r.stdout)
    } catch {
      stored = undefined
    }
  }
  return {
    accepted: r.code === 0,
    error: r.code === 0 ? '' : sortCauses(error),
    warnings,
    raw: `${r.stdout}${r.stderr}`,
    ...(stored ? { stored } : {}),
  }
}

// --- the object as stored ---------------------------------------------------------------------------------

type Json = unknown

/** What neither side can be asked to agree on: the fields the server sets itself, kubectl's own annotation. */
function normalizeStored(o: Record<string, any>): Record<string, any> {
  // the ServiceAccount plugin's token volume has a random 5-character suffix (kelp: 00000)
  const c = JSON.parse(JSON.stringify(o).replace(/"kube-api-access-[a-z0-9]{5}"/g, '"kube-api-access-<random>"'))
  const m = c.metadata ?? {}
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields']) delete m[k]
  if (m.annotations) {
    delete m.annotations['kubectl.kubernetes.io/last-applied-configuration']
    if (Object.keys(m.annotations).length === 0) delete m.annotations
  }
  return c
}

/**
 * A value generated by the server from randomness or its clock: a uid, an allocated IP or port, a PersistentVolume's
 * phase transition time and a condition's transition time (a local APIService's Available condition, stamped by its
 * PrepareForCreate) (compared as present).
 */
const GENERATED =
  /^(spec\.(selector\.matchLabels|template\.metadata\.labels)\.(batch\.kubernetes\.io\/)?controller-uid|metadata\.labels\.(batch\.kubernetes\.io\/)?controller-uid|spec\.clusterIPs?(\.\d+)?|spec\.ports\.\d+\.nodePort|spec\.healthCheckNodePort|status\.lastPhaseTransitionTime|status\.conditions\.\d+\.lastTransitionTime)$/

export interface FieldDiff {
  path: string
  kubectl: string
  kelp: string
}

/** The fields where the two stored objects differ (values as JSON, `(absent)`), in path order. */
export function storedDiff(kubectl: Record<string, any>, kelp: Record<string, any>): FieldDiff[] {
  const out: FieldDiff[] = []
  const show = (v: Json) => (v === undefined ? '(absent)' : JSON.stringify(v))
  const walk = (a: Json, b: Json, path: string) => {
    if (GENERATED.test(path) && a !== undefined && b !== undefined) return
    if (
      typeof a === 'object' &&
      a !== null &&
      typeof b === 'object' &&
      b !== null &&
      Array.isArray(a) === Array.isArray(b)
    ) {
      const keys = Array.isArray(a)
        ? Array.from({ length: Math.max(a.length, (b as Json[]).length) }, (_, i) => String(i))
        : [...new Set([...Object.keys(a), ...Object.keys(b as object)])].sort()
      for (const k of keys) walk((a as any)[k], (b as any)[k], path === '' ? k : `${path}.${k}`)
      return
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, kubectl: show(a), kelp: show(b) })
  }
  walk(normalizeStored(kubectl), normalizeStored(kelp), '')
  return out
}

// --- what kelp check printed ----------------------------------------------------------------------------

/** kelp check's text report, per file: the lines of each object's block (header left out). */
export function parseKelpText(text: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>()
  let current: string[] | undefined
  for (const line of text.split('\n')) {
    const header = /^(\/\S+?):(\d+):(\d+) /.exec(line)
    if (header) {
      current = []
      const list = out.get(header[1]!) ?? []
      list.push(current)
      out.set(header[1]!, list)
    } else if (line.startsWith('  ') && current) {
      // a finding placed at its field's line starts with that position (`file:line:col: `): kubectl prints none
      current.push(line.slice(2).replace(/^\S+?:\d+:\d+: /, ''))
    } else if (line.trim() === '') current = undefined
  }
  return out
}

const ERROR_START = /^(Error from server|The |error: |Error: )/

export function kelpAnswer(blockLines: string[] | undefined, outcome: string | undefined): Answer {
  const lines = blockLines ?? []
  const warnings = lines.filter((l) => l.startsWith('Warning: ')).map((l) => l.slice(9))
  // kelp's `Audit: key=value` lines are the audit annotations the apiserver writes to its audit log: kubectl never
  // prints them, so they are no part of the answer compared here
  // kelp's notes (`Info: …`: what it did not validate) are neither errors nor warnings; one stands for the error
  // of an object kelp did not accept and said nothing else about
  const notes = lines.filter((l) => l.startsWith('Info: '))
  // an error is a line that starts like one, with the lines that continue it (`* field: …` of an Invalid)
  const errors: string[] = []
  for (const l of lines) {
    if (l.startsWith('Warning: ') || l.startsWith('Info: ') || l.startsWith('Audit: ')) continue
    if (ERROR_START.test(l) || errors.length === 0) errors.push(l)
    else errors[errors.length - 1] += `\n${l}`
  }
  // unchanged: kubectl apply sent nothing and printed `<kind>/<name> unchanged`, exit 0
  const accepted = outcome === 'allowed' || outcome === 'warned' || outcome === 'unchanged'
  // kelp prints one line per cause of an Invalid (`The K "n" is invalid: <cause>`); kubectl prints the Status
  // once: the cause after the prefix when there is one, else the prefix and a `* <cause>` line each
  const joined: string[] = []
  for (const e of errors.length > 0 ? errors : notes.slice(0, 1)) {
    const invalid = /^(The \S+ "[^"]*" is invalid: )/.exec(e)
    if (!invalid) {
      joined.push(e)
      continue
    }
    if (joined.some((j) => j.startsWith(invalid[1]!))) continue
    const causes = errors.filter((x) => x.startsWith(invalid[1]!)).map((x) => x.slice(invalid[1]!.length))
    joined.push(causes.length === 1 ? e : `${invalid[1]}\n${causes.map((c) => `* ${c}`).join('\n')}`)
  }
  // kelp's note on why the target does not serve a version (src/engine/lifecycle.ts) follows kubectl's words
  const all = joined.map((e) =>
    sortCauses(normalizeKubectl(e)).replace(
      / \((?:removed in v[^)]*|introduced in v\d+\.\d+|not served by default: --runtime-config=[^)]*)\)$/,
      '',
    ),
  )
  // kelp lists every denial; the apiserver answers one: the first of the policies in its informer's order
  return {
    accepted,
    error: accepted ? '' : (all[0] ?? ''),
    errors: accepted ? [] : all,
    warnings,
    raw: lines.join('\n'),
  }
}

export async function kelpCheck(args: string[], files: string[], namespace: string, old?: string, withStored = false) {
  const base = [join(ROOT, 'dist/cli/kelp.cjs'), 'check', ...args, '-n', namespace, ...(old ? ['--old', old] : [])]
  const [text, json, stored] = await Promise.all([
    run(process.execPath, [...base, '--fail-on', 'none', '-o', 'text', ...files]),
    run(process.execPath, [...base, '--fail-on', 'none', '-o', 'json', ...files]),
    withStored ? run(process.execPath, [...base, '--fail-on', 'none', '-o', 'yaml', ...files]) : undefined,
  ])
  const blocks = parseKelpText(text.stdout)
  let report: any
  try {
    report = JSON.parse(json.stdout)
  } catch {
    throw new Error(`kelp check -o json did not answer JSON (exit ${json.code}): ${json.stderr.slice(0, 2000)}`)
  }
  const outcomes = new Map<string, string[]>()
  for (const o of report.objects) {
    const list = outcomes.get(o.source.file) ?? []
    list.push(o.outcome)
    outcomes.set(o.source.file, list)
  }
  // -o yaml prints the stored object of each accepted object in the report's order: matched to the JSON
  // report's objects by order, kind and name
  const storedByFile = new Map<string, Record<string, unknown>>()
  if (stored) {
    const docs = (yaml.loadAll(stored.stdout) as any[]).filter((d) => d && typeof d === 'object')
    let k = 0
    for (const o of report.objects) {
      if (o.outcome !== 'allowed' && o.outcome !== 'warned' && o.outcome !== 'unchanged') continue
      const d = docs[k]
      if (d && d.kind === o.kind && d.metadata?.name === o.name) {
        if (!storedByFile.has(o.source.file)) storedByFile.set(o.source.file, d)
        k++
      }
    }
  }
  return { blocks, outcomes, storedByFile, stderr: text.stderr, code: text.code }
}

/**
 * The harness's own user as the apiserver sees it (a SelfSubjectReview: its client certificate's name and groups,
 * and the credential id the authenticator adds), as `kelp check --as …` arguments: kelp then sends what kubectl
 * sends (a CertificateSigningRequest stores its requester).
 */
export async function identityArgs(cluster: Pick<Cluster, 'request'>): Promise<string[]> {
  const r = await cluster.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
  })
  const u = r.body?.status?.userInfo
  if (r.status !== 201 || typeof u?.username !== 'string')
    throw new Error(`SelfSubjectReview: ${r.status} ${r.text.slice(0, 400)}`)
  const extra = Object.entries((u.extra ?? {}) as Record<string, string[]>)
  return [
    '--as',
    u.username,
    ...(typeof u.uid === 'string' && u.uid !== '' ? ['--as-uid', u.uid] : []),
    ...((u.groups ?? []) as string[]).flatMap((g) => ['--as-group', g]),
    ...extra.flatMap(([k, vs]) => vs.flatMap((v) => ['--as-user-extra', `${k}=${v}`])),
  ]
}

// --- material -------------------------------------------------------------------------------------------

function sentinel(): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: SENTINEL },
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
            ],
          },
          validations: [{ expression: `object.metadata.name != '${SENTINEL}'`, message: 'sentinel' }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: SENTINEL },
        spec: { policyName: SENTINEL, validationActions: ['Deny'] },
      },
    ],
  })
}

/** Waits until the policies created before the sentinel are in force (or, with gone, removed). */
async function waitSentinel(cluster: Cluster, inForce: boolean) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const r = await cluster.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: SENTINEL },
    })
    if ((r.status === 201) !== inForce) {
      // the sentinel's informer event came after every earlier one; give the other informers a moment too
      await sleep(1_000)
      return
    }
    await sleep(250)
  }
  throw new Error(`the differential sentinel policy not ${inForce ? 'in force' : 'removed'} after 60 s`)
}

async function kubectlOk(cluster: Cluster, args: string[], input?: string): Promise<void> {
  const r = await cluster.kubectl(args, { input, timeoutMs: 600_000 })
  const bad = r.stderr.split('\n').filter((l) => l.trim() && !/AlreadyExists|already exists|^Warning: /.test(l))
  if (r.code !== 0 && bad.length > 0)
    throw new Error(`kubectl ${args.slice(0, 3).join(' ')}: ${bad.slice(0, 10).join('\n')}`)
}

const hasPolicies = (file: string) =>
  /"?kind"?\s*:\s*"?(Validating|Mutating)AdmissionPolicy/.test(readFileSync(file, 'utf8'))

/** Creates the material: CRDs and Namespaces first (phase 'types'), the admission policies after ('policies'). */
async function install(cluster: Cluster, group: Group, phase: 'types' | 'policies'): Promise<void> {
  if (group.id === 'pack' && phase === 'types') {
    const pack = bundledPack('1.37')
    writeFileSync(
      join(OUT, 'pack-material.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pack.objects.map((o) => o.object) }),
    )
  }
  if (phase === 'types') {
    // the material's Namespaces (their labels select bindings) first, created or updated: the cases' namespaces
    // are made right after, and an earlier group may have made one without its labels
    const namespaces: any[] = []
    for (const f of group.install)
      for (const d of yaml.loadAll(readFileSync(f, 'utf8')) as any[])
        for (const o of d?.kind === 'List' ? d.items : [d])
          if (o?.apiVersion === 'v1' && o?.kind === 'Namespace') namespaces.push(o)
    if (namespaces.length > 0)
      await kubectlOk(
        cluster,
        ['apply', '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'List', items: namespaces }),
      )
  }
  const files = group.install.filter((f) => hasPolicies(f) === (phase === 'policies'))
  // create, not apply (no last-applied annotation: the largest CRDs are over its 256 KiB), in chunks
  for (let i = 0; i < files.length; i += 40) {
    const chunk = files.slice(i, i + 40)
    await kubectlOk(cluster, ['create', ...chunk.flatMap((f) => ['-f', f])])
  }
  if (phase === 'types') {
    if (files.some((f) => /"?kind"?\s*:\s*"?CustomResourceDefinition/.test(readFileSync(f, 'utf8'))))
      await kubectlOk(cluster, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=180s'])
    return
  }
  await kubectlOk(cluster, ['create', '-f', '-'], sentinel())
  await waitSentinel(cluster, true)
}

async function uninstall(cluster: Cluster, group: Group): Promise<void> {
  // the policies and bindings go (CRDs stay: deleting 400 of them costs more than it tells)
  const docs: any[] = []
  for (const f of group.install) {
    const text = readFileSync(f, 'utf8')
    for (const d of yaml.loadAll(text) as any[]) {
      if (!d) continue
      for (const o of d.kind === 'List' ? d.items : [d])
        if (/ValidatingAdmissionPolicy|MutatingAdmissionPolicy/.test(o.kind)) docs.push(o)
    }
  }
  if (docs.length > 0)
    await kubectlOk(
      cluster,
      ['delete', '--ignore-not-found', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: docs }),
    )
  await kubectlOk(cluster, ['delete', '--ignore-not-found', '-f', '-'], sentinel())
  await waitSentinel(cluster, false)
}

// --- one group --------------------------------------------------------------------------------------------

export function compare(c: Case, k: Answer, e: Answer): Difference[] {
  const d: Difference[] = []
  if (k.accepted !== e.accepted)
    d.push({
      case: c,
      aspect: 'verdict',
      kubectl: k.accepted ? 'accepted' : `rejected: ${k.error}`,
      kelp: e.accepted ? 'accepted' : `rejected: ${e.error}`,
    })
  else if (!k.accepted && k.error !== e.error && !(e.errors ?? []).includes(k.error))
    d.push({ case: c, aspect: 'error', kubectl: k.error, kelp: (e.errors ?? [e.error]).join('\n') })
  // the apiserver evaluates the policies in the order its informer's cache lists the bindings (a Go map:
  // policy/generic/policy_source.go calculatePolicyData), which changes between runs: warnings are compared
  // as a multiset
  if (JSON.stringify([...k.warnings].sort()) !== JSON.stringify([...e.warnings].sort()))
    d.push({ case: c, aspect: 'warnings', kubectl: k.warnings.join('\n'), kelp: e.warnings.join('\n') })
  // the object as stored: a built-in object both accept (an UPDATE: the patched object, or the stored one when
  // kubectl found nothing to send)
  if (c.builtIn && k.accepted && e.accepted && k.stored) {
    const diff = e.stored
      ? storedDiff(k.stored, e.stored)
      : [{ path: '', kubectl: '(the object)', kelp: '(kelp check -o yaml printed no object)' }]
    // one difference per field (each has its own cause)
    for (const f of diff)
      d.push({ case: c, aspect: 'stored', kubectl: `${f.path}: ${f.kubectl}`, kelp: `${f.path}: ${f.kelp}`, field: f })
  }
  for (const x of d) {
    x.kelpRaw = e.raw
    x.kubectlAnswer = { accepted: k.accepted, error: k.error }
  }
  return d
}

export async function runGroup(cluster: Cluster, group: Group, log: (s: string) => void): Promise<Outcome[]> {
  const t0 = Date.now()
  await install(cluster, group, 'types')
  const namespaces = new Set([group.namespace, ...group.cases.map((c) => c.namespace).filter((n): n is string => !!n)])
  const outcomes = new Map<string, Outcome>(group.cases.map((c) => [c.id, { case: c, differences: [] }]))
  // a Namespace case the cases' own namespaces include is applied before those are made (else it is a patch
  // of the namespace made here, not a create)
  const isNamespace = (c: Case) => c.apiVersion === 'v1' && c.kind === 'Namespace' && !c.old
  const earlyNamespaces = group.cases.filter((c) => isNamespace(c) && namespaces.has(c.name))
  for (const c of earlyNamespaces) {
    // one an earlier group made stays (without a controller-manager a namespace is never deleted): not comparable
    if ((await cluster.request('GET', `/api/v1/namespaces/${c.name}`)).status === 200) {
      outcomes.get(c.id)!.skipped = 'the namespace exists from an earlier group (kubectl would patch it)'
      continue
    }
    const r = await cluster.kubectl(['apply', '--dry-run=server', ...(c.builtIn ? ['-o', 'json'] : []), '-f', c.file])
    outcomes.get(c.id)!.kubectl = kubectlAnswer(r)
  }
  for (const ns of namespaces) {
    const r = await cluster.request('GET', `/api/v1/namespaces/${ns}`)
    if (r.status === 404) {
      await cluster.request('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      })
    }
    await cluster.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
    })
  }
  const updates = group.cases.filter((c) => c.old)
  // a CREATE of an object an UPDATE's previous revision holds runs after those are removed
  const identity = (c: Case) => `${c.kind}/${c.namespace ?? group.namespace}/${c.name}`
  const held = new Set(updates.map(identity))
  const early = new Set(earlyNamespaces)
  const creates = group.cases.filter((c) => !c.old && !held.has(identity(c)) && !early.has(c))
  const lateCreates = group.cases.filter((c) => !c.old && held.has(identity(c)))
  // the previous revisions exist before the policies do (as objects admitted before a policy was installed)
  const nsArgs = (c: Case) => (c.namespace ? [] : ['-n', group.namespace])
  for (const c of updates) {
    const created = await cluster.kubectl([...nsArgs(c), 'apply', '-f', c.old!])
    if (created.code !== 0) outcomes.get(c.id)!.skipped = `previous revision refused: ${created.stderr.trim()}`
  }
  await install(cluster, group, 'policies')
  log(`${group.id}: material installed (${group.install.length} files) in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

  // kubectl: CREATEs three at a time, then the UPDATEs, whose previous revisions are removed afterwards
  const t1 = Date.now()
  await pool(creates, 3, async (c) => {
    // -n only for an object without a namespace: kubectl refuses one whose namespace differs from -n
    // -o json: the object as the server would store it (built-in kinds, compared with kelp check -o yaml)
    const out = c.builtIn ? ['-o', 'json'] : []
    const r = await cluster.kubectl([...nsArgs(c), 'apply', '--dry-run=server', ...out, '-f', c.file], {
      timeoutMs: 120_000,
    })
    outcomes.get(c.id)!.kubectl = kubectlAnswer(r)
  })
  for (const c of updates.filter((c) => !outcomes.get(c.id)!.skipped)) {
    const out = c.builtIn ? ['-o', 'json'] : []
    const r = await cluster.kubectl([...nsArgs(c), 'apply', '--dry-run=server', ...out, '-f', c.file])
    outcomes.get(c.id)!.kubectl = kubectlAnswer(r)
  }
  for (const c of updates) await cluster.kubectl([...nsArgs(c), 'delete', '--ignore-not-found', '-f', c.old!])
  for (const c of lateCreates) {
    const r = await cluster.kubectl([...nsArgs(c), 'apply', '--dry-run=server', '-f', c.file])
    outcomes.get(c.id)!.kubectl = kubectlAnswer(r)
  }
  log(`${group.id}: kubectl ${group.cases.length} cases in ${((Date.now() - t1) / 1000).toFixed(1)} s`)

  // kelp check: the CREATEs in one run, each UPDATE with its --old; sent as the harness's user
  const t2 = Date.now()
  const kelpArgs = [...(await identityArgs(cluster)), ...group.kelpArgs]
  const fill = (c: Case, r: Awaited<ReturnType<typeof kelpCheck>>) => {
    const blocks = r.blocks.get(c.file)
    const outcome = r.outcomes.get(c.file)?.[0]
    const answer = kelpAnswer(blocks?.[0], outcome ?? (r.code === 2 ? 'error' : undefined))
    const stored = r.storedByFile.get(c.file)
    outcomes.get(c.id)!.kelp = stored ? { ...answer, stored } : answer
  }
  const allCreates = [...earlyNamespaces.filter((c) => !outcomes.get(c.id)!.skipped), ...creates, ...lateCreates]
  if (allCreates.length > 0) {
    const r = await kelpCheck(
      kelpArgs,
      allCreates.map((c) => c.file),
      group.namespace,
      undefined,
      allCreates.some((c) => c.builtIn),
    )
    for (const c of allCreates) fill(c, r)
  }
  await pool(
    updates.filter((c) => !outcomes.get(c.id)!.skipped),
    2,
    async (c) => {
      const r = await kelpCheck(kelpArgs, [c.file], group.namespace, c.old, c.builtIn)
      fill(c, r)
    },
  )
  log(`${group.id}: kelp check in ${((Date.now() - t2) / 1000).toFixed(1)} s`)
  await uninstall(cluster, group)

  for (const o of outcomes.values()) if (o.kubectl && o.kelp) o.differences = compare(o.case, o.kubectl, o.kelp)
  return [...outcomes.values()]
}
