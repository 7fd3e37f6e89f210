import { trim } from '../../../cel/ext/strings.js'
import type { AuditAnnotation } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { byteLength, isQualifiedName } from '../../../kube/validation/names.js'
import { compileErrorDetail } from './cel-condition.js'
import type { PolicyCompiler } from './compiler.js'
import { environmentFor, type ValidationOptions } from './options.js'

// validateAuditAnnotation (admissionregistration validation.go).

/** maxAuditAnnotationValueExpressionLength: 5 KiB (the audit value limit is 10 KiB). */
export const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024

/**
 * validateAuditAnnotation: `<policy name>/<key>` is a qualified name; the valueExpression is not
 * blank, at most 5 KiB once trimmed, and compiles (trimmed) to a string or null.
 */
export function validateAuditAnnotation(
  compiler: PolicyCompiler | undefined,
  policyName: string,
  v: AuditAnnotation,
  hasParamKind: boolean,
  opts: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const key = v.key ?? ''
  if (policyName.length !== 0) {
    const qualified = `${policyName}/${key}`
    for (const msg of isQualifiedName(qualified)) errs.push(field.invalid(fldPath.child('key'), qualified, msg))
  } else errs.push(field.invalid(fldPath.child('key'), key, 'requires metadata.name be non-empty'))

  const valueExpression = v.valueExpression ?? ''
  const trimmed = trim(valueExpression)
  if (trimmed.length === 0)
    errs.push(field.required(fldPath.child('valueExpression'), 'valueExpression is not specified'))
  else if (byteLength(trimmed) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH)
    errs.push(
      field.required(
        fldPath.child('valueExpression'),
        `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`,
      ),
    )
  else if (compiler !== undefined) {
    const outcome = compiler.compile(trimmed, 'auditAnnotation', {
      hasParams: hasParamKind,
      hasAuthorizer: true,
      environment: environmentFor(opts.preexistingExpressions.auditAnnotationValuesExpressions, valueExpression),
    })
    const detail = compileErrorDetail(outcome, 'auditAnnotation')
    // the bad value is the expression as written, the compiled text the trimmed one
    if (detail !== undefined) errs.push(field.invalid(fldPath.child('valueExpression'), valueExpression, detail))
  }
  return errs
}
