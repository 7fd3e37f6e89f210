import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { isDNS1035Label } from '../../kube/validation/names.js'
import type { CustomResourceDefinitionNames } from './types.js'

// ValidateCustomResourceDefinitionNames (validation.go): the formats of spec.names (and of
// status.acceptedNames). Which names are required is checked by the spec validation.

export function validateCustomResourceDefinitionNames(
  names: CustomResourceDefinitionNames,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const { plural = '', singular = '', kind = '', listKind = '' } = names
  const label = (v: string) => isDNS1035Label(v).join(',')
  if (plural.length > 0 && label(plural)) errs.push(field.invalid(fldPath.child('plural'), plural, label(plural)))
  if (singular.length > 0 && label(singular))
    errs.push(field.invalid(fldPath.child('singular'), singular, label(singular)))
  if (kind.length > 0 && label(kind.toLowerCase()))
    errs.push(
      field.invalid(
        fldPath.child('kind'),
        kind,
        `may have mixed case, but should otherwise match: ${label(kind.toLowerCase())}`,
      ),
    )
  if (listKind.length > 0 && label(listKind.toLowerCase()))
    errs.push(
      field.invalid(
        fldPath.child('listKind'),
        listKind,
        `may have mixed case, but should otherwise match: ${label(listKind.toLowerCase())}`,
      ),
    )
  names.shortNames?.forEach((s, i) => {
    if (label(s)) errs.push(field.invalid(fldPath.child('shortNames').index(i), s, label(s)))
  })
  // kind and listKind may not be the same or parsing becomes ambiguous
  if (kind.length > 0 && kind === listKind)
    errs.push(field.invalid(fldPath.child('listKind'), listKind, 'kind and listKind may not be the same'))
  names.categories?.forEach((c, i) => {
    if (label(c)) errs.push(field.invalid(fldPath.child('categories').index(i), c, label(c)))
  })
  return errs
}
