import { describe, expect, it } from 'vitest'
import { recordWarnings } from '../../../src/builtin/warnings/recorder.js'

// k8s.io/apiserver v0.37.2 pkg/endpoints/filters/warning_test.go: Test_recorder_AddWarning (the texts of its
// headers) and TestTruncation (with its limits: 25 runes in all, 5 per item).

describe('Test_recorder_AddWarning', () => {
  const rows: [string, string[], string[]][] = [
    ['empty', [], []],
    ['empty values', [''], []],
    ['simple', ['mytext'], ['mytext']],
    ['duplicate text', ['mytext', 'mytext'], ['mytext']],
    ['multiple', ['mytext1', 'mytext2', 'mytext3'], ['mytext1', 'mytext2', 'mytext3']],
    ['invalid text', ['my\ntext'], []],
  ]
  for (const [name, added, sent] of rows) it(name, () => expect(recordWarnings(added)).toEqual(sent))
})

describe('TestTruncation', () => {
  const limits = { totalRunes: 25, itemRunes: 5 }
  it('keeps the items while they fit', () => {
    expect(recordWarnings(['aaaaaaaaaa', 'aaaaaaaaaa', 'bb', 'ccc', 'Iñtërnâtiô'], limits)).toEqual([
      'aaaaaaaaaa',
      'bb',
      'ccc',
      'Iñtërnâtiô',
    ])
  })
  it('past the limit truncates every item, in order, then ignores the rest', () => {
    const added = [
      'aaaaaaaaaa',
      'aaaaaaaaaa',
      'bb',
      'ccc',
      'Iñtërnâtiô',
      'e',
      'ffffffffff',
      'ffffffffff',
      'gggggggggg',
      'h',
    ]
    expect(recordWarnings(added, limits)).toEqual(['aaaaa', 'bb', 'ccc', 'Iñtër', 'e', 'fffff', 'ggggg'])
  })
  // warning.go AddWarning: while truncating, the header is made of the cut text (net.NewWarningHeader after
  // truncate), so a control character past the cut does not drop the warning, one before it does
  it('while truncating, the cut text decides whether a header can carry it', () => {
    const added = ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'bbbbb\tb', 'cc\tcccc', 'd\te']
    expect(recordWarnings(added, limits)).toEqual(['aaaaa', 'bbbbb'])
  })
})

// What net.NewWarningHeader refuses (k8s.io/apimachinery pkg/util/net/http.go: a rune for which
// unicode.IsControl holds, or text that is not valid UTF-8): C0, DEL and C1 controls, and a lone surrogate (a
// JavaScript string's stand-in for invalid UTF-8); a surrogate pair is one valid rune.
describe('warnings a header cannot carry', () => {
  const rows: [string, string, boolean][] = [
    ['tab (C0)', 'a\tb', false],
    ['NUL', '\u0000x', false],
    ['unit separator, the last C0', 'x\u001f', false],
    ['DEL', 'x\u007f', false],
    ['NEL (C1)', 'y\u0085', false],
    ['APC, the last C1', 'y\u009f', false],
    ['NBSP, past C1', 'y\u00a0z', true],
    ['a lone high surrogate at the end', 'hi\ud800', false],
    ['a lone high surrogate before ASCII', '\ud800hi', false],
    ['a lone low surrogate', '\udc00lo', false],
    ['two high surrogates', '\ud83d\ud83d', false],
    ['a surrogate pair', 'pair \ud83d\ude00', true],
    ['a pair at the very end', 'end\ud83d\ude00', true],
  ]
  for (const [name, text, sent] of rows)
    it(name, () => expect(recordWarnings(['ok', text])).toEqual(sent ? ['ok', text] : ['ok']))
})
