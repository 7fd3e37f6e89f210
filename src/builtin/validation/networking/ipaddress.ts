import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Subdomain } from '../../../kube/validation/names.js'
import { validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { isPathSegmentName } from '../../../kube/validation/path-segment-name.js'
import { parseAddr } from '../../../kube/values/netip.js'
import { deepEqual, ipErrors, type JSONObject, obj, str } from '../common.js'

// networking.k8s.io/v1 IPAddress: kubernetes v1.37.2 pkg/apis/networking/validation/validation.go
// ValidateIPAddressName (IsValidIP: strict and canonical), ValidateIPAddress,
// validateIPAddressParentReference, ValidateIPAddressUpdate; the strategy's ValidateUpdate runs the create
// rules too (pkg/registry/networking/ipaddress/strategy.go). The beta declarative rules of k8s.io/api
// networking/v1 (spec.parentRef required and immutable, its resource and name required) say what the
// handwritten ones say: they replace them and come after the handwritten errors.

const PARENT_REF = FieldPath.of('spec', 'parentRef')

/** validation.IsValidIP's messages (ValidateIPAddressName; a name is never a prefix here). */
export function validateIPAddressName(name: string): string[] {
  const errs = ipErrors(FieldPath.of('name'), name, true).map((e) => e.detail)
  if (errs.length > 0) return errs
  const a = parseAddr(name)
  if (typeof a !== 'string' && a.toString() !== name) return [`must be in canonical form ("${a.toString()}")`]
  return []
}

type Tagged = { e: FieldError; covered: boolean }

/** validateIPAddressParentReference, each error tagged when a declarative rule covers it (the required ones). */
function validateParentReference(ref: JSONObject | undefined): Tagged[] {
  if (ref === undefined) return [{ e: field.required(PARENT_REF, ''), covered: true }]
  const out: Tagged[] = []
  const group = str(ref.group)
  if (group !== '')
    for (const m of isDNS1123Subdomain(group))
      out.push({ e: field.invalid(PARENT_REF.child('group'), group, m), covered: false })
  for (const k of ['resource', 'name'] as const) {
    const v = str(ref[k])
    if (v === '') out.push({ e: field.required(PARENT_REF.child(k), ''), covered: true })
    else for (const m of isPathSegmentName(v)) out.push({ e: field.invalid(PARENT_REF.child(k), v, m), covered: false })
  }
  const ns = str(ref.namespace)
  if (ns !== '')
    for (const m of isPathSegmentName(ns))
      out.push({ e: field.invalid(PARENT_REF.child('namespace'), ns, m), covered: false })
  return out
}

/**
 * The handwritten errors, then the declarative ones: from 1.37 (`declarative`) the covered errors move
 * after the handwritten ones (the declarative rules say the same).
 */
function arrange(meta: FieldError[], tagged: Tagged[], declarative: boolean): FieldError[] {
  if (!declarative) return [...meta, ...tagged.map((t) => t.e)]
  return [
    ...meta,
    ...tagged.filter((t) => !t.covered).map((t) => t.e),
    ...tagged.filter((t) => t.covered).map((t) => t.e),
  ]
}

/** The strategy's Validate: ValidateIPAddress. */
export function validateIPAddress(ip: JSONObject, minor: number): FieldError[] {
  const meta = validateObjectMetaFor(ip, { namespaced: false, nameFn: validateIPAddressName, minor })
  return arrange(meta, validateParentReference(obj(obj(ip.spec)?.parentRef)), minor >= 37)
}

/**
 * The strategy's ValidateUpdate: ValidateIPAddress, then ValidateIPAddressUpdate (parentRef immutable). A
 * changed parentRef meets the declarative Immutable first, which short-circuits its other rules: the
 * handwritten errors stay in place and the immutable error (a null value) comes last.
 */
export function validateIPAddressUpdate(ip: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const meta = validateObjectMetaFor(ip, { namespaced: false, nameFn: validateIPAddressName, minor })
  const ref = obj(obj(ip.spec)?.parentRef)
  const changed = !deepEqual(ref ?? null, obj(obj(old.spec)?.parentRef) ?? null)
  const errs = arrange(meta, validateParentReference(ref), minor >= 37 && !changed)
  errs.push(...validateObjectMetaFor(ip, { namespaced: false, nameFn: validateIPAddressName, minor, oldObject: old }))
  if (changed) errs.push(field.invalid(PARENT_REF, minor < 37 ? (ref ?? null) : null, 'field is immutable'))
  return errs
}
