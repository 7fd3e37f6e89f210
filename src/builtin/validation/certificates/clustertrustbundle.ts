import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import {
  nameIsDNSSubdomain,
  type ValidateNameFunc,
  validateObjectMetaFor,
} from '../../../kube/validation/objectmeta.js'
import { type JSONObject, obj, str, utf8Len } from '../common.js'
import { latin1, pemDecodeRest } from './pem.js'
import { certificateIsCA } from './signature.js'
import { validateSignerName } from './signer-name.js'

// certificates.k8s.io/v1 ClusterTrustBundle: kubernetes v1.37.2 pkg/apis/certificates/validation/validation.go
// ValidateClusterTrustBundle, validateTrustBundle, ValidateClusterTrustBundleUpdate, and the name rule of
// pkg/apis/core/validation/names.go ValidateClusterTrustBundleName (the name's prefix follows the signer).
// Its declarative rules are alpha (not enforced).

const MAX_TRUST_BUNDLE = 1024 * 1024
const TRUST_BUNDLE = FieldPath.of('spec', 'trustBundle')
const OMITTED = '<value omitted>'

/** ValidateClusterTrustBundleName(signerName). */
export function clusterTrustBundleName(signerName: string): ValidateNameFunc {
  return (name, prefix) => {
    if (signerName === '') {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name']
      return nameIsDNSSubdomain(name, prefix)
    }
    const required = `${signerName.replaceAll('/', ':')}:`
    if (!name.startsWith(required))
      return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`]
    return nameIsDNSSubdomain(name.slice(required.length), prefix)
  }
}

/** validateTrustBundle: CERTIFICATE blocks without headers, CA certificates, at least one, none twice. */
function validateTrustBundle(bundle: string): FieldError[] {
  if (utf8Len(bundle) > MAX_TRUST_BUNDLE) return [field.tooLong(TRUST_BUNDLE, MAX_TRUST_BUNDLE)]
  const errs: FieldError[] = []
  const seen = new Map<string, number[]>()
  // the bytes of the string as Go's []byte(in): UTF-8, held as latin-1 for the PEM reader
  let rest = latin1(new TextEncoder().encode(bundle))
  for (let i = 0; ; i++) {
    const found = pemDecodeRest(rest)
    if (found === undefined) break
    rest = found.rest
    const b = found.block
    if (b.type !== 'CERTIFICATE') {
      errs.push(field.invalid(TRUST_BUNDLE, OMITTED, `entry ${i} has bad block type: ${b.type}`))
      continue
    }
    if (b.headers !== 0) {
      errs.push(field.invalid(TRUST_BUNDLE, OMITTED, `entry ${i} has PEM block headers`))
      continue
    }
    const ca = certificateIsCA(b.bytes)
    if (ca === undefined) {
      errs.push(field.invalid(TRUST_BUNDLE, OMITTED, `entry ${i} does not parse as X.509`))
      continue
    }
    if (!ca) {
      errs.push(field.invalid(TRUST_BUNDLE, OMITTED, `entry ${i} does not have the CA bit set`))
      continue
    }
    const key = latin1(b.bytes)
    seen.set(key, [...(seen.get(key) ?? []), i])
  }
  if (errs.length > 0) return errs
  if (seen.size === 0) errs.push(field.invalid(TRUST_BUNDLE, OMITTED, 'at least one trust anchor must be provided'))
  for (const indices of seen.values())
    if (indices.length > 1)
      errs.push(field.invalid(TRUST_BUNDLE, OMITTED, `duplicate trust anchor (indices [${indices.join(' ')}])`))
  return errs
}

function validate(b: JSONObject, minor: number, parseBundle: boolean): FieldError[] {
  const spec = obj(b.spec) ?? {}
  const signer = str(spec.signerName)
  const errs = validateObjectMetaFor(b, { namespaced: false, nameFn: clusterTrustBundleName(signer), minor })
  if (signer !== '') errs.push(...validateSignerName(FieldPath.of('spec', 'signerName'), signer))
  if (parseBundle) errs.push(...validateTrustBundle(str(spec.trustBundle)))
  return errs
}

/** ValidateClusterTrustBundle. */
export function validateClusterTrustBundle(b: JSONObject, minor: number): FieldError[] {
  return validate(b, minor, true)
}

/** ValidateClusterTrustBundleUpdate: the bundle parsed again only when it changed; signerName immutable. */
export function validateClusterTrustBundleUpdate(b: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const spec = obj(b.spec) ?? {}
  const oldSpec = obj(old.spec) ?? {}
  const errs = validate(b, minor, str(spec.trustBundle) !== str(oldSpec.trustBundle))
  errs.push(...validateObjectMetaFor(b, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, oldObject: old }))
  if (str(spec.signerName) !== str(oldSpec.signerName))
    errs.push(field.invalid(FieldPath.of('spec', 'signerName'), str(spec.signerName), 'field is immutable'))
  return errs
}
