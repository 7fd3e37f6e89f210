import type { Expr, ParsedAst, SourceInfo } from '../common/ast.js'
import { CelCompileError } from '../common/errors.js'
import type { CelIssue, Source } from '../common/source.js'
import type { Env } from '../env.js'
import type { Type } from '../types/types.js'
import { Checker, type Reference } from './checker.js'
import * as msg from './errors.js'
import type { TypeProvider } from './provider.js'
import { isAssignable, Mapping } from './unify.js'

// The CEL type checker (cel-go v0.26 checker/): check(ast, env) types every node of a parsed
// expression against the environment's declarations and returns the types and references the
// compiler uses, or throws CelCompileError('check', ...) with every issue found.

export { formatType } from './format.js'
export type { TypeProvider } from './provider.js'
export type { Reference }

export interface CheckOptions {
  /**
   * cel.CrossTypeNumericComparisons: `<`, `<=`, `>`, `>=` between int, uint and double.
   * Default true (Kubernetes). cel-go's default and its conformance runner: off.
   */
  readonly crossTypeNumericComparisons?: boolean
  /** Object types declared from outside (Kubernetes schemas): field selection and message construction. */
  readonly typeProvider?: TypeProvider
  /**
   * The type the expression must have (e.g. bool for a validation rule): when the output type
   * is not assignable to it, check reports `expected type 'bool' but found 'int'` at the root.
   */
  readonly expectedType?: Type
}

/** A checked expression: the parse result plus the type of every node and the references. */
export interface CheckedAst extends ParsedAst {
  /** Node id → type (type parameters resolved; unbound ones are dyn). */
  readonly types: Map<number, Type>
  /** Identifier / select node id → resolved name; call node id → the overload ids that may apply. */
  readonly refs: Map<number, Reference>
  readonly outputType: Type
}

class Checked implements CheckedAst {
  constructor(
    private readonly parsed: ParsedAst,
    readonly types: Map<number, Type>,
    readonly refs: Map<number, Reference>,
    readonly outputType: Type,
  ) {}
  get expr(): Expr {
    return this.parsed.expr
  }
  get sourceInfo(): SourceInfo {
    return this.parsed.sourceInfo
  }
  get source(): Source {
    return this.parsed.source
  }
}

/**
 * Type-checks a parsed expression. Environments are reused: the declaration tables derived from
 * `env` are computed on first use and cached. Throws CelCompileError('check') listing every
 * issue, sorted by position and worded as cel-go prints them. This is cel-go's checker.Check; the
 * environment's AST validators run after it in envCheck (src/cel/check.ts), as in cel-go's Env.Check.
 */
export function check(ast: ParsedAst, env: Env, options: CheckOptions = {}): CheckedAst {
  const checker = new Checker(ast, env, {
    // cel-go v0.26 never sets its checker's homogeneous option: cel.HomogeneousAggregateLiterals is
    // a validator envCheck runs (cel/options.go, cel/validator.go).
    homogeneousAggregateLiterals: false,
    crossTypeNumericComparisons: options.crossTypeNumericComparisons ?? true,
    provider: options.typeProvider,
  })
  let outputType: Type
  try {
    outputType = checker.run()
  } catch (e) {
    // Only a pathologically deep AST can exhaust the stack; report it as cel-go's checker limit would.
    if (e instanceof RangeError) throw checkFailure(ast, [{ message: 'max recursion depth exceeded', offset: -1 }], 0)
    throw e
  }
  const issues = checker.issues
  const expected = options.expectedType
  if (issues.length === 0 && expected !== undefined && !isAssignable(new Mapping(), expected, outputType)) {
    const offset = ast.sourceInfo.positions.get(ast.expr.id) ?? -1
    issues.push({ message: msg.typeMismatch(expected, outputType), offset })
  }
  if (issues.length > 0) throw checkFailure(ast, issues, checker.errorCount - issues.length)
  return new Checked(ast, checker.types, checker.refs, outputType)
}

/** The check-stage error of `issues`, `truncated` more not listed (also envCheck's, for validator issues). */
export function checkFailure(ast: ParsedAst, issues: CelIssue[], truncated: number): CelCompileError {
  // cel-go's Errors.ToDisplayString sorts by line, then column (stably); offsets order the same way.
  return new CelCompileError(
    'check',
    issues.slice().sort((a, b) => a.offset - b.offset),
    ast.source,
    Math.max(0, truncated),
  )
}
