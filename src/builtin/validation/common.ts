import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { goJSONUnmarshalSyntaxError } from '../../kube/json-syntax.js'
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isValidPortName } from '../../kube/library/format.js'
import { getObjectMeta } from '../../kube/objectmeta-unstructured.js'
import { isQualifiedName, isValidLabelValue } from '../../kube/validation/names.js'
import {
  type ValidateNameFunc,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../../kube/validation/objectmeta.js'
import { deepEqual, isObject as isObj, type JSONObject, sortedKeys } from '../../kube/values/json.js'
import { parseIPSloppy } from '../../kube/values/net.js'
import { parseAddr, parsePrefix } from '../../kube/values/netip.js'

// Helpers shared by the validators of src/builtin/validation (the kinds of issue 19 outside Pod,
// apps and batch): reading the decoded v1 object, ObjectMeta through the apimachinery port, and
// the small pkg/apis/core/validation and apimachinery functions several kinds call.

export { isObj, type JSONObject }

export const META = FieldPath.of('metadata')

export const obj = (v: unknown): JSONObject | undefined => (isObj(v) ? v : undefined)
export const str = (v: unknown): string => (typeof v === 'string' ? v : '')
export const optStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
export const clone = <T>(o: T): T => structuredClone(o)
export const strs = (v: unknown): string[] => arr(v).map(str)
export const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0)
export const optNum = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined
export const strMap = (v: unknown): Record<string, string> | undefined =>
  isObj(v) ? (v as Record<string, string>) : undefined
/** A Go map's keys: Go visits them in random order; kelp visits them sorted (by UTF-16, as JS sorts). */
export const keys = (v: unknown): string[] => (isObj(v) ? sortedKeys(v) : [])

export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) => isDNS1123Subdomain(prefix ? mask(name) : name)
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? mask(name) : name)
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) => isDNS1035Label(prefix ? mask(name) : name)
/** path.IsValidPathSegmentName (rbac names and others): `.`/`..` and `/`, `%`. */
export const validatePathSegmentName: ValidateNameFunc = (name, prefix) => {
  if (prefix) {
    const errs: string[] = []
    for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`)
    return errs
  }
  if (name === '.' || name === '..') return [`may not be '${name}'`]
  const errs: string[] = []
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`)
  return errs
}
function mask(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
}

/** ValidateObjectMeta(&obj.ObjectMeta, namespaced, nameFn, field.NewPath("metadata")). */
export function objectMeta(o: JSONObject, namespaced: boolean, nameFn: ValidateNameFunc, minor: number): FieldError[] {
  const r = getObjectMeta(o, { dropMalformedFields: true })
  if (r.meta === undefined) return []
  return validateObjectMeta(r.meta, namespaced, nameFn, META, minor)
}

/** ValidateObjectMetaUpdate(&new.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata")). */
export function objectMetaUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const n = getObjectMeta(o, { dropMalformedFields: true }).meta
  const p = getObjectMeta(old, { dropMalformedFields: true }).meta
  if (n === undefined || p === undefined) return []
  return validateObjectMetaUpdate(n, p, META, minor)
}

export const annotations = (o: JSONObject): Record<string, string> => strMap(obj(o.metadata)?.annotations) ?? {}
export const labels = (o: JSONObject): Record<string, string> => strMap(obj(o.metadata)?.labels) ?? {}

/** ValidateDNS1123Label. */
export const validateDNS1123Label = (v: string, p: FieldPath): FieldError[] =>
  isDNS1123Label(v).map((m) => field.invalid(p, v, m))
/** ValidateDNS1123Subdomain. */
export const validateDNS1123Subdomain = (v: string, p: FieldPath): FieldError[] =>
  isDNS1123Subdomain(v).map((m) => field.invalid(p, v, m))
/** ValidateQualifiedName (`minor`: the target release, whose length message says characters or bytes). */
export const validateQualifiedName = (v: string, p: FieldPath, minor = 37): FieldError[] =>
  isQualifiedName(v, minor).map((m) => field.invalid(p, v, m))

/** unversionedvalidation.ValidateLabels: keys then values, all at `p` (keys sorted). */
export function validateLabels(m: Record<string, string> | undefined, p: FieldPath, minor = 37): FieldError[] {
  const errs: FieldError[] = []
  for (const k of keys(m)) {
    for (const msg of isQualifiedName(k, minor)) errs.push(field.invalid(p, k, msg))
    const v = (m as Record<string, string>)[k] ?? ''
    for (const msg of isValidLabelValue(v, minor)) errs.push(field.invalid(p, v, msg))
  }
  return errs
}

/** validation.IsValidPortNum. */
export const isValidPortNum = (port: number): string[] =>
  port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive']

/** ValidatePortNumOrName (an IntOrString as decoded: a number or a string). */
export function validatePortNumOrName(port: unknown, p: FieldPath): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => field.invalid(p, port, m))
  const n = num(port)
  return isValidPortNum(n).map((m) => field.invalid(p, n, m))
}

/** apimachineryvalidation.ValidateImmutableField. */
export function validateImmutableField(nv: unknown, ov: unknown, p: FieldPath): FieldError[] {
  return deepEqual(nv ?? null, ov ?? null) ? [] : [field.invalid(p, nv ?? null, 'field is immutable')]
}

export { deepEqual }

/** ValidateNonnegativeField. */
export const validateNonnegativeField = (v: number, p: FieldPath): FieldError[] =>
  v < 0 ? [field.invalid(p, v, 'must be greater than or equal to 0')] : []

/** The byte length of a []byte field as JSON carries it (standard base64). */
export function base64Length(s: string): number {
  const t = s.replace(/=+$/, '')
  return Math.floor((t.length * 3) / 4)
}

/** The bytes of a []byte field (standard base64) as a latin-1 string of bytes. */
export function base64Bytes(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s, 'base64'))
}

const utf8 = new TextEncoder()
export const utf8Len = (s: string): number => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return utf8.encode(s).length
  return s.length
}

// ---------------------------------------------------------------------------------------------
// IP and CIDR (apimachinery pkg/util/validation/ip.go)

/** The StrictIPCIDRValidation gate: beta (on) from 1.36. */
export const strictIPCIDR = (minor: number): boolean => minor >= 36

/** netip.ParseAddr accepts it (no zone accepted by ParseIPSloppy anyway). */
function strictParses(value: string): { ok: boolean; is4In6: boolean } {
  const a = parseAddr(value)
  if (typeof a === 'string') return { ok: false, is4In6: false }
  return { ok: true, is4In6: a.is4In6() }
}

/** parseIP's errors (IsValidIPForLegacyField without old values). */
export function ipErrors(p: FieldPath, value: string, strict: boolean): FieldError[] {
  if (parseIPSloppy(value) === undefined) {
    return [field.invalid(p, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')]
  }
  const errs: FieldError[] = []
  if (strict) {
    const r = strictParses(value)
    if (!r.ok) errs.push(field.invalid(p, value, 'must not have leading 0s'))
    if (r.is4In6) errs.push(field.invalid(p, value, 'must not be an IPv4-mapped IPv6 address'))
  }
  return errs
}

/** IsValidIPForLegacyField. */
export function isValidIPForLegacyField(p: FieldPath, value: string, strict: boolean, old: readonly string[]) {
  return old.includes(value) ? [] : ipErrors(p, value, strict)
}

/** IsValidCIDRForLegacyField. */
export function isValidCIDRForLegacyField(
  p: FieldPath,
  value: string,
  strict: boolean,
  old: readonly string[],
): FieldError[] {
  if (old.includes(value)) return []
  if (!isCIDRSloppy(value)) {
    return [field.invalid(p, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')]
  }
  if (!strict) return []
  const pr = parsePrefix(value)
  if (typeof pr === 'string') return [field.invalid(p, value, 'must not have leading 0s in IP or prefix length')]
  if (pr.addr.is4In6()) return [field.invalid(p, value, 'must not have an IPv4-mapped IPv6 address')]
  if (pr.masked().addr.toString() !== pr.addr.toString()) {
    return [field.invalid(p, value, 'must not have bits set beyond the prefix length')]
  }
  return []
}

/** validation.IsValidCIDR (strict, canonical). */
export function isValidCIDR(p: FieldPath, value: string): FieldError[] {
  const errs = isValidCIDRForLegacyField(p, value, true, [])
  if (errs.length > 0) return errs
  const pr = parsePrefix(value)
  if (typeof pr !== 'string' && pr.toString() !== value) {
    return [field.invalid(p, value, `must be in canonical form ("${pr.toString()}")`)]
  }
  return []
}

function isCIDRSloppy(s: string): boolean {
  const slash = s.indexOf('/')
  if (slash < 0) return false
  const fam = parseIPSloppy(s.slice(0, slash))
  if (fam === undefined) return false
  const bits = s.slice(slash + 1)
  if (!/^[0-9]{1,8}$/.test(bits)) return false
  return Number(bits) <= (fam === 4 && !s.slice(0, slash).includes(':') ? 32 : 128)
}

/** The family of a valid IP text (netutils.IsIPv6String). */
export function isIPv6String(s: string): boolean {
  return parseIPSloppy(s) === 6 && !isV4Mapped(s)
}
function isV4Mapped(s: string): boolean {
  const a = parseAddr(s)
  return typeof a !== 'string' && a.is4In6()
}

// ---------------------------------------------------------------------------------------------
// encoding/json's syntax errors (json.Unmarshal into map[string]interface{})

/**
 * The error json.Unmarshal(data, &map[string]interface{}{}) returns, or undefined: encoding/json's syntax error
 * (kube/json-syntax.ts), or for a valid value that is no object an UnmarshalTypeError.
 */
export function jsonUnmarshalObjectError(text: string): string | undefined {
  const syntax = goJSONUnmarshalSyntaxError(text)
  if (syntax !== undefined) return syntax
  const c = text.trimStart()[0]
  if (c === '{' || c === 'n') return undefined
  const kind = c === '[' ? 'array' : c === '"' ? 'string' : c === 't' || c === 'f' ? 'bool' : 'number'
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`
}
