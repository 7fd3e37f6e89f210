// go-yaml v2's character classes (yamlprivateh.go), over code points. go-yaml tests UTF-8 bytes in its
// decoded buffer (NEL is 0xC2 0x85, LS 0xE2 0x80 0xA8, ...); the reader here holds one code point per
// character, so each test is on one number. A 0 is go-yaml's NUL: the end of the input (the reader refuses a
// real U+0000 as a control character, so a 0 is never text).

/** is_alpha: an anchor, directive or tag-handle character. */
export const isAlpha = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d

/** is_digit */
export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

/** is_hex */
export const isHex = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)

/** as_hex */
export const asHex = (c: number): number => (c >= 0x61 ? c - 0x61 + 10 : c >= 0x41 ? c - 0x41 + 10 : c - 0x30)

/** is_blank: space or tab. */
export const isBlank = (c: number): boolean => c === 0x20 || c === 0x09

/** is_break: CR, LF, NEL, LS, PS. */
export const isBreak = (c: number): boolean => c === 0x0d || c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029

/** is_breakz: a line break or the end. */
export const isBreakZ = (c: number): boolean => c === 0 || isBreak(c)

/** is_blankz: a blank, a line break or the end. */
export const isBlankZ = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0 || isBreak(c)

/**
 * The characters go-yaml's reader lets through (readerc.go yaml_parser_update_buffer): tab, LF, CR, printable
 * ASCII, NEL, and the rest of Unicode but surrogates, U+FFFE and U+FFFF. Any other is "control characters are
 * not allowed".
 */
export const isAllowed = (c: number): boolean =>
  c === 0x09 ||
  c === 0x0a ||
  c === 0x0d ||
  (c >= 0x20 && c <= 0x7e) ||
  c === 0x85 ||
  (c >= 0xa0 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd) ||
  (c >= 0x10000 && c <= 0x10ffff)

/** The bytes of a code point in UTF-8: go-yaml's reader works in 512-byte chunks of them. */
export const utf8Width = (c: number): number => (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4)

/** width: the length of a UTF-8 sequence from its leading octet (0: not a leading octet). */
export const octetWidth = (b: number): number =>
  (b & 0x80) === 0 ? 1 : (b & 0xe0) === 0xc0 ? 2 : (b & 0xf0) === 0xe0 ? 3 : (b & 0xf8) === 0xf0 ? 4 : 0
