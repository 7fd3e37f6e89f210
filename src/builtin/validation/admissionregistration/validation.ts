import { trim } from '../../../cel/ext/strings.js'
import type { Validation } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { validateCELCondition } from './cel-condition.js'
import type { PolicyCompiler } from './compiler.js'
import { environmentFor, type ValidationOptions } from './options.js'

// validateValidation, validateValidationExpression and validateMessageExpression
// (admissionregistration validation.go).

/** supportedValidationPolicyReason.List() (sorted). */
export const SUPPORTED_VALIDATION_POLICY_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'] as const

/** newlineMatcher: the line breaks of the CEL grammar. */
const NEWLINES = /[\n\r]+/

/**
 * validateValidation: a non-blank expression (compiled as written, so compiler columns match),
 * a messageExpression that is not blank if set (compiled without the authorizer), a message that is
 * not blank if set and has no line break, a supported reason.
 */
export function validateValidation(
  compiler: PolicyCompiler | undefined,
  v: Validation,
  hasParamKind: boolean,
  opts: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const expression = v.expression ?? ''
  const message = v.message ?? ''
  const messageExpression = v.messageExpression ?? ''
  const trimmedMsg = trim(message)
  const trimmedMessageExpression = trim(messageExpression)
  if (trim(expression).length === 0)
    errs.push(field.required(fldPath.child('expression'), 'expression is not specified'))
  else if (compiler !== undefined)
    // validateValidationExpression
    errs.push(
      ...validateCELCondition(
        compiler,
        expression,
        'validation',
        {
          hasParams: hasParamKind,
          hasAuthorizer: true,
          environment: environmentFor(opts.preexistingExpressions.validationExpressions, expression),
        },
        fldPath.child('expression'),
      ),
    )
  if (messageExpression.length > 0 && trimmedMessageExpression.length === 0)
    errs.push(field.invalid(fldPath.child('messageExpression'), messageExpression, 'must be non-empty if specified'))
  else if (trimmedMessageExpression.length !== 0 && compiler !== undefined)
    // validateMessageExpression: the untrimmed text, so that the compiler output shows the right column
    errs.push(
      ...validateCELCondition(
        compiler,
        messageExpression,
        'messageExpression',
        {
          hasParams: opts.allowParamsInMatchConditions,
          hasAuthorizer: false,
          environment: environmentFor(opts.preexistingExpressions.validationMessageExpressions, messageExpression),
        },
        fldPath.child('messageExpression'),
      ),
    )
  if (message.length > 0 && trimmedMsg.length === 0)
    errs.push(field.invalid(fldPath.child('message'), message, 'message must be non-empty if specified'))
  else if (NEWLINES.test(trimmedMsg))
    errs.push(field.invalid(fldPath.child('message'), message, 'message must not contain line breaks'))
  if (
    v.reason !== undefined &&
    v.reason !== null &&
    !(SUPPORTED_VALIDATION_POLICY_REASONS as readonly string[]).includes(v.reason)
  )
    errs.push(field.notSupported(fldPath.child('reason'), v.reason, SUPPORTED_VALIDATION_POLICY_REASONS))
  return errs
}
