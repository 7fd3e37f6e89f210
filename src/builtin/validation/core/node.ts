import { goQuote } from '../../../cel/ext/quote.js'
import type { FeatureGates } from '../../../kube/feature-gates.js'
import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { isQualifiedName, isValidLabelValue } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { compareGoStrings } from '../../../kube/values/json.js'
import { parseIPSloppy } from '../../../kube/values/net.js'
import {
  arr,
  deepEqual,
  isValidCIDRForLegacyField,
  type JSONObject,
  keys,
  obj,
  optNum,
  str,
  strictIPCIDR,
  utf8Len,
} from '../common.js'
import { quantity, validateResourceQuantityValue } from './resources.js'

// core/v1 Node: kubernetes v1.37.2 pkg/apis/core/validation/validation.go ValidateNode, ValidateNodeUpdate,
// validateNodeTaints, ValidateNodeResources, validateNodeSwapStatus, validateNodeDeclaredFeatures; the
// strategy (pkg/registry/core/node/strategy.go) runs ValidateNode on update too, keeps the old status on
// update, and drops on create spec.configSource and status.config (prepareNode). Go reports the
// taints and the swap status under `metadata` (its path variable there is the metadata's); kelp keeps those
// paths. Not ported: the taints and preferAvoidPods annotations (ValidateNodeSpecificAnnotations), the
// configSource and config status rules of an update, and the status subresource.

const META = FieldPath.of('metadata')
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']
const DECLARED_FEATURE = /^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$/

/**
 * What a Node meets before its validation, in place: the v1 conversion of podCIDR and podCIDRs
 * (pkg/apis/core/v1/conversion.go Convert_v1_NodeSpec_To_core_NodeSpec: podCIDR wins when the two differ, and
 * fills an empty podCIDRs; back to v1, podCIDR is podCIDRs[0]); on create, the TaintNodesByCondition admission
 * plugin's not-ready NoSchedule taint (plugin/pkg/admission/nodetaint, CREATE only; kelp adds it here, after
 * the admission policies, which therefore do not see it); and the strategy's dropDisabledFields: configSource
 * and status.config on create (configSource kept on update only when the old node had one), podPreemptionPolicy
 * while InPlacePodVerticalScalingSchedulerPreemption is off (alpha, off in 1.37, absent before).
 */
export function prepareNode(o: JSONObject, old: JSONObject | undefined, _on: FeatureGates): void {
  const spec = obj(o.spec)
  const status = obj(o.status)
  if (spec !== undefined) {
    const single = str(spec.podCIDR)
    const cidrs = arr(spec.podCIDRs)
    if (single !== '' && (cidrs.length === 0 || cidrs[0] !== single)) spec.podCIDRs = [single]
    if (arr(spec.podCIDRs).length > 0) spec.podCIDR = str(arr(spec.podCIDRs)[0])
  }
  if (old === undefined) {
    const taints = arr(spec?.taints)
    const notReady = (t: unknown) => str(obj(t)?.key) === NOT_READY && str(obj(t)?.effect) === 'NoSchedule'
    if (!taints.some(notReady))
      o.spec = { ...(spec ?? {}), taints: [...taints, { key: NOT_READY, effect: 'NoSchedule' }] }
    delete obj(o.spec)?.configSource
    delete status?.config
  } else if (obj(old.spec)?.configSource === undefined) delete spec?.configSource
  if (obj(old?.spec)?.podPreemptionPolicy === undefined) delete obj(o.spec)?.podPreemptionPolicy
}

const NOT_READY = 'node.kubernetes.io/not-ready'

/** The internal core.Taint a duplicate error prints (no json tags: Go's field names). */
const internalTaint = (t: JSONObject): GoStruct =>
  new GoStruct([
    ['Key', str(t.key)],
    ['Value', str(t.value)],
    ['Effect', str(t.effect)],
    ['TimeAdded', t.timeAdded ?? null],
  ])

/** validateNodeTaints: key, value, effect, and one taint per (key, effect). */
function validateNodeTaints(taints: unknown[], p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const unique = new Map<string, Set<string>>()
  taints.forEach((x, i) => {
    const t = obj(x) ?? {}
    const ip = p.index(i)
    const key = str(t.key)
    for (const m of isQualifiedName(key, minor)) errs.push(field.invalid(ip.child('key'), key, m))
    const value = str(t.value)
    const msgs = isValidLabelValue(value, minor)
    if (msgs.length > 0) errs.push(field.invalid(ip.child('value'), value, msgs.join(';')))
    const effect = str(t.effect)
    if (effect === '') errs.push(field.required(ip.child('effect'), ''))
    else if (!TAINT_EFFECTS.includes(effect)) errs.push(field.notSupported(ip.child('effect'), effect, TAINT_EFFECTS))
    const keysOfEffect = unique.get(effect)
    if (keysOfEffect?.has(key)) {
      errs.push({ ...field.duplicate(ip, internalTaint(t)), detail: 'taints must be unique by key and effect pair' })
      return
    }
    if (keysOfEffect === undefined) unique.set(effect, new Set([key]))
    else keysOfEffect.add(key)
  })
  return errs
}

/** ValidateNodeResources: each capacity and allocatable quantity (paths by Child, not Key). */
function validateNodeResources(status: JSONObject): FieldError[] {
  const errs: FieldError[] = []
  for (const list of ['capacity', 'allocatable'] as const) {
    const m = obj(status[list])
    for (const k of keys(m)) {
      const q = quantity(m?.[k])
      if (q !== undefined) errs.push(...validateResourceQuantityValue(k, q, FieldPath.of('status', list, k)))
    }
  }
  return errs
}

/** validateNodeDeclaredFeatures: names, sorted, distinct. */
function validateNodeDeclaredFeatures(features: string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  features.forEach((f, i) => {
    if (utf8Len(f) > 253)
      errs.push(field.invalid(p.index(i), f, `invalid feature name ${goQuote(f)}: must be no more than 253 characters`))
    else if (!DECLARED_FEATURE.test(f))
      errs.push(
        field.invalid(
          p.index(i),
          f,
          `invalid feature name ${goQuote(f)}: must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes`,
        ),
      )
    const next = features[i + 1]
    if (next === undefined) return
    if (f === next) errs.push(field.duplicate(p.index(i + 1), next))
    else if (compareGoStrings(f, next) > 0)
      errs.push(field.invalid(p.index(i + 1), next, 'list must be sorted alphabetically'))
  })
  return errs
}

/** netutils.ParseCIDRSloppy's family, or the error text of an invalid CIDR. */
function cidrFamily(s: string): 4 | 6 | string {
  const bad = `invalid CIDR address: ${s}`
  const slash = s.indexOf('/')
  if (slash < 0) return bad
  const ip = s.slice(0, slash)
  const fam = parseIPSloppy(ip)
  const bits = s.slice(slash + 1)
  if (fam === undefined || !/^[0-9]{1,3}$/.test(bits)) return bad
  const v4 = fam === 4 && !ip.includes(':')
  if (Number(bits) > (v4 ? 32 : 128)) return bad
  return v4 ? 4 : 6
}

/** The podCIDRs: each a CIDR, at most one per family (IsDualStackCIDRStrings). */
function validatePodCIDRs(cidrs: string[], minor: number): FieldError[] {
  const p = FieldPath.of('spec', 'podCIDRs')
  const errs: FieldError[] = []
  cidrs.forEach((c, i) => {
    errs.push(...isValidCIDRForLegacyField(p.index(i), c, strictIPCIDR(minor), []))
  })
  if (cidrs.length > 1) {
    const families = cidrs.map(cidrFamily)
    // netutils.ParseCIDRs: the first bad one, its nil *net.IPNet and the parse error
    const i = families.findIndex((f) => typeof f === 'string')
    const bad = i < 0 ? undefined : `invalid CIDR[${i}]: <nil> (${families[i]})`
    if (bad !== undefined)
      errs.push(field.internal(p, `invalid PodCIDRs. failed to check with dual stack with error:${bad}`))
    const dualStack = bad === undefined && families.includes(4) && families.includes(6)
    if (!dualStack || cidrs.length > 2)
      errs.push(field.invalid(p, cidrs, 'may specify no more than one CIDR for each IP family'))
  }
  return errs
}

/** ValidateNode (the status as the create keeps it). */
export function validateNode(n: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(n, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  const spec = obj(n.spec) ?? {}
  const status = obj(n.status) ?? {}
  const taints = arr(spec.taints)
  if (taints.length > 0) errs.push(...validateNodeTaints(taints, META.child('taints'), minor))
  errs.push(...validateNodeResources(status))
  const swap = optNum(obj(obj(obj(status.nodeInfo)?.swap))?.capacity)
  if (swap !== undefined && swap <= 0)
    errs.push(field.invalid(META.child('nodeSwapStatus', 'capacity'), swap, 'must be greater than zero'))
  errs.push(
    ...validateNodeDeclaredFeatures(arr(status.declaredFeatures).map(str), FieldPath.of('status', 'declaredFeatures')),
  )
  const cidrs = arr(spec.podCIDRs).map(str)
  if (cidrs.length > 0) errs.push(...validatePodCIDRs(cidrs, minor))
  return errs
}

const CIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid'

/** The strategy's ValidateUpdate: ValidateNode, then ValidateNodeUpdate (the old status kept by PrepareForUpdate). */
export function validateNodeUpdate(n: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const prepared: JSONObject = { ...n }
  if (old.status === undefined) delete prepared.status
  else prepared.status = old.status
  const errs = validateNode(prepared, minor)
  errs.push(...validateObjectMetaFor(n, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, oldObject: old }))
  const status = obj(prepared.status) ?? {}
  errs.push(...validateNodeResources(status))
  errs.push(
    ...validateNodeDeclaredFeatures(arr(status.declaredFeatures).map(str), FieldPath.of('status', 'declaredFeatures')),
  )
  const seen: unknown[] = []
  arr(status.addresses).forEach((a, i) => {
    const address = obj(a) ?? {}
    const k = { type: str(address.type), address: str(address.address) }
    if (seen.some((s) => deepEqual(s, k)))
      errs.push(
        field.duplicate(
          FieldPath.of('status', 'addresses').index(i),
          new GoStruct([
            ['Type', k.type],
            ['Address', k.address],
          ]),
        ),
      )
    seen.push(k)
  })
  const spec = obj(n.spec) ?? {}
  const oldSpec = obj(old.spec) ?? {}
  const oldCIDRs = arr(oldSpec.podCIDRs).map(str)
  const newCIDRs = arr(spec.podCIDRs).map(str)
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(field.forbidden(FieldPath.of('spec', 'podCIDRs'), CIDR_CHANGE))
    else
      oldCIDRs.forEach((c, i) => {
        if (c !== newCIDRs[i]) errs.push(field.forbidden(FieldPath.of('spec', 'podCIDRs'), CIDR_CHANGE))
      })
  }
  const oldID = str(oldSpec.providerID)
  const newID = str(spec.providerID)
  if (oldID !== '' && newID !== '' && oldID !== newID)
    errs.push(field.invalid(FieldPath.of('spec', 'providerID'), null, 'field cannot be modified once set'))
  if (oldID !== '' && newID === '')
    errs.push(field.invalid(FieldPath.of('spec', 'providerID'), null, 'field cannot be cleared once set'))
  const taints = arr(spec.taints)
  if (taints.length > 0) errs.push(...validateNodeTaints(taints, META.child('taints'), minor))
  if (str(spec.externalID) !== str(oldSpec.externalID))
    errs.push(field.forbidden(FieldPath.of('spec', 'externalID'), 'may not be updated'))
  return errs
}
