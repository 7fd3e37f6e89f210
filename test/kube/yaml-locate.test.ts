import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import jsyaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { decodeStream } from '../../src/kube/yaml/decode.js'
import { FieldLocator, type FieldPathInput, locateField } from '../../src/kube/yaml/locate.js'
import { GOYAML_V2_SCHEMA } from '../../src/kube/yaml/resolve.js'
import { iterateManifests } from '../../src/manifest/load.js'
import { documents, edit, picker, projectYAMLFiles, ROOT, yamlFiles } from '../yaml-corpus.js'

// Field paths → where a person sees the field. Expected positions are read off the texts by hand:
// `line:column` of the key (mapping entries), of the item's value on its `-` line or the `-` (block
// sequence items), of the item (flow items); `~` marks a fallback to an ancestor (exact false).

const lines = (...l: string[]) => `${l.join('\n')}\n`

type Case = readonly [path: FieldPathInput, where: string]

/** Checks each path of a text against `line:column` (`~line:column`: the ancestor's, not exact). */
function table(text: string, cases: readonly Case[], start: { line: number; column?: number } = { line: 1 }) {
  const loc = new FieldLocator(text)
  for (const [path, where] of cases) {
    const p = loc.locate(start, path)
    const got = `${p.exact ? '' : '~'}${p.line}:${p.column}`
    expect(got, `${JSON.stringify(path)} in\n${text.slice(0, 400)}`).toBe(where)
  }
}

const DEPLOYMENT = lines(
  'apiVersion: apps/v1', // 1
  'kind: Deployment', // 2
  'metadata:', // 3
  '  name: web', // 4
  '  labels:', // 5
  '    app.kubernetes.io/name: web', // 6
  '  annotations:', // 7
  '    kubernetes.io/change-cause: "first"', // 8
  'spec:', // 9
  '  replicas: 3', // 10
  '  template:', // 11
  '    spec:', // 12
  '      containers:', // 13
  '        - name: web', // 14
  '          image: nginx:1.25', // 15
  '          ports:', // 16
  '          - containerPort: 80', // 17
  '            protocol: TCP', // 18
  '          - containerPort: 443', // 19
  '        - name: sidecar', // 20
  '          image: busybox', // 21
)

describe('block mappings and sequences', () => {
  it('finds keys, items and nested fields', () =>
    table(DEPLOYMENT, [
      ['', '1:1'],
      ['<nil>', '1:1'],
      ['kind', '2:1'],
      ['spec.replicas', '10:3'],
      ['.spec.replicas', '10:3'],
      ['metadata.labels[app.kubernetes.io/name]', '6:5'],
      ["metadata.labels['app.kubernetes.io/name']", '6:5'],
      ['metadata.annotations[kubernetes.io/change-cause]', '8:5'],
      ['spec.template.spec.containers[0]', '14:11'],
      ['spec.template.spec.containers[0].image', '15:11'],
      ['spec.template.spec.containers[1].image', '21:11'],
      ['spec.template.spec.containers[0].ports[0].protocol', '18:13'],
      ['spec.template.spec.containers[0].ports[1]', '19:13'],
      [['spec', 'template', 'spec', 'containers', 1, 'name'], '20:11'],
      // server-side apply's associative keys
      ['.spec.template.spec.containers[name="sidecar"].image', '21:11'],
      ['spec.template.spec.containers[name="web"].ports[containerPort=443]', '19:13'],
    ]))

  it('falls back to the deepest ancestor written', () =>
    table(DEPLOYMENT, [
      ['spec.selector', '~9:1'],
      ['spec.selector.matchLabels', '~9:1'],
      ['spec.replicas.value', '~10:3'], // past a scalar
      ['spec.template.spec.containers[2].image', '~13:7'],
      ['spec.template.spec.containers[name="other"]', '~13:7'],
      ['spec.template.spec.containers.image', '~13:7'], // a name on a sequence
      ['spec.template.spec.containers[0].ports[0].hostPort', '~17:13'],
      ['status', '~1:1'],
      ['metadata.labels[app]', '~5:3'],
    ]))

  it('reads sequences at their key’s column, items below their dash, nested dashes', () =>
    table(
      lines(
        'spec:', // 1
        '  containers:', // 2
        '  - name: a', // 3
        '    args:', // 4
        '    - -c', // 5
        '    - "x: y"', // 6
        '  -', // 7
        '    name: b', // 8
        '  - - nested', // 9
        '    - - deeper', // 10
        '  volumes: []', // 11
      ),
      [
        ['spec.containers[0].name', '3:5'],
        ['spec.containers[0].args[0]', '5:7'],
        ['spec.containers[0].args[1]', '6:7'],
        ['spec.containers[1]', '7:3'], // the item starts below its dash: the dash
        ['spec.containers[1].name', '8:5'],
        ['spec.containers[2][0]', '9:7'],
        ['spec.containers[2][1]', '10:7'],
        ['spec.containers[2][1][0]', '10:9'],
        ['spec.volumes', '11:3'],
        ['spec.volumes[0]', '~11:3'],
      ],
    ))

  it('skips comments, including ones that look like keys', () =>
    table(
      lines(
        '# replicas: 0', // 1
        'spec:  # the spec', // 2
        '  # replicas: 1', // 3
        '  selector: {}   # replicas: 2', // 4
        '', // 5
        '      # replicas: 3', // 6
        '  replicas: 4 # four', // 7
        '  note: "# not a comment"', // 8
        '  after: 5', // 9
      ),
      [
        ['spec.replicas', '7:3'],
        ['spec.note', '8:3'],
        ['spec.after', '9:3'],
        ['replicas', '~2:1'],
      ],
    ))

  it('reads quoted, explicit and resolved keys as sigs.k8s.io/yaml names them', () =>
    table(
      lines(
        'data:', // 1
        '  "quoted key": 1', // 2
        "  'it''s': 2", // 3
        '  "esc\\x41\\u00e9": 3', // 4
        '  "a: b": 4', // 5
        '  ? explicit', // 6
        '  : 5', // 7
        '  y: 6', // 8
        '  0x10: 7', // 9
        '  1.0: 8', // 10
        '  __proto__: 9', // 11
        '  constructor: 10', // 12
        '  "y": 11', // 13
        '  url: http://x:80/y', // 14
        '  last: 12', // 15
      ),
      [
        ['data[quoted key]', '2:3'],
        ["data[it's]", '3:3'],
        ['data[escAé]', '4:3'],
        ['data["a: b"]', '5:3'],
        ['data[explicit]', '6:5'],
        ['data[true]', '8:3'], // go-yaml v2: `y` is true
        ['data[16]', '9:3'],
        ['data[1]', '10:3'],
        ['data.__proto__', '11:3'],
        ['data.constructor', '12:3'],
        ['data.toString', '~1:1'],
        ['data.hasOwnProperty', '~1:1'],
        ['data.y', '13:3'],
        ['data.url', '14:3'],
        ['data.last', '15:3'],
      ],
    ))
})

describe('scalars spanning lines', () => {
  it('skips literal and folded block scalars, whatever they hold', () =>
    table(
      lines(
        'data:', // 1
        '  script: |', // 2
        '    replicas: 1', // 3
        '    - "unclosed', // 4
        '    [ {', // 5
        '', // 6
        '    # not a comment', // 7
        '  folded: >-', // 8
        '    text: y', // 9
        '  indented: |2', // 10
        '      deeper: z', // 11
        '  last: z', // 12
        'spec:', // 13
        '  replicas: 2', // 14
      ),
      [
        ['data.script', '2:3'],
        ['data.folded', '8:3'],
        ['data.indented', '10:3'],
        ['data.last', '12:3'],
        ['spec.replicas', '14:3'],
        ['data.replicas', '~1:1'],
        ['data.script.replicas', '~2:3'],
      ],
    ))

  it('skips multi-line plain and quoted scalars', () =>
    table(
      lines(
        'a:', // 1
        '  plain: one', // 2
        '    two "three', // 3
        '  dq: "x', // 4
        'y: z', // 5
        '  w"', // 6
        "  sq: 'it''s", // 7
        "    - [b'", // 8
        '  b: 1', // 9
      ),
      [
        ['a.dq', '4:3'],
        ['a.sq', '7:3'],
        ['a.b', '9:3'],
        ['y', '~1:1'], // inside a.dq's value
      ],
    ))
})

describe('flow collections and JSON', () => {
  it("flow keys opened by `?`: go-yaml's key indicator in any flow context, a blank after it or not", () =>
    table(lines('data: {?ip: 10.0.0.1, ? mode: fast, b: 1}'), [
      ['data.ip', '1:9'],
      ['data.mode', '1:25'],
      ['data.b', '1:37'],
    ]))

  it('one-line flow collections', () =>
    table(
      lines(
        'metadata: {name: x, labels: {a: "1", \'b c\': two, "d,e": f}}', // 1
        'spec: {ports: [{port: 80}, {port: 443, name: "https"}], empty: {}, list: [a, [b, c]]}', // 2
      ),
      [
        ['metadata.name', '1:12'],
        ['metadata.labels.a', '1:30'],
        ['metadata.labels[b c]', '1:38'],
        ['metadata.labels[d,e]', '1:50'],
        ['spec.ports[0]', '2:16'],
        ['spec.ports[0].port', '2:17'],
        ['spec.ports[1].name', '2:40'],
        ['spec.empty', '2:57'],
        ['spec.empty.x', '~2:57'],
        ['spec.list[1][1]', '2:82'],
        ['spec.list[2]', '~2:68'],
      ],
    ))

  it('multi-line flow collections, with comments', () =>
    table(
      lines(
        'spec:', // 1
        '  ports: [', // 2
        '    {name: http, port: 80},  # first', // 3
        '    {', // 4
        '      name: https,', // 5
        '      "port": 443', // 6
        '    },', // 7
        '  ]', // 8
        '  after: {a: [1,', // 9
        '    2], b: 3}', // 10
      ),
      [
        ['spec.ports[0]', '3:5'],
        ['spec.ports[0].port', '3:18'],
        ['spec.ports[1]', '4:5'],
        ['spec.ports[1].port', '6:7'],
        ['spec.ports[2]', '~2:3'],
        ['spec.after.a[1]', '10:5'],
        ['spec.after.b', '10:9'],
      ],
    ))

  it('a pretty-printed JSON document', () =>
    table(
      [
        '{', // 1
        '  "apiVersion": "v1",', // 2
        '  "kind": "ConfigMap",', // 3
        '  "metadata": {', // 4
        '    "name": "x",', // 5
        '    "annotations": {"kubernetes.io/a": "b\\"}", "c": ["d"]}', // 6
        '  },', // 7
        '  "data": {', // 8
        '    "k": "v"', // 9
        '  }', // 10
        '}', // 11
      ].join('\n'),
      [
        ['metadata.name', '5:5'],
        ['metadata.annotations[kubernetes.io/a]', '6:21'],
        ['metadata.annotations.c[0]', '6:54'],
        ['data.k', '9:5'],
        ['data.missing', '~8:3'],
      ],
    ))

  it('compact JSON: columns on one line', () =>
    table('{"a":{"b":[1,{"c":2}]},"d":"x"}', [
      ['a.b[1].c', '1:15'],
      ['a.b[0]', '1:12'],
      ['d', '1:24'],
      ['a.b[2]', '~1:7'],
    ]))
})

describe('streams, Lists, anchors, odd texts', () => {
  const STREAM = lines(
    '# a file', // 1
    'apiVersion: v1', // 2
    'kind: ConfigMap', // 3
    'metadata: {name: a}', // 4
    '---', // 5
    'apiVersion: v1', // 6
    'kind: Service', // 7
    'spec:', // 8
    '  ports:', // 9
    '  - port: 80', // 10
    '--- # second', // 11
    '{"apiVersion": "v1", "kind": "Pod", "spec": {}}', // 12
  )

  it('locates within each document of a stream, never in the next one', () => {
    table(STREAM, [['spec', '~2:1']], { line: 1 })
    table(STREAM, [['metadata.name', '4:12']], { line: 2 })
    table(STREAM, [['spec.ports[0].port', '10:5']], { line: 6 })
    table(
      STREAM,
      [
        ['spec', '12:37'],
        ['spec.ports', '~12:37'],
      ],
      { line: 12 },
    )
    // one document's text with its first line, as decode.ts keeps it
    const docs = [...decodeStream(STREAM)]
    const second = docs[1]!
    expect(second.line).toBe(6)
    expect(locateField(second.text, { line: 6 }, 'spec.ports[0].port', second.line)).toEqual({
      line: 10,
      column: 5,
      exact: true,
    })
  })

  it('reads past directives and a document start', () =>
    table(lines('%YAML 1.1', '---', '# c', 'a:', '  b: 1'), [
      ['a.b', '5:3'],
      ['', '4:1'],
    ]))

  const LIST = lines(
    'apiVersion: v1', // 1
    'kind: List', // 2
    'items:', // 3
    '- apiVersion: v1', // 4
    '  kind: ConfigMap', // 5
    '  metadata:', // 6
    '    name: a', // 7
    '- apiVersion: v1', // 8
    '  kind: Service', // 9
    '  spec:', // 10
    '    ports: [{port: 80}]', // 11
    'metadata: {}', // 12
  )

  it('locates relative to a List item (the item’s start, as load.ts gives it)', () => {
    table(
      LIST,
      [
        ['metadata.name', '7:5'],
        ['spec', '~4:3'],
      ],
      { line: 4, column: 3 },
    )
    table(
      LIST,
      [
        ['spec.ports[0].port', '11:14'],
        ['metadata', '~8:3'],
      ],
      { line: 8, column: 3 },
    )
    // from the positions load.ts gives its objects
    const objects = [...iterateManifests(LIST, 'l.yaml')].flatMap((i) => ('object' in i ? [i] : []))
    expect(objects.map((o) => [o.source.line, o.source.column])).toEqual([
      [4, 3],
      [8, 3],
    ])
    const loc = new FieldLocator(LIST)
    expect(loc.locate(objects[0]!.source as { line: number }, 'metadata.name')).toEqual({
      line: 7,
      column: 5,
      exact: true,
    })
    expect(loc.locate(objects[1]!.source as { line: number }, 'spec.ports[0].port').line).toBe(11)
  })

  it('locates in flow and JSON Lists from their items’ positions', () => {
    const flow = lines('kind: List', 'items: [', '  {kind: A, spec: {x: 1}},', '  {kind: B, spec: {w: 2}}]')
    table(
      flow,
      [
        ['spec.w', '4:20'],
        ['spec.x', '~4:13'],
      ],
      { line: 4, column: 3 },
    )
    const json =
      '{"kind": "List", "items": [\n  {"apiVersion": "v1", "kind": "A", "spec": {"x": 1}},\n  {"apiVersion": "v1", "kind": "B", "spec": {}}\n]}'
    const objects = [...iterateManifests(json, 'l.json')].flatMap((i) => ('object' in i ? [i] : []))
    const loc = new FieldLocator(json)
    expect(loc.locate(objects[0]!.source as { line: number }, 'spec.x')).toEqual({ line: 2, column: 46, exact: true })
    expect(loc.locate(objects[1]!.source as { line: number }, 'spec.x')).toEqual({ line: 3, column: 37, exact: false })
  })

  it('points an alias at its own line, and a merged key at its mapping', () =>
    table(
      lines(
        'base: &b', // 1
        '  image: nginx', // 2
        '  ports: [80]', // 3
        'a:', // 4
        '  <<: *b', // 5
        '  name: x', // 6
        'c: *b', // 7
        'd:', // 8
        '- &item', // 9
        '  k: v', // 10
        '- *item', // 11
        '- &s !!str plain', // 12
      ),
      [
        ['base.image', '2:3'],
        ['a.name', '6:3'],
        ['a.image', '~4:1'],
        ['c', '7:1'],
        ['c.image', '~7:1'],
        ['d[0].k', '10:3'],
        ['d[1]', '11:3'],
        ['d[1].k', '~11:3'],
        ['d[2]', '12:3'],
      ],
    ))

  it('reads CRLF line ends, a BOM, tabs after colons', () =>
    table('\ufeffa:\r\n  b:\t1\r\n  c: [1,\r\n    2]\r\nd: x\r\n', [
      ['a.b', '2:3'],
      ['a.c[1]', '4:5'],
      ['d', '5:1'],
    ]))

  it('reads a CRD’s validation rules', () =>
    table(
      lines(
        'apiVersion: apiextensions.k8s.io/v1', // 1
        'kind: CustomResourceDefinition', // 2
        'spec:', // 3
        '  versions:', // 4
        '  - name: v1', // 5
        '    schema:', // 6
        '      openAPIV3Schema:', // 7
        '        type: object', // 8
        '        x-kubernetes-validations:', // 9
        '        - rule: self.x > 0', // 10
        '          message: >-', // 11
        '            x must be', // 12
        '            positive', // 13
        '        - rule: |', // 14
        '            self.y', // 15
        '        properties:', // 16
        '          spec:', // 17
        '            x-kubernetes-validations: [{rule: "has(self.color)"}]', // 18
      ),
      [
        ['spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[1].rule', '14:11'],
        ['spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule', '18:41'],
        ['spec.versions[0].schema.openAPIV3Schema.properties[spec]', '17:11'],
      ],
    ))
})

describe('hostile input', () => {
  const DEPTH = 10_000

  it('10,000 levels of flow, JSON and compact block nesting: no stack, linear', () => {
    const flow = `${'['.repeat(DEPTH)}x${']'.repeat(DEPTH)}`
    const json = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`
    const block = `${'- '.repeat(DEPTH)}x\n`
    const keys = `k: ${'{"a": [0, '.repeat(DEPTH)}1${']}'.repeat(DEPTH)}\n`
    const t0 = performance.now()
    expect(locateField(flow, { line: 1 }, Array(DEPTH).fill(0))).toEqual({ line: 1, column: DEPTH + 1, exact: true })
    expect(locateField(flow, { line: 1 }, Array(DEPTH + 1).fill(0))).toEqual({
      line: 1,
      column: DEPTH + 1,
      exact: false,
    })
    expect(locateField(json, { line: 1 }, Array(DEPTH).fill('a'))).toEqual({
      line: 1,
      column: 5 * DEPTH - 3,
      exact: true,
    })
    expect(locateField(block, { line: 1 }, Array(DEPTH).fill(0))).toEqual({
      line: 1,
      column: 2 * DEPTH + 1,
      exact: true,
    })
    const path = ['k', ...Array.from({ length: DEPTH }, () => ['a', 1]).flat()]
    expect(locateField(keys, { line: 1 }, path).exact).toBe(true)
    expect(locateField(keys, { line: 1 }, path.join('.').replace(/\.1(?=\.|$)/g, '[1]')).exact).toBe(true)
    expect(performance.now() - t0).toBeLessThan(2000)
  })

  it('1,000 levels of indented block mappings', () => {
    const n = 1000
    const text = Array.from({ length: n }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n'
    expect(locateField(text, { line: 1 }, Array(n).fill('a'))).toEqual({ line: n, column: n, exact: true })
    expect(locateField(text, { line: 1 }, [...Array(n - 1).fill('a'), 'b'])).toEqual({
      line: n - 1,
      column: n - 1,
      exact: false,
    })
  })

  it('a 5 MB document: one path, and every key through one locator, in bounded time', () => {
    const keys = 60_000
    const parts = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: big', 'data:']
    for (let i = 0; i < keys; i++) parts.push(`  key-${i}: "${'x'.repeat(60)} ${i}"`)
    parts.push('spec:', '  items:')
    for (let i = 0; i < 5000; i++) parts.push(`  - {name: n${i}, value: [${i}, "${'y'.repeat(100)}"]}`)
    parts.push('  last: true')
    const text = lines(...parts)
    expect(text.length).toBeGreaterThan(5_000_000)
    let t0 = performance.now()
    expect(locateField(text, { line: 1 }, 'spec.last')).toEqual({ line: parts.length, column: 3, exact: true })
    expect(locateField(text, { line: 1 }, 'spec.items[4999].value[1]')).toEqual({
      line: parts.length - 1,
      column: (parts[parts.length - 2] as string).indexOf('"') + 1,
      exact: true,
    })
    expect(locateField(text, { line: 1 }, 'status.x')).toEqual({ line: 1, column: 1, exact: false })
    const one = performance.now() - t0
    t0 = performance.now()
    const loc = new FieldLocator(text)
    for (let i = keys - 1; i >= 0; i -= 7) expect(loc.locate({ line: 1 }, `data[key-${i}]`).line).toBe(6 + i)
    for (let i = 0; i < 5000; i += 3)
      expect(loc.locate({ line: 1 }, ['spec', 'items', i, 'name']).line).toBe(keys + 8 + i)
    const many = performance.now() - t0
    expect(one).toBeLessThan(3000)
    expect(many).toBeLessThan(3000)
  })

  it('a 5 MB JSON document on one line', () => {
    const o = { kind: 'X', spec: { items: Array.from({ length: 70_000 }, (_, i) => ({ n: `${'z'.repeat(70)}${i}` })) } }
    const text = JSON.stringify(o)
    expect(text.length).toBeGreaterThan(5_000_000)
    const t0 = performance.now()
    const p = locateField(text, { line: 1 }, 'spec.items[69999].n')
    expect(p).toEqual({ line: 1, column: text.lastIndexOf('"n"') + 1, exact: true })
    expect(performance.now() - t0).toBeLessThan(2000)
  })

  it('hostile paths: long, bracket-heavy, unterminated', () => {
    const t0 = performance.now()
    expect(locateField(DEPLOYMENT, { line: 1 }, ']'.repeat(100_000)).exact).toBe(false)
    expect(locateField(DEPLOYMENT, { line: 1 }, '['.repeat(100_000)).exact).toBe(false)
    expect(locateField(DEPLOYMENT, { line: 1 }, `spec${'.'.repeat(100_000)}`).exact).toBe(false)
    // an unclosed subscript runs to the path's end
    expect(locateField(DEPLOYMENT, { line: 1 }, 'spec[replicas')).toEqual({ line: 10, column: 3, exact: true })
    expect(locateField(DEPLOYMENT, { line: 1 }, "metadata['labels").exact).toBe(false)
    expect(performance.now() - t0).toBeLessThan(1000)
  })

  it('starts out of range, empty and broken texts', () => {
    expect(locateField('', { line: 1 }, 'a')).toEqual({ line: 1, column: 1, exact: false })
    expect(locateField('a: 1', { line: 9 }, 'a').exact).toBe(false)
    expect(locateField('a: [1, {b: "x', { line: 1 }, 'a[1].b')).toEqual({ line: 1, column: 9, exact: true })
    expect(locateField('a: "x\n', { line: 1 }, 'b').exact).toBe(false)
  })
})

// ---- property: every leaf of a random object, dumped, locates to the line the dumper wrote it on

const KEYS = [
  'a',
  'name',
  'app.kubernetes.io/name',
  '__proto__',
  'constructor',
  'toString',
  'y',
  'on',
  '1',
  '0x10',
  'null',
  '-',
  '- x',
  'a: b',
  '#c',
  'x #y',
  '"q"',
  "it's",
  '[x]',
  '{x}',
  ' sp ',
  '',
  '*a',
  '&a',
  '!t',
  '|',
  'é',
  'tab\tkey',
  '<<',
]
const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 }))

type Tree = { [k: string]: Tree } | Tree[] | string | number | boolean | null

const tree = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Tree>('', 'x', 1, true, null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  ),
})).node

/** Replaces each scalar leaf by a marker string unique in the text; the leaves' paths with their markers. */
function mark(t: Tree): { value: Tree; leaves: [(string | number)[], string][] } {
  const leaves: [(string | number)[], string][] = []
  let n = 0
  const copy = (v: Tree, path: (string | number)[]): Tree => {
    if (Array.isArray(v)) return v.map((x, i) => copy(x, [...path, i]))
    if (v !== null && typeof v === 'object') {
      const o: { [k: string]: Tree } = {}
      for (const k of Object.keys(v))
        Object.defineProperty(o, k, { value: copy(v[k] as Tree, [...path, k]), enumerable: true })
      return o
    }
    const m = `leaf${n++}z`
    leaves.push([path, m])
    return m
  }
  return { value: copy(t, []), leaves }
}

/** A path as field.Path text, when no key makes it ambiguous. */
function pathText(path: (string | number)[]): string | undefined {
  let s = ''
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`
    else if (/^[A-Za-z_][\w-]*$/.test(p) && s !== '') s += `.${p}`
    else if (/^[A-Za-z_][\w-]*$/.test(p)) s += p
    else if (/[\][]|^['"]/.test(p)) return undefined
    else s += `[${p}]`
  }
  return s
}

const lineOf = (text: string, at: number) => text.slice(0, at).split('\n').length

describe('property: leaves of dumped objects', () => {
  const dumps: [string, (v: Tree) => string][] = [
    ['block YAML', (v) => jsyaml.dump(v, { schema: GOYAML_V2_SCHEMA, lineWidth: -1 })],
    ['flow YAML', (v) => jsyaml.dump(v, { schema: GOYAML_V2_SCHEMA, lineWidth: -1, flowLevel: 1 })],
    [
      'block YAML, indent 4, sequences at their key’s column',
      (v) => jsyaml.dump(v, { schema: GOYAML_V2_SCHEMA, noArrayIndent: true, indent: 4 }),
    ],
    ['flow YAML, one line', (v) => jsyaml.dump(v, { schema: GOYAML_V2_SCHEMA, lineWidth: -1, flowLevel: 0 })],
    ['JSON, indented', (v) => JSON.stringify(v, null, 2)],
    ['JSON', (v) => JSON.stringify(v)],
  ]
  for (const [name, dump] of dumps)
    it(`${name}: each leaf on its line`, () =>
      fc.assert(
        fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 5 }), (obj) => {
          const { value, leaves } = mark(obj)
          const text = dump(value)
          // the text must mean the object as kelp reads it (go-yaml keys): else the paths do not name its fields
          const doc = [...decodeStream(text)][0]
          fc.pre(doc?.error === undefined && JSON.stringify(doc?.value) === JSON.stringify(value))
          const loc = new FieldLocator(text)
          for (const [path, m] of leaves) {
            const at = text.indexOf(m)
            const want = lineOf(text, at)
            const got = loc.locate({ line: 1 }, path)
            expect(got.exact, `${JSON.stringify(path)} in\n${text}`).toBe(true)
            expect(got.line, `${JSON.stringify(path)} in\n${text}`).toBe(want)
            const s = pathText(path)
            if (s !== undefined) expect(loc.locate({ line: 1 }, s), s).toEqual(got)
            if (name === 'JSON' && path.length > 0) {
              // one line: the column is the key's quote, or the item's
              const last = path[path.length - 1]!
              const col = typeof last === 'number' ? at : at - JSON.stringify(last).length - 1
              expect(got.column, `${JSON.stringify(path)} in ${text}`).toBe(col)
            }
          }
        }),
        { numRuns: Number(process.env.KELP_LOCATE_RUNS ?? 300) },
      ))
})

describe('the project’s YAML', () => {
  const ALIAS_LINE = /^\s*(?:- |[\w./-]+: )\*[\w-]+\s*(?:#.*)?$/
  const split = new Map<string, string[]>()
  const fileLines = (file: string): string[] => {
    let l = split.get(file)
    if (l === undefined) split.set(file, (l = file.split('\n')))
    return l
  }
  const leafPaths = (v: unknown): (string | number)[][] => {
    // iterative: documents may nest deeply
    const out: (string | number)[][] = []
    const stack: [unknown, (string | number)[]][] = [[v, []]]
    while (stack.length > 0) {
      const [x, path] = stack.pop()!
      if (Array.isArray(x) && x.length > 0) for (let i = 0; i < x.length; i++) stack.push([x[i], [...path, i]])
      else if (x !== null && typeof x === 'object' && Object.keys(x).length > 0)
        for (const k of Object.keys(x)) stack.push([(x as Record<string, unknown>)[k], [...path, k]])
      else out.push(path)
    }
    return out
  }

  it('every leaf of every document read without error is found where it is written', () => {
    let found = 0
    const missed: string[] = []
    // the project's files, and the real CRDs of shared/data when present (folded descriptions, deep schemas)
    const shared = yamlFiles(join(ROOT, '../shared/data')).map((f) => readFileSync(f, 'utf8'))
    for (const file of [...projectYAMLFiles(), ...shared]) {
      const loc = new FieldLocator(file)
      for (const d of decodeStream(file)) {
        if (d.error !== undefined || d.value === null || typeof d.value !== 'object') continue
        for (const path of leafPaths(d.value)) {
          // a collection as a key (`{{x}}: ` in a template) has no field path
          if (path.includes('[object Object]')) continue
          const p = loc.locate({ line: d.line }, path)
          // a leaf under an alias is written at its anchor only: it is placed at the alias, not exactly
          const underAlias = !p.exact && ALIAS_LINE.test(fileLines(file)[p.line - 1] ?? '')
          if ((!p.exact && !underAlias) || p.line < d.line)
            missed.push(`${JSON.stringify(path)} in\n${d.text.slice(0, 300)}`)
          found++
        }
      }
    }
    expect(missed).toEqual([])
    expect(found).toBeGreaterThan(10_000)
  })

  it('edited texts and random paths: an answer, never an exception', () => {
    const docs = projectYAMLFiles().flatMap(documents)
    const pick = picker(Number(process.env.KELP_FC_SEED ?? 26))
    for (let k = 0; k < 3000; k++) {
      const text = edit(docs[pick(docs.length)] as string, pick, 6)
      const value = [...decodeStream(text)][0]?.value
      const paths = value !== null && typeof value === 'object' ? leafPaths(value).slice(0, 20) : [['a']]
      const loc = new FieldLocator(text)
      const n = text.split('\n').length
      for (const path of paths) {
        const p = loc.locate({ line: 1 }, path)
        expect(p.line).toBeGreaterThanOrEqual(1)
        expect(p.line).toBeLessThanOrEqual(n)
      }
    }
  })
})
