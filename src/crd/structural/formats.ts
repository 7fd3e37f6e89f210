import { utf8Length } from '../../kube/validation/utf8.js'
import { isCIDR, isHostname, isIPv4, isIPv6, isMAC } from '../../kube/values/net.js'
import { parseRequestURI, URLError } from '../../kube/values/url.js'
import { isEmail } from './formats-mail.js'
import { isDate, isDateTime, isDuration } from './formats-time.js'

// kube-openapi strfmt.Default (default.go, date.go, time.go, duration.go, bson.go,
// kubernetes-extensions.go): the named string formats the CRD validator checks, looked up by name
// with `-` removed (DefaultNameNormalizer), and apiextensions' formats.go: the formats a CRD schema
// may use at a compatibility version; any other format is blanked before validation.

/** strfmt DefaultNameNormalizer. */
export const normalizeFormatName = (name: string): string => name.replaceAll('-', '')

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i
// govalidator patterns, with Go's ASCII-only \d and \s written out
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$/
const ISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/
const ISBN13 = /^(?:[0-9]{13})$/
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const BYTE_0_255 = '(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])'
const SP = '[\\t\\n\\f\\r ]*'
const RGB_COLOR = new RegExp(`^rgb\\(${SP}${BYTE_0_255}${SP},${SP}${BYTE_0_255}${SP},${SP}${BYTE_0_255}${SP}\\)$`)
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/
const SSN = /^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$/
const SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** govalidator.IsISBN(str, 10|13): separators (ASCII space class and `-`) removed, then the checksum. */
function isISBN(s: string, version: 10 | 13): boolean {
  const d = s.replace(/[\t\n\f\r -]+/g, '')
  const at = (i: number) => d.charCodeAt(i) - 0x30
  let sum = 0
  if (version === 10) {
    if (!ISBN10.test(d)) return false
    for (let i = 0; i < 9; i++) sum += (i + 1) * at(i)
    sum += d[9] === 'X' ? 100 : 10 * at(9)
    return sum % 11 === 0
  }
  if (!ISBN13.test(d)) return false
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * at(i)
  return at(12) - ((10 - (sum % 10)) % 10) === 0
}

/** govalidator.IsCreditCard: digits only, the issuer pattern, the Luhn sum. */
function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, '')
  if (!CREDIT_CARD.test(d)) return false
  let sum = 0
  let double = false
  for (let i = d.length - 1; i >= 0; i--) {
    let n = d.charCodeAt(i) - 0x30
    if (double) {
      n *= 2
      sum += n >= 10 ? (n % 10) + 1 : n
    } else sum += n
    double = !double
  }
  return sum % 10 === 0
}

/** The validators of strfmt.Default, by normalized name. */
const REGISTRY: ReadonlyMap<string, (s: string) => boolean> = new Map<string, (s: string) => boolean>([
  ['uri', (s) => !(parseRequestURI(s) instanceof URLError)],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', isIPv4],
  ['ipv6', isIPv6],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', (s) => UUID.test(s)],
  ['uuid3', (s) => UUID3.test(s)],
  ['uuid4', (s) => UUID4.test(s)],
  ['uuid5', (s) => UUID5.test(s)],
  ['isbn', (s) => isISBN(s, 10) || isISBN(s, 13)],
  ['isbn10', (s) => isISBN(s, 10)],
  ['isbn13', (s) => isISBN(s, 13)],
  ['creditcard', isCreditCard],
  ['ssn', (s) => utf8Length(s) === 11 && SSN.test(s)],
  ['hexcolor', (s) => HEX_COLOR.test(s)],
  ['rgbcolor', (s) => RGB_COLOR.test(s)],
  ['byte', (s) => BASE64.test(s)],
  ['password', () => true],
  ['date', isDate],
  ['datetime', isDateTime],
  ['duration', isDuration],
  // bsonprim.ObjectIDFromHex: hex.DecodeString then 12 bytes
  ['bsonobjectid', (s) => /^[0-9a-fA-F]{24}$/.test(s)],
  ['k8sshortname', (s) => s.length <= 63 && SHORT_NAME.test(s)],
  ['k8slongname', (s) => s.length <= 253 && LONG_NAME.test(s)],
])

/** strfmt.Registry as the validator uses it. */
export interface FormatRegistry {
  containsName(name: string): boolean
  validates(name: string, data: string): boolean
}

/** strfmt.Default. */
export const defaultFormats: FormatRegistry = {
  containsName: (name) => REGISTRY.has(normalizeFormatName(name)),
  validates: (name, data) => REGISTRY.get(normalizeFormatName(name))?.(data) ?? false,
}

/** supportedVersionedFormats: k8s-short-name and k8s-long-name arrive at compatibility version 1.34. */
const FORMATS_1_34 = new Set(['k8sshortname', 'k8slongname'])

/** The string formats a CRD schema may use at a compatibility minor version (1.x), normalized. */
export function isSupportedFormat(normalized: string, compatibilityMinor: number): boolean {
  if (FORMATS_1_34.has(normalized)) return compatibilityMinor >= 34
  return REGISTRY.has(normalized)
}

/**
 * StripUnsupportedFormatsPostProcessorForVersion for one node: the format kept, or '' when the
 * compatibility version does not know it for the node's type.
 */
export function supportedFormat(format: string, types: readonly string[], compatibilityMinor: number): string {
  if (format === '') return ''
  const t = types.length === 1 ? (types[0] as string) : ''
  switch (t) {
    case '':
    case 'string':
      return isSupportedFormat(normalizeFormatName(format), compatibilityMinor) ? format : ''
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : ''
    case 'number':
      return format === 'float' || format === 'double' ? format : ''
    default:
      return ''
  }
}
