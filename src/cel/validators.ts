import type { Expr, ParsedAst } from './common/ast.js'
import { CelCompileError } from './common/errors.js'
import type { CelIssue } from './common/source.js'
import { compileRegex } from './stdlib/regex.js'
import { parseDuration, parseTimestamp } from './values/time.js'

// cel-go's literal validators (cel/validator.go ValidateDurationLiterals, ValidateTimestampLiterals,
// ValidateRegexLiterals), which Kubernetes adds from 1.29: a call of `duration`, `timestamp` or
// `matches` with a literal string argument is checked when the expression is compiled, and a bad
// literal is the compile error `invalid <function> argument` at the literal.

const checks: Record<string, (s: string) => unknown> = {
  duration: parseDuration,
  timestamp: parseTimestamp,
  matches: compileRegex,
}

export function validateLiterals(ast: ParsedAst): void {
  const issues: CelIssue[] = []
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'call': {
        const check = checks[e.fn]
        // The validated argument: the pattern of `s.matches(re)` / `matches(s, re)`, else the first.
        const arg = e.fn === 'matches' ? (e.target ? e.args[0] : e.args[1]) : e.target ? undefined : e.args[0]
        if (check && arg?.kind === 'literal' && arg.value.type === 'string') {
          try {
            check(arg.value.value)
          } catch {
            issues.push({ message: `invalid ${e.fn} argument`, offset: ast.sourceInfo.positions.get(arg.id) ?? -1 })
          }
        }
        if (e.target) visit(e.target)
        for (const a of e.args) visit(a)
        return
      }
      case 'select':
        visit(e.operand)
        return
      case 'list':
        for (const x of e.elements) visit(x)
        return
      case 'map':
        for (const x of e.entries) {
          visit(x.key)
          visit(x.value)
        }
        return
      case 'struct':
        for (const f of e.fields) visit(f.value)
        return
      case 'comprehension':
        for (const x of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) visit(x)
        return
      default:
        return
    }
  }
  visit(ast.expr)
  if (issues.length > 0) throw new CelCompileError('check', issues, ast.source)
}
