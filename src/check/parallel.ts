import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { KubeVersion } from '../kube/environment.js'
import type { LoadedObject } from '../manifest/load.js'
import { stdinChunks } from '../manifest/stdin-fd.js'
import { pushAll } from '../report/common.js'
import { type Finding, type ObjectResult, type Report, SummaryCounter } from '../report/model.js'
import { admitAll, report } from './admit.js'
import { Excepter } from './exceptions.js'
import { type FirstPass, firstPass, HOLD_BYTES, HOLD_OBJECTS } from './first-pass.js'
import { Inputs } from './inputs.js'
import type { CheckOptions, Keep } from './options.js'
import { build, gather, paramKindsOf } from './prepare.js'
import { check } from './run.js'
import { planShares } from './shares.js'
import type { AdmitMessage, AdmitReply, ReadMessage, ReadReply, WorkerMessage } from './worker.js'

// `kelp check` over the cores. Each thread reads its own share of the inputs (shares.ts: the files as
// one run of bytes cut into equal parts; a big file is read by several threads, each parsing the
// documents that start in its part) and keeps its objects; the main thread gathers the material
// (policies, CRDs, Namespaces, params) the threads found, builds the policy set, and sends the set's
// objects to the workers, which build the same set and admit their own objects. Nothing but material
// and results crosses between threads. Measured in docs/benchmarks.md (bench/check-builtins.js).

/** Input bytes per thread below which a worker costs more than it saves (its start, the set built again). */
export const MIN_BYTES_PER_WORKER = 1 << 20
/** Above this many input bytes a run reads its inputs twice on one thread (bounded memory: HOLD_OBJECTS). */
export const MAX_PARALLEL_BYTES = 256 << 20

/**
 * Cores below which workers compete with the main thread (and the GC) instead of helping: on the
 * 2-core machines of docs/benchmarks.md two threads took longer than one (allocation-heavy work there
 * scales poorly across threads; another process on the second core serializes them).
 */
export const MIN_CORES = 4

/** How many threads to use: `jobs` if given (1 = this thread only), else by the cores and the input size. */
export function threadsFor(bytes: number, jobs?: number): number {
  if (jobs !== undefined && jobs > 0) return jobs
  const cores = availableParallelism()
  if (cores < MIN_CORES) return 1
  return Math.max(1, Math.min(cores, Math.floor(bytes / MIN_BYTES_PER_WORKER)))
}

/** A worker of the bundled command (kelp.cjs in worker mode) or of tsc's build (worker.js). */
function startWorker(): Worker {
  // required here, not imported: node:worker_threads costs ~2.5 ms of every start, one file needs none
  const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads')
  if (import.meta.url.endsWith('.cjs')) {
    // the bundle: kelp.cjs runs check-worker.cjs with the code cache (src/cli/kelp.cts)
    return new Worker(new URL('./kelp.cjs', import.meta.url), { env: { ...process.env, KELP_CHECK_WORKER: '1' } })
  }
  return new Worker(new URL('./worker.js', import.meta.url))
}

/** One request to a worker and its reply; a worker that fails or exits early rejects. */
function ask<T>(w: Worker, message: WorkerMessage): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`check worker exited with ${code}`))
    w.once('message', (r: T) => {
      w.off('error', reject)
      w.off('exit', onExit)
      resolve(r)
    })
    w.once('error', reject)
    w.once('exit', onExit)
    w.postMessage(message)
  })
}

const fileBytes = (file: string): number => {
  try {
    return statSync(file).size
  } catch {
    return 0 // unreadable: the share holding its start says so
  }
}

/**
 * The check, with the inputs read and admitted on `jobs` threads (default: by the cores and the input
 * size; the workers need the built dist/). The report is the one `check` gives, in input order.
 */
export async function checkParallel(
  options: CheckOptions,
  jobs?: number,
  onProgress?: (done: number, total: number | undefined) => void,
  keep: Keep = 'all',
): Promise<Report> {
  const inputs = new Inputs(options.paths, options.stdin)
  let rest = options
  // standard input as a stream, documents as they arrive (a pipe may fill slowly: stdin.ts); a large one is
  // announced as soon as it is (and then not again by gather)
  if (options.stdin === undefined && inputs.files.includes('-')) {
    const { onLargeInput, ...others } = options
    const then = () => {
      rest = others
      onLargeInput?.()
    }
    const large = { bytes: HOLD_BYTES + 1, then }
    if (options.stdinStream !== undefined) await inputs.readStdin(options.stdinStream, { large })
    else await inputs.readStdin(stdinChunks(), { large, reusedChunks: true })
  }
  try {
    return await checkInputs(rest, inputs, jobs, onProgress, keep)
  } finally {
    inputs.dispose()
  }
}

async function checkInputs(
  options: CheckOptions,
  inputs: Inputs,
  jobs: number | undefined,
  onProgress: ((done: number, total: number | undefined) => void) | undefined,
  keep: Keep,
): Promise<Report> {
  const sizes = inputs.files.map((file) => ({ file, bytes: file === '-' ? 0 : fileBytes(file) }))
  const bytes = sizes.reduce((n, f) => n + f.bytes, 0)
  const threads =
    // from the TypeScript sources (tests) there is no worker to start; standard input is read once, here
    import.meta.url.endsWith('.ts') || inputs.files.includes('-') || bytes > MAX_PARALLEL_BYTES
      ? 1
      : threadsFor(bytes, jobs)
  if (threads <= 1) return check(options, keep, inputs, onProgress)
  const target = options.target ?? options.kubeVersion
  const shares = planShares(sizes, threads)
  // the workers start first: their start overlaps this thread's reading
  const workers = shares.slice(1).map(() => startWorker())
  try {
    const hold = Math.ceil((options.holdObjects ?? HOLD_OBJECTS) / threads)
    const reading = workers.map((w, i) =>
      ask<ReadReply>(w, { type: 'read', shares: shares[i + 1] ?? [], target, hold } satisfies ReadMessage),
    )
    const diagnostics: Finding[] = []
    const mine = firstPass(inputs.read(diagnostics, shares[0]), target, hold)
    const theirs = await Promise.all(reading)
    if (mine.held === undefined || theirs.some((r) => !r.held)) {
      // more objects than a run holds: one thread, reading the inputs twice
      for (const w of workers) void w.terminate()
      return checkInputs(options, inputs, 1, onProgress, keep)
    }
    const pass = mergePasses(mine, theirs)
    for (const r of theirs) pushAll(diagnostics, r.diagnostics)
    const gathered = gather(options, { inputs, pass, diagnostics })
    // params among the workers' objects: asked for before the set is built, so that it is built once
    const wanted = paramKindsOf(gathered).filter((k) => theirs.some((r) => r.seenKinds.some(([s]) => s === k)))
    const params: LoadedObject[] =
      wanted.length === 0
        ? []
        : (await Promise.all(workers.map((w) => ask<LoadedObject[]>(w, { type: 'params', kinds: wanted })))).flat()
    const { prepared, set } = build(gathered, params)
    // functions do not cross threads: the worker sets its own (the same) name generator
    const { trusted, checkedCache, generateName: _generator, ...buildOptions } = prepared.buildOptions
    const context = prepared.context
    const admit: AdmitMessage = {
      type: 'admit',
      context,
      trusted:
        typeof trusted === 'function'
          ? context.flatMap((o, i) => (trusted(o) ? [i] : []))
          : trusted === true
            ? context.map((_, i) => i)
            : [],
      buildOptions: trusted === true ? { ...buildOptions, trusted: true } : buildOptions,
      ...(checkedCache !== undefined ? { packChecked: options.kubeVersion as KubeVersion } : {}),
      olds: [...prepared.olds],
      target: prepared.target,
      defaultNamespace: prepared.defaultNamespace,
      keep,
      ...(options.exceptions !== undefined ? { exceptions: options.exceptions } : {}),
    }
    const admitting = workers.map((w) => ask<AdmitReply>(w, admit))
    const total = pass.objectCount - pass.material.length
    const own = admitAll(
      set,
      prepared.toAdmit ?? [],
      prepared.olds,
      prepared.target,
      prepared.defaultNamespace,
      (done) => onProgress?.(Math.min(total, done * threads), total),
      keep,
      undefined,
      options.exceptions === undefined ? undefined : new Excepter(options.exceptions),
    )
    const results: ObjectResult[] = own.results
    for (const r of await Promise.all(admitting)) {
      for (const o of r.results) results.push(o)
      own.counter.merge(SummaryCounter.revive(r.counter))
    }
    return report(prepared, { results, counter: own.counter }, options.exceptions)
  } finally {
    for (const w of workers) void w.terminate()
  }
}

/** The threads' first passes as one, in input order; this thread's objects are the ones held. */
function mergePasses(mine: FirstPass, theirs: readonly ReadReply[]): FirstPass {
  const seenKinds = new Map(mine.seenKinds)
  for (const r of theirs) for (const [k, n] of r.seenKinds) seenKinds.set(k, (seenKinds.get(k) ?? 0) + n)
  return {
    material: [...mine.material, ...theirs.flatMap((r) => r.material)],
    namespaces: [...mine.namespaces, ...theirs.flatMap((r) => r.namespaces)],
    held: mine.held,
    seenKinds,
    objectCount: theirs.reduce((n, r) => n + r.objectCount, mine.objectCount),
    notServedPolicies: mine.notServedPolicies || theirs.some((r) => r.notServedPolicies),
    generateNamed: {
      count: theirs.reduce((n, r) => n + r.generateNamed.count, mine.generateNamed.count),
      first:
        mine.generateNamed.first ?? theirs.find((r) => r.generateNamed.first !== null)?.generateNamed.first ?? null,
    },
  }
}
