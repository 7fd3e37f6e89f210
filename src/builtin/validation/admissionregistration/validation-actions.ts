import { type FieldError, type FieldPath, field } from '../../../kube/field.js'

// validateValidationActions (admissionregistration validation.go).

/** validValidationActions.List() (sorted). */
export const VALID_VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'] as const

/**
 * validateValidationActions: each action supported and listed once, not both Deny and Warn, at
 * least one.
 */
export function validateValidationActions(va: readonly string[] | undefined, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const list = va ?? []
  const actions = new Set<string>()
  list.forEach((action, i) => {
    if (!(VALID_VALIDATION_ACTIONS as readonly string[]).includes(action))
      errs.push(field.notSupported(fldPath.index(i), action, VALID_VALIDATION_ACTIONS))
    if (actions.has(action)) errs.push(field.duplicate(fldPath.index(i), action))
    actions.add(action)
  })
  if (actions.has('Deny') && actions.has('Warn'))
    errs.push(
      field.invalid(
        fldPath,
        list,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    )
  if (actions.size === 0) errs.push(field.required(fldPath, 'at least one validation action is required'))
  return errs
}
