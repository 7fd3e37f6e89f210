// The hostile-client checks of issue 16, full size, against the built `kelp serve` as a process
// (`npm run build && node bench/webhook-hostile.js`). Every client is on loopback (127.0.0.1),
// bounded in count and time, and stops by itself. Linux (/proc) for the server's descriptors and RSS.
//
// 1. Aborted TLS handshakes: 5,000 TCP connections closed at once (FIN) or after a partial
//    ClientHello, and 200 that stay silent; after the handshake timeout (10 s) the server must hold
//    no more descriptors than before.
// 2. 5,000 pipelined requests (GET /metrics and POST /validate) on one connection that never reads:
//    the server's RSS must grow by less than 60 MiB, and another client must be answered within 1 s.
// 3. 200 AdmissionReviews with made-up resource names (custom resources refused by their CRD): no
//    new metric series.
// 4. Latency while the policies reload: requests one at a time for 6 s, with and without a SIGHUP
//    reload of the bundled pack every 500 ms (p50 / p99 / max).
// 5. Memory amplification (issue 25): 32 concurrent maximal-shape AdmissionReviews (3 MiB each, the
//    object holding a list of `{}`: a Pod's imagePullSecrets, a custom resource's free-form list), to
//    /validate and /mutate, under the deployment's heap limit (--max-old-space-size=384, as
//    docs/deploy/deployment.yaml sets it): every request answered (413 / 429 / 503 or a decision), the
//    process alive; the peak heap (V8's own figure: the largest heap-in-use before a collection, from
//    --trace-gc), the peak left after a full collection, and the peak RSS (VmHWM) printed.
//    KELP_HOSTILE_ELEMENT='{"ab":1}': the list's element (349,000 of them: under the container limit,
//    so admitted); KELP_HOSTILE_EXACT=1: through the exact-integer parser; KELP_HOSTILE_CONCURRENT=n.
// 6. Kept-alive connections at the cap: 1,024 connections each send one GET and idle; a probe on a new
//    connection must still be answered (the longest-idle connection is closed to admit it).
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { connect as netConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { connect } from 'node:tls'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const MiB = 1024 * 1024

const dir = mkdtempSync(join(tmpdir(), 'kelp-bench-hostile-'))
const certFile = join(dir, 'tls.crt')
const keyFile = join(dir, 'tls.key')
const ossl = spawnSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=kelp-bench',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ],
  { encoding: 'utf8' },
)
if (ossl.status !== 0) throw new Error(`openssl failed: ${ossl.stderr}`)
const ca = readFileSync(certFile, 'utf8')
// the bundled pack and a CRD
const policyDir = join(dir, 'policies')
mkdirSync(policyDir)
for (const f of readdirSync(join(ROOT, 'policies')).filter((f) => f.endsWith('.yaml') && !f.includes('kelp-test')))
  writeFileSync(join(policyDir, f), readFileSync(join(ROOT, 'policies', f)))
writeFileSync(
  join(policyDir, 'widgets.yaml'),
  `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 3}
              items: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`,
)

// the deployment's heap limit (docs/deploy/deployment.yaml NODE_OPTIONS); --trace-gc: V8 prints the heap
// in use before and after each collection, the peak of which check 5 reports
const HEAP_LIMIT_MB = 384
const child = spawn(
  process.execPath,
  [
    `--max-old-space-size=${HEAP_LIMIT_MB}`,
    '--trace-gc',
    join(ROOT, 'dist/cli/kelp.cjs'),
    'serve',
    '-p',
    policyDir,
    '--tls-cert',
    certFile,
    '--tls-key',
    keyFile,
    '--port',
    '0',
    '--address',
    '127.0.0.1',
    '--shutdown-delay',
    '0',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
)
/** The largest heap in use V8 saw before a collection since the last reset (MB), from --trace-gc. */
let peakHeap = 0
/** The largest heap left in use after a full collection (Mark-Compact) since the last reset (MB). */
let peakLive = 0
let gcLines = ''
child.stdout.setEncoding('utf8').on('data', (d) => {
  gcLines += d
  const lines = gcLines.split('\n')
  gcLines = lines.pop()
  for (const l of lines) {
    const m = /ms: [A-Za-z-]+[^\d]*([\d.]+) \(([\d.]+)\) -> /.exec(l)
    if (m) {
      peakHeap = Math.max(peakHeap, Number(m[1]))
      if (l.includes('Mark-Compact')) peakLive = Math.max(peakLive, Number(/-> ([\d.]+)/.exec(l)[1]))
    }
  }
})
let exited = false
child.on('exit', () => {
  exited = true
})
process.on('exit', () => {
  child.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})
const port = await new Promise((resolve, reject) => {
  let buffered = ''
  child.stderr.setEncoding('utf8').on('data', (d) => {
    buffered += d
    const m = /"msg":"listening"[^\n]*"port":(\d+)/.exec(buffered)
    if (m) resolve(Number(m[1]))
  })
  child.on('exit', (c) => reject(new Error(`kelp serve exited with ${c}`)))
})
const fds = () => readdirSync(`/proc/${child.pid}/fd`).length
const rss = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024
/** VmHWM as last read (sampled every 100 ms, so that it is known after the process died too). */
let lastHwm = 0
const hwm = () => {
  try {
    lastHwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024
  } catch {
    // exited
  }
  return lastHwm
}
setInterval(hwm, 100).unref()

const agent = new Agent({ keepAlive: true, maxSockets: 1, ca })
const call = (path, body, a = agent) =>
  new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', agent: a, ca },
      (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () => resolve({ status: res.statusCode, text }))
      },
    )
    req.on('error', reject)
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')))
    req.end(body)
  })
const review = (object, resource, uid = 'u') =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: object.apiVersion.split('/')[0], version: 'v1', kind: object.kind },
      resource,
      name: object.metadata.name,
      namespace: 'shop',
      operation: 'CREATE',
      userInfo: { username: 'alice' },
      object,
    },
  })
const widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'shop' },
  spec: { replicas: 9 },
}
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'p' } },
  spec: { containers: [{ name: 'a', image: 'registry.example.com/a:1.0' }] },
}
const podReview = review({ ...pod, apiVersion: 'v1' }, { group: '', version: 'v1', resource: 'pods' }).replace(
  '"group":"v1"',
  '"group":""',
)
await call('/healthz')
// KELP_HOSTILE_CHECKS=2,3: only those checks (default: all)
const only = new Set((process.env.KELP_HOSTILE_CHECKS ?? '1,2,3,4,5,6').split(','))
const results = []
const report = (name, value, target, ok) => {
  results.push({ name, value, target, ok })
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${value} (${target})`)
}

// 1. aborted handshakes
if (only.has('1')) {
  await sleep(500)
  const before = fds()
  const attempt = (kind) =>
    new Promise((resolve) => {
      const s = netConnect({ host: '127.0.0.1', port }, () => {
        if (kind === 'fin') s.end()
        else if (kind === 'partial') s.end(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa0, 0x01, 0x00]))
      })
      const t = setTimeout(() => {
        s.destroy()
        resolve(false)
      }, 15_000)
      s.on('close', () => {
        clearTimeout(t)
        resolve(true)
      })
      s.on('error', () => {})
      s.resume()
    })
  const kinds = [...Array(2500).fill('fin'), ...Array(2500).fill('partial'), ...Array(200).fill('silent')]
  const started = Date.now()
  const closed = []
  for (let i = 0; i < kinds.length; i += 500) closed.push(...(await Promise.all(kinds.slice(i, i + 500).map(attempt))))
  const peak = fds()
  await sleep(Math.max(0, 11_000 - (Date.now() - started)))
  const after = fds()
  report(
    'aborted handshakes: server descriptors before / after 5,000 aborted + 200 silent, past the 10 s handshake timeout',
    `${before} / ${after} (peak seen ${peak}; ${closed.filter((c) => !c).length} clients not closed by the server)`,
    'after ≤ before',
    after <= before && closed.every(Boolean),
  )
}

// 2. pipelined requests never read
if (only.has('2')) {
  await sleep(500)
  const before = rss()
  const flood = connect({ host: '127.0.0.1', port, ca })
  await new Promise((r) => flood.once('secureConnect', r))
  flood.pause()
  flood.on('error', () => {})
  const post = `POST /validate HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(podReview)}\r\n\r\n${podReview}`
  flood.write('GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(2500) + post.repeat(2500))
  await sleep(3000)
  const other = new Agent({ keepAlive: false, ca })
  const t0 = performance.now()
  const r = await call('/validate', podReview, other)
  const ms = performance.now() - t0
  await sleep(500)
  const grown = (rss() - before) / MiB
  flood.destroy()
  report('5,000 unread pipelined requests: server RSS growth', `${grown.toFixed(1)} MiB`, '< 60 MiB', grown < 60)
  report(
    '… meanwhile another client answered in',
    `${ms.toFixed(0)} ms (status ${r.status})`,
    '< 1000 ms',
    ms < 1000 && r.status === 200,
  )
}

// 3. made-up resource names
if (only.has('3')) {
  const series = async () =>
    (await call('/metrics')).text.split('\n').filter((l) => l.startsWith('kelp_admission_decisions_total{')).length
  // the CRD's own series exists once a first widget is refused; the 200 names must add none
  await call('/validate', review(widget, { group: 'example.com', version: 'v1', resource: 'widgets' }, 'w'))
  const before = await series()
  for (let i = 0; i < 200; i++)
    await call('/validate', review(widget, { group: 'example.com', version: 'v1', resource: `made-up-${i}` }, `w${i}`))
  const after = await series()
  report(
    '200 made-up resource names: kelp_admission_decisions_total series before / after',
    `${before} / ${after}`,
    'after = before',
    after === before,
  )
}

// 4. latency while reloading
if (only.has('4')) {
  const measure = async (reloading) => {
    const lat = []
    const end = Date.now() + 6000
    const hup = reloading
      ? setInterval(() => {
          // a changed file, so that the reload is not skipped as unchanged
          writeFileSync(join(policyDir, 'touch.yaml'), `# ${Date.now()}\n`)
          child.kill('SIGHUP')
        }, 500)
      : undefined
    while (Date.now() < end) {
      const t = performance.now()
      await call('/validate', podReview)
      lat.push(performance.now() - t)
      await sleep(1)
    }
    if (hup) clearInterval(hup)
    lat.sort((a, b) => a - b)
    const p = (q) => lat[Math.min(lat.length - 1, Math.ceil(q * lat.length) - 1)].toFixed(2)
    return `p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${lat.at(-1).toFixed(1)} ms (${lat.length} requests)`
  }
  const idle = await measure(false)
  const during = await measure(true)
  report('latency, one request at a time, no reload', idle, 'reference', true)
  report('latency, one request at a time, a reload of the bundled pack every 500 ms', during, 'compare', true)
}

// 5. memory amplification: 32 concurrent maximal-shape reviews, each on its own connection
if (only.has('5')) {
  const LIMIT = 3 * MiB // the apiserver's request body limit, and kelp's
  const CONCURRENT = Number(process.env.KELP_HOSTILE_CONCURRENT ?? 32)
  // the list's element (default `{}`: the most containers a body can hold, 3 bytes each)
  const ELEMENT = process.env.KELP_HOSTILE_ELEMENT ?? '{}'
  // KELP_HOSTILE_EXACT=1: a uid of 16 digits, which sends the review through the exact-integer parser
  const UID = process.env.KELP_HOSTILE_EXACT === '1' ? '1234567890123456' : undefined
  /** A review whose object holds a list of ELEMENT filling the body to 3 MiB. */
  const maximal = (object, resource, uid) => {
    const text = review(object, resource, uid ?? UID)
    const at = text.indexOf('"__LIST__"')
    const n = Math.floor((LIMIT - (text.length - '"__LIST__"'.length) - 2) / (ELEMENT.length + 1))
    return `${text.slice(0, at)}[${`${ELEMENT},`.repeat(n - 1)}${ELEMENT}]${text.slice(at + '"__LIST__"'.length)}`.replace(
      '"group":"v1"',
      '"group":""',
    )
  }
  const shapes = [
    [
      `Pod, spec.imagePullSecrets: [${ELEMENT}, …]`,
      () =>
        maximal(
          { ...pod, spec: { ...pod.spec, imagePullSecrets: '__LIST__' } },
          { group: '', version: 'v1', resource: 'pods' },
        ),
      '/validate',
    ],
    [
      `Widget (custom resource), spec.items: [${ELEMENT}, …]`,
      () =>
        maximal(
          { ...widget, spec: { replicas: 1, items: '__LIST__' } },
          { group: 'example.com', version: 'v1', resource: 'widgets' },
        ),
      '/validate',
    ],
    [
      `Pod, spec.imagePullSecrets: [${ELEMENT}, …], /mutate`,
      () =>
        maximal(
          { ...pod, spec: { ...pod.spec, imagePullSecrets: '__LIST__' } },
          { group: '', version: 'v1', resource: 'pods' },
        ),
      '/mutate',
    ],
  ]
  for (const [name, make, path] of shapes) {
    if (exited) break
    const body = make()
    await sleep(500)
    peakHeap = 0
    peakLive = 0
    const t0 = performance.now()
    const statuses = await Promise.all(
      Array.from({ length: CONCURRENT }, () => {
        const a = new Agent({ keepAlive: false, ca })
        return call(path, body, a).then(
          (r) => r.status,
          (e) => `error (${e.message})`,
        )
      }),
    )
    const ms = performance.now() - t0
    await sleep(300)
    const counts = {}
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1
    const answered = statuses.every((s) => [200, 413, 429, 503].includes(s))
    report(
      `${CONCURRENT} concurrent ${(body.length / MiB).toFixed(2)} MiB reviews (${name}) under --max-old-space-size=${HEAP_LIMIT_MB}: answers`,
      `${JSON.stringify(counts)} in ${ms.toFixed(0)} ms; process ${exited ? 'DEAD' : 'alive'}`,
      'every request answered (200 / 413 / 429 / 503), the process alive',
      answered && !exited,
    )
    report(
      '… peak heap in use (V8, before a collection) / peak live heap (after a full collection) / peak RSS so far (VmHWM)',
      `${peakHeap.toFixed(0)} MB / ${peakLive.toFixed(0)} MB / ${(hwm() / MiB).toFixed(0)} MiB${exited ? ' (before it died)' : ''}`,
      `heap ≤ ${HEAP_LIMIT_MB} MB`,
      peakHeap <= HEAP_LIMIT_MB && !exited,
    )
  }
}

// 6. kept-alive connections at the cap
if (only.has('6') && !exited) {
  await sleep(500)
  const CAP = 1024 // kelp serve's default --max-connections
  const sockets = []
  const oneGet = () =>
    new Promise((resolve) => {
      const s = connect({ host: '127.0.0.1', port, ca }, () => s.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n'))
      let got = ''
      s.setEncoding('utf8')
      s.on('data', (d) => {
        got += d
        if (got.includes('\r\n\r\n')) resolve(s)
      })
      s.on('error', () => resolve(undefined))
      s.on('close', () => resolve(undefined))
      setTimeout(() => resolve(undefined), 10_000).unref()
    })
  for (let i = 0; i < CAP; i += 128) sockets.push(...(await Promise.all(Array.from({ length: 128 }, oneGet))))
  const kept = sockets.filter(Boolean).length
  const probes = []
  for (let i = 0; i < 5; i++) {
    const other = new Agent({ keepAlive: false, ca })
    probes.push(
      await call('/healthz', undefined, other).then(
        (r) => r.status,
        (e) => `error (${e.message})`,
      ),
    )
  }
  for (const s of sockets) s?.destroy()
  report(
    `${kept} kept-alive connections idle at the cap (${CAP}): 5 probes on new connections`,
    JSON.stringify(probes),
    'all 200',
    probes.every((p) => p === 200),
  )
}

agent.destroy()
child.kill('SIGTERM')
process.exitCode = results.every((r) => r.ok) ? 0 : 1
