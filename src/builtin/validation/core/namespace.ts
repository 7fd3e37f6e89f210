import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import {
  type JSONObject,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  obj,
  objectMeta,
  objectMetaUpdate,
  strs,
} from '../common.js'

// core/v1 Namespace and ServiceAccount: kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// ValidateNamespace / ValidateNamespaceUpdate (after pkg/registry/core/namespace strategy's
// PrepareForCreate, which appends the `kubernetes` finalizer, and PrepareForUpdate, which keeps the
// old spec.finalizers: they change only through the finalize subresource) and ValidateServiceAccount /
// ValidateServiceAccountUpdate. Their declarative rules are alpha (ObjectMeta), not enforced.

const FINALIZERS = FieldPath.of('spec', 'finalizers')
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion'])

/** validateFinalizerName (apimachinery's qualified name, then the legacy standard names). */
function validateFinalizerName(v: string, p: FieldPath, minor: number): FieldError[] {
  const errs = isQualifiedName(v, minor).map((m) => field.invalid(p, v, m))
  if (v.split('/').length === 1 && !STANDARD_FINALIZERS.has(v))
    errs.push(field.invalid(p, v, 'name is neither a standard finalizer name nor is it fully qualified'))
  return errs
}

/** ValidateNamespace. */
export function validateNamespace(ns: JSONObject, minor: number): FieldError[] {
  const errs = objectMeta(ns, false, nameIsDNSLabel, minor)
  for (const f of strs(obj(ns.spec)?.finalizers)) errs.push(...validateFinalizerName(f, FINALIZERS, minor))
  return errs
}

/** ValidateNamespace after PrepareForCreate's `kubernetes` finalizer (on a copy). */
export function validateNamespaceCreate(o: JSONObject, minor: number): FieldError[] {
  const ns: JSONObject = { ...o, spec: { ...(obj(o.spec) ?? {}) } }
  const spec = ns.spec as JSONObject
  const f = strs(spec.finalizers)
  if (!f.includes('kubernetes')) spec.finalizers = [...f, 'kubernetes']
  return validateNamespace(ns, minor)
}

/** ValidateNamespaceUpdate, the finalizers PrepareForUpdate keeps from the old object (on a copy). */
export function validateNamespaceUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const ns: JSONObject = { ...o, spec: { ...(obj(o.spec) ?? {}) } }
  const spec = ns.spec as JSONObject
  const oldFinalizers = obj(old.spec)?.finalizers
  if (oldFinalizers === undefined) delete spec.finalizers
  else spec.finalizers = oldFinalizers
  return [...validateNamespace(ns, minor), ...objectMetaUpdate(ns, old, minor)]
}

/** ValidateServiceAccount / ValidateServiceAccountUpdate. */
function validateServiceAccountCreateOrUpdate(o: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const create = objectMeta(o, true, nameIsDNSSubdomain, minor)
  return old === undefined ? create : [...objectMetaUpdate(o, old, minor), ...create]
}

/** ValidateServiceAccount. */
export function validateServiceAccount(o: JSONObject, minor: number): FieldError[] {
  return validateServiceAccountCreateOrUpdate(o, undefined, minor)
}

/** ValidateServiceAccountUpdate. */
export function validateServiceAccountUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateServiceAccountCreateOrUpdate(o, old, minor)
}
