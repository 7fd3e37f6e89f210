import { T } from './tokens.js'

// A hand-written lexer equivalent to cel-go's ANTLR lexer (parser/gen/CEL.g4):
// longest match with fallback to the last accepted prefix, and ANTLR's error behaviour when no
// prefix is accepted: report "token recognition error at: '<text>'" where <text> runs from the
// token start through the first character that could not be consumed, then resume after it.
// Tokens go to parallel typed arrays (kind, start, end as UTF-16 offsets); the whole input is
// lexed up front, which is cheaper than ANTLR's lazy token stream for CEL-sized inputs.

export class TokenBuffer {
  kinds = new Uint8Array(64)
  starts = new Int32Array(64)
  ends = new Int32Array(64)
  count = 0
  /** Lexer errors: offset of the failed token and the text ANTLR's error shows. */
  errOffsets: number[] = []
  errTexts: string[] = []

  reset(): void {
    this.count = 0
    if (this.errOffsets.length > 0) {
      this.errOffsets = []
      this.errTexts = []
    }
  }

  push(kind: number, start: number, end: number): void {
    const n = this.count
    if (n === this.kinds.length) this.grow()
    this.kinds[n] = kind
    this.starts[n] = start
    this.ends[n] = end
    this.count = n + 1
  }

  private grow(): void {
    const cap = this.kinds.length * 2
    const k = new Uint8Array(cap)
    k.set(this.kinds)
    const s = new Int32Array(cap)
    s.set(this.starts)
    const e = new Int32Array(cap)
    e.set(this.ends)
    this.kinds = k
    this.starts = s
    this.ends = e
  }
}

// Character classes for ASCII (index < 128).
const C_IDSTART = 1
const C_IDPART = 2
const C_DIGIT = 4
const C_HEX = 8
const C_ESCID = 16 // allowed inside `...` escaped identifiers
const CLASS = (() => {
  const t = new Uint8Array(128)
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c)
    if (/[A-Za-z_]/.test(ch)) t[c]! |= C_IDSTART | C_IDPART | C_ESCID
    if (/[0-9]/.test(ch)) t[c]! |= C_IDPART | C_DIGIT | C_ESCID
    if (/[0-9a-fA-F]/.test(ch)) t[c]! |= C_HEX
    if (/[.\- /]/.test(ch)) t[c]! |= C_ESCID
  }
  return t
})()

function is(c: number, cls: number): boolean {
  return c < 128 && (CLASS[c]! & cls) !== 0
}

/** Width in UTF-16 units of the code point starting at i. */
function cpWidth(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1)
    if (d >= 0xdc00 && d <= 0xdfff) return 2
  }
  return 1
}

/**
 * Scans an escape sequence starting at the backslash at j. Returns the index after it, or
 * -(k + 1) where k is the index of the first character that does not fit ESC_SEQ.
 */
function scanEscape(text: string, j: number): number {
  const n = text.length
  const k = j + 1
  if (k >= n) return -(n + 1)
  const c = text.charCodeAt(k)
  switch (c) {
    case 0x61: // a b f n r t v " ' \ ? `
    case 0x62:
    case 0x66:
    case 0x6e:
    case 0x72:
    case 0x74:
    case 0x76:
    case 0x22:
    case 0x27:
    case 0x5c:
    case 0x3f:
    case 0x60:
      return k + 1
    case 0x30: // \[0-3][0-7][0-7]
    case 0x31:
    case 0x32:
    case 0x33:
      for (let m = k + 1; m <= k + 2; m++) {
        const d = m < n ? text.charCodeAt(m) : -1
        if (d < 0x30 || d > 0x37) return -(Math.min(m, n) + 1)
      }
      return k + 3
    case 0x78: // \x \X HH
    case 0x58:
      return scanHex(text, k + 1, 2)
    case 0x75: // \u HHHH
      return scanHex(text, k + 1, 4)
    case 0x55: // \U HHHHHHHH
      return scanHex(text, k + 1, 8)
    default:
      return -(k + 1)
  }
}

function scanHex(text: string, from: number, count: number): number {
  const n = text.length
  for (let m = from; m < from + count; m++) {
    if (m >= n) return -(n + 1)
    if (!is(text.charCodeAt(m), C_HEX)) return -(m + 1)
  }
  return from + count
}

/**
 * Scans a quoted string whose opening quote is at q. Returns the end index (exclusive) or
 * -(k + 1) with k the failing index. A failed triple-quoted string falls back to the empty
 * string formed by its first two quotes, the longest prefix ANTLR accepted.
 */
function scanQuoted(text: string, q: number, raw: boolean): number {
  const n = text.length
  const qc = text.charCodeAt(q)
  if (q + 2 < n && text.charCodeAt(q + 1) === qc && text.charCodeAt(q + 2) === qc) {
    let j = q + 3
    while (j < n) {
      const c = text.charCodeAt(j)
      if (c === qc && j + 2 < n && text.charCodeAt(j + 1) === qc && text.charCodeAt(j + 2) === qc) return j + 3
      if (c === 0x5c && !raw) {
        const r = scanEscape(text, j)
        if (r < 0) return q + 2
        j = r
      } else j++
    }
    return q + 2
  }
  let j = q + 1
  while (j < n) {
    const c = text.charCodeAt(j)
    if (c === qc) return j + 1
    if (c === 0x0a || c === 0x0d) return -(j + 1)
    if (c === 0x5c && !raw) {
      const r = scanEscape(text, j)
      if (r < 0) return r
      j = r
    } else j++
  }
  return -(n + 1)
}

/** Tokenizes `text` into `out` (which is reset first); always ends with an EOF token. */
export function lex(text: string, out: TokenBuffer): void {
  out.reset()
  const n = text.length
  let i = 0
  // Records a lexer error for a token starting at `start` that failed at index `f`.
  const fail = (start: number, f: number): number => {
    const end = f < n ? f + cpWidth(text, f) : n
    out.errOffsets.push(start)
    // the text as it is: Go's ANTLR runtime (antlr4-go v4.13 BaseLexer.notifyListeners) does not escape
    // newlines and tabs as Java's Lexer.getErrorDisplay does
    out.errTexts.push(text.slice(start, end))
    return end
  }
  while (i < n) {
    const c = text.charCodeAt(i)
    const start = i
    switch (c) {
      case 0x09:
      case 0x0a:
      case 0x0c:
      case 0x0d:
      case 0x20:
        i++
        continue
      case 0x28:
        out.push(T.LPAREN, i, ++i)
        continue
      case 0x29:
        out.push(T.RPAREN, i, ++i)
        continue
      case 0x5b:
        out.push(T.LBRACKET, i, ++i)
        continue
      case 0x5d:
        out.push(T.RBRACKET, i, ++i)
        continue
      case 0x7b:
        out.push(T.LBRACE, i, ++i)
        continue
      case 0x7d:
        out.push(T.RBRACE, i, ++i)
        continue
      case 0x2c:
        out.push(T.COMMA, i, ++i)
        continue
      case 0x2d:
        out.push(T.MINUS, i, ++i)
        continue
      case 0x3f:
        out.push(T.QUESTION, i, ++i)
        continue
      case 0x3a:
        out.push(T.COLON, i, ++i)
        continue
      case 0x2b:
        out.push(T.PLUS, i, ++i)
        continue
      case 0x2a:
        out.push(T.STAR, i, ++i)
        continue
      case 0x25:
        out.push(T.PERCENT, i, ++i)
        continue
      case 0x3d: // ==
        if (text.charCodeAt(i + 1) === 0x3d) out.push(T.EQUALS, i, (i += 2))
        else i = fail(start, i + 1)
        continue
      case 0x21: // ! !=
        if (text.charCodeAt(i + 1) === 0x3d) out.push(T.NOT_EQUALS, i, (i += 2))
        else out.push(T.EXCLAM, i, ++i)
        continue
      case 0x3c: // < <=
        if (text.charCodeAt(i + 1) === 0x3d) out.push(T.LESS_EQUALS, i, (i += 2))
        else out.push(T.LESS, i, ++i)
        continue
      case 0x3e: // > >=
        if (text.charCodeAt(i + 1) === 0x3d) out.push(T.GREATER_EQUALS, i, (i += 2))
        else out.push(T.GREATER, i, ++i)
        continue
      case 0x26: // &&
        if (text.charCodeAt(i + 1) === 0x26) out.push(T.LOGICAL_AND, i, (i += 2))
        else i = fail(start, i + 1)
        continue
      case 0x7c: // ||
        if (text.charCodeAt(i + 1) === 0x7c) out.push(T.LOGICAL_OR, i, (i += 2))
        else i = fail(start, i + 1)
        continue
      case 0x2f: // / or // comment
        if (text.charCodeAt(i + 1) === 0x2f) {
          i += 2
          while (i < n && text.charCodeAt(i) !== 0x0a) i++
        } else out.push(T.SLASH, i, ++i)
        continue
      case 0x2e: // . or .5
        if (is(text.charCodeAt(i + 1), C_DIGIT)) i = lexNumberFrac(text, i, out)
        else out.push(T.DOT, i, ++i)
        continue
      case 0x22:
      case 0x27: {
        const r = scanQuoted(text, i, false)
        if (r < 0) i = fail(start, -r - 1)
        else out.push(T.STRING, i, (i = r))
        continue
      }
      case 0x60: {
        // `escaped identifier`
        let j = i + 1
        while (j < n && is(text.charCodeAt(j), C_ESCID)) j++
        if (j > i + 1 && j < n && text.charCodeAt(j) === 0x60) out.push(T.ESC_IDENTIFIER, i, (i = j + 1))
        else i = fail(start, j)
        continue
      }
    }
    if (is(c, C_DIGIT)) {
      i = lexNumber(text, i, out)
      continue
    }
    if (is(c, C_IDSTART)) {
      i = lexWord(text, i, out)
      continue
    }
    i = fail(start, i)
  }
  out.push(T.EOF, n, n)
}

function lexWord(text: string, i: number, out: TokenBuffer): number {
  const n = text.length
  const c = text.charCodeAt(i)
  // String prefixes: r"", b"", br"" (any case), tried before the identifier they start with.
  if (c === 0x72 || c === 0x52 || c === 0x62 || c === 0x42) {
    const c1 = text.charCodeAt(i + 1)
    const isB = c === 0x62 || c === 0x42
    let q = -1
    let raw = !isB
    if (c1 === 0x22 || c1 === 0x27) q = i + 1
    else if (isB && (c1 === 0x72 || c1 === 0x52)) {
      const c2 = text.charCodeAt(i + 2)
      if (c2 === 0x22 || c2 === 0x27) {
        q = i + 2
        raw = true
      }
    }
    if (q > 0) {
      const r = scanQuoted(text, q, raw)
      if (r > 0) {
        out.push(isB ? T.BYTES : T.STRING, i, r)
        return r
      }
      // Unterminated: fall back to the identifier prefix (`r`, `b`, `br`).
      out.push(T.IDENTIFIER, i, q)
      return q
    }
  }
  let j = i + 1
  while (j < n && is(text.charCodeAt(j), C_IDPART)) j++
  const len = j - i
  let kind: number = T.IDENTIFIER
  if (len === 2 && c === 0x69 && text.charCodeAt(i + 1) === 0x6e) kind = T.IN
  else if (len === 4 && text.startsWith('true', i)) kind = T.TRUE
  else if (len === 4 && text.startsWith('null', i)) kind = T.NULL
  else if (len === 5 && text.startsWith('false', i)) kind = T.FALSE
  out.push(kind, i, j)
  return j
}

function digitsEnd(text: string, j: number): number {
  while (j < text.length && is(text.charCodeAt(j), C_DIGIT)) j++
  return j
}

/** Index after an exponent starting at j, or j when there is no complete exponent there. */
function exponentEnd(text: string, j: number): number {
  const e = text.charCodeAt(j)
  if (e !== 0x65 && e !== 0x45) return j
  let k = j + 1
  const s = text.charCodeAt(k)
  if (s === 0x2b || s === 0x2d) k++
  if (!is(text.charCodeAt(k), C_DIGIT)) return j
  return digitsEnd(text, k)
}

function lexNumber(text: string, i: number, out: TokenBuffer): number {
  if (text.charCodeAt(i) === 0x30 && text.charCodeAt(i + 1) === 0x78 && is(text.charCodeAt(i + 2), C_HEX)) {
    let j = i + 2
    while (j < text.length && is(text.charCodeAt(j), C_HEX)) j++
    const u = text.charCodeAt(j)
    if (u === 0x75 || u === 0x55) out.push(T.NUM_UINT, i, j + 1)
    else out.push(T.NUM_INT, i, j)
    return u === 0x75 || u === 0x55 ? j + 1 : j
  }
  const j = digitsEnd(text, i)
  const c = text.charCodeAt(j)
  if (c === 0x2e && is(text.charCodeAt(j + 1), C_DIGIT)) {
    const end = exponentEnd(text, digitsEnd(text, j + 1))
    out.push(T.NUM_FLOAT, i, end)
    return end
  }
  const e = exponentEnd(text, j)
  if (e > j) {
    out.push(T.NUM_FLOAT, i, e)
    return e
  }
  if (c === 0x75 || c === 0x55) {
    out.push(T.NUM_UINT, i, j + 1)
    return j + 1
  }
  out.push(T.NUM_INT, i, j)
  return j
}

/** `.5`, `.5e3`: the dot at i is followed by a digit. */
function lexNumberFrac(text: string, i: number, out: TokenBuffer): number {
  const end = exponentEnd(text, digitsEnd(text, i + 1))
  out.push(T.NUM_FLOAT, i, end)
  return end
}
