import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { validateAnnotations, validateLabels } from '../../../kube/validation/objectmeta.js'
import { type JSONObject, strMap } from '../common.js'

// corevalidation.ValidateTemplateObjectMeta (kubernetes v1.37.2 pkg/apis/core/validation/validation.go):
// a template's metadata may have labels and annotations only; validateFieldAllowList forbids each
// other ObjectMeta field that is set, in the Go struct's order, named by its Go name with the first
// letter lowered (so `uID`).

const OTHER_FIELDS: readonly [json: string, goName: string][] = [
  ['name', 'name'],
  ['generateName', 'generateName'],
  ['namespace', 'namespace'],
  ['selfLink', 'selfLink'],
  ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'],
  ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'],
  ['finalizers', 'finalizers'],
  ['managedFields', 'managedFields'],
]

const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0)

/** ValidateTemplateObjectMeta. */
export function validateTemplateObjectMeta(meta: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs = validateAnnotations(strMap(meta.annotations), p.child('annotations'), minor)
  errs.push(...validateLabels(strMap(meta.labels), p.child('labels'), minor))
  for (const [json, goName] of OTHER_FIELDS)
    if (Object.hasOwn(meta, json) && !isZero(meta[json])) errs.push(field.forbidden(p.child(goName), 'cannot be set'))
  return errs
}
