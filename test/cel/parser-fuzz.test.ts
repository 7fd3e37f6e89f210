import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CelCompileError } from '../../src/cel/common/errors.js'
import { parse, toDebugString } from '../../src/cel/syntax/index.js'

// Robustness of the parser: whatever the input, parse() returns an AST or throws
// CelCompileError (never a JS TypeError / RangeError), quickly; and deep nesting ends in cel-go's
// recursion errors (parser/parser.go: listener "expression recursion limit exceeded: 250",
// visitor "max recursion depth exceeded"), not in a JavaScript stack overflow.

function outcome(text: string, maxRecursionDepth?: number): string {
  const start = performance.now()
  try {
    const ast = parse(text, maxRecursionDepth === undefined ? {} : { maxRecursionDepth })
    toDebugString(ast.expr)
    return 'ok'
  } catch (e) {
    if (!(e instanceof CelCompileError)) throw e
    return e.message
  } finally {
    expect(performance.now() - start).toBeLessThan(250)
  }
}

const TOKENS = [
  ...'()[]{}.,?:!-+*/%<>'.split(''),
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  'in',
  'true',
  'false',
  'null',
  'a',
  'b',
  'has',
  'all',
  'exists',
  'exists_one',
  'existsOne',
  'map',
  'filter',
  'transformList',
  'transformMap',
  'transformMapEntry',
  'optMap',
  'optFlatMap',
  'sortBy',
  'cel',
  'bind',
  '__result__',
  '@result',
  'var',
  '1',
  '-1',
  '1u',
  '1.5',
  '.5',
  '1e3',
  '0x1F',
  '9223372036854775808',
  '"s"',
  "'s'",
  'b"\\xff"',
  'r"\\d"',
  '"""t"""',
  '"\\u00e9"',
  '"\\ud800"',
  '`f`',
  '.?',
  '[?',
  '{?',
  '$',
  '&',
  '|',
  '=',
  '"',
  "'",
  '\\',
  '//c\n',
  '\n',
  'é',
  '😁',
]

describe('parser robustness (fast-check)', () => {
  it('random strings only ever raise CelCompileError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => {
        outcome(s)
      }),
      { numRuns: 3000 },
    )
  })

  it('random token soups only ever raise CelCompileError', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }), fc.boolean(), (toks, spaced) => {
        outcome(toks.join(spaced ? ' ' : ''))
      }),
      { numRuns: 5000 },
    )
  })

  it('random token soups with tight limits only ever raise CelCompileError', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (toks, depth) => {
          outcome(toks.join(' '), depth)
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe('deep nesting', () => {
  const N = 10_000
  const limit = 'ERROR: <input>:-1:0: expression recursion limit exceeded: 250'
  const visitor = 'ERROR: <input>:-1:0: max recursion depth exceeded'
  it.each([
    ['parentheses', `${'('.repeat(N)}a${')'.repeat(N)}`, limit],
    ['lists', `${'['.repeat(N)}1${']'.repeat(N)}`, limit],
    ['maps', `${'{1: '.repeat(N)}1${'}'.repeat(N)}`, limit],
    ['calls', `${'f('.repeat(N)}1${')'.repeat(N)}`, limit],
    ['ternaries', `${'a ? b : '.repeat(N)}c`, limit],
    ['unclosed parentheses', '('.repeat(N), limit],
    ['selections', `a${'.b'.repeat(N)}`, visitor],
    ['indexes', `a${'[0]'.repeat(N)}`, visitor],
    ['member calls', `a${'.f()'.repeat(N)}`, visitor],
    ['additions', `1${' + 1'.repeat(N)}`, visitor],
    ['relations', `1${' < 1'.repeat(N)}`, visitor],
  ])('%s', (_name, text, want) => {
    expect(outcome(text).split('\n')[0]).toBe(want)
  })

  it('long operator chains that cel-go does not nest parse iteratively', () => {
    // `(ops+='-')+ member` and the balanced || / && trees do not recurse in cel-go either.
    expect(outcome(`${'-'.repeat(N)}a`)).toBe('ok')
    expect(outcome(`${'!'.repeat(N + 1)}a`)).toBe('ok')
    expect(outcome(`a${' || a'.repeat(N)}`)).toBe('ok')
    expect(outcome(`a${' && a'.repeat(N)}`)).toBe('ok')
  })

  it('without a recursion limit, deep input still fails as a CelCompileError', () => {
    const text = `${'('.repeat(45_000)}a${')'.repeat(45_000)}`
    expect(outcome(text, -1)).toMatch(/recursion/)
  })
})
