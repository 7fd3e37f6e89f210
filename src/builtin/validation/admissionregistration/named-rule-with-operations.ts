import type { NamedRuleWithOperations } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isPathSegmentName } from '../../../kube/validation/path-segment-name.js'
import { validateRuleWithOperations } from './rule-with-operations.js'

// validateNamedRuleWithOperations (admissionregistration validation.go).

/** validateNamedRuleWithOperations: resourceNames (path segments, no duplicates), then the rule. */
export function validateNamedRuleWithOperations(rule: NamedRuleWithOperations, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  ;(rule.resourceNames ?? []).forEach((name, i) => {
    const p = fldPath.child('resourceNames').index(i)
    for (const msg of isPathSegmentName(name)) errs.push(field.invalid(p, name, msg))
    if (seen.has(name)) errs.push(field.duplicate(p, name))
    else seen.add(name)
  })
  errs.push(...validateRuleWithOperations(rule, fldPath))
  return errs
}
