import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkManifests, parseManifests } from '../../src/index.js'

// The library's `kelp check` (issue 26: a check(paths | text) entry returning the CLI's report) and kelp's
// manifest reader exported: the same answers as the command (the README's main job on examples/: the Ingress
// and CronJob versions the 1.37 release removed are not served, the debug Pod is denied by Pod Security baseline).

const ROOT = join(import.meta.dirname, '../..')

describe('checkManifests', () => {
  it('paths: the README main job', () => {
    const r = checkManifests({ paths: [join(ROOT, 'examples')] })
    expect(r.summary).toMatchObject({ objects: 4, allowed: 1, denied: 1, warned: 0 })
    expect(r.objects.filter((o) => o.outcome === 'not-served').map((o) => o.kind)).toEqual(['Ingress', 'CronJob'])
  })

  it('text: read as kubectl reads YAML, findings at the text`s lines', () => {
    const r = checkManifests({
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: x}\ndata: {on: yes}\n',
    })
    // go-yaml v2 reads `on` and `yes` as booleans; a ConfigMap's data wants strings: the apiserver's decode error
    expect(r.objects[0]?.outcome).toBe('denied')
    expect(r.objects[0]?.source).toMatchObject({ file: '-', line: 1 })
  })
})

describe('parseManifests', () => {
  it('objects with their positions, errors apart', () => {
    const r = parseManifests('a: [\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n', 'x.yaml')
    expect(r.objects.map((o) => [o.object.kind, o.source.line])).toEqual([['Namespace', 3]])
    expect(r.errors.length).toBe(1)
  })
})
