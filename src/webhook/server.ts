import { createHash, createPrivateKey, X509Certificate } from 'node:crypto'
import { type FSWatcher, readFileSync, statSync, watch } from 'node:fs'
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { instantiateMaterial } from '../engine/material-variables.js'
import { materialKind, PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { expandPaths, parseManifests } from '../manifest/load.js'
import { createLogger, type Logger } from '../report/log.js'
import { createDeepLane, DEEP_NESTING, MAX_REVIEW_NESTING } from './deep.js'
import { type AdmitEvent, createAdmissionHandler, errorResponse, type HandlerResponse } from './handler.js'
import { type JSONShape, jsonShape } from './json.js'
import { createMetrics, type RefusalReason, type ReloadTarget, type WebhookMetrics } from './metrics.js'

// `kelp serve`: the admission handler over node:https.
//
// Routes: POST /validate (AdmissionReview v1), GET /healthz (the process answers), GET /readyz (a
// policy set is loaded and the server is not shutting down), GET /metrics (Prometheus text); the
// optional plain-HTTP metrics port serves the last three only.
// node's HTTP server gives the protections a server facing the network needs (llhttp, patched by
// Node's security releases; sockets torn down on TLS errors and handshake timeouts; header and
// request timeouts; reading paused while a connection's answers are not read). kelp adds what node
// leaves to the application: a connection cap (closing the longest-idle kept-alive connection when
// full), a body limit (413) and an overall budget for bodies in memory (503), bounds on what bodies cost
// once parsed (parsedCost: 413, 429), a cap on unanswered pipelined requests per connection, bounded
// refusal counters, ECDHE+AEAD ciphers on TLS 1.2, optional client certificates (mTLS).
// Reloads: the policy paths and the certificate files are watched (their directories, so that the
// atomic `..data` symlink swaps of ConfigMap / Secret volumes are seen); changes are debounced; the
// new set is built between requests and swapped in with one assignment, so each request sees one
// whole set. A set that does not load is logged and counted, and the last good set keeps serving. A
// certificate is installed (setSecureContext) only once its key is checked to match it.
// Shutdown: close() reports not ready at once and keeps answering for shutdownDelay (the time the
// cluster needs to stop sending here), then stops accepting connections; each open connection
// closes after its next answer (Connection: close) or once idle; those still open after
// shutdownTimeout are cut.

export const DEFAULT_PORT = 8443
export const BODY_LIMIT = 3 * 1024 * 1024

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

export interface ReloadResult {
  readonly target: ReloadTarget
  readonly outcome: 'loaded' | 'unchanged' | 'failed'
  readonly errors?: readonly string[]
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
    set = PolicySet.build(instantiateMaterial(objects, releaseOf(options)), options)
  } catch (e) {
    return { ok: false, errors: [`building the policy set failed: ${(e as Error).message}`] }
  }
  if (set.problems.length > 0)
    return { ok: false, errors: set.problems.map((p) => `${p.kind} ${p.name}: ${p.message}`) }
  return { ok: true, set, objects: objects.length }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * buildPolicySet in slices, each in its own turn of the event loop, so that requests are answered
 * with the serving set in between (a whole build of the bundled pack takes 55-150 ms on the bench
 * machine, and the first requests after it as much again to compile the policies): each file
 * parsed, each ValidatingAdmissionPolicy validated on its own (its validation reads nothing else),
 * the set built with those trusted (the rest, bindings and CRDs, validated there as usual), then
 * each policy's expressions compiled. The outcome is buildPolicySet's.
 */
export async function buildPolicySetInSlices(read: PolicyFiles, options: PolicySetOptions = {}): Promise<PolicyLoad> {
  const parsed = await parseInSlices(read)
  if (!parsed.ok) return parsed
  return buildObjectsInSlices(parsed.objects, options)
}

/** The policy files parsed, one file per turn of the event loop. */
async function parseInSlices(
  read: PolicyFiles,
): Promise<{ ok: true; objects: Record<string, unknown>[] } | { ok: false; errors: string[] }> {
  const errors = [...read.errors]
  const objects: Record<string, unknown>[] = []
  for (const { file, text } of read.texts) {
    const r = parseManifests(text, file)
    objects.push(...r.objects.map((o) => o.object))
    for (const f of r.errors) {
      const at = f.source?.line !== undefined ? `:${f.source.line}:${f.source.column ?? 1}` : ''
      errors.push(`${f.source?.file ?? file}${at}: ${f.message}`)
    }
    await turn()
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, objects }
}

/** The release whose variables the pack's policies get (kelp.dev/ annotations, as kelp check sets them). */
const releaseOf = (options: PolicySetOptions): string => options.release ?? options.version ?? DEFAULT_KUBE_VERSION

async function buildObjectsInSlices(given: Record<string, unknown>[], options: PolicySetOptions): Promise<PolicyLoad> {
  // the bundled pack (or copies of it) instantiated for the release, as kelp check does
  const objects = instantiateMaterial(given, releaseOf(options))
  const errors: string[] = []
  const validated = new Set<object>()
  try {
    for (const o of objects) {
      if (materialKind(o) !== 'ValidatingAdmissionPolicy') continue
      for (const p of PolicySet.build([o], options).problems) errors.push(`${p.kind} ${p.name}: ${p.message}`)
      validated.add(o)
      await turn()
    }
    if (errors.length > 0) return { ok: false, errors }
    const given = options.trusted
    const trusted = (o: object) => validated.has(o) || given === true || (typeof given === 'function' && given(o))
    const set = PolicySet.build(objects, { ...options, trusted })
    if (set.problems.length > 0)
      return { ok: false, errors: set.problems.map((p) => `${p.kind} ${p.name}: ${p.message}`) }
    for (const hook of set.policies) {
      void hook.validator.shared // compiles the policy now, not in the first request it sees
      await turn()
    }
    return { ok: true, set, objects: objects.length }
  } catch (e) {
    return { ok: false, errors: [`building the policy set failed: ${(e as Error).message}`] }
  }
}

const isMutatingMaterial = (o: object) => {
  const k = materialKind(o)
  return k === 'MutatingAdmissionPolicy' || k === 'MutatingAdmissionPolicyBinding'
}
const isValidatingMaterial = (o: object) => {
  const k = materialKind(o)
  return k === 'ValidatingAdmissionPolicy' || k === 'ValidatingAdmissionPolicyBinding'
}

/** The two sets `kelp serve` answers with: /validate's and /mutate's. */
export type ServingLoad =
  | {
      ok: true
      set: PolicySet
      mutating: PolicySet
      objects: number
      mutatingPolicies: number
      /** The names of /mutate's bound MutatingAdmissionPolicies and of its bindings (metric series). */
      mutatingNames: { policies: string[]; bindings: string[] }
    }
  | { ok: false; errors: string[] }

/**
 * The sets of `kelp serve`, in slices: /validate's from every object but the MutatingAdmissionPolicies
 * and their bindings (the apiserver calls the mutating webhooks first and sends /validate the mutated
 * object: mutating it again would judge an object the cluster does not store), /mutate's from every
 * object but the ValidatingAdmissionPolicies and their bindings (CRDs, params and Namespaces in both).
 * Without mutating policies /mutate's set is empty: it answers every review allowed, with no patch.
 * A problem in either set fails the load (each text once).
 */
export async function buildServingSets(read: PolicyFiles, options: PolicySetOptions = {}): Promise<ServingLoad> {
  const parsed = await parseInSlices(read)
  if (!parsed.ok) return parsed
  const objects = parsed.objects
  const validating = await buildObjectsInSlices(
    objects.filter((o) => !isMutatingMaterial(o)),
    options,
  )
  const mutatingObjects = objects.filter((o) => !isValidatingMaterial(o))
  const hasMutating = mutatingObjects.some(isMutatingMaterial)
  const mutating = hasMutating ? await buildObjectsInSlices(mutatingObjects, options) : undefined
  const errors = [
    ...new Set([
      ...(validating.ok ? [] : validating.errors),
      ...(mutating === undefined || mutating.ok ? [] : mutating.errors),
    ]),
  ]
  if (errors.length > 0 || !validating.ok || (mutating !== undefined && !mutating.ok)) return { ok: false, errors }
  const nameOf = (o: object) => String((o as { metadata?: { name?: unknown } }).metadata?.name ?? '')
  const bindings = mutatingObjects.filter((o) => materialKind(o) === 'MutatingAdmissionPolicyBinding')
  const bound = new Set(bindings.map((o) => String((o as { spec?: { policyName?: unknown } }).spec?.policyName ?? '')))
  const boundPolicies = mutatingObjects
    .filter((o) => materialKind(o) === 'MutatingAdmissionPolicy' && bound.has(nameOf(o)))
    .map(nameOf)
  return {
    ok: true,
    set: validating.set,
    mutating: mutating?.set ?? PolicySet.build([], options),
    objects: objects.length,
    mutatingPolicies: boundPolicies.length,
    mutatingNames: { policies: boundPolicies, bindings: bindings.map(nameOf) },
  }
}

interface TlsMaterial {
  readonly cert: Buffer
  readonly key: Buffer
  readonly ca?: Buffer
}

/**
 * Reads the serving pair (and the client CA) and checks that the key is the certificate's: a
 * mismatched pair (an EC key beside an RSA certificate, half of a rotation) would make every
 * handshake fail, so it is refused here and the last good pair keeps serving.
 */
export function readTlsMaterial(certFile: string, keyFile: string, caFile?: string): TlsMaterial {
  const cert = readFileSync(certFile)
  const key = readFileSync(keyFile)
  const ca = caFile === undefined ? undefined : readFileSync(caFile)
  let matches: boolean
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))
  } catch (e) {
    throw new Error(`the certificate or key does not parse: ${(e as Error).message}`)
  }
  if (!matches) throw new Error(`the private key ${keyFile} does not belong to the certificate ${certFile}`)
  if (ca !== undefined) {
    try {
      new X509Certificate(ca)
    } catch (e) {
      throw new Error(`the client CA ${caFile} does not parse: ${(e as Error).message}`)
    }
  }
  return { cert, key, ...(ca !== undefined ? { ca } : {}) }
}

const TLS_MIN = 'TLSv1.2' as const
/**
 * TLS 1.3's suites as node has them, and on TLS 1.2 only ECDHE key exchange with AEAD ciphers (no
 * static-RSA key exchange, no CBC): what the Kubernetes and Mozilla "intermediate" profiles allow.
 */
export const CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':')

const secureOptions = (m: TlsMaterial) => ({
  cert: m.cert,
  key: m.key,
  ...(m.ca !== undefined ? { ca: m.ca } : {}),
  minVersion: TLS_MIN,
  ciphers: CIPHERS,
  honorCipherOrder: true,
})

const TEXT = 'text/plain; charset=utf-8'
/** The most AdmissionReviews answered together (see `flush`). */
const MAX_BATCH = 32

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
const BATCH_COST = 64 * 1024 * 1024

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
/**
 * Unanswered requests per connection before kelp stops reading it: node pauses a connection whose
 * written answers back up, but answers written later (a batch, /metrics) are not counted by then,
 * so a client that pipelines and never reads would otherwise have every request parsed and held.
 */
const PIPELINE_LIMIT = 32

/** A request, with what kelp keeps of it (no closures per request: the listeners are shared). */
class Request extends IncomingMessage {
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

/** Starts the webhook server; resolves once it listens (the first policy load has been attempted). */
export async function startWebhookServer(options: ServeOptions): Promise<WebhookServer> {
  const log = options.logger ?? createLogger()
  const metrics = createMetrics({ processMetrics: options.processMetrics !== false })
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT
  const bodyBudget = options.bodyBudget ?? 64 * 1024 * 1024
  const parsedBudget = options.parsedBudget ?? 256 * 1024 * 1024
  const debounceMs = options.debounceMs ?? 300
  const requestTimeout = options.requestTimeoutMs ?? 30_000
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout)
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 95_000
  const shutdownDelay = options.shutdownDelayMs ?? 0
  const shutdownTimeout = options.shutdownTimeoutMs ?? 25_000
  const maxConnections = options.maxConnections ?? 1024

  let current: PolicySet | undefined
  /** /mutate's set, swapped with `current`. */
  let currentMutating: PolicySet | undefined
  let policyFingerprint: string | undefined
  /** The policy files `current` was built from, and how: what the deep lane builds its sets from. */
  let serving: { read: PolicyFiles; options: PolicySetOptions } | undefined
  const deepLane = createDeepLane((e) => log.error('deep-review worker failed', { error: e }))
  let certFingerprint: string | undefined
  /** Not ready (close() was called). */
  let closing = false
  /** Past the shutdown delay: every answer closes its connection. */
  let draining = false
  /** Bytes of request bodies in memory, all connections. */
  let held = 0
  /** The estimated parsed cost of the bodies received and not yet answered (in `batch`), all connections. */
  let queued = 0

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
  const handler = createAdmissionHandler(() => current, { onAdmit })
  const mutateHandler = createAdmissionHandler(() => currentMutating, { onAdmit, mode: 'mutate' })

  // --- reloads ---------------------------------------------------------------------------------------
  // one at a time, in slices (buildPolicySetInSlices): the serving set answers until the swap
  let reloads: Promise<ReloadResult> = Promise.resolve({ target: 'policies', outcome: 'unchanged' })
  const reloadPolicies = (force = false): Promise<ReloadResult> => {
    reloads = reloads.then(() => reloadPoliciesNow(force))
    return reloads
  }
  const reloadPoliciesNow = async (force: boolean): Promise<ReloadResult> => {
    const started = performance.now()
    const read = readPolicyFiles(options.policies)
    if (!force && read.fingerprint === policyFingerprint) return { target: 'policies', outcome: 'unchanged' }
    policyFingerprint = read.fingerprint
    // builtins off: kube-apiserver decodes, defaults, names and validates (the strategy's, in the
    // store's BeforeCreate / BeforeUpdate) the object before it calls a validating webhook, so the
    // review's object is taken as it is (decoding it again cost ~16 µs per review and changed nothing)
    // (the mutating webhooks are called before that: MutatingAdmissionPolicies run on the object as
    // the apiserver decoded and defaulted it; their ApplyConfiguration schemas are the release's
    // built-in ones, which do not depend on `builtins`)
    // every version of the material read: /mutate exists for clusters that do not serve MutatingAdmissionPolicies
    const setOptions: PolicySetOptions = { builtins: false, materialVersions: 'any', ...options.policySetOptions }
    const r = await buildServingSets(read, setOptions)
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
    current = r.set // the swap: a batch reads `current` (and `currentMutating`) once
    currentMutating = r.mutating
    serving = { read, options: setOptions }
    metrics.observeReload('policies', true)
    metrics.setPoliciesLoaded(r.set.policies.length)
    metrics.setMutatingPoliciesLoaded(r.mutatingPolicies)
    // the series of policies, CRDs and bindings no longer loaded are dropped
    metrics.retainLoaded({
      policies: r.set.policies.map((h) => h.policy.metadata?.name ?? ''),
      crds: [...r.set.crds, ...r.mutating.crds].map((c) => c.name),
      mutatingPolicies: r.mutatingNames.policies,
      mutatingBindings: r.mutatingNames.bindings,
    })
    log.info('policy set loaded', {
      paths: options.policies,
      objects: r.objects,
      policies: r.set.policies.length,
      mutatingPolicies: r.mutatingPolicies,
      crds: [...r.set.crds].length,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
    return { target: 'policies', outcome: 'loaded' }
  }

  let server: HttpsServer | undefined
  const reloadCertificate = (force = false): ReloadResult => {
    let material: TlsMaterial
    try {
      material = readTlsMaterial(options.tlsCert, options.tlsKey, options.clientCA)
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
    const fp = sha256([material.cert, material.key, material.ca ?? ''])
    if (!force && fp === certFingerprint) return { target: 'certificate', outcome: 'unchanged' }
    try {
      server?.setSecureContext(secureOptions(material))
    } catch (e) {
      metrics.observeReload('certificate', false)
      const err = (e as Error).message
      log.error('certificate not reloaded: the current one keeps serving', { errors: [err] })
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
        const fail = (e: unknown) => log.error('reload failed', { target, error: e })
        try {
          if (target === 'policies') reloadPolicies().catch(fail)
          else reloadCertificate()
        } catch (e) {
          fail(e)
        }
        arm(target) // a replaced directory needs a new watch
      }, debounceMs),
    )
  }
  const watchTargets = (target: ReloadTarget): { path: string; recursive: boolean }[] => {
    const paths =
      target === 'policies'
        ? options.policies
        : [options.tlsCert, options.tlsKey, ...(options.clientCA !== undefined ? [options.clientCA] : [])]
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
  const stateOf = (socket: Socket): ConnState => {
    const s = socket as Tracked
    let st = s[CONN]
    if (st === undefined) {
      st = { pending: 0, paused: false, last: Date.now(), answered: 0 }
      s[CONN] = st
    }
    return st
  }

  /** Writes an answer (once per request); a draining server closes the connection after it. */
  const write = (req: Request, status: number, headers: OutgoingHttpHeaders, body: string) => {
    const res = req.response as ServerResponse
    req.answered = true
    // Object.assign: a spread followed by a new key costs ~1 µs on Node 20's V8 (docs/benchmarks.md)
    const h: OutgoingHttpHeaders = Object.assign({}, headers, { 'content-length': Buffer.byteLength(body) })
    if (draining) h.connection = 'close'
    res.writeHead(status, h)
    res.end(req.method === 'HEAD' ? undefined : body)
    metrics.observeRequest(req.path, status, (performance.now() - req.started) / 1000)
  }
  const reply = (req: Request, r: HandlerResponse) => write(req, r.status, r.headers ?? {}, JSON.stringify(r.body))
  const text = (req: Request, status: number, t: string, contentType = TEXT) =>
    write(req, status, { 'content-type': contentType }, `${t}\n`)
  /** A refusal while the body may still arrive: the connection closes after the answer. */
  const refuse = (req: Request, r: HandlerResponse, reason: RefusalReason) => {
    release(req)
    req.reading = false
    req.first = undefined
    req.grown = undefined
    metrics.observeRefusal(reason)
    write(req, r.status, { ...r.headers, connection: 'close' }, JSON.stringify(r.body))
  }
  const tooLarge = () =>
    errorResponse(413, `request body is larger than the limit of ${bodyLimit} bytes (${bodyLimit / 1048576} MiB)`)
  const release = (req: Request) => {
    held -= req.held
    req.held = 0
  }

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
    reply(
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
    reply(
      req,
      errorResponse(429, 'too many large AdmissionReviews waiting to be answered: retry', { 'retry-after': '1' }),
    )
  }

  // shared listeners (`this` is the request or the response)
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
    if (batch.length > 0 && queued + cost > parsedBudget) return refuseBusy(this)
    this.body = body
    this.cost = cost
    this.nesting = shape.nesting
    queued += cost
    if (!shallow(this)) return
    if (batch.length === 0) setImmediate(flush)
    batch.push(this)
  }
  function onRequestClose(this: Request) {
    release(this) // an aborted body gives its bytes back
  }
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

  /** Whether `method` may be used where `allowed` is; answers 405 when not. */
  const only = (req: Request, allowed: string): boolean => {
    const method = req.method
    if (method === allowed || (allowed === 'GET' && method === 'HEAD')) return true
    const allow = allowed === 'GET' ? 'GET, HEAD' : allowed
    reply(req, errorResponse(405, `method ${method} is not allowed on ${req.path}: use ${allowed}`, { allow }))
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
        const declared = req.headers['content-length']
        if (declared !== undefined && Number(declared) > bodyLimit) return refuse(req, tooLarge(), 'body_too_large')
        req.reading = true
        req.on('data', onBody)
        req.on('end', onBodyEnd)
        req.once('close', onRequestClose)
        return
      }
      case '/healthz':
      case 'plain:/healthz':
        if (only(req, 'GET')) text(req, 200, 'ok')
        return
      case '/readyz':
      case 'plain:/readyz':
        if (!only(req, 'GET')) return
        if (closing) text(req, 503, 'shutting down')
        else if (current === undefined) text(req, 503, 'no policy set loaded')
        else text(req, 200, 'ok')
        return
      case '/metrics':
      case 'plain:/metrics':
        if (!only(req, 'GET')) return
        renderMetrics().then(
          (body) => text(req, 200, body.replace(/\n$/, ''), metrics.registry.contentType),
          (e: unknown) => {
            log.error('metrics collection failed', { error: e })
            reply(req, errorResponse(500, 'metrics collection failed'))
          },
        )
        return
      default:
        reply(
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
    queued -= cost
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
      release(req)
      if (req.answered) continue
      try {
        reply(req, answers[i] as HandlerResponse)
      } catch (e) {
        log.error('internal error writing an answer', { error: e })
        answerFailed(req)
      }
    }
  }
  /**
   * A review nested past DEEP_NESTING goes to the deep lane (deep.ts) and is answered when it answers;
   * the rest stay in the batch. The lane builds the serving set's files, so it answers as `current` would.
   */
  const shallow = (req: Request): boolean => {
    const body = req.body as Buffer
    if (serving === undefined) return true
    const nesting = req.nesting
    if (nesting <= DEEP_NESTING) return true
    if (nesting > MAX_REVIEW_NESTING) {
      req.body = undefined
      queued -= req.cost
      release(req)
      const message = `request body nests more than ${MAX_REVIEW_NESTING} levels: kube-apiserver decodes objects of at most 10000`
      reply(req, errorResponse(400, message))
      return false
    }
    const done = (a: { status: number; headers: OutgoingHttpHeaders; body: string }) => {
      queued -= req.cost
      release(req)
      if (req.answered) return
      try {
        write(req, a.status, a.headers, a.body)
      } catch (e) {
        log.error('internal error writing an answer', { error: e })
        answerFailed(req)
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
  /** An answer that could not be written: a 500 if nothing went out yet, else the connection is cut. */
  const answerFailed = (req: Request) => {
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

  const onRequest = (plain: boolean) => (r: IncomingMessage, res: ServerResponse) => {
    const req = r as Request
    req.started = performance.now()
    req.response = res
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    req.path = q < 0 ? url : url.slice(0, q)
    const st = stateOf(req.socket)
    st.pending++
    st.last = Date.now()
    res.once('close', onResponseDone)
    if (st.pending > PIPELINE_LIMIT) {
      // on every request past the cap: node's own drain handler may have resumed the socket
      st.paused = true
      req.socket.pause()
    }
    try {
      route(req, plain)
    } catch (e) {
      log.error('internal error', { path: req.path, method: req.method, error: e })
      if (!req.answered) answerFailed(req)
    }
  }

  /**
   * Requests node refuses before they reach kelp (malformed, headers too large, too slow) and TLS
   * failures: counted by kind (a bounded set), then answered as node answers them without a
   * listener; the socket is always destroyed (a listener takes that duty over from node).
   */
  const onClientError = (err: NodeJS.ErrnoException, socket: Socket) => {
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
  }

  const httpOptions = {
    IncomingMessage: Request,
    maxHeaderSize: 16 * 1024,
    headersTimeout,
    requestTimeout,
    keepAliveTimeout,
    // the timeouts are checked this often (node's default, 30 s, would let a slow client keep its
    // connection up to 40 s past a 10 s headers timeout)
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    noDelay: true,
  }
  /** Raw sockets (TLS handshakes included), for the forced end of a shutdown. */
  const sockets = new Set<Socket>()
  const track = (s: Socket) => {
    sockets.add(s)
    s.once('close', () => sockets.delete(s))
  }
  /** The connections HTTP is spoken on (after the handshake), for closing idle ones at shutdown. */
  const connections = new Set<Socket>()
  /** Per server: its HTTP connections (after the handshake), the candidates for closing at the cap. */
  const onConnection = (own: Set<Socket>) => (s: Socket) => {
    stateOf(s)
    connections.add(s)
    own.add(s)
    s.once('close', () => {
      connections.delete(s)
      own.delete(s)
    })
  }
  /**
   * The connection cap, kelp's rather than node's (server.maxConnections closes every connection past
   * the cap): 1,024 clients that each send one request and keep the connection alive would hold the
   * cap for the whole keep-alive time (95 s), and the apiserver's calls and the kubelet's probes would
   * be closed at accept meanwhile. At the cap, a new connection closes the kept-alive connection idle
   * the longest (answered at least once, nothing in flight: closing it loses no request, as the
   * keep-alive timeout would); with none (every connection busy, or in its handshake or first request,
   * which the handshake and headers timeouts bound), the new one is closed, as node would.
   */
  const capConnections = (cap: number, own: Set<Socket>) => {
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
  }
  /** Expect: 100-continue: a body over the limit is refused before the client sends it. */
  const onCheckContinue = (plainPort: boolean) => {
    const handle = onRequest(plainPort)
    return (req: IncomingMessage, res: ServerResponse) => {
      if (!(Number(req.headers['content-length'] ?? 0) > bodyLimit)) res.writeContinue()
      handle(req, res)
    }
  }

  // --- start -----------------------------------------------------------------------------------------
  const initial = readTlsMaterial(options.tlsCert, options.tlsKey, options.clientCA) // the caller's error
  await reloadPolicies(true)

  server = createHttpsServer(
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
  server.on('clientError', onClientError)
  server.on('connection', track)
  server.on('connection', capConnections(maxConnections, httpsConnections))
  server.on('secureConnection', onConnection(httpsConnections))
  server.on('checkContinue', onCheckContinue(false))
  certFingerprint = sha256([initial.cert, initial.key, initial.ca ?? ''])
  metrics.observeReload('certificate', true)

  let plain: HttpServer | undefined
  if (options.metricsPort !== undefined) {
    plain = createHttpServer(httpOptions, onRequest(true))
    const plainConnections = new Set<Socket>()
    plain.on('clientError', onClientError)
    plain.on('connection', track)
    plain.on('connection', capConnections(Math.max(16, Math.floor(maxConnections / 8)), plainConnections))
    plain.on('connection', onConnection(plainConnections))
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
  arm('policies')
  arm('certificate')
  const addr = server.address() as AddressInfo
  const plainPort = plain === undefined ? undefined : (plain.address() as AddressInfo).port
  log.info('listening', {
    address: addr.address,
    port: addr.port,
    ...(plainPort !== undefined ? { metricsPort: plainPort } : {}),
    mtls: options.clientCA !== undefined || undefined,
    ready: current !== undefined,
  })

  let closePromise: Promise<void> | undefined
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((r) => {
    resolveClosed = r
  })
  const s = server
  const servers = plain === undefined ? [s] : [s, plain]
  const close = (): Promise<void> => {
    if (closePromise !== undefined) return closePromise
    closing = true
    for (const t of ['policies', 'certificate'] as const) disarm(t)
    for (const t of timers.values()) clearTimeout(t)
    timers.clear()
    log.info('shutting down: not ready, answering', { ms: shutdownDelay })
    closePromise = new Promise<void>((r) => setTimeout(r, shutdownDelay))
      .then(() => {
        draining = true
        log.info('shutting down: closing connections between requests', { timeoutMs: shutdownTimeout })
        return Promise.all(servers.map((x) => drain(x)))
      })
      .then(() => deepLane.close())
      .then(() => log.info('stopped'))
    void closePromise.then(resolveClosed) // `closed` settles with (not before) the promise close() returned
    return closePromise
  }
  /**
   * Stops accepting; a connection closes after its next answer (see onResponseDone), or once it
   * has been idle for a second (a client's request on it may cross the close: a short idle time
   * is left for it); after shutdownTimeout, the rest are cut.
   */
  const drain = (x: HttpServer | HttpsServer) =>
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
      }, shutdownTimeout)
      force.unref()
      // net's close (not http's, which also cuts idle connections at once, crossing requests a
      // client sends on them): stop accepting, and call back once the last connection is gone
      NetServer.prototype.close.call(x, () => {
        clearInterval(sweep)
        clearTimeout(force)
        resolve()
      })
    })

  return {
    server: s,
    port: addr.port,
    address: addr.address,
    ...(plainPort !== undefined ? { metricsPort: plainPort } : {}),
    metrics,
    policySet: () => current,
    mutatingPolicySet: () => currentMutating,
    reloadPolicies: (force = true) => reloadPolicies(force),
    reloadCertificate: (force = true) => reloadCertificate(force),
    close,
    closed,
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
}
