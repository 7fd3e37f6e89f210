import { describe, expect, it } from 'vitest'
import { escape, unescape } from '../../src/kube/schema/escaping.js'

// apiserver pkg/cel/escaping_test.go: property names as CEL identifiers.
const CASES: [string, string | undefined][] = [
  ['a.a', 'a__dot__a'],
  ['a-a', 'a__dash__a'],
  ['a__a', 'a__underscores__a'],
  ['a.-/__a', 'a__dot____dash____slash____underscores__a'],
  ['a._a', 'a__dot___a'],
  ['a__.__a', 'a__underscores____dot____underscores__a'],
  ['a___a', 'a__underscores___a'],
  ['a____a', 'a__underscores____underscores__a'],
  ['a__dot__a', 'a__underscores__dot__underscores__a'],
  ['a__underscores__a', 'a__underscores__underscores__underscores__a'],
  ['true', '__true__'],
  ['false', '__false__'],
  ['null', '__null__'],
  ['in', '__in__'],
  ['as', '__as__'],
  ['break', '__break__'],
  ['const', '__const__'],
  ['continue', '__continue__'],
  ['else', '__else__'],
  ['for', '__for__'],
  ['function', '__function__'],
  ['if', '__if__'],
  ['import', '__import__'],
  ['let', '__let__'],
  ['loop', '__loop__'],
  ['package', '__package__'],
  ['namespace', '__namespace__'],
  ['return', '__return__'],
  ['var', '__var__'],
  ['void', '__void__'],
  ['while', '__while__'],
  ['@', undefined],
  ['1up', undefined],
  ['👑', undefined],
  ['has', 'has'],
  ['all', 'all'],
  ['exists', 'exists'],
  ['exists_one', 'exists_one'],
  ['filter', 'filter'],
  ['size', 'size'],
  ['contains', 'contains'],
  ['startsWith', 'startsWith'],
  ['endsWith', 'endsWith'],
  ['matches', 'matches'],
  ['duration', 'duration'],
  ['timestamp', 'timestamp'],
  ['getDate', 'getDate'],
  ['getDayOfMonth', 'getDayOfMonth'],
  ['getDayOfWeek', 'getDayOfWeek'],
  ['getFullYear', 'getFullYear'],
  ['getHours', 'getHours'],
  ['getMilliseconds', 'getMilliseconds'],
  ['getMinutes', 'getMinutes'],
  ['getMonth', 'getMonth'],
  ['getSeconds', 'getSeconds'],
  ['_if', '_if'],
  ['_has', '_has'],
  ['_int', '_int'],
  ['_anything', '_anything'],
]

describe('apiserver pkg/cel/escaping_test.go TestEscaping', () => {
  it.each(CASES)('%s', (unescaped, escaped) => {
    const e = escape(unescaped)
    expect(e).toBe(escaped)
    if (escaped !== undefined) {
      expect(e).toMatch(/^[_a-zA-Z][_a-zA-Z0-9]*$/)
      expect(unescape(escaped)).toBe(unescaped)
    }
  })
})

describe('apiserver pkg/cel/escaping_test.go TestUnescapeMalformed', () => {
  it.each(['__int__extra', '__illegal__'])('%s', (s) => {
    expect(unescape(s)).toBeUndefined()
  })
})

describe('apiserver pkg/cel/escaping_test.go TestEscapingFuzz (round trip)', () => {
  it('escapes and unescapes random names over the escapable alphabet', () => {
    const alphabet = 'abcXYZ019_.-/'
    let seed = 42
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    for (let i = 0; i < 1000; i++) {
      let s = ''
      const n = 1 + Math.floor(rnd() * 12)
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rnd() * alphabet.length)]
      const e = escape(s)
      if (/^[0-9]/.test(s)) {
        expect(e).toBeUndefined()
        continue
      }
      expect(e).toBeDefined()
      expect(unescape(e as string)).toBe(s)
    }
  })
})
