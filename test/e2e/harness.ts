// The e2e harness: a real etcd + kube-apiserver pair on 127.0.0.1 (free ports, self-made certificates), an
// admin credential and kubeconfig for kubectl, a kubectl-free API client, a namespace per test, and a stop that
// ends both processes by their own PIDs (also when the caller dies: an exit hook kills what is still alive).
//
// The binaries come from test/e2e/kube/build.sh (.cache/kube/<version>/) or KELP_KUBE_BIN. Certificates are made
// offline with the machine's openssl (a CA, the apiserver's serving certificate, an admin client certificate in
// system:masters, serving certificates for webhooks) and node:crypto (the service-account signing key).
// kube-apiserver runs with its default admission chain, which in 1.37 includes ValidatingAdmissionPolicy,
// MutatingAdmissionPolicy (GA in 1.36, on by default) and both admission webhooks; --allow-privileged as
// kubeadm sets it, RBAC authorization.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { Agent, request } from 'node:https'
import { createServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository (KELP_ROOT when run from a bundle: test/e2e/run-ts.js sets it). */
export const ROOT = process.env.KELP_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '../..')

/** The Kubernetes release the e2e suites run against: KELP_KUBE_VERSION, else the one test/e2e/kube/go.mod requires. */
export const KUBE_VERSION: string =
  process.env.KELP_KUBE_VERSION ??
  /^\s*k8s\.io\/kubernetes (v[0-9.]+)$/m.exec(readFileSync(join(ROOT, 'test/e2e/kube/go.mod'), 'utf8'))![1]!

export const BINARIES = ['etcd', 'kube-apiserver', 'kubectl'] as const

export function binDir(version = KUBE_VERSION): string {
  return process.env.KELP_KUBE_BIN ?? join(ROOT, '.cache/kube', version)
}

/** The binaries missing from dir ([] when all are there). */
export function missingBinaries(dir = binDir()): string[] {
  return BINARIES.filter((b) => !existsSync(join(dir, b)))
}

/** What a test needs to reach the cluster; plain data, so vitest's globalSetup can provide it to the test files. */
export interface ClusterInfo {
  version: string
  binDir: string
  dir: string
  server: string
  kubeconfig: string
  caFile: string
  caKeyFile: string
  adminCertFile: string
  adminKeyFile: string
  etcdLog: string
  apiserverLog: string
  pids: { etcd: number; apiserver: number }
}

export interface ExecResult {
  code: number
  stdout: string
  stderr: string
}

export interface ApiResponse {
  status: number
  body: any
  text: string
  headers: Record<string, string | string[] | undefined>
  /** the texts of the Warning headers (299 "-" "<text>"), as kubectl prints them */
  warnings: string[]
}

const alive = new Set<number>()
let exitHookInstalled = false
function trackPid(pid: number): void {
  alive.add(pid)
  if (exitHookInstalled) return
  exitHookInstalled = true
  // last resort: whatever is still alive when this process exits is killed (exit handlers must be synchronous)
  process.on('exit', () => {
    for (const p of alive) {
      try {
        process.kill(p, 'SIGKILL')
      } catch {}
    }
  })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A port the kernel considers free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

function openssl(args: string[], cwd: string): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' })
  if (r.error)
    throw new Error(`openssl not runnable (${r.error.message}): the e2e harness makes its certificates with it`)
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`)
}

/**
 * Issues a certificate signed by the CA in dir (ca.crt / ca.key): EC P-256, two days. Returns the file paths.
 * usage 'server' needs sans (e.g. ['IP:127.0.0.1', 'DNS:localhost']); 'client' takes the subject as the identity
 * (CN = user, O = group).
 */
export function issueCert(
  dir: string,
  name: string,
  subject: string,
  usage: 'server' | 'client',
  sans: string[] = [],
): { certFile: string; keyFile: string } {
  const keyFile = join(dir, `${name}.key`)
  const certFile = join(dir, `${name}.crt`)
  const csr = join(dir, `${name}.csr`)
  const ext = join(dir, `${name}.ext`)
  openssl(
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      subject,
      '-keyout',
      keyFile,
      '-out',
      csr,
    ],
    dir,
  )
  const lines = [
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature,keyEncipherment',
    `extendedKeyUsage=${usage === 'server' ? 'serverAuth' : 'clientAuth'}`,
  ]
  if (sans.length > 0) lines.push(`subjectAltName=${sans.join(',')}`)
  writeFileSync(ext, `${lines.join('\n')}\n`)
  openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      join(dir, 'ca.crt'),
      '-CAkey',
      join(dir, 'ca.key'),
      '-set_serial',
      `0x${randomBytes(8).toString('hex')}`,
      '-days',
      '2',
      '-extfile',
      ext,
      '-out',
      certFile,
    ],
    dir,
  )
  rmSync(csr)
  rmSync(ext)
  return { certFile, keyFile }
}

function makePki(dir: string): void {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=kelp-e2e-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
      '-keyout',
      join(dir, 'ca.key'),
      '-out',
      join(dir, 'ca.crt'),
    ],
    dir,
  )
  issueCert(dir, 'apiserver', '/CN=kube-apiserver', 'server', [
    'IP:127.0.0.1',
    'DNS:localhost',
    'DNS:kubernetes',
    'DNS:kubernetes.default',
    'DNS:kubernetes.default.svc',
    'IP:10.96.0.1',
  ])
  issueCert(dir, 'admin', '/O=system:masters/CN=kelp-e2e-admin', 'client')
  const sa = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  writeFileSync(join(dir, 'sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }))
  writeFileSync(join(dir, 'sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }))
}

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return `(no ${file})`
  const text = readFileSync(file, 'utf8').trimEnd().split('\n')
  return text.slice(-lines).join('\n')
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Removes run directories of earlier runs whose processes are all gone. */
function pruneRuns(base: string, keep: string): void {
  if (!existsSync(base)) return
  for (const name of readdirSync(base)) {
    const d = join(base, name)
    if (d === keep || !name.startsWith('run-')) continue
    const pidsFile = join(d, 'pids')
    const pids = existsSync(pidsFile) ? readFileSync(pidsFile, 'utf8').split(/\s+/).filter(Boolean).map(Number) : []
    if (pids.some(isAlive)) continue
    // keep a failed run's logs for an hour
    if (Date.now() - statSync(d).mtimeMs < 3_600_000 && existsSync(join(d, 'keep'))) continue
    rmSync(d, { recursive: true, force: true })
  }
}

export interface StartOptions {
  /** where certificates, data and logs go (default .cache/e2e/run-<pid>-<time>) */
  dir?: string
  /** progress lines (default: none) */
  log?: (line: string) => void
  /** more kube-apiserver flags */
  apiserverArgs?: string[]
  readyTimeoutMs?: number
}

export class Cluster implements ClusterInfo {
  version!: string
  binDir!: string
  dir!: string
  server!: string
  kubeconfig!: string
  caFile!: string
  caKeyFile!: string
  adminCertFile!: string
  adminKeyFile!: string
  etcdLog!: string
  apiserverLog!: string
  pids!: { etcd: number; apiserver: number }
  private children: ChildProcess[] = []
  private agent: Agent | undefined

  private constructor(info: ClusterInfo) {
    Object.assign(this, info)
  }

  /** A handle on a cluster another process started (the test files get the globalSetup's cluster this way). */
  static attach(info: ClusterInfo): Cluster {
    return new Cluster(info)
  }

  static async start(options: StartOptions = {}): Promise<Cluster> {
    const log = options.log ?? (() => {})
    const bins = binDir()
    const missing = missingBinaries(bins)
    if (missing.length > 0)
      throw new Error(
        `e2e: ${missing.join(', ')} missing in ${bins}: build them with bash test/e2e/kube/build.sh ${KUBE_VERSION} (needs Go; see README, End-to-end tests)`,
      )
    const base = join(ROOT, '.cache/e2e')
    const dir = resolve(options.dir ?? join(base, `run-${process.pid}-${Date.now()}`))
    mkdirSync(dir, { recursive: true })
    pruneRuns(base, dir)
    const t0 = Date.now()
    makePki(dir)
    log(`certificates in ${dir} (${Date.now() - t0} ms)`)

    const [etcdPort, peerPort, securePort] = [await freePort(), await freePort(), await freePort()]
    const server = `https://127.0.0.1:${securePort}`
    const kubeconfig = join(dir, 'kubeconfig')
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: kelp-e2e',
        '  cluster:',
        `    server: ${server}`,
        `    certificate-authority: ${join(dir, 'ca.crt')}`,
        'users:',
        '- name: kelp-e2e-admin',
        '  user:',
        `    client-certificate: ${join(dir, 'admin.crt')}`,
        `    client-key: ${join(dir, 'admin.key')}`,
        'contexts:',
        '- name: kelp-e2e',
        '  context: {cluster: kelp-e2e, user: kelp-e2e-admin, namespace: default}',
        'current-context: kelp-e2e',
        '',
      ].join('\n'),
    )
    const cluster = new Cluster({
      version: KUBE_VERSION,
      binDir: bins,
      dir,
      server,
      kubeconfig,
      caFile: join(dir, 'ca.crt'),
      caKeyFile: join(dir, 'ca.key'),
      adminCertFile: join(dir, 'admin.crt'),
      adminKeyFile: join(dir, 'admin.key'),
      etcdLog: join(dir, 'etcd.log'),
      apiserverLog: join(dir, 'kube-apiserver.log'),
      pids: { etcd: 0, apiserver: 0 },
    })
    try {
      const etcd = cluster.spawnLogged(
        'etcd',
        [
          '--name=e2e',
          `--data-dir=${join(dir, 'etcd-data')}`,
          `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
          `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
          `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
          `--initial-cluster=e2e=http://127.0.0.1:${peerPort}`,
          '--log-level=warn',
          // a test cluster: losing the data on a crash is fine, the fsyncs are not
          '--unsafe-no-fsync',
        ],
        cluster.etcdLog,
      )
      cluster.pids.etcd = etcd.pid!
      cluster.writePids()
      await cluster.waitFor('etcd', etcd, 30_000, async () => {
        const r = await fetch(`http://127.0.0.1:${etcdPort}/health`).catch(() => undefined)
        return r?.ok === true && ((await r.json()) as { health?: string }).health === 'true'
      })
      log(`etcd ${etcd.pid} on 127.0.0.1:${etcdPort} (${Date.now() - t0} ms)`)
      const apiserver = cluster.spawnLogged(
        'kube-apiserver',
        [
          `--etcd-servers=http://127.0.0.1:${etcdPort}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--secure-port=${securePort}`,
          `--tls-cert-file=${join(dir, 'apiserver.crt')}`,
          `--tls-private-key-file=${join(dir, 'apiserver.key')}`,
          `--client-ca-file=${join(dir, 'ca.crt')}`,
          '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
          `--service-account-key-file=${join(dir, 'sa.pub')}`,
          `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
          '--service-cluster-ip-range=10.96.0.0/16',
          '--authorization-mode=RBAC',
          '--allow-privileged=true',
          '--profiling=false',
          // 127.0.0.1 cannot be the kubernetes Service's endpoint (loopback): no endpoint reconciler
          '--endpoint-reconciler-type=none',
          `--cert-dir=${join(dir, 'apiserver-certs')}`,
          ...(options.apiserverArgs ?? []),
        ],
        cluster.apiserverLog,
      )
      cluster.pids.apiserver = apiserver.pid!
      cluster.writePids()
      await cluster.waitFor('kube-apiserver', apiserver, options.readyTimeoutMs ?? 120_000, async () => {
        const r = await cluster.request('GET', '/readyz').catch(() => undefined)
        return r?.status === 200
      })
      log(`kube-apiserver ${apiserver.pid} ready on ${server} (${Date.now() - t0} ms)`)
      // no controller-manager runs: the default ServiceAccount the ServiceAccount admission plugin looks up for
      // every Pod is made by hand (also in each test namespace, by namespace())
      await cluster.ensureDefaultServiceAccount('default')
    } catch (e) {
      writeFileSync(join(dir, 'keep'), '')
      const tails = cluster.logTails()
      await cluster.stop()
      throw new Error(`${(e as Error).message}\n${tails}`)
    }
    return cluster
  }

  private spawnLogged(name: string, args: string[], logFile: string): ChildProcess {
    const fd = openSync(logFile, 'a')
    const child = spawn(join(this.binDir, name), args, { stdio: ['ignore', fd, fd] })
    closeSync(fd)
    if (child.pid === undefined) throw new Error(`${name} did not start`)
    trackPid(child.pid)
    this.children.push(child)
    child.once('exit', () => alive.delete(child.pid!))
    return child
  }

  private writePids(): void {
    writeFileSync(join(this.dir, 'pids'), `${this.pids.etcd} ${this.pids.apiserver}\n`)
  }

  /**
   * Records a process a test started beside the cluster (a webhook server): stop() ends it if it is still
   * alive, and so does .ci/run's cleanup (both read the run directory's pids file).
   */
  registerPid(pid: number): void {
    appendFileSync(join(this.dir, 'pids'), `${pid}\n`)
  }

  private registeredPids(): number[] {
    const file = join(this.dir, 'pids')
    if (!existsSync(file)) return []
    return readFileSync(file, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter((p) => p !== this.pids.etcd && p !== this.pids.apiserver)
  }

  private async waitFor(name: string, child: ChildProcess, timeoutMs: number, ready: () => Promise<boolean>) {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`e2e: ${name} exited (${child.exitCode ?? child.signalCode}) before it was ready`)
      if (await ready()) return
      await sleep(250)
    }
    throw new Error(`e2e: ${name} not ready after ${timeoutMs} ms`)
  }

  /** The last lines of both servers' logs, labelled. */
  logTails(lines = 40): string {
    return [
      `--- kube-apiserver log (last ${lines} lines of ${this.apiserverLog}) ---`,
      tail(this.apiserverLog, lines),
      `--- etcd log (last ${lines} lines of ${this.etcdLog}) ---`,
      tail(this.etcdLog, lines),
    ].join('\n')
  }

  /** Marks the run directory to be kept (logs of a failed run). */
  keep(): void {
    writeFileSync(join(this.dir, 'keep'), '')
  }

  /**
   * Stops kube-apiserver, then etcd, by their PIDs: SIGTERM, SIGKILL after 10 s. Removes etcd's data; the logs,
   * certificates and kubeconfig stay in dir until a later run prunes them.
   */
  async stop(): Promise<void> {
    this.agent?.destroy()
    for (const pid of [...this.registeredPids(), this.pids.apiserver, this.pids.etcd]) {
      if (!pid || !isAlive(pid)) continue
      try {
        process.kill(pid, 'SIGTERM')
      } catch {}
      const deadline = Date.now() + 10_000
      while (isAlive(pid) && Date.now() < deadline) await sleep(100)
      if (isAlive(pid)) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
        while (isAlive(pid)) await sleep(50)
      }
      alive.delete(pid)
    }
    rmSync(join(this.dir, 'etcd-data'), { recursive: true, force: true })
  }

  /** kubectl with this cluster's kubeconfig; never throws for a non-zero exit. */
  kubectl(args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<ExecResult> {
    return new Promise((resolve) => {
      const child = execFile(
        join(this.binDir, 'kubectl'),
        ['--kubeconfig', this.kubeconfig, ...args],
        { timeout: options.timeoutMs ?? 60_000, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
          resolve({ code, stdout, stderr })
        },
      )
      if (options.input !== undefined) child.stdin!.end(options.input)
      else child.stdin!.end()
    })
  }

  /** A request to the apiserver with the admin certificate (keep-alive), JSON in and out. */
  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    this.agent ??= new Agent({
      keepAlive: true,
      maxSockets: 16,
      ca: readFileSync(this.caFile),
      cert: readFileSync(this.adminCertFile),
      key: readFileSync(this.adminKeyFile),
    })
    const url = new URL(path, this.server)
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            accept: 'application/json',
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          timeout: 60_000,
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c) => (text += c))
          res.on('end', () => {
            let parsed: any
            try {
              parsed = text ? JSON.parse(text) : undefined
            } catch {
              parsed = undefined
            }
            const w = res.headers.warning
            const warnings = (Array.isArray(w) ? w : w ? [w] : []).flatMap(splitWarnings)
            resolve({ status: res.statusCode ?? 0, body: parsed, text, headers: res.headers, warnings })
          })
        },
      )
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)))
      req.on('error', reject)
      req.end(payload)
    })
  }

  private async ensureDefaultServiceAccount(namespace: string): Promise<void> {
    const r = await this.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace },
    })
    if (r.status !== 201 && r.status !== 409)
      throw new Error(`e2e: creating ${namespace}/default: ${r.status} ${r.text}`)
  }

  /** Creates a namespace (name prefix-xxxxx, with the given labels) and its default ServiceAccount. */
  async namespace(prefix = 'e2e', labels: Record<string, string> = {}): Promise<string> {
    const name = `${prefix}-${randomBytes(3).toString('hex')}`.toLowerCase()
    const r = await this.request('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels },
    })
    if (r.status !== 201) throw new Error(`e2e: creating namespace ${name}: ${r.status} ${r.text}`)
    await this.ensureDefaultServiceAccount(name)
    return name
  }

  /** Deletes a namespace (no controller-manager runs, so its objects stay in etcd until the cluster stops). */
  async deleteNamespace(name: string): Promise<void> {
    await this.request('DELETE', `/api/v1/namespaces/${name}`)
  }

  /** A serving certificate for 127.0.0.1 signed by the cluster's CA (for webhooks: caBundle = caPem()). */
  issueServingCert(name: string): { certFile: string; keyFile: string } {
    return issueCert(this.dir, name, `/CN=${name}`, 'server', ['IP:127.0.0.1', 'DNS:localhost'])
  }

  /** The cluster CA's PEM, base64 (a caBundle). */
  caBundle(): string {
    return readFileSync(this.caFile).toString('base64')
  }

  info(): ClusterInfo {
    const { children: _c, agent: _a, ...info } = this as any
    return { ...info }
  }
}

/** Splits a Warning header value into its texts: 299 - "text" (several may share one header, comma-separated). */
export function splitWarnings(value: string): string[] {
  const out: string[] = []
  const re = /\s*299\s+\S+\s+"((?:[^"\\]|\\.)*)"(?:\s+"[^"]*")?\s*,?/g
  let m: RegExpExecArray | null
  while ((m = re.exec(value)) !== null) out.push(m[1]!.replace(/\\(.)/g, '$1'))
  return out
}
