// The playground's service worker (built to dist/playground/sw.js): the page works offline once loaded. It
// keeps the page's own files only: the build's chunks when it installs, the built-in schemas as the page first
// fetches them. The page (index.html) is asked of the network first so that a new build is seen at once, and
// answered from the cache when offline; the hashed chunks and the schemas from the cache first. It never
// touches a request to another origin (the page makes none).

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request
  respondWith(r: Promise<Response>): void
}
interface WorkerScope {
  readonly location: Location
  readonly registration: { readonly scope: string }
  readonly clients: { claim(): Promise<void> }
  skipWaiting(): Promise<void>
  addEventListener(type: 'install' | 'activate', f: (e: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', f: (e: FetchEvent) => void): void
}

declare const self: WorkerScope

/** Replaced by scripts/build-playground.js: {"version": build id, "files": the files to keep at install}. */
const MANIFEST = '__KELP_SW_MANIFEST__'
const { version, files } = JSON.parse(MANIFEST) as { version: string; files: string[] }
const PREFIX = 'kelp-playground-'
const CACHE = PREFIX + version
const scope = new URL(self.registration.scope)

self.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(files.map((f) => new URL(f, scope).href)))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  )
})

async function networkFirst(req: Request): Promise<Response> {
  const cache = await caches.open(CACHE)
  try {
    const res = await fetch(req)
    if (res.ok) await cache.put(req, res.clone())
    return res
  } catch (e) {
    const hit = (await cache.match(req, { ignoreSearch: true })) ?? (await cache.match(new URL('./', scope).href))
    if (hit) return hit
    throw e
  }
}

async function cacheFirst(req: Request): Promise<Response> {
  const cache = await caches.open(CACHE)
  const hit = await cache.match(req)
  if (hit) return hit
  const res = await fetch(req)
  if (res.ok) await cache.put(req, res.clone())
  return res
}

self.addEventListener('fetch', (e) => {
  const req = e.request
  const url = new URL(req.url)
  if (req.method !== 'GET' || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return
  const path = url.pathname.slice(scope.pathname.length)
  if (req.mode === 'navigate' || path === '' || path === 'index.html') e.respondWith(networkFirst(req))
  else if (path.startsWith('assets/') || path.startsWith('builtin-schemas/')) e.respondWith(cacheFirst(req))
  else e.respondWith(networkFirst(req))
})
