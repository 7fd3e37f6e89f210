import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import { Server as NetServer, type Socket } from 'node:net'
import type { Logger } from '../report/log.js'
import type { RefusalReason, WebhookMetrics } from './metrics.js'

// The connections of `kelp serve`: what node's HTTP server leaves to the application. A cap on
// connections that closes the longest-idle kept-alive one when full, a cap on unanswered pipelined
// requests per connection, the refusals node makes before a request reaches kelp (counted), and the
// drain of a shutdown (each connection closed after its answer or once idle, the rest cut at the
// timeout). Go's net/http server.go does this for controller-runtime's webhook server (ConnState,
// closeIdleConns and Shutdown); node leaves the cap and the idle eviction to its user.

/**
 * Unanswered requests per connection before kelp stops reading it: node pauses a connection whose
 * written answers back up, but answers written later (a batch, /metrics) are not counted by then,
 * so a client that pipelines and never reads would otherwise have every request parsed and held.
 */
const PIPELINE_LIMIT = 32

/** Per connection: unanswered requests, and whether kelp paused its reading. */
interface ConnState {
  pending: number
  paused: boolean
  /** Date.now() of the last request or answer (for closing idle connections at shutdown and at the cap). */
  last: number
  /** Answers written: a connection with one and nothing pending is a kept-alive idle one. */
  answered: number
}
const CONN = Symbol('kelp.conn')
type Tracked = Socket & { [CONN]?: ConnState; _paused?: boolean }

const stateOf = (socket: Socket): ConnState => {
  const s = socket as Tracked
  let st = s[CONN]
  if (st === undefined) {
    st = { pending: 0, paused: false, last: Date.now(), answered: 0 }
    s[CONN] = st
  }
  return st
}

// a shared listener (`this` is the response)
function onResponseDone(this: ServerResponse) {
  const socket = this.req.socket as Tracked
  const st = socket[CONN]
  if (st === undefined) return
  st.pending--
  st.answered++
  st.last = Date.now()
  // resumed only when node has not paused the connection itself (its answers backed up)
  if (st.paused && st.pending <= PIPELINE_LIMIT / 2) {
    st.paused = false
    if (socket._paused !== true) socket.resume()
  }
}

/** A request on its connection: counted until answered; past PIPELINE_LIMIT the connection is not read. */
export function requestStarted(req: IncomingMessage, res: ServerResponse): void {
  const st = stateOf(req.socket)
  st.pending++
  st.last = Date.now()
  res.once('close', onResponseDone)
  if (st.pending > PIPELINE_LIMIT) {
    // on every request past the cap: node's own drain handler may have resumed the socket
    st.paused = true
    req.socket.pause()
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
}

export interface Connections {
  /** Every raw socket (TLS handshakes included), for the forced end of a shutdown ('connection'). */
  readonly track: (s: Socket) => void
  /** A server's HTTP connections (after the handshake), `own` its candidates for closing at the cap. */
  connected(own: Set<Socket>): (s: Socket) => void
  /** The connection cap of a server ('connection'), closing one of `own` when full. */
  capped(cap: number, own: Set<Socket>): (s: Socket) => void
  /** node's 'clientError'. */
  readonly clientError: (err: NodeJS.ErrnoException, socket: Socket) => void
  /** Stops accepting; resolves once every connection of the server has closed. */
  drain(server: HttpServer | HttpsServer, timeoutMs: number): Promise<void>
}

export function createConnections(metrics: WebhookMetrics, log: Logger): Connections {
  /** Raw sockets (TLS handshakes included), for the forced end of a shutdown. */
  const sockets = new Set<Socket>()
  /** The connections HTTP is spoken on (after the handshake), for closing idle ones at shutdown. */
  const connections = new Set<Socket>()
  return {
    track(s) {
      sockets.add(s)
      s.once('close', () => sockets.delete(s))
    },
    connected: (own) => (s) => {
      stateOf(s)
      connections.add(s)
      own.add(s)
      s.once('close', () => {
        connections.delete(s)
        own.delete(s)
      })
    },
    /**
     * The connection cap, kelp's rather than node's (server.maxConnections closes every connection past
     * the cap): 1,024 clients that each send one request and keep the connection alive would hold the
     * cap for the whole keep-alive time (95 s), and the apiserver's calls and the kubelet's probes would
     * be closed at accept meanwhile. At the cap, a new connection closes the kept-alive connection idle
     * the longest (answered at least once, nothing in flight: closing it loses no request, as the
     * keep-alive timeout would); with none (every connection busy, or in its handshake or first request,
     * which the handshake and headers timeouts bound), the new one is closed, as node would.
     */
    capped(cap, own) {
      /** Raw sockets, TLS handshakes included. */
      const open = new Set<Socket>()
      return (s: Socket) => {
        open.add(s)
        s.once('close', () => open.delete(s))
        if (open.size <= cap) return
        // closed ones emit 'close' later: their slots are free already (a TLS socket's destroy()
        // destroys its raw socket at once)
        for (const o of open) if (o.destroyed) open.delete(o)
        if (open.size <= cap) return
        let idle: Socket | undefined
        let since = Number.POSITIVE_INFINITY
        for (const c of own) {
          const st = (c as Tracked)[CONN]
          if (st !== undefined && st.pending === 0 && st.answered > 0 && st.last < since && !c.destroyed) {
            idle = c
            since = st.last
          }
        }
        if (idle !== undefined) {
          idle.destroy()
          for (const o of open) if (o.destroyed) open.delete(o)
          metrics.observeIdleClosed()
          return
        }
        open.delete(s)
        s.destroy()
        metrics.observeRefusal('connection_limit')
      }
    },
    /**
     * Requests node refuses before they reach kelp (malformed, headers too large, too slow) and TLS
     * failures: counted by kind (a bounded set), then answered as node answers them without a
     * listener; the socket is always destroyed (a listener takes that duty over from node).
     */
    clientError(err, socket) {
      const code = err.code ?? ''
      let status = 0
      let reason: RefusalReason
      if (code === 'HPE_HEADER_OVERFLOW') {
        status = 431
        reason = 'header_too_large'
      } else if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        status = 408
        reason = 'request_timeout'
      } else if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
        status = 413
        reason = 'body_too_large'
      } else if (code.startsWith('HPE_')) {
        status = 400
        reason = 'bad_request'
      } else if (code === 'ECONNRESET' || code === 'EPIPE') reason = 'connection_reset'
      else reason = 'tls_handshake'
      metrics.observeRefusal(reason)
      log.debug('request refused', { code: status || undefined, reason, error: err.message })
      const busy = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage
      if (status !== 0 && socket.writable && (busy == null || !busy.headersSent))
        socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
      socket.destroy()
    },
    /**
     * Stops accepting; a connection closes after its next answer (the responder's Connection: close), or
     * once it has been idle for a second (a client's request on it may cross the close: a short idle time
     * is left for it); after the timeout, the rest are cut.
     */
    drain: (x, timeoutMs) =>
      new Promise<void>((resolve) => {
        const sweep = setInterval(() => {
          const now = Date.now()
          for (const sock of connections) {
            const st = (sock as Tracked)[CONN]
            if (st !== undefined && st.pending === 0 && now - st.last >= 1000) sock.end()
          }
        }, 200)
        sweep.unref()
        const force = setTimeout(() => {
          log.warn('shutdown timeout: closing the remaining connections')
          for (const sock of sockets) sock.destroy()
        }, timeoutMs)
        force.unref()
        // net's close (not http's, which also cuts idle connections at once, crossing requests a
        // client sends on them): stop accepting, and call back once the last connection is gone
        NetServer.prototype.close.call(x, () => {
          clearInterval(sweep)
          clearTimeout(force)
          resolve()
        })
      }),
  }
}
