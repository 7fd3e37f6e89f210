import type { MatchCondition, ParamKind, ValidatingAdmissionPolicy } from '../../../kube/admissionregistration/types.js'
import type { PreexistingExpressions } from './options.js'

// findValidatingPolicyPreexistingExpressions and ignoreValidatingAdmissionPolicyMatchConditions
// (admissionregistration validation.go): what an update takes from the old policy.

/** findValidatingPolicyPreexistingExpressions: the old policy's expressions, by kind. */
export function findValidatingPolicyPreexistingExpressions(old: ValidatingAdmissionPolicy): PreexistingExpressions {
  const spec = old.spec ?? {}
  const matchConditionExpressions = new Set<string>()
  const validationExpressions = new Set<string>()
  const validationMessageExpressions = new Set<string>()
  const auditAnnotationValuesExpressions = new Set<string>()
  for (const mc of spec.matchConditions ?? []) matchConditionExpressions.add(mc.expression ?? '')
  for (const v of spec.validations ?? []) {
    validationExpressions.add(v.expression ?? '')
    if ((v.messageExpression ?? '').length > 0) validationMessageExpressions.add(v.messageExpression ?? '')
  }
  for (const a of spec.auditAnnotations ?? []) auditAnnotationValuesExpressions.add(a.valueExpression ?? '')
  return {
    matchConditionExpressions,
    validationExpressions,
    validationMessageExpressions,
    auditAnnotationValuesExpressions,
  }
}

/** equality.Semantic.DeepEqual of two *ParamKind. */
function sameParamKind(a: ParamKind | undefined | null, b: ParamKind | undefined | null): boolean {
  const na = a === undefined || a === null
  const nb = b === undefined || b === null
  if (na || nb) return na === nb
  return (a.apiVersion ?? '') === (b.apiVersion ?? '') && (a.kind ?? '') === (b.kind ?? '')
}

/** equality.Semantic.DeepEqual of two []MatchCondition (nil and empty are equal). */
function sameMatchConditions(
  a: readonly MatchCondition[] | undefined,
  b: readonly MatchCondition[] | undefined,
): boolean {
  const la = a ?? []
  const lb = b ?? []
  if (la.length !== lb.length) return false
  return la.every(
    (x, i) => (x.name ?? '') === (lb[i]?.name ?? '') && (x.expression ?? '') === (lb[i]?.expression ?? ''),
  )
}

/**
 * ignoreValidatingAdmissionPolicyMatchConditions: true when the update changed neither paramKind
 * nor matchConditions, so previously accepted match conditions are not validated again.
 */
export function ignoreValidatingAdmissionPolicyMatchConditions(
  newPolicy: ValidatingAdmissionPolicy,
  oldPolicy: ValidatingAdmissionPolicy,
): boolean {
  return (
    sameParamKind(newPolicy.spec?.paramKind, oldPolicy.spec?.paramKind) &&
    sameMatchConditions(newPolicy.spec?.matchConditions, oldPolicy.spec?.matchConditions)
  )
}
