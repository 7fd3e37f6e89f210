import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import type { ObjectResult, Report } from '../report/model.js'
import { admitAll, type CheckOptions, type Keep, type Prepared, prepare, report } from './check.js'
import type { WorkerInput } from './check-worker.js'
import type { LoadedObject } from './load.js'

// `kelp check` over the cores. Admission can be spread over worker threads; each worker builds its own
// policy set and runs its share cold (JIT warm-up), so it pays only with cores to spare and many
// objects: measured on 2 cores, 5,000 Deployments took 2.3 s on one thread and 3.1 s on two
// (docs/benchmarks.md). By default workers start only with 4+ cores and 2,000+ objects per thread;
// `--jobs` decides otherwise. Loading stays on the main thread.

/** Objects per thread below which a worker costs more than it saves. */
export const MIN_OBJECTS_PER_WORKER = 2000
/** Cores below which workers compete with the main thread (and the GC) instead of helping. */
export const MIN_CORES = 4

/** How many threads to use: `jobs` if given (1 = this thread only), else by the cores and the input size. */
export function threadsFor(objects: number, jobs?: number): number {
  if (jobs !== undefined && jobs > 0) return Math.min(jobs, Math.max(1, objects))
  const cores = availableParallelism()
  if (cores < MIN_CORES) return 1
  return Math.max(1, Math.min(cores, Math.floor(objects / MIN_OBJECTS_PER_WORKER)))
}

function runWorker(prepared: Prepared, objects: readonly LoadedObject[], stored: boolean): Promise<ObjectResult[]> {
  // a predicate cannot cross to a worker: there the material is validated (the answers are the same);
  // nor can the checked-AST cache (a worker parses and checks the pack itself)
  const { trusted, checkedCache: _, ...rest } = prepared.buildOptions
  const input: WorkerInput = {
    context: prepared.context,
    buildOptions: typeof trusted === 'boolean' ? { ...rest, trusted } : rest,
    objects,
    olds: [...prepared.olds],
    target: prepared.target,
    defaultNamespace: prepared.defaultNamespace,
    stored,
  }
  return new Promise((resolve, reject) => {
    // the bundled command runs the bundle's worker (scripts/bundle-cli.js), tsc's build its own
    const file = import.meta.url.endsWith('.cjs') ? './check-worker.cjs' : './check-worker.js'
    // required here, not imported: node:worker_threads costs ~2.5 ms of every start, one file needs none
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads')
    const w = new Worker(new URL(file, import.meta.url), { workerData: input })
    w.once('message', (r: ObjectResult[]) => resolve(r))
    w.once('error', reject)
    w.once('exit', (code) => {
      if (code !== 0) reject(new Error(`check worker exited with ${code}`))
    })
  })
}

/**
 * The check, with admission spread over `threads` threads (the workers need the built dist/). Inputs
 * too large to hold are admitted on this thread as they are read again. `keep: 'findings'` keeps only
 * the results with findings (the formats that show no others).
 */
export async function checkParallel(
  options: CheckOptions,
  jobs?: number,
  onProgress?: (done: number, total: number) => void,
  keep: Keep = 'all',
): Promise<Report> {
  const { prepared, set } = prepare(options)
  const { toAdmit, olds, target, defaultNamespace } = prepared
  if (toAdmit === undefined)
    return report(prepared, admitAll(set, prepared.stream?.() ?? [], olds, target, defaultNamespace, onProgress, keep))
  // workers run the compiled JavaScript; from the TypeScript sources (tests) everything stays here
  const threads = !import.meta.url.endsWith('.ts') ? threadsFor(toAdmit.length, jobs) : 1
  if (threads <= 1)
    return report(prepared, admitAll(set, toAdmit, olds, target, defaultNamespace, onProgress, keep, toAdmit.length))
  const size = Math.ceil(toAdmit.length / threads)
  const chunks = Array.from({ length: threads }, (_, i) => toAdmit.slice(i * size, (i + 1) * size))
  const [mine, ...theirs] = chunks
  const pending = theirs.map((c) => runWorker(prepared, c, keep === 'stored'))
  const own = admitAll(
    set,
    mine ?? [],
    olds,
    target,
    defaultNamespace,
    (done) => onProgress?.(done * threads, toAdmit.length),
    keep,
  )
  for (const results of await Promise.all(pending)) {
    for (const r of results) {
      own.counter.add(r)
      if (keep !== 'findings' || r.findings.length > 0) own.results.push(r)
    }
  }
  return report(prepared, own)
}
