import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { regexError } from '../../../kube/validation/names.js'
import {
  annotations,
  base64Bytes,
  base64Length,
  deepEqual,
  isObj,
  type JSONObject,
  jsonUnmarshalObjectError,
  keys,
  nameIsDNSSubdomain,
  obj,
  objectMeta,
  objectMetaUpdate,
  str,
  utf8Len,
  validateImmutableField,
} from '../common.js'

// core/v1 ConfigMap and Secret: kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// ValidateConfigMap / ValidateConfigMapUpdate, ValidateSecret / ValidateSecretUpdate (the registry
// strategies call nothing else; the declarative rules of both kinds are alpha, not enforced).
// Go ranges over the data maps in random order; kelp reports keys sorted.

/** core.MaxSecretSize: 1 MiB, the limit of a Secret's and a ConfigMap's data. */
const MAX_SECRET_SIZE = 1 * 1024 * 1024

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+'
const configMapKey = /^[-._a-zA-Z0-9]+$/

/** validation.IsConfigMapKey. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = []
  if (utf8Len(value) > 253) errs.push('must be no more than 253 characters')
  if (!configMapKey.test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        CONFIG_MAP_KEY_FMT,
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    )
  }
  if (value === '.') errs.push(`must not be '.'`)
  else if (value === '..') errs.push(`must not be '..'`)
  else if (value.startsWith('..')) errs.push(`must not start with '..'`)
  return errs
}

const DATA = FieldPath.of('data')
const BINARY_DATA = FieldPath.of('binaryData')
const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set'

/** ValidateConfigMap. */
export function validateConfigMap(cm: JSONObject, minor: number): FieldError[] {
  const errs = objectMeta(cm, true, nameIsDNSSubdomain, minor)
  const data = obj(cm.data) ?? {}
  const binary = obj(cm.binaryData) ?? {}
  let total = 0
  for (const k of keys(data)) {
    for (const m of isConfigMapKey(k)) errs.push(field.invalid(DATA.key(k), k, m))
    if (Object.hasOwn(binary, k)) errs.push(field.invalid(DATA.key(k), k, 'duplicate of key present in binaryData'))
    total += utf8Len(str(data[k]))
  }
  for (const k of keys(binary)) {
    for (const m of isConfigMapKey(k)) errs.push(field.invalid(BINARY_DATA.key(k), k, m))
    total += base64Length(str(binary[k]))
  }
  // field.NewPath(""): the error refers to the whole object (prints as `[]`)
  if (total > MAX_SECRET_SIZE) errs.push(field.tooLong(FieldPath.of(''), MAX_SECRET_SIZE))
  return errs
}

/** ValidateConfigMapUpdate. */
export function validateConfigMapUpdate(cm: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = objectMetaUpdate(cm, old, minor)
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(field.forbidden(FieldPath.of('immutable'), IMMUTABLE_WHEN_SET))
    if (!sameMap(cm.data, old.data)) errs.push(field.forbidden(DATA, IMMUTABLE_WHEN_SET))
    if (!sameMap(cm.binaryData, old.binaryData)) errs.push(field.forbidden(BINARY_DATA, IMMUTABLE_WHEN_SET))
  }
  errs.push(...validateConfigMap(cm, minor))
  return errs
}

/** reflect.DeepEqual of two maps: a nil map differs from an empty one. */
function sameMap(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null
  if (b === undefined || b === null) return false
  return deepEqual(a, b)
}

/**
 * The Secret's data as the internal type holds it: v1 conversion (Convert_v1_Secret_To_core_Secret)
 * copies data, then writes every stringData value over it (as bytes); stringData itself is dropped.
 * Values: base64 text (data) or raw text (stringData), here both as byte arrays.
 */
export function secretData(s: JSONObject): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>()
  const data = obj(s.data)
  if (data !== undefined) for (const k of Object.keys(data)) out.set(k, base64Bytes(str(data[k])))
  const sd = obj(s.stringData)
  if (sd !== undefined) for (const k of Object.keys(sd)) out.set(k, new TextEncoder().encode(str(sd[k])))
  return out
}

const SECRET_SA_NAME_KEY = 'kubernetes.io/service-account.name'

/** ValidateSecret. */
export function validateSecret(s: JSONObject, minor: number): FieldError[] {
  const errs = objectMeta(s, true, nameIsDNSSubdomain, minor)
  const data = secretData(s)
  let total = 0
  for (const k of [...data.keys()].sort(compareStrings)) {
    for (const m of isConfigMapKey(k)) errs.push(field.invalid(DATA.key(k), k, m))
    total += (data.get(k) as Uint8Array).length
  }
  if (total > MAX_SECRET_SIZE) errs.push(field.tooLong(DATA, MAX_SECRET_SIZE))
  const jsonKey = (key: string) => {
    const b = data.get(key)
    if (b === undefined) {
      errs.push(field.required(DATA.key(key), ''))
      return
    }
    const e = jsonUnmarshalObjectError(new TextDecoder().decode(b))
    if (e !== undefined) errs.push(field.invalid(DATA.key(key), '<secret contents redacted>', e))
  }
  switch (str(s.type)) {
    case 'kubernetes.io/service-account-token':
      if (str(annotations(s)[SECRET_SA_NAME_KEY]).length === 0) {
        errs.push(field.required(META.child('annotations').key(SECRET_SA_NAME_KEY), ''))
      }
      break
    case 'kubernetes.io/dockercfg':
      jsonKey('.dockercfg')
      break
    case 'kubernetes.io/dockerconfigjson':
      jsonKey('.dockerconfigjson')
      break
    case 'kubernetes.io/basic-auth':
      if (!data.has('username') && !data.has('password')) {
        errs.push(field.required(DATA.key('username'), ''))
        errs.push(field.required(DATA.key('password'), ''))
      }
      break
    case 'kubernetes.io/ssh-auth':
      if ((data.get('ssh-privatekey')?.length ?? 0) === 0) errs.push(field.required(DATA.key('ssh-privatekey'), ''))
      break
    case 'kubernetes.io/tls':
      if (!data.has('tls.crt')) errs.push(field.required(DATA.key('tls.crt'), ''))
      if (!data.has('tls.key')) errs.push(field.required(DATA.key('tls.key'), ''))
      break
  }
  return errs
}

const META = FieldPath.of('metadata')

/** ValidateSecretUpdate. */
export function validateSecretUpdate(s: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = objectMetaUpdate(s, old, minor)
  errs.push(...validateImmutableField(str(s.type), str(old.type), FieldPath.of('type')))
  if (old.immutable === true) {
    if (s.immutable !== true) errs.push(field.forbidden(FieldPath.of('immutable'), IMMUTABLE_WHEN_SET))
    if (!sameData(secretData(s), secretData(old), isObj(s.data) || isObj(s.stringData), isObj(old.data))) {
      errs.push(field.forbidden(DATA, IMMUTABLE_WHEN_SET))
    }
  }
  errs.push(...validateSecret(s, minor))
  return errs
}

function sameData(a: Map<string, Uint8Array>, b: Map<string, Uint8Array>, aSet: boolean, bSet: boolean): boolean {
  if (aSet !== bSet) return false
  if (a.size !== b.size) return false
  for (const [k, v] of a) {
    const w = b.get(k)
    if (w === undefined || w.length !== v.length || w.some((x, i) => x !== v[i])) return false
  }
  return true
}
