// encoding/json's syntax check (scanner.go's states and messages), for the errors Kubernetes reports in its words:
// json.Unmarshal's (checkValid: one value, then only white space) and the stream Decoder's that kubectl's
// YAMLOrJSONDecoder uses (stream.go readValue: a value, then whatever follows). Asked where a text was refused
// (JSON.parse failed, or an annotation's value is checked), so it walks the text once, character by character,
// as Go's scanner walks bytes.

const MAX_DEPTH = 10000 // scanner.go maxNestingDepth

export type GoJSONScan =
  /** The value ends before `end` (a number at the character that ends it, as the Decoder's delayed scanEnd). */
  | { readonly end: number }
  /** A SyntaxError: its text (`invalid character 'x' …`), the refused character's offset and Go's byte offset. */
  | { readonly error: string; readonly at: number; readonly offset: number }
  /** The text ends inside the value; and the scanner's error for a space there, if it gives one (eof()). */
  | { readonly eof: true; readonly spaceError?: string }

type Step = (c: number) => Step | string | undefined

/** Go's scanner over the JSON value starting at `pos` (after any white space) of `text`. */
export function scanGoJSON(text: string, pos: number): GoJSONScan {
  // the parse states of open objects and arrays: 0 an object's key, 1 an object's value, 2 an array's element
  const stack: number[] = []
  // the value ended: on the character after it (a number, string or literal), or on its own closing one
  let done = false
  let closed = false

  const push = (state: number, next: Step): Step | string => {
    stack.push(state)
    return stack.length > MAX_DEPTH ? 'exceeded max depth' : next
  }
  const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13

  const beginValue: Step = (c) => {
    if (isSpace(c)) return beginValue
    if (c === 123) return push(0, beginStringOrEmpty)
    if (c === 91) return push(2, beginValueOrEmpty)
    if (c === 34) return inString
    if (c === 45) return neg
    if (c === 48) return zero
    if (c >= 49 && c <= 57) return digits
    if (c === 116) return literal('true', 1)
    if (c === 102) return literal('false', 1)
    if (c === 110) return literal('null', 1)
    return 'looking for beginning of value'
  }
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return beginValueOrEmpty
    if (c === 93) return endValue(c)
    return beginValue(c)
  }
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return beginStringOrEmpty
    if (c === 125) {
      stack[stack.length - 1] = 1
      return endValue(c)
    }
    return beginString(c)
  }
  const beginString: Step = (c) => {
    if (isSpace(c)) return beginString
    if (c === 34) return inString
    return 'looking for beginning of object key string'
  }
  // after a value (stateEndValue): what its parent wants next
  const endValue: Step = (c) => {
    const n = stack.length
    if (n === 0) {
      done = true
      return undefined
    }
    if (isSpace(c)) return endValue
    const state = stack[n - 1]
    if (state === 0) {
      if (c !== 58) return 'after object key'
      stack[n - 1] = 1
      return beginValue
    }
    if (state === 1) {
      if (c === 44) {
        stack[n - 1] = 0
        return beginString
      }
      if (c === 125) return pop()
      return 'after object key:value pair'
    }
    if (c === 44) return beginValue
    if (c === 93) return pop()
    return 'after array element'
  }
  const pop = (): Step | undefined => {
    stack.pop()
    if (stack.length > 0) return endValue
    // an object or array at the top ends the value here (the Decoder's invented space)
    done = true
    closed = true
    return undefined
  }
  const inString: Step = (c) => {
    if (c === 34) return endValue
    if (c === 92) return escape
    if (c < 0x20) return 'in string literal'
    return inString
  }
  const escape: Step = (c) => {
    if (c === 117) return hex(4)
    // b f n r t \ / "
    if (c === 98 || c === 102 || c === 110 || c === 114 || c === 116 || c === 92 || c === 47 || c === 34)
      return inString
    return 'in string escape code'
  }
  const hex =
    (left: number): Step =>
    (c) => {
      if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)))
        return 'in \\u hexadecimal character escape'
      return left === 1 ? inString : hex(left - 1)
    }
  const neg: Step = (c) => {
    if (c === 48) return zero
    if (c >= 49 && c <= 57) return digits
    return 'in numeric literal'
  }
  const digits: Step = (c) => (c >= 48 && c <= 57 ? digits : zero(c))
  const zero: Step = (c) => {
    if (c === 46) return dot
    if (c === 101 || c === 69) return exponent
    return endValue(c)
  }
  const dot: Step = (c) => (c >= 48 && c <= 57 ? fraction : 'after decimal point in numeric literal')
  const fraction: Step = (c) => {
    if (c >= 48 && c <= 57) return fraction
    if (c === 101 || c === 69) return exponent
    return endValue(c)
  }
  const exponent: Step = (c) => (c === 43 || c === 45 ? exponentSign : exponentSign(c))
  const exponentSign: Step = (c) => (c >= 48 && c <= 57 ? exponentDigits : 'in exponent of numeric literal')
  const exponentDigits: Step = (c) => (c >= 48 && c <= 57 ? exponentDigits : endValue(c))
  const literal =
    (word: string, i: number): Step =>
    (c) => {
      if (c !== word.charCodeAt(i)) return `in literal ${word} (expecting '${word[i]}')`
      return i + 1 === word.length ? endValue : literal(word, i + 1)
    }

  let step: Step = beginValue
  for (let at = pos; at < text.length; at++) {
    const next = step(text.charCodeAt(at))
    if (typeof next === 'string') {
      const c = text.codePointAt(at) ?? 0
      return {
        error: `invalid character ${quoteChar(c)} ${next}`,
        at,
        // the bytes scanned since the text's start, through this one (its first byte, for a wider character)
        offset: Buffer.byteLength(text.slice(0, at)) + 1,
      }
    }
    if (next === undefined) return { end: closed ? at + 1 : at }
    step = next
  }
  // the text's end: a value ends there only if a space would end it (readValue's and eof()'s step with ' ')
  const last = step(32)
  if (done) return { end: text.length }
  return typeof last === 'string' ? { eof: true, spaceError: `invalid character ' ' ${last}` } : { eof: true }
}

/**
 * json.Unmarshal's syntax error for `text`, or undefined where it is one JSON value with only white space around it
 * (checkValid): `unexpected end of JSON input`, `invalid character … after top-level value`, or the scanner's.
 */
export function goJSONUnmarshalSyntaxError(text: string): string | undefined {
  const r = scanGoJSON(text, 0)
  if ('eof' in r) return r.spaceError ?? 'unexpected end of JSON input'
  if ('error' in r) return r.error
  for (let i = r.end; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13)
      return `invalid character ${quoteChar(text.codePointAt(i) ?? 0)} after top-level value`
  }
  return undefined
}

/** scanner.go quoteChar: the byte (a wider character's first) as Go quotes a rune of its value. */
function quoteChar(code: number): string {
  const b = code < 0x80 ? code : (Buffer.from(String.fromCodePoint(code))[0] ?? code)
  if (b === 39) return "'\\''"
  if (b === 34) return `'"'`
  return `'${goQuoteRune(b)}'`
}

const NAMED: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  11: '\\v',
}

/** strconv.Quote of a byte's rune (below U+0080, or a first byte), without its quotes. */
function goQuoteRune(r: number): string {
  if (r === 92) return '\\\\'
  const named = NAMED[r]
  if (named !== undefined) return named
  if (r < 0x20 || r === 0x7f) return `\\x${r.toString(16).padStart(2, '0')}`
  // (a wider character's first byte is 0xC2-0xF4: a printable Latin-1 letter, `é` quoted 'Ã')
  return String.fromCharCode(r)
}
