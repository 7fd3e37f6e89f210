import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, num, str } from '../common.js'

// scheduling.k8s.io/v1 PriorityClass: kubernetes v1.37.2 pkg/apis/scheduling/validation/validation.go
// ValidatePriorityClass / ValidatePriorityClassUpdate (the system classes of
// pkg/apis/scheduling/v1/helpers.go). The kind has no declarative rules.

const HIGHEST_USER = 1000000000
const SYSTEM_CRITICAL = 2 * HIGHEST_USER
const SYSTEM = [
  { name: 'system-node-critical', value: SYSTEM_CRITICAL + 1000, globalDefault: false },
  { name: 'system-cluster-critical', value: SYSTEM_CRITICAL, globalDefault: false },
]

function knownSystemClass(name: string, value: number, globalDefault: boolean): string | undefined {
  const c = SYSTEM.find((s) => s.name === name)
  if (c === undefined) return `${name} is not a known system priority class`
  if (c.value !== value) return `value of ${c.name} PriorityClass must be ${c.value}`
  if (c.globalDefault !== globalDefault) return `globalDefault of ${c.name} PriorityClass must be ${c.globalDefault}`
  return undefined
}

export function validatePriorityClass(pc: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(pc, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  const name = str((pc.metadata as JSONObject | undefined)?.name)
  const value = num(pc.value)
  if (name.startsWith('system-')) {
    const err = knownSystemClass(name, value, pc.globalDefault === true)
    if (err !== undefined)
      errs.push(
        field.forbidden(
          FieldPath.of('metadata', 'name'),
          `priority class names with 'system-' prefix are reserved for system use only. error: ${err}`,
        ),
      )
  } else if (value > HIGHEST_USER) {
    errs.push(
      field.forbidden(FieldPath.of('value'), `maximum allowed value of a user defined priority is ${HIGHEST_USER}`),
    )
  }
  if (typeof pc.preemptionPolicy === 'string') {
    const p = FieldPath.of('preemptionPolicy')
    if (pc.preemptionPolicy === '') errs.push(field.required(p, ''))
    else if (pc.preemptionPolicy !== 'PreemptLowerPriority' && pc.preemptionPolicy !== 'Never')
      errs.push(field.notSupported(p, pc.preemptionPolicy, ['PreemptLowerPriority', 'Never']))
  }
  return errs
}

/** ValidatePriorityClassUpdate. */
export function validatePriorityClassUpdate(pc: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(pc, {
    namespaced: false,
    nameFn: nameIsDNSSubdomain,
    minor: minor,
    oldObject: old,
  })
  if (num(pc.value) !== num(old.value))
    errs.push(field.forbidden(FieldPath.of('value'), 'may not be changed in an update.'))
  if (!deepEqual(pc.preemptionPolicy ?? null, old.preemptionPolicy ?? null))
    errs.push(field.invalid(FieldPath.of('preemptionPolicy'), pc.preemptionPolicy ?? null, 'field is immutable'))
  return errs
}
