import type { MatchResources } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { validateNamedRuleWithOperations } from './named-rule-with-operations.js'

// validateMatchResources (admissionregistration validation.go).

/** supportedMatchPolicies.List() (sorted). */
export const SUPPORTED_MATCH_POLICIES = ['Equivalent', 'Exact'] as const

/**
 * validateMatchResources: matchPolicy and both selectors are required (they are defaulted), selectors
 * are validated strictly, then every resource and exclude rule. A nil MatchResources is valid.
 */
export function validateMatchResources(mc: MatchResources | undefined | null, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (mc === undefined || mc === null) return errs
  if (mc.matchPolicy === undefined || mc.matchPolicy === null)
    errs.push(field.required(fldPath.child('matchPolicy'), ''))
  else if (!(SUPPORTED_MATCH_POLICIES as readonly string[]).includes(mc.matchPolicy))
    errs.push(field.notSupported(fldPath.child('matchPolicy'), mc.matchPolicy, SUPPORTED_MATCH_POLICIES))
  // validate selectors strictly, this type was released after issue #99139 was resolved
  if (mc.namespaceSelector === undefined || mc.namespaceSelector === null)
    errs.push(field.required(fldPath.child('namespaceSelector'), ''))
  else errs.push(...validateLabelSelector(mc.namespaceSelector, {}, fldPath.child('namespaceSelector')))
  if (mc.objectSelector === undefined || mc.objectSelector === null)
    errs.push(field.required(fldPath.child('objectSelector'), ''))
  else errs.push(...validateLabelSelector(mc.objectSelector, {}, fldPath.child('objectSelector')))
  ;(mc.resourceRules ?? []).forEach((rule, i) => {
    errs.push(...validateNamedRuleWithOperations(rule, fldPath.child('resourceRules').index(i)))
  })
  ;(mc.excludeResourceRules ?? []).forEach((rule, i) => {
    errs.push(...validateNamedRuleWithOperations(rule, fldPath.child('excludeResourceRules').index(i)))
  })
  return errs
}
