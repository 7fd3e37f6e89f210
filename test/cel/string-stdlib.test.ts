import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import {
  stringContains,
  stringEndsWith,
  stringFunctions,
  stringMatches,
  stringStartsWith,
} from '../../src/cel/stdlib/strings.js'

// Expected values: cel-spec tests/simple/testdata/string.textproto (sections starts_with, ends_with,
// matches, contains); declarations: cel-go common/stdlib/standard.go and common/overloads.

describe('startsWith / endsWith / contains (cel-spec string.textproto)', () => {
  it('startsWith', () => {
    expect(stringStartsWith('foobar', 'foo')).toBe(true)
    expect(stringStartsWith('foobar', 'bar')).toBe(false)
    expect(stringStartsWith('', 'foo')).toBe(false)
    expect(stringStartsWith('foobar', '')).toBe(true)
    expect(stringStartsWith('', '')).toBe(true)
    expect(stringStartsWith('завтра', 'за')).toBe(true)
    expect(stringStartsWith('🐱😀😛', '🐱')).toBe(true)
  })

  it('endsWith', () => {
    expect(stringEndsWith('foobar', 'bar')).toBe(true)
    expect(stringEndsWith('foobar', 'foo')).toBe(false)
    expect(stringEndsWith('', 'foo')).toBe(false)
    expect(stringEndsWith('foobar', '')).toBe(true)
    expect(stringEndsWith('', '')).toBe(true)
    expect(stringEndsWith('forté', 'té')).toBe(true)
    expect(stringEndsWith('🐱😀😛', '😛')).toBe(true)
  })

  it('contains', () => {
    expect(stringContains('hello', 'he')).toBe(true)
    expect(stringContains('hello', '')).toBe(true)
    expect(stringContains('hello', 'ol')).toBe(false)
    expect(stringContains('abababc', 'ababc')).toBe(true)
    expect(stringContains('Straße', 'aß')).toBe(true)
    expect(stringContains('🐱😀😁', '😀')).toBe(true)
    expect(stringContains('', 'something')).toBe(false)
    expect(stringContains('', '')).toBe(true)
  })
})

describe('matches', () => {
  it('is an unanchored RE2 search (cel-spec string.textproto matches)', () => {
    expect(stringMatches('hubba', 'ubb')).toBe(true)
    expect(stringMatches('', 'foo|bar')).toBe(false)
    expect(stringMatches('cows', '')).toBe(true)
    expect(stringMatches('grey', 'gr(a|e)y')).toBe(true)
    expect(stringMatches('banana', 'ba(na)*')).toBe(true)
    expect(stringMatches('mañana', 'a+ñ+a+')).toBe(true)
    expect(stringMatches('🐱😀😀', '(a|😀){2}')).toBe(true)
  })

  it('standard.go examples', () => {
    expect(stringMatches('123-456', '^[0-9]+(-[0-9]+)?$')).toBe(true)
    expect(stringMatches('hello', '^h.*o$')).toBe(true)
  })

  it('fails with the Go regexp error for an invalid pattern (cel-go string.go Match)', () => {
    let err: unknown
    try {
      stringMatches('abc', '(')
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ErrorValue)
    expect((err as ErrorValue).message).toBe('error parsing regexp: missing closing ): `(`')
  })
})

describe('declarations', () => {
  it('use cel-go function names and overload ids', () => {
    const ids = Object.fromEntries(
      stringFunctions.map((f) => [f.name, f.overloads.map((o) => `${o.member ? 'member ' : ''}${o.id}`)]),
    )
    expect(ids).toEqual({
      contains: ['member contains_string'],
      startsWith: ['member starts_with_string'],
      endsWith: ['member ends_with_string'],
      matches: ['matches', 'member matches_string'],
    })
    for (const f of stringFunctions) {
      for (const o of f.overloads) {
        expect(o.params.map((p) => p.name)).toEqual(['string', 'string'])
        expect(o.result.name).toBe('bool')
      }
    }
  })
})
