import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import type { LabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { arr, isObj, type JSONObject, obj, str, strs } from '../common.js'

// policy/v1 PodDisruptionBudget: kubernetes v1.37.2 pkg/apis/policy/validation/validation.go
// ValidatePodDisruptionBudget, run by the strategy on create and update alike (no ObjectMeta: the
// generic BeforeCreate / BeforeUpdate checks it); an old selector with invalid label values lets them
// stay (hasInvalidLabelValueInLabelSelector). The declarative rules of the kind are alpha (status).

const SPEC = FieldPath.of('spec')
const POLICIES = ['AlwaysAllow', 'IfHealthyBudget']
const PERCENT = /^[0-9]+%$/
const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

/** ValidatePositiveIntOrPercent + IsNotMoreThan100Percent (an IntOrString as decoded). */
export function validateIntOrPercent(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v === 'string') {
    if (!PERCENT.test(v)) return [field.invalid(p, v, PERCENT_MSG)]
    return Number(v.slice(0, -1)) > 100 ? [field.invalid(p, v, 'must not be greater than 100%')] : []
  }
  const n = typeof v === 'number' ? v : 0
  return n < 0 ? [field.invalid(p, n, 'must be greater than or equal to 0')] : []
}

/** metav1.LabelSelector as Go marshals it (matchLabels, matchExpressions; omitempty). */
function selectorValue(sel: unknown): unknown {
  if (!isObj(sel)) return null
  const f: [string, unknown][] = []
  if (isObj(sel.matchLabels) && Object.keys(sel.matchLabels).length > 0) f.push(['matchLabels', sel.matchLabels])
  const ex = arr(sel.matchExpressions).map((e) => {
    const x = obj(e) ?? {}
    const g: [string, unknown][] = [
      ['key', str(x.key)],
      ['operator', str(x.operator)],
    ]
    if (strs(x.values).length > 0) g.push(['values', strs(x.values)])
    return new GoStruct(g)
  })
  if (ex.length > 0) f.push(['matchExpressions', ex])
  return new GoStruct(f)
}

export function validatePDBSpec(spec: JSONObject, allowInvalidLabelValue: boolean, minor = 37): FieldError[] {
  const errs: FieldError[] = []
  const has = (k: string) => spec[k] !== undefined && spec[k] !== null
  if (has('minAvailable') && has('maxUnavailable'))
    // the internal PodDisruptionBudgetSpec has no JSON tags: Go field names
    errs.push(
      field.invalid(
        SPEC,
        new GoStruct([
          ['MinAvailable', spec.minAvailable],
          ['Selector', selectorValue(spec.selector)],
          ['MaxUnavailable', spec.maxUnavailable],
          ['UnhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy ?? null],
        ]),
        'minAvailable and maxUnavailable cannot be both set',
      ),
    )
  if (has('minAvailable')) errs.push(...validateIntOrPercent(spec.minAvailable, SPEC.child('minAvailable')))
  if (has('maxUnavailable')) errs.push(...validateIntOrPercent(spec.maxUnavailable, SPEC.child('maxUnavailable')))
  if (isObj(spec.selector))
    errs.push(
      ...validateLabelSelector(
        spec.selector as LabelSelector,
        { allowInvalidLabelValueInSelector: allowInvalidLabelValue },
        SPEC.child('selector'),
        minor,
      ),
    )
  if (typeof spec.unhealthyPodEvictionPolicy === 'string' && !POLICIES.includes(spec.unhealthyPodEvictionPolicy))
    errs.push(field.notSupported(SPEC.child('unhealthyPodEvictionPolicy'), spec.unhealthyPodEvictionPolicy, POLICIES))
  return errs
}

function validatePodDisruptionBudgetCreateOrUpdate(
  pdb: JSONObject,
  old: JSONObject | undefined,
  minor: number,
): FieldError[] {
  const oldSel = obj(obj(old?.spec)?.selector)
  const allow =
    oldSel !== undefined && validateLabelSelector(oldSel as LabelSelector, {}, FieldPath.of('selector')).length > 0
  return validatePDBSpec(obj(pdb.spec) ?? {}, allow, minor)
}

/** ValidatePodDisruptionBudget. */
export function validatePodDisruptionBudget(pdb: JSONObject, minor: number): FieldError[] {
  return validatePodDisruptionBudgetCreateOrUpdate(pdb, undefined, minor)
}

/** ValidatePodDisruptionBudgetUpdate (ValidatePodDisruptionBudget with the old selector's allowances). */
export function validatePodDisruptionBudgetUpdate(pdb: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validatePodDisruptionBudgetCreateOrUpdate(pdb, old, minor)
}
