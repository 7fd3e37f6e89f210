import { goQuote } from '../../cel/ext/quote.js'
import { compareStrings } from '../../cel/values/strings.js'
import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { isQualifiedName } from '../../kube/library/format.js'
import { CorrelatedObject, type Correlation } from '../../kube/schema/correlation.js'
import { validateObjectMeta, validateObjectMetaUpdate, validatePathSegment } from '../../kube/validation/objectmeta.js'
import { deepCopy, deepEqual, isObject, type JSONObject } from '../../kube/values/json.js'
import {
  objectMetaOf,
  type ResourceInfo,
  type ScaleSubresource,
  validateCR,
  validateCRStatusUpdate,
  validateCRUpdate,
} from './cr-validator.js'
import { validateListSetsAndMaps } from './listtype.js'
import { validateEmbeddedResources } from './objectmeta-validation.js'
import { additionalPropertiesSchema, itemsSchema, type JSONSchemaProps } from './schema.js'
import type { CRSchemaValidator } from './schema-validation.js'
import { DEFAULT_MINOR } from './versions.js'

// apiextensions-apiserver pkg/registry/customresource/strategy.go and status_strategy.go, with the
// generic registry steps around them (apiserver pkg/registry/rest create.go BeforeCreate /
// ValidateCreate, update.go BeforeUpdate / ValidateUpdate / validateCommonFields): the preparation
// of the object and the validation that precedes x-kubernetes-validations (CEL).

export type { ResourceInfo, ScaleSubresource }

/** Where metadata.generation and friends live. */
function meta(obj: JSONObject): JSONObject {
  if (!isObject(obj.metadata)) obj.metadata = {}
  return obj.metadata as JSONObject
}

/** PrepareForCreate: status cleared when the status subresource is on; generation 1. */
export function prepareForCreate(obj: JSONObject, statusSubresource: boolean): void {
  if (statusSubresource) delete obj.status
  meta(obj).generation = 1
}

const withoutMetadata = (o: JSONObject) => {
  const { metadata: _m, ...rest } = o
  return rest
}
/**
 * customResourceStrategy.PrepareForUpdate: under the status subresource the status is the old
 * object's; the generation is the old one + 1 when anything but metadata changed.
 */
export function prepareForUpdate(obj: JSONObject, old: JSONObject, statusSubresource: boolean): void {
  if (statusSubresource) {
    if (Object.hasOwn(old, 'status')) obj.status = old.status
    else delete obj.status
  }
  if (!deepEqual(withoutMetadata(obj), withoutMetadata(old))) {
    const om = isObject(old.metadata) ? old.metadata : {}
    meta(obj).generation = Number(om.generation ?? 0) + 1
  }
}

/**
 * rest.BeforeUpdate around PrepareForUpdate: the generation is first taken from the old object,
 * and afterwards uid, creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds are carried
 * over from it.
 */
export function beforeUpdate(obj: JSONObject, old: JSONObject, prepare: () => void): void {
  const om = isObject(old.metadata) ? old.metadata : {}
  meta(obj).generation = om.generation ?? 0
  prepare()
  const nm = meta(obj)
  if (typeof nm.uid !== 'string' || nm.uid === '') {
    if (om.uid !== undefined) nm.uid = om.uid
  }
  if (typeof om.creationTimestamp === 'string') nm.creationTimestamp = om.creationTimestamp
  if (typeof om.deletionTimestamp === 'string') nm.deletionTimestamp = om.deletionTimestamp
  if (om.deletionGracePeriodSeconds !== undefined && nm.deletionGracePeriodSeconds === undefined) {
    nm.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds
  }
}

/** statusStrategy.PrepareForUpdate: the old object with the new status (and the new managedFields). */
export function prepareForStatusUpdate(obj: JSONObject, old: JSONObject): JSONObject {
  const out = deepCopy(old)
  const managedFields = isObject(obj.metadata) ? obj.metadata.managedFields : undefined
  if (managedFields !== undefined && managedFields !== null) meta(out).managedFields = managedFields
  else if (isObject(out.metadata)) delete out.metadata.managedFields
  if (Object.hasOwn(obj, 'status')) out.status = obj.status
  else delete out.status
  return out
}

/**
 * hasBlockingErr: a NotSupported, Required, TooLong, TooMany or TypeInvalid error stops CEL; the
 * error to append instead.
 */
export function blockingError(errs: readonly FieldError[]): FieldError | undefined {
  const blocking = new Set([
    'FieldValueNotSupported',
    'FieldValueRequired',
    'FieldValueTooLong',
    'FieldValueTooMany',
    'FieldValueTypeInvalid',
  ])
  if (!errs.some((e) => blocking.has(e.type))) return undefined
  return field.invalid(
    undefined,
    null,
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  )
}

/** cel.NewValidator is nil without any x-kubernetes-validations in properties, items or additionalProperties. */
export function hasXValidations(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true
  if (hasXValidations(itemsSchema(s))) return true
  if (hasXValidations(additionalPropertiesSchema(s))) return true
  return Object.values(s.properties ?? {}).some(hasXValidations)
}

export interface StrategyContext {
  readonly info: ResourceInfo
  readonly schema: JSONSchemaProps | undefined
  readonly schemaValidator: CRSchemaValidator | undefined
  readonly statusValidator?: CRSchemaValidator
  readonly scale?: ScaleSubresource
  /** The apiserver's minor version (1.x). */
  readonly minor?: number
  /** Builds the update's correlation (so CEL can share it); a CorrelatedObject by default. */
  readonly correlate?: (obj: JSONObject, old: JSONObject) => Correlation
}

export interface PreCELValidation {
  readonly errors: FieldError[]
  readonly ratcheted: FieldError[]
  /** The correlation CEL ratcheting must use (updates). */
  readonly correlation?: Correlation
}

/** customResourceStrategy.Validate up to CEL. */
export function validateCreate(obj: JSONObject, ctx: StrategyContext): PreCELValidation {
  const errors = validateCR(obj, ctx.info, ctx.schemaValidator, ctx.scale, ctx.minor)
  errors.push(...validateEmbeddedResources(undefined, obj, ctx.schema, false, ctx.minor))
  errors.push(...validateListSetsAndMaps(undefined, ctx.schema, obj))
  return { errors, ratcheted: [] }
}

/**
 * rest.ValidateCreate's last step, run only when everything before (CEL included) passed: ObjectMeta
 * again with path-segment names.
 */
export function validateCreateObjectMeta(obj: JSONObject, info: ResourceInfo, minor?: number): FieldError[] {
  const m = objectMetaOf(obj)
  if ('errors' in m) return m.errors
  return validateObjectMeta(m.meta, info.namespaced, validatePathSegment, FieldPath.of('metadata'), minor)
}

/** rest validateCommonFields (before the strategy's update validation): ObjectMeta with path-segment names, then its update rules. */
export function validateCommonFields(
  obj: JSONObject,
  old: JSONObject,
  info: ResourceInfo,
  minor?: number,
): FieldError[] {
  const m = objectMetaOf(obj)
  if ('errors' in m) return m.errors
  const o = objectMetaOf(old)
  if ('errors' in o) return o.errors
  return [
    ...validateObjectMeta(m.meta, info.namespaced, validatePathSegment, FieldPath.of('metadata'), minor),
    ...validateObjectMetaUpdate(m.meta, o.meta, FieldPath.of('metadata'), minor),
  ]
}

/** customResourceStrategy.ValidateUpdate up to CEL. */
export function validateUpdate(obj: JSONObject, old: JSONObject, ctx: StrategyContext): PreCELValidation {
  const correlation = ctx.correlate?.(obj, old) ?? new CorrelatedObject(obj, old, ctx.schema)
  const v = validateCRUpdate(obj, old, ctx.info, ctx.schemaValidator, correlation, ctx.scale, ctx.minor)
  const errors = [...v.errors]
  errors.push(...validateEmbeddedResources(undefined, obj, ctx.schema, false, ctx.minor))
  // list-type errors only when the old object had none (ratcheting of the invariant)
  if (validateListSetsAndMaps(undefined, ctx.schema, old).length === 0) {
    errors.push(...validateListSetsAndMaps(undefined, ctx.schema, obj))
  }
  return { errors, ratcheted: v.ratcheted, correlation }
}

/** statusStrategy.ValidateUpdate up to CEL. */
export function validateStatusUpdate(obj: JSONObject, old: JSONObject, ctx: StrategyContext): PreCELValidation {
  const correlation = ctx.correlate?.(obj, old) ?? new CorrelatedObject(obj, old, ctx.schema)
  const statusCorrelation = ctx.schema === undefined ? undefined : correlation.key('status')
  const v = validateCRStatusUpdate(obj, old, ctx.info, ctx.statusValidator, statusCorrelation, ctx.scale, ctx.minor)
  const errors = [...v.errors]
  const newErrs = validateListSetsAndMaps(undefined, ctx.schema, obj)
  if (newErrs.length > 0 && validateListSetsAndMaps(undefined, ctx.schema, old).length === 0) errors.push(...newErrs)
  return { errors, ratcheted: v.ratcheted, correlation }
}

/** generateWarningsFromObj: finalizers added by this request that are not domain-qualified. */
export function finalizerWarnings(obj: JSONObject, old: JSONObject | undefined, minor = DEFAULT_MINOR): string[] {
  const names = (o: JSONObject | undefined) =>
    isObject(o?.metadata) && Array.isArray(o.metadata.finalizers)
      ? ((o.metadata.finalizers as unknown[]).filter((f) => typeof f === 'string') as string[])
      : []
  const before = new Set(names(old))
  // sets.List: sorted as Go sorts strings
  const added = [...new Set(names(obj))].filter((f) => !before.has(f)).sort(compareStrings)
  const standard = new Set(['orphan', 'foregroundDeletion', 'kubernetes'])
  const out: string[] = []
  const p = 'metadata.finalizers'
  for (const f of added) {
    const q = goQuote(f)
    for (const m of isQualifiedName(f)) out.push(`${p}: ${q}: ${m}`)
    if (!f.includes('/') && !standard.has(f)) {
      out.push(
        // a dotted name without a path gets its own hint from 1.32 (kubernetes#127303)
        f.includes('.') && minor >= 32
          ? `${p}: ${q}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
          : `${p}: ${q}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
      )
    }
  }
  return out
}
