import { describe, expect, it } from 'vitest'
import { decodeStream } from '../../src/kube/yaml/decode.js'
import { allowedAliasRatio, utf8Problems } from '../../src/kube/yaml/limits.js'

// go-yaml v2's limits (sigs.k8s.io/yaml goyaml.v2): decode.go allowedAliasRatio and "document
// contains excessive aliasing" (its TestUnmarshalLimits / limit_test.go cases), scannerc.go
// max_flow_level / max_indents, readerc.go's UTF-8 errors; encoding/json's maxNestingDepth.

const docs = (t: string | Buffer) => [...decodeStream(t)]

describe('aliases', () => {
  // the billion-laughs document of go-yaml's limit tests, 9 levels of 9 aliases
  const bomb = [
    'a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
    'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
    'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
  ].join('\n')

  it('an alias bomb fails fast with go-yaml`s error; the other documents are still read', () => {
    const t0 = performance.now()
    const r = docs(`${bomb}\n---\nok: 1\n`)
    expect(performance.now() - t0).toBeLessThan(500)
    expect(r[0]?.error).toEqual({ message: 'document contains excessive aliasing', line: 1 })
    expect(r[1]?.value).toEqual({ ok: 1 })
  })

  it('allowedAliasRatio: 99% up to 400,000 decodes, 10% from 4,000,000, linear between', () => {
    expect(allowedAliasRatio(1000)).toBe(0.99)
    expect(allowedAliasRatio(400000)).toBe(0.99)
    expect(allowedAliasRatio(4000000)).toBe(0.1)
    expect(allowedAliasRatio(2200000)).toBeCloseTo(0.545, 10)
  })

  it('ordinary aliasing is fine, and each alias is its own copy', () => {
    const r = docs('base: &b {x: [1, 2]}\none: *b\ntwo: *b\n')
    const v = r[0]?.value as Record<string, { x: number[] }>
    expect(v).toEqual({ base: { x: [1, 2] }, one: { x: [1, 2] }, two: { x: [1, 2] } })
    v.one?.x?.push(3)
    expect(v.two?.x).toEqual([1, 2])
    expect(v.base?.x).toEqual([1, 2])
  })

  it('block-style aliases (read by the fast reader) are each their own copy too', () => {
    const r = docs(
      'metadata:\n  labels: &l\n    app: web\nspec:\n  selector:\n    matchLabels: *l\n  list:\n    - *l\n',
    )
    const v = r[0]?.value as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> }
    expect(v).toEqual({
      metadata: { labels: { app: 'web' } },
      spec: { selector: { matchLabels: { app: 'web' } }, list: [{ app: 'web' }] },
    })
    v.metadata.labels.tier = 'x'
    expect(v.spec).toEqual({ selector: { matchLabels: { app: 'web' } }, list: [{ app: 'web' }] })
  })

  it('a block-style alias bomb fails with go-yaml`s error too', () => {
    const levels = ['a: &a\n' + Array(9).fill('  - lol\n').join('')]
    for (const [prev, name] of [...'abcdefgh'].map((c, i) => [c, 'bcdefghi'[i]]))
      levels.push(`${name}: &${name}\n${Array(9).fill(`  - *${prev}\n`).join('')}`)
    const t0 = performance.now()
    const r = docs(levels.join(''))
    expect(performance.now() - t0).toBeLessThan(500)
    expect(r[0]?.error).toEqual({ message: 'document contains excessive aliasing', line: 1 })
  })

  it('a key named __proto__ stays a key when the document is copied for its aliases', () => {
    for (const text of [
      'a: &x\n  b: 1\nc: *x\nd:\n  "__proto__": v\n  k: w\n',
      'a: &x {b: 1}\nc: *x\nd: {"__proto__": v}\n',
    ]) {
      const d = (docs(text)[0]?.value as { d: Record<string, unknown> } | undefined)?.d ?? {}
      expect(Object.keys(d)).toContain('__proto__')
      expect(Object.getPrototypeOf(d)).toBe(Object.prototype)
      expect(Object.getOwnPropertyDescriptor(d, '__proto__')?.value).toBe('v')
    }
  })

  it('many small aliases within the ratio decode (go-yaml: fewer than 100 alias decodes never fail)', () => {
    const r = docs(`a: &a [x, y]\nb: [${Array(40).fill('*a').join(', ')}]\n`)
    expect((r[0]?.value as { b?: unknown[] } | undefined)?.b).toHaveLength(40)
  })
})

describe('depth', () => {
  it('nesting past what can be read names the limit, never a stack overflow', () => {
    const r = docs(`a: ${'['.repeat(20000)}${']'.repeat(20000)}\n`)
    expect(r[0]?.error?.message).toBe('exceeded max depth of 10000')
    const s = docs(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)
    expect(s[0]?.error?.message).toMatch(/go-yaml allows 10000 levels/)
  })
  // kubectl's reading: the scanner's error on the 10,001st `[`, at its byte offset
  it('JSON: encoding/json maxNestingDepth', () => {
    const r = docs(`{"a": ${'['.repeat(10001)}${']'.repeat(10001)}}`)
    expect(r[0]?.error?.message).toBe("json: offset 10006: invalid character '[' exceeded max depth")
  })
})

describe('UTF-8 (readerc.go)', () => {
  it('the problems as go-yaml names them, with their lines', () => {
    expect(utf8Problems(Buffer.from('ok\n'))).toEqual([])
    expect(utf8Problems(Buffer.from([0x61, 0x0a, 0xff]))).toEqual([
      { offset: 2, line: 2, problem: 'invalid leading UTF-8 octet' },
    ])
    expect(utf8Problems(Buffer.from([0xc3, 0x41]))[0]?.problem).toBe('invalid trailing UTF-8 octet')
    expect(utf8Problems(Buffer.from([0x41, 0xe2, 0x82]))[0]?.problem).toBe('incomplete UTF-8 octet sequence')
    expect(utf8Problems(Buffer.from([0xc0, 0x80]))[0]?.problem).toBe('invalid length of a UTF-8 sequence')
    expect(utf8Problems(Buffer.from([0xed, 0xa0, 0x80]))[0]?.problem).toBe('invalid Unicode character')
  })
})

describe('YAMLOrJSONDecoder', () => {
  it('a stream that starts with `{` but is YAML falls back to YAML', () => {
    expect(docs('{a: 1, b: yes}\n')[0]?.value).toEqual({ a: 1, b: true })
  })
  it('after one JSON value, the rest is read as YAML', () => {
    const r = docs('{"a": 1}\n---\nb: on\n')
    expect(r.map((d) => d.value)).toEqual([{ a: 1 }, { b: true }])
  })
  it('after two JSON values, a failure ends the stream', () => {
    // the Decoder's own error, not wrapped with its offset (decoder.go: `return err` once count > 1; kubectl's reading)
    const r = docs('{"a": 1}{"b": 2}\nc: 3\n')
    expect(r.map((d) => d.value ?? d.error?.message)).toEqual([
      { a: 1 },
      { b: 2 },
      "invalid character 'c' looking for beginning of value",
    ])
  })
})
