import type { NamedRuleWithOperations } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { validateRule } from './rule.js'

// validateRuleWithOperations (admissionregistration validation.go).

/** supportedOperations.List() (sorted). */
export const SUPPORTED_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'] as const

/** validateRuleWithOperations: operations, then the rule (subresources allowed). */
export function validateRuleWithOperations(rule: NamedRuleWithOperations, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const operations = rule.operations ?? []
  if (operations.length === 0) errs.push(field.required(fldPath.child('operations'), ''))
  if (operations.length > 1 && operations.includes('*'))
    errs.push(
      field.invalid(fldPath.child('operations'), operations, "if '*' is present, must not specify other operations"),
    )
  operations.forEach((operation, i) => {
    if (!(SUPPORTED_OPERATIONS as readonly string[]).includes(operation))
      errs.push(field.notSupported(fldPath.child('operations').index(i), operation, SUPPORTED_OPERATIONS))
  })
  errs.push(...validateRule(rule, fldPath, true))
  return errs
}
