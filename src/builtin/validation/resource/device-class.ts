import { ErrorType, type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { longName, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, objectMetaUpdate } from '../common.js'
import { validateDeviceConfiguration, validateSelectorSlice } from './claim.js'
import { arr, DEVICE_CONFIG_MAX_SIZE, Errs, obj, tooMany } from './common.js'

// resource.k8s.io/v1 DeviceClass: kubernetes v1.37.2 pkg/apis/resource/validation/validation.go
// ValidateDeviceClass / ValidateDeviceClassUpdate (the name a LongName, generateName not checked), with
// the declarative rules of k8s.io/api resource/v1 (common.ts). On update, selectors or configs equal to
// the old ones are "stored": their expressions are not compiled again.

/** validate.ExtendedResourceName (the declarative rule that replaces the handwritten one). */
function extendedResourceName(v: string, p: FieldPath): FieldError[] {
  const out: FieldError[] = []
  if (!v.includes('/'))
    out.push(field.invalid(p, v, "a name must be a domain-prefixed path, such as 'example.com/my-prop'"))
  else if (v.includes('kubernetes.io/')) out.push(field.invalid(p, v, 'must not have "kubernetes.io/" domain'))
  if (v.startsWith('requests.')) out.push(field.invalid(p, v, 'must not have "requests." prefix'))
  for (const m of isQualifiedName(`requests.${v}`)) out.push(field.invalid(p, v, m))
  return out
}

/** validateDeviceClassSpec. */
function validateDeviceClassSpec(spec: JSONObject, old: JSONObject | undefined, p: FieldPath, errs: Errs): void {
  const selectors = arr(spec.selectors)
  if (old === undefined || !deepEqual(spec.selectors ?? null, old.selectors ?? null))
    validateSelectorSlice(selectors, p.child('selectors'), errs)
  else tooMany(errs, selectors, 32, p.child('selectors'), true)
  const config = arr(spec.config)
  const cp = p.child('config')
  if (!tooMany(errs, config, DEVICE_CONFIG_MAX_SIZE, cp, true))
    config.forEach((c, i) => {
      validateDeviceConfiguration(obj(c) ?? {}, cp.index(i), errs)
    })
  if (typeof spec.extendedResourceName === 'string')
    errs.covered(...extendedResourceName(spec.extendedResourceName, p.child('extendedResourceName')))
}

/**
 * ValidateObjectMetaWithOpts' errors: the name rule (validate.LongName) is covered by the declarative
 * `+k8s:format=k8s-long-name` of the name, so its Invalid errors come with the declarative ones.
 */
function metadata(errs: Errs, meta: FieldError[]): void {
  for (const e of meta)
    if (e.field === 'metadata.name' && e.type === ErrorType.Invalid) errs.covered(e)
    else errs.add(e)
}

/** ValidateDeviceClass. */
export function validateDeviceClass(dc: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  metadata(errs, validateObjectMetaFor(dc, { namespaced: false, nameFn: longName, minor }))
  validateDeviceClassSpec(obj(dc.spec) ?? {}, undefined, FieldPath.of('spec'), errs)
  return errs.all()
}

/** ValidateDeviceClassUpdate. */
export function validateDeviceClassUpdate(dc: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  metadata(errs, validateObjectMetaFor(dc, { namespaced: false, nameFn: longName, minor }))
  errs.add(...objectMetaUpdate(dc, old, minor))
  validateDeviceClassSpec(obj(dc.spec) ?? {}, obj(old.spec) ?? {}, FieldPath.of('spec'), errs)
  return errs.all()
}
