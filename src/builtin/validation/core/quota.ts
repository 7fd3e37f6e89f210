import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import type { Quantity } from '../../../kube/values/quantity.js'
import { arr, type JSONObject, keys, obj, str, strs } from '../common.js'
import {
  isOvercommitAllowed,
  isStandardQuotaResourceName,
  ONE,
  quantity,
  validateContainerResourceName,
  validateResourceName,
  validateResourceQuantityValue,
  validateResourceQuotaResourceName,
} from './resources.js'

// core/v1 LimitRange and ResourceQuota: kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// ValidateLimitRange (create and update alike), ValidateResourceQuota / ValidateResourceQuotaUpdate.
// The quota's status is not validated: the strategy's PrepareForCreate / PrepareForUpdate replace it
// before validation. Go ranges over the resource maps in random order; kelp visits them sorted.
// The declarative rules of both kinds cover ObjectMeta only.

const LIMITS = FieldPath.of('spec', 'limits')
const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim'])

function validateLimitTypeName(value: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(value).map((m) => field.invalid(p, value, m))
  if (errs.length > 0) return errs
  if (!value.includes('/') && !LIMIT_TYPES.has(value))
    return [field.invalid(p, value, 'must be a standard limit type or fully qualified')]
  return errs
}

const limitResourceName = (type: string, name: string, p: FieldPath): FieldError[] =>
  type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, p) : validateResourceName(name, p)

/** Go's %f. */
const goF = (x: number): string => (Number.isFinite(x) ? x.toFixed(6) : x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN')

/** Quantity.Value() / MilliValue() (rounded up, as ScaledValue does), as numbers. */
function scaled(q: Quantity, milli: boolean): number {
  const f = q.asApproximateFloat64() * (milli ? 1000 : 1)
  return Math.ceil(f - 1e-9)
}

export function validateLimitRange(lr: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(lr, { namespaced: true, nameFn: nameIsDNSSubdomain, minor })
  const seen = new Set<string>()
  arr(obj(lr.spec)?.limits).forEach((l, i) => {
    const limit = obj(l) ?? {}
    const ip = LIMITS.index(i)
    const type = str(limit.type)
    errs.push(...validateLimitTypeName(type, ip.child('type')))
    if (seen.has(type)) errs.push(field.duplicate(ip.child('type'), type))
    seen.add(type)
    const all = new Set<string>()
    const maps: Record<string, Map<string, Quantity>> = {}
    const read = (name: string) => {
      const m = new Map<string, Quantity>()
      const src = obj(limit[name]) ?? {}
      for (const k of keys(src)) {
        errs.push(...limitResourceName(type, k, ip.child(name).key(k)))
        all.add(k)
        const q = quantity(src[k])
        if (q !== undefined) m.set(k, q)
      }
      maps[name] = m
    }
    read('max')
    read('min')
    if (type === 'Pod') {
      maps.default = new Map()
      maps.defaultRequest = new Map()
      if (keys(limit.default).length > 0)
        errs.push(field.forbidden(ip.child('default'), "may not be specified when `type` is 'Pod'"))
      if (keys(limit.defaultRequest).length > 0)
        errs.push(field.forbidden(ip.child('defaultRequest'), "may not be specified when `type` is 'Pod'"))
    } else {
      read('default')
      read('defaultRequest')
    }
    if (type === 'PersistentVolumeClaim') {
      if (!Object.hasOwn(obj(limit.min) ?? {}, 'storage') && !Object.hasOwn(obj(limit.max) ?? {}, 'storage'))
        errs.push(
          field.required(
            ip.child('limits'),
            'either minimum or maximum storage value is required, but neither was provided',
          ),
        )
    }
    read('maxLimitRequestRatio')
    const {
      min,
      max,
      default: def,
      defaultRequest: dreq,
      maxLimitRequestRatio: ratio,
    } = maps as Record<string, Map<string, Quantity>>
    for (const k of [...all].sort(compareStrings)) {
      const mn = min?.get(k)
      const mx = max?.get(k)
      const d = def?.get(k)
      const dr = dreq?.get(k)
      const r = ratio?.get(k)
      const s = (q: Quantity) => q.toString()
      if (mn && mx && mn.cmp(mx) > 0)
        errs.push(field.invalid(ip.child('min').key(k), s(mn), `min value ${s(mn)} is greater than max value ${s(mx)}`))
      if (dr && mn && mn.cmp(dr) > 0)
        errs.push(
          field.invalid(
            ip.child('defaultRequest').key(k),
            s(dr),
            `min value ${s(mn)} is greater than default request value ${s(dr)}`,
          ),
        )
      if (dr && mx && dr.cmp(mx) > 0)
        errs.push(
          field.invalid(
            ip.child('defaultRequest').key(k),
            s(dr),
            `default request value ${s(dr)} is greater than max value ${s(mx)}`,
          ),
        )
      if (dr && d && dr.cmp(d) > 0)
        errs.push(
          field.invalid(
            ip.child('defaultRequest').key(k),
            s(dr),
            `default request value ${s(dr)} is greater than default limit value ${s(d)}`,
          ),
        )
      if (d && mn && mn.cmp(d) > 0)
        errs.push(
          field.invalid(ip.child('default').key(k), s(mn), `min value ${s(mn)} is greater than default value ${s(d)}`),
        )
      if (d && mx && d.cmp(mx) > 0)
        errs.push(
          field.invalid(ip.child('default').key(k), s(mx), `default value ${s(d)} is greater than max value ${s(mx)}`),
        )
      if (r && r.cmp(ONE) < 0)
        errs.push(field.invalid(ip.child('maxLimitRequestRatio').key(k), s(r), `ratio ${s(r)} is less than 1`))
      if (r && mn && mx) {
        const MAX_MILLI = 2 ** 63 / 1000
        let rv = scaled(r, false)
        let mnv = scaled(mn, false)
        let mxv = scaled(mx, false)
        if (rv < MAX_MILLI && mnv < MAX_MILLI && mxv < MAX_MILLI) {
          rv = scaled(r, true) / 1000
          mnv = scaled(mn, true)
          mxv = scaled(mx, true)
        }
        const lim = mxv / mnv
        if (rv > lim)
          errs.push(
            field.invalid(
              ip.child('maxLimitRequestRatio').key(k),
              s(r),
              `ratio ${s(r)} is greater than max/min = ${goF(lim)}`,
            ),
          )
      }
      if (!isOvercommitAllowed(k) && d && dr && d.cmp(dr) !== 0)
        errs.push(
          field.invalid(
            ip.child('defaultRequest').key(k),
            s(dr),
            `default value ${s(d)} must equal to defaultRequest value ${s(dr)} in ${k}`,
          ),
        )
    }
  })
  return errs
}

const SCOPES = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'VolumeAttributesClass',
  'CrossNamespacePodAffinity',
])
const POD_COUNT = new Set(['pods'])
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory'])

function scopeValidFor(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource)
    case 'BestEffort':
      return POD_COUNT.has(resource)
    case 'VolumeAttributesClass':
      return resource === 'persistentvolumeclaims' || resource === 'requests.storage'
    default:
      return true
  }
}

const CONFLICTS: [string, string][] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
]

/** The scopeSelector as Go marshals the ScopeSelector struct (matchExpressions, omitempty). */
function scopeSelectorValue(sel: JSONObject): GoStruct {
  const exprs = arr(sel.matchExpressions).map((e) => {
    const x = obj(e) ?? {}
    const fields: [string, unknown][] = [
      ['scopeName', str(x.scopeName)],
      ['operator', str(x.operator)],
    ]
    if (strs(x.values).length > 0) fields.push(['values', strs(x.values)])
    return new GoStruct(fields)
  })
  return new GoStruct(exprs.length > 0 ? [['matchExpressions', exprs]] : [])
}

export function validateResourceQuotaSpec(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const hard = obj(spec.hard) ?? {}
  for (const k of keys(hard)) {
    const rp = p.child('hard').key(k)
    errs.push(...validateResourceQuotaResourceName(k, rp))
    const q = quantity(hard[k])
    if (q !== undefined) errs.push(...validateResourceQuantityValue(k, q, rp))
  }
  const hardKeys = keys(hard)
  const scopes = strs(spec.scopes)
  const scopesValue = Array.isArray(spec.scopes) ? scopes : null
  if (scopes.length > 0) {
    const sp = p.child('scopes')
    const set = new Set<string>()
    for (const s of scopes) {
      if (!SCOPES.has(s)) errs.push(field.invalid(sp, scopesValue, 'unsupported scope'))
      for (const k of hardKeys)
        if (isStandardQuotaResourceName(k) && !scopeValidFor(s, k))
          errs.push(field.invalid(sp, scopesValue, 'unsupported scope applied to resource'))
      set.add(s)
    }
    for (const [a, b] of CONFLICTS)
      if (set.has(a) && set.has(b)) errs.push(field.invalid(sp, scopesValue, 'conflicting scopes'))
  }
  const sel = obj(spec.scopeSelector)
  if (sel !== undefined) {
    const fp = p.child('scopeSelector', 'matchExpressions')
    const set = new Set<string>()
    for (const e of arr(sel.matchExpressions)) {
      const req = obj(e) ?? {}
      const name = str(req.scopeName)
      const op = str(req.operator)
      const values = strs(req.values)
      if (!SCOPES.has(name)) errs.push(field.invalid(fp.child('scopeName'), name, 'unsupported scope'))
      for (const k of hardKeys)
        if (isStandardQuotaResourceName(k) && !scopeValidFor(name, k))
          errs.push(field.invalid(fp, scopeSelectorValue(sel), 'unsupported scope applied to resource'))
      if (
        ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(name) &&
        op !== 'Exists'
      )
        errs.push(
          field.invalid(
            fp.child('operator'),
            op,
            "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
          ),
        )
      if (op === 'In' || op === 'NotIn') {
        if (values.length === 0)
          errs.push(
            field.required(
              fp.child('values'),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          )
      } else if (op === 'Exists' || op === 'DoesNotExist') {
        if (values.length > 0)
          errs.push(
            field.invalid(
              fp.child('values'),
              values,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          )
      } else errs.push(field.invalid(fp.child('operator'), op, 'not a valid selector operator'))
      set.add(name)
    }
    for (const [a, b] of CONFLICTS)
      if (set.has(a) && set.has(b)) errs.push(field.invalid(fp, scopesValue, 'conflicting scopes'))
  }
  return errs
}

/** ValidateResourceQuota. */
export function validateResourceQuota(rq: JSONObject, minor: number): FieldError[] {
  const spec = obj(rq.spec) ?? {}
  return [
    ...validateObjectMetaFor(rq, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor }),
    ...validateResourceQuotaSpec(spec, FieldPath.of('spec')),
  ]
}

/** ValidateResourceQuotaUpdate. */
export function validateResourceQuotaUpdate(rq: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const spec = obj(rq.spec) ?? {}
  const errs = [
    ...validateObjectMetaFor(rq, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor, oldObject: old }),
    ...validateResourceQuotaSpec(spec, FieldPath.of('spec')),
  ]
  const ns = new Set(strs(spec.scopes))
  const os = new Set(strs(obj(old.spec)?.scopes))
  if (ns.size !== os.size || [...ns].some((s) => !os.has(s)))
    errs.push(
      field.invalid(
        FieldPath.of('spec', 'scopes'),
        Array.isArray(spec.scopes) ? strs(spec.scopes) : null,
        'field is immutable',
      ),
    )
  return errs
}
