import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { emptyObjectMeta, getObjectMeta, type ObjectMeta } from '../../kube/objectmeta-unstructured.js'
import type { Correlation } from '../../kube/schema/correlation.js'
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../kube/validation/objectmeta.js'
import { type JSONObject, kindOf } from '../../kube/values/json.js'
import { validateTypeMeta } from './objectmeta-validation.js'
import { type CRSchemaValidator, validateCustomResource, validateCustomResourceUpdate } from './schema-validation.js'
import { goSprintV, goTypeOf, nestedField } from './unstructured.js'
import { DEFAULT_MINOR } from './versions.js'

// apiextensions-apiserver pkg/registry/customresource/validator.go customResourceValidator: TypeMeta
// first (its errors alone are returned), then ObjectMeta, the OpenAPI schema, and the scale
// subresource's replicas and selector paths.

/** The CRD version a custom resource is validated against. */
export interface ResourceInfo {
  readonly group: string
  readonly version: string
  readonly kind: string
  readonly namespaced: boolean
}

/** CustomResourceSubresourceScale. */
export interface ScaleSubresource {
  readonly specReplicasPath: string
  readonly statusReplicasPath: string
  readonly labelSelectorPath?: string
}

export interface Validated {
  readonly errors: FieldError[]
  /** Schema errors ratcheting dropped (update only). */
  readonly ratcheted: FieldError[]
}

/** getObjectMeta of validator.go: metadata as ObjectMeta (it is normalized by decoding already). */
export function objectMetaOf(obj: JSONObject): { meta: ObjectMeta } | { errors: FieldError[] } {
  const raw = obj.metadata
  if (raw === undefined || raw === null) return { meta: emptyObjectMeta() }
  if (kindOf(raw) !== 'map') {
    return {
      errors: [field.invalid(FieldPath.of('metadata'), raw, `expected map[string]interface{}, got ${goTypeOf(raw)}`)],
    }
  }
  const r = getObjectMeta(obj)
  if (r.error !== undefined) return { errors: [field.invalid(FieldPath.of('metadata'), raw, r.error)] }
  return { meta: r.meta ?? emptyObjectMeta() }
}

/** Validate (create). */
export function validateCR(
  obj: JSONObject,
  info: ResourceInfo,
  schemaValidator: CRSchemaValidator | undefined,
  scale?: ScaleSubresource,
  minor: number = DEFAULT_MINOR,
): FieldError[] {
  const tm = validateTypeMeta(obj, info.group, info.version, info.kind)
  if (tm.length > 0) return tm
  const errs: FieldError[] = []
  const m = objectMetaOf(obj)
  if ('errors' in m) errs.push(...m.errors)
  else errs.push(...validateObjectMeta(m.meta, info.namespaced, nameIsDNSSubdomain, FieldPath.of('metadata'), minor))
  errs.push(...validateCustomResource(undefined, obj, schemaValidator))
  errs.push(...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale))
  return errs
}

function metaUpdateErrors(obj: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const m = objectMetaOf(obj)
  if ('errors' in m) return m.errors
  const o = objectMetaOf(old)
  if ('errors' in o) return o.errors
  return validateObjectMetaUpdate(m.meta, o.meta, FieldPath.of('metadata'), minor)
}

/** ValidateUpdate, with ratcheting through `correlation`. */
export function validateCRUpdate(
  obj: JSONObject,
  old: JSONObject,
  info: ResourceInfo,
  schemaValidator: CRSchemaValidator | undefined,
  correlation: Correlation,
  scale?: ScaleSubresource,
  minor: number = DEFAULT_MINOR,
): Validated {
  const tm = validateTypeMeta(obj, info.group, info.version, info.kind)
  if (tm.length > 0) return { errors: tm, ratcheted: [] }
  const errs = metaUpdateErrors(obj, old, minor)
  const schema = validateCustomResourceUpdate(undefined, obj, old, schemaValidator, correlation)
  errs.push(...schema.errors, ...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale))
  return { errors: errs, ratcheted: schema.ratcheted }
}

/** ValidateStatusUpdate: only `status` is validated against the schema (its own validator). */
export function validateCRStatusUpdate(
  obj: JSONObject,
  old: JSONObject,
  info: ResourceInfo,
  statusValidator: CRSchemaValidator | undefined,
  correlation: Correlation | undefined,
  scale?: ScaleSubresource,
  minor: number = DEFAULT_MINOR,
): Validated {
  const tm = validateTypeMeta(obj, info.group, info.version, info.kind)
  if (tm.length > 0) return { errors: tm, ratcheted: [] }
  const errs = metaUpdateErrors(obj, old, minor)
  let ratcheted: FieldError[] = []
  if (Object.hasOwn(obj, 'status')) {
    const r = validateCustomResourceUpdate(FieldPath.of('status'), obj.status, old.status, statusValidator, correlation)
    errs.push(...r.errors)
    ratcheted = r.ratcheted
  }
  errs.push(...validateScaleStatus(obj, scale))
  return { errors: errs, ratcheted }
}

/** unstructured.NestedInt64 along a dotted path (a leading dot ignored): value or accessor error. */
function nestedInt64(obj: JSONObject, path: string): { value: number | bigint; error?: string } {
  const fields = path.replace(/^\./, '').split('.')
  const r = nestedField(obj, fields)
  if (r.error !== undefined) return { value: 0, error: r.error }
  if (!r.found) return { value: 0 }
  if (kindOf(r.value) !== 'int64') {
    return {
      value: 0,
      error: `.${fields.join('.')} accessor error: ${goSprintV(r.value)} is of the type ${goTypeOf(r.value)}, expected int64`,
    }
  }
  return { value: r.value as number | bigint }
}

const MAX_INT32 = 2147483647

function replicasErrors(obj: JSONObject, path: string): FieldError[] {
  const p = FieldPath.of(path)
  const r = nestedInt64(obj, path)
  if (r.error !== undefined) return [field.invalid(p, r.value, r.error)]
  if (r.value < 0) return [field.invalid(p, r.value, 'should be a non-negative integer')]
  if (r.value > MAX_INT32) return [field.invalid(p, r.value, `should be less than or equal to ${MAX_INT32}`)]
  return []
}

/** ValidateScaleSpec. */
export function validateScaleSpec(obj: JSONObject, scale: ScaleSubresource | undefined): FieldError[] {
  return scale === undefined ? [] : replicasErrors(obj, scale.specReplicasPath)
}

/** ValidateScaleStatus: status replicas, and the label selector must be a string when present. */
export function validateScaleStatus(obj: JSONObject, scale: ScaleSubresource | undefined): FieldError[] {
  if (scale === undefined) return []
  const errs = replicasErrors(obj, scale.statusReplicasPath)
  if (scale.labelSelectorPath !== undefined) {
    const fields = scale.labelSelectorPath.replace(/^\./, '').split('.')
    const r = nestedField(obj, fields)
    let error = r.error
    if (error === undefined && r.found && typeof r.value !== 'string') {
      error = `.${fields.join('.')} accessor error: ${goSprintV(r.value)} is of the type ${goTypeOf(r.value)}, expected string`
    }
    if (error !== undefined) errs.push(field.invalid(FieldPath.of(scale.labelSelectorPath), '', error))
  }
  return errs
}
