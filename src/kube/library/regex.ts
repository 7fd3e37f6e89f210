import { ErrorValue, noSuchOverload } from '../../cel/common/errors.js'
import { fn, type Impl, type Library, memberOverload } from '../../cel/functions.js'
import { type CompiledRegex, compileRegex, regexFind, regexFindAll } from '../../cel/stdlib/regex.js'
import { IntType, listOf, StringType } from '../../cel/types/types.js'
import type { CelValue } from '../../cel/values/values.js'
import {
  addRange,
  ceilFactor,
  type KubeCost,
  mulRange,
  ONE,
  RegexStringLengthCostFactor,
  StringTraversalCostFactor,
  stringSize,
} from './lists.js'

// Library `kubernetes.regex` (k8s.io/apiserver pkg/cel/library/regex.go): `find` and `findAll` with
// Go regexp semantics (RE2 via src/cel/stdlib/regex.ts). Go's FindString / FindAllString: the leftmost-
// first match, unanchored; findAll's limit n < 0 means all, n == 0 none.

/** Compiles a run-time pattern; Go's syntax error is reported as `Illegal regex: <error>`. */
function compile(pattern: string): CompiledRegex {
  try {
    return compileRegex(pattern)
  } catch (e) {
    if (e instanceof ErrorValue) throw new ErrorValue(`Illegal regex: ${e.message}`)
    throw e
  }
}

function find(s: string, pattern: string): string {
  return regexFind(compile(pattern), s)
}

function findAll(s: string, pattern: string): CelValue {
  return regexFindAll(compile(pattern), s, -1)
}

/** n is Go's int(int64): only its sign and size matter, so a bigint may become an approximate number. */
function findAllN(s: string, pattern: string, n: number | bigint): CelValue {
  return regexFindAll(compile(pattern), s, Number(n))
}

export const regexLibrary: Library = {
  name: 'kubernetes.regex',
  functions: [
    fn('find', memberOverload('string_find_string', [StringType, StringType], StringType, find)),
    fn(
      'findAll',
      memberOverload('string_find_all_string', [StringType, StringType], listOf(StringType), findAll),
      memberOverload('string_find_all_string_int', [StringType, StringType, IntType], listOf(StringType), findAllN),
    ),
  ],
}

/**
 * regex.go's ProgramOptions: cel.OptimizeRegex(FindRegexOptimization, FindAllRegexOptimization). When the
 * pattern argument (index `regexIndex`, receiver = 0) is a constant, cel-go compiles it while creating the
 * program, so an invalid constant pattern fails program creation with Go's bare error text (e.g.
 * ``error parsing regexp: unexpected ): `)` ``, no `Illegal regex:` prefix) instead of failing at run time.
 */
export const regexOptimizations: readonly {
  readonly function: string
  readonly regexIndex: number
  /** The call that replaces the overloads: no type guards, a bare `no such overload` for a wrong operand. */
  readonly impl: Impl
}[] = [
  { function: 'find', regexIndex: 1, impl: optimizedFind as Impl },
  { function: 'findAll', regexIndex: 1, impl: optimizedFindAll as Impl },
]

const isInt = (v: CelValue) => typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))

/** FindRegexOptimization's call: the receiver must be a string (MaybeNoSuchOverloadErr), else `no such overload`. */
function optimizedFind(s: CelValue, pattern: string): CelValue {
  if (typeof s !== 'string') throw noSuchOverload()
  return find(s, pattern)
}

/** FindAllRegexOptimization's call: a string receiver and, with three arguments, an int limit. */
function optimizedFindAll(s: CelValue, pattern: string, n?: CelValue): CelValue {
  if (typeof s !== 'string') throw noSuchOverload()
  if (n === undefined) return findAll(s, pattern)
  if (!isInt(n)) throw noSuchOverload()
  return findAllN(s, pattern, n as number | bigint)
}

/**
 * cost.go: ceil((1 + size(str)) * 0.1) * ceil(size(regex) * 0.25), sizes in code points; the estimate
 * multiplies the same ranges and sizes the result as at most size(str).
 */
const regexCost: KubeCost = {
  estimate: (target, [re]) => {
    if (target === undefined || re === undefined) return undefined
    const strCost = ceilFactor(addRange(target.size, ONE), StringTraversalCostFactor)
    const reCost = ceilFactor(re.size, RegexStringLengthCostFactor)
    return { cost: mulRange(strCost, reCost), resultSize: { min: 0n, max: target.size.max } }
  },
  actual: ([s, re]) =>
    Math.ceil((1 + stringSize(s as string)) * StringTraversalCostFactor) *
    Math.ceil(stringSize(re as string) * RegexStringLengthCostFactor),
}

export const regexCosts: Readonly<Record<string, KubeCost>> = {
  string_find_string: regexCost,
  string_find_all_string: regexCost,
  string_find_all_string_int: regexCost,
}
