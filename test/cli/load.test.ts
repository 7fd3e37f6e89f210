import { describe, expect, it } from 'vitest'
import { parseManifests } from '../../src/cli/load.js'

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
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\ndata:\n  day: 2024-01-02\n  base: &b {x: "1"}\n  copy:\n    <<: *b\n    y: "2"\n',
      'd.yaml',
    )
    const data = r.objects[0]?.object.data as Record<string, unknown>
    expect(data.day).toBe('2024-01-02')
    expect(data.copy).toEqual({ x: '1', y: '2' })
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

  it('content on the `---` line, comments and directives before a document', () => {
    const r = parseManifests(
      '# header\n---\n# about a\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n--- {apiVersion: v1, kind: Namespace, metadata: {name: b}}\n',
      'm.yaml',
    )
    expect(r.objects.map((o) => [(o.object.metadata as { name: string }).name, o.source.line])).toEqual([
      ['a', 4],
      ['b', 7],
    ])
  })

  it('duplicate keys are an error at their line, as kubectl (strict YAML) reports them', () => {
    const r = parseManifests('apiVersion: v1\nkind: Pod\nkind: Pod\n', 'dup.yaml')
    expect(r.objects).toEqual([])
    expect(r.errors[0]?.source).toMatchObject({ file: 'dup.yaml', line: 3 })
  })
})
