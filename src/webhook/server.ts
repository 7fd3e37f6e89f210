import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import type { PolicySet, PolicySetOptions } from '../engine/policy-set.js'
import { createLogger, type Logger } from '../report/log.js'
import { createReviewBatches } from './batch.js'
import { BODY_LIMIT, createBodyReader } from './body.js'
import { createConnections, requestStarted } from './connections.js'
import { createDeepLane } from './deep.js'
import { type AdmitEvent, createAdmissionHandler, errorResponse } from './handler.js'
import { createMetrics, type WebhookMetrics } from './metrics.js'
import { createPolicyReloader } from './reload.js'
import { createResponder, Request } from './request.js'
import { createCertificateReloader, secureOptions } from './tls.js'
import { createWatcher, type ReloadResult } from './watch.js'

// `kelp serve`: the admission handler over node:https; the server and its lifecycle, its parts beside it
// (controller-runtime's pkg/webhook/server.go: DefaultServer.Start, Register, StartedChecker).
//
// Routes: POST /validate and /mutate (AdmissionReview v1), GET /healthz (the process answers), GET /readyz
// (a policy set is loaded and the server is not shutting down), GET /metrics (Prometheus text); the
// optional plain-HTTP metrics port serves the last three only.
// node's HTTP server gives the protections a server facing the network needs (llhttp, patched by
// Node's security releases; sockets torn down on TLS errors and handshake timeouts; header and
// request timeouts; reading paused while a connection's answers are not read). kelp adds what node
// leaves to the application: a connection cap (closing the longest-idle kept-alive connection when
// full), a cap on unanswered pipelined requests per connection, bounded refusal counters
// (connections.ts); a body limit (413) and an overall budget for bodies in memory (503), bounds on what
// bodies cost once parsed (413, 429) (body.ts); ECDHE+AEAD ciphers on TLS 1.2, optional client
// certificates (mTLS) (tls.ts).
// Reloads: the policy paths and the certificate files are watched (watch.ts); the new set is built
// between requests and swapped in with one assignment, so each request sees one whole set (reload.ts).
// A set that does not load is logged and counted, and the last good set keeps serving. A certificate
// is installed (setSecureContext) only once its key is checked to match it (tls.ts).
// Reviews are answered in batches, or on the deep lane when nested deep (batch.ts, deep.ts).
// Shutdown: close() reports not ready at once and keeps answering for shutdownDelay (the time the
// cluster needs to stop sending here), then stops accepting connections; each open connection
// closes after its next answer (Connection: close) or once idle; those still open after
// shutdownTimeout are cut.

export const DEFAULT_PORT = 8443

export interface ServeOptions {
  /** Policy material: files and directories (VAPs, bindings, params, CRDs, Namespaces). */
  readonly policies: readonly string[]
  readonly tlsCert: string
  readonly tlsKey: string
  /** Require client certificates signed by this CA (PEM file): mTLS on the HTTPS port. */
  readonly clientCA?: string
  /** Default 8443; 0 picks a free port. */
  readonly port?: number
  /** Default: every interface. */
  readonly address?: string
  /** A plain-HTTP port for GET /metrics, /healthz, /readyz (Prometheus, kubelet probes); default none. */
  readonly metricsPort?: number
  /** Default: the same as `address`. */
  readonly metricsAddress?: string
  readonly policySetOptions?: PolicySetOptions
  readonly logger?: Logger
  /** Watch the policy paths and the certificate files (default true). */
  readonly watch?: boolean
  /** Quiet period before a reload after the last change (default 300 ms). */
  readonly debounceMs?: number
  /** Default 3 MiB. */
  readonly bodyLimit?: number
  /** Request bodies held in memory at once, over all connections (default 64 MiB; over it: 503). */
  readonly bodyBudget?: number
  /**
   * What the reviews received and not yet answered are estimated to cost once parsed, over all
   * connections (default 256 MiB; over it: 429 with Retry-After). See `parsedCost`.
   */
  readonly parsedBudget?: number
  /**
   * Connections at once, TLS handshakes included (default 1024). At the cap, a new connection closes
   * the longest-idle kept-alive one (answered at least once, nothing in flight); with none, the new
   * one is closed at accept.
   */
  readonly maxConnections?: number
  /** Default 10 s; also the TLS handshake timeout. */
  readonly headersTimeoutMs?: number
  /** Default 30 s (the longest timeoutSeconds a webhook configuration allows). */
  readonly requestTimeoutMs?: number
  /** Idle keep-alive connections are closed after this (default 95 s: the apiserver's client keeps them 90 s). */
  readonly keepAliveTimeoutMs?: number
  /** close(): how long to answer as usual, not ready, before closing connections (default 0). */
  readonly shutdownDelayMs?: number
  /** close(): how long connections may stay open after the delay before they are cut (default 25 s). */
  readonly shutdownTimeoutMs?: number
  /** Node's default process metrics in /metrics (default true). */
  readonly processMetrics?: boolean
}

export interface WebhookServer {
  readonly server: HttpsServer
  readonly port: number
  readonly address: string
  /** The plain-HTTP metrics port, when one was asked for. */
  readonly metricsPort?: number
  readonly metrics: WebhookMetrics
  /** The serving policy set of /validate (undefined until one loaded). */
  policySet(): PolicySet | undefined
  /** The serving policy set of /mutate: the MutatingAdmissionPolicies (undefined until one loaded). */
  mutatingPolicySet(): PolicySet | undefined
  /** Reloads the policy set now, in slices (`force`: even when the files did not change). */
  reloadPolicies(force?: boolean): Promise<ReloadResult>
  /** Reloads the certificate and key now. */
  reloadCertificate(force?: boolean): ReloadResult
  /** Graceful shutdown: not ready, answer for the delay, then close connections between requests. */
  close(): Promise<void>
  /** Resolves once the server has closed. */
  readonly closed: Promise<void>
}

/** Starts the webhook server; resolves once it listens (the first policy load has been attempted). */
export async function startWebhookServer(options: ServeOptions): Promise<WebhookServer> {
  const log = options.logger ?? createLogger()
  const metrics = createMetrics({ processMetrics: options.processMetrics !== false })
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT
  const requestTimeout = options.requestTimeoutMs ?? 30_000
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout)
  const shutdownDelay = options.shutdownDelayMs ?? 0
  const shutdownTimeout = options.shutdownTimeoutMs ?? 25_000
  const maxConnections = options.maxConnections ?? 1024

  /** Not ready (close() was called). */
  let closing = false
  /** Past the shutdown delay: every answer closes its connection. */
  let draining = false

  const onAdmit = (event: AdmitEvent) => {
    metrics.observeAdmit(event)
    // the log fields only when a line is written (an allowed request is logged at debug)
    if (event.response.allowed && !log.enabled('debug')) return
    const a = event.attributes
    const fields = {
      uid: a.uid,
      operation: a.operation,
      resource: `${a.resource.group === '' ? '' : `${a.resource.group}/`}${a.resource.version}/${a.resource.resource}`,
      namespace: a.namespace || undefined,
      name: a.name || undefined,
      user: a.userInfo.username || undefined,
      allowed: event.response.allowed,
      ...(event.mode === 'mutate' ? { endpoint: '/mutate', patched: event.response.patch !== undefined } : {}),
      ...(event.response.status !== undefined
        ? { code: event.response.status.code, reason: event.response.status.reason }
        : {}),
      warnings: event.result.warnings.length || undefined,
    }
    if (!event.response.allowed) log.info('request denied', { ...fields, message: event.response.status?.message })
    else log.debug('request allowed', fields)
  }
  const policies = createPolicyReloader({
    policies: options.policies,
    ...(options.policySetOptions !== undefined ? { policySetOptions: options.policySetOptions } : {}),
    metrics,
    log,
  })
  const certificate = createCertificateReloader(options, metrics, log)
  const watcher = createWatcher({
    log,
    debounceMs: options.debounceMs ?? 300,
    paths: (target) =>
      target === 'policies'
        ? options.policies
        : [options.tlsCert, options.tlsKey, ...(options.clientCA !== undefined ? [options.clientCA] : [])],
    reload: { policies: () => policies.reload(), certificate: () => certificate.reload() },
  })
  const handler = createAdmissionHandler(() => policies.validating, { onAdmit })
  const mutateHandler = createAdmissionHandler(() => policies.mutating, { onAdmit, mode: 'mutate' })
  const deepLane = createDeepLane((e) => log.error('deep-review worker failed', { error: e }))
  const respond = createResponder(metrics, log, () => draining)
  const bodies = createBodyReader({
    bodyLimit,
    bodyBudget: options.bodyBudget ?? 64 * 1024 * 1024,
    parsedBudget: options.parsedBudget ?? 256 * 1024 * 1024,
    metrics,
    log,
    respond,
    waiting: () => reviews.waiting(),
    accept: (req) => reviews.accept(req),
  })
  const reviews = createReviewBatches({
    handler,
    mutateHandler,
    bodies,
    respond,
    deepLane,
    serving: () => policies.serving,
    log,
  })
  const connections = createConnections(metrics, log)

  // --- HTTP ------------------------------------------------------------------------------------------
  /** Whether `method` may be used where `allowed` is; answers 405 when not. */
  const only = (req: Request, allowed: string): boolean => {
    const method = req.method
    if (method === allowed || (allowed === 'GET' && method === 'HEAD')) return true
    const allow = allowed === 'GET' ? 'GET, HEAD' : allowed
    respond.reply(req, errorResponse(405, `method ${method} is not allowed on ${req.path}: use ${allowed}`, { allow }))
    return false
  }

  // One /metrics text at a time, shared by every request that asks while it is rendered: a flood
  // of scrapes costs one rendering, not one each.
  let rendering: Promise<string> | undefined
  const renderMetrics = (): Promise<string> => {
    rendering ??= metrics.registry.metrics().finally(() => {
      rendering = undefined
    })
    return rendering
  }

  const route = (req: Request, plain: boolean) => {
    const path = req.path
    switch (plain ? `plain:${path}` : path) {
      case '/mutate':
      case '/validate': {
        if (!only(req, 'POST')) return
        req.mutate = path === '/mutate'
        bodies.read(req)
        return
      }
      case '/healthz':
      case 'plain:/healthz':
        if (only(req, 'GET')) respond.text(req, 200, 'ok')
        return
      case '/readyz':
      case 'plain:/readyz':
        if (!only(req, 'GET')) return
        if (closing) respond.text(req, 503, 'shutting down')
        else if (policies.validating === undefined) respond.text(req, 503, 'no policy set loaded')
        else respond.text(req, 200, 'ok')
        return
      case '/metrics':
      case 'plain:/metrics':
        if (!only(req, 'GET')) return
        renderMetrics().then(
          (body) => respond.text(req, 200, body.replace(/\n$/, ''), metrics.registry.contentType),
          (e: unknown) => {
            log.error('metrics collection failed', { error: e })
            respond.reply(req, errorResponse(500, 'metrics collection failed'))
          },
        )
        return
      default:
        respond.reply(
          req,
          errorResponse(
            404,
            plain
              ? `no route ${path}: this port serves GET /metrics, /healthz, /readyz`
              : `no route ${path}: kelp serves POST /validate, /mutate, GET /healthz, /readyz, /metrics`,
          ),
        )
    }
  }

  const onRequest = (plain: boolean) => (r: IncomingMessage, res: ServerResponse) => {
    const req = r as Request
    req.started = performance.now()
    req.response = res
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    req.path = q < 0 ? url : url.slice(0, q)
    requestStarted(req, res)
    try {
      route(req, plain)
    } catch (e) {
      log.error('internal error', { path: req.path, method: req.method, error: e })
      if (!req.answered) respond.failed(req)
    }
  }
  /** Expect: 100-continue: a body over the limit is refused before the client sends it. */
  const onCheckContinue = (plainPort: boolean) => {
    const handle = onRequest(plainPort)
    return (req: IncomingMessage, res: ServerResponse) => {
      if (!(Number(req.headers['content-length'] ?? 0) > bodyLimit)) res.writeContinue()
      handle(req, res)
    }
  }

  const httpOptions = {
    IncomingMessage: Request,
    maxHeaderSize: 16 * 1024,
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 95_000,
    // the timeouts are checked this often (node's default, 30 s, would let a slow client keep its
    // connection up to 40 s past a 10 s headers timeout)
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    noDelay: true,
  }

  // --- start -----------------------------------------------------------------------------------------
  const initial = certificate.initial() // the caller's error
  await policies.reload(true)

  const server = createHttpsServer(
    {
      ...httpOptions,
      ...secureOptions(initial),
      ALPNProtocols: ['http/1.1'],
      handshakeTimeout: headersTimeout,
      ...(options.clientCA !== undefined ? { requestCert: true, rejectUnauthorized: true } : {}),
    },
    onRequest(false),
  )
  const httpsConnections = new Set<Socket>()
  server.on('clientError', connections.clientError)
  server.on('connection', connections.track)
  server.on('connection', connections.capped(maxConnections, httpsConnections))
  server.on('secureConnection', connections.connected(httpsConnections))
  server.on('checkContinue', onCheckContinue(false))
  certificate.serving(server, initial)

  let plain: HttpServer | undefined
  if (options.metricsPort !== undefined) {
    plain = createHttpServer(httpOptions, onRequest(true))
    const plainConnections = new Set<Socket>()
    plain.on('clientError', connections.clientError)
    plain.on('connection', connections.track)
    plain.on('connection', connections.capped(Math.max(16, Math.floor(maxConnections / 8)), plainConnections))
    plain.on('connection', connections.connected(plainConnections))
    plain.on('checkContinue', onCheckContinue(true))
  }

  const listen = (s: HttpServer | HttpsServer, port: number, address: string | undefined) =>
    new Promise<void>((resolve, reject) => {
      const onError = (e: Error) => reject(e)
      s.once('error', onError)
      s.listen(port, address, () => {
        s.off('error', onError)
        s.on('error', (e) => log.error('server error', { error: e }))
        resolve()
      })
    })
  await listen(server, options.port ?? DEFAULT_PORT, options.address)
  if (plain !== undefined && options.metricsPort !== undefined) {
    try {
      await listen(plain, options.metricsPort, options.metricsAddress ?? options.address)
    } catch (e) {
      server.close()
      throw e
    }
  }
  if (options.watch !== false) {
    watcher.arm('policies')
    watcher.arm('certificate')
  }
  const addr = server.address() as AddressInfo
  const plainPort = plain === undefined ? undefined : (plain.address() as AddressInfo).port
  log.info('listening', {
    address: addr.address,
    port: addr.port,
    ...(plainPort !== undefined ? { metricsPort: plainPort } : {}),
    mtls: options.clientCA !== undefined || undefined,
    ready: policies.validating !== undefined,
  })

  let closePromise: Promise<void> | undefined
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((r) => {
    resolveClosed = r
  })
  const servers = plain === undefined ? [server] : [server, plain]
  const close = (): Promise<void> => {
    if (closePromise !== undefined) return closePromise
    closing = true
    watcher.close()
    log.info('shutting down: not ready, answering', { ms: shutdownDelay })
    closePromise = new Promise<void>((r) => setTimeout(r, shutdownDelay))
      .then(() => {
        draining = true
        log.info('shutting down: closing connections between requests', { timeoutMs: shutdownTimeout })
        return Promise.all(servers.map((x) => connections.drain(x, shutdownTimeout)))
      })
      .then(() => deepLane.close())
      .then(() => log.info('stopped'))
    void closePromise.then(resolveClosed) // `closed` settles with (not before) the promise close() returned
    return closePromise
  }

  return {
    server,
    port: addr.port,
    address: addr.address,
    ...(plainPort !== undefined ? { metricsPort: plainPort } : {}),
    metrics,
    policySet: () => policies.validating,
    mutatingPolicySet: () => policies.mutating,
    reloadPolicies: (force = true) => policies.reload(force),
    reloadCertificate: (force = true) => certificate.reload(force),
    close,
    closed,
  }
}
