// kelp serve with its real client: kube-apiserver calls it through a ValidatingWebhookConfiguration (URL to
// 127.0.0.1, caBundle of the cluster CA that signed kelp's certificate), and kubectl prints what docs/webhook.md
// promises. Each test has its own namespace and its own configuration (namespaceSelector by name), so nothing
// else in the cluster goes through kelp.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useCluster, useNamespace } from '../context.js'
import { ROOT } from '../harness.js'
import {
  eventually,
  type KelpServe,
  registerWebhook,
  startKelpServe,
  unregisterWebhook,
  WEBHOOK_NAME,
} from './kelp-serve.js'

const cluster = useCluster()
const ns = useNamespace(cluster, 'webhook')
const M = join(ROOT, 'test/e2e/webhook/manifests')
const manifest = (name: string) => join(M, name)

/** kelp check's findings for a file, with the policy material kelp serve has. */
function kelpCheck(file: string, policyDir: string, namespace: string) {
  let out: string
  try {
    out = execFileSync(
      process.execPath,
      [join(ROOT, 'dist/cli/kelp.cjs'), 'check', '-p', policyDir, '-n', namespace, '-o', 'json', file],
      { encoding: 'utf8' },
    )
  } catch (e) {
    out = (e as { stdout: string }).stdout
  }
  const report = JSON.parse(out)
  return report.objects.map((o: any) => ({
    name: o.name as string,
    outcome: o.outcome as string,
    deny: o.findings.filter((f: any) => f.level === 'deny').map((f: any) => f.message as string),
    warn: o.findings.filter((f: any) => f.level === 'warn').map((f: any) => f.message as string),
  }))
}

/** `<resource> "<name>" is forbidden: ` is the in-process plugin's; the webhook prefix takes its place. */
const pluginMessage = (m: string) => m.replace(/^\S+ "[^"]*" is forbidden: /, '')
const warningLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('Warning: '))
    .map((l) => l.slice('Warning: '.length))

let policyDir: string
let kelp: KelpServe

beforeAll(async () => {
  // the bundled pack (policies/*.yaml as docs/webhook.md's ConfigMap holds it) and the Widget CRD with its policy
  policyDir = join(cluster.dir, 'webhook-policies')
  mkdirSync(policyDir, { recursive: true })
  for (const f of readdirSync(join(ROOT, 'policies')).filter((f) => f.endsWith('.yaml')))
    copyFileSync(join(ROOT, 'policies', f), join(policyDir, f))
  copyFileSync(manifest('widget-crd.yaml'), join(policyDir, 'widget-crd.yaml'))
  copyFileSync(manifest('widget-policy.yaml'), join(policyDir, 'widget-policy.yaml'))
  // the cluster serves the CRD (its schema and rules run in the apiserver); the policy lives in kelp only
  const crd = await cluster.kubectl(['apply', '-f', manifest('widget-crd.yaml')])
  expect(crd.code, crd.stderr).toBe(0)
  await cluster.kubectl(['wait', '--for=condition=Established', 'crd/widgets.e2e.kelp.dev', '--timeout=60s'])
  kelp = await startKelpServe(cluster, 'kelp-serve', [policyDir])
})

afterAll(async () => {
  await kelp?.stop()
})

/** Registers kelp for the test's namespace and waits until the apiserver calls it (a denied dry run). */
async function registerKelp(
  url = kelp.url,
  extra: { failurePolicy?: 'Fail' | 'Ignore'; timeoutSeconds?: number } = {},
) {
  await registerWebhook(cluster, {
    configName: `kelp-${ns.name}`,
    namespace: ns.name,
    url,
    caBundle: cluster.caBundle(),
    ...extra,
  })
}
async function waitUntilCalled() {
  await eventually(
    async () => {
      const r = await cluster.kubectl(['-n', ns.name, 'apply', '--dry-run=server', '-f', manifest('privileged.yaml')])
      return r.stderr.includes(`admission webhook "${WEBHOOK_NAME}"`)
    },
    30_000,
    'the apiserver calls the webhook',
  )
}

describe('kelp serve as the webhook of a real kube-apiserver', () => {
  it('kubectl apply and apply --dry-run=server print kelp check’s answers: allowed, denied, warned', async () => {
    await registerKelp()
    await waitUntilCalled()
    const before = await kelp.metrics()
    const n = ns.name
    const sent = { allowedCreate: 0, deniedCreate: 0 }

    // allowed: nothing on stderr
    const expectAllowed = kelpCheck(manifest('allowed.yaml'), policyDir, n)
    expect(expectAllowed).toEqual([{ name: 'web', outcome: 'allowed', deny: [], warn: [] }])
    let r = await cluster.kubectl(['-n', n, 'apply', '--dry-run=server', '-f', manifest('allowed.yaml')])
    expect(r).toEqual({ code: 0, stdout: 'deployment.apps/web created (server dry run)\n', stderr: '' })
    r = await cluster.kubectl(['-n', n, 'apply', '-f', manifest('allowed.yaml')])
    expect(r).toEqual({ code: 0, stdout: 'deployment.apps/web created\n', stderr: '' })
    sent.allowedCreate += 2

    // denied: the first Deny's message, with its code's reason. A Forbidden answer is printed from the Status
    // message (the webhook's prefix in place of the in-process `pods "x" is forbidden: `); an Invalid one has
    // details, and kubectl prints their causes as for the in-process plugin (`The pods "x" is invalid: : …`)
    for (const [file, name, reason] of [
      ['denied.yaml', 'debug', 'Invalid'],
      ['privileged.yaml', 'root-shell', 'Forbidden'],
    ] as const) {
      const [expected] = kelpCheck(manifest(file), policyDir, n)
      expect(expected.outcome).toBe('denied')
      const message = pluginMessage(expected.deny[0])
      const line =
        reason === 'Forbidden'
          ? `Error from server (Forbidden): error when creating "${manifest(file)}": admission webhook "${WEBHOOK_NAME}" denied the request: ${message}\n`
          : `The pods "${name}" is invalid: : ${message}\n`
      for (const dry of [['--dry-run=server'], []]) {
        r = await cluster.kubectl(['-n', n, 'apply', ...dry, '-f', manifest(file)])
        expect(r.code).toBe(1)
        expect(r.stdout).toBe('')
        // the denial is kubectl's last line; Warning: lines come before it
        const lines = r.stderr.split('\n')
        expect(`${lines.filter((l) => l && !l.startsWith('Warning: ')).join('\n')}\n`, `${file} ${name}`).toBe(line)
        // kelp serve instantiates the pack as kelp check does (src/engine/material-variables.ts): next to the
        // baseline Deny the restricted policy is silent, so the Warning: lines are kelp check's exactly
        expect(warningLines(r.stderr)).toEqual(expected.warn)
        sent.deniedCreate++
      }
      const get = await cluster.kubectl(['-n', n, 'get', 'pod', name])
      expect(get.stderr).toContain('NotFound')
    }

    // warned: each Warn binding's text as a Warning: line, in kelp check's order
    const [warned] = kelpCheck(manifest('warned.yaml'), policyDir, n)
    expect(warned.outcome).toBe('warned')
    expect(warned.warn.length).toBeGreaterThan(2)
    for (const dry of [['--dry-run=server'], []]) {
      r = await cluster.kubectl(['-n', n, 'apply', ...dry, '-f', manifest('warned.yaml')])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe(`deployment.apps/batch created${dry.length ? ' (server dry run)' : ''}\n`)
      expect(warningLines(r.stderr)).toEqual(warned.warn)
      expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('Warning: '))).toEqual([])
      sent.allowedCreate++
    }

    // an UPDATE through kubectl apply (a PATCH): replicas 2 → 3 is allowed
    const edited = readFileSync(manifest('allowed.yaml'), 'utf8').replace('replicas: 2', 'replicas: 3')
    r = await cluster.kubectl(['-n', n, 'apply', '-f', '-'], { input: edited })
    expect(r).toEqual({ code: 0, stdout: 'deployment.apps/web configured\n', stderr: '' })

    // /metrics: one review per write sent, by answer and operation
    const after = await kelp.metrics()
    const delta = (labels: Record<string, string>) =>
      after.sum('kelp_admission_reviews_total', labels) - before.sum('kelp_admission_reviews_total', labels)
    expect(delta({ allowed: 'true', operation: 'CREATE' })).toBe(sent.allowedCreate)
    expect(delta({ allowed: 'false', operation: 'CREATE' })).toBe(sent.deniedCreate)
    expect(delta({ allowed: 'true', operation: 'UPDATE' })).toBe(1)
    expect(
      after.sum('kelp_http_requests_total', { path: '/validate', code: '200' }) -
        before.sum('kelp_http_requests_total', { path: '/validate', code: '200' }),
    ).toBe(sent.allowedCreate + sent.deniedCreate + 1)
    await unregisterWebhook(cluster, `kelp-${n}`)
  })

  it('a custom resource: the CRD’s own errors from the apiserver, kelp’s policy through the webhook', async () => {
    await registerKelp()
    await waitUntilCalled()
    const n = ns.name
    const file = manifest('widgets.yaml')
    const expected = kelpCheck(file, policyDir, n)
    expect(expected.map((o: any) => o.outcome)).toEqual(['allowed', 'denied', 'denied'])
    for (const dry of [['--dry-run=server'], []]) {
      const r = await cluster.kubectl(['-n', n, 'apply', ...dry, '-f', file])
      expect(r.code).toBe(1)
      expect(r.stdout).toBe(`widget.e2e.kelp.dev/small created${dry.length ? ' (server dry run)' : ''}\n`)
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        // a policy kelp serves: the webhook's denial
        `Error from server (Forbidden): error when creating "${file}": admission webhook "${WEBHOOK_NAME}" denied the request: ${pluginMessage(expected[1].deny[0])}`,
        // the CRD's x-kubernetes-validations rule fails in the apiserver's registry before any webhook is called;
        // with two errors kubectl prints each Status message after the file (one alone would be printed as
        // `The Widget "big-green" is invalid: …`, the form kelp check's text output uses)
        `Error from server (Invalid): error when creating "${file}": Widget.e2e.kelp.dev "big-green" is invalid: ${expected[2].deny[0]}`,
      ])
    }
    await unregisterWebhook(cluster, `kelp-${n}`)
  })

  it('failurePolicy Fail rejects and Ignore admits while kelp serve is down', async () => {
    const down = await startKelpServe(cluster, 'kelp-serve-down', [policyDir])
    try {
      await registerKelp(down.url, { failurePolicy: 'Fail' })
      await waitUntilCalled()
    } finally {
      await down.stop()
    }
    const n = ns.name
    const file = manifest('allowed.yaml')
    const refused = `Error from server (InternalError): error when creating "${file}": Internal error occurred: failed calling webhook "${WEBHOOK_NAME}": failed to call webhook: Post "${down.url}?timeout=5s": dial tcp 127.0.0.1:${down.port}: connect: connection refused\n`
    let r = await cluster.kubectl(['-n', n, 'apply', '--dry-run=server', '-f', file])
    expect(r).toEqual({ code: 1, stdout: '', stderr: refused })
    r = await cluster.kubectl(['-n', n, 'apply', '-f', file])
    expect(r).toEqual({ code: 1, stdout: '', stderr: refused })

    await registerKelp(down.url, { failurePolicy: 'Ignore' })
    await eventually(
      async () => (await cluster.kubectl(['-n', n, 'apply', '--dry-run=server', '-f', file])).code === 0,
      30_000,
      'failurePolicy Ignore in effect',
    )
    r = await cluster.kubectl(['-n', n, 'apply', '-f', file])
    expect(r).toEqual({ code: 0, stdout: 'deployment.apps/web created\n', stderr: '' })
    // what kelp would deny goes through too: nothing answers
    r = await cluster.kubectl(['-n', n, 'apply', '-f', manifest('denied.yaml')])
    expect(r).toEqual({ code: 0, stdout: 'pod/debug created\n', stderr: '' })
    await unregisterWebhook(cluster, `kelp-${n}`)
  })

  it('an answer slower than timeoutSeconds: Fail rejects after the timeout, Ignore admits', async () => {
    // a webhook that answers (allowed: false) only after 3 s, registered with timeoutSeconds: 1
    const { certFile, keyFile } = cluster.issueServingCert('slow-webhook')
    const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const uid = JSON.parse(body).request.uid
        setTimeout(() => {
          res.setHeader('content-type', 'application/json')
          res.end(
            JSON.stringify({
              apiVersion: 'admission.k8s.io/v1',
              kind: 'AdmissionReview',
              response: { uid, allowed: false },
            }),
          )
        }, 3_000)
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as { port: number }).port
    const url = `https://127.0.0.1:${port}/validate`
    try {
      const n = ns.name
      const file = manifest('allowed.yaml')
      await registerKelp(url, { failurePolicy: 'Fail', timeoutSeconds: 1 })
      const timedOut = `Error from server (InternalError): error when creating "${file}": Internal error occurred: failed calling webhook "${WEBHOOK_NAME}": failed to call webhook: Post "${url}?timeout=1s": context deadline exceeded\n`
      let r = { code: 0, stdout: '', stderr: '' }
      let ms = 0
      await eventually(
        async () => {
          const t = Date.now()
          r = await cluster.kubectl(['-n', n, 'apply', '--dry-run=server', '-f', file])
          ms = Date.now() - t
          return r.code !== 0
        },
        30_000,
        'the slow webhook registered',
      )
      expect(r).toEqual({ code: 1, stdout: '', stderr: timedOut })
      expect(ms).toBeLessThan(2_900)
      await registerKelp(url, { failurePolicy: 'Ignore', timeoutSeconds: 1 })
      await eventually(
        async () => (await cluster.kubectl(['-n', n, 'apply', '--dry-run=server', '-f', file])).code === 0,
        30_000,
        'failurePolicy Ignore in effect',
      )
      r = await cluster.kubectl(['-n', n, 'apply', '-f', file])
      expect(r).toEqual({ code: 0, stdout: 'deployment.apps/web created\n', stderr: '' })
      await unregisterWebhook(cluster, `kelp-${n}`)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it('a hot reload of the policies under a steady stream of writes: none lost or misanswered, /metrics agree', async () => {
    const dir = join(cluster.dir, 'reload-policies')
    mkdirSync(dir, { recursive: true })
    const policy = (max: number) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit.e2e.kelp.dev}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= ${max}
    messageExpression: "'at most ${max} replicas, not ' + string(object.spec.replicas)"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replica-limit.e2e.kelp.dev}
spec: {policyName: replica-limit.e2e.kelp.dev, validationActions: [Deny]}
`
    writeFileSync(join(dir, 'limit.yaml'), policy(5))
    const serve = await startKelpServe(cluster, 'kelp-serve-reload', [dir])
    try {
      const n = ns.name
      await registerKelp(serve.url)
      const deployment = (name: string, replicas: number) => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: n },
        spec: {
          replicas,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'c', image: 'registry.example/c:1' }] },
          },
        },
      })
      const post = (name: string, replicas: number) =>
        cluster.request('POST', `/apis/apps/v1/namespaces/${n}/deployments`, deployment(name, replicas))
      await eventually(async () => (await post(`probe-${Date.now()}`, 9)).status === 403, 30_000, 'webhook in effect')
      const before = await serve.metrics()

      // 4 writers, 300 writes at least (replicas 3: allowed by both sets; 9: denied by both; 6: denied by max 5,
      // allowed by max 7); the policy file is rewritten (5 → 7) after the first 100 answers; the writers go on past
      // 300 until the new set has answered (a fast server can answer all 300 before the file watcher sees the
      // change), for 30 s at most
      const N = 300
      const results: { i: number; replicas: number; status: number; message: string; start: number; end: number }[] = []
      let next = 0
      let reloadedAt = 0
      let newSetAnswered = false
      const streamStart = performance.now()
      const writer = async () => {
        for (;;) {
          const i = next++
          if (i >= N && (newSetAnswered || performance.now() - streamStart > 30_000)) return
          const replicas = [3, 9, 6][i % 3]!
          const start = performance.now()
          const r = await post(`w-${i}`, replicas)
          const end = performance.now()
          const message: string = r.body?.message ?? ''
          if ((replicas === 6 && r.status === 201) || message.includes('at most 7 replicas')) newSetAnswered = true
          results.push({ i, replicas, status: r.status, message, start, end })
          if (results.length === 100) {
            writeFileSync(join(dir, 'limit.yaml.tmp'), policy(7))
            execFileSync('mv', [join(dir, 'limit.yaml.tmp'), join(dir, 'limit.yaml')])
            reloadedAt = performance.now()
          }
        }
      }
      const t0 = performance.now()
      await Promise.all([writer(), writer(), writer(), writer()])
      const seconds = (performance.now() - t0) / 1000
      const total = results.length
      console.log(`[e2e] reload stream: ${total} writes in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s)`)
      expect(reloadedAt).toBeGreaterThan(0)

      const denial = (max: number, replicas: number) =>
        `admission webhook "${WEBHOOK_NAME}" denied the request: ValidatingAdmissionPolicy 'replica-limit.e2e.kelp.dev' with binding 'replica-limit.e2e.kelp.dev' denied request: at most ${max} replicas, not ${replicas}`
      let firstNew = Number.POSITIVE_INFINITY
      for (const w of results) {
        const label = `write ${w.i} (replicas ${w.replicas})`
        if (w.replicas === 3) expect(w.status, label).toBe(201)
        else if (w.replicas === 9) {
          expect(w.status, label).toBe(403)
          expect([denial(5, 9), denial(7, 9)], label).toContain(w.message)
          if (w.message === denial(7, 9)) firstNew = Math.min(firstNew, w.end)
        } else {
          if (w.status === 201) firstNew = Math.min(firstNew, w.end)
          else {
            expect(w.status, label).toBe(403)
            expect(w.message, label).toBe(denial(5, 6))
          }
        }
      }
      // the new set is in use within a second of the file's change, and once it has answered, no write started
      // later is answered by the old one
      expect(firstNew - reloadedAt).toBeLessThan(5_000)
      for (const w of results.filter((w) => w.start > firstNew)) {
        const label = `write ${w.i} (replicas ${w.replicas}) after the reload`
        if (w.replicas === 6) expect(w.status, label).toBe(201)
        if (w.replicas === 9) expect(w.message, label).toBe(denial(7, 9))
      }
      const created = results.filter((w) => w.status === 201).length
      const denied = results.filter((w) => w.status === 403).length
      expect(created + denied).toBe(total)
      // none lost: every 201 is stored
      const list = await cluster.request('GET', `/apis/apps/v1/namespaces/${n}/deployments`)
      const stored = new Set(list.body.items.map((d: any) => d.metadata.name))
      for (const w of results.filter((w) => w.status === 201)) expect(stored.has(`w-${w.i}`), `w-${w.i}`).toBe(true)
      expect(results.filter((w) => w.status !== 201 && stored.has(`w-${w.i}`))).toEqual([])

      const after = await serve.metrics()
      const delta = (name: string, labels: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels)
      expect(delta('kelp_admission_reviews_total', { allowed: 'true', operation: 'CREATE' })).toBe(created)
      expect(delta('kelp_admission_reviews_total', { allowed: 'false', operation: 'CREATE' })).toBe(denied)
      expect(delta('kelp_http_requests_total', { path: '/validate', code: '200' })).toBe(total)
      expect(delta('kelp_reloads_total', { target: 'policies', result: 'success' })).toBeGreaterThanOrEqual(1)
      expect(delta('kelp_reloads_total', { target: 'policies', result: 'failure' })).toBe(0)
      expect(delta('kelp_admission_decisions_total', { policy: 'replica-limit.e2e.kelp.dev', action: 'Deny' })).toBe(
        denied,
      )
      await unregisterWebhook(cluster, `kelp-${n}`)
    } finally {
      await serve.stop()
    }
  })
})
