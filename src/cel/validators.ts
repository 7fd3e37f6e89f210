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

/** Whether the environment has the strings extension's `format` (and so its validator); by function table. */
function hasFormatValidator(env: Env): boolean {
  const functions = env.functions
  let has = formatValidators.get(functions)
  if (has === undefined) {
    has = functions.get('format')?.overloads.some((o) => o.id === STRING_FORMAT) ?? false
    formatValidators.set(functions, has)
  }
  return has
}
const formatValidators = new WeakMap<Env['functions'], boolean>()

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
  // One walk finds what the validators look at; most rules hold none of it, and then none runs.
  const found = candidates(ast, homogeneous, formatValidator, env.features.literalValidators)
  if (found === undefined) return { issues, count }
  if (homogeneous) homogeneousLiterals(ast, found, report)
  for (const e of found.literalCalls) literalArgument(e, report)
  for (const e of found.formatCalls) formatCall(ast, e, report)
  return { issues, count }
}

type CallNode = Expr & { kind: 'call' }

/** The nodes each validator checks, in pre-order (the order cel-go's validators visit and report them). */
interface Candidates {
  /** List literals outside an exempt call's arguments. */
  readonly lists: (Expr & { kind: 'list' })[]
  /** Map literals outside an exempt call's arguments. */
  readonly maps: (Expr & { kind: 'map' })[]
  /** Calls of `duration`, `timestamp` and `matches` (when the environment enables the literal validators). */
  readonly literalCalls: CallNode[]
  /** Member calls of `format` (when the environment has the strings extension's). */
  readonly formatCalls: CallNode[]
}

/**
 * One pre-order walk (iterative: no closure or array per node) collecting the candidates of the three
 * validators; undefined when there is none. With the format validator, the arguments of a `format` call
 * are exempt from the homogeneous literal check (the strings extension's exemption).
 */
function candidates(ast: CheckedAst, homogeneous: boolean, format: boolean, literals: boolean): Candidates | undefined {
  let found: Candidates | undefined
  const get = (): Candidates => {
    found ??= { lists: [], maps: [], literalCalls: [], formatCalls: [] }
    return found
  }
  const exemptions = homogeneous && format
  const stack: Expr[] = [ast.expr]
  // parallel to `stack` when exemptions apply: whether the node is inside an exempt call
  const exempt: boolean[] = [false]
  // children are pushed last first, so that they pop first first (pre-order, as a recursive walk)
  while (stack.length > 0) {
    const e = stack.pop()!
    const inExempt = exemptions && exempt.pop()!
    const from = stack.length
    switch (e.kind) {
      case 'call': {
        if (literals && (e.fn === 'duration' || e.fn === 'timestamp' || e.fn === 'matches')) get().literalCalls.push(e)
        if (format && e.fn === 'format' && e.target !== undefined) get().formatCalls.push(e)
        const args = e.args
        for (let i = args.length - 1; i >= 0; i--) stack.push(args[i]!)
        if (e.target) stack.push(e.target)
        break
      }
      case 'select':
        stack.push(e.operand)
        break
      case 'list': {
        if (homogeneous && !inExempt) get().lists.push(e)
        const elements = e.elements
        for (let i = elements.length - 1; i >= 0; i--) stack.push(elements[i]!)
        break
      }
      case 'map': {
        if (homogeneous && !inExempt) get().maps.push(e)
        const entries = e.entries
        for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]!.value, entries[i]!.key)
        break
      }
      case 'struct': {
        const fields = e.fields
        for (let i = fields.length - 1; i >= 0; i--) stack.push(fields[i]!.value)
        break
      }
      case 'comprehension':
        stack.push(e.result, e.loopStep, e.loopCondition, e.accuInit, e.iterRange)
        break
      default:
        break
    }
    if (exemptions && stack.length > from) {
      const childExempt = inExempt || (e.kind === 'call' && callName(ast, e) === 'format')
      for (let i = from; i < stack.length; i++) exempt.push(childExempt)
    }
  }
  return found
}

// ---- literal arguments (cel/validator.go ValidateDurationLiterals, ...) ------------------------

const checks: Record<string, (s: string) => unknown> = {
  duration: parseDuration,
  timestamp: parseTimestamp,
  matches: compileRegex,
}

/** A `duration`, `timestamp` or `matches` call's literal argument, evaluated as cel-go does. */
function literalArgument(e: CallNode, report: (id: number, message: string) => void): void {
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

function homogeneousLiterals(ast: CheckedAst, found: Candidates, report: (id: number, message: string) => void): void {
  const typeOf = (e: Expr): Type | undefined => ast.types.get(e.id)
  const mismatch = (id: number, expected: Type, actual: Type): void =>
    report(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`)
  // cel-go checks every list literal first, then every map literal.
  for (const e of found.lists) {
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
  }
  for (const e of found.maps) {
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
 * A member call `'<string literal>'.format(<list literal>)` whose overload is the strings extension's
 * (or unresolved): the format is parsed, each clause checked against the type of the argument it
 * consumes, and an unused argument is an error. The issue is reported at the offending argument for a
 * type error, else at the call.
 */
function formatCall(ast: CheckedAst, e: CallNode, report: (id: number, message: string) => void): void {
  const info = (x: Expr): FormatArgInfo => {
    const type = ast.types.get(x.id)!
    if (x.kind === 'list') return { id: x.id, type, elements: x.elements.map(info) }
    if (x.kind === 'map') {
      return { id: x.id, type, entries: x.entries.map((y) => [info(y.key), info(y.value)] as const) }
    }
    return { id: x.id, type }
  }
  const ref = ast.refs.get(e.id)
  if (ref !== undefined && (ref.kind !== 'function' || ref.name !== 'format')) return
  if (ref !== undefined && ref.overloadIds.length > 0 && !ref.overloadIds.includes(STRING_FORMAT)) return
  const target = e.target
  if (target?.kind !== 'literal' || target.value.type !== 'string') return
  const list = e.args.length === 1 ? e.args[0]! : undefined
  if (list?.kind !== 'list') return
  const issue = checkFormatCall(target.value.value, list.elements.map(info), e.id)
  if (issue) report(issue.id, issue.message)
}
