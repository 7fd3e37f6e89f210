import type { FieldError, FieldPath } from '../../kube/field.js'
import {
  objectMetaFromJSON,
  type ValidateNameFunc,
  validateObjectMeta as validateMeta,
} from '../../kube/validation/objectmeta.js'
import type { ObjectMeta } from './types.js'

// ValidateObjectMeta on create for the API objects kelp validates itself (CRDs, admission policies):
// apimachinery's port lives in src/kube/validation/objectmeta.ts (issue 19); this keeps the
// signature these importers use.

/** ValidateNameFunc: error strings for a name, or for a generateName prefix when `prefix`. */
export type NameValidator = ValidateNameFunc

export {
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
} from '../../kube/validation/objectmeta.js'

/** ValidateObjectMetaAccessor for create. */
export function validateObjectMeta(
  meta: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: NameValidator,
  fldPath: FieldPath,
): FieldError[] {
  return validateMeta(objectMetaFromJSON(meta), requiresNamespace, nameFn, fldPath)
}
