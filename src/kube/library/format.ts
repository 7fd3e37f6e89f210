import { type FunctionDecl, fn, type Library, memberOverload, overload } from '../../cel/functions.js'
import { listOf, opaque, optionalOf, StringType } from '../../cel/types/types.js'
import { type CelValue, OpaqueValue, Optional } from '../../cel/values/values.js'
import { utf8Length } from '../validation/utf8.js'
import { parseRequestURI, URLError } from '../values/url.js'
import {
  ceilFactor,
  type KubeCost,
  ONE,
  RegexStringLengthCostFactor,
  StringTraversalCostFactor,
  stringSize,
} from './lists.js'

// Library `format` (k8s.io/apiserver pkg/cel/library/format.go, value pkg/cel/format.go): named string
// formats with the validators Kubernetes uses for them (apimachinery pkg/api/validation NameIs*,
// pkg/api/validate/content IsLabelKey / IsLabelValue / IsDNS*, pkg/util/validation IsValidPortName,
// net/url ParseRequestURI, kube-openapi strfmt uuid / byte / date / datetime) and their exact messages.
// Lengths are Go's len(): UTF-8 bytes. The regular expressions of those validators are simple enough to
// be checked by hand-written scanners with the same meaning (no RegExp, no backtracking).

/** The CEL value `kubernetes.NamedFormat`: equal when the names are. */
export class FormatValue extends OpaqueValue {
  constructor(
    /** Go's Format.Name, e.g. `DNS1123Label`. */
    readonly name: string,
    readonly validate: (s: string) => string[],
    /** Size of the (estimated) regex behind the validator, for cost.go's `validate` cost. */
    readonly maxRegexSize: number,
  ) {
    super()
  }
  override get typeName(): string {
    return 'kubernetes.NamedFormat'
  }
  /** The Go type Kubernetes holds it as (apiservercel.Format), as Go's panics name it. */
  get goType(): string {
    return 'cel.Format'
  }
  override equals(other: OpaqueValue): boolean {
    return other instanceof FormatValue && this.name === other.name
  }
}

// Kubernetes declares cel.ObjectType("kubernetes.NamedFormat"); here an opaque type of that name.
export const FormatType = opaque('kubernetes.NamedFormat')

// ---------------------------------------------------------------------------------------------
// Character classes of the validators' regular expressions

function isLowerAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)
}

function isAlnum(c: number): boolean {
  return isLowerAlnum(c) || (c >= 0x41 && c <= 0x5a)
}

/** `[a-z0-9]([-a-z0-9]*[a-z0-9])?` over s[from:to]. */
function isDNS1123LabelText(s: string, from = 0, to = s.length): boolean {
  if (to <= from || !isLowerAlnum(s.charCodeAt(from)) || !isLowerAlnum(s.charCodeAt(to - 1))) return false
  for (let i = from + 1; i < to - 1; i++) {
    const c = s.charCodeAt(i)
    if (!isLowerAlnum(c) && c !== 0x2d) return false
  }
  return true
}

/** `label(\.label)*` with the label above. */
function isDNS1123SubdomainText(s: string): boolean {
  let start = 0
  for (;;) {
    const dot = s.indexOf('.', start)
    const end = dot < 0 ? s.length : dot
    if (!isDNS1123LabelText(s, start, end)) return false
    if (dot < 0) return true
    start = dot + 1
  }
}

/** `[a-z]([-a-z0-9]*[a-z0-9])?`. */
function isDNS1035LabelText(s: string): boolean {
  const c = s.charCodeAt(0)
  return c >= 0x61 && c <= 0x7a && isDNS1123LabelText(s)
}

/** `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. */
function isLabelKeyName(s: string): boolean {
  if (s.length === 0 || !isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(s.length - 1))) return false
  for (let i = 1; i < s.length - 1; i++) {
    const c = s.charCodeAt(i)
    if (!isAlnum(c) && c !== 0x2d && c !== 0x5f && c !== 0x2e) return false
  }
  return true
}

// ---------------------------------------------------------------------------------------------
// apimachinery validators and messages (pkg/util/validation, pkg/api/validate/content)

const maxLenError = (n: number) => `must be no more than ${n} characters`
/**
 * pkg/api/validate/content MaxLenError (apimachinery v0.35 on, where validation.IsQualifiedName and
 * IsValidLabelValue became content.IsLabelKey / IsLabelValue): the length is in bytes.
 */
const contentMaxLenError = (n: number) => `must be no more than ${n} bytes`
const EMPTY_ERROR = 'must be non-empty'

/** validation.RegexError. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?'
const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`

const DNS1123_LABEL_ERROR = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  DNS1123_LABEL_FMT,
  'my-name',
  '123-abc',
)
const DNS1123_SUBDOMAIN_ERROR = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  DNS1123_SUBDOMAIN_FMT,
  'example.com',
)
const DNS1035_LABEL_ERROR = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL_FMT,
  'my-name',
  'abc-123',
)
const LABEL_KEY_ERROR = regexError(
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  LABEL_KEY_FMT,
  'MyName',
  'my.name',
  '123-abc',
)
const LABEL_VALUE_ERROR = regexError(
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  LABEL_VALUE_FMT,
  'MyValue',
  'my_value',
  '12345',
)

export function isDNS1123Label(s: string): string[] {
  const errs: string[] = []
  if (utf8Length(s) > 63) errs.push(maxLenError(63))
  if (!isDNS1123LabelText(s)) {
    // a valid subdomain that is no valid label (within the length checked above) has dots
    errs.push(isDNS1123SubdomainText(s) ? 'must not contain dots' : DNS1123_LABEL_ERROR)
  }
  return errs
}

export function isDNS1123Subdomain(s: string): string[] {
  const errs: string[] = []
  if (utf8Length(s) > 253) errs.push(maxLenError(253))
  if (!isDNS1123SubdomainText(s)) errs.push(DNS1123_SUBDOMAIN_ERROR)
  return errs
}

export function isDNS1035Label(s: string): string[] {
  const errs: string[] = []
  if (utf8Length(s) > 63) errs.push(maxLenError(63))
  if (!isDNS1035LabelText(s)) errs.push(DNS1035_LABEL_ERROR)
  return errs
}

/** content.IsLabelKey (= validation.IsQualifiedName): `[prefix/]name`. */
export function isQualifiedName(s: string): string[] {
  return qualifiedName(s, maxLenError)
}

/** content.IsLabelValue (= validation.IsValidLabelValue). */
export function isValidLabelValue(s: string): string[] {
  return labelValue(s, maxLenError)
}

function qualifiedName(s: string, lenError: (n: number) => string): string[] {
  const errs: string[] = []
  const parts = s.split('/')
  let name: string
  if (parts.length === 1) {
    name = s
  } else if (parts.length === 2) {
    const prefix = parts[0]!
    name = parts[1]!
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`)
    else {
      // content.IsDNS1123Subdomain words its length as content.MaxLenError does
      if (utf8Length(prefix) > 253) errs.push(`prefix part ${lenError(253)}`)
      if (!isDNS1123SubdomainText(prefix)) errs.push(`prefix part ${DNS1123_SUBDOMAIN_ERROR}`)
    }
  } else {
    return [
      `a valid label key ${LABEL_KEY_ERROR} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`)
  else if (utf8Length(name) > 63) errs.push(`name part ${lenError(63)}`)
  if (!isLabelKeyName(name)) errs.push(`name part ${LABEL_KEY_ERROR}`)
  return errs
}

function labelValue(s: string, lenError: (n: number) => string): string[] {
  const errs: string[] = []
  if (utf8Length(s) > 63) errs.push(lenError(63))
  if (s.length > 0 && !isLabelKeyName(s)) errs.push(LABEL_VALUE_ERROR)
  return errs
}

/** validation.IsValidPortName: 1..15 of [-a-z0-9], a letter, no `--`, no hyphen at either end. */
export function isValidPortName(s: string): string[] {
  const errs: string[] = []
  if (utf8Length(s) > 15) errs.push(maxLenError(15))
  let charset = s.length > 0
  let letter = false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x61 && c <= 0x7a) letter = true
    else if (!(c >= 0x30 && c <= 0x39) && c !== 0x2d) charset = false
  }
  if (!charset) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)')
  if (!letter) errs.push('must contain at least one letter (a-z)')
  if (s.includes('--')) errs.push('must not contain consecutive hyphens')
  if (s.length > 0 && (s[0] === '-' || s[s.length - 1] === '-')) errs.push('must not begin or end with a hyphen')
  return errs
}

/**
 * apimachinery maskTrailingDash, for names a suffix will be appended to: a trailing '-' and the character
 * before it become 'a' (`name[:len-2] + "a"`), for names longer than one byte.
 */
function maskTrailingDash(s: string): string {
  return s.length > 1 && s.endsWith('-') ? `${s.slice(0, -2)}a` : s
}

// ---------------------------------------------------------------------------------------------
// kube-openapi strfmt formats

/** `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$` (strfmt UUIDPattern). */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
/** strfmt DateTimePattern; Go's `.` is any character but a newline. */
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function isBase64Char(c: number): boolean {
  return isAlnum(c) || c === 0x2b || c === 0x2f
}

/** govalidator.IsBase64: `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$`. */
function isBase64(s: string): boolean {
  const n = s.length
  if (n === 0 || n % 4 !== 0) return false
  for (let i = 0; i < n - 2; i++) if (!isBase64Char(s.charCodeAt(i))) return false
  const last = s.charCodeAt(n - 1)
  const prev = s.charCodeAt(n - 2)
  if (last === 0x3d) return prev === 0x3d || isBase64Char(prev)
  return isBase64Char(prev) && isBase64Char(last)
}

/** strfmt IsDate: Go's time.Parse("2006-01-02", s), which checks the month and the day of the month. */
function isDate(s: string): boolean {
  const m = DATE.exec(s)
  if (!m) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return day <= days
}

/**
 * strfmt IsDateTime: at least 4 bytes; lowercased and split at every 't', the first piece must be a
 * date and the second (later pieces are ignored) a time of day matching DateTimePattern, with hours,
 * minutes and seconds compared as strings against "23", "59", "59".
 */
function isDateTime(s: string): boolean {
  if (utf8Length(s) < 4) return false
  const pieces = s.toLowerCase().split('t')
  if (pieces.length < 2 || !isDate(pieces[0]!)) return false
  const m = TIME_OF_DAY.exec(pieces[1]!)
  if (!m) return false
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59'
}

function check(ok: (s: string) => boolean, message: string): (s: string) => string[] {
  return (s) => (ok(s) ? [] : [message])
}

// ---------------------------------------------------------------------------------------------
// The named formats (format.go ConstantFormats), in the order format.go lists them

// MaxRegexSize of uri, uuid, byte, date / datetime: len(govalidator.URL) at the govalidator version
// Kubernetes vendors (v0.0.0-20190424111038-f61b66f89f4a), len(strfmt.UUIDPattern),
// len(govalidator.Base64), len(strfmt.DateTimePattern). `lenError`: the words of the qualified name's
// and the label value's length errors, which depend on the release's apimachinery.
const makeFormats = (lenError: (n: number) => string): Readonly<Record<string, FormatValue>> => ({
  dns1123Label: new FormatValue('DNS1123Label', isDNS1123Label, 30),
  dns1123Subdomain: new FormatValue('DNS1123Subdomain', isDNS1123Subdomain, 60),
  dns1035Label: new FormatValue('DNS1035Label', isDNS1035Label, 30),
  qualifiedName: new FormatValue('QualifiedName', (s) => qualifiedName(s, lenError), 60),
  portName: new FormatValue('PortName', isValidPortName, 20),
  dns1123LabelPrefix: new FormatValue('DNS1123LabelPrefix', (s) => isDNS1123Label(maskTrailingDash(s)), 30),
  dns1123SubdomainPrefix: new FormatValue('DNS1123SubdomainPrefix', (s) => isDNS1123Subdomain(maskTrailingDash(s)), 60),
  dns1035LabelPrefix: new FormatValue('DNS1035LabelPrefix', (s) => isDNS1035Label(maskTrailingDash(s)), 30),
  labelValue: new FormatValue('LabelValue', (s) => labelValue(s, lenError), 40),
  uri: new FormatValue(
    'URI',
    (s) => {
      const u = parseRequestURI(s)
      return u instanceof URLError ? [u.message] : []
    },
    1103,
  ),
  uuid: new FormatValue(
    'uuid',
    check((s) => UUID.test(s), 'does not match the UUID format'),
    70,
  ),
  byte: new FormatValue('byte', check(isBase64, 'invalid base64'), 84),
  date: new FormatValue('date', check(isDate, 'invalid date'), 71),
  datetime: new FormatValue('datetime', check(isDateTime, 'invalid datetime'), 71),
})

/** The keys `format.named` accepts (and the `format.<key>()` functions). */
export const formatNames: readonly string[] = Object.keys(makeFormats(maxLenError))

/** `<format>.validate(s)`: optional.none() when valid, else optional.of(the error messages). */
function validate(f: FormatValue, s: string): Optional {
  const errs = f.validate(s)
  return errs.length === 0 ? Optional.none : new Optional(errs)
}

function makeLibrary(lenError: (n: number) => string): Library {
  const formats = makeFormats(lenError)
  const namedOptionals = new Map(formatNames.map((k) => [k, new Optional(formats[k]!)]))
  /** `format.named(name)`: the format, or optional.none() for an unknown name. */
  const named = (name: string): Optional => namedOptionals.get(name) ?? Optional.none
  const functions: FunctionDecl[] = [
    fn(
      'validate',
      memberOverload('format-validate', [FormatType, StringType], optionalOf(listOf(StringType)), validate),
    ),
    fn('format.named', overload('format-named', [StringType], optionalOf(FormatType), named)),
    ...formatNames.map((k) => {
      const value = formats[k]!
      return fn(
        `format.${k}`,
        overload(`format.${k}`, [], FormatType, () => value),
      )
    }),
  ]
  return { name: 'format', functions }
}

/** The format library of Kubernetes 1.31–1.34 (apimachinery's validation: lengths in characters). */
export const formatLibrary: Library = makeLibrary(maxLenError)

/**
 * 1.35 on: qualifiedName and labelValue validate with apimachinery's content package, whose length
 * errors say bytes (`must be no more than 63 bytes`).
 */
export const formatLibraryV135: Library = makeLibrary(contentMaxLenError)

/**
 * cost.go: `validate` costs ceil((1 + size(str)) * 0.1) * ceil(maxRegexSize * 0.25) at run time (size in
 * code points) and is estimated as ceil(ceil(size(str) * 0.1) * 128 * 0.25) (MaxNameFormatRegexSize 128);
 * `format.named` costs 1. The `format.<name>()` functions have no entry (cel-go's default, 1).
 */
export const formatCosts: Readonly<Record<string, KubeCost>> = {
  'format-validate': {
    estimate: (target, [s]) => {
      if (target === undefined || s === undefined) return undefined
      return { cost: ceilFactor(ceilFactor(s.size, StringTraversalCostFactor), 128 * RegexStringLengthCostFactor) }
    },
    // a receiver that is no format (a failed one) has no figure in CallCost: cel-go's default, 1
    actual: ([f, s]) =>
      f instanceof FormatValue
        ? Math.ceil((1 + stringSize(s as CelValue)) * StringTraversalCostFactor) *
          Math.ceil(f.maxRegexSize * RegexStringLengthCostFactor)
        : 1,
  },
  'format-named': { estimate: () => ({ cost: ONE }), actual: () => 1 },
}

/** cost.go for `_==_` with kubernetes.NamedFormat operands: 1 at run time, estimated 1..ceil(64 * 0.1). */
export const formatEqualsCost: KubeCost = {
  estimate: () => ({ cost: ceilFactor({ min: 1n, max: 64n }, StringTraversalCostFactor) }),
  actual: () => 1,
}
