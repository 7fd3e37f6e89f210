import { type FieldError, FieldPath } from '../../kube/field.js'
import {
  nameIsDNSSubdomain,
  type ValidateNameFunc,
  validateObjectMetaFor,
  validatePathSegment,
} from '../../kube/validation/objectmeta.js'
import { type JSONObject, validatorFor } from './registry.js'

// The generic registry steps around a built-in kind's strategy validation (apiserver pkg/registry/rest
// create.go BeforeCreate, update.go BeforeUpdate / validateCommonFields; endpoints/handlers
// create.go / update.go), on the decoded and defaulted object:
// - the request's namespace: a namespaced object without metadata.namespace takes the request's, a
//   cluster-scoped object's namespace is cleared (EnsureObjectNamespaceMatchesRequestNamespace; a
//   different one is a 400 the callers never produce offline: their request takes the object's);
// - create: strategy.Validate, and only when it passed ValidateObjectMetaAccessor again with path-segment
//   names (BeforeCreate's "common validation");
// - update: as `kubectl apply` patches the stored object, the new object carries the stored
//   resourceVersion; BeforeUpdate takes generation, uid, creationTimestamp and
//   deletionGracePeriodSeconds from the old object; then validateCommonFields (ObjectMeta with
//   path-segment names and ValidateObjectMetaUpdate) followed by strategy.ValidateUpdate (which runs
//   ValidateObjectMetaUpdate again: the apiserver reports such errors twice, and so does kelp).
// Validating admission runs after all this (the store's createValidation / updateValidation), so an
// object that fails here never reaches a ValidatingAdmissionPolicy.

export interface BuiltinValidationRequest {
  readonly group: string
  readonly version: string
  readonly kind: string
  readonly namespaced: boolean
  /** The request's namespace ('' for cluster-scoped kinds). */
  readonly namespace: string
  readonly minor: number
  readonly oldObject?: JSONObject
}

export interface BuiltinValidation {
  /** false when kelp has no validator for the kind (its native validation is not covered). */
  readonly covered: boolean
  readonly errors: FieldError[]
}

const isObj = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const metaOf = (o: JSONObject): JSONObject => (isObj(o.metadata) ? o.metadata : {})

function withNamespace(o: JSONObject, namespaced: boolean, namespace: string): JSONObject {
  const m = metaOf(o)
  const ns = typeof m.namespace === 'string' ? m.namespace : ''
  if (namespaced) {
    if (ns !== '' || namespace === '') return o
    // Object.assign, not a spread: on Node 20's V8 a spread followed by a new key costs ~1 µs
    return Object.assign({}, o, { metadata: Object.assign({}, m, { namespace }) })
  }
  if (ns === '') return o
  const { namespace: _n, ...rest } = m
  return { ...o, metadata: rest }
}

/** rest.BeforeUpdate's carry-overs and the stored resourceVersion (the new object is the patched stored one). */
function asUpdated(o: JSONObject, old: JSONObject): [JSONObject, JSONObject] {
  const om = metaOf(old)
  const rv = typeof om.resourceVersion === 'string' && om.resourceVersion !== '' ? om.resourceVersion : '1'
  const oldStored = rv === om.resourceVersion ? old : { ...old, metadata: { ...om, resourceVersion: rv } }
  const nm: JSONObject = { ...metaOf(o) }
  if (typeof nm.resourceVersion !== 'string' || nm.resourceVersion === '') nm.resourceVersion = rv
  if (om.generation !== undefined) nm.generation = om.generation
  else delete nm.generation
  if ((typeof nm.uid !== 'string' || nm.uid === '') && om.uid !== undefined) nm.uid = om.uid
  if (typeof om.creationTimestamp === 'string') nm.creationTimestamp = om.creationTimestamp
  if (om.deletionGracePeriodSeconds !== undefined && nm.deletionGracePeriodSeconds === undefined)
    nm.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds
  return [{ ...o, metadata: nm }, oldStored]
}

/**
 * Kinds whose validation kelp does not cover but whose ObjectMeta rules it knows (their validation
 * starts with ValidateObjectMeta and the name rule named here): their metadata is checked, the rest
 * not (`covered` stays false). pkg/apis/core/validation ValidateEndpoints (ValidateEndpointsName),
 * pkg/apis/storage/validation ValidateCSIDriver (ValidateCSIDriverName): both NameIsDNSSubdomain.
 */
const METADATA_ONLY: ReadonlyMap<string, ValidateNameFunc> = new Map([
  ['/v1/Endpoints', nameIsDNSSubdomain],
  ['storage.k8s.io/v1/CSIDriver', nameIsDNSSubdomain],
])

/** The native validation of a decoded, defaulted built-in object (create, or update with oldObject). */
export function validateBuiltin(object: JSONObject, r: BuiltinValidationRequest): BuiltinValidation {
  const validate = validatorFor(r.group, r.version, r.kind)
  if (validate === undefined) {
    // on create only (an update's rules are not followed for these kinds)
    const nameFn = METADATA_ONLY.get(`${r.group}/${r.version}/${r.kind}`)
    if (nameFn === undefined || r.oldObject !== undefined) return { covered: false, errors: [] }
    const o = withNamespace(object, r.namespaced, r.namespace)
    return { covered: false, errors: validateObjectMetaFor(o, { namespaced: r.namespaced, nameFn, minor: r.minor }) }
  }
  let o = withNamespace(object, r.namespaced, r.namespace)
  const metaPath = FieldPath.of('metadata')
  if (r.oldObject === undefined) {
    const errors = validate(o, { minor: r.minor })
    if (errors.length > 0) return { covered: true, errors }
    const common = validateObjectMetaFor(o, {
      namespaced: r.namespaced,
      nameFn: validatePathSegment,
      minor: r.minor,
      path: metaPath,
    })
    return { covered: true, errors: common }
  }
  let old = withNamespace(r.oldObject, r.namespaced, r.namespace)
  ;[o, old] = asUpdated(o, old)
  const common = [
    ...validateObjectMetaFor(o, { namespaced: r.namespaced, nameFn: validatePathSegment, minor: r.minor }),
    ...validateObjectMetaFor(o, {
      namespaced: r.namespaced,
      nameFn: validatePathSegment,
      minor: r.minor,
      oldObject: old,
    }),
  ]
  return { covered: true, errors: [...common, ...validate(o, { minor: r.minor, oldObject: old })] }
}
