import { withoutGeneratedCode } from '../cel/program.js'
import type { PolicySet } from '../engine/policy-set.js'
import type { JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/load.js'
import type { Finding, ObjectResult, Report } from '../report/model.js'
import { SummaryCounter } from '../report/model.js'
import { VERSION } from '../report/version.js'
import { admitOne } from './admit-one.js'
import { type Excepter, type Exceptions, exceptionNotes } from './exceptions.js'
import { PLUGIN_NOT_RUN } from './findings.js'
import { identity } from './olds.js'
import type { Keep } from './options.js'
import { placeFindings } from './positions.js'
import type { Prepared } from './prepare.js'

// Every object admitted as kubectl apply would send it (CREATE, or UPDATE when the previous revision has it)
// against a built set (admit-one.ts), and the report: the engine decides (src/engine/apply.ts), findings.ts words
// its answers.

/**
 * Objects from which a run's CEL programs generate JavaScript once hot (program.ts); a run of fewer stays on
 * the closure evaluator (withoutGeneratedCode). A program is evaluated about once an object, and generating
 * and optimizing it costs V8 a fixed amount: with the bundled pack on bench/cold.js's Deployments, closures
 * alone took 0.83× the CPU at 2,000 objects, the same at 10,000 and 1.15× at 30,000 (docs/benchmarks.md).
 * A run of unknown length (one-pass.ts) admits its first GENERATE_FROM_OBJECTS objects on closures, as
 * `kelp audit` does.
 */
export const GENERATE_FROM_OBJECTS = 10_000

/** Admits a run of objects against a built set, keeping the results `keep` says. */
export function admitAll(
  set: PolicySet,
  objects: Iterable<LoadedObject>,
  olds: ReadonlyMap<string, JSONObject>,
  target: string,
  defaultNamespace: string,
  /** `total` undefined: the number of objects is not known yet. */
  onProgress?: (done: number, total: number | undefined) => void,
  keep: Keep = 'all',
  total?: number,
  except?: Excepter,
): Admitted {
  // the count when known (the first pass's, or this thread's share); else the first objects on closures
  const count = total ?? (Array.isArray(objects) ? objects.length : undefined)
  const results: ObjectResult[] = []
  const counter = new SummaryCounter()
  let done = 0
  const admitNext = (o: LoadedObject): void => {
    const id = olds.size === 0 ? undefined : identity(o.object, defaultNamespace)
    const old = id === undefined ? undefined : olds.get(id)
    const admitted = admitOne(set, o, old, target, defaultNamespace, keep === 'stored')
    // exceptions (exceptions.ts): excepted findings move to `excepted`, still reported
    const r = except === undefined ? admitted : except.apply(admitted, o.object)
    counter.add(r)
    if (keep !== 'findings' || r.findings.length > 0 || r.excepted !== undefined) results.push(r)
    done++
    if (onProgress !== undefined && (done & 63) === 0) onProgress(done, count)
  }
  const admit = (): void => {
    for (const o of objects) {
      if (count === undefined && done < GENERATE_FROM_OBJECTS) withoutGeneratedCode(() => admitNext(o))
      else admitNext(o)
    }
  }
  if (count !== undefined && count < GENERATE_FROM_OBJECTS) withoutGeneratedCode(admit)
  else admit()
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
