import { type FieldError, type FieldPath, field, GoStruct } from '../../../kube/field.js'
import { isDNS1123Subdomain, regexError } from '../../../kube/validation/names.js'
import { structInfo, type TypeNode } from '../../gotypes.js'
import { arr, obj, str, validateDNS1123Label } from '../common.js'
import { validateCSIDriverName } from '../core/pod-volumes.js'

// What pkg/apis/resource/validation/validation.go (kubernetes v1.37.2) shares between its kinds, and
// how its errors reach the client: from 1.37 resource.k8s.io/v1 has declarative rules
// (pkg/apis/resource/v1/zz_generated.validations.go), beta ones enforced (DeclarativeValidationBeta is
// on), standard ones always. rest.ValidateDeclarativelyWithMigrationChecks drops the handwritten errors
// they cover (MarkCoveredByDeclarative) and appends the declarative errors after the handwritten ones.
// `Errs` keeps the two lists: `hv` the handwritten errors that stay, `dv` the declarative ones (in the
// declarative walk's order, which follows the fields as the handwritten code does).

export class Errs {
  readonly hv: FieldError[] = []
  readonly dv: FieldError[] = []
  add(...e: FieldError[]): void {
    this.hv.push(...e)
  }
  /** A rule the declarative validation enforces (and the handwritten one it covers, dropped). */
  covered(...e: FieldError[]): void {
    this.dv.push(...e)
  }
  all(): FieldError[] {
    return [...this.hv, ...this.dv]
  }
}

export const DEVICE_REQUESTS_MAX_SIZE = 32
export const DEVICE_CONSTRAINTS_MAX_SIZE = 32
export const DEVICE_CONFIG_MAX_SIZE = 32
export const DEVICE_SELECTORS_MAX_SIZE = 32
export const FIRST_AVAILABLE_MAX_SIZE = 8
export const DEVICE_DERIVED_ATTRIBUTES_MAX_SIZE = 32
export const DEVICE_MAX_ID_LENGTH = 32
export const OPAQUE_PARAMETERS_MAX_LENGTH = 10 * 1024

/** validateRequestName, validateDeviceName, validateCounterName: ValidateDNS1123Label. */
export const validateRequestName = validateDNS1123Label

/** validateDriverName (corevalidation.ValidateCSIDriverName). */
export const validateDriverName = (name: string, p: FieldPath): FieldError[] => validateCSIDriverName(name, p)

/**
 * validateSlice / validateSet's size check: more than max items is one TooMany and nothing else (DOS
 * protection); true when it fired.
 */
export function tooMany(errs: Errs, list: unknown[], max: number, p: FieldPath, sizeCovered: boolean): boolean {
  if (max < 0 || list.length <= max) return false
  const e = field.tooMany(p, list.length, max)
  if (sizeCovered) errs.covered(e)
  else errs.add(e)
  return true
}

/** A decoded value as Go marshals it: struct fields in declaration order (goJSON sorts plain objects). */
export function goOrdered(t: TypeNode, v: unknown): unknown {
  if (typeof t === 'string') {
    const o = obj(v)
    if (o === undefined) return v
    return new GoStruct(
      structInfo(t)
        .fields.filter(([name]) => Object.hasOwn(o, name))
        .map(([name, ft]) => [name, goOrdered(ft, o[name])] as const),
    )
  }
  if (t[0] === 'p') return goOrdered(t[1], v)
  if (t[0] === 'l' && Array.isArray(v)) return v.map((x) => goOrdered(t[2], x))
  return v
}

/** The Go field names of k8s.io/api resource/v1 that are not their json name capitalized. */
const GO_NAMES: Readonly<Record<string, string>> = {
  apiGroup: 'APIGroup',
  bool: 'BoolValue',
  bools: 'BoolValues',
  cel: 'CEL',
  int: 'IntValue',
  ints: 'IntValues',
  ips: 'IPs',
  string: 'StringValue',
  strings: 'StringValues',
  uid: 'UID',
  version: 'VersionValue',
  versions: 'VersionValues',
}
const goName = (json: string) =>
  Object.hasOwn(GO_NAMES, json) ? GO_NAMES[json] : json[0]?.toUpperCase() + json.slice(1)

/**
 * A decoded value as Go prints the internal type (pkg/apis/resource, same fields in the same order as v1)
 * in an error: no json tags, so every field under its Go name, nil pointers, slices and maps as null,
 * zero values printed; the embedded ObjectMeta flattened (its own json names, empty fields left out).
 */
export function internalGo(t: TypeNode, v: unknown): unknown {
  if (typeof t === 'string') {
    const o = obj(v) ?? {}
    const fields: (readonly [string, unknown])[] = []
    for (const [name, ft] of structInfo(t).fields) {
      if (ft === 'apis/meta/v1.ObjectMeta') {
        const meta = goOrdered(ft, o[name])
        if (meta instanceof GoStruct) fields.push(...meta.fields)
      } else fields.push([goName(name) as string, internalGo(ft, o[name])])
    }
    return new GoStruct(fields)
  }
  switch (t[0]) {
    case 'p':
      return v === undefined || v === null ? null : internalGo(t[1], v)
    case 'l':
      return Array.isArray(v) ? v.map((x) => internalGo(t[2], x)) : null
    case 'i':
    case 'n':
    case 'f':
      return v ?? 0
    case 'str':
      return v ?? ''
    case 'bool':
      return v ?? false
    default:
      return v ?? null
  }
}

/**
 * validateSet's uniqueness check: each repeated key a Duplicate at its index, the key as the value; or,
 * with `whole` (the item's Go struct id), the item (the declarative listMapKey rule prints the item).
 */
export function duplicates(
  list: unknown[],
  key: (item: unknown) => string,
  p: FieldPath,
  whole?: string,
): FieldError[] {
  const seen = new Set<string>()
  const out: FieldError[] = []
  list.forEach((item, i) => {
    const k = key(item)
    if (seen.has(k)) out.push(field.duplicate(p.index(i), whole !== undefined ? goOrdered(whole, item) : k))
    else seen.add(k)
  })
  return out
}

const cIdentifier = /^[A-Za-z_][A-Za-z0-9_]*$/

/** content.IsCIdentifier. */
export function isCIdentifier(v: string): string[] {
  return cIdentifier.test(v)
    ? []
    : [
        regexError(
          "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
          '[A-Za-z_][A-Za-z0-9_]*',
          'my_name',
          'MY_NAME',
          'MyName',
        ),
      ]
}

/**
 * validate.ResourceFullyQualifiedName (apimachinery pkg/api/validate/strfmt.go, the declarative rule
 * that replaces validateFullyQualifiedName): a DNS subdomain prefix, a C identifier name.
 */
export function resourceFullyQualifiedName(s: string, p: FieldPath): FieldError[] {
  const out: FieldError[] = []
  const parts = s.split('/')
  const cIdent = (id: string) => {
    if (Buffer.byteLength(id) > DEVICE_MAX_ID_LENGTH) out.push(field.tooLong(p, DEVICE_MAX_ID_LENGTH))
    for (const m of isCIdentifier(id)) out.push(field.invalid(p, id, m))
  }
  if (parts.length === 1) cIdent(parts[0] as string)
  else if (parts.length === 2) {
    const [prefix, name] = parts as [string, string]
    if (prefix === '') out.push(field.invalid(p, '', 'prefix must not be empty'))
    else {
      if (Buffer.byteLength(prefix) > 63) out.push(field.tooLong(p, 63))
      for (const e of validateLongName(prefix, p)) out.push({ ...e, detail: `prefix: ${e.detail}` })
    }
    if (name === '') out.push(field.invalid(p, '', 'name must not be empty'))
    else cIdent(name)
  }
  if (!s.includes('/'))
    out.push(field.invalid(p, s, 'a fully qualified name must be a domain and a name separated by a slash'))
  return out
}

/** validate.LongName: a DNS subdomain. */
const validateLongName = (v: string, p: FieldPath): FieldError[] =>
  isDNS1123Subdomain(v).map((m) => field.invalid(p, v, m))

/**
 * validateRawExtension: present, at most max bytes (on create), JSON, an object. The decoded value is
 * the JSON kubectl sent (compact), so its length is that of its serialization.
 */
export function validateRawExtension(v: unknown, p: FieldPath, max: number): FieldError[] {
  if (v === undefined || v === null) return [field.required(p, '')]
  if (Buffer.byteLength(JSON.stringify(v)) > max) return [field.tooLong(p, max)]
  if (obj(v) === undefined) return [field.invalid(p, '<value omitted>', 'must be a valid JSON object')]
  return []
}

export { arr, obj, str }

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i

/**
 * The declarative rules of a driver name (`+k8s:required`, `+k8s:format=k8s-long-name-caseless`,
 * `+k8s:maxLength=63`), which replace validateDriverName's covered errors.
 */
export function dvDriverName(name: string, p: FieldPath): FieldError[] {
  if (name === '') return [field.required(p, '')]
  const out: FieldError[] = []
  if (Buffer.byteLength(name) > 253) out.push(field.invalid(p, name, 'must be no more than 253 bytes'))
  if (!dns1123Subdomain.test(name))
    out.push(
      field.invalid(
        p,
        name,
        regexError(
          "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
          '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*',
          'Example.com',
        ),
      ),
    )
  // validate.MaxLength: characters
  if ([...name].length > 63) out.push({ ...field.tooLong(p, 63), detail: 'may not be more than 63 characters' })
  return out
}
