import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readShare } from '../../src/check/inputs.js'
import { iterateManifests } from '../../src/manifest/load.js'
import { pieces, streamable, streamManifests } from '../../src/manifest/stream.js'
import type { Finding } from '../../src/report/model.js'

// Large files are read in pieces cut at `---` lines (src/manifest/stream.ts). What kubectl reads is decided by the
// whole-file reading, checked against kubectl's own decoder in test/e2e/yaml; here the pieces must give exactly
// what the whole file gives (objects, errors, lines, columns, document indices), whatever the piece size.

const dir = mkdtempSync(join(tmpdir(), 'kelp-stream-'))
let n = 0
const file = (bytes: string | Buffer): string => {
  const p = join(dir, `f${n++}.yaml`)
  writeFileSync(p, bytes)
  return p
}

function read(path: string, streamBytes: number, from = 0, to = 1) {
  const diagnostics: Finding[] = []
  const objects = [...readShare({ file: path, from, to }, undefined, diagnostics, streamBytes)]
  return { objects, diagnostics }
}

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`

const FRAGMENTS = [
  cm('a'),
  `# a comment\n${cm('b')}`,
  '--- # separator with a comment\n',
  '---\n',
  '--- bad separator\n',
  `...\n${cm('ignored')}`,
  '%YAML 1.1\n---\n',
  '%YAML 1.2\n---\n',
  'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: i1}\n- 5\n',
  'key: [unclosed\n',
  '- a list\n',
  '42\n',
  'kind: NoVersion\n',
  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}}\n`,
  'data: |\n  ---\n  inside a block scalar\n',
  'apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: crlf\r\n',
  '\n\n',
  'a: 1\na: 2\n',
  '---\n---\n',
]

/** A deterministic mix of fragments, each followed by a separator or not. */
function mix(seed: number, count: number): string {
  let x = seed
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648
    return x
  }
  let out = ''
  for (let i = 0; i < count; i++) {
    out += FRAGMENTS[next() % FRAGMENTS.length]
    if (next() % 3 !== 0) out += '---\n'
  }
  return out
}

describe('large files in pieces read as the whole file', () => {
  it('pieces are the file, cut before `---` lines', () => {
    const text = mix(7, 200)
    const p = file(text)
    const got = [...pieces(p, 64)]
    expect(Buffer.concat(got.map((x) => x.bytes)).toString()).toBe(text)
    for (const x of got.slice(1)) expect(x.bytes.subarray(0, 3).toString()).toBe('---')
    expect(got.length).toBeGreaterThan(20)
  })

  it.each(Array.from({ length: 20 }, (_, i) => i + 1))(
    'mix %i in pieces of 7, 64 and 300 bytes (documents longer than a piece): the items of the whole file',
    (seed) => {
      // a first document that is no JSON stream: the file is streamable (a JSON stream is read whole)
      const text = `${cm('first')}---\n${mix(seed, 60)}`
      const p = file(text)
      expect(streamable(p, 7)).toBe(true)
      const whole = [...iterateManifests(readFileSync(p), p)]
      for (const size of [7, 64, 300]) expect([...streamManifests(p, text.length, undefined, size)]).toEqual(whole)
    },
  )

  it('a `{{` anywhere is seen whatever the reads: inside one, across two, in the last', () => {
    // streamable reads every piece into one buffer: the byte kept from the read before must be that read's
    const text = `${cm('a')}---\n${cm('b')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: "{{ x }}"}\n`
    const at = text.indexOf('{{')
    const p = file(text)
    for (const size of [1, 2, 3, 7, at, at + 1, at + 2, text.length]) expect(streamable(p, size)).toBe(false)
    const single = file(text.replace('{{', '{ {'))
    for (const size of [1, 2, 3, 7, at, at + 1, at + 2, text.length]) expect(streamable(single, size)).toBe(true)
  })

  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('mix %i: the same objects and errors', (seed) => {
    const p = file(mix(seed, 60))
    const whole = read(p, Number.POSITIVE_INFINITY)
    for (const streamBytes of [1, 40, 200, 1000]) expect(read(p, streamBytes)).toEqual(whole)
  })

  it('invalid UTF-8 and a document longer than a piece', () => {
    const p = file(
      Buffer.concat([
        Buffer.from(`${cm('x')}---\n`),
        Buffer.from(
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  k: "${'v'.repeat(5000)}"\n---\n`,
        ),
        Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "bad\xff"\n'),
        Buffer.from([0xff, 0x0a]),
        Buffer.from(`---\n${cm('after')}`),
      ]),
    )
    const whole = read(p, Number.POSITIVE_INFINITY)
    expect(whole.diagnostics.length).toBeGreaterThan(0)
    for (const streamBytes of [1, 64, 4096]) expect(read(p, streamBytes)).toEqual(whole)
  })

  it('files that read otherwise in pieces are read whole: a JSON stream, a Helm template', () => {
    for (const text of [
      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}\n{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}\n`,
      `${cm('a')}---\n${cm('{{ .Values.name }}')}`,
    ]) {
      const p = file(text)
      expect(read(p, 1)).toEqual(read(p, Number.POSITIVE_INFINITY))
    }
  })

  it('threads sharing a file read each document once', () => {
    const p = file(mix(99, 120))
    const whole = read(p, Number.POSITIVE_INFINITY)
    const cuts = [0, 0.2, 0.5, 0.51, 1]
    const parts = cuts.slice(1).map((to, i) => read(p, 100, cuts[i], to))
    expect(parts.flatMap((x) => x.objects)).toEqual(whole.objects)
  })
})
