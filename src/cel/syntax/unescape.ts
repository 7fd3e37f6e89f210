// String and bytes literal decoding, as cel-go's parser/unescape.go: newlines normalised to \n,
// r/R prefix = raw, '''/""" triple quotes, escapes \a \b \f \n \r \t \v \\ \' \" \` \?,
// octal \[0-3][0-7][0-7], \xHH, \uHHHH, \UHHHHHHHH. In strings numeric escapes are code points;
// in bytes \x and octal are bytes and \u / \U are rejected. Errors are cel-go's messages.

const SIMPLE: Record<number, number> = {
  97: 7, // \a
  98: 8, // \b
  102: 12, // \f
  110: 10, // \n
  114: 13, // \r
  116: 9, // \t
  118: 11, // \v
  92: 0x5c,
  39: 0x27,
  34: 0x22,
  96: 0x60,
  63: 0x3f,
}

export class UnescapeError {
  constructor(readonly message: string) {}
}

/** Strips the quotes (and r prefix); returns the body and whether it is raw. */
function body(token: string): { text: string; raw: boolean } {
  let v = token
  if (v.indexOf('\r') >= 0) v = v.replace(/\r\n?/g, '\n')
  let raw = false
  const c = v.charCodeAt(0)
  if (c === 0x72 || c === 0x52) {
    v = v.slice(1)
    raw = true
  }
  const n = v.length
  if (n < 2 || v[0] !== v[n - 1] || (v[0] !== '"' && v[0] !== "'")) throw new UnescapeError('unable to unescape string')
  if (n >= 6 && (v.startsWith("'''") || v.startsWith('"""'))) return { text: v.slice(3, n - 3), raw }
  return { text: v.slice(1, n - 1), raw }
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10
  return -1
}

/**
 * Decodes one escape at s[i] === '\\'. Returns the value and the index after the escape;
 * `isByte` tells whether the value is a raw byte (bytes literal \x / octal).
 */
function escape(s: string, i: number, isBytes: boolean): { value: number; next: number; isByte: boolean } {
  if (i + 1 >= s.length) throw new UnescapeError("unable to unescape string, found '\\' as last character")
  const c = s.charCodeAt(i + 1)
  const simple = SIMPLE[c]
  if (simple !== undefined) return { value: simple, next: i + 2, isByte: false }
  let n = 0
  switch (c) {
    case 0x78:
    case 0x58:
      n = 2
      break
    case 0x75:
      n = 4
      break
    case 0x55:
      n = 8
      break
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33: {
      if (i + 4 > s.length) throw new UnescapeError('unable to unescape octal sequence in string')
      let v = c - 0x30
      for (let j = i + 2; j < i + 4; j++) {
        const d = s.charCodeAt(j)
        if (d < 0x30 || d > 0x37) throw new UnescapeError('unable to unescape octal sequence in string')
        v = v * 8 + (d - 0x30)
      }
      return { value: v, next: i + 4, isByte: isBytes }
    }
    default:
      throw new UnescapeError('unable to unescape string')
  }
  if (isBytes && n > 2) throw new UnescapeError('unable to unescape string')
  if (i + 2 + n > s.length) throw new UnescapeError('unable to unescape string')
  let v = 0
  for (let j = i + 2; j < i + 2 + n; j++) {
    const h = hexVal(s.charCodeAt(j))
    if (h < 0) throw new UnescapeError('unable to unescape string')
    v = v * 16 + h
  }
  if (!isBytes && (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))) throw new UnescapeError('invalid unicode code point')
  return { value: v, next: i + 2 + n, isByte: isBytes && n === 2 }
}

/** Decodes a STRING token's text (quotes included) to its value. */
export function unescapeString(token: string): string {
  const { text, raw } = body(token)
  if (raw || text.indexOf('\\') < 0) return text
  let out = ''
  let from = 0
  let i = text.indexOf('\\')
  while (i >= 0) {
    out += text.slice(from, i)
    const e = escape(text, i, false)
    out += String.fromCodePoint(e.value)
    from = e.next
    i = text.indexOf('\\', from)
  }
  return out + text.slice(from)
}

const encoder = new TextEncoder()

/** Decodes a BYTES token's text (b prefix and quotes included) to its value. */
export function unescapeBytes(token: string): Uint8Array {
  const { text, raw } = body(token.slice(1))
  if (raw || text.indexOf('\\') < 0) return encoder.encode(text)
  const out: number[] = []
  let from = 0
  let i = text.indexOf('\\')
  const pushUtf8 = (s: string) => {
    for (const b of encoder.encode(s)) out.push(b)
  }
  while (i >= 0) {
    if (i > from) pushUtf8(text.slice(from, i))
    const e = escape(text, i, true)
    if (e.isByte || e.value < 0x80) out.push(e.value)
    else pushUtf8(String.fromCodePoint(e.value))
    from = e.next
    i = text.indexOf('\\', from)
  }
  if (from < text.length) pushUtf8(text.slice(from))
  return Uint8Array.from(out)
}
