import { describe, expect, it } from 'vitest'
import { compareStrings } from '../../../src/cel/values/strings.js'
import { finalizerWarnings } from '../../../src/crd/structural/strategy.js'
import { FieldPath, goJSON } from '../../../src/kube/field.js'
import { type ObjectMeta, validateObjectMetaUpdate } from '../../../src/kube/validation/objectmeta.js'
import { compareGoStrings } from '../../../src/kube/values/json.js'

// Go compares strings by their UTF-8 bytes, which is code point order. JavaScript's `<` and a plain
// `.sort()` compare UTF-16 code units: a supplementary character (U+10000 and up, a surrogate pair
// starting 0xD800..0xDBFF) sorts before U+E000..U+FFFF there, after them in Go.

const meta = (o: Partial<ObjectMeta>): ObjectMeta => ({
  name: 'x',
  generateName: '',
  namespace: '',
  selfLink: '',
  uid: '',
  resourceVersion: '',
  generation: 0,
  ...o,
})

const sign = (n: number) => Math.sign(n)

// [a, b] with a < b in Go
const ordered: readonly [string, string][] = [
  ['\uFFFF', '\u{10000}'],
  ['\uE000', '\u{1F600}'],
  ['\uFFFD', '\u{10FFFF}'],
  ['a\uFFFF', 'a\u{10000}'],
  ['\u{10000}', '\u{10001}'],
  ['\u{10000}', '\u{10000}a'],
  ['\u{1F600}\uFFFF', '\u{1F600}\u{10000}'],
  ['', '\u{10000}'],
  ['z', '\uD7FF'],
  ['\uD7FF', '\u{10000}'],
]

describe("Go's string order (compareStrings, the one home)", () => {
  it('orders supplementary characters after U+E000..U+FFFF, as Go does', () => {
    for (const [a, b] of ordered) {
      expect(sign(compareStrings(a, b)), `${JSON.stringify(a)} < ${JSON.stringify(b)}`).toBe(-1)
      expect(sign(compareStrings(b, a))).toBe(1)
      expect(compareStrings(a, a)).toBe(0)
    }
    // where JavaScript's own order disagrees
    expect('\uFFFF' < '\u{10000}').toBe(false)
  })

  it('agrees with a code point comparison on mixed strings', () => {
    const pool = [
      '',
      'a',
      'ab',
      '\uD7FF',
      '\uE000',
      '\uFFFF',
      '\u{10000}',
      '\u{1F600}',
      '\u{10FFFF}',
      'a\u{10000}',
      'a\uFFFF',
    ]
    const byCodePoints = (a: string, b: string) => {
      const x = [...a].map((c) => c.codePointAt(0) as number)
      const y = [...b].map((c) => c.codePointAt(0) as number)
      for (let i = 0; i < Math.min(x.length, y.length); i++)
        if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number)
      return x.length - y.length
    }
    for (const a of pool) for (const b of pool) expect(sign(compareStrings(a, b))).toBe(sign(byCodePoints(a, b)))
  })

  it('compareGoStrings (kube) is the same function', () => {
    expect(compareGoStrings).toBe(compareStrings)
  })

  it('sorts the keys json.Marshal writes and the finalizers sets.List returns in that order', () => {
    expect(goJSON({ '\u{10000}': 1, '\uFFFF': 2 })).toBe('{"\uFFFF":2,"\u{10000}":1}')
    const obj = { metadata: { finalizers: ['\u{10000}', '\uFFFF'] } }
    const warnings = finalizerWarnings(obj, { metadata: {} })
    expect(warnings.length).toBeGreaterThan(0)
    expect(warnings.findIndex((w) => w.includes('\uFFFF'))).toBeLessThan(
      warnings.findIndex((w) => w.includes('\u{10000}')),
    )
    const errs = validateObjectMetaUpdate(
      meta({ finalizers: ['\u{10000}', '\uFFFF'] }),
      meta({ deletionTimestamp: 1 }),
      FieldPath.of('metadata'),
    )
    const forbidden = errs.find((e) => e.detail.includes('no new finalizers'))
    // %q prints U+FFFF (not printable) escaped, U+10000 as itself
    expect(forbidden?.detail).toContain('[]string{"\\uffff", "\u{10000}"}')
  })
})
