import type { CompileHook } from '../../../kube/admissionregistration/compile-hook.js'

// validationOptions and preexistingExpressions of admissionregistration validation.go, reduced to
// what the policy kinds read.

/** preexistingExpressions: the old object's expressions, compiled in the StoredExpressions environment. */
export interface PreexistingExpressions {
  readonly matchConditionExpressions: ReadonlySet<string>
  readonly validationExpressions: ReadonlySet<string>
  readonly validationMessageExpressions: ReadonlySet<string>
  readonly auditAnnotationValuesExpressions: ReadonlySet<string>
}

export interface ValidationOptions {
  /** The update left paramKind and matchConditions unchanged: match conditions are not re-validated. */
  readonly ignoreMatchConditions: boolean
  /** Set when the policy has a paramKind: `params` is declared in match conditions and messageExpression. */
  readonly allowParamsInMatchConditions: boolean
  readonly preexistingExpressions: PreexistingExpressions
  readonly compile: CompileHook | undefined
}

const EMPTY: ReadonlySet<string> = new Set()

/** The zero value (create): nothing preexists. */
export const NO_PREEXISTING_EXPRESSIONS: PreexistingExpressions = {
  matchConditionExpressions: EMPTY,
  validationExpressions: EMPTY,
  validationMessageExpressions: EMPTY,
  auditAnnotationValuesExpressions: EMPTY,
}

export function environmentFor(preexisting: ReadonlySet<string>, expression: string) {
  return preexisting.has(expression) ? ('StoredExpressions' as const) : ('NewExpressions' as const)
}
