import { existsSync, readFileSync } from 'node:fs'
import { decodeStruct, inKubectlOrder } from '../builtin/decode.js'
import { kindStruct } from '../builtin/gotypes.js'
import type { BuiltinResult } from '../builtin/index.js'
import { goQuote } from '../cel/ext/quote.js'
import { apiVersionStatus } from '../engine/api-versions.js'
import { kubectlApply, storedOnCreateOf, storedOnUpdateOf } from '../engine/apply.js'
import {
  type AdmitResult,
  materialKind,
  materialNotServed,
  PolicySet,
  type PolicySetOptions,
} from '../engine/policy-set.js'
import type { KubeVersion } from '../kube/environment.js'
import { errorString } from '../kube/field.js'
import { derivedNameGenerator, needsNameGeneration } from '../kube/names.js'
import type { OpenAPIV3Document } from '../kube/openapi.js'
import { validatePathSegment } from '../kube/validation/objectmeta.js'
import { type JSONObject, type LoadedObject, loadManifests, parseManifests } from '../manifest/load.js'
import { expandPaths } from '../manifest/paths.js'
import { forbiddenStatus } from '../policy/generic/status.js'
import { pushAll } from '../report/common.js'
import {
  type Finding,
  type ObjectResult,
  outcomeOf,
  type PackUse,
  type Report,
  SummaryCounter,
} from '../report/model.js'
import { readRevision } from './git.js'
import { Inputs } from './inputs.js'
import { bundledPack, bundledPoliciesDir, instantiatePack } from './pack.js'
import { packCheckedCache } from './pack-cache.js'
import { placeFindings } from './positions.js'
import { applySizeRefusal, MAX_REQUEST_BODY_BYTES, type SizeRefusal, TOTAL_ANNOTATION_SIZE_LIMIT } from './sizes.js'
import { VERSION } from './version.js'

// `kelp check`: load manifests → build the policy set from the policy material found in them (and
// --policies, else the bundled pack) → admit every other object as kubectl apply would (CREATE, or
// UPDATE when the old revision has it) → a Report. No Kubernetes rule lives here: the engine decides,
// this file only turns its answers into findings with their source positions.

export interface CheckOptions {
  readonly paths: readonly string[]
  /** Extra policy material (VAPs, bindings, params, CRDs, Namespaces). */
  readonly policies?: readonly string[]
  /** The previous revision: files or directories. */
  readonly old?: readonly string[]
  /** The previous revision as a git revision: each input file is read at that revision. */
  readonly base?: string
  /** The CEL environment's version (the nearest kelp supports to the target). */
  readonly kubeVersion: KubeVersion
  /** The target release for API versions (default: kubeVersion). */
  readonly target?: string
  /** Namespace for namespaced objects without one (kubectl's context namespace). */
  readonly namespace?: string
  /** Standard input's text (tests, the library); the CLI reads it as a stream instead (stdinStream). */
  readonly stdin?: () => string | Buffer
  /** Standard input as a stream for checkParallel (default: process.stdin), read when `-` is an input. */
  readonly stdinStream?: AsyncIterable<Buffer | string>
  /** OpenAPI v3 documents (JSON files) of built-in group-versions, for type checking the policies. */
  readonly openapi?: readonly string[]
  /**
   * The bundled pack: `auto` (default) applies it unless the inputs or --policies hold admission policies
   * of their own; `add` applies it beside them; `off` (or its other name `replace`) never applies it. The
   * report says when it is not applied and why (`pack`, and an info diagnostic).
   */
  readonly pack?: PackMode
  /** Objects held after the first pass before the run switches to reading the inputs again (HOLD_OBJECTS). */
  readonly holdObjects?: number
}

/** Reads OpenAPI v3 documents (`kubectl get --raw /openapi/v3/apis/apps/v1 > apps-v1.json`). */
/** The bundled pack's expressions as this build checked them (when the pack is in use and they were built). */
function checkedCacheOption(version: KubeVersion | undefined): Pick<PolicySetOptions, 'checkedCache'> {
  const checkedCache = version === undefined ? undefined : packCheckedCache(version)
  return checkedCache === undefined ? {} : { checkedCache }
}

function loadOpenAPI(paths: readonly string[], diagnostics: Finding[]): OpenAPIV3Document[] {
  const docs: OpenAPIV3Document[] = []
  for (const file of expandPaths(paths).files) {
    try {
      docs.push(JSON.parse(readFileSync(file, 'utf8')) as OpenAPIV3Document)
    } catch (e) {
      diagnostics.push({
        level: 'error',
        type: 'parse',
        rule: 'input/openapi',
        message: `--openapi ${file}: ${(e as Error).message}`,
        source: { file },
      })
    }
  }
  return docs
}

const isMaterialKind = (o: JSONObject): boolean => materialKind(o) !== undefined

const meta = (o: JSONObject): JSONObject =>
  typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as JSONObject) : {}

/**
 * Identity across revisions: API group (not version), kind, namespace, name. An object with no name
 * (generateName) has none: every write of it creates a new object.
 */
function identity(o: JSONObject, defaultNamespace: string): string | undefined {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : ''
  const m = meta(o)
  if (typeof m.name !== 'string' || m.name === '') return undefined
  return [group, o.kind, m.namespace ?? defaultNamespace, m.name].join('\0')
}

/** What admission needs besides the objects: built once, shared by the main thread and the workers. */
export interface Prepared {
  /** The objects a worker builds the same policy set from (material, Namespaces, params). */
  readonly context: readonly JSONObject[]
  readonly buildOptions: PolicySetOptions
  /** The objects to admit, when the inputs were small enough to hold; else `stream` reads them again. */
  readonly toAdmit?: readonly LoadedObject[]
  /** How many objects there are to admit (the first pass counted them: the progress line's total). */
  readonly toAdmitCount: number
  /** Another pass over the inputs, yielding the objects to admit (large inputs, in bounded memory). */
  readonly stream?: () => Iterable<LoadedObject>
  readonly olds: ReadonlyMap<string, JSONObject>
  readonly target: string
  readonly defaultNamespace: string
  readonly diagnostics: Finding[]
  /** Whether the bundled pack is applied, and why not. */
  readonly pack: PackUse
  /** The policies' paramKinds (`apiVersion|kind`): a thread's share may hold params (parallel.ts). */
  readonly paramKinds: readonly string[]
  /** The inputs, for the text of a finding's file (positions.ts; not sent to workers). */
  readonly inputs?: Inputs
}

/**
 * Inputs up to this many objects are held in memory after the first pass; past it the objects are
 * dropped and read again for admission (two passes, memory bounded by the policy material).
 */
export const HOLD_OBJECTS = 50_000

/**
 * Inputs of more bytes than this (files; standard input is held anyway) hold no object after the first
 * pass on one thread: 50,000 objects of a few KiB each cost several hundred MiB of heap (measured: a
 * 300 MiB file of 2.3 KiB ConfigMaps did not fit a 256 MiB heap while it held them).
 */
export const HOLD_BYTES = 32 << 20

/**
 * What the bundled pack does beside the policies of the inputs (--pack). `replace` is another name for
 * `off`: with policies of one's own, both leave the pack out as `auto` does; without, both apply nothing.
 */
export type PackMode = 'auto' | 'add' | 'replace' | 'off'

const isPolicy = (o: JSONObject): boolean => {
  const k = materialKind(o)
  return k !== undefined && k !== 'CustomResourceDefinition'
}

const isNamespace = (o: JSONObject): boolean => o.apiVersion === 'v1' && o.kind === 'Namespace'
/** An object's `apiVersion|kind` (the key of seenKinds and paramKinds). */
export const gvkKey = (o: JSONObject): string => `${String(o.apiVersion)}|${String(o.kind)}`

/** Material and Namespaces the target serves (policy material of a version it does not serve is no material). */
function isMaterialAt(o: JSONObject, target: string): boolean {
  // the cluster refuses such material like any kind it does not serve (admitOne reports it not-served)
  return isMaterialKind(o) && materialNotServed(o, target) === undefined
}

/** What the first pass over the inputs (or over one thread's share of them) found. */
export interface FirstPass {
  readonly material: LoadedObject[]
  readonly namespaces: LoadedObject[]
  /** The other objects while they are fewer than the hold limit; undefined past it (read again). */
  readonly held: LoadedObject[] | undefined
  /** Objects by `apiVersion|kind` (params are found by it). */
  readonly seenKinds: Map<string, number>
  readonly objectCount: number
  /** A policy the target does not serve was seen: the inputs have policies of their own. */
  readonly notServedPolicies: boolean
  /** Objects with metadata.generateName and no name (kubectl apply refuses them), and the first of them. */
  readonly generateNamed: { readonly count: number; readonly first: LoadedObject | null }
}

function packUseOf(mode: PackMode, usePack: boolean, installed: boolean): PackUse {
  const asGiven = mode === 'replace' ? 'off' : mode
  if (installed) return { mode: asGiven, applied: true }
  return {
    mode: asGiven,
    applied: false,
    reason: usePack ? 'not-installed' : asGiven === 'off' ? 'off' : 'own-policies',
  }
}

/** The note that the bundled pack is left out unasked, and why (at the inputs' first policy when it is theirs). */
function packNote(use: PackUse, firstPolicy: LoadedObject | undefined): Finding {
  const not = 'the bundled policy pack (policies/) is not applied'
  if (use.reason === 'own-policies') {
    const o = firstPolicy?.object
    const which =
      o === undefined
        ? 'of a version the target release does not serve'
        : `(${String(o.kind)} "${String(meta(o).name ?? '')}", ${firstPolicy?.source.file}${firstPolicy?.source.line !== undefined ? `:${firstPolicy.source.line}` : ''})`
    return {
      level: 'info',
      type: 'policy-material',
      rule: 'pack/not-applied',
      // no source: a run note, not a finding on the policy's line (a code-scanning alert on every run)
      message: `${not}: the inputs hold admission policies of their own ${which}; --pack add applies it beside them`,
    }
  }
  return {
    level: 'info',
    type: 'policy-material',
    rule: 'pack/not-applied',
    message: `${not}: its files are not installed (${bundledPoliciesDir()})`,
  }
}

/**
 * The one note for the objects with generateName and no name: kubectl apply refuses each before sending it
 * (kubectl/pkg/cmd/apply apply.go applyOneObject, the text measured with kubectl 1.37.2); kelp checks them as
 * `kubectl create` creates them.
 */
function generateNameNote(count: number, first: LoadedObject): Finding {
  const m = meta(first.object)
  const base = String(m.generateName)
  const at = `${first.source.file}${first.source.line !== undefined ? `:${first.source.line}` : ''}`
  const which =
    count === 1
      ? `${String(first.object.kind)} ${goQuote(base)} (${at})`
      : `${count} objects (the first: ${String(first.object.kind)} ${goQuote(base)}, ${at})`
  return {
    level: 'info',
    type: 'parse',
    rule: 'kubectl/generate-name',
    message: `${which} ${count === 1 ? 'has' : 'have'} metadata.generateName and no name: kubectl apply refuses ${count === 1 ? 'it' : 'them'} (error: from ${base}: cannot use generate name with apply); checked as kubectl create creates ${count === 1 ? 'it' : 'them'}, named with 5 characters derived from the object where the cluster draws them at random`,
  }
}

/** The first pass: every document read once; material and Namespaces kept; the rest while small. */
export function firstPass(items: Iterable<LoadedObject>, target: string, hold: number = HOLD_OBJECTS): FirstPass {
  const material: LoadedObject[] = []
  const namespaces: LoadedObject[] = []
  let held: LoadedObject[] | undefined = []
  const seenKinds = new Map<string, number>()
  let objectCount = 0
  let notServedPolicies = false
  const generateNamed = { count: 0, first: null as LoadedObject | null }
  for (const item of items) {
    objectCount++
    if (isMaterialAt(item.object, target)) {
      material.push(item)
      continue
    }
    if (needsNameGeneration(item.object.metadata)) {
      generateNamed.count++
      generateNamed.first ??= item
    }
    if (isPolicy(item.object)) notServedPolicies = true
    if (isNamespace(item.object)) namespaces.push(item)
    if (held !== undefined && held.length >= hold) held = undefined
    if (held !== undefined) held.push(item)
    const k = gvkKey(item.object)
    seenKinds.set(k, (seenKinds.get(k) ?? 0) + 1)
  }
  return { material, namespaces, held, seenKinds, objectCount, notServedPolicies, generateNamed }
}

/**
 * The first pass done by threads that each read a share of the inputs (parallel.ts): `pass` is what
 * they found, in input order, with this thread's objects as `held`; `params` the other threads'
 * objects of the policies' paramKinds.
 */
export interface SplitRead {
  readonly inputs: Inputs
  readonly pass: FirstPass
  readonly diagnostics: readonly Finding[]
  readonly params: readonly LoadedObject[]
}

/** Loads the inputs, the material and the old revision, and builds the policy set. */
export function prepare(
  options: CheckOptions,
  split?: SplitRead,
  given?: Inputs,
): { prepared: Prepared; set: PolicySet } {
  const defaultNamespace = options.namespace ?? 'default'
  const target = options.target ?? options.kubeVersion
  const isMaterial = (o: JSONObject): boolean => isMaterialAt(o, target)
  const inputs = split?.inputs ?? given ?? new Inputs(options.paths, options.stdin)
  const diagnostics: Finding[] = [...(split?.diagnostics ?? [])]
  const hold = options.holdObjects ?? (inputs.bytes() > HOLD_BYTES ? 0 : HOLD_OBJECTS)
  const pass = split?.pass ?? firstPass(inputs.read(diagnostics), target, hold)
  const { material, namespaces, held, seenKinds, objectCount, notServedPolicies, generateNamed } = pass
  if (objectCount === 0 && !diagnostics.some((d) => d.level === 'error')) {
    // kubectl apply on the same inputs: `error: no objects passed to apply`
    diagnostics.push({
      level: 'error',
      type: 'parse',
      rule: 'input/empty',
      message: `no objects passed to apply (${options.paths.join(', ')} ${options.paths.length === 1 ? 'holds' : 'hold'} no Kubernetes object)`,
    })
  }
  if (generateNamed.first !== null) diagnostics.push(generateNameNote(generateNamed.count, generateNamed.first))
  const extra: LoadedObject[] = []
  if (options.policies !== undefined && options.policies.length > 0) {
    const loaded = loadManifests(options.policies)
    pushAll(diagnostics, loaded.errors)
    pushAll(extra, loaded.objects)
  }
  const mode = options.pack ?? 'auto'
  // a policy the target does not serve is still the inputs' own (no pack beside it)
  const ownPolicies =
    material.some((o) => isPolicy(o.object)) || extra.some((o) => isPolicy(o.object)) || notServedPolicies
  const usePack = mode === 'add' || (mode === 'auto' && !ownPolicies)
  const pack: LoadedObject[] = []
  const installed = usePack && existsSync(bundledPoliciesDir())
  if (installed) {
    const loaded = bundledPack(options.kubeVersion)
    pushAll(pack, loaded.objects)
    pushAll(diagnostics, loaded.errors)
  }
  // a pack turned off by one policy among the inputs lets a privileged Pod through: never without a word
  // (--pack off, asked for, is only recorded in the report's `pack`)
  const packUse = packUseOf(mode, usePack, installed)
  if (!packUse.applied && packUse.reason !== 'off')
    diagnostics.push(
      packNote(
        packUse,
        [...material, ...extra].find((o) => isPolicy(o.object)),
      ),
    )

  const buildOptions: PolicySetOptions = {
    version: options.kubeVersion,
    // the REST mapping of the target release (which may be older than the oldest CEL environment)
    release: options.target ?? options.kubeVersion,
    // the bundled pack is validated for every release by kelp's tests: not compiled twice per run
    trusted: (o: object) => packObjects.has(o),
    // generateName: a name derived from the object, not random, so that two runs print the same report
    generateName: derivedNameGenerator,
    ...checkedCacheOption(pack.length > 0 ? options.kubeVersion : undefined),
    ...(options.openapi ? { openapi: loadOpenAPI(options.openapi, diagnostics) } : {}),
  }
  // the set is built from the material, Namespaces (selectors) and params (paramRefs); params are known
  // once the policies are: objects of a paramKind are taken from the held objects or read again
  // the pack's per-release variables (and kelp.dev/ annotations of copies of it) set for the target release
  const instantiated = instantiatePack([...material, ...pack, ...extra], options.kubeVersion)
  const base = [...instantiated, ...namespaces.filter((n) => !extra.includes(n))]
  const packObjects = new Set<object>(
    instantiated.slice(material.length, material.length + pack.length).map((o) => o.object),
  )
  let all = [...base, ...(held ?? []), ...(split?.params ?? [])]
  // the inputs' MutatingAdmissionPolicies the target does not serve are objects admitOne reports not-served,
  // not material (null keeps the indices of the problems and diagnostics)
  const extraSources = new Set(extra.map((o) => o.source))
  const buildInput = (objects: readonly LoadedObject[]) =>
    objects.map((o) =>
      isMaterialKind(o.object) && !isMaterial(o.object) && !extraSources.has(o.source) ? null : o.object,
    )
  let set = PolicySet.build(buildInput(all), buildOptions)
  const paramKinds = new Set(
    set.policies.flatMap((h) => {
      const pk = h.policy.spec?.paramKind
      return pk ? [`${pk.apiVersion}|${pk.kind}`] : []
    }),
  )
  const isParam = (o: JSONObject) => paramKinds.has(gvkKey(o))
  if (held === undefined && [...paramKinds].some((k) => (seenKinds.get(k) ?? 0) > 0)) {
    const params: LoadedObject[] = []
    for (const item of inputs.read())
      if (!isMaterial(item.object) && !isNamespace(item.object) && isParam(item.object)) params.push(item)
    all = [...base, ...params]
    set = PolicySet.build(buildInput(all), buildOptions)
  }
  for (const d of set.diagnostics) {
    const src = all[d.index]?.source
    diagnostics.push({
      level: d.level,
      type: 'policy-material',
      rule: d.field?.startsWith('spec.validations') ? 'material/type-checking' : `material/${d.kind}`,
      message: `${d.kind} "${d.name}": ${d.message}`,
      ...(src !== undefined ? { source: src } : {}),
      ...(d.field !== undefined ? { field: d.field } : {}),
    })
  }
  for (const p of set.problems) {
    const src = all[p.index]?.source
    diagnostics.push({
      level: 'error',
      type: 'policy-material',
      rule: `material/${p.kind}`,
      message: p.message,
      ...(src !== undefined ? { source: src } : {}),
      ...(p.errors[0]?.field ? { field: p.errors[0].field } : {}),
    })
  }

  // the previous revision: --old paths or --base
  const olds = new Map<string, JSONObject>()
  if (options.base !== undefined) {
    const rev = readRevision(options.base, options.paths, inputs.files)
    pushAll(diagnostics, rev.errors)
    // objects of the same path first, so that an identity found in two old files resolves to its own file's
    const ordered = [...rev.files.filter((f) => !f.isInput), ...rev.files.filter((f) => f.isInput)]
    for (const f of ordered) {
      const r = parseManifests(f.text, f.name)
      if (f.isInput) pushAll(diagnostics, r.errors)
      for (const o of r.objects) {
        const id = identity(o.object, defaultNamespace)
        if (id !== undefined) olds.set(id, o.object)
      }
    }
  } else if (options.old !== undefined && options.old.length > 0) {
    const oldLoaded = loadManifests(options.old)
    pushAll(diagnostics, oldLoaded.errors)
    for (const o of oldLoaded.objects) {
      const id = identity(o.object, defaultNamespace)
      if (id !== undefined) olds.set(id, o.object)
    }
  }

  // transition rules never run on CREATE: without an old revision they are not checked at all
  if (olds.size === 0) {
    for (const crd of set.crds) {
      let count = 0
      for (const v of crd.versions.values()) {
        for (const r of v.celValidator()?.rules() ?? []) if (r.usesOldSelf && r.rule.optionalOldSelf !== true) count++
      }
      if (count === 0) continue
      const src = all.find(
        (o) => o.object.kind === 'CustomResourceDefinition' && meta(o.object).name === crd.name,
      )?.source
      diagnostics.push({
        level: 'info',
        type: 'policy-material',
        rule: 'material/transition-rules',
        message: `CustomResourceDefinition "${crd.name}": ${count} transition rule${count === 1 ? '' : 's'} (oldSelf) ${count === 1 ? 'runs' : 'run'} only on UPDATE; give the previous revision (--old or --base) to check ${count === 1 ? 'it' : 'them'}`,
        ...(src !== undefined ? { source: src } : {}),
      })
    }
  }
  // what a worker needs to build the same set: the material, Namespaces and param objects (not every object)
  const context = all.map((o) => o.object).filter((o) => isMaterial(o) || isNamespace(o) || isParam(o))
  const admitted = (o: LoadedObject) => !isMaterial(o.object)
  const stream = function* (): Iterable<LoadedObject> {
    for (const item of inputs.read()) if (admitted(item)) yield item
  }
  return {
    prepared: {
      context,
      buildOptions,
      ...(held !== undefined ? { toAdmit: held } : { stream }),
      toAdmitCount: objectCount - material.length,
      olds,
      target,
      defaultNamespace,
      diagnostics,
      pack: packUse,
      paramKinds: [...paramKinds],
      inputs,
    },
    set,
  }
}

/**
 * Which results a run keeps: `all`; `findings`, only those with findings (the text, SARIF and GitHub
 * formats show no others); `stored`, all, each with the object as the cluster would store it (-o yaml).
 * The summary counts all in every case.
 */
export type Keep = 'all' | 'findings' | 'stored'

/** Admits a run of objects against a built set, keeping the results `keep` says. */
export function admitAll(
  set: PolicySet,
  objects: Iterable<LoadedObject>,
  olds: ReadonlyMap<string, JSONObject>,
  target: string,
  defaultNamespace: string,
  onProgress?: (done: number, total: number) => void,
  keep: Keep = 'all',
  total?: number,
): Admitted {
  const results: ObjectResult[] = []
  const counter = new SummaryCounter()
  let done = 0
  for (const o of objects) {
    const r = admitOne(set, o, olds, target, defaultNamespace, keep === 'stored')
    counter.add(r)
    if (keep !== 'findings' || r.findings.length > 0) results.push(r)
    done++
    if (onProgress !== undefined && (done & 63) === 0) onProgress(done, total ?? done)
  }
  return { results, counter }
}

/** Admission results: those kept, and the counts of all. */
export interface Admitted {
  readonly results: ObjectResult[]
  readonly counter: SummaryCounter
}

/** The report of admitted objects, findings that name a field placed at its line (positions.ts). */
export function report(prepared: Prepared, admitted: Admitted): Report {
  const made: Report = {
    schemaVersion: 1,
    kelpVersion: VERSION,
    kubeVersion: prepared.target,
    pack: prepared.pack,
    objects: admitted.results,
    diagnostics: prepared.diagnostics,
    summary: admitted.counter.summary(prepared.diagnostics),
  }
  const inputs = prepared.inputs
  return placeFindings(made, (file) => (inputs !== undefined ? inputs.textOf(file) : { path: file }))
}

/** Runs the check on this thread and returns the report (the caller formats it and picks the exit code). */
export function check(options: CheckOptions, keep: Keep = 'all'): Report {
  const { prepared, set } = prepare(options)
  const objects = prepared.toAdmit ?? prepared.stream?.() ?? []
  return report(
    prepared,
    admitAll(set, objects, prepared.olds, prepared.target, prepared.defaultNamespace, undefined, keep),
  )
}

function admitOne(
  set: PolicySet,
  loaded: LoadedObject,
  olds: ReadonlyMap<string, JSONObject>,
  kubeVersion: string,
  defaultNamespace: string,
  withStored = false,
): ObjectResult {
  const o = loaded.object
  const source = loaded.source
  const m = meta(o)
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const kind = typeof o.kind === 'string' ? o.kind : ''
  const id = olds.size === 0 ? undefined : identity(o, defaultNamespace)
  const oldObject = id === undefined ? undefined : olds.get(id)
  const findings: Finding[] = []
  // Object.assign, not a spread: on Node 20's V8 a spread followed by a new key costs ~1 µs
  const at = (f: Omit<Finding, 'source'>): Finding => Object.assign({}, f, { source })
  let generatedName: string | undefined
  let stored: unknown
  let operation: 'CREATE' | 'UPDATE' = oldObject === undefined ? 'CREATE' : 'UPDATE'
  let unchanged = false
  let requestNamespace: string | undefined
  const result = (): ObjectResult => {
    const namespace = typeof m.namespace === 'string' ? m.namespace : requestNamespace
    // kubectl's `unchanged`: a warning of the GET (a deprecated version) is still printed
    const outcome =
      unchanged && !findings.some((f) => f.level === 'deny' || f.level === 'error') ? 'unchanged' : outcomeOf(findings)
    return {
      source,
      apiVersion,
      kind,
      ...(namespace !== undefined ? { namespace } : {}),
      name: generatedName ?? String(m.name ?? m.generateName ?? ''),
      operation,
      outcome,
      findings,
      ...(stored !== undefined && ACCEPTED.has(outcome) ? { stored: stored as Record<string, unknown> } : {}),
    }
  }

  const lifecycle = apiVersionStatus(apiVersion, kind, kubeVersion)
  // not served at the target: removed, not yet introduced, or off unless --runtime-config enables it
  const notServed =
    lifecycle.status === 'removed' || (lifecycle.status === 'unknown' && lifecycle.message !== undefined)
      ? lifecycle.message
      : lifecycle.offByDefault?.message
  if (notServed !== undefined) {
    const use = lifecycle.replacement ? `; use ${lifecycle.replacement.apiVersion} ${lifecycle.replacement.kind}` : ''
    const detail =
      lifecycle.status === 'removed'
        ? ` (removed in v${lifecycle.removedIn}${use})`
        : lifecycle.offByDefault
          ? ` (not served by default: ${lifecycle.offByDefault.runtimeConfig})`
          : lifecycle.introducedIn
            ? ` (introduced in v${lifecycle.introducedIn})`
            : ''
    const rule = lifecycle.status === 'removed' ? 'api/removed' : 'api/not-served'
    findings.push(at({ level: 'deny', type: 'not-served', rule, message: `${notServed}${detail}` }))
  } else {
    if (lifecycle.status === 'deprecated' && lifecycle.warning !== undefined) {
      findings.push(at({ level: 'warn', type: 'deprecated', rule: 'api/deprecated', message: lifecycle.warning }))
    }
    // kubectl apply: a create, or the three-way patch of the previous revision's stored object (src/engine/apply.ts)
    const applied = kubectlApply(set, {
      manifest: o,
      ...(oldObject !== undefined ? { old: oldObject } : {}),
      namespace: defaultNamespace,
      release: kubeVersion,
    })
    operation = applied.operation
    if (applied.oldRefused !== undefined)
      findings.push(
        at({
          level: 'info',
          type: 'invalid',
          rule: 'apply/old-refused',
          message: `the previous revision of ${kind} "${String(m.name ?? '')}" would have been refused (${oldRefusal(applied.oldRefused)}): the cluster holds no such object, so this is a create`,
        }),
      )
    if (applied.unchanged) {
      // kubectl prints `<kind>/<name> unchanged` and sends nothing: no admission, no answer but the GET's
      unchanged = true
      if (withStored) stored = storedOnUpdateOf(applied, kubeVersion)
      return result()
    }
    if (applied.patchError !== undefined) {
      // kubectl's own error (patcher.go: `error: error when applying patch: …`): nothing sent
      findings.push(at({ level: 'deny', type: 'parse', rule: 'kubectl/patch', message: applied.patchError }))
      return result()
    }
    if (applied.conflict !== undefined) {
      findings.push(
        at({
          level: 'deny',
          type: 'invalid',
          rule: 'apiserver/conflict',
          reason: 'Conflict',
          message: applied.conflict,
        }),
      )
      return result()
    }
    const request = applied.request ?? { error: '' }
    const answer = applied.result!
    // a namespaced object without a namespace goes to -n's (a Namespace's requests carry its own name)
    if (!('error' in request) && request.namespace !== '' && !(kind === 'Namespace' && apiVersion === 'v1'))
      requestNamespace = request.namespace
    generatedName = answer.generatedName
    // the object as the cluster stores it (-o yaml): the create's (src/builtin/stored.ts), the update's
    if (withStored && applied.request !== undefined)
      stored =
        applied.operation === 'UPDATE'
          ? storedOnUpdateOf(applied, kubeVersion)
          : storedOnCreateOf(answer, applied.request, kubeVersion)
    else if (withStored) stored = answer.customResource?.object ?? answer.builtin?.object
    // the Forbidden Status names the object by its generated name, as the cluster's does
    const denial = (message: string, reason: string) =>
      'error' in request
        ? message
        : forbiddenStatus(generatedName !== undefined ? { ...request, name: generatedName } : request, message, reason)
            .message
    const own = findingsOf(answer, kind, denial)
    const answered = kubectlRefuses(own, o, source.file, decodedCleanly(answer.builtin))
    // a refusal of kubectl's own: nothing was sent, so no warning came back either
    const refused = answered.length === 1 && answered[0]!.rule === 'kubectl/refused'
    if (refused) findings.length = 0
    // what kubectl sends may be over the apiserver's limits (sizes.ts)
    const size = refused
      ? undefined
      : applySizeRefusal(
          o,
          operation === 'UPDATE' ? oldObject : undefined,
          'error' in request ? undefined : request.namespace,
        )
    for (const f of size === undefined ? answered : sizeAnswer(size, answered)) findings.push(at(f))
  }
  return result()
}

/** Why the engine refused the previous revision's create (its first error). */
function oldRefusal(r: AdmitResult): string {
  const b = r.builtin
  const e = b?.errors[0] ?? r.customResource?.errors[0]
  if (e !== undefined) return errorString(e)
  return b?.message ?? r.customResource?.message ?? r.status?.message ?? 'not served'
}

/**
 * The answer to a request over a size limit: the body's 413 replaces every other (the apiserver reads no further);
 * the annotations' 422 joins the other causes of the registry's validation, which runs after decoding and before
 * the validating admission policies (their findings go; a request that does not decode keeps its 400, and one
 * kubectl cannot send keeps kubectl's error).
 */
function sizeAnswer(size: SizeRefusal, answered: Omit<Finding, 'source'>[]): Omit<Finding, 'source'>[] {
  if (answered.some((f) => f.type === 'not-served')) return answered
  if (size.limit === 'body')
    return [
      {
        level: 'deny',
        type: 'invalid',
        rule: 'apiserver/request-too-large',
        reason: 'RequestEntityTooLarge',
        message: `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`,
      },
    ]
  if (answered.some((f) => f.reason === 'BadRequest')) return answered
  const message = `metadata.annotations: Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`
  // an UPDATE's object carries the new annotation (src/engine/apply.ts): the native validation found it already
  const causes = answered.filter((f) => f.level === 'deny' && f.type === 'invalid' && f.message !== message)
  return [
    {
      level: 'deny',
      type: 'invalid',
      rule: 'apiserver/annotations-too-long',
      reason: 'Invalid',
      field: 'metadata.annotations',
      // the apiserver's words: that the annotation is kubectl's copy of the object is said nowhere (README)
      message,
    },
    ...causes,
  ]
}

/** The outcomes of the requests a cluster accepts (and stores the object of). */
const ACCEPTED: ReadonlySet<string> = new Set(['allowed', 'warned', 'audited', 'unchanged'])

/** The engine's answer as findings (no source yet). */
/**
 * The engine's answer as findings (no source yet). A Deny is worded as the apiserver's Status message
 * (`deployments.apps "web" is forbidden: ValidatingAdmissionPolicy …`) with its reason, from which the
 * formatters print kubectl's line.
 */
/** What each MutatingAdmissionPolicy changed (info), or the errors that denied the request. */
function mutationFindings(r: AdmitResult): Omit<Finding, 'source'>[] {
  const out: Omit<Finding, 'source'>[] = []
  for (const e of r.mutationErrors ?? [])
    out.push({
      level: 'deny',
      type: 'policy',
      rule: `map/${e.policy}`,
      policy: e.policy,
      ...(e.binding !== undefined ? { binding: e.binding } : {}),
      ...(r.status?.reason !== undefined ? { reason: r.status.reason } : {}),
      message: e.text,
    })
  for (const m of r.mutations ?? []) {
    const ops = m.patch.map((p) =>
      p.op === 'remove' ? `-${p.path}` : `${p.op === 'add' ? '+' : '~'}${p.path}=${JSON.stringify(p.value)}`,
    )
    out.push({
      level: 'info',
      type: 'policy',
      rule: `map/${m.policy}`,
      policy: m.policy,
      binding: m.binding,
      message: `MutatingAdmissionPolicy '${m.policy}' with binding '${m.binding}'${m.param !== undefined ? ` (param ${m.param})` : ''}${m.pass === 2 ? ' (reinvoked)' : ''} changed: ${ops.join(', ')}`,
    })
  }
  return out
}

/** An answer with nothing to report (the common case): allowed, nothing warned, noted or annotated. */
function isClean(r: AdmitResult): boolean {
  if (!r.allowed || r.status !== undefined || r.violations.length > 0 || r.warnings.length > 0) return false
  if (r.noMatch !== undefined || r.customResource !== undefined || r.mutations !== undefined) return false
  if (
    r.mutationErrors !== undefined ||
    (r.builtin !== undefined && (!r.builtin.allowed || r.builtin.nativeValidation !== 'validated'))
  )
    return false
  for (const _ in r.auditAnnotations) return false
  return true
}

/**
 * What kubectl refuses before it sends anything, in its words instead of the apiserver's answer: a name that is
 * not a path segment (client-go rest/request.go `invalid resource name "a/b": [may not contain '/']`, the
 * GET kubectl apply starts with), and a built-in object whose metadata does not decode (cli-runtime
 * resource/mapper.go infoForData: `unable to decode "<file>": json: cannot unmarshal …`, the same json error the
 * apiserver's decoding gives; measured against kubectl 1.37.2).
 */
function kubectlRefuses(
  findings: Omit<Finding, 'source'>[],
  o: Record<string, unknown>,
  file: string,
  metadataDecodes: boolean,
): Omit<Finding, 'source'>[] {
  const meta = typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as Record<string, unknown>) : {}
  const at = (message: string): Omit<Finding, 'source'>[] => [
    // type parse: no Status reason, printed `error: <message>` as kubectl prints it
    { level: 'deny', type: 'parse', rule: 'kubectl/refused', message },
  ]
  if (o.metadata !== undefined && !metadataDecodes) {
    // kubectl decodes every object's metadata into an ObjectMeta, whatever its kind: a ConfigMap's decoder stands
    // for it (the error names the struct ObjectMeta and the path from metadata)
    const probe = decodeStruct(kindStruct('v1', 'ConfigMap')!, { metadata: o.metadata }, false)
    if (probe.error?.includes('Go struct field ObjectMeta.metadata'))
      return at(`unable to decode ${goQuote(file === '-' ? 'STDIN' : file)}: ${probe.error}`)
  }
  if (typeof meta.name === 'string' && meta.name !== '') {
    const msgs = validatePathSegment(meta.name, false)
    if (msgs.length > 0) return at(`invalid resource name ${goQuote(meta.name)}: [${msgs.join(' ')}]`)
  }
  return findings.map(unknownFieldsInKubectlOrder)
}

/**
 * Whether a built-in's decoding met no error and no unknown field: its metadata then decoded into ObjectMeta
 * as kubectl's probe would (the same struct; a field the target release lacks would be an unknown field).
 */
const decodedCleanly = (b: BuiltinResult | undefined): boolean =>
  b !== undefined && b.object !== undefined && b.decodeError === undefined && b.warnings.length === 0

const STRICT =
  /^(.* cannot be handled as a \S+: strict decoding error: )((?:unknown field "(?:[^"\\]|\\.)*"(?:, |$))+)$/

/** A built-in's unknown fields in the order the apiserver meets them in the body kubectl sends (sorted keys). */
function unknownFieldsInKubectlOrder(f: Omit<Finding, 'source'>): Omit<Finding, 'source'> {
  const m = STRICT.exec(f.message)
  if (m === null) return f
  const fields = [...m[2]!.matchAll(/unknown field "((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]!)
  if (fields.length < 2) return f
  return {
    ...f,
    message: `${m[1]}${inKubectlOrder(fields)
      .map((x) => `unknown field "${x}"`)
      .join(', ')}`,
  }
}

function findingsOf(
  r: AdmitResult,
  kind: string,
  denial: (message: string, reason: string) => string,
): Omit<Finding, 'source'>[] {
  if (isClean(r)) return []
  const out: Omit<Finding, 'source'>[] = mutationFindings(r)
  const cr = r.customResource
  // 404 `no matches for kind`: kubectl apply fails on it, unless a CRD the inputs lack would serve it
  const noMatch = r.noMatch ?? (r.status?.code === 404 && cr === undefined ? { reason: 'no-crd' as const } : undefined)
  if (noMatch !== undefined) {
    const message = r.status?.message ?? cr?.message ?? ''
    if (noMatch.reason === 'no-crd') {
      out.push({
        level: 'info',
        type: 'not-served',
        rule: 'kind/unknown',
        message: `${message} (no CRD for it was given: not validated)`,
      })
      return out
    }
    const why =
      noMatch.reason === 'version-not-served'
        ? `CustomResourceDefinition "${noMatch.crd}" does not serve this version`
        : noMatch.reason === 'crd-refused'
          ? `its CustomResourceDefinition "${noMatch.crd}" was refused`
          : 'not served by the target release; a group without a dot cannot come from a CRD'
    out.push({ level: 'deny', type: 'not-served', rule: 'kind/not-served', message: `${message} (${why})` })
    return out
  }
  // a built-in object that does not decode: 400 BadRequest before any admission (src/builtin)
  const b = r.builtin
  if (b !== undefined && !b.allowed && b.errors.length > 0) {
    // the kind's native validation refused it: 422 Invalid, one finding per cause (as the CR path); a cause
    // whose text repeats one before is printed once, as kubectl prints the causes (an aggregate of their
    // texts, which drops repeats: apimachinery util/errors aggregate.Error)
    const seen = new Set<string>()
    for (const e of b.errors) {
      const text = errorString(e)
      if (seen.has(text)) continue
      seen.add(text)
      out.push({
        level: 'deny',
        type: 'invalid',
        rule: `builtin/${kind}`,
        reason: 'Invalid',
        message: errorString(e),
        ...(e.field ? { field: e.field } : {}),
      })
    }
    return out
  }
  if (b !== undefined && !b.allowed) {
    out.push({
      level: 'deny',
      type: 'invalid',
      rule: `builtin/${kind}`,
      reason: b.status?.reason ?? 'BadRequest',
      message: b.message ?? b.status?.message ?? '',
    })
    return out
  }
  if (b?.nativeValidation === 'not-covered') {
    out.push({
      level: 'info',
      type: 'invalid',
      rule: 'builtin/not-covered',
      message: `the native validation of ${kind} is not covered by kelp: decoded and defaulted as the apiserver does, not validated as its registry would`,
    })
  }
  if (cr !== undefined && !cr.allowed) {
    if (cr.errors.length > 0) {
      for (const e of cr.errors) {
        out.push({
          level: 'deny',
          type: 'invalid',
          rule: `crd/${kind}`,
          message: errorString(e),
          ...(e.field ? { field: e.field } : {}),
        })
      }
    } else {
      // a request the apiserver refuses before validation: its Status reason decides kubectl's line (400: a body
      // that does not decode, strict unknown fields included: `Error from server (BadRequest): …`; 504: one it
      // does not finish validating within the request's timeout, `Error from server (Timeout): …`)
      const request = cr.status?.code === 400 || cr.status?.code === 504 ? cr.status : undefined
      out.push({
        level: 'deny',
        type: cr.status?.code === 404 ? 'not-served' : 'invalid',
        rule: `crd/${kind}`,
        ...(request !== undefined ? { reason: request.reason } : {}),
        message: request !== undefined ? request.message : (cr.message ?? ''),
      })
    }
  }
  for (const v of r.violations) {
    const who =
      v.binding !== undefined
        ? `ValidatingAdmissionPolicy '${v.policy}' with binding '${v.binding}'`
        : `ValidatingAdmissionPolicy '${v.policy}'`
    for (const action of v.actions) {
      if (action === 'Deny') {
        const reason = v.reason ?? 'Invalid'
        out.push(policyFinding(v, 'deny', denial(`${who} denied request: ${v.message}`, reason), reason))
      } else if (action === 'Warn') out.push(policyFinding(v, 'warn', `Validation failed for ${who}: ${v.message}`))
      else if (action === 'Audit')
        // no `Audit: ` in the message: the formatters add it, as they add `Warning: ` (docs/cli-json.md)
        out.push(policyFinding(v, 'audit', `validation failed for ${who}: ${v.message}`))
    }
  }
  // warnings the policies' Warn actions did not already give (deprecated CRD versions, unknown fields)
  if (r.warnings.length > 0) {
    const policyWarnings = new Set(out.filter((f) => f.level === 'warn').map((f) => f.message))
    for (const w of r.warnings) {
      if (!policyWarnings.has(w)) out.push({ level: 'warn', type: 'deprecated', rule: `warning/${kind}`, message: w })
    }
  }
  for (const [key, value] of Object.entries(r.auditAnnotations)) {
    if (key === 'validation.policy.admission.k8s.io/validation_failure') continue
    // the key in `annotation`, the value as the message (docs/cli-json.md); text prints `Audit: <key>=<value>`
    const policy = key.split('/')[0] as string
    out.push({ level: 'info', type: 'policy', rule: `audit/${policy}`, policy, message: value, annotation: key })
  }
  return out
}

/**
 * A violation's finding, keys in the order JSON output prints them. Built key by key: on Node 20 a
 * spread followed by keys the spread object lacks takes V8's slow path (~1 µs a call; benchmarks.md).
 */
function policyFinding(
  v: AdmitResult['violations'][number],
  level: 'deny' | 'warn' | 'audit',
  message: string,
  reason?: string,
): Omit<Finding, 'source'> {
  const f: Record<string, unknown> = { type: 'policy', rule: `vap/${v.policy}`, policy: v.policy }
  if (v.binding !== undefined) f.binding = v.binding
  f.level = level
  if (reason !== undefined) f.reason = reason
  f.message = message
  return f as unknown as Omit<Finding, 'source'>
}
