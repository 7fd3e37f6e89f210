import { describe, expect, it } from 'vitest'
import { trimSpace } from '../../../src/policy/validating/validator.js'

// Go strings.TrimSpace (the validator trims every message: validator.go), the cases of Go's
// src/strings/strings_test.go trimSpaceTests that a JavaScript string can hold (the invalid UTF-8 ones cannot).
const space = '\t\v\r\f\n\u0085\u00a0\u2000\u3000'
const cases: [string, string][] = [
  ['', ''],
  ['  a', 'a'],
  ['b  ', 'b'],
  ['abc', 'abc'],
  [`${space}abc${space}`, 'abc'],
  [' ', ''],
  ['\u3000 ', ''],
  [' \u3000', ''],
  [' \t\r\n \t\t\r\r\n\n ', ''],
  [' \t\r\n x\t\t\r\r\n\n ', 'x'],
  [' \u2000\t\r\n x\t\t\r\r\ny\n \u3000', 'x\t\t\r\r\ny'],
  ['1 \t\r\n2', '1 \t\r\n2'],
  ['x ☺ ', 'x ☺'],
]

describe('trimSpace (Go strings.TrimSpace)', () => {
  it.each(cases)('%j', (input, want) => {
    expect(trimSpace(input)).toBe(want)
  })
  it('keeps what Go keeps at the ends: U+FEFF is no space to Go (JavaScript trim() removes it)', () => {
    expect(trimSpace('\ufeffa\ufeff')).toBe('\ufeffa\ufeff')
    expect(trimSpace('~a!')).toBe('~a!')
    expect(trimSpace('\u007fa')).toBe('\u007fa')
  })
})
