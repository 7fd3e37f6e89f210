import { ErrorValue } from '../common/errors.js'
import { MAX_UNLIMITED_SIZE, remainingBudget, reserve, stringUnits } from '../cost/budget.js'
import { traversalCost } from '../cost/runtime.js'
import { type FunctionDecl, fn, type Impl, memberOverload, overload } from '../functions.js'
import { DynType, IntType, listOf, StringType } from '../types/types.js'
import { codePointLength, codePointOffset, isBmpOnly, utf16Offset } from '../values/strings.js'
import type { CelValue } from '../values/values.js'
import { formatGoV, formatString } from './format.js'
import { celQuote } from './quote.js'

// cel-go v0.26 ext/strings.go at library version 2 (what Kubernetes configures): charAt, indexOf,
// lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join (v2: element type checked
// at run time), format and strings.quote (v1). Not in v2: reverse (v3).
//
// Indices count Unicode code points. JS strings are UTF-16, so every function has a fast path for
// strings without surrogates (UTF-16 index = code point index) and converts offsets otherwise.

type Int = number | bigint

/** A CEL int as a JS number for range checks: bigints lie outside every string's index range. */
function num(i: Int): number {
  return typeof i === 'number' ? i : i < 0n ? -Infinity : Infinity
}

function indexError(i: Int): ErrorValue {
  return new ErrorValue(`index out of range: ${i}`)
}

/** `s.charAt(i)`: the code point at i; '' at i == size(s); error outside [0, size]. */
export function charAt(s: string, i: Int): string {
  const n = num(i)
  if (n < 0) throw indexError(i)
  if (isBmpOnly(s)) {
    if (n > s.length) throw indexError(i)
    return n === s.length ? '' : (s[n] as string)
  }
  if (n > codePointLength(s)) throw indexError(i)
  const at = utf16Offset(s, n)
  const c = s.codePointAt(at)
  return c === undefined ? '' : String.fromCodePoint(c)
}

/** `s.indexOf(sub)`. */
export function indexOf(s: string, sub: string): number {
  return indexOfOffset(s, sub, 0) as number
}

/**
 * `s.indexOf(sub, offset)`. v0.26 quirk: an empty `sub` returns `offset` unchecked (even negative or past
 * the end); otherwise a negative offset is an error and an offset at or past the end gives -1.
 */
export function indexOfOffset(s: string, sub: string, offset: Int): Int {
  if (sub === '') return offset
  const off = num(offset)
  if (off < 0) throw indexError(offset)
  if (isBmpOnly(s)) return off >= s.length ? -1 : s.indexOf(sub, off)
  if (off >= codePointLength(s)) return -1
  const at = s.indexOf(sub, utf16Offset(s, off))
  return at < 0 ? -1 : codePointOffset(s, at)
}

/** `s.lastIndexOf(sub)`: empty `sub` gives size(s); an empty `s` gives -1 (cel-go #1173, in v0.26). */
export function lastIndexOf(s: string, sub: string): number {
  if (sub === '') return codePointLength(s)
  if (s.length === 0) return -1
  // no surrogates: code points are UTF-16 units (lastIndexOfOffset from the last one, without counting)
  if (isBmpOnly(s)) return s.length < sub.length ? -1 : s.lastIndexOf(sub, s.length - sub.length)
  return lastIndexOfOffset(s, sub, codePointLength(s) - 1) as number
}

/**
 * `s.lastIndexOf(sub, offset)`: the last match starting at or before `offset`. Empty `sub` returns
 * `offset` unchecked (v0.26); a negative offset is an error; an offset at or past the end gives -1.
 */
export function lastIndexOfOffset(s: string, sub: string, offset: Int): Int {
  if (sub === '') return offset
  const off = num(offset)
  if (off < 0) throw indexError(offset)
  if (isBmpOnly(s)) {
    if (off >= s.length) return -1
    const start = Math.min(off, s.length - sub.length)
    return start < 0 ? -1 : s.lastIndexOf(sub, start)
  }
  const len = codePointLength(s)
  if (off >= len) return -1
  const start = Math.min(off, len - codePointLength(sub))
  if (start < 0) return -1
  const at = s.lastIndexOf(sub, utf16Offset(s, start))
  return at < 0 ? -1 : codePointOffset(s, at)
}

/**
 * cel-go v0.29 indexOfOffset / lastIndexOfOffset (ext/strings.go): a negative offset is an error even
 * for an empty `sub`, and the empty string matches at the offset clamped to the end of the string.
 */
export function indexOfOffsetV029(s: string, sub: string, offset: Int): Int {
  if (sub !== '') return indexOfOffset(s, sub, offset)
  if (num(offset) < 0) throw indexError(offset)
  const len = codePointLength(s)
  return num(offset) > len ? len : offset
}

export function lastIndexOfOffsetV029(s: string, sub: string, offset: Int): Int {
  if (sub !== '') return lastIndexOfOffset(s, sub, offset)
  return indexOfOffsetV029(s, sub, offset)
}

const ASCII_UPPER = /[A-Z]+/g
const ASCII_LOWER = /[a-z]+/g
const toLower = (m: string) => m.toLowerCase()
const toUpper = (m: string) => m.toUpperCase()

/** `s.lowerAscii()`: only A-Z change. */
export function lowerAscii(s: string): string {
  return s.replace(ASCII_UPPER, toLower)
}

/** `s.upperAscii()`: only a-z change. */
export function upperAscii(s: string): string {
  return s.replace(ASCII_LOWER, toUpper)
}

/** Width in UTF-16 units of the code point at i (1 or 2). */
function cpWidth(s: string, i: number): number {
  const c = s.charCodeAt(i)
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1
}

/** A CEL int count as a JS number: negative bigints mean "all", positive ones are beyond any count. */
function count(n: Int): number {
  return typeof n === 'number' ? n : n < 0n ? -1 : Number.MAX_SAFE_INTEGER
}

/** `s.replace(old, new)` = Go `strings.ReplaceAll`. */
export function replace(s: string, oldStr: string, newStr: string): string {
  return replaceN(s, oldStr, newStr, -1)
}

/**
 * `s.replace(old, new, n)` = Go `strings.Replace`: at most n replacements (all when n < 0); an empty `old`
 * matches before every code point and at the end (`'ab'.replace('', '_') == '_a_b_'`).
 */
export function replaceN(s: string, oldStr: string, newStr: string, n: Int): string {
  let limit = count(n)
  if (oldStr === newStr || limit === 0) return s
  if (newStr.length > oldStr.length) reserveReplace(s, oldStr, newStr, limit)
  if (oldStr === '') {
    let out = ''
    let i = 0
    for (; limit !== 0 && i < s.length; limit--) {
      const w = cpWidth(s, i)
      out += newStr + s.slice(i, i + w)
      i += w
    }
    if (limit !== 0) return out + newStr // the match at the end of the string
    return out + s.slice(i)
  }
  if (limit < 0) return s.split(oldStr).join(newStr)
  let out = ''
  let start = 0
  for (; limit > 0; limit--) {
    const at = s.indexOf(oldStr, start)
    if (at < 0) break
    out += s.slice(start, at) + newStr
    start = at + oldStr.length
  }
  return start === 0 ? s : out + s.slice(start)
}

/**
 * A replacement that grows the string (`s.replace('', s)` is quadratic in size(s), and cost.go charges
 * only a traversal of s): the result's size, counted without building it, against the budget.
 */
function reserveReplace(s: string, oldStr: string, newStr: string, limit: number): void {
  const grow = newStr.length - oldStr.length
  // the matches that can be afforded (or, without a limit, fit the hard maximum) before refusing
  const room = Math.min(remainingBudget() * 10, MAX_UNLIMITED_SIZE) - s.length
  let matches = 0
  if (oldStr === '') {
    // before every code point and at the end: at most s.length + 1
    matches = limit < 0 ? codePointLength(s) + 1 : Math.min(limit, codePointLength(s) + 1)
  } else {
    for (let at = s.indexOf(oldStr); at >= 0 && matches !== limit; at = s.indexOf(oldStr, at + oldStr.length)) {
      if (++matches * grow > room) break
    }
  }
  const size = s.length + matches * grow
  reserve('replace', size, stringUnits(size))
}

/** `s.split(sep)` = Go `strings.Split`. */
export function split(s: string, sep: string): string[] {
  return splitN(s, sep, -1)
}

/**
 * `s.split(sep, n)` = Go `strings.SplitN`: n == 0 → [], n < 0 → all pieces, otherwise at most n pieces,
 * the last holding the rest. An empty separator splits into code points (`''.split('') == []`).
 */
export function splitN(s: string, sep: string, n: Int): string[] {
  let limit = count(n)
  if (limit === 0) return []
  if (sep === '') {
    const out: string[] = []
    let i = 0
    if (limit < 0) limit = Number.MAX_SAFE_INTEGER
    while (i < s.length && out.length < limit - 1) {
      const w = cpWidth(s, i)
      out.push(s.slice(i, i + w))
      i += w
    }
    if (i < s.length) out.push(s.slice(i))
    return out
  }
  if (limit < 0) return s.split(sep)
  const out: string[] = []
  let start = 0
  while (out.length < limit - 1) {
    const at = s.indexOf(sep, start)
    if (at < 0) break
    out.push(s.slice(start, at))
    start = at + sep.length
  }
  out.push(s.slice(start))
  return out
}

/** `s.substring(start)`: code points [start, size). */
export function substring(s: string, start: Int): string {
  const b = num(start)
  if (isBmpOnly(s)) {
    if (b < 0 || b > s.length) throw indexError(start)
    return s.slice(b)
  }
  if (b < 0 || b > codePointLength(s)) throw indexError(start)
  return s.slice(utf16Offset(s, b))
}

/** `s.substring(start, end)`: code points [start, end). */
export function substringRange(s: string, start: Int, end: Int): string {
  if (start > end) throw new ErrorValue(`invalid substring range. start: ${start}, end: ${end}`)
  const b = num(start)
  const e = num(end)
  const len = isBmpOnly(s) ? s.length : -1
  const size = len >= 0 ? len : codePointLength(s)
  if (b < 0 || b > size) throw indexError(start)
  if (e < 0 || e > size) throw indexError(end)
  if (len >= 0) return s.slice(b, e)
  const from = utf16Offset(s, b)
  return s.slice(from, utf16Offset(s, e - b, from))
}

/** Go unicode.IsSpace (Unicode White_Space): unlike JS trim, includes U+0085 and excludes U+FEFF. */
function isGoSpace(c: number): boolean {
  if (c <= 0xff) return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  )
}

/** `s.trim()` = Go `strings.TrimSpace`. */
export function trim(s: string): string {
  let a = 0
  let b = s.length
  while (a < b && isGoSpace(s.charCodeAt(a))) a++
  while (b > a && isGoSpace(s.charCodeAt(b - 1))) b--
  return a === 0 && b === s.length ? s : s.slice(a, b)
}

/** `list.join()`. */
export function join(list: readonly CelValue[]): string {
  return joinSeparator(list, '')
}

/** `list.join(sep)` (v2): every element must be a string, else `join: invalid input: <Go %v of it>`. */
export function joinSeparator(list: readonly CelValue[], sep: string): string {
  let size = list.length > 1 ? (list.length - 1) * sep.length : 0
  for (let i = 0; i < list.length; i++) {
    const v = list[i] as CelValue
    if (typeof v !== 'string') throw new ErrorValue(`join: invalid input: ${formatGoV(v)}`)
    size += v.length
  }
  // a list holding one large string many times joins to far more than the list's size: the result
  // is refused before it is built when the budget cannot cover it
  reserve('join', size, stringUnits(size))
  return list.join(sep)
}

/** `strings.quote(s)`. */
export function quote(s: string): string {
  // its cost (a traversal of s, charged after the call) before building the quoted copy
  reserve('strings.quote', s.length, traversalCost(s))
  return celQuote(s)
}

/** `s.format(args)` (the v1 formatter, locale en_US). */
export function format(s: string, args: readonly CelValue[]): string {
  return formatString(s, args)
}

const S = StringType
const I = IntType

export const stringsExtFunctions: FunctionDecl[] = [
  fn('charAt', memberOverload('string_char_at_int', [S, I], S, charAt)),
  fn(
    'indexOf',
    memberOverload('string_index_of_string', [S, S], I, indexOf),
    memberOverload('string_index_of_string_int', [S, S, I], I, indexOfOffset),
  ),
  fn(
    'lastIndexOf',
    memberOverload('string_last_index_of_string', [S, S], I, lastIndexOf),
    memberOverload('string_last_index_of_string_int', [S, S, I], I, lastIndexOfOffset),
  ),
  fn('lowerAscii', memberOverload('string_lower_ascii', [S], S, lowerAscii)),
  fn(
    'replace',
    memberOverload('string_replace_string_string', [S, S, S], S, replace),
    memberOverload('string_replace_string_string_int', [S, S, S, I], S, replaceN),
  ),
  fn(
    'split',
    memberOverload('string_split_string', [S, S], listOf(S), split),
    memberOverload('string_split_string_int', [S, S, I], listOf(S), splitN),
  ),
  fn(
    'substring',
    memberOverload('string_substring_int', [S, I], S, substring),
    memberOverload('string_substring_int_int', [S, I, I], S, substringRange),
  ),
  fn('trim', memberOverload('string_trim', [S], S, trim)),
  fn('upperAscii', memberOverload('string_upper_ascii', [S], S, upperAscii)),
  fn('format', memberOverload('string_format', [S, listOf(DynType)], S, format)),
  fn('strings.quote', overload('strings_quote', [S], S, quote)),
  fn(
    'join',
    memberOverload('list_join', [listOf(S)], S, join),
    memberOverload('list_join_string', [listOf(S), S], S, joinSeparator),
  ),
]

/** The functions of ext.Strings(StringsVersion(2)) in cel-go v0.29: the offset forms of indexOf / lastIndexOf clamp. */
export const stringsExtFunctionsV029: FunctionDecl[] = stringsExtFunctions.map((f) => {
  const impl: Readonly<Record<string, Impl>> = {
    string_index_of_string_int: indexOfOffsetV029 as Impl,
    string_last_index_of_string_int: lastIndexOfOffsetV029 as Impl,
  }
  if (f.name !== 'indexOf' && f.name !== 'lastIndexOf') return f
  return { ...f, overloads: f.overloads.map((o) => (impl[o.id] ? { ...o, impl: impl[o.id]! } : o)) }
})
