import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import type { JSONSchemaProps, SelectableField } from './types.js'
import { stepsString, validFieldPath } from './valid-field-path.js'

// ValidateCustomResourceSelectableFields (validation.go): each selectable field is a path of field
// steps to a string, boolean or integer outside metadata; at most 8 distinct ones.

export const MAX_SELECTABLE_FIELDS = 8

export function validateSelectableFields(
  selectableFields: readonly SelectableField[],
  schema: JSONSchemaProps | undefined,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const unique = new Set<string>()
  selectableFields.forEach((sf, i) => {
    const p = fldPath.index(i).child('jsonPath')
    const jsonPath = sf.jsonPath ?? ''
    if (jsonPath.length === 0) {
      errs.push(field.required(p, ''))
      return
    }
    // Go dereferences a nil schema here (a non-structural schema); reported as an invalid path
    const r =
      schema === undefined
        ? ({ ok: false, error: 'does not refer to a valid field' } as const)
        : validFieldPath(jsonPath, schema, false)
    if (!r.ok) {
      errs.push(field.invalid(p, jsonPath, `is an invalid path: ${r.error}`))
      return
    }
    const root = r.steps[0]
    if (root !== undefined && stepsString([root]) === 'metadata')
      errs.push(field.invalid(p, jsonPath, 'must not point to fields in metadata'))
    const t = r.schema?.type
    if (!(t === 'string' || t === 'boolean' || t === 'integer'))
      errs.push(
        field.invalid(
          p,
          jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      )
    const key = stepsString(r.steps)
    if (unique.has(key)) errs.push(field.duplicate(p, jsonPath))
    else unique.add(key)
  })
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(field.tooMany(fldPath, unique.size, MAX_SELECTABLE_FIELDS))
  return errs
}
