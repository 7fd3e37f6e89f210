import type { ParamRef } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { isPathSegmentName } from '../../../kube/validation/path-segment-name.js'

// validateParamRef (admissionregistration validation.go).

/** The values parameterNotFoundAction accepts, in Go's order (not sorted). */
export const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'] as const

/**
 * validateParamRef: exactly one of name (a path segment) or selector (validated strictly), and a
 * parameterNotFoundAction of Deny or Allow. A nil ParamRef is valid.
 */
export function validateParamRef(pr: ParamRef | undefined | null, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (pr === undefined || pr === null) return errs
  const name = pr.name ?? ''
  const hasSelector = pr.selector !== undefined && pr.selector !== null
  if (name.length > 0) {
    for (const msg of isPathSegmentName(name)) errs.push(field.invalid(fldPath.child('name'), name, msg))
    if (hasSelector) errs.push(field.forbidden(fldPath.child('name'), 'name and selector are mutually exclusive'))
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(pr.selector, {}, fldPath.child('selector')))
    if (name.length > 0)
      errs.push(field.forbidden(fldPath.child('selector'), 'name and selector are mutually exclusive'))
  }
  if (name.length === 0 && !hasSelector) errs.push(field.required(fldPath, 'one of name or selector must be specified'))
  const action = pr.parameterNotFoundAction
  if (action === undefined || action === null || action.length === 0)
    errs.push(field.required(fldPath.child('parameterNotFoundAction'), ''))
  else if (action !== 'Deny' && action !== 'Allow')
    errs.push(field.notSupported(fldPath.child('parameterNotFoundAction'), action, PARAMETER_NOT_FOUND_ACTIONS))
  return errs
}
