import { describe, expect, it } from 'vitest'
import { iterateManifests, parseManifests } from '../../src/manifest/load.js'

// The loader's contract (docs/cli.md): every document with its file:line:column, Lists expanded
// item by item, a document that does not parse reported at its position while the rest are read.

const text = `apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: p}
- apiVersion: v1
  kind: Pod
  metadata: {name: q}
---
foo: [bar
---
apiVersion: v1
kind: Secret
metadata: {name: s}
`

describe('parseManifests', () => {
  const r = parseManifests(text, 'x.yaml')

  it('reads every parsable document, expanding Lists, with positions', () => {
    expect(r.objects.map((o) => [o.object.kind, (o.object.metadata as { name: string }).name, o.source])).toEqual([
      ['ConfigMap', 'a', { file: 'x.yaml', line: 1, column: 1, document: 0 }],
      ['Pod', 'p', { file: 'x.yaml', line: 8, column: 3, document: 1 }],
      ['Pod', 'q', { file: 'x.yaml', line: 11, column: 3, document: 1 }],
      ['Secret', 's', { file: 'x.yaml', line: 17, column: 1, document: 3 }],
    ])
  })

  it('reports the broken document with its position and goes on', () => {
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]?.source).toMatchObject({ file: 'x.yaml', document: 2 })
    expect(r.errors[0]?.source?.line).toBeGreaterThanOrEqual(15)
    expect(r.errors[0]?.level).toBe('error')
  })

  it('an empty input has no objects and no errors', () => {
    expect(parseManifests('', 'e.yaml')).toEqual({ objects: [], errors: [] })
    expect(parseManifests('---\n---\n', 'e.yaml')).toEqual({ objects: [], errors: [] })
  })

  it('JSON files parse as YAML', () => {
    const j = parseManifests('{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}}', 'p.json')
    expect(j.objects[0]?.object.kind).toBe('Pod')
  })
})

describe('parseManifests: YAML as kubectl reads it', () => {
  it('dates stay strings (the apiserver receives JSON), merge keys apply', () => {
    const r = parseManifests(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\ndata:\n  day: 2024-01-02\n  base: &b {x: "1"}\n  copy:\n    <<: *b\n    z: "2"\n',
      'd.yaml',
    )
    const data = r.objects[0]?.object.data as Record<string, unknown>
    expect(data.day).toBe('2024-01-02')
    expect(data.copy).toEqual({ x: '1', z: '2' })
  })

  it('a `kubectl get -o yaml` List: items at column 1, each at its own line', () => {
    const text = `apiVersion: v1
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: b
kind: List
metadata:
  resourceVersion: ""
`
    const r = parseManifests(text, 'dump.yaml')
    expect(
      r.objects.map((o) => [(o.object.metadata as { name: string }).name, o.source.line, o.source.column]),
    ).toEqual([
      ['a', 3, 3],
      ['b', 7, 3],
    ])
  })

  it('a flow-style List still gets item positions', () => {
    const r = parseManifests(
      'kind: List\napiVersion: v1\nitems: [{apiVersion: v1, kind: Pod, metadata: {name: x}}]\n',
      'f.yaml',
    )
    expect(r.objects[0]?.source).toMatchObject({ line: 3, column: 9 })
  })

  it('comments before a document; content on the `---` line is refused as kubectl refuses it', () => {
    // apimachinery pkg/util/yaml/decoder.go YAMLReader.Read: only spaces or a comment may follow `---`
    const r = parseManifests(
      '# header\n---\n# about a\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n--- {apiVersion: v1, kind: Namespace, metadata: {name: b}}\n',
      'm.yaml',
    )
    expect(r.objects.map((o) => [(o.object.metadata as { name: string }).name, o.source.line])).toEqual([['a', 4]])
    expect(r.errors.map((e) => [e.message, e.source?.line])).toEqual([
      ['invalid Yaml document separator: {apiVersion: v1, kind: Namespace, metadata: {name: b}}', 7],
    ])
  })

  it('duplicate keys are an error at their line, as kubectl (strict YAML) reports them', () => {
    const r = parseManifests('apiVersion: v1\nkind: Pod\nkind: Pod\n', 'dup.yaml')
    expect(r.objects).toEqual([])
    expect(r.errors[0]?.source).toMatchObject({ file: 'dup.yaml', line: 3 })
    // with the key's name, in go-yaml v2's words (decode.go setMapIndex, strict: the apiserver's
    // strict YAML decoding); kubectl's own non-strict read keeps the last value
    expect(r.errors[0]?.message).toBe('key "kind" already set in map')
    expect(parseManifests('a:\n  1: x\n  1: y\n', 'n.yaml').errors[0]?.message).toBe('key 1 already set in map')
    // also in a `{` text, which the JSON decoder refuses first: its error is not the one to hear of here (KYAML)
    const kyaml = parseManifests('{\n  apiVersion: "v1",\n  kind: "Pod",\n  kind: "Pod",\n}\n', 'k.yaml')
    expect(kyaml.errors[0]?.message).toBe('key "kind" already set in map')
    expect(kyaml.errors[0]?.source).toMatchObject({ file: 'k.yaml', line: 4 })
  })
})

describe('parseManifests: not a manifest', () => {
  it('a map without apiVersion and kind: one line in kubectl validation words', () => {
    // kubectl/pkg/validation schema.go ValidateBytes: "apiVersion not set", "kind not set"
    const r = parseManifests('# Chart.yaml\nname: app\nversion: 1.0.0\n', 'Chart.yaml')
    expect(r.objects).toEqual([])
    expect(r.errors.map((e) => [e.message, e.source?.line])).toEqual([
      ['not a Kubernetes object: error validating data: [apiVersion not set, kind not set]', 2],
    ])
    expect(parseManifests('apiVersion: v1\nmetadata: {}\n', 'k.yaml').errors[0]?.message).toBe(
      'not a Kubernetes object: error validating data: [kind not set]',
    )
  })

  it('a Helm template: one line for the file, at the first {{', () => {
    const tpl = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "app.fullname" . }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
`
    const r = parseManifests(tpl, 'templates/deployment.yaml')
    expect(r.objects).toEqual([])
    expect(r.errors.map((e) => [e.message, e.source?.line])).toEqual([
      ['looks like a Helm template ({{ at line 4): render it first (helm template)', 4],
    ])
  })

  it('`{{` inside strings of a valid manifest (alert templates) is not a template', () => {
    const r = parseManifests(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  summary: "{{ $labels.instance }} down"\n',
      'rules.yaml',
    )
    expect(r.errors).toEqual([])
    expect(r.objects).toHaveLength(1)
  })
})

describe('parseManifests: as kubectl reads a file', () => {
  it('YAML 1.1 values (go-yaml v2): yes, on, 0644', () => {
    const r = parseManifests(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\nspec:\n  enabled: yes\n  mode: on\n  defaultMode: 0644\n',
      'y.yaml',
    )
    expect(r.objects[0]?.object.spec).toEqual({ enabled: true, mode: true, defaultMode: 420 })
  })

  it('a JSON stream (objects back to back, as `kubectl get -o json` pipelines make)', () => {
    const r = parseManifests(
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"}}\n{"apiVersion":"v1",\n"kind":"Pod","metadata":{"name":"c"}}\n',
      's.json',
    )
    expect(r.errors).toEqual([])
    expect(r.objects.map((o) => [(o.object.metadata as { name: string }).name, o.source.line])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 2],
    ])
  })

  it('%YAML 1.1 and %TAG directives are read (kubernetes#135998); other YAML versions refused as go-yaml v2 does', () => {
    const r = parseManifests('%YAML 1.1\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n', 'd.yaml')
    expect(r.errors).toEqual([])
    expect(r.objects[0]?.source.line).toBe(3)
    const t = parseManifests(
      '%TAG !k! tag:yaml.org,2002:\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: !k!str b}\n',
      't.yaml',
    )
    expect(t.objects[0]?.object.metadata).toEqual({ name: 'b' })
    expect(parseManifests('%YAML 1.2\n---\na: 1\n', 'v.yaml').errors[0]?.message).toBe(
      'found incompatible YAML document',
    )
  })

  it('invalid UTF-8 is refused with the line, as go-yaml reader refuses it; the other documents are read', () => {
    const buf = Buffer.concat([
      Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: "'),
      Buffer.from([0xff]),
      Buffer.from('"}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n'),
    ])
    const r = parseManifests(buf, 'u.yaml')
    expect(r.errors.map((e) => [e.message, e.source?.line])).toEqual([['invalid leading UTF-8 octet', 4]])
    expect(r.objects.map((o) => (o.object.metadata as { name: string }).name)).toEqual(['b'])
  })

  it('200,000 documents in one file, streamed', () => {
    const doc = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n'
    const text = `${doc}---\n`.repeat(200_000)
    let n = 0
    for (const item of iterateManifests(text, 'big.yaml')) if (!('error' in item)) n++
    expect(n).toBe(200_000)
    const r = parseManifests(text, 'big.yaml')
    expect(r.objects).toHaveLength(200_000)
    expect(r.objects[199_999]?.source.line).toBe(199_999 * 5 + 1)
  }, 30_000)
})
