import { type FieldError, type FieldPath, field } from '../field.js'
import { sortedKeys } from '../values/json.js'
import { isQualifiedName, isValidLabelValue } from './names.js'

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirement {
  readonly key?: string
  /** `In`, `NotIn`, `Exists` or `DoesNotExist`. */
  readonly operator?: string
  readonly values?: readonly string[]
}

/** metav1.LabelSelector (`{}` selects everything). */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>
  readonly matchExpressions?: readonly LabelSelectorRequirement[]
}

// The syntax checks of a label selector (apimachinery pkg/apis/meta/v1/validation validation.go:
// ValidateLabelSelector and the functions it calls). Matching objects against a selector is not
// here. Go walks matchLabels in map order (random); here keys are visited sorted. `minor` is the
// target release (the name and value messages say `characters` before 1.35, `bytes` from 1.35:
// names.ts); callers without one get the newest release's messages.

/** metav1validation.LabelSelectorValidationOptions. */
export interface LabelSelectorValidationOptions {
  /** Skip the label-value syntax of matchExpressions values (only for existing invalid data). */
  readonly allowInvalidLabelValueInSelector?: boolean
  /** Accept an operator that is not In, NotIn, Exists or DoesNotExist. */
  readonly allowUnknownOperatorInRequirement?: boolean
}

/** ValidateLabelName: the key is a qualified name. */
export function validateLabelName(labelName: string, fldPath: FieldPath, minor = 37): FieldError[] {
  return isQualifiedName(labelName, minor).map((msg) => field.invalid(fldPath, labelName, msg))
}

/** ValidateLabels: keys are qualified names, values label values (all reported at `fldPath`). */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  fldPath: FieldPath,
  minor = 37,
): FieldError[] {
  const errs: FieldError[] = []
  if (labels === undefined || labels === null) return errs
  for (const k of sortedKeys(labels)) {
    errs.push(...validateLabelName(k, fldPath, minor))
    const v = labels[k] ?? ''
    for (const msg of isValidLabelValue(v, minor)) errs.push(field.invalid(fldPath, v, msg))
  }
  return errs
}

/** ValidateLabelSelectorRequirement. */
export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirement,
  opts: LabelSelectorValidationOptions,
  fldPath: FieldPath,
  minor = 37,
): FieldError[] {
  const errs: FieldError[] = []
  const values = sr.values ?? []
  const operator = sr.operator ?? ''
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0)
        errs.push(field.required(fldPath.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"))
      break
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0)
        errs.push(
          field.forbidden(
            fldPath.child('values'),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        )
      break
    default:
      if (!opts.allowUnknownOperatorInRequirement)
        errs.push(field.invalid(fldPath.child('operator'), operator, 'not a valid selector operator'))
  }
  errs.push(...validateLabelName(sr.key ?? '', fldPath.child('key'), minor))
  if (!opts.allowInvalidLabelValueInSelector)
    values.forEach((value, i) => {
      for (const msg of isValidLabelValue(value, minor))
        errs.push(field.invalid(fldPath.child('values').index(i), value, msg))
    })
  return errs
}

/** ValidateLabelSelector: matchLabels, then each matchExpressions requirement. A nil selector is valid. */
export function validateLabelSelector(
  ps: LabelSelector | undefined | null,
  opts: LabelSelectorValidationOptions,
  fldPath: FieldPath,
  minor = 37,
): FieldError[] {
  const errs: FieldError[] = []
  if (ps === undefined || ps === null) return errs
  errs.push(...validateLabels(ps.matchLabels, fldPath.child('matchLabels'), minor))
  ;(ps.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, opts, fldPath.child('matchExpressions').index(i), minor))
  })
  return errs
}
