import { type FieldError, type FieldPath, field, GoStruct } from '../../../kube/field.js'
import { type LabelSelector, validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { clusterTrustBundleName } from '../certificates/clustertrustbundle.js'
import { isKubernetesSignerName, validateUserAnnotations } from '../certificates/podcertificaterequest.js'
import { validateSignerName } from '../certificates/signer-name.js'
import { isObj, type JSONObject, obj, optNum, optStr, str } from '../common.js'
import { selectorValue } from '../selectors.js'

// The clusterTrustBundle and podCertificate sources of a projected volume: kubernetes v1.37.2
// pkg/apis/core/validation/validation.go validateProjectionSources, in its order. The paths of a podCertificate
// and the duplicate-path rule are pod-volumes.ts's (they share the projected volume's path set).

const MAX_ID = 2147483647

/** validateUserField: a user ID in [0, MaxInt32]. */
export function validateUserField(v: unknown, p: FieldPath): FieldError[] {
  const n = optNum(v)
  return n !== undefined && (n < 0 || n > MAX_ID)
    ? [field.invalid(p, n, `must be between 0 and ${MAX_ID}, inclusive`)]
    : []
}

/** extractSignerNameFromClusterTrustBundleName: the part before the last `:`, its `:`s as `/`. */
function signerOfBundleName(name: string): string | undefined {
  const i = name.lastIndexOf(':')
  return i < 0 ? undefined : name.slice(0, i).replaceAll(':', '/')
}

/** The internal *core.ClusterTrustBundleProjection as json.Marshal prints it (no JSON tags: Go's names). */
const projectionValue = (s: JSONObject) =>
  new GoStruct([
    ['Name', optStr(s.name) ?? null],
    ['SignerName', optStr(s.signerName) ?? null],
    ['LabelSelector', isObj(s.labelSelector) ? selectorValue(s.labelSelector) : null],
    ['Optional', typeof s.optional === 'boolean' ? s.optional : null],
    ['Path', str(s.path)],
    ['User', optNum(s.user) ?? null],
  ])

/** The clusterTrustBundle source up to its path's duplicate check. */
export function validateClusterTrustBundleProjection(s: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const name = optStr(s.name)
  const signer = optStr(s.signerName)
  if (name !== undefined && signer !== undefined)
    errs.push(field.invalid(p, projectionValue(s), 'only one of name and signerName may be used'))
  else if (name !== undefined) {
    if (name === '') errs.push(field.required(p.child('name'), 'must be a valid object name'))
    for (const m of clusterTrustBundleName(signerOfBundleName(name) ?? '')(name, false))
      errs.push(field.invalid(p.child('name'), name, `not a valid clustertrustbundlename: ${m}`))
    if (isObj(s.labelSelector))
      errs.push(
        field.invalid(
          p.child('labelSelector'),
          selectorValue(s.labelSelector),
          'labelSelector must be unset if name is specified',
        ),
      )
  } else if (signer !== undefined) {
    if (signer === '') errs.push(field.required(p.child('signerName'), 'must be a valid signer name'))
    errs.push(...validateSignerName(p.child('signerName'), signer))
    const sel = obj(s.labelSelector) as LabelSelector | undefined
    errs.push(...validateLabelSelector(sel, {}, p.child('labelSelector'), minor))
  } else errs.push(field.required(p, 'either name or signerName must be specified'))
  if (str(s.path) === '') errs.push(field.required(p.child('path'), ''))
  errs.push(...validateUserField(s.user, p.child('user')))
  return errs
}

const KEY_TYPES = ['RSA3072', 'RSA4096', 'ECDSAP256', 'ECDSAP384', 'ECDSAP521', 'ED25519']
/** certificates.MaxMaxExpirationSeconds, KubernetesMaxMaxExpirationSeconds. */
const MAX_MAX_EXPIRATION = 91 * 24 * 60 * 60
const KUBERNETES_MAX_MAX_EXPIRATION = 24 * 60 * 60

/** The podCertificate source up to its paths. */
export function validatePodCertificateProjection(s: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const signer = str(s.signerName)
  const errs = validateSignerName(p.child('signerName'), signer)
  const annotations = obj(s.userAnnotations)
  if (annotations !== undefined) errs.push(...validateUserAnnotations(annotations, p.child('userAnnotations'), minor))
  errs.push(...validateUserField(s.user, p.child('user')))
  const keyType = str(s.keyType)
  if (!KEY_TYPES.includes(keyType)) errs.push(field.notSupported(p.child('keyType'), keyType, KEY_TYPES))
  const max = optNum(s.maxExpirationSeconds)
  if (max !== undefined) {
    const mp = p.child('maxExpirationSeconds')
    if (max < 3600) errs.push(field.invalid(mp, max, 'if provided, maxExpirationSeconds must be >= 3600'))
    const limit = isKubernetesSignerName(signer) ? KUBERNETES_MAX_MAX_EXPIRATION : MAX_MAX_EXPIRATION
    if (max > limit) errs.push(field.invalid(mp, max, `if provided, maxExpirationSeconds must be <= ${limit}`))
  }
  return errs
}
