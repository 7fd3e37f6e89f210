import { type FunctionDecl, fn, memberOverload, overload } from '../functions.js'
import { BoolType, StringType } from '../types/types.js'
import { compileRegex, regexMatches } from './regex.js'

// Standard-library string functions of cel-go v0.26 (common/stdlib/standard.go, common/types/string.go).
// `size(string)` lives with the other size overloads.
//
// contains / startsWith / endsWith compare UTF-16 code units, which gives the same answers as Go's byte
// comparison: in well-formed strings a match can never start or end inside a surrogate pair.

export function stringContains(s: string, sub: string): boolean {
  return s.includes(sub)
}

export function stringStartsWith(s: string, prefix: string): boolean {
  return s.startsWith(prefix)
}

export function stringEndsWith(s: string, suffix: string): boolean {
  return s.endsWith(suffix)
}

/**
 * `s.matches(re)` / `matches(s, re)`: Go `regexp.MatchString` — RE2 syntax, unanchored search. A pattern
 * computed at run time goes through the compile cache; the compiler binds constant patterns up front.
 */
export function stringMatches(s: string, pattern: string): boolean {
  return regexMatches(compileRegex(pattern), s)
}

export const stringFunctions: FunctionDecl[] = [
  fn('contains', memberOverload('contains_string', [StringType, StringType], BoolType, stringContains)),
  fn('startsWith', memberOverload('starts_with_string', [StringType, StringType], BoolType, stringStartsWith)),
  fn('endsWith', memberOverload('ends_with_string', [StringType, StringType], BoolType, stringEndsWith)),
  fn(
    'matches',
    overload('matches', [StringType, StringType], BoolType, stringMatches),
    memberOverload('matches_string', [StringType, StringType], BoolType, stringMatches),
  ),
]
