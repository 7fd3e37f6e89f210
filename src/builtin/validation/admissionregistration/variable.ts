import { trim } from '../../../cel/ext/strings.js'
import type { Variable } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { compileErrorDetail, convertCELErrorToValidationError } from './cel-condition.js'
import { isCELIdentifier } from './cel-identifier.js'
import type { PolicyCompiler } from './compiler.js'
import { environmentFor, type ValidationOptions } from './options.js'

// validateVariable (admissionregistration validation.go).

/**
 * validateVariable: a name that is a CEL identifier and a non-blank expression, compiled and stored
 * in the composition environment (declared for everything compiled after it, even when invalid).
 */
export function validateVariable(
  compiler: PolicyCompiler | undefined,
  v: Variable,
  hasParamKind: boolean,
  opts: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const name = v.name ?? ''
  const expression = v.expression ?? ''
  if (name.length === 0 || trim(name) === '') errs.push(field.required(fldPath.child('name'), 'name is not specified'))
  else if (!isCELIdentifier(name))
    errs.push(field.invalid(fldPath.child('name'), name, 'name is not a valid CEL identifier'))
  if (expression.length === 0 || trim(expression) === '')
    errs.push(field.required(fldPath.child('expression'), 'expression is not specified'))
  else if (compiler !== undefined) {
    // Go looks the variable up among the old object's validation expressions (not its variables)
    const outcome = compiler.compileAndStoreVariable(name, expression, {
      hasParams: hasParamKind,
      hasAuthorizer: true,
      environment: environmentFor(opts.preexistingExpressions.validationExpressions, expression),
    })
    const detail = compileErrorDetail(outcome, 'variable')
    if (detail !== undefined)
      errs.push(convertCELErrorToValidationError(fldPath.child('expression'), expression, detail))
  }
  return errs
}
