import { goQuote } from '../../../cel/ext/quote.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { byteLength, isDNS1123Subdomain, maxLenError, regexError } from '../../../kube/validation/names.js'
import { arr, ipErrors, type JSONObject, obj, str, strictIPCIDR, strs, validateDNS1123Subdomain } from '../common.js'

// Name resolution of a PodSpec (kubernetes v1.37.2 pkg/apis/core/validation/validation.go):
// validatePodDNSConfig and ValidateHostAliases, with IsValidIPForLegacyField (StrictIPCIDRValidation
// on from 1.36) and validation.IsDNS1123SubdomainWithUnderscore (apimachinery). The search domains
// follow RelaxedDNSSearchValidation: beta, on from 1.33 (underscores allowed, a lone "." accepted);
// before, each search (trailing dot trimmed) must be a plain DNS-1123 subdomain.

const LABEL_US = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?'
const SUBDOMAIN_US = `${LABEL_US}(\\.${LABEL_US})*`
const subdomainUS = new RegExp(`^${SUBDOMAIN_US}$`)

/** validation.IsDNS1123SubdomainWithUnderscore. */
export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 253) errs.push(maxLenError(253))
  if (!subdomainUS.test(value))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
        SUBDOMAIN_US,
        'example.com',
      ),
    )
  return errs
}

/** A []string bad value: JSON from 1.34 (kubernetes#132314), Go's %#v before. */
function stringsInvalid(p: FieldPath, v: string[], detail: string, minor: number): FieldError {
  const e = field.invalid(p, v, detail)
  return minor >= 34 ? e : { ...e, printedValue: `[]string{${v.map(goQuote).join(', ')}}` }
}

const MAX_NAMESERVERS = 3
const MAX_SEARCHES = 32
const MAX_SEARCH_CHARS = 2048

/** validatePodDNSConfig. */
export function validatePodDNSConfig(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const cfg = obj(spec.dnsConfig)
  if (str(spec.dnsPolicy) === 'None') {
    if (cfg === undefined) return [field.required(p, 'must provide `dnsConfig` when `dnsPolicy` is None')]
    if (arr(cfg.nameservers).length === 0)
      return [
        field.required(p.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None'),
      ]
  }
  if (cfg === undefined) return errs
  const nameservers = strs(cfg.nameservers)
  if (nameservers.length > MAX_NAMESERVERS)
    errs.push(
      stringsInvalid(
        p.child('nameservers'),
        nameservers,
        `must not have more than ${MAX_NAMESERVERS} nameservers`,
        minor,
      ),
    )
  nameservers.forEach((ns, i) => {
    errs.push(...ipErrors(p.child('nameservers').index(i), ns, strictIPCIDR(minor)))
  })
  const searches = strs(cfg.searches)
  if (searches.length > MAX_SEARCHES)
    errs.push(
      stringsInvalid(p.child('searches'), searches, `must not have more than ${MAX_SEARCHES} search paths`, minor),
    )
  if (byteLength(searches.join(' ')) > MAX_SEARCH_CHARS)
    errs.push(
      stringsInvalid(
        p.child('searches'),
        searches,
        `must not have more than ${MAX_SEARCH_CHARS} characters (including spaces) in the search list`,
        minor,
      ),
    )
  searches.forEach((s, i) => {
    const sp = p.child('searches').index(i)
    if (minor >= 33) {
      if (s === '.') return
      const t = s.endsWith('.') ? s.slice(0, -1) : s
      for (const m of isDNS1123SubdomainWithUnderscore(t)) errs.push(field.invalid(sp, t, m))
    } else {
      const t = s.endsWith('.') ? s.slice(0, -1) : s
      for (const m of isDNS1123Subdomain(t)) errs.push(field.invalid(sp, t, m))
    }
  })
  arr(cfg.options).forEach((o, i) => {
    if (str(obj(o)?.name).length === 0) errs.push(field.required(p.child('options').index(i), 'must not be empty'))
  })
  return errs
}

/** ValidateHostAliases. */
export function validateHostAliases(aliases: unknown, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  arr(aliases).forEach((x, i) => {
    const a = obj(x) ?? {}
    errs.push(...ipErrors(p.index(i).child('ip'), str(a.ip), strictIPCIDR(minor)))
    strs(a.hostnames).forEach((h, j) => {
      errs.push(...validateDNS1123Subdomain(h, p.index(i).child('hostnames').index(j)))
    })
  })
  return errs
}
