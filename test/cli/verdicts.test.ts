import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// `kelp check` wiring of two engine answers (issue 15): the REST mapping of the target release
// (zz_generated.prerelease-lifecycle.go: policy/v1beta1 PodSecurityPolicy deprecated 1.21, removed
// 1.25) and generateName (apiserver pkg/storage/names/generate.go: prefix + 5 characters of
// apimachinery pkg/util/rand's alphabet), which the report and the Forbidden Status name.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

type Report = { objects: { name: string; outcome: string; findings: { level: string; message: string }[] }[] }
function kelp(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, report: JSON.parse(r.stdout) as Report }
}

describe('kelp check: the target release decides what is served', () => {
  it('--kube-version 1.24 serves policy/v1beta1 PodSecurityPolicy (deprecated: a warning only); 1.25 does not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-release-'))
    writeFileSync(
      join(dir, 'psp.yaml'),
      'apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: psp}\nspec: {}\n',
    )
    const at24 = kelp(['check', 'psp.yaml', '--kube-version', '1.24', '--pack', 'off', '-o', 'json'], dir)
    expect(at24.report.objects[0]?.findings.map((f) => [f.level, f.message])).toEqual([
      ['warn', 'policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+'],
    ])
    expect(at24.code).toBe(0)
    const at25 = kelp(['check', 'psp.yaml', '--kube-version', '1.25', '--pack', 'off', '-o', 'json'], dir)
    expect(at25.report.objects[0]?.outcome).toBe('not-served')
  })
})

describe('kelp check: generateName', () => {
  it('the object is reported, and denied, under its generated name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-gen-'))
    writeFileSync(
      join(dir, 'pod.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata: {generateName: dbg-, namespace: default}\nspec:\n  containers: [{name: c, image: nginx:1.27, securityContext: {privileged: true}}]\n',
    )
    const r = kelp(['check', 'pod.yaml', '-o', 'json'], dir)
    const o = r.report.objects[0]
    expect(o?.name).toMatch(/^dbg-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    const deny = o?.findings.find((f) => f.level === 'deny')
    expect(deny?.message).toMatch(/^pods "dbg-[bcdfghjklmnpqrstvwxz2456789]{5}" is forbidden: /)
    expect(deny?.message).toContain(`pods "${o?.name}" is forbidden`)
  })
})

describe('kelp check: built-in objects decoded as the apiserver decodes them', () => {
  // apiserver: a body that does not decode is 400 BadRequest, `<Kind> in version "v1" cannot be handled as a
  // <Kind>: <encoding/json UnmarshalTypeError>`; kubectl apply prefixes the source of a create
  // (cmdutil.AddSourceToErr "creating") and prints `Error from server (BadRequest): …`
  it('replicas: three is refused with the decoder’s words, in kubectl’s line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-decode-'))
    writeFileSync(
      join(dir, 'bad.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: three\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n',
    )
    const r = spawnSync(process.execPath, [cli, 'check', 'bad.yaml', '--pack', 'off'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(
      '  Error from server (BadRequest): error when creating "bad.yaml": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n',
    )
  })
})

describe('kelp check -o yaml: objects as the cluster would store them', () => {
  // the defaults of apps/v1 SetDefaults_Deployment and core/v1 SetDefaults_PodSpec / _Container
  // (pkg/apis/apps/v1/defaults_test.go TestSetDefaultDeployment, core/v1 TestPodDefaults); written as
  // kubectl's YAML (sigs.k8s.io/yaml: sorted keys, sequences not indented, YAML 1.1 strings quoted); generation 1
  // from the Deployment strategy's PrepareForCreate (a real kube-apiserver 1.37.2 stores it so, measured by the
  // differential corpus)
  it('a Deployment comes out defaulted, its "on" label still a string; the report goes to stderr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-yaml-'))
    writeFileSync(
      join(dir, 'ok.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web, mode: "on"}}\n    spec:\n      containers: [{name: c, image: "nginx:1.27"}]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad}\ndata: {n: 5}\n',
    )
    const r = spawnSync(process.execPath, [cli, 'check', 'ok.yaml', '-o', 'yaml', '--pack', 'off'], {
      cwd: dir,
      encoding: 'utf8',
    })
    expect(r.stdout).toBe(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  generation: 1',
        '  name: web',
        '  namespace: default',
        'spec:',
        '  progressDeadlineSeconds: 600',
        '  replicas: 1',
        '  revisionHistoryLimit: 10',
        '  selector:',
        '    matchLabels:',
        '      app: web',
        '  strategy:',
        '    rollingUpdate:',
        '      maxSurge: 25%',
        '      maxUnavailable: 25%',
        '    type: RollingUpdate',
        '  template:',
        '    metadata:',
        '      labels:',
        '        app: web',
        '        mode: "on"',
        '    spec:',
        '      containers:',
        '      - image: nginx:1.27',
        '        imagePullPolicy: IfNotPresent',
        '        name: c',
        '        resources: {}',
        '        terminationMessagePath: /dev/termination-log',
        '        terminationMessagePolicy: File',
        '      dnsPolicy: ClusterFirst',
        '      restartPolicy: Always',
        '      schedulerName: default-scheduler',
        '      securityContext: {}',
        '      terminationGracePeriodSeconds: 30',
        'status: {}',
        '',
      ].join('\n'),
    )
    // the ConfigMap does not decode: nothing stored, the refusal reported on stderr
    expect(r.stderr).toContain('ConfigMap in version "v1" cannot be handled as a ConfigMap')
    expect(r.status).toBe(1)
  })
})

describe('kelp check: a custom resource with an unknown field (kubectl sends fieldValidation=Strict)', () => {
  // what a real kube-apiserver 1.37 answered in the differential corpus: 400 BadRequest, the decoder's message
  // (apiserver pkg/endpoints/handlers/rest.go transformDecodeError), kubectl's create prefix before it
  it('is a BadRequest in kubectl’s line, not an Invalid cause', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-strict-'))
    writeFileSync(
      join(dir, 'crd.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}\n',
    )
    writeFileSync(
      join(dir, 'w.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: a}\nspec: {size: 1, shape: round}\n',
    )
    const r = spawnSync(process.execPath, [cli, 'check', 'w.yaml', '-p', 'crd.yaml', '--pack', 'off'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    expect(r.stdout).toContain(
      '  Error from server (BadRequest): error when creating "w.yaml": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.shape"\n',
    )
  })
})
