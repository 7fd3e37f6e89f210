import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import jsyaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { GOYAML_V2_SCHEMA } from '../../src/kube/yaml/resolve.js'
import { NOT_SIMPLE, readSimpleYAML } from '../../src/kube/yaml/simple.js'
import { documents, edit, picker, projectYAMLFiles, ROOT, yamlFiles } from '../yaml-corpus.js'

// readSimpleYAML is a faster reader for the YAML most manifests are written in; kelp's YAML answer is
// js-yaml with GOYAML_V2_SCHEMA (its go-yaml v2 fidelity is tested in yaml-resolve.test.ts and
// yaml-limits.test.ts from go-yaml's tables). So the oracle here is that reader: wherever the fast
// reader answers, js-yaml must read the text without error and to the same value; where js-yaml
// fails, the fast reader must give up (the error's words are js-yaml's).

const SHARED = join(ROOT, '../shared/data')

type Ref = { ok: true; value: unknown } | { ok: false }
const reference = (text: string): Ref => {
  try {
    return { ok: true, value: jsyaml.load(text, { schema: GOYAML_V2_SCHEMA }) }
  } catch {
    return { ok: false }
  }
}

/** The fast reader gave up, or answered what js-yaml answers. */
function agrees(text: string): boolean {
  const fast = readSimpleYAML(text)
  if (fast === NOT_SIMPLE) return true
  const ref = reference(text)
  return ref.ok && isDeepStrictEqual(fast, ref.value)
}

describe('readSimpleYAML answers as js-yaml with GOYAML_V2_SCHEMA', () => {
  const accepted: [string, unknown][] = [
    // the shapes of hand-written and generated manifests
    [
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app.kubernetes.io/name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n          ports:\n            - containerPort: 80\n',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' } },
        spec: {
          replicas: 3,
          template: { spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } },
        },
      },
    ],
    // a compact sequence (entries at the key's column), comments, quoted scalars, trailing spaces
    [
      "# head\nkind: Service   \nspec:\n  ports:\n  - port: 80 # http\n    targetPort: \"8080\"\n    name: 'it''s'\n  # between\n  type: ClusterIP\n",
      { kind: 'Service', spec: { ports: [{ port: 80, targetPort: '8080', name: "it's" }], type: 'ClusterIP' } },
    ],
    // go-yaml v2's YAML 1.1 resolution (yaml-resolve.test.ts): empty and ~ are null, yes is true,
    // quoted "yes" a string, 0x1F an int, timestamps strings
    [
      'a:\n  - \n  -\n    b: 1\nc: ~\nd:\ne: yes\nf: "yes"\ng: 0x1F\nh: -1\ni: 1.5\nj: 2001-12-14\n',
      { a: [null, { b: 1 }], c: null, d: null, e: true, f: 'yes', g: 31, h: -1, i: 1.5, j: '2001-12-14' },
    ],
    ['- a\n- b: c\n  d: e\n-   f: g\n    h: i\n', ['a', { b: 'c', d: 'e' }, { f: 'g', h: 'i' }]],
    [
      'k: a#b\nl: a # b\nm: "a # b"\nnn: x:y\no: -x\np: .dockerconfigjson\n.q: 1\n',
      { k: 'a#b', l: 'a', m: 'a # b', nn: 'x:y', o: '-x', p: '.dockerconfigjson', '.q': 1 },
    ],
    // empty and one-line flow collections; literal block scalars (comments and blank lines inside are content)
    [
      "a: []\nb: {}\nc: [x, \"y\", 'z''s', 1, -c, yes]\nd: |\n  x = 1\n  # not a comment\n\n  y\ne: |-\n  z\n\nf: 1\n",
      { a: [], b: {}, c: ['x', 'y', "z's", 1, '-c', true], d: 'x = 1\n# not a comment\n\ny\n', e: 'z', f: 1 },
    ],
    ['- |\n  a\n   b\n- key: |-\n    v\n  k2: [ 1 , 2 ]\n', ['a\n b\n', { key: 'v', k2: [1, 2] }]],
    // one-line flow collections: a whole document as js-yaml dumps it with flowLevel 0 (bench/corpora.js's flow
    // corpus), flow mappings as block values and sequence entries; `:` inside a plain scalar (an image reference)
    [
      '{apiVersion: apps/v1, kind: Deployment, metadata: {name: web-0, labels: {app: web}}, spec: {replicas: 3, template: {spec: {containers: [{name: web, image: registry.example.com/web:1.0, ports: [{containerPort: 8080}]}, {name: s, image: "p:2", args: [-v, \'x y\']}]}}}}\n',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web-0', labels: { app: 'web' } },
        spec: {
          replicas: 3,
          template: {
            spec: {
              containers: [
                { name: 'web', image: 'registry.example.com/web:1.0', ports: [{ containerPort: 8080 }] },
                { name: 's', image: 'p:2', args: ['-v', 'x y'] },
              ],
            },
          },
        },
      },
    ],
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-1}\ndata: { k: v , num: 012, bool: yes, e: {}, l: [ ] } # c\n',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm-1' },
        data: { k: 'v', num: 10, bool: true, e: {}, l: [] },
      },
    ],
    ['- {a: 1}\n- b: {c: [d, {e: f}]}\n-\n  {g: h}\n', [{ a: 1 }, { b: { c: ['d', { e: 'f' }] } }, { g: 'h' }]],
    // anchors and aliases of block values, as js-yaml's dump writes a shared object: the alias is the value
    [
      'metadata:\n  labels: &ref_0\n    app: web\nspec:\n  template:\n    metadata:\n      labels: *ref_0\n',
      { metadata: { labels: { app: 'web' } }, spec: { template: { metadata: { labels: { app: 'web' } } } } },
    ],
    ['a: &x 1\nb: *x\n', { a: 1, b: 1 }],
    ['a:\n  - &x\n    b: 1\n  - *x # again\n', { a: [{ b: 1 }, { b: 1 }] }],
    ['a: &x [1, {b: c}]\nd: *x\n', { a: [1, { b: 'c' }], d: [1, { b: 'c' }] }],
    ['a: &x-1_Y "q"\nb:\n  - *x-1_Y\n', { a: 'q', b: ['q'] }],
    ['a: &x 1\nb: &x 2\nc: *x\n', { a: 1, b: 2, c: 2 }],
    ['a: &x |\n  text\nb: *x\n', { a: 'text\n', b: 'text\n' }],
  ]
  it.each(accepted)('answers for %j', (text, expected) => {
    const fast = readSimpleYAML(text)
    expect(fast).not.toBe(NOT_SIMPLE)
    const ref = reference(text)
    expect(ref.ok).toBe(true)
    expect(fast).toStrictEqual((ref as { value: unknown }).value)
    if (expected !== undefined) expect(fast).toStrictEqual(expected)
  })

  // each is outside the subset: an error js-yaml words, or a construct it reads (anchors, tags,
  // block and multi-line scalars, escapes, flow collections, keys that resolve to non-strings)
  const refused = [
    'a: 1\na: 2\n',
    'a:\n\tb: 1\n',
    'a: 1\r\nb: 2\r\n',
    // anchors and aliases outside the subset: an alias of nothing anchored, or inside its own anchor's value
    // (go-yaml: "anchor value contains itself"), an anchor on nothing, on a compact sequence, followed by a
    // comment or another property, a name of other characters, an alias with more after it, a merge
    'a: *x\n',
    'a: &x\n  b: *x\n',
    'a: &x\nb: 1\n',
    'a: &x\n- 1\nb: *x\n',
    'a: &x # c\n  b: 1\n',
    'a: &x &y 1\n',
    'a: &x *y\n',
    'a: &x.y 1\nb: *x.y\n',
    'a: &x!t 1\n',
    '- &x a: 1\n',
    'a: &x 1\nb: *x y\n',
    'a: &x 1\nb: *x#c\n',
    'a: &x 1\nb: *x\n  c: 2\n',
    'a: &x\n  b: 1\n<<: *x\n',
    'a: !!str 1\n',
    'a: |+\n  text\n',
    'a: |2\n  text\n',
    'a: |\n  text',
    'a: |\n   \n  text\n',
    'a: >\n  text\n',
    'a: b\n  c\n',
    '- a\n  b\n',
    'a: "x\\ny"\n',
    "a: 'x\n  y'\n",
    'a: [x,]\n',
    'a: [x: y]\n',
    'a: [[x]]\n',
    'a: [x,\n  y]\n',
    // flow mappings: a pair without its space, a key without a value, empty entries and trailing commas, a
    // pair in a value, quoted and resolving keys, duplicates, `:` before a flow indicator (js-yaml ends the
    // scalar there, go-yaml does not), `?` and `:` opening a value (go-yaml refuses them: refusals.ts),
    // anchors, tags, aliases, comments and text after the collection, several lines
    'a: {b:1}\n',
    'a: {b}\n',
    'a: {b: }\n',
    'a: {b: 1,}\n',
    'a: {b: 1,, c: 2}\n',
    'a: {, b: 1}\n',
    'a: {b: c: d}\n',
    'a: {"b": 1}\n',
    'a: {true: 1}\n',
    'a: {b: 1, b: 2}\n',
    'a: {__proto__: 1}\n',
    'a: {b: c:, d: e}\n',
    'a: {b: x?y}\n',
    'a: {b: ?x}\n',
    'a: {b: :x}\n',
    'a: {b: &x 1}\n',
    'a: {b: !t 1}\n',
    'a: {b: *x}\n',
    'a: {b: c #d}\n',
    'a: {b: c}d\n',
    'a: {b: c} d\n',
    'a: {b: [[c]]}\n',
    'a: {b: 1,\n  c: 2}\n',
    '{a: 1}\nb: 2\n',
    '{a: 1}\n  b: 2\n',
    'a: {b: "c\\"d"}\n',
    'true: 1\n',
    '1: a\n',
    '<<: {a: 1}\n',
    'a: b: c\n',
    'a: b:\n',
    'a: é\n',
    '\ufeffa: 1\n',
    'a: - b\n',
    '- - a\n',
    'a:\n    b: 1\n  c: 2\n',
    'a: 1\n b: 2\n',
    'scalar\n',
    '# only a comment\n',
    '__proto__: 1\n',
    '"quoted key": 1\n',
    'a key: 1\n',
    'a: "b": c\n',
    'a: "b"c\n',
  ]
  it.each(refused)('gives up on %j', (text) => {
    expect(readSimpleYAML(text)).toBe(NOT_SIMPLE)
  })

  // go-yaml counts the nodes decoded under aliases (decode.go: past 100, its ratio check applies): a document
  // with more is left to js-yaml and limits.ts checkAliasing; below that, each alias is a copy
  it('gives up past 100 nodes under aliases, and answers each alias as a copy below that', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `  k${i}: v\n`).join('')
    expect(readSimpleYAML(`a: &x\n${keys(16)}b: *x\nc: *x\nd: *x\n`)).not.toBe(NOT_SIMPLE) // 3 x 33 nodes
    expect(readSimpleYAML(`a: &x\n${keys(16)}b: *x\nc: *x\nd: *x\ne: *x\n`)).toBe(NOT_SIMPLE) // 4 x 33
    const v = readSimpleYAML('a: &x\n  b: [1]\nc: *x\n') as { a: { b: number[] }; c: { b: number[] } }
    expect(v.c).toStrictEqual(v.a)
    expect(v.c).not.toBe(v.a)
    expect(v.c.b).not.toBe(v.a.b)
  })

  // hostile shapes are js-yaml's, with its limits: deep nesting and keys past go-yaml's 1024 characters
  it('gives up on nesting deeper than 64 and on keys longer than 1,000 characters', () => {
    const deep = Array.from({ length: 70 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')
    expect(readSimpleYAML(`${deep} 1\n`)).toBe(NOT_SIMPLE)
    expect(readSimpleYAML(`${'k'.repeat(1001)}: 1\n`)).toBe(NOT_SIMPLE)
    // just inside both: answered
    const ok = Array.from({ length: 60 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')
    expect(readSimpleYAML(`${ok} 1\n`)).not.toBe(NOT_SIMPLE)
    expect(readSimpleYAML(`${'k'.repeat(1000)}: 1\n`)).toEqual({ ['k'.repeat(1000)]: 1 })
  })

  it("agrees on every document of the project's YAML files", () => {
    let docs = 0
    let answered = 0
    for (const d of projectYAMLFiles().flatMap(documents)) {
      docs++
      if (readSimpleYAML(d) !== NOT_SIMPLE) answered++
      if (!agrees(d)) throw new Error(`the fast reader differs from js-yaml on\n${d}`)
    }
    console.info(`project YAML: ${docs} documents, ${answered} in the fast reader's subset`)
    expect(docs).toBeGreaterThan(50)
    // most of them are in the subset: the reader is worth its place
    expect(answered / docs).toBeGreaterThan(0.5)
  })

  // the CRDs' descriptions are block scalars, outside the subset: the reader gives up on most (all)
  // of them; what this checks is that it never answers otherwise than js-yaml
  it.skipIf(!existsSync(SHARED))('agrees on every document of shared/data (the real CRDs, read in place)', () => {
    let docs = 0
    let answered = 0
    for (const f of yamlFiles(SHARED)) {
      for (const d of documents(readFileSync(f, 'utf8'))) {
        docs++
        if (readSimpleYAML(d) !== NOT_SIMPLE) answered++
        if (!agrees(d)) throw new Error(`${f}: the fast reader differs from js-yaml`)
      }
    }
    expect(docs).toBeGreaterThan(400)
    console.info(`shared/data: ${docs} documents, ${answered} in the fast reader's subset`)
  })

  const key = fc.oneof(
    fc.constantFrom(
      'a',
      'name',
      'app.kubernetes.io/name',
      'x-y',
      '_k',
      '.dockerconfigjson',
      '$ref',
      '1',
      '0x1',
      'true',
      'y',
      'null',
      '~',
      '__proto__',
      '<<',
      'a b',
      'a:b',
      '-a',
      'a#b',
    ),
    fc.stringMatching(/^[a-z.$_/][a-z0-9._/$-]{0,6}$/),
  )
  const scalar = fc.oneof(
    fc.constantFrom(
      ...['yes', 'No', 'on', 'OFF', 'y', 'n', '~', 'null', '', '0', '012', '0o12', '0x1F', '0b1', '1_000', '1e3'],
      ...['.5', '.inf', '-.Inf', '.nan', '+1', '-0', '1.0', '2001-12-14', '2001-12-14t21:59:43.10-05:00', 'a: b'],
      ...['a #b', '#c', '- a', '-a', "it's", '"q"', '[a]', '{a}', '&x', '*x', '!x', '|', '>', '%', '@', '`', '?x'],
      ...[':x', 'a:', '<<', ' lead', 'trail ', '9007199254740993', '18446744073709551615', '1e400', 'a\tb', 'é'],
    ),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.string({ maxLength: 8 }),
  )
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(key, tie('v'), { maxKeys: 4 }),
    ),
  })).v
  const dumpOptions = fc.record({
    indent: fc.integer({ min: 1, max: 4 }),
    noArrayIndent: fc.boolean(),
    quotingType: fc.constantFrom("'" as const, '"' as const),
    forceQuotes: fc.boolean(),
    lineWidth: fc.constantFrom(-1, 20),
    flowLevel: fc.constantFrom(-1, -1, -1, 0, 1, 2),
  })
  const dumped = fc.tuple(value, dumpOptions).map(([v, o]) => {
    try {
      return jsyaml.dump(v, o)
    } catch {
      return 'a: 1\n'
    }
  })

  // a value that holds the same object several times: js-yaml's dump writes it once with an anchor, then aliases
  const shared = fc
    .tuple(fc.dictionary(key, value, { minKeys: 1, maxKeys: 3 }), value, dumpOptions)
    .map(([o, v, opts]) => {
      try {
        return jsyaml.dump({ a: o, b: { c: o, d: [v, o] }, e: o }, opts)
      } catch {
        return 'a: 1\n'
      }
    })

  it('agrees on dumped values with shared objects: anchors and aliases (fast-check)', () => {
    fc.assert(
      fc.property(shared, (text) => agrees(text)),
      { numRuns: 2000 },
    )
  })

  it('agrees on dumped values (fast-check)', () => {
    fc.assert(
      fc.property(dumped, (text) => agrees(text)),
      { numRuns: 3000 },
    )
  })

  const manifest = projectYAMLFiles().find((t) => t.includes('kind: Deployment')) ?? ''
  const seeds = fc.oneof(
    dumped,
    shared,
    ...[documents(manifest)[0], ...accepted.map(([text]) => text)].map((text) => fc.constant(text ?? '')),
  )

  it('agrees on edited texts: never answers where js-yaml fails or reads otherwise (fast-check)', () => {
    fc.assert(
      fc.property(seeds, fc.nat(), (text, seed) => agrees(edit(text, picker(seed)))),
      { numRuns: 5000 },
    )
  })

  /** `KELP_YAML_FUZZ` texts edited from `seeds` (seed `KELP_YAML_SEED`): how many the fast reader answers, and where it differs. */
  function editedRun(seeds: readonly string[], label: string): { answered: number; differ: string[]; n: number } {
    const n = Number(process.env.KELP_YAML_FUZZ ?? 20_000)
    const seed = Number(process.env.KELP_YAML_SEED ?? 1)
    const pick = picker(seed)
    let answered = 0
    const differ: string[] = []
    for (let i = 0; i < n; i++) {
      const text = edit(seeds[pick(seeds.length)] as string, pick)
      if (readSimpleYAML(text) !== NOT_SIMPLE) answered++
      if (!agrees(text)) differ.push(JSON.stringify(text))
    }
    console.info(
      `${n} edited ${label} (seed ${seed}) from ${seeds.length} documents: ${answered} in the subset, ${differ.length} differ`,
    )
    return { answered, differ, n }
  }

  // the project's documents in the subset, edited: KELP_YAML_FUZZ=800000 KELP_YAML_SEED=21 for a long run
  it('agrees on edited project documents', { timeout: 600_000 }, () => {
    const seeds = projectYAMLFiles()
      .flatMap(documents)
      .filter((d) => readSimpleYAML(d) !== NOT_SIMPLE)
    const { answered, differ, n } = editedRun(seeds, 'texts')
    expect(differ.slice(0, 5)).toEqual([])
    expect(answered).toBeGreaterThan(n / 10)
  })

  // the same as flow documents (js-yaml's dump with flowLevel 0, each on one line: the flow corpus's shape),
  // edited: every `{`, `[`, `,` and `:` of a flow collection is a place where the two readers could part
  it('agrees on edited flow documents', { timeout: 600_000 }, () => {
    const seeds = projectYAMLFiles()
      .flatMap(documents)
      .flatMap((d) => {
        const r = reference(d)
        if (!r.ok || r.value === null || typeof r.value !== 'object') return []
        try {
          return [jsyaml.dump(r.value, { flowLevel: 0, lineWidth: -1 })]
        } catch {
          return []
        }
      })
      .filter((d) => readSimpleYAML(d) !== NOT_SIMPLE)
    const { answered, differ, n } = editedRun(seeds, 'flow texts')
    expect(seeds.length).toBeGreaterThan(100)
    expect(differ.slice(0, 5)).toEqual([])
    expect(answered).toBeGreaterThan(n / 10)
  })
})
