import { readFileSync } from 'node:fs'
import { instantiateMaterial } from '../engine/material-variables.js'
import { materialKind, materialProblems, PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { expandPaths, parseManifests } from '../manifest/load.js'
import type { Logger } from '../report/log.js'
import type { WebhookMetrics } from './metrics.js'
import { fingerprintOf, type ReloadResult } from './watch.js'

// The policies `kelp serve` answers with: the policy paths read, parsed and built into /validate's and
// /mutate's sets, in slices between requests, and swapped in with one assignment once built (each
// request sees one whole set); a set that does not load is logged and counted, and the last good set keeps
// serving. The apiserver's counterpart keeps its policies the same way: k8s.io/apiserver
// pkg/admission/plugin/policy/generic/policy_source.go (refreshPolicies: the compiled set swapped whole).

type PolicyLoad = { ok: true; set: PolicySet; objects: number } | { ok: false; errors: string[] }

/** The policy files as read: their texts, read errors, and a fingerprint of both. */
export interface PolicyFiles {
  readonly texts: readonly { readonly file: string; readonly text: string }[]
  readonly errors: readonly string[]
  readonly fingerprint: string
}

/** Reads the policy paths (files, directories walked as `kelp check` walks them). */
export function readPolicyFiles(paths: readonly string[]): PolicyFiles {
  const { files, errors: pathErrors } = expandPaths(paths.filter((p) => p !== '-'))
  const errors = pathErrors.map((f) => f.message)
  if (paths.includes('-')) errors.push('stdin (-) cannot be served: name files or directories')
  const texts: { file: string; text: string }[] = []
  for (const file of files) {
    try {
      texts.push({ file, text: readFileSync(file, 'utf8') })
    } catch (e) {
      errors.push(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
    }
  }
  return { texts, errors, fingerprint: fingerprintOf([...texts.flatMap((t) => [t.file, t.text]), ...errors]) }
}

type Parsed = { ok: true; objects: Record<string, unknown>[] } | { ok: false; errors: string[] }

/** The policy files parsed, pausing after each file (where the build in slices gives the event loop a turn). */
function* parseFiles(read: PolicyFiles): Generator<void, Parsed> {
  const errors = [...read.errors]
  const objects: Record<string, unknown>[] = []
  for (const { file, text } of read.texts) {
    const r = parseManifests(text, file)
    objects.push(...r.objects.map((o) => o.object))
    for (const f of r.errors) {
      const at = f.source?.line !== undefined ? `:${f.source.line}:${f.source.column ?? 1}` : ''
      errors.push(`${f.source?.file ?? file}${at}: ${f.message}`)
    }
    yield
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, objects }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** The policy files parsed, one file per turn of the event loop. */
async function parseInSlices(read: PolicyFiles): Promise<Parsed> {
  const parsing = parseFiles(read)
  for (let step = parsing.next(); ; step = parsing.next()) {
    if (step.done) return step.value
    await turn()
  }
}

const problemText = (p: { kind: string; name: string; message: string }) => `${p.kind} ${p.name}: ${p.message}`

/** One policy document's problems (its validation reads nothing else), as the engine states them. */
function documentProblems(o: Record<string, unknown>, options: PolicySetOptions): string[] {
  return materialProblems(o, options).map(problemText)
}

/** The release whose variables the pack's policies get (kelp.dev/ annotations, as kelp check sets them). */
const releaseOf = (options: PolicySetOptions): string => options.release ?? options.version ?? DEFAULT_KUBE_VERSION

/** Builds a policy set from files read; any read or parse error, or an object refused, makes it broken. */
export function buildPolicySet(read: PolicyFiles, options: PolicySetOptions = {}): PolicyLoad {
  const parsing = parseFiles(read)
  let step = parsing.next()
  while (!step.done) step = parsing.next()
  const parsed = step.value
  if (!parsed.ok) return parsed
  const objects = parsed.objects
  let set: PolicySet
  try {
    set = PolicySet.build(instantiateMaterial(objects, releaseOf(options)), options)
  } catch (e) {
    return { ok: false, errors: [`building the policy set failed: ${(e as Error).message}`] }
  }
  if (set.problems.length > 0) return { ok: false, errors: set.problems.map(problemText) }
  return { ok: true, set, objects: objects.length }
}

/**
 * buildPolicySet in slices, each in its own turn of the event loop, so that requests are answered
 * with the serving set in between (a whole build of the bundled pack takes 55-150 ms on the bench
 * machine, and the first requests after it as much again to compile the policies): each file
 * parsed, each ValidatingAdmissionPolicy validated on its own (its validation reads nothing else),
 * the set built with those trusted (the rest, bindings and CRDs, validated there as usual), then
 * each policy's expressions compiled. The outcome is buildPolicySet's.
 */
export async function buildPolicySetInSlices(read: PolicyFiles, options: PolicySetOptions = {}): Promise<PolicyLoad> {
  const parsed = await parseInSlices(read)
  if (!parsed.ok) return parsed
  return buildObjectsInSlices(parsed.objects, options)
}

async function buildObjectsInSlices(given: Record<string, unknown>[], options: PolicySetOptions): Promise<PolicyLoad> {
  // the bundled pack (or copies of it) instantiated for the release, as kelp check does
  const objects = instantiateMaterial(given, releaseOf(options))
  const errors: string[] = []
  const validated = new Set<object>()
  try {
    for (const o of objects) {
      if (materialKind(o) !== 'ValidatingAdmissionPolicy') continue
      errors.push(...documentProblems(o, options))
      validated.add(o)
      await turn()
    }
    if (errors.length > 0) return { ok: false, errors }
    const given = options.trusted
    const trusted = (o: object) => validated.has(o) || given === true || (typeof given === 'function' && given(o))
    const set = PolicySet.build(objects, { ...options, trusted })
    if (set.problems.length > 0) return { ok: false, errors: set.problems.map(problemText) }
    for (const hook of set.policies) {
      void hook.validator.shared // compiles the policy now, not in the first request it sees
      await turn()
    }
    return { ok: true, set, objects: objects.length }
  } catch (e) {
    return { ok: false, errors: [`building the policy set failed: ${(e as Error).message}`] }
  }
}

const isMutatingMaterial = (o: object) => {
  const k = materialKind(o)
  return k === 'MutatingAdmissionPolicy' || k === 'MutatingAdmissionPolicyBinding'
}
const isValidatingMaterial = (o: object) => {
  const k = materialKind(o)
  return k === 'ValidatingAdmissionPolicy' || k === 'ValidatingAdmissionPolicyBinding'
}

/** The two sets `kelp serve` answers with: /validate's and /mutate's. */
export type ServingLoad =
  | {
      ok: true
      set: PolicySet
      mutating: PolicySet
      objects: number
      mutatingPolicies: number
      /** The names of /mutate's bound MutatingAdmissionPolicies and of its bindings (metric series). */
      mutatingNames: { policies: string[]; bindings: string[] }
    }
  | { ok: false; errors: string[] }

/**
 * The sets of `kelp serve`, in slices: /validate's from every object but the MutatingAdmissionPolicies
 * and their bindings (the apiserver calls the mutating webhooks first and sends /validate the mutated
 * object: mutating it again would judge an object the cluster does not store), /mutate's from every
 * object but the ValidatingAdmissionPolicies and their bindings (CRDs, params and Namespaces in both).
 * Without mutating policies /mutate's set is empty: it answers every review allowed, with no patch.
 * A problem in either set fails the load (each text once).
 */
export async function buildServingSets(read: PolicyFiles, options: PolicySetOptions = {}): Promise<ServingLoad> {
  const parsed = await parseInSlices(read)
  if (!parsed.ok) return parsed
  const objects = parsed.objects
  const validating = await buildObjectsInSlices(
    objects.filter((o) => !isMutatingMaterial(o)),
    options,
  )
  const mutatingObjects = objects.filter((o) => !isValidatingMaterial(o))
  const hasMutating = mutatingObjects.some(isMutatingMaterial)
  const mutating = hasMutating ? await buildObjectsInSlices(mutatingObjects, options) : undefined
  const errors = [
    ...new Set([
      ...(validating.ok ? [] : validating.errors),
      ...(mutating === undefined || mutating.ok ? [] : mutating.errors),
    ]),
  ]
  if (errors.length > 0 || !validating.ok || (mutating !== undefined && !mutating.ok)) return { ok: false, errors }
  const nameOf = (o: object) => String((o as { metadata?: { name?: unknown } }).metadata?.name ?? '')
  const bindings = mutatingObjects.filter((o) => materialKind(o) === 'MutatingAdmissionPolicyBinding')
  const bound = new Set(bindings.map((o) => String((o as { spec?: { policyName?: unknown } }).spec?.policyName ?? '')))
  const boundPolicies = mutatingObjects
    .filter((o) => materialKind(o) === 'MutatingAdmissionPolicy' && bound.has(nameOf(o)))
    .map(nameOf)
  return {
    ok: true,
    set: validating.set,
    mutating: mutating?.set ?? PolicySet.build([], options),
    objects: objects.length,
    mutatingPolicies: boundPolicies.length,
    mutatingNames: { policies: boundPolicies, bindings: bindings.map(nameOf) },
  }
}

/** The serving sets and what swaps them. */
export interface PolicyReloader {
  /** /validate's set (undefined until one loaded). */
  readonly validating: PolicySet | undefined
  /** /mutate's set, swapped with `validating`. */
  readonly mutating: PolicySet | undefined
  /** The policy files the serving sets were built from, and how: what the deep lane builds its sets from. */
  readonly serving: { readonly read: PolicyFiles; readonly options: PolicySetOptions } | undefined
  /** Reloads now, after any reload under way, in slices (`force`: even when the files did not change). */
  reload(force?: boolean): Promise<ReloadResult>
}

export interface PolicyReloaderOptions {
  readonly policies: readonly string[]
  readonly policySetOptions?: PolicySetOptions
  readonly metrics: WebhookMetrics
  readonly log: Logger
}

export function createPolicyReloader({
  policies,
  policySetOptions,
  metrics,
  log,
}: PolicyReloaderOptions): PolicyReloader {
  let policyFingerprint: string | undefined
  const sets: {
    validating: PolicySet | undefined
    mutating: PolicySet | undefined
    serving: PolicyReloader['serving']
  } = { validating: undefined, mutating: undefined, serving: undefined }
  const reloadNow = async (force: boolean): Promise<ReloadResult> => {
    const started = performance.now()
    const read = readPolicyFiles(policies)
    if (!force && read.fingerprint === policyFingerprint) return { target: 'policies', outcome: 'unchanged' }
    policyFingerprint = read.fingerprint
    // builtins off: kube-apiserver decodes, defaults, names and validates (the strategy's, in the
    // store's BeforeCreate / BeforeUpdate) the object before it calls a validating webhook, so the
    // review's object is taken as it is (decoding it again cost ~16 µs per review and changed nothing)
    // (the mutating webhooks are called before that: MutatingAdmissionPolicies run on the object as
    // the apiserver decoded and defaulted it; their ApplyConfiguration schemas are the release's
    // built-in ones, which do not depend on `builtins`)
    // every version of the material read: /mutate exists for clusters that do not serve MutatingAdmissionPolicies
    const setOptions: PolicySetOptions = { builtins: false, materialVersions: 'any', ...policySetOptions }
    const r = await buildServingSets(read, setOptions)
    if (!r.ok) {
      metrics.observeReload('policies', false)
      log.error(
        sets.validating === undefined
          ? 'policy set not loaded: nothing is served until the policies load'
          : 'policy set not loaded: the last good set keeps serving',
        { paths: policies, errors: r.errors },
      )
      return { target: 'policies', outcome: 'failed', errors: r.errors }
    }
    sets.validating = r.set // the swap: a batch reads the set (and the mutating one) once
    sets.mutating = r.mutating
    sets.serving = { read, options: setOptions }
    metrics.observeReload('policies', true)
    metrics.setPoliciesLoaded(r.set.policies.length)
    metrics.setMutatingPoliciesLoaded(r.mutatingPolicies)
    // the series of policies, CRDs and bindings no longer loaded are dropped
    metrics.retainLoaded({
      policies: r.set.policies.map((h) => h.policy.metadata?.name ?? ''),
      crds: [...r.set.crds, ...r.mutating.crds].map((c) => c.name),
      mutatingPolicies: r.mutatingNames.policies,
      mutatingBindings: r.mutatingNames.bindings,
    })
    log.info('policy set loaded', {
      paths: policies,
      objects: r.objects,
      policies: r.set.policies.length,
      mutatingPolicies: r.mutatingPolicies,
      crds: [...r.set.crds].length,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
    return { target: 'policies', outcome: 'loaded' }
  }
  // one at a time, in slices: the serving set answers until the swap
  let reloads: Promise<ReloadResult> = Promise.resolve({ target: 'policies', outcome: 'unchanged' })
  return {
    get validating() {
      return sets.validating
    },
    get mutating() {
      return sets.mutating
    },
    get serving() {
      return sets.serving
    },
    reload(force = false) {
      reloads = reloads.then(() => reloadNow(force))
      return reloads
    },
  }
}
