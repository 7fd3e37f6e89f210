// `kelp serve` as the apiserver's webhook: started from the built CLI (node dist/cli/kelp.cjs serve, only its
// documented flags), waited for on /readyz, stopped by its PID; its /metrics read as numbers; and a
// ValidatingWebhookConfiguration that sends one namespace's writes to it.
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { join } from 'node:path'
import { type Cluster, freePort, ROOT } from '../harness.js'

export const WEBHOOK_NAME = 'validate.kelp.dev'

export interface KelpServe {
  port: number
  url: string
  pid: number
  logFile: string
  stop(): Promise<void>
  get(path: string): Promise<{ status: number; text: string }>
  metrics(): Promise<Metrics>
  logTail(lines?: number): string
}

export async function startKelpServe(
  cluster: Cluster,
  name: string,
  policyPaths: string[],
  extraArgs: string[] = [],
): Promise<KelpServe> {
  const { certFile, keyFile } = cluster.issueServingCert(name)
  const port = await freePort()
  const logFile = join(cluster.dir, `${name}.log`)
  const fd = openSync(logFile, 'a')
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, 'dist/cli/kelp.cjs'),
      'serve',
      ...policyPaths.flatMap((p) => ['-p', p]),
      '--tls-cert',
      certFile,
      '--tls-key',
      keyFile,
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--shutdown-delay',
      '0',
      ...extraArgs,
    ],
    { stdio: ['ignore', fd, fd] },
  )
  closeSync(fd)
  const pid = child.pid!
  cluster.registerPid(pid)
  const agent = new Agent({ keepAlive: true, ca: readFileSync(cluster.caFile) })
  const get = (path: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent, timeout: 10_000 }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', reject)
      req.end()
    })
  const logTail = (lines = 30) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  const stop = async () => {
    agent.destroy()
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(t)
  }
  process.on('exit', () => {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`kelp serve exited (${child.exitCode}):\n${logTail()}`)
    const r = await get('/readyz').catch(() => undefined)
    if (r?.status === 200) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`kelp serve not ready after 30 s:\n${logTail()}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    port,
    url: `https://127.0.0.1:${port}/validate`,
    pid,
    logFile,
    stop,
    get,
    metrics: async () => parseMetrics((await get('/metrics')).text),
    logTail,
  }
}

/** Prometheus text → a lookup by name and labels. */
export interface Metrics {
  /** the sum of the samples of name whose labels include the given ones */
  sum(name: string, labels?: Record<string, string>): number
}

export function parseMetrics(text: string): Metrics {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line)
    if (!m) continue
    const labels: Record<string, string> = {}
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return {
    sum: (name, want = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v))
        .reduce((a, s) => a + s.value, 0),
  }
}

export interface WebhookOptions {
  /** the VWC object's name (one per test namespace) */
  configName: string
  namespace: string
  url: string
  caBundle: string
  webhookName?: string
  failurePolicy?: 'Fail' | 'Ignore'
  timeoutSeconds?: number
}

/**
 * Registers a ValidatingWebhookConfiguration for every namespaced resource (CREATE, UPDATE) of one namespace, as
 * docs/deploy's does for its rules (admissionReviewVersions v1, sideEffects None).
 */
export async function registerWebhook(cluster: Cluster, o: WebhookOptions): Promise<void> {
  const body = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: o.configName },
    webhooks: [
      {
        name: o.webhookName ?? WEBHOOK_NAME,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: o.failurePolicy ?? 'Fail',
        timeoutSeconds: o.timeoutSeconds ?? 5,
        matchPolicy: 'Equivalent',
        clientConfig: { url: o.url, caBundle: o.caBundle },
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': o.namespace } },
        rules: [
          {
            apiGroups: ['*'],
            apiVersions: ['*'],
            resources: ['*'],
            operations: ['CREATE', 'UPDATE'],
            scope: 'Namespaced',
          },
        ],
      },
    ],
  }
  const existing = await cluster.request(
    'GET',
    `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${o.configName}`,
  )
  const r =
    existing.status === 200
      ? await cluster.request(
          'PUT',
          `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${o.configName}`,
          { ...body, metadata: { ...body.metadata, resourceVersion: existing.body.metadata.resourceVersion } },
        )
      : await cluster.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', body)
  if (r.status !== 200 && r.status !== 201) throw new Error(`registering ${o.configName}: ${r.status} ${r.text}`)
}

export async function unregisterWebhook(cluster: Cluster, configName: string): Promise<void> {
  await cluster.request('DELETE', `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${configName}`)
}

/** Retries probe until it returns true (the apiserver sees a new configuration through an informer). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await probe()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`not reached within ${timeoutMs} ms: ${what}`)
}
