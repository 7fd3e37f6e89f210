import { type FieldError, FieldPath, field, GoStruct, OMIT } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { base64Length, deepEqual, type JSONObject, keys, obj, optNum, str, utf8Len } from '../common.js'
import { checkCSRSignature, parseCertificateRequest } from './csr.js'
import { decodeStdBase64 } from './pem.js'
import { validateSignerName } from './signer-name.js'

// certificates.k8s.io/v1 PodCertificateRequest: kubernetes v1.37.2 pkg/apis/certificates/validation/
// validation.go ValidatePodCertificateRequestCreate, validateStubPKCS10Request, ValidatePodCertificateRequestUpdate
// (the strategy resets the status on create: pkg/registry/certificates/podcertificaterequest/strategy.go).
// Not ported: the deprecated pkixPublicKey / proofOfPossession pair (validateDeprecatedPKIXPublicKey), whose
// proof is checked against the pod's UID: such a request gets only the rules before it.

const SPEC = FieldPath.of('spec')
const PKCS10 = SPEC.child('stubPKCS10Request')
const MIN_MAX_EXPIRATION = 60 * 60
const MAX_MAX_EXPIRATION = 91 * 24 * 60 * 60
const KUBERNETES_MAX_MAX_EXPIRATION = 24 * 60 * 60
const MAX_STUB_PKCS10 = 10 * 1024
const TOTAL_ANNOTATION_SIZE = 256 * 1024
const UID_MAX = 128

/** IsKubernetesSignerName: kubernetes.io or a subdomain of it. */
export const isKubernetesSignerName = (s: string): boolean => {
  const host = s.split('/')[0] as string
  return host === 'kubernetes.io' || host.endsWith('.kubernetes.io')
}

/** ValidateUserAnnotations: domain-prefixed keys (lowercased), the total size. */
export function validateUserAnnotations(m: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  let size = 0
  for (const k of keys(m)) {
    size += utf8Len(k) + utf8Len(str(m[k]))
    const key = k.toLowerCase()
    if (key === '') {
      errs.push(field.required(p, ''))
      continue
    }
    const msgs = isQualifiedName(key, minor)
    for (const msg of msgs) errs.push(field.invalid(p, key, msg))
    if (msgs.length === 0 && key.split('/').length !== 2)
      errs.push(field.invalid(p, key, 'must be a domain-prefixed key (such as "acme.io/foo")'))
  }
  if (size > TOTAL_ANNOTATION_SIZE) errs.push(field.tooLong(p, TOTAL_ANNOTATION_SIZE))
  return errs
}

/** validateStubPKCS10Request: a PKCS#10 request with an accepted key and a signature that verifies. */
function validateStubPKCS10Request(b64: string): FieldError[] {
  if (base64Length(b64) > MAX_STUB_PKCS10) return [field.tooLong(PKCS10, MAX_STUB_PKCS10)]
  const csr = parseCertificateRequest(decodeStdBase64(b64) ?? new Uint8Array())
  if (typeof csr === 'string') return [field.invalid(PKCS10, OMIT, 'must be a valid PKCS#10 CSR')]
  const key = csr.key
  if (key?.kind === 'ec') {
    if (key.curve !== 'P-256' && key.curve !== 'P-384' && key.curve !== 'P-521')
      return [field.invalid(PKCS10, `curve ${key.curve}`, 'elliptic public keys must use curve P256, P384, or P521')]
  } else if (key?.kind === 'rsa') {
    const bits = Math.ceil((key.bits ?? 0) / 8) * 8
    if (bits !== 3072 && bits !== 4096)
      return [field.invalid(PKCS10, `${bits}-bit modulus`, 'RSA keys must have modulus size 3072 or 4096')]
  } else if (key?.kind !== 'ed25519')
    return [field.invalid(PKCS10, OMIT, 'unknown public key type; supported types are Ed25519, ECDSA, and RSA')]
  if (checkCSRSignature(csr) !== undefined) return [field.invalid(PKCS10, OMIT, 'invalid signature')]
  return []
}

/** ValidatePodCertificateRequestCreate. */
export function validatePodCertificateRequestCreate(r: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(r, { namespaced: true, nameFn: nameIsDNSSubdomain, minor })
  const spec = obj(r.spec) ?? {}
  const signer = str(spec.signerName)
  errs.push(...validateSignerName(SPEC.child('signerName'), signer))
  const annotations = obj(spec.unverifiedUserAnnotations)
  if (annotations !== undefined)
    errs.push(...validateUserAnnotations(annotations, SPEC.child('unverifiedUserAnnotations'), minor))
  const name = (k: string) => {
    const v = str(spec[k])
    for (const m of nameIsDNSSubdomain(v, false)) errs.push(field.invalid(SPEC.child(k), v, m))
  }
  const uid = (k: string) => {
    const v = str(spec[k])
    if (v.length === 0) errs.push(field.invalid(SPEC.child(k), v, 'must not be empty'))
    if (utf8Len(v) > UID_MAX) errs.push(field.tooLong(SPEC.child(k), UID_MAX))
  }
  name('podName')
  uid('podUID')
  name('serviceAccountName')
  uid('serviceAccountUID')
  name('nodeName')
  uid('nodeUID')
  const max = optNum(spec.maxExpirationSeconds)
  if (max === undefined) {
    errs.push(field.required(SPEC.child('maxExpirationSeconds'), 'must be set'))
    return errs
  }
  const upper = isKubernetesSignerName(signer) ? KUBERNETES_MAX_MAX_EXPIRATION : MAX_MAX_EXPIRATION
  if (max < MIN_MAX_EXPIRATION || max > upper)
    errs.push(
      field.invalid(SPEC.child('maxExpirationSeconds'), max, `must be in the range [${MIN_MAX_EXPIRATION}, ${upper}]`),
    )
  const stub = str(spec.stubPKCS10Request)
  const pkix = str(spec.pkixPublicKey)
  const pop = str(spec.proofOfPossession)
  if (stub !== '' && pkix === '' && pop === '') errs.push(...validateStubPKCS10Request(stub))
  else if (!(stub === '' && pkix !== '' && pop !== ''))
    errs.push(
      field.invalid(SPEC, OMIT, 'exactly one of (stubPKCS10Request) or (pkixPublicKey, proofOfPossession) must be set'),
    )
  return errs
}

/** The internal PodCertificateRequestSpec the immutable error prints (no json tags; []byte as base64, nil as null). */
function internalSpec(spec: JSONObject): GoStruct {
  const bytes = (k: string) => (str(spec[k]) === '' ? null : str(spec[k]))
  return new GoStruct([
    ['SignerName', str(spec.signerName)],
    ['PodName', str(spec.podName)],
    ['PodUID', str(spec.podUID)],
    ['ServiceAccountName', str(spec.serviceAccountName)],
    ['ServiceAccountUID', str(spec.serviceAccountUID)],
    ['NodeName', str(spec.nodeName)],
    ['NodeUID', str(spec.nodeUID)],
    ['MaxExpirationSeconds', optNum(spec.maxExpirationSeconds) ?? null],
    ['PKIXPublicKey', bytes('pkixPublicKey')],
    ['ProofOfPossession', bytes('proofOfPossession')],
    ['StubPKCS10Request', bytes('stubPKCS10Request')],
    ['UnverifiedUserAnnotations', obj(spec.unverifiedUserAnnotations) ?? null],
  ])
}

/** ValidatePodCertificateRequestUpdate: metadata, and the spec immutable. */
export function validatePodCertificateRequestUpdate(r: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(r, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, oldObject: old })
  if (!deepEqual(r.spec ?? null, old.spec ?? null))
    errs.push(field.invalid(SPEC, internalSpec(obj(r.spec) ?? {}), 'field is immutable'))
  return errs
}
