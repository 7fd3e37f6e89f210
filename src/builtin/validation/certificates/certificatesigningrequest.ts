import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { anyName, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { arr, type JSONObject, obj, optNum, str } from '../common.js'
import { csrError } from './csr.js'
import { decodeStdBase64, latin1 } from './pem.js'
import { validateSignerName } from './signer-name.js'

// certificates.k8s.io/v1 CertificateSigningRequest: kubernetes v1.37.2 pkg/apis/certificates/validation/
// validation.go ValidateCertificateSigningRequestCreate (validateCertificateSigningRequest with the options
// of a new object), ValidateCertificateSigningRequestUpdate. The strategy (pkg/registry/certificates/
// certificates/strategy.go) resets the status on create (so the condition and certificate rules meet an
// empty one) and keeps the old spec and status on update (so an update is checked on what was stored, and
// its metadata). The only declarative rule (Approved and Denied exclusive) is on the status.

const SPEC = FieldPath.of('spec')
const LEGACY_SIGNER = 'kubernetes.io/legacy-unknown'
// allValidUsages, sorted as sets.List sorts them
const USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
]

/** The request's bytes (the []byte field arrives as standard base64) as a latin-1 string. */
function requestBytes(b64: string): string {
  return latin1(decodeStdBase64(b64) ?? new Uint8Array())
}

/** validateCertificateSigningRequest with a new object's options (no legacy signer, usages known and distinct). */
function validateCSR(csr: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(csr, { namespaced: false, nameFn: anyName, minor })
  const spec = obj(csr.spec) ?? {}
  const request = str(spec.request)
  const err = csrError(requestBytes(request))
  if (err !== undefined) errs.push(field.invalid(SPEC.child('request'), request, err))
  const usages = arr(spec.usages).map(str)
  if (usages.length === 0) errs.push(field.required(SPEC.child('usages'), ''))
  const oldSpec = obj(old?.spec)
  const oldUsages = arr(oldSpec?.usages).map(str)
  // allowUnknownUsages / allowDuplicateUsages: compatibility with existing data
  if (!oldUsages.some((u) => !USAGES.includes(u)))
    usages.forEach((u, i) => {
      if (!USAGES.includes(u)) errs.push(field.notSupported(SPEC.child('usages').index(i), u, USAGES))
    })
  if (new Set(oldUsages).size === oldUsages.length) {
    const seen = new Set<string>()
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(field.duplicate(SPEC.child('usages').index(i), u))
      seen.add(u)
    })
  }
  const signer = str(spec.signerName)
  if (signer === LEGACY_SIGNER && str(oldSpec?.signerName) !== LEGACY_SIGNER)
    errs.push(
      field.invalid(SPEC.child('signerName'), signer, 'the legacy signerName is not allowed via this API version'),
    )
  else errs.push(...validateSignerName(SPEC.child('signerName'), signer))
  const exp = optNum(spec.expirationSeconds)
  if (exp !== undefined && exp < 600)
    errs.push(
      field.invalid(
        SPEC.child('expirationSeconds'),
        exp,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    )
  return errs
}

/** ValidateCertificateSigningRequestCreate (the status reset by PrepareForCreate: nothing to check there). */
export function validateCertificateSigningRequestCreate(csr: JSONObject, minor: number): FieldError[] {
  return validateCSR(csr, undefined, minor)
}

/**
 * ValidateCertificateSigningRequestUpdate on what PrepareForUpdate leaves: the old spec and status with the
 * new metadata; the stored conditions and certificate were the apiserver's own, so only the spec is
 * checked again, then ValidateObjectMetaUpdate.
 */
export function validateCertificateSigningRequestUpdate(csr: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const prepared: JSONObject = { ...csr, spec: old.spec ?? {}, status: old.status ?? {} }
  const errs = validateCSR(prepared, old, minor)
  errs.push(...validateObjectMetaFor(csr, { namespaced: false, nameFn: anyName, minor, oldObject: old }))
  return errs
}
