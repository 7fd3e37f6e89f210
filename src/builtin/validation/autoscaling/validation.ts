import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, parseGroupVersion, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { isPathSegmentName } from '../../../kube/validation/path-segment-name.js'
import { arr, isObj, type JSONObject, num, obj, optNum, str, validateDNS1123Label } from '../common.js'
import { quantity, validateContainerResourceName, ZERO } from '../core/resources.js'

// autoscaling/v2 HorizontalPodAutoscaler: kubernetes v1.37.2 pkg/apis/autoscaling/validation/validation.go
// ValidateHorizontalPodAutoscaler / ValidateHorizontalPodAutoscalerUpdate with the strategy's options
// (pkg/registry/autoscaling/horizontalpodautoscaler: HPAScaleToZero on from 1.37, an unchanged
// scaleTargetRef kind/apiVersion skips the apiVersion check, invalid object metrics already stored stay
// allowed; tolerance dropped while HPAConfigurableTolerance is off, before 1.35). From 1.37 the beta
// declarative rules of k8s.io/api autoscaling/v2 (minReplicas minimum, maxReplicas required and
// minimum 1) replace the handwritten errors they cover and come last (rest.ValidateDeclaratively...:
// a covered error is dropped when a declarative error of the same type and field exists; unchanged
// fields are not validated declaratively on update). scaleTargetRef's required rules are alpha.

const SPEC = FieldPath.of('spec')
const MAX_PERIOD = 1800
const MAX_WINDOW = 3600

interface RefOpts {
  allowEmptyAPIGroup: boolean
  allowInvalidAPIVersion: boolean
}
interface Opts {
  minReplicasLowerBound: number
  scaleTargetRef: RefOpts
  objectMetrics: RefOpts
}

/** A handwritten error, and whether it is MarkCoveredByDeclarative. */
type Hw = { e: FieldError; covered: boolean }
const hw = (e: FieldError, covered = false): Hw => ({ e, covered })

function apiVersionError(ref: JSONObject, o: RefOpts): string | undefined {
  if (o.allowInvalidAPIVersion) return undefined
  const gv = parseGroupVersion(str(ref.apiVersion))
  if ('error' in gv) return gv.error
  if (!o.allowEmptyAPIGroup && gv.group === '') return 'apiVersion must specify API group'
  return undefined
}

function validateRef(ref: JSONObject, p: FieldPath, o: RefOpts): FieldError[] {
  const errs: FieldError[] = []
  for (const k of ['kind', 'name'] as const) {
    const v = str(ref[k])
    if (v === '') errs.push(field.required(p.child(k), ''))
    else for (const m of isPathSegmentName(v)) errs.push(field.invalid(p.child(k), v, m))
  }
  const err = apiVersionError(ref, o)
  if (err !== undefined) errs.push(field.invalid(p.child('apiVersion'), str(ref.apiVersion), err))
  return errs
}

function validateIdentifier(id: JSONObject, p: FieldPath): FieldError[] {
  const name = str(id.name)
  if (name === '') return [field.required(p.child('name'), 'must specify a metric name')]
  return isPathSegmentName(name).map((m) => field.invalid(p.child('name'), name, m))
}

const has = (o: JSONObject, k: string) => o[k] !== undefined && o[k] !== null

function validateTarget(t: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = str(t.type)
  if (type === '') errs.push(field.required(p.child('type'), 'must specify a metric target type'))
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue')
    errs.push(field.invalid(p.child('type'), type, 'must be either Utilization, Value, or AverageValue'))
  for (const k of ['value', 'averageValue'] as const) {
    const q = has(t, k) ? quantity(t[k]) : undefined
    if (q !== undefined && q.cmp(ZERO) <= 0) errs.push(field.invalid(p.child(k), q.toString(), 'must be positive'))
  }
  const u = optNum(t.averageUtilization)
  if (u !== undefined && u < 1) errs.push(field.invalid(p.child('averageUtilization'), u, 'must be greater than 0'))
  return errs
}

function validateSource(kind: string, src: JSONObject, p: FieldPath, o: Opts): FieldError[] {
  const errs: FieldError[] = []
  const t = obj(src.target) ?? {}
  const tp = p.child('target')
  switch (kind) {
    case 'object':
      errs.push(...validateRef(obj(src.describedObject) ?? {}, p.child('describedObject'), o.objectMetrics))
      errs.push(...validateIdentifier(obj(src.metric) ?? {}, p.child('metric')))
      errs.push(...validateTarget(t, tp))
      if (!has(t, 'value') && !has(t, 'averageValue'))
        errs.push(field.required(tp.child('averageValue'), 'must set either a target value or averageValue'))
      break
    case 'external':
      errs.push(...validateIdentifier(obj(src.metric) ?? {}, p.child('metric')))
      errs.push(...validateTarget(t, tp))
      if (!has(t, 'value') && !has(t, 'averageValue'))
        errs.push(
          field.required(tp.child('averageValue'), 'must set either a target value for metric or a per-pod target'),
        )
      if (has(t, 'value') && has(t, 'averageValue'))
        errs.push(field.forbidden(tp.child('value'), 'may not set both a target value for metric and a per-pod target'))
      break
    case 'pods':
      errs.push(...validateIdentifier(obj(src.metric) ?? {}, p.child('metric')))
      errs.push(...validateTarget(t, tp))
      if (!has(t, 'averageValue'))
        errs.push(field.required(tp.child('averageValue'), 'must specify a positive target averageValue'))
      break
    case 'resource':
    case 'containerResource': {
      const name = str(src.name)
      if (name === '') errs.push(field.required(p.child('name'), 'must specify a resource name'))
      else if (kind === 'containerResource') errs.push(...validateContainerResourceName(name, p.child('name')))
      if (kind === 'containerResource') {
        const c = str(src.container)
        if (c === '') errs.push(field.required(p.child('container'), 'must specify a container'))
        else errs.push(...validateDNS1123Label(c, p.child('container')))
      }
      errs.push(...validateTarget(t, tp))
      if (!has(t, 'averageUtilization') && !has(t, 'averageValue'))
        errs.push(
          field.required(tp.child('averageUtilization'), 'must set either a target raw value or a target utilization'),
        )
      if (has(t, 'averageUtilization') && has(t, 'averageValue'))
        errs.push(
          field.forbidden(tp.child('averageValue'), 'may not set both a target raw value and a target utilization'),
        )
      break
    }
  }
  return errs
}

const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource']
const SOURCE_OF: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
}

function validateMetricSpec(m: JSONObject, p: FieldPath, o: Opts): FieldError[] {
  const errs: FieldError[] = []
  const type = str(m.type)
  if (type === '') errs.push(field.required(p.child('type'), 'must specify a metric source type'))
  if (!METRIC_TYPES.includes(type)) errs.push(field.notSupported(p.child('type'), type, METRIC_TYPES))
  const present: string[] = []
  for (const k of ['object', 'external', 'pods', 'resource', 'containerResource']) {
    if (!isObj(m[k])) continue
    present.push(k)
    if (present.length === 1) errs.push(...validateSource(k, m[k] as JSONObject, p.child(k), o))
  }
  const expected = SOURCE_OF[type]
  if (expected !== undefined) {
    if (!isObj(m[expected]))
      errs.push(field.required(p.child(expected), 'must populate information for the given metric source'))
  } else errs.push(field.notSupported(p.child('type'), type, METRIC_TYPES))
  // Go ranges over a set (random order); kelp reports the fields sorted
  if (present.length !== 1)
    for (const k of present.filter((k) => k !== expected).sort(compareStrings))
      errs.push(field.forbidden(p.child(k), 'must populate the given metric source only'))
  return errs
}

const SELECT_POLICIES = ['Disabled', 'Max', 'Min']
const POLICY_TYPES = ['Percent', 'Pods']

function validateRules(rules: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const w = optNum(rules.stabilizationWindowSeconds)
  if (w !== undefined && w < 0)
    errs.push(field.invalid(p.child('stabilizationWindowSeconds'), w, 'must be greater than or equal to zero'))
  if (w !== undefined && w > MAX_WINDOW)
    errs.push(field.invalid(p.child('stabilizationWindowSeconds'), w, `must be less than or equal to ${MAX_WINDOW}`))
  if (typeof rules.selectPolicy === 'string' && !SELECT_POLICIES.includes(rules.selectPolicy))
    errs.push(field.notSupported(p.child('selectPolicy'), rules.selectPolicy, SELECT_POLICIES))
  const pp = p.child('policies')
  const policies = arr(rules.policies)
  if (policies.length === 0) errs.push(field.required(pp, 'must specify at least one Policy'))
  policies.forEach((x, i) => {
    const pol = obj(x) ?? {}
    const ip = pp.index(i)
    const type = str(pol.type)
    if (type !== 'Pods' && type !== 'Percent') errs.push(field.notSupported(ip.child('type'), type, POLICY_TYPES))
    const value = num(pol.value)
    if (value <= 0) errs.push(field.invalid(ip.child('value'), value, 'must be greater than zero'))
    const period = num(pol.periodSeconds)
    if (period <= 0) errs.push(field.invalid(ip.child('periodSeconds'), period, 'must be greater than zero'))
    if (period > MAX_PERIOD)
      errs.push(field.invalid(ip.child('periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD}`))
  })
  const tol = has(rules, 'tolerance') ? quantity(rules.tolerance) : undefined
  if (tol !== undefined && tol.cmp(ZERO) < 0)
    errs.push(field.invalid(p.child('tolerance'), tol.toString(), 'must be greater than or equal to 0'))
  return errs
}

function validateSpec(spec: JSONObject, o: Opts): Hw[] {
  const out: Hw[] = []
  const min = optNum(spec.minReplicas)
  const max = num(spec.maxReplicas)
  if (min !== undefined && min < o.minReplicasLowerBound)
    out.push(
      hw(
        field.invalid(SPEC.child('minReplicas'), min, `must be greater than or equal to ${o.minReplicasLowerBound}`),
        true,
      ),
    )
  if (max === 0) out.push(hw(field.required(SPEC.child('maxReplicas'), 'must be set and greater than 0'), true))
  else if (max < 0)
    out.push(hw(field.invalid(SPEC.child('maxReplicas'), max, 'must be greater than or equal to 1'), true))
  if (min !== undefined && max < min)
    out.push(hw(field.invalid(SPEC.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`')))
  for (const e of validateRef(obj(spec.scaleTargetRef) ?? {}, SPEC.child('scaleTargetRef'), o.scaleTargetRef))
    out.push(hw(e))
  const metrics = arr(spec.metrics)
  let objectOrExternal = false
  metrics.forEach((m, i) => {
    const ms = obj(m) ?? {}
    for (const e of validateMetricSpec(ms, SPEC.child('metrics').index(i), o)) out.push(hw(e))
    if (ms.type === 'Object' || ms.type === 'External') objectOrExternal = true
  })
  if (min === 0 && !objectOrExternal)
    out.push(
      hw(
        field.forbidden(
          SPEC.child('metrics'),
          'must specify at least one Object or External metric to support scaling to zero replicas',
        ),
      ),
    )
  const behavior = obj(spec.behavior)
  if (behavior !== undefined)
    for (const k of ['scaleUp', 'scaleDown'] as const) {
      const r = obj(behavior[k])
      if (r !== undefined) for (const e of validateRules(r, SPEC.child('behavior', k))) out.push(hw(e))
    }
  return out
}

/** The beta declarative rules of HorizontalPodAutoscalerSpec (1.37+), with update ratcheting. */
function declarative(spec: JSONObject, oldSpec: JSONObject | undefined, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const min = optNum(spec.minReplicas)
  const lower = minor >= 37 ? 0 : 1
  if (min !== undefined && !(oldSpec !== undefined && optNum(oldSpec.minReplicas) === min) && min < lower)
    errs.push(field.invalid(SPEC.child('minReplicas'), min, `must be greater than or equal to ${lower}`))
  const max = num(spec.maxReplicas)
  if (!(oldSpec !== undefined && num(oldSpec.maxReplicas) === max)) {
    if (max === 0) errs.push(field.required(SPEC.child('maxReplicas'), ''))
    else if (max < 1) errs.push(field.invalid(SPEC.child('maxReplicas'), max, 'must be greater than or equal to 1'))
  }
  return errs
}

function options(spec: JSONObject, old: JSONObject | undefined, minor: number): Opts {
  const oldSpec = obj(old?.spec)
  const o: Opts = {
    minReplicasLowerBound: minor >= 37 || optNum(oldSpec?.minReplicas) === 0 ? 0 : 1,
    scaleTargetRef: { allowInvalidAPIVersion: false, allowEmptyAPIGroup: false },
    objectMetrics: { allowInvalidAPIVersion: false, allowEmptyAPIGroup: true },
  }
  const ref = obj(spec.scaleTargetRef) ?? {}
  const oref = obj(oldSpec?.scaleTargetRef)
  if (oref !== undefined && str(oref.apiVersion) === str(ref.apiVersion) && str(oref.kind) === str(ref.kind))
    o.scaleTargetRef.allowInvalidAPIVersion = true
  else if (str(ref.kind) === 'ReplicationController') o.scaleTargetRef.allowEmptyAPIGroup = true
  if (oldSpec !== undefined)
    for (const m of arr(oldSpec.metrics)) {
      const ms = obj(m) ?? {}
      if (ms.type === 'Object' && isObj(ms.object)) {
        if (apiVersionError(obj(ms.object.describedObject) ?? {}, o.objectMetrics) !== undefined) {
          o.objectMetrics.allowInvalidAPIVersion = true
          break
        }
      }
    }
  return o
}

function toleranceInUse(old: JSONObject | undefined): boolean {
  const b = obj(obj(old?.spec)?.behavior)
  return b !== undefined && (has(obj(b.scaleUp) ?? {}, 'tolerance') || has(obj(b.scaleDown) ?? {}, 'tolerance'))
}

function validateHorizontalPodAutoscalerCreateOrUpdate(
  hpa: JSONObject,
  old: JSONObject | undefined,
  minor: number,
): FieldError[] {
  let spec = obj(hpa.spec) ?? {}
  const behavior = obj(spec.behavior)
  if (minor < 35 && !toleranceInUse(old) && behavior !== undefined) {
    const drop = (r: unknown) => {
      if (!isObj(r)) return r
      const { tolerance: _t, ...rest } = r
      return rest
    }
    spec = { ...spec, behavior: { ...behavior, scaleUp: drop(behavior.scaleUp), scaleDown: drop(behavior.scaleDown) } }
  }
  const o = options(spec, old, minor)
  const meta =
    old === undefined
      ? validateObjectMetaFor(hpa, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor })
      : validateObjectMetaFor(hpa, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor, oldObject: old })
  const hand = validateSpec(spec, o)
  if (minor < 37) return [...meta, ...hand.map((h) => h.e)]
  const dec = declarative(spec, obj(old?.spec), minor)
  const matched = (e: FieldError) => dec.some((d) => d.type === e.type && d.field === e.field)
  return [...meta, ...hand.filter((h) => !(h.covered && matched(h.e))).map((h) => h.e), ...dec]
}

/** ValidateHorizontalPodAutoscaler. */
export function validateHorizontalPodAutoscaler(hpa: JSONObject, minor: number): FieldError[] {
  return validateHorizontalPodAutoscalerCreateOrUpdate(hpa, undefined, minor)
}

/** ValidateHorizontalPodAutoscalerUpdate. */
export function validateHorizontalPodAutoscalerUpdate(hpa: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateHorizontalPodAutoscalerCreateOrUpdate(hpa, old, minor)
}
