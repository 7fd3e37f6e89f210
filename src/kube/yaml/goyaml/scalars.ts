import { asHex, isBlank, isBlankZ, isBreak, isBreakZ, isDigit, isHex } from './chars.js'
import type { Reader } from './reader.js'
import { copyMark, type Mark } from './types.js'

// go-yaml v2's scalar scanners (scannerc.go yaml_parser_scan_block_scalar, yaml_parser_scan_flow_scalar,
// yaml_parser_scan_plain_scalar): the same moves over the text, the same buffer requests (cache), the same
// errors; the value they build is left out (nothing here needs it, and none of go-yaml's decisions depend on
// it). Each leaves the reader after its scalar, or returns false (undefined) with the reader's problem set.

const SPACE = 0x20
const TAB = 0x09
const HASH = 0x23
const PLUS = 0x2b
const MINUS = 0x2d
const ZERO = 0x30

/** yaml_parser_scan_block_scalar: `|` or `>`, its indicators, then its lines. */
export function scanBlockScalar(r: Reader, parserIndent: number): boolean {
  const start = copyMark(r.mark)
  r.skip()
  if (!r.cache(1)) return false
  // the chomping and indentation indicators, in either order
  let increment = 0
  const c = r.c
  if (c === PLUS || c === MINUS) {
    r.skip()
    if (!r.cache(1)) return false
    const d = r.c
    if (isDigit(d)) {
      if (d === ZERO) return zeroIndicator(r, start)
      increment = d - ZERO
      r.skip()
    }
  } else if (isDigit(c)) {
    if (c === ZERO) return zeroIndicator(r, start)
    increment = c - ZERO
    r.skip()
    if (!r.cache(1)) return false
    const d = r.c
    if (d === PLUS || d === MINUS) r.skip()
  }
  // blanks and a comment to the end of the line
  if (!r.cache(1)) return false
  while (isBlank(r.c)) {
    r.skip()
    if (!r.cache(1)) return false
  }
  if (r.c === HASH) {
    while (!isBreakZ(r.c)) {
      r.skip()
      if (!r.cache(1)) return false
    }
  }
  if (!isBreakZ(r.c)) {
    return r.error('while scanning a block scalar', start, 'did not find expected comment or line break')
  }
  if (isBreak(r.c)) {
    if (!r.cache(2)) return false
    r.skipLine()
  }
  let indent = 0
  if (increment > 0) indent = parserIndent >= 0 ? parserIndent + increment : increment
  indent = scanBlockScalarBreaks(r, indent, parserIndent, start)
  if (indent < 0) return false
  if (!r.cache(1)) return false
  // the lines at the scalar's indentation
  while (r.mark.column === indent && r.c !== 0) {
    while (!isBreakZ(r.c)) {
      r.skip()
      if (!r.cache(1)) return false
    }
    if (!r.cache(2)) return false
    r.readLine()
    indent = scanBlockScalarBreaks(r, indent, parserIndent, start)
    if (indent < 0) return false
  }
  return true
}

const zeroIndicator = (r: Reader, start: Mark): false =>
  r.error('while scanning a block scalar', start, 'found an indentation indicator equal to 0')

/**
 * yaml_parser_scan_block_scalar_breaks: the indentation spaces and empty lines before a line of the scalar;
 * the indentation (found from the most indented of these lines when not yet known), or -1 on an error.
 */
function scanBlockScalarBreaks(r: Reader, indent: number, parserIndent: number, start: Mark): number {
  let maxIndent = 0
  for (;;) {
    if (!r.cache(1)) return -1
    while ((indent === 0 || r.mark.column < indent) && r.c === SPACE) {
      r.skip()
      if (!r.cache(1)) return -1
    }
    if (r.mark.column > maxIndent) maxIndent = r.mark.column
    if ((indent === 0 || r.mark.column < indent) && r.c === TAB) {
      r.error('while scanning a block scalar', start, 'found a tab character where an indentation space is expected')
      return -1
    }
    if (!isBreak(r.c)) break
    if (!r.cache(2)) return -1
    r.readLine()
  }
  if (indent === 0) {
    indent = maxIndent
    if (indent < parserIndent + 1) indent = parserIndent + 1
    if (indent < 1) indent = 1
  }
  return indent
}

/** The escapes go-yaml v2 knows after `\` in a double-quoted scalar, with the hex digits each takes. */
const ESCAPES = new Map<number, number>([
  ...[...'0abt\tnvfre "\'\\N_LP'].map((ch): [number, number] => [ch.charCodeAt(0), 0]),
  [0x78 /* x */, 2],
  [0x75 /* u */, 4],
  [0x55 /* U */, 8],
])

/** Whether the current line starts with `---` or `...` and a blank, a break or the end. */
export function atDocumentIndicator(r: Reader): boolean {
  if (r.mark.column !== 0) return false
  const c = r.c
  return (c === MINUS || c === 0x2e) && r.at(1) === c && r.at(2) === c && isBlankZ(r.at(3))
}

/** yaml_parser_scan_flow_scalar: a single- or double-quoted scalar. */
export function scanFlowScalar(r: Reader, single: boolean): boolean {
  const start = copyMark(r.mark)
  const quote = single ? 0x27 : 0x22
  r.skip()
  for (;;) {
    if (!r.cache(4)) return false
    if (atDocumentIndicator(r)) {
      return r.error('while scanning a quoted scalar', start, 'found unexpected document indicator')
    }
    if (r.c === 0) return r.error('while scanning a quoted scalar', start, 'found unexpected end of stream')
    // non-blank characters
    while (!isBlankZ(r.c)) {
      const c = r.c
      if (single && c === 0x27 && r.at(1) === 0x27) {
        // an escaped single quote
        r.skip()
        r.skip()
      } else if (c === quote) {
        break
      } else if (!single && c === 0x5c && isBreak(r.at(1))) {
        // an escaped line break
        if (!r.cache(3)) return false
        r.skip()
        r.skipLine()
        break
      } else if (!single && c === 0x5c) {
        const codeLength = ESCAPES.get(r.at(1))
        if (codeLength === undefined)
          return r.error('while parsing a quoted scalar', start, 'found unknown escape character')
        r.skip()
        r.skip()
        if (codeLength > 0) {
          if (!r.cache(codeLength)) return false
          let value = 0
          for (let k = 0; k < codeLength; k++) {
            if (!isHex(r.at(k))) {
              return r.error('while parsing a quoted scalar', start, 'did not find expected hexdecimal number')
            }
            value = value * 16 + asHex(r.at(k))
          }
          if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
            return r.error('while parsing a quoted scalar', start, 'found invalid Unicode character escape code')
          }
          for (let k = 0; k < codeLength; k++) r.skip()
        }
      } else {
        r.skip()
      }
      if (!r.cache(2)) return false
    }
    if (!r.cache(1)) return false
    if (r.c === quote) break
    // blanks and line breaks
    while (isBlank(r.c) || isBreak(r.c)) {
      if (isBlank(r.c)) r.skip()
      else {
        if (!r.cache(2)) return false
        r.readLine()
      }
      if (!r.cache(1)) return false
    }
  }
  // the right quote
  r.skip()
  return true
}

/** The characters that end a plain scalar in the flow context. */
const FLOW_ENDERS = new Set([...',?[]{}'].map((ch) => ch.charCodeAt(0)))

/**
 * yaml_parser_scan_plain_scalar: whether the scalar ended past a line break (go-yaml's leading_blanks, after
 * which a simple key may follow), or undefined on an error.
 */
export function scanPlainScalar(r: Reader, parserIndent: number, flowLevel: number): boolean | undefined {
  const start = copyMark(r.mark)
  const indent = parserIndent + 1
  let leadingBlanks = false
  for (;;) {
    if (!r.cache(4)) return undefined
    if (atDocumentIndicator(r)) break
    if (r.c === HASH) break
    // non-blank characters
    while (!isBlankZ(r.c)) {
      const c = r.c
      if ((c === 0x3a && isBlankZ(r.at(1))) || (flowLevel > 0 && FLOW_ENDERS.has(c))) break
      // (the blanks before it join the scalar)
      leadingBlanks = false
      r.skip()
      if (!r.cache(2)) return undefined
    }
    if (!(isBlank(r.c) || isBreak(r.c))) break
    // blanks and line breaks
    if (!r.cache(1)) return undefined
    while (isBlank(r.c) || isBreak(r.c)) {
      if (isBlank(r.c)) {
        if (leadingBlanks && r.mark.column < indent && r.c === TAB) {
          r.error('while scanning a plain scalar', start, 'found a tab character that violates indentation')
          return undefined
        }
        r.skip()
      } else {
        if (!r.cache(2)) return undefined
        r.readLine()
        leadingBlanks = true
      }
      if (!r.cache(1)) return undefined
    }
    // in the block context, a line less indented ends the scalar
    if (flowLevel === 0 && r.mark.column < indent) break
  }
  return leadingBlanks
}
