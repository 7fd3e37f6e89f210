import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import { compileRegex, regexCacheSize, regexFind, regexFindAll, regexMatches } from '../../src/cel/stdlib/regex.js'

function compileError(pattern: string): string {
  try {
    compileRegex(pattern)
  } catch (e) {
    expect(e).toBeInstanceOf(ErrorValue)
    return (e as ErrorValue).message
  }
  throw new Error(`expected ${pattern} to fail`)
}

const utf8 = new TextEncoder()
const dec = new TextDecoder()
/** Slices `text` by UTF-8 byte offsets, as Go's tables give them. */
function bytesSlice(text: string, from: number, to: number): string {
  return dec.decode(utf8.encode(text).slice(from, to))
}

describe('compile errors read as Go regexp/syntax errors', () => {
  // Go src/regexp/all_test.go badRe (texts prefixed by "error parsing regexp: ")
  const badRe: [string, string][] = [
    ['*', 'missing argument to repetition operator: `*`'],
    ['+', 'missing argument to repetition operator: `+`'],
    ['?', 'missing argument to repetition operator: `?`'],
    ['(abc', 'missing closing ): `(abc`'],
    ['abc)', 'unexpected ): `abc)`'],
    ['x[a-z', 'missing closing ]: `[a-z`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a*+', 'invalid nested repetition operator: `*+`'],
    ['\\x', 'invalid escape sequence: `\\x`'],
  ]
  for (const [pattern, want] of badRe) {
    it(pattern, () => expect(compileError(pattern)).toBe(`error parsing regexp: ${want}`))
  }

  it('prints an empty expression for a trailing backslash (Go syntax.Error.Error)', () => {
    // Go: &Error{ErrTrailingBackslash, ""} → "...: ``"
    expect(compileError('abc\\')).toBe('error parsing regexp: trailing backslash at end of expression: ``')
  })

  it('reports the brief/spec examples', () => {
    // kubernetes-cel-semantics.md §B.2: CRD test expects "error parsing regexp: unexpected ): `)`"
    expect(compileError(')')).toBe('error parsing regexp: unexpected ): `)`')
    expect(compileError('(')).toBe('error parsing regexp: missing closing ): `(`')
  })

  it('rejects what RE2 does not support (Go regexp/syntax parse.go)', () => {
    expect(compileError('(?=a)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?=`')
    expect(compileError('(?!a)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?!`')
    // (?<= is read as the start of a named group (?<name>, which has no closing '>'
    expect(compileError('(?<=a)b')).toBe('error parsing regexp: invalid named capture: `(?<=a)b`')
    expect(compileError('\\1')).toBe('error parsing regexp: invalid escape sequence: `\\1`')
    expect(compileError('\\C')).toBe('error parsing regexp: invalid escape sequence: `\\C`')
    expect(compileError('\\Z')).toBe('error parsing regexp: invalid escape sequence: `\\Z`')
    expect(compileError('a{1001}')).toBe('error parsing regexp: invalid repeat count: `{1001}`')
    expect(compileError('(a{500}){3}')).toBe('error parsing regexp: invalid repeat count: `{3}`')
    expect(compileError('(?P<n>a)(?P<n>b)')).toBe('error parsing regexp: duplicate capture group name: `n`')
    expect(compileError('[[:foo:]]')).toBe('error parsing regexp: invalid character class range: `[:foo:]`')
    expect(compileError('\\p{Foo}')).toBe('error parsing regexp: invalid character class range: `\\p{Foo}`')
    expect(compileError('(?z)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?z`')
  })

  it('reports depth limits with the whole pattern (Go parse.go: &Error{ErrNestingDepth, s})', () => {
    const deep = `${'('.repeat(1001)}a${')'.repeat(1001)}`
    expect(compileError(deep)).toBe(`error parsing regexp: expression nests too deeply: \`${deep}\``)
  })

  it('caches invalid patterns too', () => {
    const before = regexCacheSize()
    compileError('([unclosed')
    compileError('([unclosed')
    expect(regexCacheSize()).toBeLessThanOrEqual(before + 1)
  })
})

describe('RE2 features Go supports', () => {
  const cases: [string, string, boolean][] = [
    ['a\\z', 'ba', true],
    ['a\\z', 'ab', false],
    ['\\Aab', 'ab', true],
    ['(?P<n>x)y', 'xy', true],
    ['(?<n>x)y', 'xy', true], // Go ≥ 1.22
    ['(?i)abc', 'xABCx', true],
    ['(?i:a)b', 'Ab', true],
    ['(?i:a)b', 'AB', false],
    ['^[[:alpha:]]+$', 'abcXYZ', true],
    ['^[[:alpha:]]+$', 'abc1', false],
    ['[[:^alpha:]]', 'ab1', true],
    ['^\\pL+$', 'héllo', true],
    ['^\\p{Greek}+$', 'αβγ', true],
    ['^\\PL$', '1', true],
    ['\\Qa.b\\E', 'a.b', true],
    ['\\Qa.b\\E', 'axb', false],
    ['(?U)a+', 'aaa', true],
    ['(?s)a.b', 'a\nb', true],
    ['a.b', 'a\nb', false], // `.` excludes \n without (?s)
    ['a$', 'a\n', false], // `$` is end of text without (?m)
    ['(?m)a$', 'a\nb', true],
    ['\\d', '٣', false], // \d is ASCII-only
    ['\\w', 'é', false], // \w is ASCII-only
    ['\\s', '\u00a0', false], // \s is ASCII-only
    ['\\bé', ' é', false], // \b is ASCII-only
    ['a{,3}', 'a{,3}', true], // {,n} is a literal in Go
    ['\\x{1F600}', 'a😀', true],
    ['^.$', '😀', true], // `.` matches a code point, not a UTF-16 unit
    ['(?i)k', '\u212a', true], // Kelvin sign folds to k
  ]
  for (const [pattern, s, want] of cases) {
    it(`${pattern} on ${JSON.stringify(s)}`, () => expect(regexMatches(compileRegex(pattern), s)).toBe(want))
  }

  it('matches are unanchored searches (cel-spec string.textproto matches section)', () => {
    const m = (s: string, p: string) => regexMatches(compileRegex(p), s)
    expect(m('hubba', 'ubb')).toBe(true)
    expect(m('', 'foo|bar')).toBe(false)
    expect(m('cows', '')).toBe(true)
    expect(m('', '')).toBe(true)
    expect(m('abcd', 'bc')).toBe(true)
    expect(m('grey', 'gr(a|e)y')).toBe(true)
    expect(m('banana', 'ba(na)*')).toBe(true)
    expect(m('mañana', 'a+ñ+a+')).toBe(true)
    expect(m('🐱😀😀', '(a|😀){2}')).toBe(true)
  })
})

describe('find / findAll follow Go FindString / FindAllString', () => {
  // Go src/regexp/find_test.go findTests: pattern, text, n, byte offsets of the whole matches
  const findTests: [string, string, number, [number, number][] | null][] = [
    ['', '', -1, [[0, 0]]],
    ['^abcdefg', 'abcdefg', -1, [[0, 7]]],
    ['a+', 'baaab', -1, [[1, 4]]],
    [
      'a',
      'bababaab',
      -1,
      [
        [1, 2],
        [3, 4],
        [5, 6],
        [6, 7],
      ],
    ],
    ['a', 'bababaab', 0, null],
    ['a', 'bababaab', 1, [[1, 2]]],
    [
      'a',
      'bababaab',
      2,
      [
        [1, 2],
        [3, 4],
      ],
    ],
    [
      'a',
      'bababaab',
      5,
      [
        [1, 2],
        [3, 4],
        [5, 6],
        [6, 7],
      ],
    ],
    ['x', 'y', -1, null],
    ['$', 'abcde', -1, [[5, 5]]],
    [
      'a*',
      'baaab',
      -1,
      [
        [0, 0],
        [1, 4],
        [5, 5],
      ],
    ],
    ['[日本語]+', '日本語日本語', -1, [[0, 18]]],
    [
      '\\b',
      'x y',
      -1,
      [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
      ],
    ],
    [
      '\\B',
      'xx yy',
      -1,
      [
        [1, 1],
        [4, 4],
      ],
    ],
    [
      '(|a)*',
      'aa',
      -1,
      [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
    ],
    [
      '[a-c]*',
      '\u65e5',
      -1,
      [
        [0, 0],
        [3, 3],
      ],
    ],
    [
      '[^\u65e5]',
      'abc\u65e5def',
      -1,
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [6, 7],
        [7, 8],
        [8, 9],
      ],
    ],
    [
      'ab*',
      'abbaab',
      -1,
      [
        [0, 3],
        [3, 4],
        [4, 6],
      ],
    ],
    ['(?:(?:^).)', '\n', -1, null],
  ]
  for (const [pattern, text, n, matches] of findTests) {
    it(`${pattern} on ${JSON.stringify(text)} (n=${n})`, () => {
      const re = compileRegex(pattern)
      const want = (matches ?? []).map(([a, b]) => bytesSlice(text, a, b))
      expect(regexFindAll(re, text, n)).toEqual(want)
      if (n !== 0) expect(regexFind(re, text)).toBe(want[0] ?? '')
    })
  }

  it('reproduces the kubernetes-cel-semantics §B.2 examples', () => {
    // Kubernetes library tests: 'this is a 123 string 456'.findAll('[0-9]+', n)
    const digits = compileRegex('[0-9]+')
    expect(regexFindAll(digits, 'this is a 123 string 456', 1)).toEqual(['123'])
    expect(regexFindAll(digits, 'this is a 123 string 456', 0)).toEqual([])
    expect(regexFindAll(digits, 'this is a 123 string 456', -1)).toEqual(['123', '456'])
    // Go: [0-9]* matches the empty string first; empty matches right after a match are skipped
    const star = compileRegex('[0-9]*')
    expect(regexFind(star, 'abc 123')).toBe('')
    expect(regexFindAll(star, '123 abc 456', -1)).toEqual(['123', '', '', '', '', '456'])
  })

  it('steps over surrogate pairs after an empty match (one code point, as Go steps one rune)', () => {
    expect(regexFindAll(compileRegex(''), '😀a', -1)).toEqual(['', '', ''])
  })
})

describe('linear time and caching', () => {
  it('runs (a+)+$ on 100 KiB of a followed by b in well under 100 ms', () => {
    const re = compileRegex('(a+)+$')
    const s = `${'a'.repeat(100 * 1024)}b`
    regexMatches(re, s.slice(0, 1000)) // warm up
    const t0 = performance.now()
    expect(regexMatches(re, s)).toBe(false)
    expect(performance.now() - t0).toBeLessThan(100)
  })

  it('returns the same compiled object for a repeated pattern', () => {
    expect(compileRegex('^x+y$')).toBe(compileRegex('^x+y$'))
  })

  it('keeps the cache bounded', () => {
    for (let i = 0; i < 1000; i++) compileRegex(`^p${i}$`)
    expect(regexCacheSize()).toBeLessThanOrEqual(256)
  })
})
