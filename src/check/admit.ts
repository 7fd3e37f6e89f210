import { kubectlApply, storedOnCreateOf, storedOnUpdateOf } from '../engine/apply.js'
import { applySizeRefusal } from '../engine/apply-sizes.js'
import { metadataDecoded } from '../engine/kubectl.js'
import type { PolicySet } from '../engine/policy-set.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/load.js'
import { forbiddenStatus } from '../policy/generic/status.js'
import { type Finding, type ObjectResult, outcomeOf, type Report, SummaryCounter } from '../report/model.js'
import { VERSION } from '../report/version.js'
import { Excepter, type Exceptions, exceptionNotes } from './exceptions.js'
import { apiLifecycleFindings, findingsOf, kubectlAnswer, oldRefusal, PLUGIN_NOT_RUN, sizeAnswer } from './findings.js'
import { identity } from './olds.js'
import type { CheckOptions, Keep } from './options.js'
import { placeFindings } from './positions.js'
import { type Prepared, prepare } from './prepare.js'

// Every object admitted as kubectl apply would send it (CREATE, or UPDATE when the previous revision has it)
// against a built set, and the report: the engine decides (src/engine/apply.ts), findings.ts words its answers.

/** The outcomes of the requests a cluster accepts (and stores the object of). */
const ACCEPTED: ReadonlySet<string> = new Set(['allowed', 'warned', 'audited', 'unchanged'])

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
  except?: Excepter,
): Admitted {
  const results: ObjectResult[] = []
  const counter = new SummaryCounter()
  let done = 0
  for (const o of objects) {
    const admitted = admitOne(set, o, olds, target, defaultNamespace, keep === 'stored')
    // exceptions (exceptions.ts): excepted findings move to `excepted`, still reported
    const r = except === undefined ? admitted : except.apply(admitted, o.object)
    counter.add(r)
    if (keep !== 'findings' || r.findings.length > 0 || r.excepted !== undefined) results.push(r)
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

/**
 * The report of admitted objects, findings that name a field placed at its line (positions.ts); the notes on
 * the run's exceptions (expired, unused).
 */
export function report(prepared: Prepared, admitted: Admitted, exceptions?: Exceptions): Report {
  const notes = notRunNotes(admitted.results)
  const diagnostics = notes.length === 0 ? prepared.diagnostics : [...prepared.diagnostics, ...notes]
  const made: Report = {
    schemaVersion: 1,
    kelpVersion: VERSION,
    kubeVersion: prepared.target,
    pack: prepared.pack,
    objects: admitted.results,
    diagnostics,
    summary: admitted.counter.summary(diagnostics),
  }
  const inputs = prepared.inputs
  return placeFindings(exceptionNotes(made, exceptions), (file) =>
    inputs !== undefined ? inputs.textOf(file) : { path: file },
  )
}

/**
 * An in-tree admission plugin that did not run for lack of input is said once per run, as a note of the run
 * (a diagnostic without source), not on each object it met: the results are in input order, on one thread or
 * several, and the first object's words are kept.
 */
function notRunNotes(results: readonly ObjectResult[]): Finding[] {
  const notes = new Map<string, Finding>()
  for (const r of results) {
    if (!r.findings.some((f) => f.rule.startsWith(PLUGIN_NOT_RUN))) continue
    const kept: Finding[] = []
    for (const f of r.findings) {
      if (!f.rule.startsWith(PLUGIN_NOT_RUN)) kept.push(f)
      else if (!notes.has(f.rule)) notes.set(f.rule, { level: f.level, type: f.type, rule: f.rule, message: f.message })
    }
    ;(r as { findings: readonly Finding[] }).findings = kept
  }
  return [...notes.values()]
}

/** Runs the check on this thread and returns the report (the caller formats it and picks the exit code). */
export function check(options: CheckOptions, keep: Keep = 'all'): Report {
  const { prepared, set } = prepare(options)
  const objects = prepared.toAdmit ?? prepared.stream?.() ?? []
  const except = options.exceptions === undefined ? undefined : new Excepter(options.exceptions)
  return report(
    prepared,
    admitAll(
      set,
      objects,
      prepared.olds,
      prepared.target,
      prepared.defaultNamespace,
      undefined,
      keep,
      undefined,
      except,
    ),
    options.exceptions,
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
  const m = isObject(o.metadata) ? o.metadata : {}
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

  // the API lifecycle at the target: a version it does not serve is refused, a deprecated one warned of
  const lifecycle = apiLifecycleFindings(apiVersion, kind, kubeVersion)
  if (lifecycle.refusal !== undefined) {
    findings.push(at(lifecycle.refusal))
  } else {
    if (lifecycle.warning !== undefined) findings.push(at(lifecycle.warning))
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
    // what kubectl refuses before sending, in its words (src/engine/kubectl.ts)
    const answered = kubectlAnswer(own, o, source.file, metadataDecoded(answer.builtin))
    // a refusal of kubectl's own: nothing was sent, so no warning came back either
    const refused = answered.length === 1 && answered[0]!.rule === 'kubectl/refused'
    if (refused) findings.length = 0
    // what kubectl sends may be over the apiserver's limits (src/engine/apply-sizes.ts)
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
