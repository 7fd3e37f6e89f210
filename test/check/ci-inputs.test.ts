import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkParallel } from '../../src/check/parallel.js'
import { decodeStream } from '../../src/kube/yaml/decode.js'

// What a CI job feeds kelp check besides manifests (issue 26): unrendered Helm templates, JSON that holds `{{`
// (Grafana dashboards), kustomize's and Helm's own files; and the smaller things seen there: the progress
// line's total, the namespace -n gives. kubectl's answers, where it has one, were measured with kubectl 1.37.2.

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

type JsonReport = {
  objects: { name: string; kind: string; namespace?: string; outcome: string }[]
  diagnostics: { level: string; message: string; rule: string; source?: { file: string; line?: number } }[]
  summary: Record<string, number>
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: "nginx:1.27"}]}
`

const ROLEBINDING_TEMPLATE = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ include "x.fullname" . }}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: s, namespace: d}]
`

const tmp = () => mkdtempSync(join(tmpdir(), 'kelp-ci-inputs-'))

describe('Helm templates and JSON with {{', () => {
  it("go-yaml refuses a mapping as a key, in kubectl's words", () => {
    // kubectl apply -f rb.yaml: `error: error parsing rb.yaml: error converting YAML to JSON: yaml: invalid map
    // key: map[interface {}]interface {}{"include \"x.fullname\" .":interface {}(nil)}`
    const [doc] = [...decodeStream(ROLEBINDING_TEMPLATE)]
    expect(doc?.error).toEqual({
      message: 'invalid map key: map[interface {}]interface {}{"include \\"x.fullname\\" .":interface {}(nil)}',
      line: 4,
      column: 10,
    })
  })

  it('an unrendered template is one input error naming the file and line, no object (exit 2)', () => {
    const dir = tmp()
    writeFileSync(join(dir, 'rb.yaml'), ROLEBINDING_TEMPLATE)
    const r = kelp(['check', 'rb.yaml', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(2)
    const rep = JSON.parse(r.out) as JsonReport
    expect(rep.objects).toEqual([])
    expect(rep.diagnostics.map((d) => [d.level, d.source?.file, d.source?.line, d.message])).toEqual([
      ['error', 'rb.yaml', 4, 'looks like a Helm template ({{ at line 4): render it first (helm template)'],
    ])
  })

  it('a Grafana dashboard (valid JSON with {{ in its strings) is read as JSON: no manifest, a note', () => {
    const dir = tmp()
    writeFileSync(
      join(dir, 'dashboard.json'),
      JSON.stringify({ title: 'pods', panels: [{ targets: [{ legendFormat: '{{pod}}' }] }] }, null, 2),
    )
    writeFileSync(join(dir, 'deploy.yaml'), DEPLOYMENT)
    const r = kelp(['check', '.', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(0)
    const rep = JSON.parse(r.out) as JsonReport
    expect(rep.objects.map((o) => o.name)).toEqual(['web'])
    expect(rep.diagnostics.map((d) => [d.level, d.rule, d.source?.file])).toEqual([
      ['info', 'input/not-a-manifest', 'dashboard.json'],
    ])
  })
})

describe("kustomize's and Helm's own files", () => {
  it('kustomization.yaml, Chart.yaml, values.yaml: one note each, no object, exit 0', () => {
    // kubectl apply -f dir/ reads them as manifests and fails (`error validating "dir/values.yaml": error
    // validating data: [apiVersion not set, kind not set]`; Chart.yaml `kind not set`; a Kustomization `no
    // matches for kind`): kelp passes over them with a note, as a CI job checking the directory expects
    const dir = tmp()
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [deploy.yaml]\n',
    )
    writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n')
    writeFileSync(join(dir, 'values.yaml'), 'replicas: 2\nimage: {repository: nginx, tag: "1.27"}\n')
    writeFileSync(join(dir, 'deploy.yaml'), DEPLOYMENT)
    mkdirSync(join(dir, 'overlay'))
    // an older kustomization without apiVersion and kind, known by its name
    writeFileSync(join(dir, 'overlay', 'kustomization.yml'), 'resources: [../deploy.yaml]\nnamePrefix: x-\n')
    const r = kelp(['check', '.', '--pack', 'off'], dir)
    expect(r.code).toBe(0)
    expect(r.out).not.toContain('(created)')
    expect(r.out).toContain(
      "Chart.yaml: note: a Helm chart's Chart.yaml, not a manifest: not checked (render the chart: helm template . | kelp check -)",
    )
    expect(r.out).toContain(
      "kustomization.yaml: note: kustomize's configuration, not a manifest: not checked (render it: kubectl kustomize . | kelp check -)",
    )
    expect(r.out).toContain("overlay/kustomization.yml: note: kustomize's configuration")
    expect(r.out).toContain('values.yaml: note: no document has apiVersion and kind: not a Kubernetes manifest')
    expect(r.out).toContain('1 object: 1 allowed, 0 denied, 0 warned; 0 errors')
  })

  it('a manifest missing apiVersion or kind beside objects stays an error', () => {
    const dir = tmp()
    writeFileSync(
      join(dir, 'mixed.yaml'),
      `${DEPLOYMENT}---\nmetadata: {name: lost}\n---\napiVersion: v1\nmetadata: {name: half}\n`,
    )
    const r = kelp(['check', 'mixed.yaml', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(2)
    const rep = JSON.parse(r.out) as JsonReport
    expect(rep.diagnostics.map((d) => [d.level, d.source?.line, d.message])).toEqual([
      ['error', 11, 'not a Kubernetes object: error validating data: [apiVersion not set, kind not set]'],
      ['error', 13, 'not a Kubernetes object: error validating data: [kind not set]'],
    ])
  })
})

describe('the namespace -n gives, and the progress total', () => {
  it('-n team-a: the objects without a namespace are shown in it (the request kubectl sends names it)', () => {
    const dir = tmp()
    writeFileSync(
      join(dir, 'all.yaml'),
      `${DEPLOYMENT}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: own, namespace: other}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: cr}\n`,
    )
    const r = kelp(['check', 'all.yaml', '-n', 'team-a', '-o', 'json', '--pack', 'off'], dir)
    const rep = JSON.parse(r.out) as JsonReport
    expect(rep.objects.map((o) => [o.kind, o.namespace])).toEqual([
      ['Deployment', 'team-a'],
      ['ConfigMap', 'other'],
      ['Namespace', undefined],
      ['ClusterRole', undefined],
    ])
  })

  it('the progress line counts against the total of the first pass, also when the objects are read again', async () => {
    const dir = tmp()
    let text = ''
    for (let i = 0; i < 200; i++) text += `---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${i}}\n`
    // a Namespace at the end: a large input read twice (src/check/one-pass.ts finds its kind in the text, or, its
    // kind escaped, stops at it)
    const namespace = '---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n'
    writeFileSync(join(dir, 'many.yaml'), text)
    writeFileSync(join(dir, 'with-namespace.yaml'), text + namespace)
    writeFileSync(join(dir, 'with-escaped.yaml'), text + namespace.replace('kind: Namespace', 'kind: "\\x4eamespace"'))
    const progress = async (file: string, holdObjects: number) => {
      const seen: [number, number | undefined][] = []
      await checkParallel(
        { paths: [join(dir, file)], kubeVersion: '1.37', pack: 'off', holdObjects },
        1,
        (done, total) => seen.push([done, total]),
      )
      return seen
    }
    const counted = (total: number | undefined) => [
      [64, total],
      [128, total],
      [192, total],
    ]
    expect(await progress('many.yaml', 1000)).toEqual(counted(200))
    expect(await progress('with-namespace.yaml', 1000)).toEqual(counted(201))
    expect(await progress('with-namespace.yaml', 0)).toEqual(counted(201))
    // the objects admitted before the Namespace (dropped), then those read again against the total
    expect(await progress('with-escaped.yaml', 0)).toEqual([...counted(undefined), ...counted(201)])
    // read once: the total is not known while the objects are admitted
    expect(await progress('many.yaml', 0)).toEqual(counted(undefined))
  })
})
