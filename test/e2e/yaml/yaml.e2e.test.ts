// kelp's YAML reading against kubectl's own (main.go here: apimachinery's YAMLOrJSONDecoder over
// sigs.k8s.io/yaml and go-yaml v2, at the versions Kubernetes 1.37.2 builds with), on the project's YAML
// documents and on texts edited from them at random: the documents kubectl would send, value for value
// (number texts exactly), and whether reading fails. A difference fails the test unless a cause in
// KNOWN below explains it (each is listed in docs/known-differences.md, "Reading YAML and JSON"). The
// agreement of error texts is required for the errors of go-yaml's scanner and parser and of the JSON decoder (kelp
// gives their words), printed for the others (the decoder's: which of two problems is met first).
//   KELP_YAML_EDITS=20000  edited texts; KELP_YAML_SEED=1  their seed
//   KELP_YAML_LIST=30 KELP_YAML_SHOW=400  differences printed, characters of each text
//   KELP_YAML_PAIRS=1  print each pair of differing error texts
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import jsyaml from 'js-yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeStream } from '../../../src/kube/yaml/decode.js'
import { NOT_SIMPLE, readSimpleYAML } from '../../../src/kube/yaml/simple.js'
import { documents, edit, picker, projectYAMLFiles, ROOT } from '../../yaml-corpus.js'

const here = dirname(fileURLToPath(import.meta.url))
const oracle = join(ROOT, '.cache/e2e/kubectl-yaml')

interface GoFile {
  readonly docs: unknown[]
  readonly error?: string
}
interface KelpFile {
  readonly docs: unknown[]
  readonly error?: string
}

/** A number's text as one canonical form: integers exact, other numbers as JS prints the double. */
function numberText(text: string): string {
  if (/^-?\d+$/.test(text)) return BigInt(text).toString()
  const n = Number(text)
  return Number.isInteger(n) ? BigInt(n).toString() : String(n)
}

/** main.go's tagged form ({"n": text}, {"s": text}), numbers canonical. */
function untagGo(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(untagGo)
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>
    const keys = Object.keys(o)
    if (keys.length === 1 && keys[0] === 'n' && typeof o.n === 'string') return { n: numberText(o.n) }
    if (keys.length === 1 && keys[0] === 's' && typeof o.s === 'string') return { s: o.s }
    return Object.fromEntries(keys.map((k) => [k, untagGo(o[k])]))
  }
  return v
}

/** kelp's value in the same form. */
function tagKelp(v: unknown): unknown {
  if (typeof v === 'string') return { s: v }
  if (typeof v === 'bigint') return { n: v.toString() }
  if (typeof v === 'number') return { n: Number.isInteger(v) ? BigInt(v).toString() : String(v) }
  if (Array.isArray(v)) return v.map(tagKelp)
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.keys(v).map((k) => [k, tagKelp((v as Record<string, unknown>)[k])]))
  return v
}

/** Whether a mapping in `v` has the key `key`. */
function hasKey(v: unknown, key: string): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKey(x, key))
  if (v === null || typeof v !== 'object') return false
  return Object.hasOwn(v, key) || Object.values(v).some((x) => hasKey(x, key))
}

/** What kelp sends of a file, read as kubectl's StreamVisitor reads it: documents until the first error. */
function kelpRead(text: string): KelpFile {
  const docs: unknown[] = []
  for (const d of decodeStream(Buffer.from(text, 'utf8'))) {
    if (d.error !== undefined) return { docs, error: d.error.message }
    if (d.value === undefined || d.value === null) continue
    docs.push(tagKelp(d.value))
  }
  return { docs }
}

/** An error of the JSON decoder as kubectl reports it (wrapped with its offset, alone past two values, or EOF). */
const JSON_DECODER_ERROR = /^(?:json: offset \d+: |invalid character |unexpected EOF$)/

/**
 * The words of a go-yaml scanner, parser or composer error in kubectl's (`yaml: line N: <words>`), undefined for
 * another error (the decoder's: a collection or null key, aliasing).
 */
function goYAMLSyntax(error: string): string | undefined {
  const m = /^error converting YAML to JSON: yaml: (?:line \d+: )?(.*)$/s.exec(error)
  const words = m?.[1]
  if (words === undefined || /^(?:invalid map key|document contains excessive aliasing|anchor ')/.test(words))
    return undefined
  return words
}

/** go-yaml's reading of a `{` text without the JSON decoder, for the texts where kubectl reports the JSON error. */
const goYAMLOnly = new Map<string, GoFile>()

/**
 * The causes of the differences kelp keeps (docs/known-differences.md, "Reading YAML and JSON"), each
 * a test on the text that narrows it to its construct.
 */
const KNOWN: {
  readonly id: string
  readonly explains: (text: string, kubectl: GoFile, kelp: KelpFile) => boolean
}[] = [
  // kubectl's read keeps a duplicate key's last value; kelp refuses the document in go-yaml's strict words
  // (docs/yaml.md, Documents)
  {
    id: 'duplicate-key',
    explains: (_t, g, k) => g.error === undefined && /^key .* already set in map$/.test(k.error ?? ''),
  },
  // a text that starts with `{` goes to the JSON decoder first, and where the YAML reading refuses it too, the JSON
  // decoder's error is the one reported (YAMLOrJSONDecoder, as kubectl). A KYAML document (the Kubernetes
  // documentation's: `{`, then unquoted keys) with a duplicate key is read by kubectl and refused by kelp with the JSON
  // error; one with a null key is refused by kubectl with the JSON error and read by kelp. The YAML readings alone
  // (after a comment line, which leaves the JSON decoder out: kelp's here, kubectl's in goYAMLOnly) must differ by
  // another cause of this list
  {
    id: 'json-error-over-yaml-refusal',
    explains: (t, g, k) => {
      if (g.error !== undefined || !(k.error ?? '').startsWith('json: ') || !/^\s*\{/.test(t)) return false
      const yaml = kelpRead(`#\n${t}`)
      return KNOWN.some((c) => !c.id.startsWith('json-error-') && c.explains(t, g, yaml))
    },
  },
  {
    id: 'json-error-over-go-yaml-refusal',
    explains: (t, g, k) => {
      const yaml = goYAMLOnly.get(t)
      if (yaml === undefined || k.error !== undefined || !(g.error ?? '').startsWith('json: ')) return false
      return KNOWN.some((c) => !c.id.startsWith('json-error-') && c.explains(t, yaml, k))
    },
  },
  // a mapping where a key is: go-yaml refuses it, js-yaml reads it as "[object Object]" and kelp refuses the
  // decoded object later (known-differences.md, yaml-mapping-as-key); in texts with `{{` kelp refuses it in
  // go-yaml's words (collection-keys.ts), so those agree
  {
    id: 'yaml-mapping-as-key',
    explains: (_t, g, k) => /invalid map key: map\[/.test(g.error ?? '') && k.error === undefined,
  },
  // content after the document's root that starts no document (` a: 1` then `b: 2`): go-yaml's
  // yaml.Unmarshal reads the first document and stops, so kubectl sends what precedes it; kelp reads the same part
  // (decode.ts firstDocument) but in a text where go-yaml counts offsets otherwise (a CR alone, NEL, LS, PS, a
  // character past U+FFFF, a byte order mark), where js-yaml's refusal stays
  {
    id: 'content-after-root',
    explains: (t, g, k) =>
      g.error === undefined &&
      k.error === 'end of the stream or a document separator is expected' &&
      /\r(?!\n)|[\u0085\u2028\u2029\ufeff\ud800-\udfff]/.test(t),
  },
  // a null key (`?` alone, `~: x`): go-yaml's JSON conversion refuses it, js-yaml makes it "null" (only where kelp's
  // documents hold such a key: another reading of the text is not this difference)
  {
    id: 'null-key',
    explains: (_t, g, k) =>
      (g.error ?? '').includes('unsupported map key of type: %!s(<nil>)') &&
      k.error === undefined &&
      hasKey(k.docs, 'null'),
  },
  // a comment right after a block scalar's header (`key: >#note`): go-yaml takes it, js-yaml wants a space first
  {
    id: 'block-header-comment',
    explains: (t, g, k) => g.error === undefined && k.error === 'a line break is expected' && /[|>][-+0-9]*#/.test(t),
  },
  // a block scalar as a document's root whose lines start at column 0 (`|` alone, then `text`): go-yaml wants
  // its content indented at least 1 (scannerc.go yaml_parser_scan_block_scalar_breaks), so it reads "" and
  // leaves the rest; js-yaml reads the lines as the scalar
  {
    id: 'root-block-scalar-unindented',
    explains: (t, g) =>
      g.error === undefined && JSON.stringify(g.docs) === '[{"s":""}]' && /^[|>][-+0-9]*[ \t]*(?:#.*)?\n\S/m.test(t),
  },
  // a block scalar's header at its key's own column (`env:`, then `|` under the `e`): go-yaml reads it as the
  // key's value, js-yaml refuses the indentation
  {
    id: 'block-scalar-at-key-column',
    explains: (t, g, k) =>
      g.error === undefined &&
      /^bad indentation/.test(k.error ?? '') &&
      /^( *)[^\s#][^\n]*:[ \t]*(?:#[^\n]*)?\n(?:[ \t]*(?:#[^\n]*)?\n)*\1[|>][-+0-9]*[ \t]*(?:#.*)?$/m.test(t),
  },
  // js-yaml reads a less indented entry after an empty one (`-` ending a line) into the inner sequence
  { id: 'empty-entry-then-less-indented', explains: (t) => /(?:^|[ ])- *(#.*)?$/m.test(t) },
  // `:` next to a flow indicator (`{a:, b}`, `[x :]`, `{labels:{…}}`, `[: x]`): part of a plain scalar to go-yaml
  // (YAML 1.1: `:` is a value indicator only before a blank), a pair to js-yaml (where go-yaml refuses such a text,
  // kelp refuses it too: goyaml/)
  { id: 'flow-colon', explains: (t, g) => g.error === undefined && /[^"']:[,[\]{}]|[[{,] *:/.test(t) },
  // a non-specific tag (`!`) alone before a block mapping's key, indented past its siblings' column (`selector:`
  // then `   ! app: x`): go-yaml takes the tag as the nested mapping's and reads it; js-yaml refuses the indentation
  {
    id: 'nonspecific-tag-before-key',
    explains: (t, g, k) =>
      g.error === undefined && k.error === 'bad indentation of a mapping entry' && /^ *! +[^\s:#][^:#\n]*:/m.test(t),
  },
  // an anchor before a nested block mapping's first key, on the key's line (`ports:` then `  &p port: 80`): go-yaml
  // anchors the key and reads the mapping; js-yaml refuses the indentation
  {
    id: 'anchor-before-key',
    explains: (t, g, k) =>
      g.error === undefined &&
      k.error === 'bad indentation of a mapping entry' &&
      /^ +&[0-9A-Za-z_-]+ +[^\s:#&*!][^:#\n]*:(?:[ \t]|$)/m.test(t),
  },
  // `-` alone as a flow item, key or value (`[-]`, `{-}`, `{count: -}`): a plain scalar to go-yaml, an error to js-yaml
  {
    id: 'flow-dash',
    explains: (t, g, k) => g.error === undefined && k.error !== undefined && /[[{,:] *-[\]},]/.test(t),
  },
  // a tag whose suffix holds a flow indicator (`![10.244.0.0]`): go-yaml's scanner takes `[` and `]` as URI
  // characters of the tag (scannerc.go yaml_parser_scan_tag_uri) and reads an empty node; js-yaml refuses the tag
  {
    id: 'tag-with-flow-indicator',
    explains: (t, g, k) =>
      g.error === undefined &&
      k.error === 'tag suffix cannot contain flow indicator characters' &&
      /![^\s]*[[\]{},]/.test(t),
  },
  // an anchor running into a character go-yaml ends it at, with more after it (`{&k:" v}`): go-yaml's anchor is `k`
  // and it reads on from the `:`; js-yaml's anchor is `k:"` (`&name:` then a blank kelp refuses as go-yaml does: a
  // null key, refusals.ts)
  {
    id: 'anchor-into-indicator',
    explains: (t, g, k) =>
      g.error === undefined && k.error !== undefined && /&[0-9A-Za-z_-]+[?:,\]}%@`][^\s,\]}]/.test(t),
  },
  // a flow collection's plain scalar continued on a line less indented than the collection's key
  // (`{name: a\nb}`): go-yaml folds it, js-yaml wants the continuation indented
  {
    id: 'flow-continuation-unindented',
    explains: (t, g, k) =>
      g.error === undefined && k.error === 'missed comma between flow collection entries' && /[[{][^\]}\n]*\n/.test(t),
  },
]

/** The value of each project document that kelp reads as one mapping or sequence. */
function projectValues(): Record<string, unknown>[] {
  return projectYAMLFiles()
    .flatMap(documents)
    .flatMap((d) => {
      const read = [...decodeStream(Buffer.from(d, 'utf8'))]
      const value = read[0]?.value
      if (read.length !== 1 || read[0]?.error !== undefined || value === null || typeof value !== 'object') return []
      return [value as Record<string, unknown>]
    })
}

/** js-yaml's dump of `value`, or nothing for a value it cannot write (a bigint). */
function dumped(value: unknown, options: Parameters<typeof jsyaml.dump>[1]): string[] {
  try {
    return [jsyaml.dump(value, options)]
  } catch {
    return []
  }
}

/** The project's YAML files, whole, and each document; then `edits` texts edited from those at random. */
function corpus(edits: number, seed: number): string[] {
  const whole = projectYAMLFiles()
  const docs = whole.flatMap(documents)
  const pick = picker(seed)
  const edited = Array.from({ length: edits }, () => edit(docs[pick(docs.length)] as string, pick, 3))
  return [...whole, ...docs, ...edited]
}

describe('YAML: kelp reads manifests as kubectl does', () => {
  beforeAll(() => {
    mkdirSync(dirname(oracle), { recursive: true })
    // built from this directory's module (go.sum pinned), with Go's module and build caches
    execFileSync('go', ['build', '-trimpath', '-o', oracle, '.'], {
      cwd: here,
      env: { ...process.env, CGO_ENABLED: '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
  }, 300_000)

  /** Reads the texts both ways; prints the figures; the differences KNOWN does not explain. */
  function compare(texts: string[], label: string): string[] {
    const go = JSON.parse(
      execFileSync(oracle, { input: JSON.stringify(texts), maxBuffer: 1 << 30 }).toString('utf8'),
    ) as GoFile[]
    expect(go).toHaveLength(texts.length)
    // where kubectl's reading of a `{` text gives the JSON decoder's error, go-yaml's own (for KNOWN above)
    const masked = texts.filter((t, i) => /^\s*\{/.test(t) && (go[i]?.error ?? '').startsWith('json: '))
    if (masked.length > 0) {
      const yaml = JSON.parse(
        execFileSync(oracle, { input: JSON.stringify(masked.map((t) => `#\n${t}`)), maxBuffer: 1 << 30 }).toString(
          'utf8',
        ),
      ) as GoFile[]
      for (const [i, t] of masked.entries()) goYAMLOnly.set(t, yaml[i] as GoFile)
    }
    let agree = 0
    let bothFail = 0
    let sameText = 0
    const known = new Map<string, number>()
    const unexplained: string[] = []
    texts.forEach((text, i) => {
      const g = go[i] as GoFile
      const k = kelpRead(text)
      const gDocs = untagGo(g.docs) as unknown[]
      const same = (g.error === undefined) === (k.error === undefined) && isDeepStrictEqual(gDocs, k.docs)
      if (same) {
        agree++
        if (g.error !== undefined) {
          bothFail++
          if (g.error.endsWith(k.error ?? '')) sameText++
          else if (JSON_DECODER_ERROR.test(g.error) || goYAMLSyntax(g.error) !== undefined)
            // encoding/json's and go-yaml's scanner and parser words are kelp's too (src/kube/json-syntax.ts,
            // src/kube/yaml/goyaml/): required, not only printed
            unexplained.push(`${JSON.stringify(text).slice(0, 400)}\n  kubectl: ${g.error}\n  kelp:    ${k.error}`)
          else if (process.env.KELP_YAML_PAIRS) console.log(`[yaml-pair] ${g.error} ||| ${k.error}`)
        }
        return
      }
      const cause = KNOWN.find((c) => c.explains(text, g, k))
      if (cause !== undefined) known.set(cause.id, (known.get(cause.id) ?? 0) + 1)
      else
        unexplained.push(
          `${JSON.stringify(text).slice(0, Number(process.env.KELP_YAML_SHOW ?? 400))}\n  kubectl: ${g.error ?? JSON.stringify(gDocs).slice(0, 300)}\n  kelp:    ${k.error ?? JSON.stringify(k.docs).slice(0, 300)}`,
        )
    })
    console.log(
      `[yaml] ${label}: ${texts.length} texts, ${agree} agree (${bothFail} both fail, error text alike in ${sameText}); ` +
        `known: ${[...known].map(([id, n]) => `${id} ${n}`).join(', ') || 'none'}; unexplained: ${unexplained.length}`,
    )
    for (const u of unexplained.slice(0, Number(process.env.KELP_YAML_LIST ?? 30))) console.log(`[yaml] differs: ${u}`)
    return unexplained
  }

  it('sends the same documents and fails on the same files', { timeout: 600_000 }, () => {
    const seed = Number(process.env.KELP_YAML_SEED ?? 1)
    const texts = corpus(Number(process.env.KELP_YAML_EDITS ?? 20_000), seed)
    expect(compare(texts, `manifests (seed ${seed})`)).toEqual([])
  })

  // the same documents written in flow style, each on one line (js-yaml's dump with flowLevel 0: the bench's flow
  // corpus), and texts edited from them that kelp reads without js-yaml (src/kube/yaml/simple.ts's one-line flow
  // collections): each must read as kubectl reads it. (Edited flow texts outside that subset go through js-yaml,
  // as every text did before the subset grew; they are not this test's.)
  it('reads flow-style documents as kubectl does', { timeout: 600_000 }, () => {
    const seed = Number(process.env.KELP_YAML_SEED ?? 1)
    const flow = projectValues().flatMap((value) => dumped(value, { flowLevel: 0, lineWidth: -1 }))
    const pick = picker(seed)
    const edits = Number(process.env.KELP_YAML_EDITS ?? 20_000)
    const edited = Array.from({ length: edits }, () => edit(flow[pick(flow.length)] as string, pick, 3)).filter(
      (t) => !/^---/m.test(t) && readSimpleYAML(t) !== NOT_SIMPLE,
    )
    expect(flow.filter((t) => readSimpleYAML(t) !== NOT_SIMPLE).length).toBeGreaterThan(1000)
    expect(edited.length).toBeGreaterThan(edits / 10)
    expect(compare([...flow, ...edited], `flow documents, and ${edited.length} edited ones (seed ${seed})`)).toEqual([])
  })

  // block documents holding one object twice, as js-yaml's dump writes them: an anchor, then aliases (the
  // several-container bench corpus' labels), and texts edited from them that the fast reader still answers with an
  // alias in them: each must read as kubectl reads it (an alias a copy of its anchor's value)
  it('reads block documents with anchors and aliases as kubectl does', { timeout: 600_000 }, () => {
    const seed = Number(process.env.KELP_YAML_SEED ?? 1)
    const aliased = projectValues()
      .flatMap((value) => {
        // the first mapping among its values, held again under two more keys and in a list
        const shared = Object.values(value).find((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
        if (shared === undefined || Array.isArray(value)) return []
        return dumped({ ...value, zzOne: shared, zzTwo: [shared, { k: shared }] }, { lineWidth: -1 })
      })
      .filter((t) => t.includes('*ref_'))
    const pick = picker(seed)
    const edits = Number(process.env.KELP_YAML_EDITS ?? 20_000)
    const edited = Array.from({ length: edits }, () => edit(aliased[pick(aliased.length)] as string, pick, 3)).filter(
      (t) => !/^---/m.test(t) && t.includes('*') && readSimpleYAML(t) !== NOT_SIMPLE,
    )
    expect(aliased.filter((t) => readSimpleYAML(t) !== NOT_SIMPLE).length).toBeGreaterThan(500)
    expect(edited.length).toBeGreaterThan(edits / 20)
    // a name anchored again inside its own node (found by this test's edits): go-yaml's alias after it is the inner
    // node (parser.go registers an anchor where its node starts), js-yaml's the outer (refusals.ts reads it as go-yaml)
    const nested = [
      'apiVersion: v1\nkind: ServiceAccount\nmetadata: &ref_0\n metadata: &ref_0\n  name: httpbin\nzzOne: *ref_0\n',
      'a: &x\n  b: &x\n    c: 1\n  d: *x\ne: *x\n',
      'a: &x 1\nb: &x\n  c: 2\nd: *x\n',
      'a: &x [1, &x [2]]\nb: *x\n',
      'a: &x {k: &x {j: 1}}\nb: [*x]\n',
      'a: &x\n  - &x "q"\n  - *x\nb: *x\n',
    ]
    expect(
      compare(
        [...aliased, ...edited, ...nested],
        `anchored documents, ${edited.length} edited ones (seed ${seed}) and ${nested.length} nested anchors`,
      ),
    ).toEqual([])
  })

  // go-yaml v2's resolution of plain scalars (resolve.go: booleans, nulls, ints in every base, floats,
  // timestamps, `_`), as values, keys and flow items, on random scalars of the characters that matter to it
  it('resolves the same scalars', { timeout: 600_000 }, () => {
    const pick = picker(Number(process.env.KELP_YAML_SEED ?? 1))
    const chars = '0123456789._+-eExXoObB:~yYnNtTfFaAlLsSuUrRiI Z'
    const texts: string[] = []
    for (let i = 0; i < 20_000; i++) {
      let v = ''
      for (let n = 1 + pick(10); n > 0; n--) v += chars[pick(chars.length)]
      v = v.trim()
      if (v === '') continue
      texts.push(`v: ${v}\n`, `${v}: x\n`, `v: [${v}]\n`)
    }
    expect(compare(texts, 'scalars')).toEqual([])
  })
})
