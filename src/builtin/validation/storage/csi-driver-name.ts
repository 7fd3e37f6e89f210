import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Subdomain, regexError } from '../../../kube/validation/names.js'
import { utf8Len } from '../common.js'

// A CSI driver's name where a field holds one (kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// ValidateCSIDriverName), and the declarative rules of k8s.io/api storage/v1 that cover it on a
// VolumeAttachment's spec.attacher (+k8s:required, +k8s:format=k8s-long-name-caseless, +k8s:maxLength=63,
// beta: apimachinery pkg/api/validate required.go RequiredValue, strfmt.go LongNameCaseless, limits.go
// MaxLength).

/** ValidateCSIDriverName: required, at most 63 bytes, a DNS-1123 subdomain once lowercased. */
export function validateCSIDriverName(name: string, p: FieldPath): FieldError[] {
  if (name.length === 0) return [field.required(p, '')]
  const errs: FieldError[] = []
  if (utf8Len(name) > 63) errs.push(field.tooLong(p, 63))
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(field.invalid(p, name, m))
  return errs
}

const SUBDOMAIN_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'
const CASELESS = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i
const CASELESS_MSG =
  "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

/** content.IsDNS1123SubdomainCaseless (apimachinery pkg/api/validate/content/dns.go). */
function isDNS1123SubdomainCaseless(value: string): string[] {
  const errs: string[] = []
  if (utf8Len(value) > 253) errs.push('must be no more than 253 bytes')
  if (!CASELESS.test(value)) errs.push(regexError(CASELESS_MSG, SUBDOMAIN_FMT, 'Example.com'))
  return errs
}

/**
 * The declarative attacher rules: RequiredValue (short-circuits), LongNameCaseless, MaxLength(63) in
 * characters. They replace the handwritten errors ValidateCSIDriverName marks covered (all of them here).
 */
export function declarativeCSIDriverName(name: string, p: FieldPath): FieldError[] {
  if (name === '') return [field.required(p, '')]
  const errs = isDNS1123SubdomainCaseless(name).map((m) => field.invalid(p, name, m))
  // MaxLength: at most 63 runes (a byte length within 4 × 63 is counted in runes)
  if (Math.ceil(utf8Len(name) / 4) > 63 || [...name].length > 63)
    errs.push({ ...field.tooLong(p, 63), detail: 'may not be more than 63 characters' })
  return errs
}
