import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, obj, str } from '../common.js'
import { declarativeCSIDriverName, validateCSIDriverName } from './csi-driver-name.js'

// storage.k8s.io/v1 VolumeAttachment: kubernetes v1.37.2 pkg/apis/storage/validation/validation.go
// ValidateVolumeAttachment, ValidateVolumeAttachmentUpdate, with the beta declarative rules of k8s.io/api
// storage/v1 (registry/rest validate.go ValidateDeclarativelyWithMigrationChecks): spec.attacher required,
// k8s-long-name-caseless, at most 63 characters; spec immutable. They replace the handwritten errors
// marked covered (all the attacher's, the spec's immutability) and come after the handwritten ones; on
// update they run only on what changed. PrepareForCreate resets the status and PrepareForUpdate keeps the
// old one (strategy.go), so the status rules (attachmentMetadata size, error messages and codes) meet
// only a status the apiserver wrote itself: they are not run. Not ported: ValidatePersistentVolumeSpec of
// spec.source.inlineVolumeSpec (kelp does not validate PersistentVolume specs yet).

const SPEC = FieldPath.of('spec')
const SOURCE = SPEC.child('source')
const ONE_OF = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'

function validateVolumeAttachmentSource(source: JSONObject): FieldError[] {
  const inline = obj(source.inlineVolumeSpec) !== undefined
  const pv = typeof source.persistentVolumeName === 'string'
  if (!inline && !pv) return [field.required(SOURCE, ONE_OF)]
  if (inline && pv) return [field.forbidden(SOURCE, ONE_OF)]
  if (pv && source.persistentVolumeName === '')
    return [field.required(SOURCE.child('persistentVolumeName'), 'must specify non empty persistentVolumeName')]
  return []
}

/**
 * The handwritten ValidateVolumeAttachment (metadata, spec: attacher, source, nodeName; the PV's name), the
 * attacher's errors left out when `attacherCovered` (replaced by the declarative ones).
 */
function validateVolumeAttachmentHandwritten(va: JSONObject, minor: number, attacherCovered: boolean): FieldError[] {
  const errs = validateObjectMetaFor(va, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  const spec = obj(va.spec) ?? {}
  const source = obj(spec.source) ?? {}
  if (!attacherCovered) errs.push(...validateCSIDriverName(str(spec.attacher), SPEC.child('attacher')))
  errs.push(...validateVolumeAttachmentSource(source))
  const nodeName = str(spec.nodeName)
  for (const m of nameIsDNSSubdomain(nodeName, false)) errs.push(field.invalid(SPEC.child('nodeName'), nodeName, m))
  if (typeof source.persistentVolumeName === 'string') {
    const pv = source.persistentVolumeName
    for (const m of nameIsDNSSubdomain(pv, false)) errs.push(field.invalid(SOURCE.child('persistentVolumeName'), pv, m))
  }
  return errs
}

/** ValidateVolumeAttachment, then (1.37) the declarative attacher rules that replace its covered errors. */
export function validateVolumeAttachment(va: JSONObject, minor: number): FieldError[] {
  if (minor < 37) return validateVolumeAttachmentHandwritten(va, minor, false)
  const errs = validateVolumeAttachmentHandwritten(va, minor, true)
  errs.push(...declarativeCSIDriverName(str(obj(va.spec)?.attacher), SPEC.child('attacher')))
  return errs
}

/**
 * ValidateVolumeAttachmentUpdate: ValidateVolumeAttachment of the new object, the spec immutable. A changed
 * spec stops the declarative rules at spec (Immutable short-circuits), so the handwritten attacher errors
 * stay; the declarative immutable error (a null value) replaces the handwritten one and comes last.
 */
export function validateVolumeAttachmentUpdate(va: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateVolumeAttachmentHandwritten(va, minor, false)
  if (!deepEqual(va.spec ?? null, old.spec ?? null))
    errs.push(field.invalid(SPEC, minor < 37 ? (va.spec ?? null) : null, 'field is immutable'))
  return errs
}
