import { existsSync, readFileSync } from 'node:fs'
import { isAdmissionInput } from '../builtin/admission/inputs.js'
import { materialKind, PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import type { KubeVersion } from '../kube/environment.js'
import { derivedNameGenerator } from '../kube/names.js'
import type { OpenAPIV3Document } from '../kube/openapi.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import { type LoadedObject, loadManifests } from '../manifest/load.js'
import { expandPaths } from '../manifest/paths.js'
import { pushAll } from '../report/common.js'
import type { Finding, PackUse } from '../report/model.js'
import {
  type FirstPass,
  firstPass,
  gvkKey,
  HOLD_BYTES,
  HOLD_OBJECTS,
  isMaterialAt,
  isNamespace,
  isPolicy,
} from './first-pass.js'
import { Inputs } from './inputs.js'
import { generateNameNote, noObjectsError, packNote, packUseOf } from './notes.js'
import { readOlds } from './olds.js'
import type { CheckOptions } from './options.js'
import { bundledPack, bundledPoliciesDir, instantiatePack } from './pack.js'
import { packCheckedCache } from './pack-cache.js'

// `kelp check`'s preparation: the inputs read once (first-pass.ts) → the policy set built once from the policy
// material found in them (and --policies, else the bundled pack), with the params its policies name → the
// previous revision (olds.ts). Admission (admit.ts) then runs on this thread or on workers (parallel.ts). Inputs
// without set inputs of their own skip the first pass (one-pass.ts: the set built from gatherMaterial's part).

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
  /** The policies' paramKinds (`apiVersion|kind`). */
  readonly paramKinds: readonly string[]
  /** The inputs, for the text of a finding's file (positions.ts; not sent to workers). */
  readonly inputs?: Inputs
}

/**
 * The first pass done by threads that each read a share of the inputs (parallel.ts): `pass` is what
 * they found, in input order, with this thread's objects as `held`.
 */
export interface SplitRead {
  readonly inputs: Inputs
  readonly pass: FirstPass
  readonly diagnostics: readonly Finding[]
}

/** The bundled pack's expressions as this build checked them (when the pack is in use and they were built). */
function checkedCacheOption(version: KubeVersion | undefined): Pick<PolicySetOptions, 'checkedCache'> {
  const checkedCache = version === undefined ? undefined : packCheckedCache(version)
  return checkedCache === undefined ? {} : { checkedCache }
}

/** Reads OpenAPI v3 documents (`kubectl get --raw /openapi/v3/apis/apps/v1 > apps-v1.json`). */
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

/** The inputs read and the material gathered, before the set is built (gather, then build). */
export interface Gathered {
  readonly options: CheckOptions
  readonly inputs: Inputs
  readonly pass: FirstPass
  readonly target: string
  readonly defaultNamespace: string
  readonly diagnostics: Finding[]
  /** The material, the bundled pack's and --policies' objects (instantiated for the release), the Namespaces. */
  readonly base: readonly LoadedObject[]
  /** --policies' objects (given material is built from whatever its version: the set reports it). */
  readonly extra: readonly LoadedObject[]
  readonly buildOptions: PolicySetOptions
  readonly pack: PackUse
}

/** Whether the inputs have more than HOLD_BYTES (`onLargeInput` is told). */
export function announceLarge(options: CheckOptions, inputs: Inputs): boolean {
  const large = inputs.bytes() > HOLD_BYTES
  if (large) options.onLargeInput?.()
  return large
}

/** Objects the first pass holds: none for inputs of more than HOLD_BYTES (read again instead). */
function holdFor(options: CheckOptions, inputs: Inputs): number {
  const large = announceLarge(options, inputs)
  return options.holdObjects ?? (large ? 0 : HOLD_OBJECTS)
}

/** Reads the inputs (unless a split read did) and gathers the material, the pack and the build's options. */
export function gather(options: CheckOptions, split?: SplitRead, given?: Inputs): Gathered {
  const target = options.target ?? options.kubeVersion
  const inputs = split?.inputs ?? given ?? new Inputs(options.paths, options.stdin)
  const diagnostics: Finding[] = [...(split?.diagnostics ?? [])]
  const hold = holdFor(options, inputs)
  const pass = split?.pass ?? firstPass(inputs.read(diagnostics), target, hold)
  pushAll(diagnostics, passNotes(pass, options, diagnostics))
  return gatherMaterial(options, inputs, pass, diagnostics)
}

/** The run's notes on what the first pass read (after `reading`, its reading errors): no objects, generateName. */
export function passNotes(pass: FirstPass, options: CheckOptions, reading: readonly Finding[]): Finding[] {
  const notes: Finding[] = []
  // kubectl apply on the same inputs: `error: no objects passed to apply`
  if (pass.objectCount === 0 && options.allowEmpty !== true && !reading.some((d) => d.level === 'error'))
    notes.push(noObjectsError(options.paths))
  if (pass.generateNamed.first !== null)
    notes.push(generateNameNote(pass.generateNamed.count, pass.generateNamed.first))
  return notes
}

/**
 * The material the first pass found, with --policies' and the bundled pack's (unless the inputs have policies of
 * their own), and the build's options; their problems go to `diagnostics`.
 */
export function gatherMaterial(
  options: CheckOptions,
  inputs: Inputs,
  pass: FirstPass,
  diagnostics: Finding[],
): Gathered {
  const defaultNamespace = options.namespace ?? 'default'
  const target = options.target ?? options.kubeVersion
  const { material, namespaces, notServedPolicies } = pass
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
    // where kubectl apply -n puts the params, LimitRanges and ServiceAccounts given without a namespace
    defaultNamespace,
    ...(options.user !== undefined ? { userInfo: options.user } : {}),
    ...(options.podSecurity !== undefined ? { podSecurity: options.podSecurity } : {}),
    ...checkedCacheOption(pack.length > 0 ? options.kubeVersion : undefined),
    ...(options.openapi ? { openapi: loadOpenAPI(options.openapi, diagnostics) } : {}),
  }
  // the pack's per-release variables (and kelp.dev/ annotations of copies of it) set for the target release
  const instantiated = instantiatePack([...material, ...pack, ...extra], options.kubeVersion)
  const base = [...instantiated, ...namespaces.filter((n) => !extra.includes(n))]
  const packObjects = new Set<object>(
    instantiated.slice(material.length, material.length + pack.length).map((o) => o.object),
  )
  return {
    options,
    inputs,
    pass,
    target,
    defaultNamespace,
    diagnostics,
    base,
    extra,
    buildOptions,
    pack: packUse,
  }
}

/**
 * The paramKinds (`apiVersion|kind`) the set's policies may name, read from the material before the set is
 * built: every ValidatingAdmissionPolicy's that a binding names. The set's own (its accepted policies with
 * bindings) are among them, so the params can be read before the one build.
 */
export function paramKindsOf(g: Gathered): string[] {
  // as the set reads them: names and paramKind after defaulting, which touches neither (src/kube/admissionregistration/defaults.ts)
  const specOf = (o: JSONObject): JSONObject => (isObject(o.spec) ? o.spec : {})
  const nameOf = (o: JSONObject): unknown => (isObject(o.metadata) ? o.metadata.name : undefined) ?? ''
  const bound = new Set<unknown>()
  for (const o of g.base)
    if (materialKind(o.object) === 'ValidatingAdmissionPolicyBinding') bound.add(specOf(o.object).policyName ?? '')
  const kinds = new Set<string>()
  for (const o of g.base) {
    if (materialKind(o.object) !== 'ValidatingAdmissionPolicy') continue
    const pk = specOf(o.object).paramKind as { apiVersion?: unknown; kind?: unknown } | undefined
    if (pk && bound.has(nameOf(o.object))) kinds.add(`${String(pk.apiVersion)}|${String(pk.kind)}`)
  }
  return [...kinds]
}

/**
 * Builds the set once from the gathered material, the held objects and `params` (objects of paramKindsOf's
 * kinds the held objects lack); reports the material's problems; reads the previous revision.
 */
export function build(g: Gathered, params: readonly LoadedObject[] = []): { prepared: Prepared; set: PolicySet } {
  const { options, inputs, pass, target, diagnostics, base, buildOptions } = g
  const isMaterial = (o: JSONObject): boolean => isMaterialAt(o, target)
  // the inputs' MutatingAdmissionPolicies the target does not serve are objects admitOne reports not-served,
  // not material (null keeps the indices of the problems and diagnostics)
  const extraSources = new Set(g.extra.map((o) => o.source))
  const buildInput = (objects: readonly LoadedObject[]) =>
    objects.map((o) =>
      materialKind(o.object) !== undefined && !isMaterial(o.object) && !extraSources.has(o.source) ? null : o.object,
    )
  // the set is built from the material, Namespaces (selectors) and params (paramRefs)
  let all = [...base, ...(pass.held ?? []), ...params]
  let set = PolicySet.build(buildInput(all), buildOptions)
  const paramKinds = new Set(
    set.policies.flatMap((h) => {
      const pk = h.policy.spec?.paramKind
      return pk ? [`${pk.apiVersion}|${pk.kind}`] : []
    }),
  )
  const isParam = (o: JSONObject) => paramKinds.has(gvkKey(o))
  if (params.some((o) => !isParam(o.object))) {
    // objects of a kind only a policy the set refused (or left unbound) names: the set as without them
    all = [...base, ...(pass.held ?? []), ...params.filter((o) => isParam(o.object))]
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

  const olds = readOlds(options, inputs.files, g.defaultNamespace, diagnostics)
  // transition rules never run on CREATE: without an old revision they are not checked at all
  if (olds.size === 0) {
    for (const crd of set.crds) {
      let count = 0
      for (const v of crd.versions.values()) {
        for (const r of v.celValidator()?.rules() ?? []) if (r.usesOldSelf && r.rule.optionalOldSelf !== true) count++
      }
      if (count === 0) continue
      const src = all.find(
        (o) =>
          materialKind(o.object) === 'CustomResourceDefinition' &&
          isObject(o.object.metadata) &&
          o.object.metadata.name === crd.name,
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
  // what a worker needs to build the same set: the material, Namespaces, the admission plugins' inputs and param
  // objects (not every object)
  const context = all
    .map((o) => o.object)
    .filter((o) => isMaterial(o) || isNamespace(o) || isAdmissionInput(o) || isParam(o))
  const stream = function* (): Iterable<LoadedObject> {
    for (const item of inputs.read()) if (!isMaterial(item.object)) yield item
  }
  return {
    prepared: {
      context,
      buildOptions,
      ...(pass.held !== undefined ? { toAdmit: pass.held } : { stream }),
      toAdmitCount: pass.objectCount - pass.material.length,
      olds,
      target,
      defaultNamespace: g.defaultNamespace,
      diagnostics,
      pack: g.pack,
      paramKinds: [...paramKinds],
      inputs,
    },
    set,
  }
}

/**
 * Loads the inputs, the material and the old revision, and builds the policy set (once: the params its
 * policies may name are read first when the first pass did not hold the objects).
 */
export function prepare(
  options: CheckOptions,
  given?: Inputs,
  /** The first pass, when it was made already (one-pass.ts). */
  split?: SplitRead,
): { prepared: Prepared; set: PolicySet } {
  const g = gather(options, split, given)
  const params: LoadedObject[] = []
  if (g.pass.held === undefined) {
    const kinds = new Set(paramKindsOf(g).filter((k) => (g.pass.seenKinds.get(k) ?? 0) > 0))
    if (kinds.size > 0)
      for (const item of g.inputs.read())
        if (!isMaterialAt(item.object, g.target) && !isNamespace(item.object) && kinds.has(gvkKey(item.object)))
          params.push(item)
  }
  return build(g, params)
}
