import { describe, expect, it } from 'vitest'
import { recordWarnings } from '../../../src/builtin/warnings/recorder.js'

// The recorder counts runes as Go does (k8s.io/apiserver v0.37.2 pkg/endpoints/filters/warning.go:
// utf8.RuneCountInString, truncation to a rune count): a character outside the BMP, two UTF-16 units in
// JavaScript, is one rune (issue 29 counts them without iterating the string by code points).

describe('runes of characters outside the BMP', () => {
  const limits = { totalRunes: 10, itemRunes: 3 }
  it('four emoji are four runes: they fit in 10 with six more', () => {
    expect(recordWarnings(['😀😀😀😀', 'abcdef'], limits)).toEqual(['😀😀😀😀', 'abcdef'])
  })
  it('one rune more truncates every item to 3 runes, an emoji whole', () => {
    expect(recordWarnings(['😀😀😀😀', 'abcdefg'], limits)).toEqual(['😀😀😀', 'abc'])
  })
  it('a string of surrogate pairs and ASCII mixed', () => {
    // five runes and five: 10 fit; five and six do not
    expect(recordWarnings(['a😀b😀c', 'xxxxx'], limits)).toEqual(['a😀b😀c', 'xxxxx'])
    expect(recordWarnings(['a😀b😀c', 'xxxxxx'], limits)).toEqual(['a😀b', 'xxx'])
  })
})
