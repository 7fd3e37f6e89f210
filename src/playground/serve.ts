import { createReadStream, type Stats } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, sep } from 'node:path'

// `kelp playground`'s server: the static files of dist/playground/ (scripts/build-playground.js) over plain
// HTTP, for people who cannot reach a static host. The page needs nothing else: every evaluation runs in the
// browser. Only GET and HEAD; a path is decoded segment by segment and refused when a segment is `.` or `..`,
// holds a separator or NUL, or the file it names (symbolic links followed) lies outside the root; only regular
// files are served (no directory listing), and only the build's (SITE).

/** Content types by extension; anything else is application/octet-stream (with nosniff). */
const TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.json', 'application/json; charset=utf-8'],
  ['.webmanifest', 'application/manifest+json; charset=utf-8'],
  ['.txt', 'text/plain; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  // the built-in schemas, copied gzipped from data/builtin-schemas/: the page inflates them itself
  // (DecompressionStream), so they go as gzip files, not with Content-Encoding
  ['.gz', 'application/gzip'],
])

/** What the build writes (scripts/build-playground.js); tsc's output for src/playground/*.ts (this server) shares
 * the folder and is not the page's. */
const SITE: ReadonlySet<string> = new Set(['index.html', 'sw.js', 'assets', 'builtin-schemas'])

/** Files whose name carries a content hash (scripts/build-playground.js names chunks `assets/[name]-[hash].js`). */
const IMMUTABLE = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.(js|css)$/

export interface PlaygroundServerOptions {
  /** The folder served: dist/playground/ (its index.html is the page). */
  readonly root: string
  readonly host: string
  readonly port: number
}

export interface PlaygroundServer {
  readonly server: Server
  /** The page's address, e.g. http://127.0.0.1:8080/ */
  readonly url: string
  close(): Promise<void>
}

/** The request path as file path segments under the root, or an HTTP status refusing it. */
export function pathSegments(rawUrl: string): string[] | 400 | 404 {
  // the path alone: no scheme or authority may come in the request target of an origin server
  if (!rawUrl.startsWith('/')) return 400
  const q = rawUrl.search(/[?#]/)
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q)
  const segments: string[] = []
  for (const raw of path.split('/').slice(1)) {
    let s: string
    try {
      s = decodeURIComponent(raw)
    } catch {
      return 400
    }
    if (s.includes('\0')) return 400
    // a decoded separator (%2f, %5c) would join segments the check below did not see; `.` and `..` climb
    if (s.includes('/') || s.includes('\\') || s === '.' || s === '..') return 404
    segments.push(s)
  }
  if (segments.length === 0 || segments.at(-1) === '') segments[Math.max(segments.length - 1, 0)] = 'index.html'
  // an empty segment in the middle (a//b) names no file of the build
  if (segments.some((s) => s === '')) return 404
  return segments
}

function send(res: ServerResponse, status: number, text: string, head: boolean): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  })
  res.end(head ? undefined : text)
}

const etagOf = (st: Stats) => `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`

async function handle(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const head = req.method === 'HEAD'
  if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', 'GET, HEAD')
    return send(res, 405, 'method not allowed\n', false)
  }
  const segments = pathSegments(req.url ?? '')
  if (segments === 400) return send(res, 400, 'bad request\n', head)
  if (segments === 404 || !SITE.has(segments[0] as string)) return send(res, 404, 'not found\n', head)
  let file: string
  let st: Stats
  try {
    file = await realpath(join(root, ...segments))
    // a symbolic link out of the build is not served
    if (!file.startsWith(root + sep)) return send(res, 404, 'not found\n', head)
    st = await stat(file)
  } catch {
    return send(res, 404, 'not found\n', head)
  }
  if (!st.isFile()) return send(res, 404, 'not found\n', head)
  const etag = etagOf(st)
  const pathname = `/${segments.join('/')}`
  const headers: Record<string, string | number> = {
    'Content-Type': TYPES.get(extname(file).toLowerCase()) ?? 'application/octet-stream',
    'X-Content-Type-Options': 'nosniff',
    // hashed chunks never change; the rest (the page, the service worker, the schemas) is revalidated on every
    // use, so a new build is seen at once and an unchanged file costs a 304
    'Cache-Control': IMMUTABLE.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: etag,
    'Referrer-Policy': 'no-referrer',
  }
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers)
    res.end()
    return
  }
  headers['Content-Length'] = st.size
  res.writeHead(200, headers)
  if (head) {
    res.end()
    return
  }
  const stream = createReadStream(file)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}

/** Serves `root` on host:port (port 0: any free port); resolves once listening. */
export async function startPlaygroundServer(opts: PlaygroundServerOptions): Promise<PlaygroundServer> {
  const root = await realpath(opts.root)
  const server = createServer((req, res) => {
    handle(root, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error\n', false)
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    server,
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
