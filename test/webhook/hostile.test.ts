import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { Agent } from 'node:https'
import { connect as netConnect } from 'node:net'
import { dirname, join } from 'node:path'
import { connect, type TLSSocket } from 'node:tls'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../src/report/log.js'
import { type ServeOptions, startWebhookServer, type WebhookServer } from '../../src/webhook/server.js'
import {
  DEPLOYMENTS,
  deployment,
  hasOpenssl,
  makeCert,
  makeClientCA,
  makeRsaCert,
  PODS,
  parseResponses,
  REPLICAS_POLICY,
  responses,
  review,
  send,
  talk,
  tempDir,
  WIDGET_CRD,
  WIDGETS,
  waitFor,
  widget,
  writeAtomic,
} from './helpers.js'

/** A full collection (node's gc, exposed at run time: the tests run without --expose-gc). */
const collect = (() => {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
})()

// The hardening of issue 16, each item with a client that misbehaves (raw TCP or TLS on loopback,
// bounded in count and time, each stopping by itself). bench/webhook-hostile.js runs the full-size
// checks against the built `kelp serve` process; these are the smaller, in-process versions.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const MiB = 1024 * 1024

let running: WebhookServer[] = []
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()))
  running = []
  vi.restoreAllMocks()
})

async function start(extra: Partial<ServeOptions> = {}, policies = [REPLICAS_POLICY(5), WIDGET_CRD]) {
  const dir = tempDir()
  const tls = makeCert(dir)
  const pdir = join(dir, 'policies')
  mkdirSync(pdir)
  for (const [i, p] of policies.entries()) writeFileSync(join(pdir, `p${i}.yaml`), p)
  const srv = await startWebhookServer({
    policies: [pdir],
    tlsCert: tls.certFile,
    tlsKey: tls.keyFile,
    port: 0,
    address: '127.0.0.1',
    logger: createLogger({ write: () => {} }),
    processMetrics: false,
    watch: false,
    ...extra,
  })
  running.push(srv)
  return { srv, tls, dir }
}
const connectionsOf = (srv: WebhookServer) =>
  new Promise<number>((resolve, reject) => srv.server.getConnections((e, n) => (e ? reject(e) : resolve(n))))
/** A counter's value from the registry (prom-client collects first). */
const counter = async (srv: WebhookServer, name: string, labels: Record<string, string> = {}) => {
  const m = await srv.metrics.registry.getSingleMetric(name)?.get()
  return (m?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((a, v) => a + v.value, 0)
}

describe.skipIf(!hasOpenssl)('kelp serve against hostile clients', () => {
  it('aborted TLS handshakes (FIN, a partial ClientHello, silence) leave no connection after the handshake timeout', async () => {
    const { srv, tls } = await start({ headersTimeoutMs: 300 })
    // each client waits for the server to close its side (a socket left in CLOSE-WAIT never does)
    const attempt = (kind: 'fin' | 'partial' | 'silent') =>
      new Promise<boolean>((resolve) => {
        const s = netConnect({ host: '127.0.0.1', port: srv.port }, () => {
          if (kind === 'fin') s.end()
          else if (kind === 'partial') s.end(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa0, 0x01, 0x00]))
        })
        const t = setTimeout(() => {
          s.destroy()
          resolve(false)
        }, 3000)
        s.on('close', () => {
          clearTimeout(t)
          resolve(true)
        })
        s.on('error', () => {})
        s.resume()
      })
    const kinds = [...Array(100).fill('fin'), ...Array(50).fill('partial'), ...Array(50).fill('silent')]
    const closed = await Promise.all(kinds.map(attempt))
    expect(closed.filter((c) => !c).length).toBe(0)
    await waitFor(async () => (await connectionsOf(srv)) === 0, 2000, 'no connection left')
    expect(await counter(srv, 'kelp_http_refusals_total', { reason: 'tls_handshake' })).toBeGreaterThan(0)
    // and the server still answers
    expect((await send(srv.port, tls.cert, { method: 'GET', path: '/healthz' })).status).toBe(200)
  })

  it('a client that pipelines 5,000 requests and never reads: reading stops, memory stays bounded, another client is answered within 1 s', async () => {
    const { srv, tls } = await start({ processMetrics: true })
    const N = 5000
    global.gc?.()
    const rss0 = process.memoryUsage().rss
    const flood = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert })
    await new Promise<void>((resolve, reject) => {
      flood.once('secureConnect', () => resolve())
      flood.once('error', reject)
    })
    flood.pause() // never reads an answer
    flood.write('GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(N))
    const review1 = JSON.stringify(review(deployment(1), DEPLOYMENTS))
    flood.write(`POST /validate HTTP/1.1\r\nHost: a\r\nContent-Length: ${review1.length}\r\n\r\n${review1}`.repeat(500))
    flood.on('error', () => {})
    await sleep(1500)
    const t0 = performance.now()
    const other = await send(srv.port, tls.cert, { body: review(deployment(1), DEPLOYMENTS) })
    const ms = performance.now() - t0
    const answered = await counter(srv, 'kelp_http_requests_total', { path: '/metrics' })
    const grown = (process.memoryUsage().rss - rss0) / MiB
    flood.destroy()
    expect(other.status).toBe(200)
    expect(ms).toBeLessThan(1000)
    expect(answered).toBeLessThan(N) // the server stopped reading the connection whose answers back up
    expect(grown).toBeLessThan(60)
  })

  it('200 made-up resource names add no metric series (labels are what kelp loaded)', async () => {
    const { srv, tls } = await start()
    for (let i = 0; i < 200; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          send(srv.port, tls.cert, {
            body: review(widget(5, 3), { group: 'example.com', version: 'v1', resource: `made-up-${i + j}` }),
          }),
        ),
      )
    const m = await srv.metrics.registry.getSingleMetric('kelp_admission_decisions_total')?.get()
    const series = (m?.values ?? []).map((v) => v.labels.policy)
    expect(series).toEqual(['widgets.example.com'])
    expect(m?.values[0]?.value).toBe(200)
  })

  it('one answer per request: a Content-Length over the limit gets one 413, never a 408 after it', async () => {
    const { srv, tls } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 })
    const r = await talk(
      srv.port,
      tls.cert,
      ['POST /validate HTTP/1.1\r\nHost: a\r\nContent-Length: 4194304\r\n\r\n', 'x'],
      () => false,
      1500,
    )
    expect(parseResponses(r.text).map((a) => a.status)).toEqual([413])
    expect(r.closed).toBe(true)
  })

  it('a declared body is not reserved: 40 connections declaring 3 MiB and sending 1 byte hold almost nothing', async () => {
    const { srv, tls } = await start({ headersTimeoutMs: 2000, requestTimeoutMs: 4000 })
    global.gc?.()
    const before = process.memoryUsage().arrayBuffers
    const sockets: TLSSocket[] = []
    await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<void>((resolve) => {
            const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert }, () => {
              s.write(`POST /validate HTTP/1.1\r\nHost: a\r\nContent-Length: ${3 * MiB}\r\n\r\n{`)
              resolve()
            })
            s.on('error', () => {})
            sockets.push(s)
          }),
      ),
    )
    await sleep(300)
    const grown = (process.memoryUsage().arrayBuffers - before) / MiB
    for (const s of sockets) s.destroy()
    expect(grown).toBeLessThan(20) // 40 × 3 MiB = 120 MiB if reserved
  })

  it('a body in 1-byte chunks costs its bytes, not an object per chunk', async () => {
    const { srv, tls } = await start({ headersTimeoutMs: 3000, requestTimeoutMs: 6000 })
    const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert })
    s.on('error', () => {})
    await new Promise<void>((resolve) => s.once('secureConnect', () => resolve()))
    collect()
    const before = process.memoryUsage()
    // 400 KiB of body in 1-byte chunks (2.4 MB on the wire), the request left unfinished
    s.write(
      `POST /validate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${'1\r\n \r\n'.repeat(400 * 1024)}`,
    )
    await sleep(1000) // read by then (the same in the test's own process)
    // what is retained, not the garbage the client's writes left (a collection first: the measure was noisy)
    collect()
    const after = process.memoryUsage()
    s.destroy()
    const grown = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / MiB
    expect(grown).toBeLessThan(8) // an object per chunk: 400 Ki objects, tens of MiB
  })

  it('the overall body budget: past it a request is refused with 503 (and counted); freed, the server answers again', async () => {
    const { srv, tls } = await start({ bodyBudget: 64 * 1024, headersTimeoutMs: 2000, requestTimeoutMs: 4000 })
    const holder = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert }, () => {
      holder.write(`POST /validate HTTP/1.1\r\nHost: a\r\nContent-Length: ${MiB}\r\n\r\n`)
      holder.write(Buffer.alloc(60 * 1024, 0x20))
    })
    holder.on('error', () => {})
    await sleep(300)
    const r = await talk(srv.port, tls.cert, [
      `POST /validate HTTP/1.1\r\nHost: a\r\nContent-Length: ${100 * 1024}\r\n\r\n`,
      Buffer.alloc(100 * 1024, 0x20),
    ])
    expect(parseResponses(r.text).map((a) => a.status)).toEqual([503])
    expect(await counter(srv, 'kelp_http_refusals_total', { reason: 'body_budget' })).toBe(1)
    holder.destroy()
    await sleep(100)
    expect((await send(srv.port, tls.cert, { body: review(deployment(1), DEPLOYMENTS) })).status).toBe(200)
  })

  it('an exception while writing one answer of a batch: that one gets a 500, the rest are answered', async () => {
    const { srv, tls } = await start()
    const bodies = ['x1', 'boom', 'x3'].map((uid) => {
      const r = review(deployment(1), DEPLOYMENTS)
      r.request.uid = uid
      return JSON.stringify(r)
    })
    const stringify = JSON.stringify
    vi.spyOn(JSON, 'stringify').mockImplementation(((v: unknown, ...rest: []) => {
      if ((v as { response?: { uid?: string } } | null)?.response?.uid === 'boom') throw new Error('boom')
      return stringify(v, ...rest)
    }) as typeof JSON.stringify)
    // pipelined in one write: one turn of the event loop, one batch
    const r = await talk(
      srv.port,
      tls.cert,
      [bodies.map((b) => `POST /validate HTTP/1.1\r\nHost: a\r\nContent-Length: ${b.length}\r\n\r\n${b}`).join('')],
      responses(3),
      2000,
    )
    const answers = parseResponses(r.text)
    expect(answers.map((a) => a.status)).toEqual([200, 500, 200])
    expect(JSON.parse(answers[2]?.body ?? '').response.uid).toBe('x3')
  })

  it('a connection cap: connections past it are closed at accept and counted', async () => {
    const { srv, tls } = await start({ maxConnections: 4 })
    const open = () =>
      new Promise<TLSSocket | undefined>((resolve) => {
        const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert }, () => resolve(s))
        s.on('error', () => resolve(undefined))
        s.on('close', () => resolve(undefined))
      })
    const kept: TLSSocket[] = []
    for (let i = 0; i < 4; i++) kept.push((await open()) as TLSSocket)
    expect(kept.every((s) => s !== undefined)).toBe(true)
    expect(await open()).toBeUndefined()
    expect(await counter(srv, 'kelp_http_refusals_total', { reason: 'connection_limit' })).toBe(1)
    for (const s of kept) s.destroy()
    await waitFor(async () => (await connectionsOf(srv)) === 0, 2000, 'connections closed')
    expect((await send(srv.port, tls.cert, { method: 'GET', path: '/healthz' })).status).toBe(200)
  })
})

describe.skipIf(!hasOpenssl)('kelp serve TLS', () => {
  const handshake = (port: number, options: Record<string, unknown>) =>
    new Promise<string>((resolve) => {
      const s = connect({ host: '127.0.0.1', port, ...options }, () => {
        resolve(`${s.getProtocol()} ${s.getCipher().name}`)
        s.destroy()
      })
      s.on('error', (e) => resolve(`error: ${e.message}`))
    })

  it('TLS 1.2 offers ECDHE with AEAD only (no CBC, no static RSA key exchange); TLS 1.3 as is', async () => {
    const { srv, tls } = await start()
    const v12 = (ciphers: string) => handshake(srv.port, { ca: tls.cert, maxVersion: 'TLSv1.2', ciphers })
    expect(await v12('ECDHE-ECDSA-AES128-GCM-SHA256')).toBe('TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256')
    expect(await v12('ECDHE-ECDSA-CHACHA20-POLY1305')).toBe('TLSv1.2 ECDHE-ECDSA-CHACHA20-POLY1305')
    expect(await v12('ECDHE-ECDSA-AES128-SHA')).toMatch(/^error: /)
    expect(await v12('ECDHE-ECDSA-AES256-SHA384')).toMatch(/^error: /)
    expect(await handshake(srv.port, { ca: tls.cert })).toMatch(/^TLSv1\.3 TLS_/)
    // an RSA certificate: static-RSA key exchange refused too
    const dir = tempDir()
    const rsa = makeRsaCert(dir)
    const { srv: srv2 } = await start({ tlsCert: rsa.certFile, tlsKey: rsa.keyFile })
    const rsa12 = (ciphers: string) => handshake(srv2.port, { ca: rsa.cert, maxVersion: 'TLSv1.2', ciphers })
    expect(await rsa12('AES128-GCM-SHA256')).toMatch(/^error: /)
    expect(await rsa12('ECDHE-RSA-AES128-GCM-SHA256')).toBe('TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256')
  })

  it('a key that does not match the certificate is refused at start and on reload (the last good pair serves)', async () => {
    const dir = tempDir()
    const ec = makeCert(dir, 'ec')
    const rsa = makeRsaCert(dir)
    await expect(start({ tlsCert: rsa.certFile, tlsKey: ec.keyFile })).rejects.toThrow(
      /does not belong to the certificate/,
    )
    const { srv } = await start({ tlsCert: ec.certFile, tlsKey: ec.keyFile })
    writeAtomic(ec.certFile, rsa.cert) // the first half of a rotation: an RSA certificate beside the EC key
    const r = srv.reloadCertificate()
    expect(r.outcome).toBe('failed')
    expect(r.errors?.[0]).toMatch(/does not belong to the certificate/)
    expect(await handshake(srv.port, { ca: ec.cert })).toMatch(/^TLSv1\.3/)
    writeAtomic(ec.keyFile, rsa.key) // the second half
    expect(srv.reloadCertificate().outcome).toBe('loaded')
    expect(await handshake(srv.port, { ca: rsa.cert })).toMatch(/^TLSv1\.3/)
  })

  it('mTLS: a client certificate signed by the CA is required; /metrics and probes on the plain metrics port', async () => {
    const dir = tempDir()
    const client = makeClientCA(dir)
    const { srv, tls } = await start({ clientCA: client.caFile, metricsPort: 0 })
    expect(await handshake(srv.port, { ca: tls.cert })).toMatch(/^error: |^TLSv1\.3/)
    // with TLS 1.3 the refusal of a missing certificate arrives after the client's handshake: ask something
    const without = await talk(srv.port, tls.cert, ['GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n']).catch((e: Error) => ({
      text: `error: ${e.message}`,
      closed: true,
    }))
    expect(parseResponses(without.text)).toEqual([])
    const other = makeClientCA(tempDir()) // a certificate from another CA
    const wrong = await new Promise<string>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert, cert: other.cert, key: other.key }, () =>
        s.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n'),
      )
      let text = ''
      s.on('data', (d) => {
        text += d
      })
      s.on('error', () => {})
      s.on('close', () => resolve(text))
      setTimeout(() => s.destroy(), 2000)
    })
    expect(wrong).toBe('')
    const withCert = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert, cert: client.cert, key: client.key }, () =>
        s.write('GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'),
      )
      let text = ''
      s.on('data', (d) => {
        text += d
      })
      s.on('error', reject)
      s.on('close', () => resolve(text))
    })
    expect(parseResponses(withCert)[0]?.body).toBe('ok\n')
    const plain = (path: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: srv.metricsPort, path, agent: false }, (res) => {
          let text = ''
          res.on('data', (c) => {
            text += c
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        })
        req.on('error', reject)
        req.end()
      })
    expect((await plain('/metrics')).text).toMatch(/^# HELP kelp_/)
    expect((await plain('/readyz')).status).toBe(200)
    expect((await plain('/validate')).status).toBe(404) // reviews only over mTLS
  })

  it('a kept-alive connection idle past the headers timeout (within keep-alive) is answered on its next request', async () => {
    const { srv, tls } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 5000 })
    const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert })
    let text = ''
    s.on('data', (d) => {
      text += d
    })
    s.on('error', () => {})
    await new Promise<void>((resolve) => s.once('secureConnect', () => resolve()))
    s.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n')
    await sleep(900) // idle: past the headers and request timeouts, within keep-alive
    s.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n')
    await sleep(300)
    s.destroy()
    expect(parseResponses(text).map((a) => a.status)).toEqual([200, 200])
  })

  it('keep-alive outlives the apiserver client idle time (90 s)', async () => {
    const { srv, tls } = await start()
    const r = await send(srv.port, tls.cert, { method: 'GET', path: '/healthz', headers: { connection: 'keep-alive' } })
    expect(Number(/timeout=(\d+)/.exec(String(r.headers['keep-alive']))?.[1])).toBeGreaterThan(90)
  })
})

describe.skipIf(!hasOpenssl)('kelp serve shutdown', () => {
  it('not ready at once, answering on open connections for the delay, then each connection closes after an answer: no request lost', async () => {
    const { srv, tls } = await start({ shutdownDelayMs: 600, shutdownTimeoutMs: 4000 })
    const agent = new Agent({ keepAlive: true, maxSockets: 4, ca: tls.cert })
    const outcomes: string[] = []
    let closeHeaders = 0
    let running = true
    const loop = async () => {
      while (running) {
        try {
          const r = await send(srv.port, tls.cert, { body: review(deployment(1), DEPLOYMENTS), agent })
          outcomes.push(String(r.status))
          if (r.headers.connection === 'close') closeHeaders++
        } catch (e) {
          // a new connection after the listener closed is refused: that request was never sent
          const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message
          outcomes.push(code)
          if (code === 'ECONNREFUSED') return
        }
      }
    }
    const loops = [loop(), loop(), loop(), loop()]
    try {
      await waitFor(() => outcomes.length > 20, 5000, 'requests')
      const closing = srv.close()
      const ready = await send(srv.port, tls.cert, { method: 'GET', path: '/readyz', agent })
      expect(ready.status).toBe(503) // not ready first …
      const during = outcomes.length
      await sleep(400)
      expect(outcomes.length).toBeGreaterThan(during) // … while the open connections are answered
      await closing
    } finally {
      running = false
      await Promise.all(loops)
      agent.destroy()
    }
    expect(outcomes.filter((o) => o !== '200' && o !== 'ECONNREFUSED')).toEqual([])
    expect(closeHeaders).toBeGreaterThan(0)
  })
})

describe.skipIf(!hasOpenssl)('kelp serve: the object as the apiserver sends it', () => {
  // kube-apiserver decodes and defaults the object, names it and runs the strategy's validation
  // before validating admission (registry/store.go Create: BeforeCreate, then createValidation):
  // the webhook takes the review's object as it is, and does not decode it a second time
  it("the review object is not decoded again (a field of the wrong type is the policies' to see)", async () => {
    const { srv, tls } = await start()
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { containers: 'x' } }
    const r = await send(srv.port, tls.cert, { body: review(pod, { group: '', version: 'v1', resource: 'pods' }) })
    expect(r.json().response).toEqual({ uid: expect.any(String), allowed: true })
  })
})

describe.skipIf(!hasOpenssl)('kelp serve reloads', () => {
  // 60 policies of 6 validations each: a reload held the loop for the whole set at once (then the
  // first request compiled every policy); now for one policy at a time (buildPolicySetInSlices).
  // Asserted by the loop's turns, not by timing: the shared test machine's pauses are larger.
  const many = Array.from(
    { length: 60 },
    (_, i) => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p${i}.example.com}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
  variables:
  - {name: images, expression: "object.spec.containers.map(c, c.image)"}
  validations:
${[0, 1, 2, 3, 4, 5]
  .map(
    (
      k,
    ) => `  - expression: "variables.images.all(x, !x.endsWith(':bad${i}-${k}')) && object.spec.containers.all(c, c.name.size() < ${100 + k})"
    messageExpression: "'no ${i}-${k}: ' + variables.images.join(', ')"`,
  )
  .join('\n')}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: p${i}.example.com}
spec: {policyName: p${i}.example.com, validationActions: [Deny]}
`,
  )

  it('a reload is built between requests: the loop is held for one policy at a time, the serving set answers meanwhile', async () => {
    const { srv, tls } = await start({}, many)
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: tls.cert })
    try {
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'shop' },
        spec: { containers: [{ name: 'a', image: 'a:1' }] },
      }
      const ask = () =>
        send(srv.port, tls.cert, { body: review(pod, { group: '', version: 'v1', resource: 'pods' }), agent })
      expect((await ask()).status).toBe(200) // the connection is open
      await srv.reloadPolicies(true) // warm
      // the event loop's turns during the reload (one per setImmediate round)
      let turns = 0
      let counting = true
      const count = () => {
        turns++
        if (counting) setImmediate(count)
      }
      setImmediate(count)
      const answeredAt = ask().then(() => performance.now())
      const r = await srv.reloadPolicies(true)
      const doneAt = performance.now()
      counting = false
      expect(r.outcome).toBe('loaded')
      expect(srv.policySet()?.policies.length).toBe(60)
      expect(await answeredAt).toBeLessThan(doneAt) // answered by the serving set during the reload
      // a turn at least per policy validated and per policy compiled (a reload used to be one turn)
      expect(turns).toBeGreaterThanOrEqual(120)
    } finally {
      agent.destroy()
    }
  })
})

// Issue 25: what a review costs once parsed, the kept-alive connections at the cap, a mutation's size,
// the series of policies no longer loaded.

/** A Pod review whose spec.imagePullSecrets lists `n` copies of `element` (kube-apiserver decodes it). */
const podWithList = (n: number, element = '{}') => {
  const text = JSON.stringify(
    review(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'shop' },
        spec: { containers: [{ name: 'a', image: 'a:1' }], imagePullSecrets: '@LIST@' },
      },
      PODS,
    ),
  )
  return text.replace('"@LIST@"', `[${`${element},`.repeat(n - 1)}${element}]`)
}
/** The same, filled with `{}` to the 3 MiB body limit (over a million containers). */
const maximalPod = () => {
  const base = podWithList(1).length - 2
  return podWithList(Math.floor((3 * MiB - base) / 3))
}
const post = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

describe.skipIf(!hasOpenssl)('kelp serve: what a review costs once parsed (issue 25)', () => {
  it('a review of more JSON containers than any object needs (one per 8 bytes of 3 MiB) is refused with 413 before it is parsed', async () => {
    const { srv, tls } = await start()
    // 400,000 empty imagePullSecrets: 1.2 MB, ~25 MB parsed in a worker (~100 MB through a CRD's schema)
    const body = podWithList(400_000)
    const r = await send(srv.port, tls.cert, { body })
    expect(r.status).toBe(413)
    expect(r.json()).toMatchObject({ kind: 'Status', code: 413, reason: 'RequestEntityTooLarge' })
    // the containers of the review as JSON.parse makes them (the list's and the review's own)
    const containers = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Object.values(v).reduce<number>((n, x) => n + containers(x), 0) : 0
    expect(r.json().message).toContain(
      `${containers(JSON.parse(body))} JSON objects and arrays, more than the limit of 393216`,
    )
    expect(r.headers['retry-after']).toBeUndefined() // the same body would be refused again
    expect(await counter(srv, 'kelp_http_refusals_total', { reason: 'body_too_large' })).toBe(1)
    // a body with fewer (300,000) is answered; so is one whose strings hold braces (not containers)
    expect((await send(srv.port, tls.cert, { body: podWithList(300_000) })).status).toBe(200)
    expect((await send(srv.port, tls.cert, { body: podWithList(200_000, '"{[{[,"') })).status).toBe(200)
  })

  it('reviews waiting to be parsed past the parsed budget get 429 with Retry-After; one alone is always taken', async () => {
    const { srv, tls } = await start({ parsedBudget: 1 })
    const body = JSON.stringify(review(deployment(1), DEPLOYMENTS))
    // pipelined in one write: the second body ends while the first waits for its batch
    const r = await talk(srv.port, tls.cert, [post('/validate', body) + post('/validate', body)], responses(2))
    const [first, second] = parseResponses(r.text)
    expect(first?.status).toBe(200)
    expect(second?.status).toBe(429)
    expect(second?.headers['retry-after']).toBe('1')
    expect(JSON.parse(second?.body ?? '{}')).toMatchObject({ kind: 'Status', code: 429, reason: 'TooManyRequests' })
    expect(r.closed).toBe(false) // the body was read: the connection stays open
    expect((await send(srv.port, tls.cert, { body })).status).toBe(200)
  })

  // the deployment's heap limit (docs/deploy/deployment.yaml NODE_OPTIONS), on the built CLI
  const cli = process.env.KELP_SERVE_CLI ?? join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli/kelp.cjs')
  it.skipIf(!existsSync(cli))(
    'kelp serve under --max-old-space-size=384: 32 concurrent 3 MiB reviews of `{}` lists, then 32 of just fewer containers, are all answered and the process lives',
    { timeout: 90_000 },
    async () => {
      const dir = tempDir()
      const tls = makeCert(dir)
      const pdir = join(dir, 'policies')
      mkdirSync(pdir)
      writeFileSync(join(pdir, 'p.yaml'), REPLICAS_POLICY(5))
      const child = spawn(
        process.execPath,
        [
          '--max-old-space-size=384',
          cli,
          'serve',
          '-p',
          pdir,
          '--tls-cert',
          tls.certFile,
          '--tls-key',
          tls.keyFile,
          '--port',
          '0',
          '--address',
          '127.0.0.1',
          '--shutdown-delay',
          '0',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      )
      let stderr = ''
      let exit: number | string | null | undefined
      child.on('exit', (code, signal) => {
        exit = code ?? signal
      })
      try {
        const port = await new Promise<number>((resolve, reject) => {
          child.stderr.setEncoding('utf8').on('data', (d: string) => {
            stderr += d
            const m = /"msg":"listening"[^\n]*"port":(\d+)/.exec(stderr)
            if (m) resolve(Number(m[1]))
          })
          child.on('exit', () => reject(new Error(`kelp serve exited: ${stderr.slice(-2000)}`)))
        })
        const burst = async (body: string) =>
          Promise.all(
            Array.from({ length: 32 }, () =>
              send(port, tls.cert, { body }).then(
                (r) => r.status,
                (e: Error) => `${e.message}`,
              ),
            ),
          )
        // over the container limit: each refused (413), or 503 while the bodies' bytes are at the budget
        const maximal = await burst(maximalPod())
        expect(maximal.filter((s) => s !== 413 && s !== 503)).toEqual([])
        await sleep(100)
        expect(exit, stderr.slice(-2000)).toBeUndefined()
        // 349,000 containers each (`{"ab":1}`, 9 bytes): admitted, parsed one at a time, the rest 429 / 503
        const under = await burst(podWithList(349_000, '{"ab":1}'))
        expect(under.filter((s) => ![200, 429, 503].includes(s as number))).toEqual([])
        await sleep(100)
        expect(exit, stderr.slice(-2000)).toBeUndefined()
        expect(under).toContain(200)
        expect((await send(port, tls.cert, { method: 'GET', path: '/healthz' })).status).toBe(200)
      } finally {
        child.kill('SIGKILL')
      }
    },
  )

  it('at the connection cap, the longest-idle kept-alive connection is closed to admit a new one', async () => {
    const { srv, tls } = await start({ maxConnections: 4 })
    // four connections, each answered once and then idle (kept alive)
    const kept: { socket: TLSSocket; closed: boolean }[] = []
    for (let i = 0; i < 4; i++) {
      const socket = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert })
      const k = { socket, closed: false }
      socket.on('close', () => {
        k.closed = true
      })
      socket.on('error', () => {})
      await new Promise<void>((resolve) => {
        socket.once('data', () => resolve())
        socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n')
      })
      kept.push(k)
      await sleep(20) // distinct idle times
    }
    // a probe on a new connection is answered: the oldest idle connection made room
    expect((await send(srv.port, tls.cert, { method: 'GET', path: '/healthz' })).status).toBe(200)
    await waitFor(() => kept[0]?.closed === true, 2000, 'the longest-idle connection closed')
    expect(kept.slice(1).map((k) => k.closed)).toEqual([false, false, false])
    expect(await counter(srv, 'kelp_http_idle_connections_closed_total')).toBe(1)
    expect(await counter(srv, 'kelp_http_refusals_total', { reason: 'connection_limit' })).toBe(0)
    for (const k of kept) k.socket.destroy()
  })

  it('after a reload, the metric series of policies, CRDs and bindings no longer loaded are dropped', async () => {
    const label = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: NAME}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"NAME": "yes"}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: NAME-binding}
spec: {policyName: NAME}
`
    const { srv, tls, dir } = await start({}, [REPLICAS_POLICY(5), WIDGET_CRD, label.replaceAll('NAME', 'first')])
    const series = async (name: string) =>
      ((await srv.metrics.registry.getSingleMetric(name)?.get())?.values ?? []).map((v) => v.labels.policy)
    expect((await send(srv.port, tls.cert, { body: review(deployment(9), DEPLOYMENTS) })).status).toBe(200)
    expect((await send(srv.port, tls.cert, { body: review(widget(5, 3), WIDGETS) })).status).toBe(200)
    expect((await send(srv.port, tls.cert, { path: '/mutate', body: review(deployment(1), DEPLOYMENTS) })).status).toBe(
      200,
    )
    expect((await series('kelp_admission_decisions_total')).sort()).toEqual([
      'replica-limit.example.com',
      'widgets.example.com',
    ])
    expect(await series('kelp_mutations_total')).toEqual(['first'])
    // the policy renamed, the CRD gone, the mutating policy replaced
    const pdir = join(dir, 'policies')
    writeFileSync(join(pdir, 'p0.yaml'), REPLICAS_POLICY(5).replaceAll('replica-limit', 'renamed-limit'))
    writeFileSync(join(pdir, 'p1.yaml'), '')
    writeFileSync(join(pdir, 'p2.yaml'), label.replaceAll('NAME', 'second'))
    expect((await srv.reloadPolicies(true)).outcome).toBe('loaded')
    expect(await series('kelp_admission_decisions_total')).toEqual([])
    expect(await series('kelp_mutations_total')).toEqual([])
    expect((await send(srv.port, tls.cert, { body: review(deployment(9), DEPLOYMENTS) })).status).toBe(200)
    expect(await series('kelp_admission_decisions_total')).toEqual(['renamed-limit.example.com'])
    // a reload that keeps a policy keeps its series (and its count)
    expect((await srv.reloadPolicies(true)).outcome).toBe('loaded')
    const m = await srv.metrics.registry.getSingleMetric('kelp_admission_decisions_total')?.get()
    expect(m?.values.map((v) => [v.labels.policy, v.value])).toEqual([['renamed-limit.example.com', 1]])
  })

  it('a mutation whose object is over the apiserver request limit (3 MiB) is denied with its 413, before anything is serialised', async () => {
    // a cheap expression that lists a 1 MB field four times (four references in memory)
    const big = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: copy-data}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: >-
        [JSONPatch{op: "add", path: "/metadata/finalizers", value: [object.data.big, object.data.big, object.data.big, object.data.big]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: copy-data}
spec: {policyName: copy-data}
`
    const { srv, tls } = await start({}, [big])
    const configMap = (size: number) =>
      review(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'c', namespace: 'shop' },
          data: { big: 'x'.repeat(size) },
        },
        { group: '', version: 'v1', resource: 'configmaps' },
      )
    const over = await send(srv.port, tls.cert, { path: '/mutate', body: configMap(MiB) })
    expect(over.status).toBe(200)
    expect(over.json().response).toEqual({
      uid: expect.any(String),
      allowed: false,
      // apiserver handlers/rest.go limitedReadBody: NewRequestEntityTooLargeError("limit is 3145728")
      status: {
        status: 'Failure',
        code: 413,
        reason: 'RequestEntityTooLarge',
        message: 'Request entity too large: limit is 3145728',
      },
    })
    // under the limit (4 × 100 KB): the patch, as before
    const under = await send(srv.port, tls.cert, { path: '/mutate', body: configMap(100_000) })
    expect(under.json().response).toMatchObject({ allowed: true, patchType: 'JSONPatch' })
  })
})
