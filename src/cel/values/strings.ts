// CEL strings are sequences of Unicode code points; JS strings are UTF-16. These helpers give
// code-point semantics with an ASCII/BMP fast path (no surrogates → UTF-16 index = code point index).

const SURROGATE = /[\uD800-\uDFFF]/

/** True when the string has no surrogate pairs, so UTF-16 indices are code point indices. */
export function isBmpOnly(s: string): boolean {
  return !SURROGATE.test(s)
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/

// A two-entry memo: cost tracking and `size()` often count the same string twice in a row
// (`s.contains(x) && !s.endsWith(y)`, `self == oldSelf || self.size() > oldSelf.size()`).
let memo1 = ''
let memo1Len = 0
let memo2 = ''
let memo2Len = 0

/** Number of code points (CEL `size(string)`). */
export function codePointLength(s: string): number {
  if (s.length <= 1) return s.length
  if (s === memo1) return memo1Len
  if (s === memo2) return memo2Len
  const n = countCodePoints(s)
  memo2 = memo1
  memo2Len = memo1Len
  memo1 = s
  memo1Len = n
  return n
}

/**
 * Number of code points, without the memo: for a cost formula (ceil(size × 0.1)), which reads each string of
 * an evaluation about once. The memo's misses cost more than the scan there: two strings of the same length
 * (image references, names) are told apart only by comparing their characters.
 */
export function countCodePoints(s: string): number {
  // The regex scan is native and flattens rope strings once; charCodeAt loops over a rope are slow.
  if (!HIGH_SURROGATE.test(s)) return s.length
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    // a high surrogate followed by a low one is one code point
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/**
 * Compares two strings in code point order (Go compares UTF-8 bytes, which is the same order).
 * JS `<` compares UTF-16 code units, which differs for supplementary characters vs U+E000..U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) {
      // Only when both are in the surrogate / high-BMP zone can UTF-16 order disagree with code point order.
      if (x >= 0xd800 && y >= 0xd800) {
        const cx = a.codePointAt(i) ?? x
        const cy = b.codePointAt(i) ?? y
        return cx < cy ? -1 : cx > cy ? 1 : 0
      }
      return x < y ? -1 : 1
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0
}

/**
 * The UTF-16 offset of code point `cp` in `s`, counting from UTF-16 offset `from` (beyond the end it
 * returns `s.length`). A high surrogate followed by a low one counts as one code point.
 */
export function utf16Offset(s: string, cp: number, from = 0): number {
  let i = from
  const n = s.length
  while (cp > 0 && i < n) {
    const c = s.charCodeAt(i)
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1
    cp--
  }
  return i
}

/** The code point index of UTF-16 offset `u16` in `s` (the number of code points before it). */
export function codePointOffset(s: string, u16: number): number {
  let cp = 0
  for (let i = 0; i < u16; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
    cp++
  }
  return cp
}
