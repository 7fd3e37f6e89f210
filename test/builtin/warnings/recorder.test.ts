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
})
