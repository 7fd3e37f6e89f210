import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { type LabelSelector, validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, obj, str } from '../common.js'
import { quantity, validateNonnegativeQuantity } from '../core/resources.js'

// storage.k8s.io/v1 CSIStorageCapacity: kubernetes v1.37.2 pkg/apis/storage/validation/validation.go
// ValidateCSIStorageCapacity, ValidateCSIStorageCapacityUpdate; the strategy (pkg/registry/storage/
// csistoragecapacity/strategy.go) allows invalid label values in the selector on update only when the
// old object had them, and runs the create rules again on update.

const selectorOf = (v: unknown): LabelSelector | undefined => obj(v) as LabelSelector | undefined

/** Whether a matchExpressions value of the selector is no valid label value (hasInvalidLabelValueInLabelSelector). */
function hasInvalidLabelValue(sel: LabelSelector | undefined, minor: number): boolean {
  return validateLabelSelector(sel, {}, FieldPath.of('nodeTopology'), minor).length > 0
}

function validate(c: JSONObject, minor: number, allowInvalidLabelValue: boolean): FieldError[] {
  const errs = validateObjectMetaFor(c, { namespaced: true, nameFn: nameIsDNSSubdomain, minor })
  errs.push(
    ...validateLabelSelector(
      selectorOf(c.nodeTopology),
      { allowInvalidLabelValueInSelector: allowInvalidLabelValue },
      FieldPath.of('nodeTopology'),
      minor,
    ),
  )
  const sc = str(c.storageClassName)
  for (const m of nameIsDNSSubdomain(sc, false)) errs.push(field.invalid(FieldPath.of('storageClassName'), sc, m))
  const q = c.capacity === undefined || c.capacity === null ? undefined : quantity(c.capacity)
  if (q !== undefined) errs.push(...validateNonnegativeQuantity(q, FieldPath.of('capacity')))
  return errs
}

/** The strategy's Validate: ValidateCSIStorageCapacity. */
export function validateCSIStorageCapacity(c: JSONObject, minor: number): FieldError[] {
  return validate(c, minor, false)
}

/** The strategy's ValidateUpdate: ValidateCSIStorageCapacity, then ValidateCSIStorageCapacityUpdate. */
export function validateCSIStorageCapacityUpdate(c: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validate(c, minor, hasInvalidLabelValue(selectorOf(old.nodeTopology), minor))
  errs.push(...validateObjectMetaFor(c, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, oldObject: old }))
  if (!deepEqual(c.nodeTopology ?? null, old.nodeTopology ?? null))
    errs.push(field.invalid(FieldPath.of('nodeTopology'), c.nodeTopology ?? null, 'field is immutable'))
  if (str(c.storageClassName) !== str(old.storageClassName))
    errs.push(field.invalid(FieldPath.of('storageClassName'), str(c.storageClassName), 'field is immutable'))
  return errs
}
