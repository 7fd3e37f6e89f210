import { X509Certificate } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Agent, request as httpsRequest } from 'node:https'
import { join } from 'node:path'
import { connect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/report/log.js'
import { startWebhookServer, type WebhookServer } from '../../src/webhook/server.js'
import {
  BROKEN_POLICY,
  DEPLOYMENTS,
  deployment,
  hasOpenssl,
  LATEST_POLICY,
  makeCert,
  PODS,
  pod,
  REPLICAS_POLICY,
  review,
  send,
  tempDir,
  WIDGET_CRD,
  WIDGETS,
  waitFor,
  widget,
  writeAtomic,
} from './helpers.js'

// The server over real HTTPS (node's https client, the test CA), on loopback with a self-signed
// certificate made by the openssl CLI. Expected texts: the AdmissionReview v1 API, the engine's
// documented messages (docs/library.md, docs/crd.md), Prometheus text exposition.

const logs = () => {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({ level: 'debug', write: (l) => lines.push(JSON.parse(l)) })
  return { lines, logger }
}

describe.skipIf(!hasOpenssl)('kelp serve: admission over HTTPS', () => {
  let dir: string
  let tls: ReturnType<typeof makeCert>
  let srv: WebhookServer
  const captured = logs()
  const post = (body: unknown) => send(srv.port, tls.cert, { body: body as object })

  beforeAll(async () => {
    dir = tempDir()
    tls = makeCert(dir)
    const policies = join(dir, 'policies')
    mkdirSync(policies)
    writeFileSync(join(policies, 'replicas.yaml'), REPLICAS_POLICY(5))
    writeFileSync(join(policies, 'latest.yaml'), LATEST_POLICY)
    writeFileSync(join(policies, 'crd.yaml'), WIDGET_CRD)
    srv = await startWebhookServer({
      policies: [policies],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      logger: captured.logger,
      debounceMs: 50,
    })
  })
  afterAll(async () => {
    await srv?.close()
  })

  it('allowed, denied, warned, audited', async () => {
    const ok = review(deployment(3), DEPLOYMENTS)
    const r1 = await post(ok)
    expect(r1.status).toBe(200)
    expect(r1.headers['content-type']).toBe('application/json')
    expect(r1.json()).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: ok.request.uid, allowed: true },
    })

    const bad = review(deployment(7), DEPLOYMENTS)
    const r2 = (await post(bad)).json()
    expect(r2.response).toMatchObject({
      uid: bad.request.uid,
      allowed: false,
      status: {
        status: 'Failure',
        code: 422,
        reason: 'Invalid',
        message:
          "ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding.example.com' denied request: failed expression: object.spec.replicas <= 5",
      },
    })

    const latest = (await post(review(pod('nginx:latest'), PODS))).json()
    expect(latest.response.allowed).toBe(true)
    expect(latest.response.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'no-latest' with binding 'no-latest-binding': image tag latest is not allowed: app",
    ])
    expect(latest.response.auditAnnotations['no-latest_images']).toBe('nginx:latest')
    expect(JSON.parse(latest.response.auditAnnotations.validation_failure)[0]).toMatchObject({
      policy: 'no-latest',
      binding: 'no-latest-binding',
      validationActions: ['Warn', 'Audit'],
    })
    const denied = captured.lines.find((l) => l.msg === 'request denied')
    expect(denied).toMatchObject({ level: 'info', uid: bad.request.uid, code: 422, resource: 'apps/v1/deployments' })
    expect(typeof denied?.time).toBe('string')
  })

  it('a custom resource against its CRD', async () => {
    expect((await post(review(widget(1, 3), WIDGETS))).json().response.allowed).toBe(true)
    const r = (await post(review(widget(5, 3), WIDGETS))).json()
    expect(r.response.allowed).toBe(false)
    expect(r.response.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Widget.example.com "w" is invalid: spec: Invalid value: replicas must not exceed maxReplicas',
    })
  })

  it('malformed requests: bad JSON and wrong kind 400, over 3 MiB 413, unknown path 404, wrong method 405', async () => {
    const bad = await send(srv.port, tls.cert, { body: '{"apiVersion": "admission.k8s.io/v1", ' })
    expect(bad.status).toBe(400)
    expect(bad.json()).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest' })
    expect(bad.json().message).toMatch(/^request body is not valid JSON: /)

    const kind = await post({ ...review(deployment(1), DEPLOYMENTS), kind: 'ConfigMap' })
    expect(kind.status).toBe(400)
    expect(kind.json().message).toBe(
      'expected admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=ConfigMap',
    )

    const noUid = review(deployment(1), DEPLOYMENTS)
    const r = await post({ ...noUid, request: { ...noUid.request, uid: undefined } })
    expect(r.status).toBe(400)
    expect(r.json().message).toBe('request.uid is required')

    const huge = Buffer.alloc(3 * 1024 * 1024 + 1, 0x20)
    const big = await send(srv.port, tls.cert, { body: huge })
    expect(big.status).toBe(413)
    expect(big.json()).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' })
    // exactly 3 MiB is accepted (and then is not JSON)
    const limit = await send(srv.port, tls.cert, { body: Buffer.alloc(3 * 1024 * 1024, 0x20) })
    expect(limit.status).toBe(400)
    // a chunked body (no Content-Length) over the limit
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: srv.port, method: 'POST', path: '/validate', ca: tls.cert, agent: false },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      for (let i = 0; i < 4; i++) req.write(Buffer.alloc(1024 * 1024, 0x20))
      req.end()
    })
    expect(chunked).toBe(413)

    const nf = await send(srv.port, tls.cert, { path: '/mutating', body: '{}' })
    expect(nf.status).toBe(404)
    expect(nf.json().message).toBe(
      'no route /mutating: kelp serves POST /validate, /mutate, GET /healthz, /readyz, /metrics',
    )
    const get = await send(srv.port, tls.cert, { method: 'GET', path: '/validate' })
    expect(get.status).toBe(405)
    expect(get.headers.allow).toBe('POST')
    const postHealth = await send(srv.port, tls.cert, { method: 'POST', path: '/healthz', body: '{}' })
    expect(postHealth.status).toBe(405)
    expect(postHealth.headers.allow).toBe('GET, HEAD')
    // the server still answers
    expect((await post(review(deployment(1), DEPLOYMENTS))).status).toBe(200)
  })

  it('/healthz, /readyz, /metrics', async () => {
    const h = await send(srv.port, tls.cert, { method: 'GET', path: '/healthz' })
    expect([h.status, h.text]).toEqual([200, 'ok\n'])
    const r = await send(srv.port, tls.cert, { method: 'GET', path: '/readyz' })
    expect([r.status, r.text]).toEqual([200, 'ok\n'])
    const m = await send(srv.port, tls.cert, { method: 'GET', path: '/metrics' })
    expect(m.status).toBe(200)
    expect(m.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(m.text).toMatch(/^kelp_http_requests_total\{path="\/validate",code="200"\} \d+$/m)
    expect(m.text).toMatch(/^kelp_http_requests_total\{path="\/validate",code="413"\} 2$/m)
    expect(m.text).toMatch(/^kelp_http_requests_total\{path="other",code="404"\} 1$/m)
    expect(m.text).toMatch(/^kelp_http_request_duration_seconds_bucket\{le="0\.005",path="\/validate"\} \d+$/m)
    expect(m.text).toMatch(
      /^kelp_admission_decisions_total\{source="ValidatingAdmissionPolicy",policy="replica-limit.example.com",action="Deny",result="failed"\} 1$/m,
    )
    expect(m.text).toMatch(
      /^kelp_admission_decisions_total\{source="ValidatingAdmissionPolicy",policy="no-latest",action="Warn",result="failed"\} 1$/m,
    )
    expect(m.text).toMatch(
      /^kelp_admission_decisions_total\{source="CustomResourceDefinition",policy="widgets.example.com",action="Deny",result="failed"\} 1$/m,
    )
    expect(m.text).toMatch(/^kelp_admission_reviews_total\{allowed="false",operation="CREATE"\} 2$/m)
    expect(m.text).toMatch(/^kelp_reloads_total\{target="policies",result="success"\} 1$/m)
    expect(m.text).toMatch(/^kelp_reloads_total\{target="policies",result="failure"\} 0$/m)
    expect(m.text).toMatch(/^kelp_reload_last_success_timestamp_seconds\{target="policies"\} \d+/m)
    expect(m.text).toMatch(/^kelp_policies_loaded 2$/m)
    expect(m.text).toMatch(/^kelp_process_cpu_user_seconds_total /m)
  })

  it('requests in flight together are answered together, each with its own answer', async () => {
    // the server answers the reviews that arrived in one turn of its event loop as a batch
    const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: tls.cert })
    try {
      const reviews = Array.from({ length: 48 }, (_, i) => {
        const r = review(deployment(i % 9), DEPLOYMENTS) // replicas 0..8: more than 5 is denied
        return { ...r, request: { ...r.request, uid: `burst-${i}` } }
      })
      const answers = await Promise.all(
        reviews.map((r) => send(srv.port, tls.cert, { body: r, agent }).then((a) => a.json().response)),
      )
      expect(answers.map((a) => a.uid)).toEqual(reviews.map((r) => r.request.uid))
      expect(answers.map((a) => a.allowed)).toEqual(reviews.map((_, i) => i % 9 <= 5))
    } finally {
      agent.destroy()
    }
  })

  it('TLS 1.2 at least', async () => {
    const old = new Promise<string>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert, maxVersion: 'TLSv1.1', minVersion: 'TLSv1' })
      s.on('secureConnect', () => {
        s.destroy()
        resolve('connected')
      })
      s.on('error', (e) => resolve(e.message))
    })
    expect(await old).not.toBe('connected')
    const v12 = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert, maxVersion: 'TLSv1.2' }, () => {
        resolve(s.getProtocol() ?? '')
        s.destroy()
      })
      s.on('error', reject)
    })
    expect(v12).toBe('TLSv1.2')
  })
})

describe.skipIf(!hasOpenssl)('kelp serve: timeouts, reloads, shutdown', () => {
  it('a slow client is timed out (408) and the server keeps serving', async () => {
    const dir = tempDir()
    const tls = makeCert(dir)
    writeFileSync(join(dir, 'p.yaml'), REPLICAS_POLICY(5))
    const srv = await startWebhookServer({
      policies: [join(dir, 'p.yaml')],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      logger: createLogger({ write: () => {} }),
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      processMetrics: false,
    })
    try {
      const started = Date.now()
      const answer = await new Promise<string>((resolve, reject) => {
        const s = connect({ host: '127.0.0.1', port: srv.port, ca: tls.cert }, () => {
          s.write('POST /validate HTTP/1.1\r\nHost: x\r\n') // and nothing more
        })
        let data = ''
        s.on('data', (d) => {
          data += d
        })
        s.on('close', () => resolve(data))
        s.on('error', reject)
      })
      expect(answer).toMatch(/^HTTP\/1\.1 408 /)
      expect(Date.now() - started).toBeLessThan(5000)
      expect((await send(srv.port, tls.cert, { body: review(deployment(1), DEPLOYMENTS) })).status).toBe(200)
    } finally {
      await srv.close()
    }
  })

  it('reloads a good and a broken policy set while requests flow, with no failed request; certificates too', async () => {
    const dir = tempDir()
    const tls = makeCert(dir)
    const file = join(dir, 'policy.yaml')
    writeFileSync(file, REPLICAS_POLICY(5))
    const captured = logs()
    const srv = await startWebhookServer({
      policies: [file],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      logger: captured.logger,
      debounceMs: 50,
      processMetrics: false,
    })
    const agent = new Agent({ keepAlive: true, maxSockets: 4, ca: tls.cert })
    const statuses: number[] = []
    const allowed: boolean[] = []
    let running = true
    const loop = async () => {
      while (running) {
        // a client trusting both certificates, as the apiserver with a CA bundle during rotation
        const r = await send(srv.port, tls.cert + tls2.cert, { body: review(deployment(7), DEPLOYMENTS), agent })
        statuses.push(r.status)
        allowed.push(r.status === 200 && r.json().response.allowed === true)
      }
    }
    let tls2 = { cert: '' } as ReturnType<typeof makeCert>
    const metric = async (re: RegExp) =>
      Number(re.exec((await send(srv.port, tls.cert + tls2.cert, { method: 'GET', path: '/metrics' })).text)?.[1] ?? -1)
    const clients = [loop(), loop(), loop(), loop()]
    try {
      await waitFor(() => allowed.length > 20, 10_000, 'requests')
      expect(allowed.every((a) => a === false)).toBe(true)

      // a good set: replicas up to 10
      writeAtomic(file, REPLICAS_POLICY(10))
      await waitFor(() => allowed.at(-1) === true, 10_000, 'the new policy set')
      const switchedAt = allowed.length
      await waitFor(() => allowed.length > switchedAt + 20, 10_000, 'more requests')
      expect(allowed.slice(switchedAt).every((a) => a)).toBe(true)

      // a broken set (a validation that does not compile): logged, counted, the last good set serves
      writeAtomic(file, BROKEN_POLICY)
      await waitFor(
        async () => (await metric(/^kelp_reloads_total\{target="policies",result="failure"\} (\d+)$/m)) === 1,
        10_000,
        'the failed reload',
      )
      const brokenAt = allowed.length
      await waitFor(() => allowed.length > brokenAt + 20, 10_000, 'more requests')
      expect(allowed.slice(switchedAt).every((a) => a)).toBe(true)
      const failed = captured.lines.find((l) => l.msg === 'policy set not loaded: the last good set keeps serving')
      expect(failed).toMatchObject({ level: 'error' })
      expect(String((failed?.errors as string[] | undefined)?.[0])).toMatch(
        /^ValidatingAdmissionPolicy replica-limit.example.com: ValidatingAdmissionPolicy.admissionregistration.k8s.io "replica-limit.example.com" is invalid: spec.validations\[0\].expression: Invalid value: /,
      )
      // unparsable YAML is broken too
      writeAtomic(file, 'kind: [')
      await waitFor(
        async () => (await metric(/^kelp_reloads_total\{target="policies",result="failure"\} (\d+)$/m)) === 2,
        10_000,
        'the second failed reload',
      )
      expect(srv.policySet()?.policies.length).toBe(1)
      expect(await metric(/^kelp_reloads_total\{target="policies",result="success"\} (\d+)$/m)).toBe(2)

      // the certificate rotated: new connections get the new one
      const d2 = tempDir()
      tls2 = makeCert(d2, 'second')
      writeAtomic(tls.keyFile, tls2.key)
      writeAtomic(tls.certFile, tls2.cert)
      const serial = () =>
        new Promise<string>((resolve, reject) => {
          const s = connect({ host: '127.0.0.1', port: srv.port, ca: [tls.cert, tls2.cert] }, () => {
            resolve(new X509Certificate(s.getPeerX509Certificate()?.raw ?? Buffer.alloc(0)).subject)
            s.destroy()
          })
          s.on('error', reject)
        })
      await waitFor(async () => (await serial()) === 'CN=kelp-test-second', 10_000, 'the new certificate')
      expect(await metric(/^kelp_reloads_total\{target="certificate",result="success"\} (\d+)$/m)).toBeGreaterThan(1)
    } finally {
      running = false
      await Promise.all(clients)
      agent.destroy()
      await srv.close()
    }
    expect(statuses.length).toBeGreaterThan(60)
    expect(statuses.every((s) => s === 200)).toBe(true)
  })

  it('a set that does not load at start: not ready, 503, then ready once fixed', async () => {
    const dir = tempDir()
    const tls = makeCert(dir)
    const file = join(dir, 'policy.yaml')
    writeFileSync(file, BROKEN_POLICY)
    const srv = await startWebhookServer({
      policies: [file],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      logger: createLogger({ write: () => {} }),
      debounceMs: 50,
      processMetrics: false,
    })
    try {
      expect((await send(srv.port, tls.cert, { method: 'GET', path: '/readyz' })).status).toBe(503)
      const r = await send(srv.port, tls.cert, { body: review(deployment(1), DEPLOYMENTS) })
      expect(r.status).toBe(503)
      expect(r.json().message).toBe('no policy set is loaded yet')
      writeAtomic(file, REPLICAS_POLICY(5))
      await waitFor(
        async () => (await send(srv.port, tls.cert, { method: 'GET', path: '/readyz' })).status === 200,
        10_000,
        'ready',
      )
    } finally {
      await srv.close()
    }
  })

  it('graceful shutdown finishes a request in flight, then refuses connections', async () => {
    const dir = tempDir()
    const tls = makeCert(dir)
    writeFileSync(join(dir, 'p.yaml'), REPLICAS_POLICY(5))
    const srv = await startWebhookServer({
      policies: [join(dir, 'p.yaml')],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      logger: createLogger({ write: () => {} }),
      processMetrics: false,
    })
    const body = Buffer.from(JSON.stringify(review(deployment(9), DEPLOYMENTS)))
    let closed = false
    const answer = new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: srv.port,
          method: 'POST',
          path: '/validate',
          ca: tls.cert,
          agent: false,
          headers: { 'content-length': String(body.length) },
        },
        (res) => {
          let text = ''
          res.on('data', (c) => {
            text += c
          })
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection as string }),
          )
        },
      )
      req.on('error', reject)
      req.write(body.subarray(0, 100))
      req.on('socket', (s) =>
        s.on('secureConnect', () =>
          setTimeout(() => {
            // the request is in flight: its headers and part of its body arrived
            void srv.close().then(() => {
              closed = true
            })
            setTimeout(() => {
              expect(closed).toBe(false)
              req.end(body.subarray(100))
            }, 200)
          }, 100),
        ),
      )
    })
    const r = await answer
    expect(r.status).toBe(200)
    expect(JSON.parse(r.text).response.allowed).toBe(false)
    expect(r.connection).toBe('close')
    await srv.closed
    expect(closed).toBe(true)
    await expect(send(srv.port, tls.cert, { method: 'GET', path: '/healthz' })).rejects.toThrow(/ECONNREFUSED/)
  })
})
