import { utf8Length } from './utf8.js'

// The name formats of apimachinery pkg/util/validation (validation.go: DNS labels and subdomains,
// ports) and pkg/api/validate/content (kube.go: label keys and values), with their messages. The
// patterns are plain ASCII, so JavaScript regexes match exactly what Go's do; lengths are UTF-8 bytes
// as Go's len(). The label rules moved to pkg/api/validate/content in 1.35, whose MaxLenError says
// `bytes` where util/validation's says `characters`: `minor` picks the release's text (default 37).
// One home (issue 19) for custom resources, built-ins and policies.

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?'
const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`

const dns1123Label = new RegExp(`^${DNS1123_LABEL_FMT}$`)
const dns1123Subdomain = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`)
const dns1035Label = new RegExp(`^${DNS1035_LABEL_FMT}$`)
const labelKey = new RegExp(`^${LABEL_KEY_FMT}$`)
const labelValue = new RegExp(`^${LABEL_VALUE_FMT}$`)

/** Go's len(s): the UTF-8 byte count. */
export const byteLength = utf8Length

/** validation.MaxLenError (characters) and content.MaxLenError (bytes; label rules since 1.35). */
export const maxLenError = (n: number) => `must be no more than ${n} characters`
const contentMaxLenError = (n: number, minor: number) =>
  minor >= 35 ? `must be no more than ${n} bytes` : maxLenError(n)

/** RegexError (both packages word it the same). */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`
}

// Each check starts with the common case, a valid value: the patterns are ASCII, so a value that
// matches has as many bytes as UTF-16 units and its length needs no UTF-8 count (kelp check runs
// these a dozen times per object).

/** validation.IsDNS1123Label. */
export function isDNS1123Label(value: string): string[] {
  if (value.length <= 63 && dns1123Label.test(value)) return []
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenError(63))
  if (!dns1123Label.test(value)) {
    if (dns1123Subdomain.test(value)) errs.push('must not contain dots')
    else
      errs.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL_FMT,
          'my-name',
          '123-abc',
        ),
      )
  }
  return errs
}

const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

/** validation.IsDNS1123Subdomain. */
export function isDNS1123Subdomain(value: string): string[] {
  if (value.length <= 253 && dns1123Subdomain.test(value)) return []
  const errs: string[] = []
  if (byteLength(value) > 253) errs.push(maxLenError(253))
  if (!dns1123Subdomain.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'))
  return errs
}

/** content.IsDNS1123Subdomain (the label key prefix): lengths in bytes. */
function contentIsDNS1123Subdomain(value: string, minor: number): string[] {
  const errs: string[] = []
  if (byteLength(value) > 253) errs.push(contentMaxLenError(253, minor))
  if (!dns1123Subdomain.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'))
  return errs
}

/** validation.IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  if (value.length <= 63 && dns1035Label.test(value)) return []
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenError(63))
  if (!dns1035Label.test(value))
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        'my-name',
        'abc-123',
      ),
    )
  return errs
}

const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

/** content.IsLabelKey (validation.IsQualifiedName). */
export function isQualifiedName(value: string, minor = 37): string[] {
  const slash = value.indexOf('/')
  if (slash < 0) {
    if (value.length <= 63 && labelKey.test(value)) return []
  } else if (
    slash > 0 &&
    slash <= 253 &&
    value.length - slash - 1 <= 63 &&
    value.indexOf('/', slash + 1) < 0 &&
    dns1123Subdomain.test(value.slice(0, slash)) &&
    labelKey.test(value.slice(slash + 1))
  )
    return []
  const errs: string[] = []
  const parts = value.split('/')
  let name: string
  if (parts.length === 1) name = parts[0] as string
  else if (parts.length === 2) {
    const prefix = parts[0] as string
    name = parts[1] as string
    if (prefix.length === 0) errs.push('prefix part must be non-empty')
    else for (const m of contentIsDNS1123Subdomain(prefix, minor)) errs.push(`prefix part ${m}`)
  } else {
    errs.push(
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    )
    return errs
  }
  if (name.length === 0) errs.push('name part must be non-empty')
  else if (byteLength(name) > 63) errs.push(`name part ${contentMaxLenError(63, minor)}`)
  if (!labelKey.test(name))
    errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`)
  return errs
}

/** content.IsLabelValue. */
export function isValidLabelValue(value: string, minor = 37): string[] {
  if (value.length <= 63 && labelValue.test(value)) return []
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(contentMaxLenError(63, minor))
  if (!labelValue.test(value))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    )
  return errs
}

/** validation.IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive']
}
