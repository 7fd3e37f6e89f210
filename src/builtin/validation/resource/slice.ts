import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { validateLabelName } from '../../../kube/validation/label-selector.js'
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, keys, objectMetaUpdate } from '../common.js'
import { validateNodeSelector } from '../core/pod-affinity.js'
import {
  arr,
  DEVICE_MAX_ID_LENGTH,
  duplicates,
  Errs,
  isCIdentifier,
  obj,
  str,
  tooMany,
  validateDriverName,
} from './common.js'

// resource.k8s.io/v1 ResourceSlice and DeviceTaintRule: kubernetes v1.37.2
// pkg/apis/resource/validation/validation.go ValidateResourceSlice(Update), ValidateDeviceTaintRule(Update),
// with the declarative rules of k8s.io/api resource/v1 (common.ts). The strategies' PrepareForCreate
// drops what the 1.37 gates keep off (prepare.ts): list-type attributes, partitionTypeAttribute,
// compatibilityGroups, nodeAllocatableResources, skipNodeOperations. Not modelled: a multi-allocatable
// device's capacity requestPolicy beyond "one policy" (validValues, validRange and their steps).

const MAX_DEVICES = 128
const MAX_DEVICES_WITH_ADVANCED_FEATURES = 64
const MAX_COUNTER_SETS = 8
const MAX_COUNTERS_PER_SET = 32
const MAX_COUNTER_CONSUMPTIONS_PER_DEVICE = 2
const MAX_COUNTERS_PER_CONSUMPTION = 32
const MAX_ATTRIBUTES_AND_CAPACITIES = 32
const MAX_ATTRIBUTE_VALUES = 48
const ATTRIBUTE_MAX_VALUE_LENGTH = 64
const DEVICE_TAINTS_MAX_LENGTH = 16
const BINDING_CONDITIONS_MAX_SIZE = 4
const POOL_NAME_MAX_LENGTH = 253
/** attributeAndCapacityMaxKeyLength: domain (63) / ID (32). */
const ATTRIBUTE_KEY_MAX_LENGTH = 63 + 1 + DEVICE_MAX_ID_LENGTH
const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'None']

const semver =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/

const set = (v: unknown) => v !== undefined && v !== null
/** The union members of DeviceAttribute, in the declarative union's order. */
const ATTRIBUTE_MEMBERS = ['int', 'bool', 'string', 'version', 'ints', 'bools', 'strings', 'versions']
const UNION_LIST = ATTRIBUTE_MEMBERS.map((m) => `\`${m}\``).join(', ')

/** The internal core.NodeSelectorTerm list as Go prints it (no json tags: Go field names, nil as null). */
function internalTerms(terms: unknown): unknown {
  const list = (v: unknown, f: (x: JSONObject) => GoStruct) => (Array.isArray(v) ? v.map((x) => f(obj(x) ?? {})) : null)
  const req = (r: JSONObject) =>
    new GoStruct([
      ['Key', str(r.key)],
      ['Operator', str(r.operator)],
      ['Values', Array.isArray(r.values) ? r.values : null],
    ])
  return list(
    terms,
    (t) =>
      new GoStruct([
        ['MatchExpressions', list(t.matchExpressions, req)],
        ['MatchFields', list(t.matchFields, req)],
      ]),
  )
}

/** validatePoolName: required, at most 253 bytes, each `/`-separated part a DNS subdomain. */
export function validatePoolName(name: string, p: FieldPath): FieldError[] {
  if (name === '') return [field.required(p, '')]
  const errs: FieldError[] = []
  if (Buffer.byteLength(name) > POOL_NAME_MAX_LENGTH) errs.push(field.tooLong(p, POOL_NAME_MAX_LENGTH))
  for (const part of name.split('/')) for (const m of isDNS1123Subdomain(part)) errs.push(field.invalid(p, part, m))
  return errs
}

const validateDeviceName = (name: string, p: FieldPath): FieldError[] =>
  isDNS1123Label(name).map((m) => field.invalid(p, name, m))

/** validateNodeName (ValidateNodeName: a DNS subdomain). */
const validateNodeName = (name: string, p: FieldPath): FieldError[] =>
  nameIsDNSSubdomain(name, false).map((m) => field.invalid(p, name, m))

/** truncateIfTooLong: a long map key shortened in the middle for its path. */
function truncateIfTooLong(s: string, max: number): string {
  const m = Math.max(max, 16)
  if (s.length <= m) return s
  const remaining = m - 3
  return `${s.slice(0, Math.floor((remaining + 1) / 2))}...${s.slice(s.length - Math.floor(remaining / 2))}`
}

/** validateQualifiedName (attribute and capacity keys), at the map's path. */
function validateQualifiedName(name: string, p: FieldPath): FieldError[] {
  const cIdent = (id: string) => {
    const out: FieldError[] = []
    if (Buffer.byteLength(id) > DEVICE_MAX_ID_LENGTH) out.push(field.tooLong(p, DEVICE_MAX_ID_LENGTH))
    for (const m of isCIdentifier(id)) out.push(field.invalid(p, id, m))
    return out
  }
  const parts = name.split('/')
  if (parts.length === 1) return cIdent(name)
  if (parts.length !== 2) return []
  const [domain, id] = parts as [string, string]
  const errs: FieldError[] = []
  if (domain === '') errs.push(field.invalid(p, '', 'the domain must not be empty'))
  else errs.push(...validateDriverName(domain, p))
  if (id === '') errs.push(field.invalid(p, '', 'the name must not be empty'))
  else errs.push(...cIdent(id))
  return errs
}

/** validateDeviceAttribute (list-type values are dropped in 1.37: one of bool, int, string, version). */
function validateDeviceAttribute(a: JSONObject, p: FieldPath, errs: Errs): void {
  if (typeof a.string === 'string') {
    if (Buffer.byteLength(a.string) > ATTRIBUTE_MAX_VALUE_LENGTH)
      errs.add(field.tooLong(p.child('string'), ATTRIBUTE_MAX_VALUE_LENGTH))
  }
  if (typeof a.version === 'string') {
    if (!semver.test(a.version))
      errs.add(field.invalid(p.child('version'), a.version, 'must be a string compatible with semver.org spec 2.0.0'))
    if (Buffer.byteLength(a.version) > ATTRIBUTE_MAX_VALUE_LENGTH)
      errs.add(field.tooLong(p.child('version'), ATTRIBUTE_MAX_VALUE_LENGTH))
  }
  // the union is declarative (validate.Union): its text replaces the handwritten one
  const members = ATTRIBUTE_MEMBERS.filter((k) => set(a[k]))
  if (members.length === 0) errs.covered(field.invalid(p, '', `must specify one of: ${UNION_LIST}`))
  else if (members.length > 1)
    errs.covered(field.invalid(p, `{${members.join(', ')}}`, `must specify exactly one of: ${UNION_LIST}`))
}

/** validateDeviceTaint. */
function validateDeviceTaint(t: JSONObject, old: JSONObject | undefined, p: FieldPath, errs: Errs): void {
  errs.add(...validateLabelName(str(t.key), p.child('key')))
  const value = str(t.value)
  if (value !== '') for (const m of isValidLabelValue(value)) errs.add(field.invalid(p.child('value'), value, m))
  if (old === undefined || old.effect !== t.effect) {
    const effect = str(t.effect)
    if (effect === '') errs.covered(field.required(p.child('effect'), ''))
    else if (!TAINT_EFFECTS.includes(effect)) errs.covered(field.notSupported(p.child('effect'), effect, TAINT_EFFECTS))
  }
}

/** validateDeviceBindingParameters (the raw lists: an absent one prints as null, an empty one as []). */
function validateDeviceBindingParameters(rawConds: unknown, rawFailures: unknown, p: FieldPath, errs: Errs): void {
  const conds = arr(rawConds).map(str)
  const failures = arr(rawFailures).map(str)
  const cp = p.child('bindingConditions')
  const fp = p.child('bindingFailureConditions')
  if (!tooMany(errs, conds, BINDING_CONDITIONS_MAX_SIZE, cp, true))
    conds.forEach((c, i) => {
      errs.add(...validateLabelName(c, cp.index(i)))
    })
  if (!tooMany(errs, failures, BINDING_CONDITIONS_MAX_SIZE, fp, true))
    failures.forEach((c, i) => {
      errs.add(...validateLabelName(c, fp.index(i)))
    })
  errs.add(...duplicates(conds, str, cp))
  const seen = new Set<string>()
  failures.forEach((c, i) => {
    if (seen.has(c)) errs.add(field.duplicate(fp.index(i), c))
    else seen.add(c)
    if (conds.includes(c))
      errs.add(field.invalid(fp.index(i), c, 'bindingFailureConditions must not overlap with bindingConditions'))
  })
  if (conds.length === 0 && failures.length > 0)
    errs.add(field.invalid(cp, rawConds ?? null, 'bindingConditions are required to use bindingFailureConditions'))
  if (failures.length === 0 && conds.length > 0)
    errs.add(field.invalid(fp, rawFailures ?? null, 'bindingFailureConditions are required to use bindingConditions'))
}

/** The counters of a counter set or a consumption: at most `max`, keys DNS labels (declarative). */
function validateCounters(counters: JSONObject | undefined, max: number, p: FieldPath, errs: Errs): void {
  const ks = keys(counters)
  if (ks.length === 0) {
    errs.covered(field.required(p, ''))
    return
  }
  if (ks.length > max) {
    errs.add(field.tooMany(p, ks.length, max))
    return
  }
  for (const k of ks) for (const m of isDNS1123Label(k)) errs.covered(field.invalid(p, k, m))
}

/** validateCounterSet / validateDeviceCounterConsumption (their name: `+k8s:required`, a short name). */
function validateCounterHolder(c: JSONObject, nameField: string, max: number, p: FieldPath, errs: Errs): void {
  const name = str(c[nameField])
  const np = p.child(nameField)
  if (name === '') errs.covered(field.required(np, ''))
  else for (const m of isDNS1123Label(name)) errs.covered(field.invalid(np, name, m))
  validateCounters(obj(c.counters), max, p.child('counters'), errs)
}

const NODE_FIELDS_PER_DEVICE =
  'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec'

/** validateDevice. */
function validateDevice(
  d: JSONObject,
  old: JSONObject | undefined,
  p: FieldPath,
  perDevice: boolean,
  errs: Errs,
  minor: number,
): void {
  const multi = d.allowMultipleAllocations === true
  errs.add(...validateDeviceName(str(d.name), p.child('name')))
  const attributes = obj(d.attributes) ?? {}
  const capacity = obj(d.capacity) ?? {}
  const count = keys(attributes).length + keys(capacity).length
  if (count > MAX_ATTRIBUTES_AND_CAPACITIES)
    errs.add(
      field.invalid(
        p,
        count,
        `the total number of attributes and capacities must not exceed ${MAX_ATTRIBUTES_AND_CAPACITIES}`,
      ),
    )
  const values = keys(attributes).length
  if (values > MAX_ATTRIBUTE_VALUES)
    errs.add(field.invalid(p, values, `the total number of attribute values must not exceed ${MAX_ATTRIBUTE_VALUES}`))
  const ap = p.child('attributes')
  for (const k of keys(attributes)) {
    errs.add(...validateQualifiedName(k, ap))
    validateDeviceAttribute(obj(attributes[k]) ?? {}, ap.key(truncateIfTooLong(k, ATTRIBUTE_KEY_MAX_LENGTH)), errs)
  }
  if (old === undefined || !deepEqual(old.capacity ?? null, d.capacity ?? null)) {
    const cp = p.child('capacity')
    for (const k of keys(capacity)) {
      errs.add(...validateQualifiedName(k, cp))
      const policy = obj(obj(capacity[k])?.requestPolicy)
      if (policy === undefined) continue
      const pp = cp.key(truncateIfTooLong(k, ATTRIBUTE_KEY_MAX_LENGTH)).child('requestPolicy')
      if (!multi) errs.add(field.forbidden(pp, 'allowMultipleAllocations must be true'))
      else if (arr(policy.validValues).length > 0 && set(policy.validRange))
        errs.add(
          field.forbidden(
            pp,
            'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time',
          ),
        )
    }
  }
  // the handwritten code checks taints before consumesCounters; the declarative walk follows the fields
  // (consumesCounters before taints): the taints' declarative errors wait for the counters'
  const taints = arr(d.taints)
  const taintErrs = new Errs()
  if (old === undefined || !deepEqual(old.taints ?? null, d.taints ?? null)) {
    const tp = p.child('taints')
    if (!tooMany(taintErrs, taints, DEVICE_TAINTS_MAX_LENGTH, tp, false))
      taints.forEach((t, i) => {
        validateDeviceTaint(obj(t) ?? {}, undefined, tp.index(i), taintErrs)
      })
  }
  errs.add(...taintErrs.hv)
  const consumes = arr(d.consumesCounters)
  const up = p.child('consumesCounters')
  if (!tooMany(errs, consumes, MAX_COUNTER_CONSUMPTIONS_PER_DEVICE, up, true)) {
    errs.covered(...duplicates(consumes, (c) => str(obj(c)?.counterSet), up, 'resource/v1.DeviceCounterConsumption'))
    consumes.forEach((c, i) => {
      validateCounterHolder(obj(c) ?? {}, 'counterSet', MAX_COUNTERS_PER_CONSUMPTION, up.index(i), errs)
    })
  }
  errs.covered(...taintErrs.dv)
  if (perDevice) {
    const fields: string[] = []
    if (typeof d.nodeName === 'string') {
      if (d.nodeName !== '') {
        fields.push('`nodeName`')
        errs.add(...validateNodeName(d.nodeName, p.child('nodeName')))
      } else errs.add(field.invalid(p.child('nodeName'), '', 'must not be empty'))
    }
    const ns = obj(d.nodeSelector)
    if (ns !== undefined) {
      fields.push('`nodeSelector`')
      errs.add(...validateNodeSelector(ns, false, p.child('nodeSelector'), minor))
    }
    if (typeof d.allNodes === 'boolean') {
      if (d.allNodes) fields.push('`allNodes`')
      else errs.add(field.invalid(p.child('allNodes'), false, 'must be either unset or set to true'))
    }
    if (fields.length === 0) errs.add(field.required(p, NODE_FIELDS_PER_DEVICE))
    else if (fields.length > 1) errs.add(field.invalid(p, `{${fields.join(', ')}}`, NODE_FIELDS_PER_DEVICE))
  } else if (set(d.nodeName) || set(d.nodeSelector) || set(d.allNodes))
    errs.add(
      field.invalid(
        p,
        null,
        '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec',
      ),
    )
  validateDeviceBindingParameters(d.bindingConditions, d.bindingFailureConditions, p, errs)
}

const NODE_FIELDS = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'

/** validateResourceSliceSpec. */
function validateResourceSliceSpec(
  spec: JSONObject,
  old: JSONObject | undefined,
  p: FieldPath,
  errs: Errs,
  minor: number,
): void {
  errs.add(...validateDriverName(str(spec.driver), p.child('driver')))
  const pool = obj(spec.pool) ?? {}
  const pp = p.child('pool')
  errs.add(...validatePoolName(str(pool.name), pp.child('name')))
  const count = typeof pool.resourceSliceCount === 'number' ? pool.resourceSliceCount : 0
  if (count <= 0) errs.add(field.invalid(pp.child('resourceSliceCount'), count, 'must be greater than zero'))
  const generation = typeof pool.generation === 'number' ? pool.generation : 0
  if (generation < 0)
    errs.add(field.invalid(pp.child('generation'), generation, 'must be greater than or equal to zero'))
  if (old !== undefined) {
    const oldPool = obj(old.pool) ?? {}
    const immutable = (nv: unknown, ov: unknown, fp: FieldPath) => {
      if (!deepEqual(nv ?? null, ov ?? null)) errs.add(field.invalid(fp, nv ?? null, 'field is immutable'))
    }
    immutable(str(pool.name), str(oldPool.name), pp.child('name'))
    immutable(str(spec.driver), str(old.driver), p.child('driver'))
    immutable(spec.nodeName, old.nodeName, p.child('nodeName'))
  }
  const fields: string[] = []
  if (typeof spec.nodeName === 'string') {
    if (spec.nodeName !== '') {
      fields.push('`nodeName`')
      errs.add(...validateNodeName(spec.nodeName, p.child('nodeName')))
    } else errs.add(field.invalid(p.child('nodeName'), '', 'must be either unset or set to a non-empty string'))
  }
  const ns = obj(spec.nodeSelector)
  if (ns !== undefined) {
    fields.push('`nodeSelector`')
    errs.add(...validateNodeSelector(ns, false, p.child('nodeSelector'), minor))
    const terms = arr(ns.nodeSelectorTerms)
    if (terms.length !== 1)
      errs.add(
        field.invalid(
          p.child('nodeSelector', 'nodeSelectorTerms'),
          internalTerms(ns.nodeSelectorTerms),
          'must have exactly one node selector term',
        ),
      )
  }
  for (const k of ['allNodes', 'perDeviceNodeSelection'])
    if (typeof spec[k] === 'boolean') {
      if (spec[k]) fields.push(`\`${k}\``)
      else errs.add(field.invalid(p.child(k), false, 'must be either unset or set to true'))
    }
  if (fields.length === 0) errs.add(field.required(p, NODE_FIELDS))
  else if (fields.length > 1)
    errs.add(field.invalid(p, `{${fields.join(', ')}}`, `${NODE_FIELDS}, but multiple fields are set`))
  const devices = arr(spec.devices)
  const counters = arr(spec.sharedCounters)
  if (set(spec.sharedCounters) && set(spec.devices))
    errs.add(field.invalid(p, '', 'only one of `sharedCounters` or `devices` is allowed'))
  const advanced = devices.some((d) => arr(obj(d)?.taints).length > 0 || arr(obj(d)?.consumesCounters).length > 0)
  const dp = p.child('devices')
  if (!tooMany(errs, devices, advanced ? MAX_DEVICES_WITH_ADVANCED_FEATURES : MAX_DEVICES, dp, false)) {
    const oldDevices = arr(old?.devices).map((d) => obj(d) ?? {})
    devices.forEach((d, i) => {
      const dev = obj(d) ?? {}
      const oldDevice = old === undefined ? undefined : oldDevices.find((o) => str(o.name) === str(dev.name))
      validateDevice(dev, oldDevice, dp.index(i), spec.perDeviceNodeSelection === true, errs, minor)
    })
    errs.add(...duplicates(devices, (d) => str(obj(d)?.name), dp))
  }
  const cp = p.child('sharedCounters')
  if (!tooMany(errs, counters, MAX_COUNTER_SETS, cp, true)) {
    errs.covered(...duplicates(counters, (c) => str(obj(c)?.name), cp, 'resource/v1.CounterSet'))
    counters.forEach((c, i) => {
      validateCounterHolder(obj(c) ?? {}, 'name', MAX_COUNTERS_PER_SET, cp.index(i), errs)
    })
  }
}

/** ValidateResourceSlice. */
export function validateResourceSlice(slice: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...validateObjectMetaFor(slice, { namespaced: false, nameFn: nameIsDNSSubdomain, minor }))
  validateResourceSliceSpec(obj(slice.spec) ?? {}, undefined, FieldPath.of('spec'), errs, minor)
  return errs.all()
}

/** ValidateResourceSliceUpdate. */
export function validateResourceSliceUpdate(slice: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...objectMetaUpdate(slice, old, minor))
  validateResourceSliceSpec(obj(slice.spec) ?? {}, obj(old.spec) ?? {}, FieldPath.of('spec'), errs, minor)
  return errs.all()
}

/** validateDeviceTaintRuleSpec. */
function validateDeviceTaintRuleSpec(spec: JSONObject, old: JSONObject | undefined, errs: Errs): void {
  const p = FieldPath.of('spec')
  const sel = obj(spec.deviceSelector)
  if (sel !== undefined) {
    const sp = p.child('deviceSelector')
    if (typeof sel.driver === 'string') errs.add(...validateDriverName(sel.driver, sp.child('driver')))
    if (typeof sel.pool === 'string') errs.add(...validatePoolName(sel.pool, sp.child('pool')))
    if (typeof sel.device === 'string') errs.add(...validateDeviceName(sel.device, sp.child('device')))
  }
  validateDeviceTaint(
    obj(spec.taint) ?? {},
    old === undefined ? undefined : (obj(old.taint) ?? {}),
    p.child('taint'),
    errs,
  )
}

/** ValidateDeviceTaintRule. */
export function validateDeviceTaintRule(rule: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...validateObjectMetaFor(rule, { namespaced: false, nameFn: nameIsDNSSubdomain, minor }))
  validateDeviceTaintRuleSpec(obj(rule.spec) ?? {}, undefined, errs)
  return errs.all()
}

/** ValidateDeviceTaintRuleUpdate. */
export function validateDeviceTaintRuleUpdate(rule: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...objectMetaUpdate(rule, old, minor))
  validateDeviceTaintRuleSpec(obj(rule.spec) ?? {}, obj(old.spec) ?? {}, errs)
  return errs.all()
}
