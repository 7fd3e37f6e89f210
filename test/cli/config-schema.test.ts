import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONFIG_KEYS, EXCEPTION_KEYS, type KeyType, loadConfig } from '../../src/cli/config.js'
import { decodeStream } from '../../src/kube/yaml/decode.js'

// schemas/kelp-config.schema.json (shipped in the package) against the loader (src/cli/config.ts): the same keys
// with the same types, the docs' examples valid under both, wrong files refused by both.

const require = createRequire(import.meta.url)
const Ajv = require('ajv') as typeof import('ajv').default
const repo = new URL('../../', import.meta.url).pathname
const schema = JSON.parse(readFileSync(join(repo, 'schemas/kelp-config.schema.json'), 'utf8')) as {
  properties: Record<string, Record<string, unknown>>
  definitions: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }>
}
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema)
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { files: string[] }

type Prop = Record<string, unknown>
const resolveRef = (p: Prop): Prop =>
  typeof p.$ref === 'string' ? { ...schema.definitions[p.$ref.split('/').pop()!], ...p } : p

/** What the schema says a key holds, in the loader's terms. */
function typeOf(p: Prop): KeyType {
  const r = resolveRef(p)
  if (r.type === 'string') {
    return {
      type: 'string',
      ...(Array.isArray(r.enum) ? { enum: r.enum as string[] } : {}),
    } as KeyType
  }
  if (r.type === 'array') {
    const items = r.items as Prop
    if (items.$ref === '#/definitions/exception') return { type: 'exceptions' }
    return { type: 'strings' }
  }
  throw new Error(`unexpected schema type ${JSON.stringify(r)}`)
}
const loaderType = (t: KeyType): KeyType =>
  t.type === 'string'
    ? ({ type: 'string', ...(t.enum !== undefined ? { enum: [...t.enum] } : {}) } as KeyType)
    : { type: t.type }

describe('the schema and the loader agree', () => {
  it('the top-level keys and their types', () => {
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(CONFIG_KEYS).sort())
    for (const [k, p] of Object.entries(schema.properties))
      expect([k, typeOf(p)]).toEqual([k, loaderType(CONFIG_KEYS[k]!)])
  })
  it("an exception's keys and their types; reason required", () => {
    const e = schema.definitions.exception!
    expect(Object.keys(e.properties!).sort()).toEqual(Object.keys(EXCEPTION_KEYS).sort())
    for (const [k, p] of Object.entries(e.properties!))
      expect([k, typeOf(p)]).toEqual([k, loaderType(EXCEPTION_KEYS[k]!)])
    expect(e.required).toEqual(['reason'])
  })
  it('every key has a description (editors show it)', () => {
    for (const p of [...Object.values(schema.properties), ...Object.values(schema.definitions.exception!.properties!)])
      expect(typeof p.description).toBe('string')
  })
  it('the package ships it', () => {
    expect(pkg.files).toContain('schemas')
  })
})

const dir = mkdtempSync(join(tmpdir(), 'kelp-config-schema-'))
/** The loader's answer: undefined when it reads the file, else its refusal. */
function loaderRefusal(text: string): string | undefined {
  const file = join(dir, '.kelp.yaml')
  writeFileSync(file, text)
  try {
    loadConfig(file, dir)
    return undefined
  } catch (e) {
    return (e as Error).message
  }
}
const valueOf = (text: string): unknown => [...decodeStream(text)][0]?.value ?? {}

describe('the docs’ examples are valid under both', () => {
  const docs = ['docs/integrations/config.md', 'README.md'].map((f) => readFileSync(join(repo, f), 'utf8'))
  const examples = docs
    .flatMap((d) => [...d.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!))
    .filter((y) => y.includes('yaml-language-server: $schema='))
  it('there are examples, each naming the schema', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2)
    for (const e of examples) expect(e).toContain('schemas/kelp-config.schema.json')
  })
  it.each(examples.map((e, i) => [i, e]))('example %i', (_, text) => {
    expect(validate(valueOf(text)), JSON.stringify(validate.errors)).toBe(true)
    expect(loaderRefusal(text)).toBeUndefined()
  })
})

describe('wrong files are refused by both', () => {
  it.each([
    'polices: [a]\n',
    'failOn: often\n',
    'kubeVersion: 1.30\n',
    'policies: p/\n',
    'paths: [""]\n',
    'exceptions:\n- names: [a]\n',
    'exceptions:\n- reason: r\n  expires: soon\n',
    'exceptions:\n- reason: r\n  namspaces: [a]\n',
    'exceptions:\n- reason: r\n  names: a\n',
    'exceptions: {reason: r}\n',
    '__proto__: {failOn: none}\n',
    `exceptions:\n- reason: r\n  paths: ["${'*'.repeat(1025)}"]\n`,
  ])('%j', (text) => {
    expect(validate(valueOf(text))).toBe(false)
    expect(loaderRefusal(text)).toBeDefined()
  })
})
