import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { BoundedMemo } from '../../../kube/memo.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { parseQuantity, Quantity } from '../../../kube/values/quantity.js'

// Resource names and quantities as pkg/apis/core/validation (kubernetes v1.37.2) and
// pkg/apis/core/helper check them for PersistentVolumeClaim, LimitRange and ResourceQuota. A
// quantity's bad value is its String() (resource.Quantity marshals to that same JSON string).

/** A quantity as the decoder stored it; undefined when it does not parse (the decoder refused it already). */
export function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined
  const text = String(v)
  // the same few texts recur across objects: parsed once, each caller given its own copy (cmp and the
  // arithmetic change a Quantity's representation in place, as Go's do)
  const q = parsed.answer(text, parseOnce)
  return q === null ? undefined : q.clone()
}
const parsed = new BoundedMemo<string, Quantity | null>(4096)
function parseOnce(text: string): Quantity | null {
  const r = parseQuantity(text)
  return r instanceof Quantity ? r : null
}

export const ZERO = quantity('0') as Quantity
export const ONE = quantity('1') as Quantity

const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
])
export const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
])
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
])
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage'])

export const isHugePageResourceName = (n: string): boolean => n.startsWith('hugepages-')
export const isQuotaHugePageResourceName = (n: string): boolean =>
  n.startsWith('hugepages-') || n.startsWith('requests.hugepages-')
/** helper.IsNativeResource. */
export const isNativeResource = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/')
/** helper.IsExtendedResourceName. */
export function isExtendedResourceName(n: string): boolean {
  if (isNativeResource(n) || n.startsWith('requests.')) return false
  return isQualifiedName(`requests.${n}`).length === 0
}
export const isIntegerResourceName = (n: string): boolean => INTEGER_RESOURCES.has(n) || isExtendedResourceName(n)
export const isOvercommitAllowed = (n: string): boolean => isNativeResource(n) && !isHugePageResourceName(n)
export const isStandardQuotaResourceName = (n: string): boolean =>
  STANDARD_QUOTA_RESOURCES.has(n) || isQuotaHugePageResourceName(n)

/** validateResourceName. */
export function validateResourceName(value: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(value).map((m) => field.invalid(p, value, m))
  if (errs.length > 0) return errs
  if (!value.includes('/') && !(STANDARD_RESOURCES.has(value) || isQuotaHugePageResourceName(value)))
    return [field.invalid(p, value, 'must be a standard resource type or fully qualified')]
  return errs
}

/** ValidateContainerResourceName. */
export function validateContainerResourceName(value: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(value, p)
  if (!value.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(value) && !isHugePageResourceName(value))
      return [...errs, field.invalid(p, value, 'must be a standard resource for containers')]
  } else if (!isNativeResource(value) && !isExtendedResourceName(value)) {
    return [...errs, field.invalid(p, value, "doesn't follow extended resource name standard")]
  }
  return errs
}

/**
 * Whether validateContainerResourceName finds no error in `name`, remembered (cpu, memory, … recur in
 * every pod; the path only shapes an error's text, so any path answers whether there is one).
 */
export const isValidContainerResourceName = (name: string): boolean => validNames.answer(name, checkName)
const validNames = new BoundedMemo<string, boolean>(1024)
const NAME_PROBE = FieldPath.of('resources')
const checkName = (name: string) => validateContainerResourceName(name, NAME_PROBE).length === 0

/** ValidateResourceQuotaResourceName. */
export function validateResourceQuotaResourceName(value: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(value, p)
  if (!value.includes('/') && !isStandardQuotaResourceName(value))
    return [...errs, field.invalid(p, value, 'must be a standard resource for quota')]
  return errs
}

/** ValidateNonnegativeQuantity. */
export const validateNonnegativeQuantity = (q: Quantity, p: FieldPath): FieldError[] =>
  q.cmp(ZERO) < 0 ? [field.invalid(p, q.toString(), 'must be greater than or equal to 0')] : []

/** ValidatePositiveQuantityValue. */
export const validatePositiveQuantityValue = (q: Quantity, p: FieldPath): FieldError[] =>
  q.cmp(ZERO) <= 0 ? [field.invalid(p, q.toString(), 'must be greater than zero')] : []

/** MilliValue() % 1000 != 0: the canonical text of a non-integer ends in m, u or n, or has a negative exponent. */
export const isNonInteger = (q: Quantity): boolean => /\d[mun]$|e-/.test(q.toString())

/** ValidateResourceQuantityValue. */
export function validateResourceQuantityValue(name: string, q: Quantity, p: FieldPath): FieldError[] {
  const errs = validateNonnegativeQuantity(q, p)
  if (isIntegerResourceName(name) && isNonInteger(q)) errs.push(field.invalid(p, q.toString(), 'must be an integer'))
  return errs
}
