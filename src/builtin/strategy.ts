import { defaultFeatureGates, type FeatureGates } from '../kube/feature-gates.js'
import { type FieldError, FieldPath, kubectlInvalidText, newInvalid, withReleaseValues } from '../kube/field.js'
import { type ValidateNameFunc, validateObjectMetaFor, validatePathSegment } from '../kube/validation/objectmeta.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import { type BuiltinResult, marshalBuiltin } from './index.js'
import { type MetadataCheck, type Prepare, type RequestUser, STRATEGIES } from './strategies.js'
import type { KindValidator } from './validation/registry.js'
import { applyAppArmorVersionSkew, strategyWarnings } from './warnings/index.js'

// A built-in kind's registry strategy run as the generic registry runs it (apiserver pkg/registry/rest
// create.go BeforeCreate, update.go BeforeUpdate; the kinds' rows: strategies.ts), on the decoded and
// defaulted object, after mutating admission and before validating admission:
// - PrepareForCreate / PrepareForUpdate: the fields whose feature gate is off dropped, in place;
// - the request's namespace: a namespaced object without metadata.namespace takes the request's, a
//   cluster-scoped object's namespace is cleared (EnsureObjectNamespaceMatchesRequestNamespace; a
//   different one is a 400 the callers never produce offline: their request takes the object's);
// - create: strategy.Validate, and only when it passed ValidateObjectMetaAccessor again with path-segment
//   names (BeforeCreate's "common validation", which every kind gets: a kind kelp has no validator for gets
//   its Validate's ObjectMeta part when its row names the rule (metadataOnly), and this one);
// - update: as `kubectl apply` patches the stored object, the new object carries the stored
//   resourceVersion; BeforeUpdate takes generation, uid, creationTimestamp and
//   deletionGracePeriodSeconds from the old object; then validateCommonFields (ObjectMeta with
//   path-segment names and ValidateObjectMetaUpdate) followed by strategy.ValidateUpdate (which runs
//   ValidateObjectMetaUpdate again: the apiserver reports such errors twice, and so does kelp; a kind
//   without a validator: the ObjectMeta validations its ValidateUpdate runs, metadataOnUpdate);
// - errors: a 422 Invalid (`<Kind> "<name>" is invalid: …`) no validating policy sees;
// - warnings (after the decoding's unknown fields): a Pod's AppArmor annotations copied into their fields
//   by PrepareForCreate (recorded then, so a refused write has them too), then, once validation passed,
//   the strategy's WarningsOnCreate / WarningsOnUpdate (src/builtin/warnings/);
// - then the object is marshalled for the validating policies and storage (the given-empty lists that
//   omitempty drops go).

const UPDATE_ONLY: readonly MetadataCheck[] = ['update']
const NONE: readonly string[] = []

/** A row as looked up: create and update validation in one function (undefined: not covered). */
export interface Strategy {
  readonly prepare: Prepare | undefined
  readonly validate: KindValidator | undefined
  readonly metadataOnly: ValidateNameFunc | undefined
  readonly metadataOnUpdate: readonly MetadataCheck[]
}

type Index = Map<string, Map<string, Map<string, Strategy>>>

/**
 * group → version → kind (nested: asked once per object, no key string built); built on first use, as
 * drop-disabled.ts (whose functions the table holds) re-exports dropDisabledFields from here.
 */
let index: Index | undefined

function indexed(): Index {
  if (index !== undefined) return index
  index = new Map()
  for (const row of STRATEGIES) {
    const { validate, validateUpdate } = row
    const strategy: Strategy = {
      prepare: row.prepare,
      validate:
        validate === undefined || validateUpdate === undefined
          ? undefined
          : (o, c) => (c.oldObject === undefined ? validate(o, c.minor) : validateUpdate(o, c.oldObject, c.minor)),
      metadataOnly: row.metadataOnly,
      metadataOnUpdate: row.metadataOnUpdate ?? UPDATE_ONLY,
    }
    let versions = index.get(row.group)
    if (versions === undefined) index.set(row.group, (versions = new Map()))
    for (const version of row.versions) {
      let kinds = versions.get(version)
      if (kinds === undefined) versions.set(version, (kinds = new Map()))
      if (kinds.has(row.kind)) throw new Error(`two strategies for ${row.group}/${version}/${row.kind}`)
      kinds.set(row.kind, strategy)
    }
  }
  return index
}

/** The strategy of a kind, or undefined when kelp models none (decoded and defaulted only). */
export function strategyFor(group: string, version: string, kind: string): Strategy | undefined {
  return (index ?? indexed()).get(group)?.get(version)?.get(kind)
}

/** The validator of a kind, or undefined when kelp does not cover that kind's native validation yet. */
export function validatorFor(group: string, version: string, kind: string): KindValidator | undefined {
  return (index ?? indexed()).get(group)?.get(version)?.get(kind)?.validate
}

function groupVersionKind(object: JSONObject): [string, string, string] {
  const av = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const i = av.indexOf('/')
  return [i < 0 ? '' : av.slice(0, i), i < 0 ? av : av.slice(i + 1), typeof object.kind === 'string' ? object.kind : '']
}

/**
 * The strategy's dropping of disabled fields for a write of `object` (`old` on update), in place;
 * kinds without one are left as they are.
 */
export function dropDisabledFields(object: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  const [group, version, kind] = groupVersionKind(object)
  strategyFor(group, version, kind)?.prepare?.(object, old, on)
}

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

const metaOf = (o: JSONObject): JSONObject => (isObject(o.metadata) ? o.metadata : {})

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

/** The native validation of a decoded, defaulted built-in object (create, or update with oldObject). */
export function validateBuiltin(object: JSONObject, r: BuiltinValidationRequest): BuiltinValidation {
  return validateWith(strategyFor(r.group, r.version, r.kind), object, r)
}

function validateWith(s: Strategy | undefined, object: JSONObject, r: BuiltinValidationRequest): BuiltinValidation {
  const validate = s?.validate
  let o = withNamespace(object, r.namespaced, r.namespace)
  if (r.oldObject === undefined) {
    // ValidateCreate: strategy.Validate; only when it passed, ObjectMeta with path-segment names. A kind
    // without a validator: its Validate's ObjectMeta part when the row knows its name rule (metadataOnly),
    // the rest taken to pass; a kind without a row: the common ObjectMeta validation alone.
    const errors =
      validate !== undefined
        ? validate(o, { minor: r.minor })
        : s?.metadataOnly !== undefined
          ? validateObjectMetaFor(o, { namespaced: r.namespaced, nameFn: s.metadataOnly, minor: r.minor })
          : []
    if (errors.length > 0) return { covered: validate !== undefined, errors }
    return { covered: validate !== undefined, errors: commonCreate(o, r) }
  }
  let old = withNamespace(r.oldObject, r.namespaced, r.namespace)
  ;[o, old] = asUpdated(o, old)
  // ValidateUpdate: validateCommonFields, then strategy.ValidateUpdate (for a kind without a validator, the
  // ObjectMeta validations its ValidateUpdate runs when the row knows them)
  const common = [
    ...validateObjectMetaFor(o, { namespaced: r.namespaced, nameFn: validatePathSegment, minor: r.minor }),
    ...validateObjectMetaFor(o, {
      namespaced: r.namespaced,
      nameFn: validatePathSegment,
      minor: r.minor,
      oldObject: old,
    }),
  ]
  if (validate !== undefined)
    return { covered: true, errors: [...common, ...validate(o, { minor: r.minor, oldObject: old })] }
  const nameFn = s?.metadataOnly
  if (nameFn !== undefined) {
    for (const check of s?.metadataOnUpdate ?? UPDATE_ONLY) {
      common.push(
        ...validateObjectMetaFor(o, {
          namespaced: r.namespaced,
          nameFn,
          minor: r.minor,
          ...(check === 'update' ? { oldObject: old } : {}),
        }),
      )
    }
  }
  return { covered: false, errors: common }
}

/** BeforeCreate's common validation: ValidateObjectMetaAccessor with path.ValidatePathSegmentName. */
function commonCreate(o: JSONObject, r: BuiltinValidationRequest): FieldError[] {
  return validateObjectMetaFor(o, {
    namespaced: r.namespaced,
    nameFn: validatePathSegment,
    minor: r.minor,
    path: FieldPath.of('metadata'),
  })
}

/** What the strategy needs of the request besides the object. */
export interface StrategyRequest {
  /** The kind's scope (the REST mapping's). */
  readonly namespaced: boolean
  /** The request's namespace ('' for cluster-scoped kinds). */
  readonly namespace: string
  /** The target release's minor (its feature gates, its messages). */
  readonly minor: number
  /** The request's user (genericapirequest.UserFrom), for the strategies that read it; none: no user. */
  readonly user?: RequestUser
}

/**
 * rest.BeforeCreate on a decoded built-in (decodeBuiltin with keepEmpty, after mutating admission):
 * PrepareForCreate, Validate (errors: a 422 Invalid, `allowed` false), then the object marshalled in
 * place. The result carries `nativeValidation`; its object is the same object, prepared and marshalled.
 */
export function beforeCreate(b: BuiltinResult, r: StrategyRequest): BuiltinResult {
  return beforeWrite(b, undefined, r)
}

/** rest.BeforeUpdate: as beforeCreate with PrepareForUpdate and ValidateUpdate against `old` (decoded, defaulted). */
export function beforeUpdate(b: BuiltinResult, old: JSONObject | undefined, r: StrategyRequest): BuiltinResult {
  return beforeWrite(b, old, r)
}

function beforeWrite(b: BuiltinResult, old: JSONObject | undefined, r: StrategyRequest): BuiltinResult {
  const object = b.object as JSONObject
  const [group, version, kind] = groupVersionKind(object)
  const s = strategyFor(group, version, kind)
  s?.prepare?.(object, old, defaultFeatureGates(r.minor), r.user)
  // the Pod strategy's PrepareForCreate ends with applyAppArmorVersionSkew (pkg/registry/core/pod/strategy.go)
  const skew = old === undefined && group === '' && kind === 'Pod' ? applyAppArmorVersionSkew(object, r.minor) : NONE
  // literals, not spreads: on Node 20's V8 a spread followed by a new key costs ~1 µs (docs/benchmarks.md)
  const v = validateWith(s, object, {
    group,
    version,
    kind,
    namespaced: r.namespaced,
    namespace: r.namespaced ? r.namespace : '',
    minor: r.minor,
    oldObject: old,
  })
  const nativeValidation = v.covered ? ('validated' as const) : ('not-covered' as const)
  let result: BuiltinResult
  if (v.errors.length === 0) {
    const w = strategyWarnings(group, kind, object, old, r.minor)
    result = Object.assign({}, b, { nativeValidation })
    if (skew.length > 0 || w.length > 0) result = Object.assign(result, { warnings: [...b.warnings, ...skew, ...w] })
  } else {
    const errors = withReleaseValues(v.errors, r.minor)
    const m = metaOf(object)
    const status = newInvalid(group, kind, typeof m.name === 'string' ? m.name : '', errors)
    const message = kubectlInvalidText(status).trimEnd()
    result = { ...b, allowed: false, errors, status, message, nativeValidation }
    if (skew.length > 0) result = Object.assign(result, { warnings: [...b.warnings, ...skew] })
  }
  // marshalled for the validating policies and storage: the given-empty lists go (omitempty)
  if (result.keptEmpty === true) {
    marshalBuiltin(object)
    const { keptEmpty: _k, ...rest } = result
    result = rest
  }
  return result
}
