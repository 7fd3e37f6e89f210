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
