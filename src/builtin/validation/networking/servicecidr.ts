import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { parseIPSloppy } from '../../../kube/values/net.js'
import { arr, isValidCIDR, type JSONObject, obj, str } from '../common.js'

// networking.k8s.io/v1 ServiceCIDR: kubernetes v1.37.2 pkg/apis/networking/validation/validation.go
// ValidateServiceCIDR, validateServiceCIDRSpec, ValidateServiceCIDRUpdate (the strategy's ValidateUpdate
// runs only the update rules: pkg/registry/networking/servicecidr/strategy.go). The kind has no enforced
// declarative rules. PrepareForCreate resets the status (stored.ts).

const CIDRS = FieldPath.of('spec', 'cidrs')
const IMMUTABLE = 'field is immutable'

/** netutils.IPFamilyOfCIDRString: 4, 6, or undefined for a text that is no CIDR. */
function familyOfCIDR(s: string): 4 | 6 | undefined {
  const slash = s.indexOf('/')
  if (slash < 0 || !/^[0-9]+$/.test(s.slice(slash + 1))) return undefined
  const ip = s.slice(0, slash)
  const fam = parseIPSloppy(ip)
  if (fam === undefined) return undefined
  return fam === 4 && !ip.includes(':') ? 4 : 6
}

/** validateServiceCIDRSpec. */
function validateServiceCIDRSpec(cidrs: string[]): FieldError[] {
  if (cidrs.length === 0) return [field.required(CIDRS, 'at least one CIDR required')]
  // the bad value is the internal ServiceCIDRSpec (no json tags: {"CIDRs":[…]})
  if (cidrs.length > 2) return [field.invalid(CIDRS, new GoStruct([['CIDRs', cidrs]]), 'may only hold up to 2 values')]
  const errs: FieldError[] = []
  cidrs.forEach((c, i) => {
    errs.push(...isValidCIDR(CIDRS.index(i), c))
  })
  const [a, b] = cidrs as [string, string]
  if (cidrs.length === 2 && familyOfCIDR(a) === familyOfCIDR(b) && familyOfCIDR(a) !== undefined)
    errs.push(
      field.invalid(
        CIDRS,
        cidrs,
        'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
      ),
    )
  return errs
}

const cidrsOf = (o: JSONObject): string[] => arr(obj(o.spec)?.cidrs).map(str)

/** ValidateServiceCIDR. */
export function validateServiceCIDR(c: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(c, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  errs.push(...validateServiceCIDRSpec(cidrsOf(c)))
  return errs
}

/** ValidateServiceCIDRUpdate: the CIDRs immutable, but one may be added to a single one (dual stack). */
export function validateServiceCIDRUpdate(c: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(c, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, oldObject: old })
  const now = cidrsOf(c)
  const before = cidrsOf(old)
  if (now.length === before.length) {
    before.forEach((ip, i) => {
      if (ip !== now[i]) errs.push(field.invalid(CIDRS.index(i), now[i], IMMUTABLE))
    })
  } else if (before.length === 1 && now.length === 2) {
    if (now[0] !== before[0]) errs.push(field.invalid(CIDRS.index(0), now[0], IMMUTABLE))
    errs.push(...validateServiceCIDRSpec(now))
  } else errs.push(field.invalid(CIDRS, now.length === 0 ? null : now, IMMUTABLE))
  return errs
}
