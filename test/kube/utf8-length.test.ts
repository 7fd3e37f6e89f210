import { describe, expect, it } from 'vitest'
import { utf8Length } from '../../src/kube/validation/utf8.js'

// Go's len(s) on the UTF-8 encoding of a JS string (a lone surrogate is written as U+FFFD, 3 bytes), against
// Node's own UTF-8 encoder, on both sides of utf8Length's ASCII shortcut (strings longer than 8 units that
// hold no unit from U+0080 on) and of its byte-count boundaries.
describe('utf8Length is the byte length of the UTF-8 encoding', () => {
  const pad = 'abcdefghij'
  const cases = [
    '',
    'a',
    'abcdefgh',
    pad,
    `${pad}\u007f`,
    `${pad}\u0080`,
    `${pad}é`,
    `${pad}\u07ff\u0800`,
    `${pad}€`,
    `${pad}\uffff`,
    `${pad}😀`,
    `😀${pad}`,
    `${pad}\ud800`,
    `${pad}\udc00x`,
    `\ud83d${pad}`,
    'x'.repeat(10_000),
    `${'x'.repeat(10_000)}é`,
  ]
  for (const s of cases)
    it(`${JSON.stringify(s).slice(0, 30)} (${s.length} units)`, () => {
      expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'))
    })
})
