import { createHash } from 'node:crypto'
import { type FSWatcher, readFileSync, statSync, watch } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { createSecureContext, type Server } from 'node:tls'
import { expandPaths, parseManifests } from '../cli/load.js'
import { PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import { createAdmissionHandler, errorResponse, type HandlerResponse } from './handler.js'
import { createHttp1Server, type Http1Exchange, type Http1Request, type Http1Server } from './http1.js'
import { createLogger, type Logger } from './log.js'
import { createMetrics, type ReloadTarget, type WebhookMetrics } from './metrics.js'

// `kelp serve`: the admission handler over HTTPS (HTTP/1.1 read from the TLS socket: http1.ts).
//
// Routes: POST /validate (AdmissionReview v1), GET /healthz (the process answers), GET /readyz (a
// policy set is loaded and the server is not shutting down), GET /metrics (Prometheus text).
// Limits: request bodies over 3 MiB → 413; headers must arrive within headersTimeout and the whole
// request within requestTimeout (Node answers 408 and closes); TLS 1.2 or newer.
// Reloads: the policy paths and the certificate files are watched (their directories, so that the
// atomic `..data` symlink swaps of ConfigMap / Secret volumes are seen); changes are debounced, the
// new policy set is built between requests (never inside one) and swapped in with one assignment,
// so each request sees one whole set. A set that does not load (unreadable or unparsable files, or
// objects the apiserver would refuse: PolicySet `problems`) is logged and counted, and the last good
// set keeps serving. Certificates are replaced with server.setSecureContext after checking the pair.
// Shutdown: close() stops accepting connections, answers requests in flight (with Connection:
// close), then resolves; connections still open after shutdownTimeout are cut.

export const DEFAULT_PORT = 8443
export const BODY_LIMIT = 3 * 1024 * 1024

export interface ServeOptions {
  /** Policy material: files and directories (VAPs, bindings, params, CRDs, Namespaces). */
  readonly policies: readonly string[]
  readonly tlsCert: string
  readonly tlsKey: string
  /** Default 8443; 0 picks a free port. */
  readonly port?: number
  /** Default: every interface. */
  readonly address?: string
  readonly policySetOptions?: PolicySetOptions
  readonly logger?: Logger
  /** Watch the policy paths and the certificate files (default true). */
  readonly watch?: boolean
  /** Quiet period before a reload after the last change (default 300 ms). */
  readonly debounceMs?: number
  /** Default 3 MiB. */
  readonly bodyLimit?: number
  /** Default 10 s. */
  readonly headersTimeoutMs?: number
  /** Default 30 s (the longest timeoutSeconds a webhook configuration allows). */
  readonly requestTimeoutMs?: number
  /** Idle keep-alive connections are closed after this (default 65 s). */
  readonly keepAliveTimeoutMs?: number
  /** How long close() waits for requests in flight before cutting connections (default 25 s). */
  readonly shutdownTimeoutMs?: number
  /** Node's default process metrics in /metrics (default true). */
  readonly processMetrics?: boolean
}

export interface ReloadResult {
  readonly target: ReloadTarget
  readonly outcome: 'loaded' | 'unchanged' | 'failed'
  readonly errors?: readonly string[]
}

export interface WebhookServer {
  readonly server: Server
  readonly port: number
  readonly address: string
  readonly metrics: WebhookMetrics
  /** The serving policy set (undefined until one loaded). */
  policySet(): PolicySet | undefined
  /** Reloads the policy set now (`force`: even when the files did not change). */
  reloadPolicies(force?: boolean): ReloadResult
  /** Reloads the certificate and key now. */
  reloadCertificate(force?: boolean): ReloadResult
  /** Graceful shutdown: stop accepting, finish requests in flight. */
  close(): Promise<void>
  /** Resolves once the server has closed. */
  readonly closed: Promise<void>
}

const sha256 = (parts: readonly (string | Buffer)[]) => {
  const h = createHash('sha256')
  for (const p of parts) {
    h.update(String(Buffer.byteLength(p)))
    h.update(':')
    h.update(p)
  }
  return h.digest('hex')
}

type PolicyLoad = { ok: true; set: PolicySet; objects: number } | { ok: false; errors: string[] }

/** The policy files as read: their texts, read errors, and a fingerprint of both. */
export interface PolicyFiles {
  readonly texts: readonly { readonly file: string; readonly text: string }[]
  readonly errors: readonly string[]
  readonly fingerprint: string
}

/** Reads the policy paths (files, directories walked as `kelp check` walks them). */
export function readPolicyFiles(paths: readonly string[]): PolicyFiles {
  const { files, errors: pathErrors } = expandPaths(paths.filter((p) => p !== '-'))
  const errors = pathErrors.map((f) => f.message)
  if (paths.includes('-')) errors.push('stdin (-) cannot be served: name files or directories')
  const texts: { file: string; text: string }[] = []
  for (const file of files) {
    try {
      texts.push({ file, text: readFileSync(file, 'utf8') })
    } catch (e) {
      errors.push(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
    }
  }
  return { texts, errors, fingerprint: sha256([...texts.flatMap((t) => [t.file, t.text]), ...errors]) }
}

/** Builds a policy set from files read; any read or parse error, or an object refused, makes it broken. */
export function buildPolicySet(read: PolicyFiles, options: PolicySetOptions = {}): PolicyLoad {
  const errors = [...read.errors]
  const objects: Record<string, unknown>[] = []
  for (const { file, text } of read.texts) {
    const r = parseManifests(text, file)
    objects.push(...r.objects.map((o) => o.object))
    for (const f of r.errors) {
      const at = f.source?.line !== undefined ? `:${f.source.line}:${f.source.column ?? 1}` : ''
      errors.push(`${f.source?.file ?? file}${at}: ${f.message}`)
    }
  }
  if (errors.length > 0) return { ok: false, errors }
  let set: PolicySet
  try {
    set = PolicySet.build(objects, options)
  } catch (e) {
    return { ok: false, errors: [`building the policy set failed: ${(e as Error).message}`] }
  }
  if (set.problems.length > 0)
    return { ok: false, errors: set.problems.map((p) => `${p.kind} ${p.name}: ${p.message}`) }
  return { ok: true, set, objects: objects.length }
}

function readPair(certFile: string, keyFile: string): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(certFile), key: readFileSync(keyFile) }
}

const TLS_MIN = 'TLSv1.2' as const
const TEXT = 'text/plain; charset=utf-8'
/** The most AdmissionReviews answered together (see `flush`). */
const MAX_BATCH = 32

/** Starts the webhook server; resolves once it listens (the first policy load has been attempted). */
export async function startWebhookServer(options: ServeOptions): Promise<WebhookServer> {
  const log = options.logger ?? createLogger()
  const metrics = createMetrics({ processMetrics: options.processMetrics !== false })
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT
  const debounceMs = options.debounceMs ?? 300
  const requestTimeout = options.requestTimeoutMs ?? 30_000
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout)
  const shutdownTimeout = options.shutdownTimeoutMs ?? 25_000

  let current: PolicySet | undefined
  let policyFingerprint: string | undefined
  let certFingerprint: string | undefined
  let closing = false

  const handler = createAdmissionHandler(() => current, {
    onAdmit: (event) => {
      metrics.observeAdmit(event)
      // the log fields only when a line is written (an allowed request is logged at debug)
      if (event.result.allowed && !log.enabled('debug')) return
      const a = event.attributes
      const fields = {
        uid: a.uid,
        operation: a.operation,
        resource: `${a.resource.group === '' ? '' : `${a.resource.group}/`}${a.resource.version}/${a.resource.resource}`,
        namespace: a.namespace || undefined,
        name: a.name || undefined,
        user: a.userInfo.username || undefined,
        allowed: event.result.allowed,
        ...(event.response.status !== undefined
          ? { code: event.response.status.code, reason: event.response.status.reason }
          : {}),
        warnings: event.result.warnings.length || undefined,
      }
      if (!event.result.allowed) log.info('request denied', { ...fields, message: event.response.status?.message })
      else log.debug('request allowed', fields)
    },
  })

  // --- reloads ---------------------------------------------------------------------------------------
  const reloadPolicies = (force = false): ReloadResult => {
    const started = performance.now()
    const read = readPolicyFiles(options.policies)
    if (!force && read.fingerprint === policyFingerprint) return { target: 'policies', outcome: 'unchanged' }
    policyFingerprint = read.fingerprint
    const r = buildPolicySet(read, options.policySetOptions)
    if (!r.ok) {
      metrics.observeReload('policies', false)
      log.error(
        current === undefined
          ? 'policy set not loaded: nothing is served until the policies load'
          : 'policy set not loaded: the last good set keeps serving',
        { paths: options.policies, errors: r.errors },
      )
      return { target: 'policies', outcome: 'failed', errors: r.errors }
    }
    current = r.set // the swap: requests read `current` once each
    metrics.observeReload('policies', true)
    metrics.setPoliciesLoaded(r.set.policies.length)
    log.info('policy set loaded', {
      paths: options.policies,
      objects: r.objects,
      policies: r.set.policies.length,
      crds: [...r.set.crds].length,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
    return { target: 'policies', outcome: 'loaded' }
  }

  let server: Server | undefined
  const reloadCertificate = (force = false): ReloadResult => {
    let pair: { cert: Buffer; key: Buffer }
    try {
      pair = readPair(options.tlsCert, options.tlsKey)
    } catch (e) {
      metrics.observeReload('certificate', false)
      const err = `cannot read the certificate or key: ${(e as Error).message}`
      log.error('certificate not reloaded: the current one keeps serving', { errors: [err] })
      return { target: 'certificate', outcome: 'failed', errors: [err] }
    }
    const fp = sha256([pair.cert, pair.key])
    if (!force && fp === certFingerprint) return { target: 'certificate', outcome: 'unchanged' }
    try {
      createSecureContext({ ...pair, minVersion: TLS_MIN }) // a mismatched or broken pair throws here
      server?.setSecureContext({ ...pair, minVersion: TLS_MIN })
    } catch (e) {
      // a rotation writes cert and key one after the other: the next change event retries
      metrics.observeReload('certificate', false)
      const err = (e as Error).message
      log.error('certificate not reloaded: the current one keeps serving', {
        cert: options.tlsCert,
        key: options.tlsKey,
        errors: [err],
      })
      return { target: 'certificate', outcome: 'failed', errors: [err] }
    }
    certFingerprint = fp
    metrics.observeReload('certificate', true)
    log.info('certificate loaded', { cert: options.tlsCert, key: options.tlsKey })
    return { target: 'certificate', outcome: 'loaded' }
  }

  // --- watching --------------------------------------------------------------------------------------
  const timers = new Map<ReloadTarget, NodeJS.Timeout>()
  const watchers = new Map<ReloadTarget, FSWatcher[]>()
  const rearmTimers = new Map<ReloadTarget, NodeJS.Timeout>()
  const schedule = (target: ReloadTarget) => {
    if (closing) return
    const t = timers.get(target)
    if (t !== undefined) clearTimeout(t)
    timers.set(
      target,
      setTimeout(() => {
        timers.delete(target)
        if (closing) return
        try {
          if (target === 'policies') reloadPolicies()
          else reloadCertificate()
        } catch (e) {
          log.error('reload failed', { target, error: e })
        }
        arm(target) // a replaced directory needs a new watch
      }, debounceMs),
    )
  }
  const watchTargets = (target: ReloadTarget): { path: string; recursive: boolean }[] => {
    const paths = target === 'policies' ? options.policies : [options.tlsCert, options.tlsKey]
    const out = new Map<string, boolean>()
    for (const p of paths) {
      let dir = false
      try {
        dir = statSync(p).isDirectory()
      } catch {
        // missing: watch its directory, so that its creation is seen
      }
      if (dir) out.set(p, true)
      else if (!out.has(dirname(p))) out.set(dirname(p), false)
    }
    return [...out].map(([path, recursive]) => ({ path, recursive }))
  }
  const disarm = (target: ReloadTarget) => {
    for (const w of watchers.get(target) ?? []) w.close()
    watchers.delete(target)
    const r = rearmTimers.get(target)
    if (r !== undefined) clearTimeout(r)
    rearmTimers.delete(target)
  }
  const arm = (target: ReloadTarget) => {
    if (options.watch === false || closing) return
    disarm(target)
    const list: FSWatcher[] = []
    let failed = false
    for (const { path, recursive } of watchTargets(target)) {
      try {
        const w = watch(path, { recursive, persistent: false }, () => schedule(target))
        w.on('error', (e) => {
          log.warn('watch failed; watching again', { target, path, error: (e as Error).message })
          schedule(target)
        })
        list.push(w)
      } catch (e) {
        failed = true
        log.warn('cannot watch', { target, path, error: (e as Error).message })
      }
    }
    watchers.set(target, list)
    if (failed) {
      const t = setTimeout(() => arm(target), 2000)
      t.unref()
      rearmTimers.set(target, t)
    }
  }

  // --- HTTP ------------------------------------------------------------------------------------------
  // metrics count unknown paths as `other` (observeRequest), so the request's own path is passed as is
  const reply = (x: Http1Exchange, req: Http1Request, r: HandlerResponse) => {
    x.respond(req, { status: r.status, headers: r.headers, body: JSON.stringify(r.body) })
    metrics.observeRequest(req.path, r.status, (performance.now() - req.started) / 1000)
  }
  const text = (x: Http1Exchange, req: Http1Request, status: number, t: string, contentType = TEXT) => {
    x.respond(req, { status, headers: { 'content-type': contentType }, body: `${t}\n` })
    metrics.observeRequest(req.path, status, (performance.now() - req.started) / 1000)
  }
  const tooLargeMessage = `request body is larger than the limit of ${bodyLimit} bytes (${bodyLimit / 1048576} MiB)`

  /** Whether `method` may be used where `allowed` is; answers 405 when not. */
  const only = (x: Http1Exchange, req: Http1Request, allowed: string): boolean => {
    const method = req.method
    if (method === allowed || (allowed === 'GET' && method === 'HEAD')) return true
    const allow = allowed === 'GET' ? 'GET, HEAD' : allowed
    reply(x, req, errorResponse(405, `method ${method} is not allowed on ${req.path}: use ${allowed}`, { allow }))
    return false
  }

  const route = (req: Http1Request, x: Http1Exchange) => {
    const path = req.path
    if (req.tooLarge) return reply(x, req, errorResponse(413, tooLargeMessage))
    switch (path) {
      case '/validate':
        if (!only(x, req, 'POST')) return
        if (batchRequests.length === 0) setImmediate(flush)
        batchRequests.push(req)
        batchExchanges.push(x)
        return
      case '/healthz':
        if (only(x, req, 'GET')) text(x, req, 200, 'ok')
        return
      case '/readyz':
        if (!only(x, req, 'GET')) return
        if (closing) text(x, req, 503, 'shutting down')
        else if (current === undefined) text(x, req, 503, 'no policy set loaded')
        else text(x, req, 200, 'ok')
        return
      case '/metrics':
        if (!only(x, req, 'GET')) return
        metrics.registry.metrics().then(
          (body) => text(x, req, 200, body.replace(/\n$/, ''), metrics.registry.contentType),
          (e: unknown) => {
            log.error('metrics collection failed', { error: e })
            reply(x, req, errorResponse(500, 'metrics collection failed'))
          },
        )
        return
      default:
        reply(
          x,
          req,
          errorResponse(404, `no route ${path}: kelp serves POST /validate, GET /healthz, /readyz, /metrics`),
        )
    }
  }

  // AdmissionReviews are answered in batches: those that arrived in one turn of the event loop (one
  // poll of the sockets) are answered together just after it, stage by stage (handler.handleAll).
  // Each stage's code then stays in the CPU's caches: 30% less CPU per request under load on the
  // bench machine (docs/benchmarks.md); a lone request waits for nothing but its own turn.
  let batchRequests: Http1Request[] = []
  let batchExchanges: Http1Exchange[] = []
  const flush = () => {
    let requests = batchRequests
    let exchanges = batchExchanges
    if (requests.length > MAX_BATCH) {
      // bounded, so that the first answers of a large batch do not wait for all of it
      batchRequests = requests.slice(MAX_BATCH)
      batchExchanges = exchanges.slice(MAX_BATCH)
      requests = requests.slice(0, MAX_BATCH)
      exchanges = exchanges.slice(0, MAX_BATCH)
      setImmediate(flush)
    } else {
      batchRequests = []
      batchExchanges = []
    }
    let answers: HandlerResponse[]
    try {
      answers = handler.handleAll(requests.map((r) => r.body))
    } catch (e) {
      log.error('internal error handling AdmissionReviews', { error: e })
      answers = requests.map(() => errorResponse(500, 'internal error'))
    }
    // the answers written, then the metrics recorded, each loop on its own (the same locality again)
    const done = new Float64Array(requests.length)
    for (let i = 0; i < requests.length; i++) {
      const r = answers[i] as HandlerResponse
      ;(exchanges[i] as Http1Exchange).respond(requests[i] as Http1Request, {
        status: r.status,
        headers: r.headers,
        body: JSON.stringify(r.body),
      })
      done[i] = performance.now()
    }
    for (let i = 0; i < requests.length; i++)
      metrics.observeRequest(
        '/validate',
        (answers[i] as HandlerResponse).status,
        ((done[i] as number) - (requests[i] as Http1Request).started) / 1000,
      )
  }

  const onRequest = (req: Http1Request, x: Http1Exchange) => {
    try {
      route(req, x)
    } catch (e) {
      log.error('internal error', { path: req.path, method: req.method, error: e })
      reply(x, req, errorResponse(500, 'internal error'))
    }
  }

  // --- start -----------------------------------------------------------------------------------------
  const initial = readPair(options.tlsCert, options.tlsKey) // unreadable files: the caller's error
  reloadPolicies(true)

  const http: Http1Server = createHttp1Server(
    {
      tls: { ...initial, minVersion: TLS_MIN },
      bodyLimit,
      headersTimeoutMs: headersTimeout,
      requestTimeoutMs: requestTimeout,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 65_000,
      onProtocolError: (code, message) => log.debug('request refused', { code, error: message }),
    },
    onRequest,
    (code, message) => {
      const r = errorResponse(code, message)
      return { status: code, headers: r.headers, body: JSON.stringify(r.body) }
    },
  )
  server = http.tls
  certFingerprint = sha256([initial.cert, initial.key])
  metrics.observeReload('certificate', true)
  server.on('tlsClientError', (err) => log.debug('TLS handshake failed', { error: err.message }))

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(e)
    server?.once('error', onError)
    server?.listen(options.port ?? DEFAULT_PORT, options.address, () => {
      server?.off('error', onError)
      resolve()
    })
  })
  server.on('error', (e) => log.error('server error', { error: e }))
  arm('policies')
  arm('certificate')
  const addr = server.address() as AddressInfo
  log.info('listening', { address: addr.address, port: addr.port, ready: current !== undefined })

  let closePromise: Promise<void> | undefined
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((r) => {
    resolveClosed = r
  })
  const s = server
  const close = (): Promise<void> => {
    if (closePromise !== undefined) return closePromise
    closing = true
    for (const t of ['policies', 'certificate'] as const) disarm(t)
    for (const t of timers.values()) clearTimeout(t)
    timers.clear()
    log.info('shutting down: finishing requests in flight')
    closePromise = http
      .close(shutdownTimeout, () => log.warn('shutdown timeout: closing the remaining connections'))
      .then(() => log.info('stopped'))
    void closePromise.then(resolveClosed) // `closed` settles with (not before) the promise close() returned
    return closePromise
  }

  return {
    server: s,
    port: addr.port,
    address: addr.address,
    metrics,
    policySet: () => current,
    reloadPolicies: (force = true) => reloadPolicies(force),
    reloadCertificate: (force = true) => reloadCertificate(force),
    close,
    closed,
  }
}
