import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, isObj, type JSONObject, num, validateNonnegativeField } from '../common.js'

// apps/v1 ControllerRevision: kubernetes v1.37.2 pkg/apis/apps/validation/validation.go
// validateControllerRevision, ValidateControllerRevisionCreate, ValidateControllerRevisionUpdate (the
// strategy's, pkg/registry/apps/controllerrevision/strategy.go). `data` is a runtime.RawExtension: absent
// or null leaves Raw nil ("data is mandatory"); any other JSON value is kept as its bytes, which must hold
// an object (the JSON kubectl sends always parses, so the parse error is not reachable from a manifest).

const DATA = FieldPath.of('data')

function validateControllerRevision(r: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(r, { namespaced: true, nameFn: nameIsDNSSubdomain, minor })
  errs.push(...validateNonnegativeField(num(r.revision), FieldPath.of('revision')))
  return errs
}

/** ValidateControllerRevisionCreate. */
export function validateControllerRevisionCreate(r: JSONObject, minor: number): FieldError[] {
  const errs = validateControllerRevision(r, minor)
  if (r.data === undefined || r.data === null) errs.push(field.required(DATA, 'data is mandatory'))
  else if (!isObj(r.data)) errs.push(field.required(DATA, 'data must be a valid JSON object'))
  return errs
}

/** ValidateControllerRevisionUpdate: metadata update, validateControllerRevision, data immutable. */
export function validateControllerRevisionUpdate(r: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(r, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, oldObject: old })
  errs.push(...validateControllerRevision(r, minor))
  // the bad value is the RawExtension, which marshals as its bytes (the JSON value itself)
  if (!deepEqual(r.data ?? null, old.data ?? null)) errs.push(field.invalid(DATA, r.data ?? null, 'field is immutable'))
  return errs
}
