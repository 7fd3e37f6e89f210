import { formatType } from './checker/format.js'
import type { CheckedAst } from './checker/index.js'
import type { Expr } from './common/ast.js'
import type { CelIssue } from './common/source.js'
import type { Env } from './env.js'
import { checkFormatCall, type FormatArgInfo } from './ext/format.js'
import { compileRegex } from './stdlib/regex.js'
import type { Type } from './types/types.js'
import { intToDuration, parseDuration, parseTimestamp, timestampFromUnix } from './values/time.js'

// cel-go's AST validators (cel/validator.go, ext/formatting.go), which run on a type-checked AST once
// the check itself succeeded (cel/env.go Env.Check); their issues are reported together, sorted by
// position. Kubernetes configures them in this order (apiserver pkg/cel/environment/base.go):
//
// 1. cel.HomogeneousAggregateLiterals (1.0): every list literal's elements, every map literal's keys
//    and values, must have one type (`expected type 'int' but found 'string'`), except inside a call
//    of an exempt function: `format`, which the strings extension's validator exempts.
// 2. ValidateDurationLiterals, ValidateTimestampLiterals, ValidateRegexLiterals (1.29): a literal
//    argument of `duration`, `timestamp` or `matches` that does not parse is `invalid <fn> argument`.
// 3. The strings extension (version ≥ 1)'s string.format validator: `'<literal>'.format([<literals>])`
//    has its clauses checked against the argument list and the argument types.

/** The issues of one validation run, and how many were found (cel-go reports at most 100). */
export interface ValidationResult {
  readonly issues: CelIssue[]
  readonly count: number
}

/** cel-go common.Errors maxErrorsToReport. */
const MAX_ISSUES = 100

/** The overload cel-go's strings extension declares for `format` (versions 1 and later). */
const STRING_FORMAT = 'string_format'

/** Whether the environment has the strings extension's `format` (and so its validator). */
function hasFormatValidator(env: Env): boolean {
  return env.functions.get('format')?.overloads.some((o) => o.id === STRING_FORMAT) ?? false
}

/**
 * Runs the validators the environment configures on a successfully checked AST: the homogeneous
 * literal check when `homogeneous` is set, the literal validators when the environment enables them,
 * and the string.format check when it has the strings extension's `format`.
 */
export function validateChecked(ast: CheckedAst, env: Env, homogeneous: boolean): ValidationResult {
  const issues: CelIssue[] = []
  let count = 0
  const report = (id: number, message: string): void => {
    count++
    if (issues.length < MAX_ISSUES) issues.push({ message, offset: ast.sourceInfo.positions.get(id) ?? -1 })
  }
  const formatValidator = hasFormatValidator(env)
  if (homogeneous) homogeneousLiterals(ast, formatValidator ? ['format'] : [], report)
  if (env.features.literalValidators) literalArguments(ast.expr, report)
  if (formatValidator) formatCalls(ast, report)
  return { issues, count }
}

// ---- literal arguments (cel/validator.go ValidateDurationLiterals, ...) ------------------------

const checks: Record<string, (s: string) => unknown> = {
  duration: parseDuration,
  timestamp: parseTimestamp,
  matches: compileRegex,
}

function literalArguments(root: Expr, report: (id: number, message: string) => void): void {
  walk(root, (e) => {
    if (e.kind !== 'call') return
    const check = checks[e.fn]
    // The validated argument: the pattern of `s.matches(re)` / `matches(s, re)`, else the first.
    const arg = e.fn === 'matches' ? (e.target ? e.args[0] : e.args[1]) : e.target ? undefined : e.args[0]
    if (check === undefined || arg?.kind !== 'literal') return
    // cel-go evaluates the call on its literal (evalCall): `timestamp(<int>)` is range-checked too
    const lit = arg.value
    const run =
      lit.type === 'string'
        ? () => check(lit.value)
        : e.fn === 'timestamp' && lit.type === 'int'
          ? () => timestampFromUnix(Number(lit.value))
          : // cel-go v0.26's int64_to_duration always fails (int.go has no conversion to a duration);
            // v0.29 no longer declares it, so the check refuses the call before the validators run
            e.fn === 'duration' && lit.type === 'int'
            ? () => intToDuration(lit.value)
            : undefined
    if (run !== undefined) {
      try {
        run()
      } catch {
        report(arg.id, `invalid ${e.fn} argument`)
      }
    }
  })
}

// ---- homogeneous aggregate literals (cel/validator.go homogeneousAggregateLiteralValidator) ----

/**
 * cel-go's Type.IsEquivalentType: same kind, same name (type parameters: any name), same number of
 * parameters, each equivalent. Stricter than assignability: `int` and `dyn` differ.
 */
function isEquivalentType(a: Type, b: Type): boolean {
  if (a === b) return true
  if (a.typeKind !== b.typeKind || a.params.length !== b.params.length) return false
  if (a.typeKind !== 'type_param' && a.name !== b.name) return false
  for (let i = 0; i < a.params.length; i++) if (!isEquivalentType(a.params[i]!, b.params[i]!)) return false
  return true
}

/** The type an optional entry contributes: its optional's parameter (cel-go `Parameters()[0]`). */
function optionalParam(t: Type): Type {
  return t.params[0] ?? t
}

function homogeneousLiterals(
  ast: CheckedAst,
  exempt: readonly string[],
  report: (id: number, message: string) => void,
): void {
  const typeOf = (e: Expr): Type | undefined => ast.types.get(e.id)
  const mismatch = (id: number, expected: Type, actual: Type): void =>
    report(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`)
  // cel-go checks every list literal first, then every map literal.
  const maps: Expr[] = []
  const visit = (e: Expr, inExempt: boolean): void => {
    if (!inExempt) {
      if (e.kind === 'list') {
        let elemType: Type | undefined
        for (let i = 0; i < e.elements.length; i++) {
          const el = e.elements[i]!
          let et = typeOf(el)
          if (et === undefined) continue
          if (e.optionalIndices.includes(i)) et = optionalParam(et)
          if (elemType === undefined) {
            elemType = et
            continue
          }
          if (!isEquivalentType(elemType, et)) {
            mismatch(el.id, elemType, et)
            break
          }
        }
      } else if (e.kind === 'map') {
        maps.push(e)
      }
    }
    const childExempt = inExempt || (e.kind === 'call' && exempt.includes(callName(ast, e)))
    forEachChild(e, (c) => visit(c, childExempt))
  }
  visit(ast.expr, false)
  for (const e of maps) {
    if (e.kind !== 'map') continue
    let keyType: Type | undefined
    let valType: Type | undefined
    for (const entry of e.entries) {
      const kt = typeOf(entry.key)
      let vt = typeOf(entry.value)
      if (kt === undefined || vt === undefined) continue
      if (entry.optional) vt = optionalParam(vt)
      if (keyType === undefined || valType === undefined) {
        keyType = kt
        valType = vt
        continue
      }
      // Every entry is compared with the first one; a key and a value mismatch are both reported.
      if (!isEquivalentType(keyType, kt)) mismatch(entry.key.id, keyType, kt)
      if (!isEquivalentType(valType, vt)) mismatch(entry.value.id, valType, vt)
    }
  }
}

/** A call's function name as cel-go's checked AST has it (namespaced functions resolved). */
function callName(ast: CheckedAst, e: Expr & { kind: 'call' }): string {
  const ref = ast.refs.get(e.id)
  return ref?.kind === 'function' ? ref.name : e.fn
}

// ---- string.format (ext/formatting.go stringFormatValidator) -----------------------------------

/**
 * Every member call `'<string literal>'.format(<list literal>)` whose overload is the strings
 * extension's (or unresolved): the format is parsed, each clause checked against the type of the
 * argument it consumes, and an unused argument is an error. The issue is reported at the offending
 * argument for a type error, else at the call.
 */
function formatCalls(ast: CheckedAst, report: (id: number, message: string) => void): void {
  const info = (e: Expr): FormatArgInfo => {
    const type = ast.types.get(e.id)!
    if (e.kind === 'list') return { id: e.id, type, elements: e.elements.map(info) }
    if (e.kind === 'map') {
      return { id: e.id, type, entries: e.entries.map((x) => [info(x.key), info(x.value)] as const) }
    }
    return { id: e.id, type }
  }
  walk(ast.expr, (e) => {
    if (e.kind !== 'call' || e.fn !== 'format' || e.target === undefined) return
    const ref = ast.refs.get(e.id)
    if (ref !== undefined && (ref.kind !== 'function' || ref.name !== 'format')) return
    if (ref !== undefined && ref.overloadIds.length > 0 && !ref.overloadIds.includes(STRING_FORMAT)) return
    const target = e.target
    if (target.kind !== 'literal' || target.value.type !== 'string') return
    const list = e.args.length === 1 ? e.args[0]! : undefined
    if (list?.kind !== 'list') return
    const issue = checkFormatCall(target.value.value, list.elements.map(info), e.id)
    if (issue) report(issue.id, issue.message)
  })
}

// ---- traversal ----------------------------------------------------------------------------------

function forEachChild(e: Expr, f: (c: Expr) => void): void {
  switch (e.kind) {
    case 'call':
      if (e.target) f(e.target)
      for (const a of e.args) f(a)
      return
    case 'select':
      f(e.operand)
      return
    case 'list':
      for (const x of e.elements) f(x)
      return
    case 'map':
      for (const x of e.entries) {
        f(x.key)
        f(x.value)
      }
      return
    case 'struct':
      for (const x of e.fields) f(x.value)
      return
    case 'comprehension':
      for (const x of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) f(x)
      return
    default:
      return
  }
}

/** Pre-order traversal. */
function walk(e: Expr, f: (e: Expr) => void): void {
  f(e)
  forEachChild(e, (c) => walk(c, f))
}
