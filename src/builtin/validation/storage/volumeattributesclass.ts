import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, keys, obj, str, utf8Len } from '../common.js'

// storage.k8s.io/v1 VolumeAttributesClass: kubernetes v1.37.2 pkg/apis/storage/validation/validation.go
// ValidateVolumeAttributesClass (validateProvisioner on driverName, validateParameters without empty
// maps), ValidateVolumeAttributesClassUpdate. Its declarative rules are alpha (not enforced).

const MAX_PARAMS = 512
const MAX_PARAMS_SIZE = 256 * (1 << 10)

/** validateProvisioner: required, a qualified name once lowercased. */
function validateProvisioner(v: string, p: FieldPath, minor: number): FieldError[] {
  if (v.length === 0) return [field.required(p, v)]
  const lower = v.toLowerCase()
  return isQualifiedName(lower, minor).map((m) => field.invalid(p, lower, m))
}

/** validateParameters(params, allowEmpty=false). */
function validateParameters(params: JSONObject | undefined, p: FieldPath): FieldError[] {
  const ks = keys(params)
  if (ks.length > MAX_PARAMS) return [field.tooLong(p, MAX_PARAMS)]
  const errs: FieldError[] = []
  let total = 0
  for (const k of ks) {
    if (k.length < 1) errs.push(field.invalid(p, k, 'field can not be empty.'))
    total += utf8Len(k) + utf8Len(str(params?.[k]))
  }
  if (total > MAX_PARAMS_SIZE) errs.push(field.tooLong(p, MAX_PARAMS_SIZE))
  if (ks.length === 0) errs.push(field.required(p, 'must contain at least one key/value pair'))
  return errs
}

/** ValidateVolumeAttributesClass. */
export function validateVolumeAttributesClass(c: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(c, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  errs.push(...validateProvisioner(str(c.driverName), FieldPath.of('driverName'), minor))
  errs.push(...validateParameters(obj(c.parameters), FieldPath.of('parameters')))
  return errs
}

/** ValidateVolumeAttributesClassUpdate: driverName and parameters may not change, then the create rules. */
export function validateVolumeAttributesClassUpdate(c: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(c, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, oldObject: old })
  if (str(c.driverName) !== str(old.driverName))
    errs.push(field.forbidden(FieldPath.of('driverName'), 'updates to driverName are forbidden.'))
  // reflect.DeepEqual: a nil map and an empty one differ (the storage codec reads an empty map back as nil)
  if (!deepEqual(c.parameters ?? null, old.parameters ?? null))
    errs.push(field.forbidden(FieldPath.of('parameters'), 'updates to parameters are forbidden.'))
  errs.push(...validateVolumeAttributesClass(c, minor))
  return errs
}
