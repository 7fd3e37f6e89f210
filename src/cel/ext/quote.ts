// Quoting: cel-go's `strings.quote` (ext/strings.go `quote`) and Go's `strconv.Quote` (the `%q` verb),
// which string.format uses to print strings and bytes inside lists and maps.

// Code units that need work in strings.quote: the escaped ASCII controls (\a..\r), `"`, `\` and surrogates.
const CEL_QUOTE_SPECIAL = /[\x07-\x0d"\\\uD800-\uDFFF]/

/**
 * `strings.quote(s)`: wraps `s` in double quotes, escaping `\a \b \f \n \r \t \v \\ \"`; every other
 * character is kept as is. Invalid code points (lone surrogates here, invalid UTF-8 in Go) become U+FFFD.
 */
export function celQuote(s: string): string {
  if (!CEL_QUOTE_SPECIAL.test(s)) return `"${s}"`
  let out = '"'
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    let rep: string | undefined
    switch (c) {
      case 0x07:
        rep = '\\a'
        break
      case 0x08:
        rep = '\\b'
        break
      case 0x09:
        rep = '\\t'
        break
      case 0x0a:
        rep = '\\n'
        break
      case 0x0b:
        rep = '\\v'
        break
      case 0x0c:
        rep = '\\f'
        break
      case 0x0d:
        rep = '\\r'
        break
      case 0x22:
        rep = '\\"'
        break
      case 0x5c:
        rep = '\\\\'
        break
      default:
        if (c >= 0xd800 && c <= 0xdfff) {
          if (c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            i++ // a valid pair
            continue
          }
          rep = '\uFFFD'
        }
    }
    if (rep !== undefined) {
      out += s.slice(start, i) + rep
      start = i + 1
    }
  }
  return `${out + s.slice(start)}"`
}

// Printable per Go's strconv.IsPrint (= unicode.IsPrint): letters, marks, numbers, punctuation,
// symbols and the ASCII space. (Unicode versions of Go and V8 may differ for new code points.)
const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u
const HEX = '0123456789abcdef'
// Code units Go's Quote leaves alone for sure: printable ASCII except `"` and `\`.
const NEEDS_GO_QUOTING = /[^\x20\x21\x23-\x5b\x5d-\x7e]/

function isGoPrint(cp: number): boolean {
  if (cp <= 0xff) return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa1 && cp !== 0xad)
  return PRINTABLE.test(String.fromCodePoint(cp))
}

function hex(v: number, digits: number): string {
  let out = ''
  for (let s = (digits - 1) * 4; s >= 0; s -= 4) out += HEX[(v >>> s) & 0xf]
  return out
}

/** Go's escaping of one code point inside a `"`-quoted literal (strconv.appendEscapedRune). */
function escapeRune(cp: number): string {
  if (cp === 0x22 || cp === 0x5c) return `\\${String.fromCharCode(cp)}`
  if (isGoPrint(cp)) return String.fromCodePoint(cp)
  switch (cp) {
    case 0x07:
      return '\\a'
    case 0x08:
      return '\\b'
    case 0x0c:
      return '\\f'
    case 0x0a:
      return '\\n'
    case 0x0d:
      return '\\r'
    case 0x09:
      return '\\t'
    case 0x0b:
      return '\\v'
  }
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd // not a valid rune
  return cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`
}

/** Go `strconv.Quote(s)` / `fmt.Sprintf("%q", s)` for a string. */
export function goQuote(s: string): string {
  if (!NEEDS_GO_QUOTING.test(s)) return `"${s}"`
  let out = '"'
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
      out += s[i]
      continue
    }
    let cp = c
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      cp = s.codePointAt(i) as number
      i++
    }
    out += escapeRune(cp)
  }
  return `${out}"`
}
