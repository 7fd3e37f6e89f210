import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// kelp check --admission-control-config-file: kube-apiserver's AdmissionConfiguration, of which the PodSecurity
// plugin's configuration sets the policy of namespaces without labels and the exemptions. Expected answers: a
// kube-apiserver v1.37.2 started with the same file (`--admission-control-config-file`, enforce baseline, warn and
// audit restricted, the namespace exempt-ns and the RuntimeClass kata exempt) to `kubectl apply --dry-run=server`
// of the same objects; plugin/pkg/admission/security/podsecurity/admission.go ValidateInitialization for the
// refusals of a bad file.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

function kelp(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

const PODSECURITY = `apiVersion: pod-security.admission.config.k8s.io/v1
kind: PodSecurityConfiguration
defaults:
  enforce: baseline
  warn: restricted
  audit: restricted
exemptions:
  namespaces: [exempt-ns]
  runtimeClasses: [kata]
`
const embedded = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: PodSecurity
    configuration:
${PODSECURITY.replace(/^/gm, '      ').trimEnd()}
`
const cluster = `apiVersion: v1
kind: Namespace
metadata: { name: plain }
---
apiVersion: v1
kind: Namespace
metadata: { name: exempt-ns }
---
apiVersion: v1
kind: Namespace
metadata: { name: priv, labels: { pod-security.kubernetes.io/enforce: privileged } }
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: { name: kata }
handler: kata
---
${['plain', 'exempt-ns', 'priv'].map((ns) => `apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: default, namespace: ${ns} }\n`).join('---\n')}`
const pod = (name: string, ns: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: ${ns} }
spec:
${extra}  containers: [{ name: c, image: nginx, securityContext: { privileged: true } }]
`
const objects = [
  pod('p-priv', 'plain'),
  'apiVersion: v1\nkind: Pod\nmetadata: { name: p-ok, namespace: plain }\nspec:\n  containers: [{ name: c, image: nginx }]\n',
  pod('p-priv', 'exempt-ns'),
  pod('p-priv', 'priv'),
  pod('p-kata', 'plain', '  runtimeClassName: kata\n'),
  `apiVersion: apps/v1
kind: Deployment
metadata: { name: d-priv, namespace: plain }
spec:
  selector: { matchLabels: { a: b } }
  template:
    metadata: { labels: { a: b } }
    spec:
      containers: [{ name: c, image: nginx, securityContext: { privileged: true } }]
`,
].join('---\n')

const restricted = (privileged: boolean) =>
  `would violate PodSecurity "restricted:latest": ${privileged ? 'privileged (container "c" must not set securityContext.privileged=true), ' : ''}allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`

function workdir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kelp-admission-config-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

interface Result {
  name: string
  namespace: string
  outcome: string
  findings: { level: string; message: string }[]
}

function check(config: string, files: Record<string, string>) {
  const dir = workdir({ 'cluster.yaml': cluster, 'objects.yaml': objects, ...files })
  const r = kelp(
    [
      'check',
      '--pack',
      'off',
      '-o',
      'json',
      '--admission-control-config-file',
      config,
      '-p',
      'cluster.yaml',
      'objects.yaml',
    ],
    dir,
  )
  return { ...r, results: r.code === 2 ? [] : (JSON.parse(r.out).objects as Result[]) }
}

const answers = (results: Result[]) =>
  results.map((o) => ({
    object: `${o.namespace}/${o.name}`,
    outcome: o.outcome,
    messages: o.findings.filter((f) => f.level === 'deny' || f.level === 'warn').map((f) => f.message),
  }))

describe('--admission-control-config-file', () => {
  const want = [
    {
      object: 'plain/p-priv',
      outcome: 'denied',
      messages: [
        'pods "p-priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
      ],
    },
    { object: 'plain/p-ok', outcome: 'warned', messages: [restricted(false)] },
    { object: 'exempt-ns/p-priv', outcome: 'allowed', messages: [] },
    { object: 'priv/p-priv', outcome: 'warned', messages: [restricted(true)] },
    { object: 'plain/p-kata', outcome: 'allowed', messages: [] },
    { object: 'plain/d-priv', outcome: 'warned', messages: [restricted(true)] },
  ]

  it('the PodSecurity configuration embedded: defaults for unlabelled namespaces, namespace and RuntimeClass exemptions', () => {
    const r = check('admission.yaml', { 'admission.yaml': embedded })
    expect(r.code, r.err).toBe(1)
    expect(answers(r.results)).toEqual(want)
  })

  it('the PodSecurity configuration in a file its path names, relative to the admission configuration', () => {
    const dir = workdir({ 'cluster.yaml': cluster, 'objects.yaml': objects })
    const sub = join(dir, 'conf')
    mkdirSync(sub)
    writeFileSync(
      join(sub, 'admission.yaml'),
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n  - name: PodSecurity\n    path: podsecurity.yaml\n',
    )
    writeFileSync(join(sub, 'podsecurity.yaml'), PODSECURITY)
    const out = kelp(
      [
        'check',
        '--pack',
        'off',
        '-o',
        'json',
        '--admission-control-config-file',
        'conf/admission.yaml',
        '-p',
        'cluster.yaml',
        'objects.yaml',
      ],
      dir,
    )
    expect(out.code, out.err).toBe(1)
    expect(answers(JSON.parse(out.out).objects)).toEqual(want)
  })

  it('without the file: kube-apiserver’s default, privileged everywhere (an unlabelled namespace admits the privileged pod)', () => {
    const dir = workdir({ 'cluster.yaml': cluster, 'objects.yaml': objects })
    const r = kelp(['check', '--pack', 'off', '-o', 'json', '-p', 'cluster.yaml', 'objects.yaml'], dir)
    expect(r.code, r.err).toBe(0)
    expect(answers(JSON.parse(r.out).objects).find((o) => o.object === 'plain/p-priv')?.outcome).toBe('allowed')
  })

  it('a bad file stops the run as it stops kube-apiserver (exit 2, the file named)', () => {
    const bad = (body: string) => check('admission.yaml', { 'admission.yaml': body })
    const level = bad(embedded.replace('enforce: baseline', 'enforce: baslein'))
    expect(level.code).toBe(2)
    expect(level.err).toContain(
      '--admission-control-config-file admission.yaml: PodSecurity: PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted',
    )
    const unknown = bad(embedded.replace('plugins:', 'plugin:'))
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('strict decoding error: unknown field "plugin"')
    const missing = check('nope.yaml', {})
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('--admission-control-config-file nope.yaml: no such file')
    const notYaml = bad('a: [')
    expect(notYaml.code).toBe(2)
    expect(notYaml.err).toMatch(/--admission-control-config-file admission\.yaml:\d+/)
  })
})
