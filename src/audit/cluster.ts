import { request as httpRequest } from 'node:http'
import { request as httpsRequest, type RequestOptions } from 'node:https'
import { createRequire } from 'node:module'
import type { JSONObject } from '../kube/values/json.js'
import { isObject } from '../kube/values/json.js'
import { TokenBucket } from './rate-limit.js'

// The cluster `kelp audit` reads: a kubeconfig as kubectl reads it (KUBECONFIG, --kubeconfig, --context, the
// in-cluster service account; exec and OIDC credentials), through the official client
// (@kubernetes/client-node: KubeConfig and its authenticators, loaded on use), and GETs whose JSON is kept as
// the apiserver sent it (the client's typed models turn timestamps into Dates: not what a policy reads). Requests
// are rate-limited and retried as client-go's defaults do (rest/config.go QPS 5, burst 10; 429 and 5xx retried
// after Retry-After, rest/request.go maxRetries 10).

export interface ClusterOptions {
  readonly kubeconfig?: string
  readonly context?: string
  /** Requests per second and burst (client-go defaults 5 and 10). */
  readonly qps?: number
  readonly burst?: number
  /** Objects per LIST page (`limit`). */
  readonly pageSize?: number
}

/** A GET that failed: the HTTP status and the Status message (403 forbidden, 404 not served, …). */
export class ClusterError extends Error {
  constructor(
    readonly path: string,
    readonly code: number,
    message: string,
  ) {
    super(code === 0 ? message : `${code} ${message}`)
  }
}

export interface Cluster {
  /** The kubeconfig context in use and the server's address. */
  readonly context: string
  readonly server: string
  /** GET a path; the decoded JSON body. */
  get(path: string): Promise<JSONObject>
  /** A LIST, page by page (`limit` / `continue`): the items, with apiVersion and kind set as the list's. */
  list(path: string, apiVersion: string, kind: string): AsyncGenerator<JSONObject[]>
  /** POST the object to a collection, or PUT it over the one of its name (--write-reports). */
  createOrReplace(collection: string, object: JSONObject): Promise<'created' | 'replaced'>
  remove(path: string): Promise<void>
}

const MAX_RETRIES = 10
const CONNECTION_RETRIES = 4

type ClientNode = typeof import('@kubernetes/client-node')

/** Connects with the kubeconfig (nothing is requested yet). */
export async function connect(options: ClusterOptions = {}): Promise<Cluster> {
  // required on use (Node's require of an ES module; the CLI bundle runs in a vm.Script, where import() has no loader)
  const k8s = createRequire(import.meta.url)('@kubernetes/client-node') as ClientNode
  const kc = new k8s.KubeConfig()
  if (options.kubeconfig !== undefined) kc.loadFromFile(options.kubeconfig)
  else kc.loadFromDefault()
  if (options.context !== undefined) kc.setCurrentContext(options.context)
  const cluster = kc.getCurrentCluster()
  if (cluster === null) throw new Error(`no cluster in the kubeconfig's context '${kc.getCurrentContext()}'`)
  const server = cluster.server.replace(/\/+$/, '')
  const bucket = new TokenBucket(options.qps ?? 5, options.burst ?? 10)
  const pageSize = options.pageSize ?? 500

  const once = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: string; retryAfter?: string }> => {
    await bucket.take()
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const opts: RequestOptions = {
      method,
      headers: {
        Accept: 'application/json',
        ...(payload !== undefined
          ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
          : {}),
      },
    }
    await kc.applyToHTTPSOptions(opts)
    const url = new URL(server + path)
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest
    return new Promise((resolve, reject) => {
      const req = send(url, opts, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const retryAfter = res.headers['retry-after']
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
          })
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(payload)
    })
  }

  const call = async (method: string, path: string, body?: unknown): Promise<JSONObject> => {
    for (let attempt = 0; ; attempt++) {
      let r: Awaited<ReturnType<typeof once>>
      try {
        r = await once(method, path, body)
      } catch (e) {
        // a connection refused or reset: a GET is tried again a few times (kubectl's own five tries), then said
        if (attempt < CONNECTION_RETRIES && method === 'GET') {
          await new Promise((done) => setTimeout(done, 1000))
          continue
        }
        throw new ClusterError(path, 0, e instanceof Error ? e.message : String(e))
      }
      if ((r.status === 429 || r.status >= 500) && attempt < MAX_RETRIES) {
        // rest/request.go checkWait: Retry-After seconds (1 s when absent or unreadable)
        const seconds = Number(r.retryAfter)
        await new Promise((done) => setTimeout(done, (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000))
        continue
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(r.body)
      } catch {
        parsed = undefined
      }
      if (r.status < 200 || r.status >= 300) {
        const message = isObject(parsed) && typeof parsed.message === 'string' ? parsed.message : r.body.slice(0, 200)
        throw new ClusterError(path, r.status, message)
      }
      if (!isObject(parsed)) throw new ClusterError(path, r.status, 'the response is not a JSON object')
      return parsed
    }
  }
  const get = (path: string) => call('GET', path)

  async function* list(path: string, apiVersion: string, kind: string): AsyncGenerator<JSONObject[]> {
    let cont = ''
    const [base = '', query = ''] = path.split('?')
    do {
      const q = new URLSearchParams(query)
      q.set('limit', String(pageSize))
      if (cont !== '') q.set('continue', cont)
      const page = await get(`${base}?${q}`)
      const items = Array.isArray(page.items) ? page.items : []
      // the items of a LIST carry no apiVersion and kind: the list's (a spread defines keys, `__proto__` too)
      yield items.filter(isObject).map((o) => ({ apiVersion, kind, ...o }))
      const meta = isObject(page.metadata) ? page.metadata : {}
      cont = typeof meta.continue === 'string' ? meta.continue : ''
    } while (cont !== '')
  }

  /** Creates the object in a collection, or replaces it (PUT with the stored resourceVersion) when it exists. */
  const createOrReplace = async (collection: string, object: JSONObject): Promise<'created' | 'replaced'> => {
    const name = isObject(object.metadata) ? String(object.metadata.name ?? '') : ''
    try {
      const current = await get(`${collection}/${encodeURIComponent(name)}`)
      const rv = isObject(current.metadata) ? current.metadata.resourceVersion : undefined
      const meta = isObject(object.metadata) ? object.metadata : {}
      await call('PUT', `${collection}/${encodeURIComponent(name)}`, {
        ...object,
        metadata: { ...meta, resourceVersion: rv },
      })
      return 'replaced'
    } catch (e) {
      if (!(e instanceof ClusterError) || e.code !== 404) throw e
      await call('POST', collection, object)
      return 'created'
    }
  }
  const remove = async (path: string): Promise<void> => {
    await call('DELETE', path)
  }

  return { context: kc.getCurrentContext(), server, get, list, createOrReplace, remove }
}
