// kelp audit against the real kube-apiserver (issue 30): objects are created first, the built CLI audits them with
// candidate policy material (as a user runs it: node dist/cli/kelp.cjs audit --kubeconfig …), and the answer for
// each object is compared with the apiserver's own once the same policy is installed: a dry-run create of the
// stored object (server fields removed) is refused with the same message, or passes admission (409 AlreadyExists:
// the name is taken, which the store checks after admission).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { useCluster } from '../context.js'
import { ROOT } from '../harness.js'

const cluster = useCluster()

const policy = (ns: string, action: 'Deny' | 'Warn') => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: audit-max-keys-${ns}}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["secrets"]}
  validations:
  - expression: "size(object.data) <= int(params.data.max)"
    messageExpression: "'too many keys in ' + object.metadata.name + ', max ' + params.data.max"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: audit-max-keys-${ns}}
spec:
  policyName: audit-max-keys-${ns}
  validationActions: [${action}]
  paramRef: {name: limits, namespace: ${ns}, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ${ns}}}
`

interface Result {
  kind: string
  name: string
  namespace?: string
  outcome: string
  findings: { level: string; message: string }[]
}

function kelpAudit(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'dist/cli/kelp.cjs'), 'audit', '--kubeconfig', cluster.kubeconfig, ...args],
    {
      encoding: 'utf8',
      timeout: 120_000,
    },
  )
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}

describe('kelp audit', () => {
  let ns = ''
  let dir = ''
  const secret = (name: string, keys: number) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name },
    data: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 'dg=='])),
  })

  beforeAll(async () => {
    ns = await cluster.namespace('audit')
    dir = mkdtempSync(join(tmpdir(), 'kelp-audit-'))
    const created = [
      await cluster.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'limits' },
        data: { max: '1' },
      }),
      await cluster.request('POST', `/api/v1/namespaces/${ns}/secrets`, secret('two-keys', 2)),
      await cluster.request('POST', `/api/v1/namespaces/${ns}/secrets`, secret('one-key', 1)),
      await cluster.request('POST', `/api/v1/namespaces/${ns}/secrets`, secret('three-keys', 3)),
    ]
    for (const r of created) expect(r.status, r.text).toBe(201)
    writeFileSync(join(dir, 'deny.yaml'), policy(ns, 'Deny'))
    writeFileSync(join(dir, 'warn.yaml'), policy(ns, 'Warn'))
  }, 60_000)

  afterAll(async () => {
    await cluster.kubectl(['delete', '--ignore-not-found', '-f', join(dir, 'deny.yaml')])
  })

  it('candidate Deny policy: what it would refuse, as the apiserver refuses it once installed', async () => {
    const r = kelpAudit(['-p', join(dir, 'deny.yaml'), '-n', ns, '-o', 'json'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1) // denied objects at --fail-on deny
    const report = JSON.parse(r.stdout) as { objects: Result[]; summary: { objects: number; denied: number } }
    const secrets = report.objects.filter((o) => o.kind === 'Secret')
    const byName = Object.fromEntries(secrets.map((o) => [o.name, o]))
    expect(Object.keys(byName).sort()).toEqual(['one-key', 'three-keys', 'two-keys'])
    expect(report.summary).toMatchObject({ objects: 3, denied: 2 })

    // the apiserver's answer, the policy installed: each stored secret created again (dry run)
    const applied = await cluster.kubectl(['apply', '-f', join(dir, 'deny.yaml')])
    expect(applied.code, applied.stderr).toBe(0)
    const answer = async (name: string) => {
      const got = await cluster.request('GET', `/api/v1/namespaces/${ns}/secrets/${name}`)
      const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...meta } = got.body.metadata
      return cluster.request('POST', `/api/v1/namespaces/${ns}/secrets?dryRun=All`, { ...got.body, metadata: meta })
    }
    // the policy takes a moment to be in force: poll until the biggest secret is refused
    const deadline = Date.now() + 30_000
    while ((await answer('three-keys')).status === 409 && Date.now() < deadline)
      await new Promise((d) => setTimeout(d, 250))
    for (const name of ['one-key', 'two-keys', 'three-keys']) {
      const a = await answer(name)
      const kelp = byName[name]!
      if (a.status === 409) {
        expect(kelp.outcome, name).toBe('allowed')
      } else {
        expect(kelp.outcome, name).toBe('denied')
        expect(
          kelp.findings.map((f) => f.message),
          name,
        ).toEqual([a.body.message])
      }
    }
  }, 120_000)

  it('-o policyreport: one PolicyReport for the namespace, a result per finding and a pass per clean object', () => {
    const r = kelpAudit(['-p', join(dir, 'warn.yaml'), '-n', ns, '-o', 'policyreport'])
    expect(r.code).toBe(0) // warnings only, --fail-on deny
    const reports = parseAllDocuments(r.stdout).map((d) => d.toJS())
    expect(reports).toHaveLength(1)
    const [report] = reports
    expect(report).toMatchObject({
      apiVersion: 'wgpolicyk8s.io/v1alpha2',
      kind: 'PolicyReport',
      metadata: { name: 'kelp', namespace: ns, labels: { 'app.kubernetes.io/managed-by': 'kelp' } },
      summary: { pass: 1, fail: 0, warn: 2, error: 0, skip: 0 },
    })
    const warned = report.results.filter((x: { result: string }) => x.result === 'warn')
    expect(warned.map((x: { resources: { name: string }[] }) => x.resources[0]?.name).sort()).toEqual([
      'three-keys',
      'two-keys',
    ])
    expect(warned[0]).toMatchObject({ policy: `audit-max-keys-${ns}`, source: 'kelp', properties: { action: 'Warn' } })
  }, 60_000)

  it('--cluster-policies: the installed policy on the objects stored under it', () => {
    const r = kelpAudit(['--cluster-policies', '-n', ns, '-o', 'json'])
    const report = JSON.parse(r.stdout) as { summary: { denied: number } }
    expect(report.summary.denied).toBe(2)
  }, 60_000)

  it('--write-reports: the PolicyReport written to the cluster (the published CRDs installed), replaced by a later run', async () => {
    const crds = join(ROOT, 'test/fixtures/policyreport')
    for (const f of ['wgpolicyk8s.io_policyreports.yaml', 'wgpolicyk8s.io_clusterpolicyreports.yaml']) {
      const r = await cluster.kubectl(['apply', '--server-side', '-f', join(crds, f)])
      expect(r.code, r.stderr).toBe(0)
    }
    const w = await cluster.kubectl([
      'wait',
      '--for=condition=Established',
      '--timeout=60s',
      'crd/policyreports.wgpolicyk8s.io',
    ])
    expect(w.code, w.stderr).toBe(0)
    const first = kelpAudit(['-p', join(dir, 'warn.yaml'), '-n', ns, '--write-reports'])
    expect(first.stderr).toContain('PolicyReports: 1 created, 0 replaced, 0 deleted')
    const got = await cluster.request('GET', `/apis/wgpolicyk8s.io/v1alpha2/namespaces/${ns}/policyreports/kelp`)
    expect(got.status, got.text).toBe(200)
    expect(got.body.summary).toMatchObject({ pass: 1, fail: 0, warn: 2 })
    expect(got.body.metadata.labels).toMatchObject({ 'kelp.dev/report': 'kelp' })
    const second = kelpAudit(['-p', join(dir, 'deny.yaml'), '-n', ns, '--write-reports'])
    expect(second.stderr).toContain('PolicyReports: 0 created, 1 replaced, 0 deleted')
    const again = await cluster.request('GET', `/apis/wgpolicyk8s.io/v1alpha2/namespaces/${ns}/policyreports/kelp`)
    expect(again.body.summary).toMatchObject({ pass: 1, fail: 2, warn: 0 })
  }, 120_000)

  describe('credentials as kubectl reads them: a token, an exec plugin (client certificates: every test above)', () => {
    let token = ''
    const kubeconfig = (user: string) => {
      const file = join(dir, `kubeconfig-${Math.random().toString(36).slice(2)}`)
      writeFileSync(
        file,
        [
          'apiVersion: v1',
          'kind: Config',
          `clusters: [{name: c, cluster: {server: "${cluster.server}", certificate-authority: "${cluster.caFile}"}}]`,
          `users: [{name: u, user: ${user}}]`,
          'contexts: [{name: x, context: {cluster: c, user: u}}]',
          'current-context: x',
          '',
        ].join('\n'),
      )
      return file
    }
    const audited = (file: string) => {
      const r = spawnSync(
        process.execPath,
        [
          join(ROOT, 'dist/cli/kelp.cjs'),
          'audit',
          '--kubeconfig',
          file,
          '-p',
          join(dir, 'deny.yaml'),
          '-n',
          ns,
          '-o',
          'json',
        ],
        { encoding: 'utf8', timeout: 120_000 },
      )
      return { code: r.status, stderr: r.stderr, report: r.stdout === '' ? undefined : JSON.parse(r.stdout) }
    }

    beforeAll(async () => {
      // a ServiceAccount that may read ConfigMaps, Namespaces and CRDs, not Secrets: its token
      const sa = `auditor-${ns}`
      const steps = [
        ['create', 'serviceaccount', sa, '-n', ns],
        [
          'create',
          'clusterrole',
          sa,
          '--verb=get,list',
          '--resource=configmaps,namespaces,customresourcedefinitions.apiextensions.k8s.io',
        ],
        ['create', 'clusterrolebinding', sa, `--clusterrole=${sa}`, `--serviceaccount=${ns}:${sa}`],
      ]
      for (const a of steps) {
        const r = await cluster.kubectl(a)
        expect(r.code, r.stderr).toBe(0)
      }
      const t = await cluster.kubectl(['create', 'token', sa, '-n', ns])
      expect(t.code, t.stderr).toBe(0)
      token = t.stdout.trim()
    }, 60_000)

    const expectForbiddenSecrets = (r: ReturnType<typeof audited>) => {
      // what it may not read is said, not hidden; the rest is audited
      expect(r.stderr).toBe('')
      const diag = r.report.diagnostics.map((d: { level: string; message: string }) => `${d.level}: ${d.message}`)
      expect(diag.join('\n')).toMatch(
        new RegExp(
          `^warn: could not read /api/v1/namespaces/${ns}/secrets: 403 secrets is forbidden: User "system:serviceaccount:${ns}:auditor-${ns}" cannot list resource "secrets"`,
          'm',
        ),
      )
      expect(r.report.summary.objects).toBe(0)
    }
    it('a bearer token', () => expectForbiddenSecrets(audited(kubeconfig(`{token: "${token}"}`))))
    it('an exec plugin (client.authentication.k8s.io/v1 ExecCredential)', () => {
      const plugin = join(dir, 'credential.mjs')
      writeFileSync(
        plugin,
        `process.stdout.write(JSON.stringify({apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: {token: ${JSON.stringify(token)}}}))\n`,
      )
      const exec = `{exec: {apiVersion: client.authentication.k8s.io/v1, command: "${process.execPath}", args: ["${plugin}"], interactiveMode: Never}}`
      expectForbiddenSecrets(audited(kubeconfig(exec)))
    })
    it('a token the apiserver does not know: the 401 is said, exit 2', () => {
      const r = audited(kubeconfig('{token: not-a-token}'))
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(`kelp: the cluster at ${cluster.server} (context x): 401 Unauthorized\n`)
    })
  })

  it('a kubeconfig that does not exist: a usage error, exit 2', () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'dist/cli/kelp.cjs'), 'audit', '--kubeconfig', join(dir, 'missing'), '-p', join(dir, 'deny.yaml')],
      { encoding: 'utf8' },
    )
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^kelp: kubeconfig: /)
  })
})
