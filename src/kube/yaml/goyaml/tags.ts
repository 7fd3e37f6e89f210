import { asHex, isAlpha, isBlank, isBlankZ, isBreak, isBreakZ, isDigit, isHex, octetWidth } from './chars.js'
import type { Reader } from './reader.js'
import { copyMark, type Mark, Tok, type Token } from './types.js'

// go-yaml v2's scanners of tags and directives (scannerc.go yaml_parser_scan_tag, yaml_parser_scan_directive
// and their helpers): a tag token keeps its handle (the parser looks it up among the %TAG directives), a
// %TAG directive its handle, a %YAML directive its version; URIs are only measured.

const BANG = 0x21
const PERCENT = 0x25

/** The characters of a URI besides is_alpha's (yaml_parser_scan_tag_uri). */
const URI_CHARS = new Set([...";/?:@&=+$,.!~*'()[]%"].map((ch) => ch.charCodeAt(0)))

/** yaml_parser_set_scanner_tag_error */
const tagError = (r: Reader, directive: boolean, start: Mark, problem: string): false =>
  r.error(directive ? 'while parsing a %TAG directive' : 'while parsing a tag', start, problem)

/** yaml_parser_scan_tag: `!<uri>`, `!handle!suffix`, `!suffix` or `!`. */
export function scanTag(r: Reader): Token | undefined {
  const start = copyMark(r.mark)
  if (!r.cache(2)) return undefined
  let handle: string
  if (r.at(1) === 0x3c /* < */) {
    // the verbatim form: no handle
    handle = ''
    r.skip()
    r.skip()
    if (scanTagURI(r, false, '', start) < 0) return undefined
    if (r.c !== 0x3e /* > */) {
      r.error('while scanning a tag', start, "did not find the expected '>'")
      return undefined
    }
    r.skip()
  } else {
    const h = scanTagHandle(r, false, start)
    if (h === undefined) return undefined
    if (h.length > 1 && h.charCodeAt(h.length - 1) === BANG) {
      handle = h
      if (scanTagURI(r, false, '', start) < 0) return undefined
    } else {
      // not a handle after all: it begins the suffix, and the handle is `!` (none for a lone `!`)
      const suffix = scanTagURI(r, false, h, start)
      if (suffix < 0) return undefined
      handle = suffix === 0 ? '' : '!'
    }
  }
  if (!r.cache(1)) return undefined
  if (!isBlankZ(r.c)) {
    r.error('while scanning a tag', start, 'did not find expected whitespace or line break')
    return undefined
  }
  return { type: Tok.TAG, start, end: copyMark(r.mark), value: handle }
}

/** yaml_parser_scan_tag_handle: `!`, then is_alpha characters, then maybe `!`. */
function scanTagHandle(r: Reader, directive: boolean, start: Mark): string | undefined {
  if (!r.cache(1)) return undefined
  if (r.c !== BANG) {
    tagError(r, directive, start, "did not find expected '!'")
    return undefined
  }
  const from = r.offset
  r.skip()
  if (!r.cache(1)) return undefined
  while (isAlpha(r.c)) {
    r.skip()
    if (!r.cache(1)) return undefined
  }
  if (r.c === BANG) r.skip()
  else if (directive && r.offset - from > 1) {
    // a %TAG handle is `!`, `!!` or `!name!`
    tagError(r, directive, start, "did not find expected '!'")
    return undefined
  }
  return r.slice(from)
}

/**
 * yaml_parser_scan_tag_uri: the URI's length in bytes (with `head`, a handle that turned out to begin the
 * suffix, less its `!`), or -1 on an error.
 */
function scanTagURI(r: Reader, directive: boolean, head: string, start: Mark): number {
  let length = head.length > 1 ? head.length - 1 : 0
  let hasTag = head.length > 0
  if (!r.cache(1)) return -1
  while (isAlpha(r.c) || URI_CHARS.has(r.c)) {
    if (r.c === PERCENT) {
      const octets = scanURIEscapes(r, directive, start)
      if (octets < 0) return -1
      length += octets
    } else {
      r.skip()
      length++
    }
    if (!r.cache(1)) return -1
    hasTag = true
  }
  if (!hasTag) {
    tagError(r, directive, start, 'did not find expected tag URI')
    return -1
  }
  return length
}

/** yaml_parser_scan_uri_escapes: `%XX` escapes making one UTF-8 character; their count, or -1 on an error. */
function scanURIEscapes(r: Reader, directive: boolean, start: Mark): number {
  let w = 1024
  let count = 0
  while (w > 0) {
    if (!r.cache(3)) return -1
    if (!(r.c === PERCENT && isHex(r.at(1)) && isHex(r.at(2)))) {
      tagError(r, directive, start, 'did not find URI escaped octet')
      return -1
    }
    const octet = asHex(r.at(1)) * 16 + asHex(r.at(2))
    if (w === 1024) {
      w = octetWidth(octet)
      if (w === 0) {
        tagError(r, directive, start, 'found an incorrect leading UTF-8 octet')
        return -1
      }
    } else if ((octet & 0xc0) !== 0x80) {
      tagError(r, directive, start, 'found an incorrect trailing UTF-8 octet')
      return -1
    }
    count++
    r.skip()
    r.skip()
    r.skip()
    w--
  }
  return count
}

/** yaml_parser_scan_directive: `%YAML` or `%TAG` and the rest of its line. */
export function scanDirective(r: Reader): Token | undefined {
  const start = copyMark(r.mark)
  r.skip()
  const name = scanDirectiveName(r, start)
  if (name === undefined) return undefined
  let token: Token
  if (name === 'YAML') {
    const major = scanVersionNumber(r, start, true)
    if (major < 0) return undefined
    if (r.c !== 0x2e /* . */) {
      r.error('while scanning a %YAML directive', start, "did not find expected digit or '.' character")
      return undefined
    }
    r.skip()
    const minor = scanVersionNumber(r, start, false)
    if (minor < 0) return undefined
    token = { type: Tok.VERSION_DIRECTIVE, start, end: copyMark(r.mark), major, minor }
  } else if (name === 'TAG') {
    const handle = scanTagDirectiveValue(r, start)
    if (handle === undefined) return undefined
    token = { type: Tok.TAG_DIRECTIVE, start, end: copyMark(r.mark), value: handle }
  } else {
    r.error('while scanning a directive', start, 'found unknown directive name')
    return undefined
  }
  // the rest of the line: blanks and a comment
  if (!r.cache(1)) return undefined
  while (isBlank(r.c)) {
    r.skip()
    if (!r.cache(1)) return undefined
  }
  if (r.c === 0x23 /* # */) {
    while (!isBreakZ(r.c)) {
      r.skip()
      if (!r.cache(1)) return undefined
    }
  }
  if (!isBreakZ(r.c)) {
    r.error('while scanning a directive', start, 'did not find expected comment or line break')
    return undefined
  }
  if (isBreak(r.c)) {
    if (!r.cache(2)) return undefined
    r.skipLine()
  }
  return token
}

/** yaml_parser_scan_directive_name (only its first letters are kept: a longer name is neither YAML nor TAG) */
function scanDirectiveName(r: Reader, start: Mark): string | undefined {
  if (!r.cache(1)) return undefined
  let name = ''
  let length = 0
  while (isAlpha(r.c)) {
    if (length++ < 5) name += String.fromCharCode(r.c)
    r.skip()
    if (!r.cache(1)) return undefined
  }
  if (length === 0) {
    r.error('while scanning a directive', start, 'could not find expected directive name')
    return undefined
  }
  if (!isBlankZ(r.c)) {
    r.error('while scanning a directive', start, 'found unexpected non-alphabetical character')
    return undefined
  }
  return name
}

/**
 * yaml_parser_scan_version_directive_value's parts: (blanks, when `major`) and a number of at most 2 digits
 * (yaml_parser_scan_version_directive_number); -1 on an error.
 */
function scanVersionNumber(r: Reader, start: Mark, major: boolean): number {
  if (major) {
    if (!r.cache(1)) return -1
    while (isBlank(r.c)) {
      r.skip()
      if (!r.cache(1)) return -1
    }
  }
  if (!r.cache(1)) return -1
  let value = 0
  let length = 0
  while (isDigit(r.c)) {
    if (++length > 2) {
      r.error('while scanning a %YAML directive', start, 'found extremely long version number')
      return -1
    }
    value = value * 10 + (r.c - 0x30)
    r.skip()
    if (!r.cache(1)) return -1
  }
  if (length === 0) {
    r.error('while scanning a %YAML directive', start, 'did not find expected version number')
    return -1
  }
  return value
}

/** yaml_parser_scan_tag_directive_value: the handle, blanks, the prefix; the handle. */
function scanTagDirectiveValue(r: Reader, start: Mark): string | undefined {
  if (!r.cache(1)) return undefined
  while (isBlank(r.c)) {
    r.skip()
    if (!r.cache(1)) return undefined
  }
  const handle = scanTagHandle(r, true, start)
  if (handle === undefined) return undefined
  if (!r.cache(1)) return undefined
  if (!isBlank(r.c)) {
    r.error('while scanning a %TAG directive', start, 'did not find expected whitespace')
    return undefined
  }
  while (isBlank(r.c)) {
    r.skip()
    if (!r.cache(1)) return undefined
  }
  if (scanTagURI(r, true, '', start) < 0) return undefined
  if (!r.cache(1)) return undefined
  if (!isBlankZ(r.c)) {
    r.error('while scanning a %TAG directive', start, 'did not find expected whitespace or line break')
    return undefined
  }
  return handle
}
