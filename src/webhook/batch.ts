import type { OutgoingHttpHeaders } from 'node:http'
import type { Logger } from '../report/log.js'
import { BATCH_COST, type BodyReader } from './body.js'
import { DEEP_NESTING, type DeepLane, MAX_REVIEW_NESTING } from './deep.js'
import { type AdmissionHandler, errorResponse, type HandlerResponse } from './handler.js'
import type { PolicyReloader } from './reload.js'
import type { Request, Responder } from './request.js'

// The AdmissionReviews read, answered: in batches on the main thread (handler.handleAll), or one by one
// on the deep lane (deep.ts) when nested past DEEP_NESTING. controller-runtime's
// pkg/webhook/admission/webhook.go (Webhook.Handle, one review at a time there).

/** The most AdmissionReviews answered together (see `flush`). */
const MAX_BATCH = 32

export interface ReviewBatchesOptions {
  /** /validate's handler and /mutate's. */
  readonly handler: AdmissionHandler
  readonly mutateHandler: AdmissionHandler
  readonly bodies: BodyReader
  readonly respond: Responder
  readonly deepLane: DeepLane
  /** The policy files the serving sets were built from (the deep lane builds the same). */
  readonly serving: () => PolicyReloader['serving']
  readonly log: Logger
}

export interface ReviewBatches {
  /** Whether reviews wait for their batch. */
  waiting(): boolean
  /** A review read: answered with its batch, or on the deep lane. */
  accept(req: Request): void
}

export function createReviewBatches(options: ReviewBatchesOptions): ReviewBatches {
  const { handler, mutateHandler, bodies, respond, deepLane, log } = options
  // AdmissionReviews are answered in batches: those that arrived in one turn of the event loop (one
  // poll of the sockets) are answered together just after it, stage by stage (handler.handleAll).
  // Each stage's code then stays in the CPU's caches (docs/benchmarks.md); a lone request waits
  // for nothing but its own turn.
  let batch: Request[] = []
  const flush = () => {
    let requests = batch
    // bounded in number, so that the first answers of a large batch do not wait for all of it, and in
    // parsed cost (every body of a batch is parsed before any is admitted): a costly body goes alone
    let take = 0
    let cost = 0
    while (take < requests.length && take < MAX_BATCH) {
      const c = (requests[take] as Request).cost
      if (take > 0 && cost + c > BATCH_COST) break
      cost += c
      take++
    }
    bodies.settle(cost)
    if (take < requests.length) {
      batch = requests.slice(take)
      requests = requests.slice(0, take)
      setImmediate(flush)
    } else batch = []
    let answers: HandlerResponse[]
    try {
      answers = answerAll(requests)
    } catch (e) {
      log.error('internal error handling AdmissionReviews', { error: e })
      answers = requests.map(() => errorResponse(500, 'internal error'))
    }
    // each answer on its own: one that fails to be written does not leave the rest unanswered
    for (let i = 0; i < requests.length; i++) {
      const req = requests[i] as Request
      req.body = undefined
      bodies.release(req)
      if (req.answered) continue
      try {
        respond.reply(req, answers[i] as HandlerResponse)
      } catch (e) {
        respond.writeFailed(req, e)
      }
    }
  }
  /**
   * A review nested past DEEP_NESTING goes to the deep lane (deep.ts) and is answered when it answers;
   * the rest stay in the batch. The lane builds the serving set's files, so it answers as the serving set would.
   */
  const shallow = (req: Request): boolean => {
    const body = req.body as Buffer
    const serving = options.serving()
    if (serving === undefined) return true
    const nesting = req.nesting
    if (nesting <= DEEP_NESTING) return true
    if (nesting > MAX_REVIEW_NESTING) {
      req.body = undefined
      bodies.settle(req.cost)
      bodies.release(req)
      const message = `request body nests more than ${MAX_REVIEW_NESTING} levels: kube-apiserver decodes objects of at most 10000`
      respond.reply(req, errorResponse(400, message))
      return false
    }
    const done = (a: { status: number; headers: OutgoingHttpHeaders; body: string }) => {
      bodies.settle(req.cost)
      bodies.release(req)
      if (req.answered) return
      try {
        respond.write(req, a.status, a.headers, a.body)
      } catch (e) {
        respond.writeFailed(req, e)
      }
    }
    req.body = undefined
    deepLane.answer(serving.read, serving.options, body, req.mutate).then(done, (e: unknown) => {
      log.error('internal error handling a deep AdmissionReview', { error: e })
      done({ status: 500, headers: {}, body: JSON.stringify(errorResponse(500, 'internal error').body) })
    })
    return false
  }
  /** The batch's /validate reviews through one handleAll, its /mutate ones through the other, in order. */
  const answerAll = (requests: readonly Request[]): HandlerResponse[] => {
    let mutating = 0
    for (const r of requests) if (r.mutate) mutating++
    if (mutating === 0) return handler.handleAll(requests.map((r) => r.body))
    if (mutating === requests.length) return mutateHandler.handleAll(requests.map((r) => r.body))
    const v = handler.handleAll(requests.filter((r) => !r.mutate).map((r) => r.body))
    const m = mutateHandler.handleAll(requests.filter((r) => r.mutate).map((r) => r.body))
    let iv = 0
    let im = 0
    return requests.map((r) => (r.mutate ? m[im++] : v[iv++]) as HandlerResponse)
  }
  return {
    waiting: () => batch.length > 0,
    accept(req) {
      if (!shallow(req)) return
      if (batch.length === 0) setImmediate(flush)
      batch.push(req)
    },
  }
}
