import { createRequire } from 'node:module'
import type { Worker } from 'node:worker_threads'
import type { PolicySetOptions } from '../engine/policy-set.js'
import { errorResponse } from './handler.js'
import type { PolicyFiles } from './reload.js'

// The deep lane of `kelp serve`: AdmissionReviews whose JSON nests past DEEP_NESTING are answered on a
// worker thread with a large stack. kube-apiserver decodes objects up to Go's encoding/json limit of
// 10,000 nested levels (sigs.k8s.io/json, maxNestingDepth) and sends them to webhooks as they are;
// kelp's walks over an object (pruning, defaulting, CEL values and equality, the structured merge, the
// patch diff, JSON.stringify itself) recurse once or more per level, and node's main thread has
// ~1 MB of stack: about 2,000 levels overflow it (a 500, or a CEL "max recursion depth" error that
// denies). Node gives a worker thread whatever stack it is asked for (resourceLimits.stackSizeMb), so
// the rare deep review is answered there, on the same policy files built with the same options, and
// no recursion limit is met below the apiserver's own. Ordinary reviews never leave the main thread.

/** Nesting past which a review goes to the deep lane: ~100× a real object's, ~10× below an overflow. */
export const DEEP_NESTING = 200
/**
 * The deepest review the apiserver can send: an object of at most 10,000 levels (Go's encoding/json
 * maxNestingDepth, which sigs.k8s.io/json keeps: deeper bodies are refused with "exceeded max depth")
 * inside the review's `request` and the review itself. Deeper comes from no apiserver: refused (400).
 */
export const MAX_REVIEW_NESTING = 10_002
/** The worker's stack: 10,000 levels need ~20 MB on kelp's deepest path (measured); room to spare. */
const STACK_MB = 256

/**
 * What the worker is asked: a review answered with the sets of the policy files `fingerprint` names. The files
 * and options come with the first review of each fingerprint only (the worker builds the sets once from them).
 */
export interface DeepRequest {
  readonly id: number
  readonly fingerprint: string
  readonly files?: { readonly read: PolicyFiles; readonly options: PolicySetOptions }
  readonly mutate: boolean
  readonly body: Uint8Array
}
/** Its answer: the body already serialised (structured clone and JSON.stringify recurse per level too). */
export interface DeepReply {
  readonly id: number
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

/** An answer with its body as text: the server writes it as it is. */
export type DeepAnswer = Omit<DeepReply, 'id'>

export interface DeepLane {
  /** The review answered on the worker, or a 500 when the lane cannot answer (the webhook's failurePolicy decides). */
  answer(read: PolicyFiles, options: PolicySetOptions, body: Uint8Array, mutate: boolean): Promise<DeepAnswer>
  close(): Promise<void>
}

/** The worker's file: beside this module in tsc's build and the bundle; tests (TypeScript sources) use dist/. */
function workerURL(): URL {
  const here = import.meta.url
  if (here.endsWith('.cjs')) return new URL('./webhook-deep-worker.cjs', here)
  if (here.endsWith('.ts')) return new URL('../../dist/webhook/deep-worker.js', here)
  return new URL('./deep-worker.js', here)
}

/** A 500 (the webhook's failurePolicy decides), as the handler words an engine failure. */
function failure(message: string): DeepAnswer {
  const r = errorResponse(500, message)
  return { status: r.status, headers: r.headers ?? {}, body: JSON.stringify(r.body) }
}

/** A lane started on its first deep review; one worker, its reviews answered in order. */
export function createDeepLane(onError: (e: unknown) => void = () => {}): DeepLane {
  let worker: Worker | undefined
  /** The fingerprint of the policy files the worker was sent. */
  let sent: string | undefined
  let next = 0
  const pending = new Map<number, (r: DeepAnswer) => void>()
  const failAll = (message: string) => {
    for (const resolve of pending.values()) resolve(failure(message))
    pending.clear()
  }
  const start = (): Worker => {
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads')
    sent = undefined // a new thread has no sets yet
    const w = new Worker(workerURL(), { resourceLimits: { stackSizeMb: STACK_MB } })
    w.unref()
    w.on('message', (m: DeepReply) => {
      const resolve = pending.get(m.id)
      pending.delete(m.id)
      resolve?.(m)
    })
    w.on('error', (e) => {
      onError(e)
      failAll(`internal error evaluating the request: ${e.message}`)
    })
    w.on('exit', () => {
      if (worker === w) worker = undefined
      failAll('internal error evaluating the request: the deep-review worker exited')
    })
    return w
  }
  return {
    answer(read, options, body, mutate) {
      worker ??= start()
      const w = worker
      const id = next++
      const files = sent === read.fingerprint ? undefined : { read, options }
      const message: DeepRequest = { id, fingerprint: read.fingerprint, ...(files ? { files } : {}), mutate, body }
      return new Promise((resolve) => {
        pending.set(id, resolve)
        try {
          w.postMessage(message)
        } catch {
          // options holding functions (a library caller's authorizer) cannot cross to a thread
          pending.delete(id)
          resolve(failure('a review nested this deep needs policy set options that can be sent to a worker thread'))
          return
        }
        sent = read.fingerprint
      })
    },
    async close() {
      const w = worker
      worker = undefined
      if (w !== undefined) await w.terminate()
    },
  }
}
