import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { arr, type JSONObject, obj, optNum, str, validateImmutableField } from '../common.js'

// storage.k8s.io/v1 CSIDriver: kubernetes v1.37.2 pkg/apis/storage/validation/validation.go ValidateCSIDriver,
// ValidateCSIDriverUpdate, validateCSIDriverSpec. The gated fields are dropped before (drop-disabled.ts
// dropCSIDriverDisabledFields) and defaulted (defaults.ts SetDefaults_CSIDriver), so the Required rules
// meet only explicit nulls the decoder already gave the defaults. The only declarative rule
// (volumeLifecycleModes immutable) is alpha: the handwritten error stands.

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType']
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral']

/** validateTokenRequests: audiences distinct; expirationSeconds within [10 min, 2^32 s]. */
function validateTokenRequests(requests: unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  requests.forEach((x, i) => {
    const r = obj(x) ?? {}
    const ip = p.index(i)
    const audience = str(r.audience)
    if (seen.has(audience)) {
      errs.push(field.duplicate(ip.child('audience'), audience))
      return
    }
    seen.add(audience)
    const exp = optNum(r.expirationSeconds)
    if (exp === undefined) return
    if (exp < 600)
      errs.push(field.invalid(ip.child('expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'))
    if (exp > 2 ** 32)
      errs.push(
        field.invalid(ip.child('expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'),
      )
  })
  return errs
}

/** validateCSIDriverSpec (the gates SELinuxMountReadWriteOncePod and VolumeLimitScaling on in 1.37). */
function validateCSIDriverSpec(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const nil = (k: string) => spec[k] === undefined || spec[k] === null
  if (nil('attachRequired')) errs.push(field.required(p.child('attachedRequired'), ''))
  if (nil('podInfoOnMount')) errs.push(field.required(p.child('podInfoOnMount'), ''))
  if (nil('storageCapacity')) errs.push(field.required(p.child('storageCapacity'), ''))
  if (typeof spec.fsGroupPolicy === 'string' && !FS_GROUP_POLICIES.includes(spec.fsGroupPolicy))
    errs.push(field.notSupported(p.child('fsGroupPolicy'), spec.fsGroupPolicy, FS_GROUP_POLICIES))
  const tokenRequests = arr(spec.tokenRequests)
  errs.push(...validateTokenRequests(tokenRequests, p.child('tokenRequests')))
  for (const m of arr(spec.volumeLifecycleModes))
    if (!LIFECYCLE_MODES.includes(str(m)))
      errs.push(field.notSupported(p.child('volumeLifecycleModes'), str(m), LIFECYCLE_MODES))
  if (nil('seLinuxMount') && minor >= 28) errs.push(field.required(p.child('seLinuxMount'), ''))
  const period = optNum(spec.nodeAllocatableUpdatePeriodSeconds)
  if (period !== undefined && period < 10)
    errs.push(
      field.invalid(
        p.child('nodeAllocatableUpdatePeriodSeconds'),
        period,
        'must be greater than or equal to 10 seconds',
      ),
    )
  if (typeof spec.serviceAccountTokenInSecrets === 'boolean' && tokenRequests.length === 0)
    errs.push(
      field.invalid(
        p.child('serviceAccountTokenInSecrets'),
        spec.serviceAccountTokenInSecrets,
        'serviceAccountTokenInSecrets is set but no tokenRequests are specified',
      ),
    )
  if (nil('preventPodSchedulingIfMissing') && minor >= 37)
    errs.push(field.required(p.child('preventPodSchedulingIfMissing'), ''))
  return errs
}

const SPEC = FieldPath.of('spec')

/** ValidateCSIDriver. */
export function validateCSIDriver(d: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(d, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  errs.push(...validateCSIDriverSpec(obj(d.spec) ?? {}, SPEC, minor))
  return errs
}

/** ValidateCSIDriverUpdate: attachRequired and volumeLifecycleModes immutable (the path says `attachedRequired`). */
export function validateCSIDriverUpdate(d: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(d, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, oldObject: old })
  const spec = obj(d.spec) ?? {}
  const oldSpec = obj(old.spec) ?? {}
  errs.push(...validateCSIDriverSpec(spec, SPEC, minor))
  errs.push(...validateImmutableField(spec.attachRequired, oldSpec.attachRequired, SPEC.child('attachedRequired')))
  errs.push(
    ...validateImmutableField(
      spec.volumeLifecycleModes,
      oldSpec.volumeLifecycleModes,
      SPEC.child('volumeLifecycleModes'),
    ),
  )
  return errs
}
