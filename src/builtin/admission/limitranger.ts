import { setOwn } from '../../kube/own-keys.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import type { Quantity } from '../../kube/values/quantity.js'
import { aggregateContainerResources, type ResourceList, resourceList } from '../resource-helpers.js'

// The LimitRanger admission plugin (kubernetes plugin/pkg/admission/limitranger/admission.go), on by
// default, with the LimitRanges of the request's namespace:
// - Admit (Pods on create): each container and init container gets the Container limit's default limits
//   and default requests it lacks (defaultContainerResourceRequirements, mergePodResourceRequirements), and
//   the annotation `kubernetes.io/limit-ranger` says what was set;
// - Validate (Pods on create, PersistentVolumeClaims on create and update): min, max and
//   maxLimitRequestRatio of the Container and Pod limits, min and max of the PersistentVolumeClaim limit,
//   every failure of every LimitRange in one aggregate (`[a, b]`), the first LimitRange that fails answering.
// Go ranges over the limits' maps in random order; kelp takes the keys in the order the LimitRange has them
// (the decoded object's: Go writes maps sorted).

const limitRangerAnnotation = 'kubernetes.io/limit-ranger'
/** resource.MaxMilliValue: math.MaxInt64 / 1000. */
const MaxMilliValue = 9223372036854775807n / 1000n

const obj = (v: unknown): JSONObject | undefined => (isObject(v) ? v : undefined)
const arr = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.filter(isObject) : [])

/** The limits of one type of a LimitRange (in its order). */
const limitsOf = (lr: JSONObject): JSONObject[] => arr(obj(lr.spec)?.limits)

/** Quantity.ScaledValue(scale): the value in units of 10^scale, rounded up (an int64 in Go: a bigint here). */
export function scaledValue(q: Quantity, scale: number): bigint {
  const r = q.representation
  const [m, exp] = r.kind === 'int64' ? [r.value, r.scale] : [r.unscaled, -r.scale]
  const shift = exp - scale
  if (shift >= 0) return m * 10n ** BigInt(shift)
  const d = 10n ** BigInt(-shift)
  const quo = m / d
  return m % d !== 0n && m > 0n ? quo + 1n : quo
}

/** requestLimitEnforcedValues: Value(), or MilliValue() when all three fit in it. */
function enforcedValues(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity) {
  const value = (q: Quantity | undefined) => (q === undefined ? 0n : scaledValue(q, 0))
  const milli = (q: Quantity | undefined) => (q === undefined ? 0n : scaledValue(q, -3))
  let request = value(req)
  let limit = value(lim)
  let e = value(enforced)
  if (request <= MaxMilliValue && limit <= MaxMilliValue && e <= MaxMilliValue) {
    request = milli(req)
    limit = milli(lim)
    e = milli(enforced)
  }
  return { request, limit, enforced: e }
}

function minConstraint(type: string, name: string, enforced: Quantity, request: ResourceList, limit: ResourceList) {
  const req = request.get(name)
  const lim = limit.get(name)
  const v = enforcedValues(req, lim, enforced)
  if (req === undefined) return `minimum ${name} usage per ${type} is ${enforced}.  No request is specified`
  if (v.request < v.enforced) return `minimum ${name} usage per ${type} is ${enforced}, but request is ${req}`
  if (lim !== undefined && v.limit < v.enforced)
    return `minimum ${name} usage per ${type} is ${enforced}, but limit is ${lim}`
  return undefined
}

function maxRequestConstraint(type: string, name: string, enforced: Quantity, request: ResourceList) {
  const req = request.get(name)
  const v = enforcedValues(req, undefined, enforced)
  if (req === undefined) return `maximum ${name} usage per ${type} is ${enforced}.  No request is specified`
  if (v.request > v.enforced) return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req}`
  return undefined
}

function maxConstraint(type: string, name: string, enforced: Quantity, request: ResourceList, limit: ResourceList) {
  const req = request.get(name)
  const lim = limit.get(name)
  const v = enforcedValues(req, lim, enforced)
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${enforced}.  No limit is specified`
  if (v.limit > v.enforced) return `maximum ${name} usage per ${type} is ${enforced}, but limit is ${lim}`
  if (req !== undefined && v.request > v.enforced)
    return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req}`
  return undefined
}

/** Go's %f. */
const goF = (x: number): string => (Number.isFinite(x) ? x.toFixed(6) : x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN')

function limitRequestRatioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  request: ResourceList,
  limit: ResourceList,
) {
  const req = request.get(name)
  const lim = limit.get(name)
  const v = enforcedValues(req, lim, enforced)
  if (req === undefined || v.request === 0n)
    return `${name} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`
  if (lim === undefined || v.limit === 0n)
    return `${name} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`
  let observed = Number(v.limit) / Number(v.request)
  const display = observed
  let max = Number(scaledValue(enforced, 0))
  if (scaledValue(enforced, 0) <= MaxMilliValue) {
    observed *= 1000
    max = Number(scaledValue(enforced, -3))
  }
  if (observed > max)
    return `${name} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${goF(display)}`
  return undefined
}

/** utilerrors.NewAggregate(errs).Error(): one error as it is, several deduplicated in brackets. */
export function aggregate(errs: readonly string[]): string | undefined {
  if (errs.length === 0) return undefined
  if (errs.length === 1) return errs[0]
  const seen = [...new Set(errs)]
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`
}

// ---- Admit

/** defaultContainerResourceRequirements: the Container limits' defaults (later limits override earlier ones). */
function defaultRequirements(lr: JSONObject): { requests: JSONObject; limits: JSONObject } {
  const requests: JSONObject = {}
  const limits: JSONObject = {}
  for (const l of limitsOf(lr)) {
    if (l.type !== 'Container') continue
    const dr = obj(l.defaultRequest) ?? {}
    for (const k of Object.keys(dr)) setOwn(requests, k, dr[k])
    const d = obj(l.default) ?? {}
    for (const k of Object.keys(d)) setOwn(limits, k, d[k])
  }
  return { requests, limits }
}

/** mergeContainerResources: the defaults a container lacks, and the annotation's words for them. */
function mergeContainer(c: JSONObject, defaults: { requests: JSONObject; limits: JSONObject }, prefix: string) {
  const resources: JSONObject = obj(c.resources) ?? {}
  const limits: JSONObject = { ...(obj(resources.limits) ?? {}) }
  const requests: JSONObject = { ...(obj(resources.requests) ?? {}) }
  const setLimits: string[] = []
  const setRequests: string[] = []
  for (const k of Object.keys(defaults.limits))
    if (!Object.hasOwn(limits, k)) {
      setOwn(limits, k, defaults.limits[k])
      setLimits.push(k)
    }
  for (const k of Object.keys(defaults.requests))
    if (!Object.hasOwn(requests, k)) {
      setOwn(requests, k, defaults.requests[k])
      setRequests.push(k)
    }
  const words: string[] = []
  const name = typeof c.name === 'string' ? c.name : ''
  if (setRequests.length > 0) words.push(`${setRequests.sort().join(', ')} request for ${prefix} ${name}`)
  if (setLimits.length > 0) words.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${name}`)
  if (words.length > 0) {
    const out: JSONObject = { ...resources }
    if (Object.keys(limits).length > 0) out.limits = sortedKeys(limits)
    if (Object.keys(requests).length > 0) out.requests = sortedKeys(requests)
    c.resources = inOrder(out, ['limits', 'requests', 'claims'])
  }
  return words
}

/** A map as Go marshals it: keys sorted. */
function sortedKeys(o: JSONObject): JSONObject {
  const out: JSONObject = {}
  for (const k of Object.keys(o).sort()) setOwn(out, k, o[k])
  return out
}
function inOrder(o: JSONObject, order: readonly string[]): JSONObject {
  const out: JSONObject = {}
  for (const k of order) if (Object.hasOwn(o, k)) out[k] = o[k]
  for (const k of Object.keys(o)) if (!Object.hasOwn(out, k)) setOwn(out, k, o[k])
  return out
}

/** Admit on a Pod create: PodMutateLimitFunc of each LimitRange in turn, in place. */
export function admitLimitRanger(pod: JSONObject, limitRanges: readonly JSONObject[]): void {
  const spec = obj(pod.spec)
  if (spec === undefined) return
  for (const lr of limitRanges) {
    const defaults = defaultRequirements(lr)
    const words: string[] = []
    for (const c of arr(spec.containers)) words.push(...mergeContainer(c, defaults, 'container'))
    for (const c of arr(spec.initContainers)) words.push(...mergeContainer(c, defaults, 'init container'))
    if (words.length === 0) continue
    const meta: JSONObject = obj(pod.metadata) ?? (pod.metadata = {})
    const annotations: JSONObject = { ...(obj(meta.annotations) ?? {}) }
    setOwn(annotations, limitRangerAnnotation, `LimitRanger plugin set: ${words.join('; ')}`)
    meta.annotations = sortedKeys(annotations)
  }
}

// ---- Validate

const containerResources = (c: JSONObject) => {
  const r = obj(c.resources) ?? {}
  return { requests: resourceList(r.requests), limits: resourceList(r.limits) }
}

/** podRequests / podLimits: containers summed, init containers (restartable ones cumulative) as their maximum. */
function podResources(spec: JSONObject, which: 'requests' | 'limits', podLevel: boolean): ResourceList {
  const total = aggregateContainerResources(spec, which)
  const podLevelResources = obj(spec.resources)
  if (podLevel && podLevelResources !== undefined)
    for (const [k, q] of resourceList(podLevelResources[which])) if (k === 'cpu' || k === 'memory') total.set(k, q)
  return total
}

/** The three checks of one limit over one set of requests and limits. */
function checkLimit(limit: JSONObject, type: string, requests: ResourceList, limits: ResourceList, errs: string[]) {
  for (const [k, v] of resourceList(limit.min)) push(errs, minConstraint(type, k, v, requests, limits))
  for (const [k, v] of resourceList(limit.max)) push(errs, maxConstraint(type, k, v, requests, limits))
  for (const [k, v] of resourceList(limit.maxLimitRequestRatio))
    push(errs, limitRequestRatioConstraint(type, k, v, requests, limits))
}
const push = (errs: string[], e: string | undefined) => {
  if (e !== undefined) errs.push(e)
}

/** PodValidateLimitFunc of one LimitRange: its aggregate error, or undefined. */
export function podValidateLimit(lr: JSONObject, pod: JSONObject, minor: number): string | undefined {
  const spec = obj(pod.spec) ?? {}
  const errs: string[] = []
  for (const limit of limitsOf(lr)) {
    if (limit.type === 'Container') {
      for (const c of [...arr(spec.containers), ...arr(spec.initContainers)]) {
        const r = containerResources(c)
        checkLimit(limit, 'Container', r.requests, r.limits, errs)
      }
    }
    if (limit.type === 'Pod') {
      // the PodLevelResources feature gate: beta and on by default since 1.34 (pkg/features/kube_features.go)
      const podLevel = minor >= 34
      checkLimit(limit, 'Pod', podResources(spec, 'requests', podLevel), podResources(spec, 'limits', podLevel), errs)
    }
  }
  return aggregate(errs)
}

/** PersistentVolumeClaimValidateLimitFunc of one LimitRange. */
export function pvcValidateLimit(lr: JSONObject, pvc: JSONObject): string | undefined {
  const requests = resourceList(obj(obj(pvc.spec)?.resources)?.requests)
  const errs: string[] = []
  for (const limit of limitsOf(lr)) {
    if (limit.type !== 'PersistentVolumeClaim') continue
    for (const [k, v] of resourceList(limit.min))
      push(errs, minConstraint('PersistentVolumeClaim', k, v, requests, new Map()))
    for (const [k, v] of resourceList(limit.max))
      push(errs, maxRequestConstraint('PersistentVolumeClaim', k, v, requests))
  }
  return aggregate(errs)
}

/**
 * Validate: each LimitRange in turn, the first failure answering (runLimitFunc). `resource` is the request's
 * resource (`pods` on create, `persistentvolumeclaims`); other requests pass.
 */
export function validateLimitRanger(
  resource: string,
  object: JSONObject,
  limitRanges: readonly JSONObject[],
  minor: number,
): string | undefined {
  for (const lr of limitRanges) {
    const err =
      resource === 'pods'
        ? podValidateLimit(lr, object, minor)
        : resource === 'persistentvolumeclaims'
          ? pvcValidateLimit(lr, object)
          : undefined
    if (err !== undefined) return err
  }
  return undefined
}
