import type { CompileOutcome, ExpressionKind } from '../../../kube/admissionregistration/compile-hook.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import type { CompileOptions, PolicyCompiler } from './compiler.js'

// validateCELCondition and convertCELErrorToValidationError (admissionregistration validation.go),
// with the part of plugin/cel compile.go CompileCELExpression that turns a compile result into an
// apiserver cel.Error: `compilation failed: <issues>` or the result-type check.

/** ExpressionAccessor.ReturnTypes of each kind; undefined: AnyType (variables accept any type). */
const RETURN_TYPES: Record<ExpressionKind, readonly string[] | undefined> = {
  validation: ['bool'],
  matchCondition: ['bool'],
  messageExpression: ['string'],
  auditAnnotation: ['string', 'null_type'],
  variable: undefined,
  jsonPatch: ['list(JSONPatch)'],
  applyConfiguration: ['Object'],
}

/** The cel.Error detail of a compile outcome (always ErrorTypeInvalid), or undefined when it compiled. */
export function compileErrorDetail(outcome: CompileOutcome, kind: ExpressionKind): string | undefined {
  if (outcome === undefined) return undefined
  if (typeof outcome === 'string') return `compilation failed: ${outcome}`
  if (outcome.error !== undefined) return `compilation failed: ${outcome.error}`
  const returnTypes = RETURN_TYPES[kind]
  if (outcome.outputType === undefined || returnTypes === undefined) return undefined
  if (returnTypes.includes(outcome.outputType)) return undefined
  // the mutating policies' expressions are compiled by CompileMutatingEvaluator, whose result-type check
  // names the type found (plugin/cel compile.go; a 1.37.2 apiserver answers `must evaluate to
  // list(JSONPatch) but got list(dyn)` for `[]`)
  if (kind === 'jsonPatch' || kind === 'applyConfiguration')
    return `must evaluate to ${returnTypes[0]} but got ${outcome.outputType}`
  return returnTypes.length === 1
    ? `must evaluate to ${returnTypes[0]}`
    : `must evaluate to one of [${returnTypes.join(' ')}]`
}

/** convertCELErrorToValidationError: an Invalid error whose bad value is the compiled expression. */
export function convertCELErrorToValidationError(fldPath: FieldPath, expression: string, detail: string): FieldError {
  return field.invalid(fldPath, expression, detail)
}

/** validateCELCondition: compiles one expression, at most one error. */
export function validateCELCondition(
  compiler: PolicyCompiler,
  expression: string,
  kind: ExpressionKind,
  opts: CompileOptions,
  fldPath: FieldPath,
): FieldError[] {
  const detail = compileErrorDetail(compiler.compile(expression, kind, opts), kind)
  return detail === undefined ? [] : [convertCELErrorToValidationError(fldPath, expression, detail)]
}
