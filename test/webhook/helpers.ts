import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { type Agent, request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'

// Shared by the webhook tests: a self-signed certificate made with the openssl CLI, policy
// material, AdmissionReview builders and an HTTPS client.

export const hasOpenssl = spawnSync('openssl', ['version'], { encoding: 'utf8' }).status === 0
if (!hasOpenssl)
  console.warn('openssl CLI not found: the HTTPS webhook tests are skipped (handler unit tests still run)')

export const tempDir = (prefix = 'kelp-webhook-') => mkdtempSync(join(tmpdir(), prefix))

/** A self-signed certificate for 127.0.0.1 / localhost (EC P-256, one day); returns the PEM texts. */
export function makeCert(dir: string, name = 'cert'): { certFile: string; keyFile: string; cert: string; key: string } {
  const certFile = join(dir, `${name}.pem`)
  const keyFile = join(dir, `${name}-key.pem`)
  const r = spawnSync(
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
      `/CN=kelp-test-${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { encoding: 'utf8' },
  )
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`)
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') }
}

/** Writes a file atomically (a temporary file renamed over it, as kubelet's volume updates are atomic). */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`
  writeFileSync(tmp, text)
  renameSync(tmp, path)
}

export const REPLICAS_POLICY = (max: number) => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit.example.com}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= ${max}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replica-limit-binding.example.com}
spec:
  policyName: replica-limit.example.com
  validationActions: [Deny]
`

export const LATEST_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-latest}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
  validations:
  - expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))"
    messageExpression: "'image tag latest is not allowed: ' + object.spec.containers.filter(c, c.image.endsWith(':latest')).map(c, c.name).join(', ')"
  auditAnnotations:
  - key: images
    valueExpression: "object.spec.containers.map(c, c.image).join(',')"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-latest-binding}
spec:
  policyName: no-latest
  validationActions: [Warn, Audit]
`

export const WIDGET_CRD = `
apiVersion: apiextensions.k8s.io/v1
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
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              message: replicas must not exceed maxReplicas
            properties:
              replicas: {type: integer, default: 1}
              maxReplicas: {type: integer}
`

/** A policy the apiserver refuses (its expression does not compile): the set is broken. */
export const BROKEN_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit.example.com}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <=
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replica-limit-binding.example.com}
spec:
  policyName: replica-limit.example.com
  validationActions: [Deny]
`

export const deployment = (replicas: number, name = 'web') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'shop' },
  // a valid Deployment (what an apiserver sends after its own validation): template labels matching
  // the selector, one container
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
  },
})

export const pod = (image: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'shop' },
  spec: { containers: [{ name: 'app', image }] },
})

export const widget = (replicas: number, maxReplicas: number) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'shop' },
  spec: { replicas, maxReplicas },
})

let uidCounter = 0

/** The AdmissionReview kube-apiserver sends for a CREATE of `object` (CreateV1AdmissionReview). */
export function review(
  object: Record<string, unknown>,
  resource: { group: string; version: string; resource: string },
  extra: Record<string, unknown> = {},
) {
  const [group, version] = String(object.apiVersion).includes('/')
    ? String(object.apiVersion).split('/')
    : ['', String(object.apiVersion)]
  const kind = { group, version, kind: object.kind }
  const meta = object.metadata as { name?: string; namespace?: string }
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `0000-${++uidCounter}-${Date.now()}`,
      kind,
      resource,
      requestKind: kind,
      requestResource: resource,
      name: meta.name ?? '',
      namespace: meta.namespace ?? '',
      operation: 'CREATE',
      userInfo: { username: 'alice', uid: 'u-1', groups: ['system:authenticated'] },
      object,
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      ...extra,
    },
  }
}

export const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' }
export const PODS = { group: '', version: 'v1', resource: 'pods' }
export const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' }

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json(): any
}

export function send(
  port: number,
  ca: string,
  options: {
    method?: string
    path?: string
    body?: string | Buffer | object
    agent?: Agent
    headers?: Record<string, string>
  } = {},
): Promise<Reply> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/validate',
        ca,
        agent: options.agent ?? false,
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition') {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await cond()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

export type RawReply = { status: number; headers: Record<string, string>; body: string }

/** Parses the HTTP/1.1 responses in `text` (each framed by its content-length; `heads`: HEAD answers). */
export function parseResponses(text: string, heads: readonly boolean[] = []): RawReply[] {
  const out: RawReply[] = []
  let at = 0
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at)
    if (end < 0) break
    const [statusLine, ...lines] = text.slice(at, end).split('\r\n')
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1])
    const headers: Record<string, string> = {}
    for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim()
    const length = status === 100 || heads[out.length] ? 0 : Number(headers['content-length'] ?? 0)
    out.push({ status, headers, body: text.slice(end + 4, end + 4 + length) })
    at = end + 4 + length
  }
  return out
}

/**
 * A raw TLS client on loopback: connects, writes `parts` (one write each), collects what comes back
 * until `done` says so, the server closes, or `timeoutMs` (then the socket is destroyed: bounded).
 */
export function talk(
  port: number,
  ca: string,
  parts: readonly (string | Buffer)[],
  done: (text: string) => boolean = () => false,
  timeoutMs = 3000,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca }, () => {
      for (const p of parts) socket.write(p)
    })
    let text = ''
    let settled = false
    const finish = (closed: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ text, closed })
    }
    const timer = setTimeout(() => finish(false), timeoutMs)
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1')
      if (done(text)) finish(false)
    })
    socket.on('close', () => finish(true))
    socket.on('error', (e) => {
      // a reset after an answer is a close; before anything arrived, the caller's error
      if (text !== '') finish(true)
      else if (!settled) {
        settled = true
        clearTimeout(timer)
        reject(e)
      }
    })
  })
}
export const responses = (n: number) => (text: string) => parseResponses(text).length >= n

const openssl = (args: string[]) => {
  const r = spawnSync('openssl', args, { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`)
}

/** A self-signed RSA certificate for 127.0.0.1 (a key of another type beside an EC one: a mismatch). */
export function makeRsaCert(
  dir: string,
  name = 'rsa',
): { certFile: string; keyFile: string; cert: string; key: string } {
  const certFile = join(dir, `${name}.pem`)
  const keyFile = join(dir, `${name}-key.pem`)
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=kelp-test-${name}`,
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ])
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') }
}

/** A CA and a client certificate it signed (what an apiserver presents through its kubeconfig). */
export function makeClientCA(dir: string): { caFile: string; ca: string; cert: string; key: string } {
  const caFile = join(dir, 'client-ca.pem')
  const caKey = join(dir, 'client-ca-key.pem')
  openssl([
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
    '/CN=kelp-test-client-ca',
    '-keyout',
    caKey,
    '-out',
    caFile,
  ])
  const key = join(dir, 'client-key.pem')
  const csr = join(dir, 'client.csr')
  const cert = join(dir, 'client.pem')
  openssl([
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    '/CN=kube-apiserver',
    '-keyout',
    key,
    '-out',
    csr,
  ])
  openssl(['x509', '-req', '-in', csr, '-CA', caFile, '-CAkey', caKey, '-CAcreateserial', '-days', '1', '-out', cert])
  return { caFile, ca: readFileSync(caFile, 'utf8'), cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') }
}
