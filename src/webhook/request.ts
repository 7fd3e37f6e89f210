import { IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http'
import type { Logger } from '../report/log.js'
import { errorResponse, type HandlerResponse } from './handler.js'
import type { WebhookMetrics } from './metrics.js'

// A request of `kelp serve` and the writing of its one answer (counted in the metrics; Connection: close
// once the server drains). controller-runtime's pkg/webhook/admission/http.go (ServeHTTP's request,
// writeResponse / writeAdmissionResponse).

/** A request, with what kelp keeps of it (no closures per request: the listeners are shared). */
export class Request extends IncomingMessage {
  started = 0
  path = ''
  /** Reading a body (POST /validate, /mutate). */
  reading = false
  /** POST /mutate. */
  mutate = false
  /** The body's first piece, kept as it came (the common case: the whole body in one read). */
  first: Buffer | undefined = undefined
  /** From the second piece on: one buffer, grown by doubling (never sized from Content-Length). */
  grown: Buffer | undefined = undefined
  size = 0
  /** Bytes of this body counted in the server's budget. */
  held = 0
  /** Answered already (a refusal while the body arrives): the rest is dropped. */
  answered = false
  response: ServerResponse | undefined = undefined
  body: Buffer | undefined = undefined
  /** The body's estimated cost once parsed (parsedCost), counted in `queued` until it is answered. */
  cost = 0
  /** The body's deepest nesting (jsonShape): past DEEP_NESTING it is answered on the deep lane. */
  nesting = 0
}

const TEXT = 'text/plain; charset=utf-8'

export interface Responder {
  /** Writes an answer (once per request); a draining server closes the connection after it. */
  write(req: Request, status: number, headers: OutgoingHttpHeaders, body: string): void
  reply(req: Request, r: HandlerResponse): void
  text(req: Request, status: number, t: string, contentType?: string): void
  /** An answer that could not be written: a 500 if nothing went out yet, else the connection is cut. */
  failed(req: Request): void
  /** An answer that could not be written, logged, then as `failed`. */
  writeFailed(req: Request, e: unknown): void
}

export function createResponder(metrics: WebhookMetrics, log: Logger, draining: () => boolean): Responder {
  const write = (req: Request, status: number, headers: OutgoingHttpHeaders, body: string) => {
    const res = req.response as ServerResponse
    req.answered = true
    // Object.assign: a spread followed by a new key costs ~1 µs on Node 20's V8 (docs/benchmarks.md)
    const h: OutgoingHttpHeaders = Object.assign({}, headers, { 'content-length': Buffer.byteLength(body) })
    if (draining()) h.connection = 'close'
    res.writeHead(status, h)
    res.end(req.method === 'HEAD' ? undefined : body)
    metrics.observeRequest(req.path, status, (performance.now() - req.started) / 1000)
  }
  const reply = (req: Request, r: HandlerResponse) => write(req, r.status, r.headers ?? {}, JSON.stringify(r.body))
  const failed = (req: Request) => {
    const res = req.response as ServerResponse
    try {
      if (!res.headersSent) {
        req.answered = false
        return reply(req, errorResponse(500, 'internal error'))
      }
    } catch {
      // fall through
    }
    res.destroy()
  }
  return {
    write,
    reply,
    text: (req, status, t, contentType = TEXT) => write(req, status, { 'content-type': contentType }, `${t}\n`),
    failed,
    writeFailed(req, e) {
      log.error('internal error writing an answer', { error: e })
      failed(req)
    },
  }
}
