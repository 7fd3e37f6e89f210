import type { Logger } from '../report/log.js'
import { errorResponse, type HandlerResponse } from './handler.js'
import { type JSONShape, jsonShape } from './json.js'
import type { RefusalReason, WebhookMetrics } from './metrics.js'
import type { Request, Responder } from './request.js'

// Request bodies of `kelp serve`: read into memory within a byte limit (413) and an overall budget for
// bodies in memory (503), then costed before they are parsed: a body with more containers than any
// object needs is refused (413), and the reviews waiting to be answered are bounded by what they cost
// once parsed (429 with Retry-After). controller-runtime's pkg/webhook/admission/http.go (ServeHTTP:
// the body read through a limited reader, refused before it is decoded).

export const BODY_LIMIT = 3 * 1024 * 1024

// What a review costs once parsed. The body budget counts bytes, but a body of many small containers
// costs far more parsed than as bytes: `[{},{},…]` is 3 bytes per object and ~64 on the heap, and ~200
// once a custom resource's schema walk has visited it (a 3 MiB body of them: 211 MB live, measured by
// bench/webhook-hostile.js check 5); 24 such reviews parsed together passed the deployment's 384 MiB
// heap (issue 25). So each body is costed before it is parsed (its containers and commas counted by a
// byte scan: json.ts jsonShape), the costs waiting are bounded (parsedBudget: 429), the bodies of one
// batch are parsed together only while their costs fit BATCH_COST (a costly one alone), and a body with
// more containers than any object needs is refused (413).
/** Heap bytes per container (object or array) once parsed and admitted: measured ~200, rounded up. */
const CONTAINER_COST = 256
/** Per value past the first of a container (one per comma): a slot, a small string or number. */
const VALUE_COST = 16
/** Per byte: the body as a JS string while it is parsed, and the strings it holds. */
const BYTE_COST = 2
/**
 * Bodies up to this size are charged the most a body of their size can cost (a container per 2 bytes:
 * 130 per byte, 2 MiB at 16 KiB, so that 32 of them still fit one BATCH_COST), whatever their scan
 * (every body is scanned once, for the deep lane's nesting: a fifth of JSON.parse's time) counted.
 */
const SCAN_FROM = 16 * 1024
const WORST_COST_PER_BYTE = CONTAINER_COST / 2 + BYTE_COST
/**
 * Containers in one review past which it is refused (413). No real object needs them: one per 8 bytes
 * of the apiserver's 3 MiB request limit (393,216), where real objects at that size hold one per 15
 * bytes or more (a Deployment ~30-40, managedFields' `"f:name":{}` ~12), and etcd stores 1.5 MiB at
 * most (an UPDATE's review holds two objects); `[{},{},…]` fills 3 MiB with over a million.
 */
const MAX_CONTAINERS = BODY_LIMIT / 8
/** The estimated cost of the bodies parsed together in one batch (a body over it is parsed alone). */
export const BATCH_COST = 64 * 1024 * 1024

/**
 * A body's estimated cost once parsed and admitted, or -containers when it holds more than
 * MAX_CONTAINERS. Not exact (a `[0,0,…]` of 1.5 million numbers is charged 30 MB and costs 12): an
 * upper bound for the shapes that cost the most, containers.
 */
export function parsedCost(body: Buffer, shape?: JSONShape): number {
  if (body.length <= SCAN_FROM) return body.length * WORST_COST_PER_BYTE
  const { containers, commas } = shape ?? jsonShape(body)
  if (containers > MAX_CONTAINERS) return -containers
  return containers * CONTAINER_COST + commas * VALUE_COST + body.length * BYTE_COST
}

export interface BodyReaderOptions {
  /** A body's most bytes (413 past it). */
  readonly bodyLimit: number
  /** Request bodies held in memory at once, over all connections (503 past it). */
  readonly bodyBudget: number
  /** The estimated parsed cost of the reviews received and not yet answered (429 past it). */
  readonly parsedBudget: number
  readonly metrics: WebhookMetrics
  readonly log: Logger
  readonly respond: Responder
  /** Whether reviews wait to be answered (a body is always taken when none waits). */
  readonly waiting: () => boolean
  /** A body read, costed and counted in the queue (req.body, req.cost, req.nesting): to be answered. */
  readonly accept: (req: Request) => void
}

export interface BodyReader {
  /** POST /validate, /mutate: a declared length over the limit is refused at once, else the body is read. */
  read(req: Request): void
  /** The body's bytes given back to the budget. */
  release(req: Request): void
  /** Parsed cost that has left the queue (its reviews answered, or taken to be answered). */
  settle(cost: number): void
}

export function createBodyReader(options: BodyReaderOptions): BodyReader {
  const { bodyLimit, bodyBudget, parsedBudget, metrics, log, respond, waiting, accept } = options
  /** Bytes of request bodies in memory, all connections. */
  let held = 0
  /** The estimated parsed cost of the bodies received and not yet answered, all connections. */
  let queued = 0

  const release = (req: Request) => {
    held -= req.held
    req.held = 0
  }
  /** A refusal while the body may still arrive: the connection closes after the answer. */
  const refuse = (req: Request, r: HandlerResponse, reason: RefusalReason) => {
    release(req)
    req.reading = false
    req.first = undefined
    req.grown = undefined
    metrics.observeRefusal(reason)
    respond.write(req, r.status, { ...r.headers, connection: 'close' }, JSON.stringify(r.body))
  }
  const tooLarge = () =>
    errorResponse(413, `request body is larger than the limit of ${bodyLimit} bytes (${bodyLimit / 1048576} MiB)`)

  /**
   * A whole body refused before it is parsed (the connection stays open: the body was read). Both are
   * HTTP errors, not AdmissionReview answers: kelp has not judged the object, so the apiserver treats
   * the call as failed and the webhook configuration's failurePolicy decides (validating/dispatcher.go
   * callHook: an error from the call is ErrCallingWebhook), as for a body over the byte limit.
   */
  const refuseComplex = (req: Request, containers: number) => {
    release(req)
    metrics.observeRefusal('body_too_large')
    // 413 without Retry-After: the same body would be refused again, so the apiserver's client must
    // not retry it (client-go rest checkWait retries only 429 and 5xx that carry Retry-After)
    respond.reply(
      req,
      errorResponse(
        413,
        `request body holds ${containers} JSON objects and arrays, more than the limit of ${MAX_CONTAINERS} ` +
          '(one per 8 bytes of the 3 MiB body limit): no Kubernetes object needs that many',
      ),
    )
  }
  const refuseBusy = (req: Request) => {
    release(req)
    metrics.observeRefusal('body_budget')
    log.warn('reviews waiting to be parsed at the budget: refusing', { budget: parsedBudget })
    // 429 with Retry-After, as the apiserver answers its own overload (max-in-flight, priority and
    // fairness): its client waits that long and sends the review again, within the webhook's timeout
    // (client-go rest checkWait), instead of failing the call at once
    respond.reply(
      req,
      errorResponse(429, 'too many large AdmissionReviews waiting to be answered: retry', { 'retry-after': '1' }),
    )
  }

  // shared listeners (`this` is the request)
  const refuseBudget = (req: Request) => {
    log.warn('request bodies in memory at the budget: refusing', { budget: bodyBudget })
    refuse(req, errorResponse(503, 'too many request bodies in memory: retry'), 'body_budget')
  }
  // A body is copied into one buffer once it comes in more than one piece: node hands each read (and
  // each chunk of a chunked body) over as its own Buffer, and a body trickled byte by byte would
  // otherwise cost an object per byte (about 220 bytes each), far past what the budget counts.
  function onBody(this: Request, chunk: Buffer) {
    if (!this.reading) return
    const size = this.size + chunk.length
    if (size > bodyLimit) return refuse(this, tooLarge(), 'body_too_large')
    if (this.first === undefined && this.grown === undefined) {
      if (held + chunk.length > bodyBudget) return refuseBudget(this)
      held += chunk.length
      this.held += chunk.length
      this.first = chunk
      this.size = size
      return
    }
    let buf = this.grown
    if (buf === undefined || buf.length < size) {
      const capacity = Math.min(bodyLimit, Math.max(size, 16 * 1024, (buf?.length ?? 0) * 2))
      const more = capacity - this.held // the budget counts what is allocated
      if (held + more > bodyBudget) return refuseBudget(this)
      const next = Buffer.allocUnsafe(capacity)
      if (buf !== undefined) buf.copy(next, 0, 0, this.size)
      else (this.first as Buffer).copy(next, 0)
      held += more
      this.held = capacity
      this.first = undefined
      this.grown = next
      buf = next
    }
    chunk.copy(buf, this.size)
    this.size = size
  }
  function onBodyEnd(this: Request) {
    if (!this.reading) return
    this.reading = false
    const body = this.grown !== undefined ? this.grown.subarray(0, this.size) : (this.first ?? Buffer.alloc(0))
    this.first = undefined
    this.grown = undefined
    // one scan for both measures: the parsed cost, and the nesting that sends a review to the deep lane
    const shape = jsonShape(body)
    const cost = parsedCost(body, shape)
    if (cost < 0) return refuseComplex(this, -cost)
    // one body is always taken when none waits (its cost is bounded by MAX_CONTAINERS)
    if (waiting() && queued + cost > parsedBudget) return refuseBusy(this)
    this.body = body
    this.cost = cost
    this.nesting = shape.nesting
    queued += cost
    accept(this)
  }
  function onRequestClose(this: Request) {
    release(this) // an aborted body gives its bytes back
  }

  return {
    read(req) {
      const declared = req.headers['content-length']
      if (declared !== undefined && Number(declared) > bodyLimit) return refuse(req, tooLarge(), 'body_too_large')
      req.reading = true
      req.on('data', onBody)
      req.on('end', onBodyEnd)
      req.once('close', onRequestClose)
    },
    release,
    settle(cost) {
      queued -= cost
    },
  }
}
