import { type CheckedAst, type CheckOptions, check, checkFailure } from './checker/index.js'
import type { ParsedAst } from './common/ast.js'
import type { Env } from './env.js'
import { validateChecked } from './validators.js'

// cel-go's Env.Check (cel/env.go): the type check, then, only when it succeeded, the environment's
// AST validators (cel/validator.go, src/cel/validators.ts), whose issues fail the check the same way.
// Kept apart from the checker so that the checker and the validators do not import each other.

export interface EnvCheckOptions extends CheckOptions {
  /**
   * cel.HomogeneousAggregateLiterals: list and map literals must have one element type
   * (`expected type 'int' but found 'string'`). As in cel-go v0.26 this is a validator run once the
   * check succeeded (the checker itself types mixed literals `list(dyn)`), with its exemption:
   * literals inside a strings-extension `format` call. Default true (Kubernetes). cel-go's own
   * default and its conformance runner: off.
   */
  readonly homogeneousAggregateLiterals?: boolean
}

/** Type-checks `ast` in `env` and runs the environment's validators; throws CelCompileError('check'). */
export function envCheck(ast: ParsedAst, env: Env, options: EnvCheckOptions = {}): CheckedAst {
  const checked = check(ast, env, options)
  const validation = validateChecked(checked, env, options.homogeneousAggregateLiterals ?? true)
  if (validation.issues.length > 0)
    throw checkFailure(ast, validation.issues, validation.count - validation.issues.length)
  return checked
}
