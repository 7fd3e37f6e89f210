import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Label, isDNS1123Subdomain } from '../../../kube/validation/names.js'
import { utf8Len } from '../common.js'

// kubernetes v1.37.2 pkg/apis/core/validation/names.go ValidateSignerName: a signer name is
// `<domain>/<path>`, the domain a DNS name of two labels or more, each part of the path a DNS subdomain.

const MAX_DOMAIN = 253
const MAX_SIGNER = MAX_DOMAIN + (253 + 63 + 1) + 1

/** ValidateSignerName (only the first bad label of each segment is reported, as Go breaks there). */
export function validateSignerName(p: FieldPath, signerName: string): FieldError[] {
  if (signerName.length === 0) return [field.required(p, '')]
  const segments = signerName.split('/')
  if (segments.length !== 2)
    return [
      field.invalid(p, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'"),
    ]
  const [domain, path] = segments as [string, string]
  const errs: FieldError[] = []
  if (utf8Len(domain) > MAX_DOMAIN) errs.push(field.tooLong(p, MAX_DOMAIN))
  const domainLabels = domain.split('.')
  for (const lbl of domainLabels) {
    const msgs = isDNS1123Label(lbl)
    if (msgs.length === 0) continue
    for (const m of msgs) errs.push(field.invalid(p, domain, `validating label "${lbl}": ${m}`))
    break
  }
  if (domainLabels.length < 2)
    errs.push(field.invalid(p, domain, 'should be a domain with at least two segments separated by dots'))
  for (const lbl of path.split('.')) {
    const msgs = isDNS1123Subdomain(lbl)
    if (msgs.length === 0) continue
    for (const m of msgs) errs.push(field.invalid(p, path, `validating label "${lbl}": ${m}`))
    break
  }
  if (utf8Len(signerName) > MAX_SIGNER) errs.push(field.tooLong(p, MAX_SIGNER))
  return errs
}
