import { RE2JS, RE2JSSyntaxException } from 're2js'
import { ErrorValue } from '../common/errors.js'

// RE2 regular expressions with Go `regexp` semantics, over re2js (a port of Go's regexp/syntax and
// matcher: linear time, leftmost-first, unanchored search). A JS RegExp is never built from a user
// pattern: its syntax, semantics and backtracking differ. Compiling is expensive (µs to ms), so each
// distinct pattern is compiled once: constant patterns by the compiler, patterns computed at run time
// through the bounded cache below.

/** A compiled RE2 pattern. */
export interface CompiledRegex {
  readonly pattern: string
  /** The re2js program (its `RE2` matcher object, which has Go's find / findAll entry points). */
  readonly re2: RE2
}
type RE2 = ReturnType<RE2JS['re2']>

const CACHE_LIMIT = 256
// Insertion-ordered map used as an LRU: a hit moves the entry to the end, the oldest entry is evicted.
// Invalid patterns are cached too (as their error message), so a bad pattern in a loop is parsed once.
const cache = new Map<string, CompiledRegex | string>()

/**
 * Compiles `pattern` as Go's `regexp.Compile` would, from the cache when possible. Invalid patterns
 * throw an ErrorValue with Go's text, e.g. ``error parsing regexp: missing closing ): `(` ``.
 */
export function compileRegex(pattern: string): CompiledRegex {
  let hit = cache.get(pattern)
  if (hit !== undefined) {
    if (cache.size > 16) {
      // keep recently used patterns; skipped for tiny caches where eviction cannot happen soon
      cache.delete(pattern)
      cache.set(pattern, hit)
    }
  } else {
    hit = compileUncached(pattern)
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
    cache.set(pattern, hit)
  }
  // a fresh ErrorValue per failure: the evaluator may record an expression id on it
  if (typeof hit === 'string') throw new ErrorValue(hit)
  return hit
}

function compileUncached(pattern: string): CompiledRegex | string {
  try {
    return { pattern, re2: RE2JS.compile(pattern).re2() }
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) return goSyntaxError(e, pattern)
    return `error parsing regexp: ${(e as Error).message}`
  }
}

/**
 * Go's `*syntax.Error` text: ``error parsing regexp: <code>: `<expr>` ``. re2js leaves the expression
 * out where Go prints an empty one (trailing backslash) or the whole pattern (size and depth limits).
 */
function goSyntaxError(e: RE2JSSyntaxException, pattern: string): string {
  let expr = e.input
  if (expr === null || expr === undefined) {
    expr = e.error === 'expression too large' || e.error === 'expression nests too deeply' ? pattern : ''
  }
  return `error parsing regexp: ${e.error}: \`${expr}\``
}

/** Go `re.MatchString(s)`: is there a match anywhere in `s` (unanchored)? */
export function regexMatches(re: CompiledRegex, s: string): boolean {
  return re.re2.match(s)
}

/** Go `re.FindString(s)`: the leftmost-first match, or '' when there is none. */
export function regexFind(re: CompiledRegex, s: string): string {
  return re.re2.find(s) as string
}

const NO_MATCHES: string[] = []

/**
 * Go `re.FindAllString(s, n)`: successive non-overlapping matches, at most `n` of them (all when n < 0,
 * none when n == 0). re2js reproduces Go's allMatches loop, including the rule that an empty match
 * right after the previous match is skipped (`[0-9]*` on `'123 abc 456'` gives
 * `['123', '', '', '', '', '456']`).
 */
export function regexFindAll(re: CompiledRegex, s: string, n: number): string[] {
  if (n === 0) return []
  const out = re.re2.findAll(s, n < 0 ? -1 : n) as string[] | null
  return out ?? NO_MATCHES.slice()
}

/** For tests: the number of cached patterns. */
export function regexCacheSize(): number {
  return cache.size
}
