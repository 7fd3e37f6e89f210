import type { ValidateNameFunc } from '../../kube/validation/objectmeta.js'

// ValidateObjectMeta on create for the API objects kelp validates itself (CRDs, admission policies):
// apimachinery's port lives in src/kube/validation/objectmeta.ts (issue 19); this keeps the
// signature these importers use.

/** ValidateNameFunc: error strings for a name, or for a generateName prefix when `prefix`. */
export type NameValidator = ValidateNameFunc

/** ValidateObjectMetaAccessor for create. */
export {
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
  validateObjectMetaJSON as validateObjectMeta,
} from '../../kube/validation/objectmeta.js'
