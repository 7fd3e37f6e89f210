import { mkdirSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { Agent } from 'node:https'
import { connect as netConnect } from 'node:net'
import { join } from 'node:path'
import { connect, type TLSSocket } from 'node:tls'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../src/webhook/log.js'
import { type ServeOptions, startWebhookServer, type WebhookServer } from '../../src/webhook/server.js'
import {
  DEPLOYMENTS,
  deployment,
  hasOpenssl,
  makeCert,
  makeClientCA,
  makeRsaCert,
  parseResponses,
  REPLICAS_POLICY,
  responses,
  review,
  send,
  talk,
  tempDir,
  WIDGET_CRD,
  waitFor,
  widget,
  writeAtomic,
} from './helpers.js'

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
    global.gc?.()
    const before = process.memoryUsage()
    // 400 KiB of body in 1-byte chunks (2.4 MB on the wire), the request left unfinished
    s.write(
      `POST /validate HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${'1\r\n \r\n'.repeat(400 * 1024)}`,
    )
    await sleep(1000) // read by then (the same in the test's own process)
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
