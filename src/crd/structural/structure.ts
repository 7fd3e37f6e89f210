import { decodeErrorMessage, type FieldValidation, strictDecodingError } from '../../kube/decoding.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../../kube/environment.js'
import { type FieldError, withReleaseValues } from '../../kube/field.js'
import { type NameGenerator, needsNameGeneration, SimpleNameGenerator } from '../../kube/names.js'
import type { Correlation } from '../../kube/schema/correlation.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import type { ResourceInfo, ScaleSubresource } from './cr-validator.js'
import { decodeCustomResource, FROM_STORAGE } from './decode.js'
import type { JSONSchemaProps } from './schema.js'
import { CRSchemaValidator } from './schema-validation.js'
import {
  beforeUpdate,
  blockingError,
  finalizerWarnings,
  hasXValidations,
  type PreCELValidation,
  prepareForCreate,
  prepareForStatusUpdate,
  prepareForUpdate,
  type StrategyContext,
  validateCommonFields,
  validateCreate,
  validateCreateObjectMeta,
  validateStatusUpdate,
  validateUpdate,
} from './strategy.js'
import { minorOf } from './versions.js'

// The non-CEL half of a custom resource write, in kube-apiserver's order. Every step has its own
// exported function; validateStructure runs them all.
//
// CREATE (POST):
//  1. decode the body (customresource_handler.go schemaCoercingDecoder → unstructuredSchemaCoercer
//     .apply, then unstructuredDefaulter):                                     decodeCustomResource
//     a. metadata decoded as ObjectMeta (malformed → 400), unknown `metadata.*` fields collected;
//     b. unknown fields pruned (paths collected), non-nullable nulls without default dropped;
//     c. embedded resources coerced (apiVersion/kind strings, metadata normalized; error → 400);
//     d. metadata written back normalized; e. schema defaults applied.
//     Unknown fields: fieldValidation=Strict → 400 `strict decoding error: unknown field "…", …`;
//     Warn (the default) → one warning `unknown field "…"` each; Ignore → dropped silently.
//  2. the store's Create: metadata.name generated from generateName when empty (registry/store.go;
//     the validations below, CEL and validating admission see it).                generateName
//     BeforeCreate: the request namespace is enforced on metadata.namespace (cleared for
//     cluster-scoped kinds), then PrepareForCreate (status dropped under the status
//     subresource, generation 1).                                                  prepareForCreate
//  3. strategy.Validate (strategy.go; validator.go):                                 validateCreate
//     a. TypeMeta (kind, apiVersion); if wrong, only these errors;
//     b. ObjectMeta (ValidateObjectMeta, names as DNS subdomains);
//     c. the OpenAPI schema (ValidateCustomResource);
//     d. scale subresource spec/status replicas and label selector;
//     e. embedded resources' TypeMeta/ObjectMeta (objectmeta.Validate);
//     f. x-kubernetes-list-type set/map uniqueness (listtype);
//     g. x-kubernetes-validations (CEL, not here) — unless an error so far is NotSupported,
//        Required, TooLong, TooMany or TypeInvalid: then blockingError() is appended instead (only
//        when the schema has rules at all: hasXValidations).
//  4. rest.ValidateCreate: when 3 gave no error (CEL included), ObjectMeta again with path-segment
//     names.                                                                 validateCreateObjectMeta
//  5. when valid: WarningsOnCreate (finalizer names).                               finalizerWarnings
//
// UPDATE (PUT), and UPDATE of /status:
//  1. decode the body as for CREATE; the old object is the stored one, read back through the same
//     decoder in storage mode (malformed metadata dropped, nothing reported) and defaulted.
//  2. BeforeUpdate: namespace as above; generation from the old object; PrepareForUpdate (status
//     kept from the old object under the status subresource; generation + 1 when anything but
//     metadata changed) or, for /status, the old object with the new status; uid, creation and
//     deletion timestamps carried over.                      prepareForUpdate / prepareForStatusUpdate
//  3. rest.ValidateUpdate: validateCommonFields (ObjectMeta with path-segment names, then the
//     update rules), then strategy.ValidateUpdate:                  validateUpdate / validateStatusUpdate
//     a. TypeMeta; b. ValidateObjectMetaUpdate; c. the schema with ratcheting over one
//     CorrelatedObject(new, old) (for /status: only `status`, against the status schema); d. scale;
//     e. embedded resources (not for /status); f. list types, only when the old object had no
//     list-type error; g. CEL with the same correlation, or the blocking error, as for CREATE
//     (the blocking test looks at the strategy's errors only, not at validateCommonFields').
//  4. when valid: WarningsOnUpdate (newly added finalizers; none for /status).

export type Operation = 'CREATE' | 'UPDATE' | 'UPDATE_STATUS'

export interface StructureOptions {
  /** CREATE without an old object, UPDATE with one (the default follows `oldObject`). */
  readonly operation?: Operation
  /** The stored object an update replaces. */
  readonly oldObject?: unknown
  /**
   * The CRD version. Without it, group/version/kind come from the object itself and the kind counts
   * as namespaced when the object has a namespace.
   */
  readonly resource?: ResourceInfo
  /** The request's namespace (namespaced kinds); the object's own when not given. */
  readonly namespace?: string
  /** `?fieldValidation=`: Strict, Warn (the apiserver's default) or Ignore. */
  readonly fieldValidation?: FieldValidation
  /** The CRD version has the status subresource. */
  readonly statusSubresource?: boolean
  /** The CRD version's scale subresource. */
  readonly scale?: ScaleSubresource
  /** The apiserver's version (formats follow its compatibility version). */
  readonly version?: KubeVersion
  /**
   * CREATE: the name for a generateName prefix when metadata.name is empty (default: the
   * apiserver's SimpleNameGenerator, random).
   */
  readonly generateName?: NameGenerator
  /** Builds the update's correlation over the prepared objects, to share it with CEL ratcheting. */
  readonly correlate?: (object: JSONObject, oldObject: JSONObject) => Correlation
}

export interface StructureResult {
  /** The request is rejected before validation (HTTP 400) with this message; nothing else applies. */
  readonly requestError?: string
  /** Field errors in the apiserver's order, the blocking error last when CEL may not run. */
  readonly errors: FieldError[]
  /** Warnings (unknown fields under fieldValidation=Warn). */
  readonly warnings: string[]
  /** Schema errors ratcheting dropped on update (the apiserver does not show them). */
  readonly ratcheted: FieldError[]
  /** The object as validated: decoded, pruned, defaulted, prepared (a copy). */
  readonly object?: JSONObject
  /** The old object as the strategy sees it (decoded from storage). */
  readonly oldObject?: JSONObject
  /** For CEL ratcheting on update: the same correlation the schema validation used. */
  readonly correlation?: Correlation
  /** Whether x-kubernetes-validations must be evaluated now (the schema has some and nothing blocks). */
  readonly runCEL: boolean
  /** CREATE only: errors to report only when everything else (CEL included) passed. */
  readonly errorsIfOtherwiseValid: FieldError[]
  /** Warnings to add only when the request is valid. */
  readonly warningsIfValid: string[]
}

function infoFrom(obj: JSONObject): ResourceInfo {
  const av = typeof obj.apiVersion === 'string' ? obj.apiVersion : ''
  const i = av.indexOf('/')
  const ns = isObject(obj.metadata) ? obj.metadata.namespace : undefined
  return {
    group: i < 0 ? '' : av.slice(0, i),
    version: i < 0 ? av : av.slice(i + 1),
    kind: typeof obj.kind === 'string' ? obj.kind : '',
    namespaced: typeof ns === 'string' && ns !== '',
  }
}

/** EnsureObjectNamespaceMatchesRequestNamespace with ExpectedNamespaceForScope: the error, if any. */
function enforceNamespace(
  obj: JSONObject,
  info: ResourceInfo,
  requestNamespace: string | undefined,
): string | undefined {
  const m = isObject(obj.metadata) ? obj.metadata : (obj.metadata = {})
  const objNs = typeof m.namespace === 'string' ? m.namespace : ''
  const expected = info.namespaced ? (requestNamespace ?? objNs) : ''
  if (objNs === expected) return undefined
  if (objNs === '' || expected === '') {
    if (expected === '') delete m.namespace
    else m.namespace = expected
    return undefined
  }
  return 'the namespace of the provided object does not match the namespace sent on the request'
}

const failed = (requestError: string, warnings: string[] = []): StructureResult => ({
  requestError,
  errors: [],
  warnings,
  ratcheted: [],
  runCEL: false,
  errorsIfOtherwiseValid: [],
  warningsIfValid: [],
})

const validators = new WeakMap<JSONSchemaProps, Map<string, CRSchemaValidator>>()

function schemaValidatorFor(schema: JSONSchemaProps, version: KubeVersion): CRSchemaValidator {
  let byVersion = validators.get(schema)
  if (byVersion === undefined) validators.set(schema, (byVersion = new Map()))
  let v = byVersion.get(version)
  if (v === undefined) byVersion.set(version, (v = new CRSchemaValidator(schema, { version })))
  return v
}

/**
 * Everything the apiserver does to a custom resource write before x-kubernetes-validations, on
 * copies of the inputs. `schema` is the CRD version's `openAPIV3Schema` (structural).
 */
export function validateStructure(
  schema: JSONSchemaProps | undefined,
  obj: unknown,
  options: StructureOptions = {},
): StructureResult {
  const operation: Operation = options.operation ?? (options.oldObject === undefined ? 'CREATE' : 'UPDATE')
  const version = options.version ?? DEFAULT_KUBE_VERSION
  const fieldValidation = options.fieldValidation ?? 'Warn'
  const minor = minorOf(version)
  const nullCreationTimestamp = minor < 34
  const decoded = decodeCustomResource(obj, schema, {
    returnUnknownFieldPaths: fieldValidation !== 'Ignore',
    nullCreationTimestamp,
  })
  const info0 = options.resource ?? infoFrom(isObject(obj) ? obj : {})
  if (decoded.error !== undefined || decoded.object === undefined) {
    return failed(decodeErrorMessage(info0.kind, info0.version, decoded.error ?? ''))
  }
  const object = decoded.object
  const warnings: string[] = []
  if (decoded.unknownFields.length > 0) {
    if (fieldValidation === 'Strict') {
      return failed(decodeErrorMessage(info0.kind, info0.version, strictDecodingError(decoded.unknownFields)))
    }
    if (fieldValidation === 'Warn') for (const f of decoded.unknownFields) warnings.push(`unknown field "${f}"`)
  }
  if (operation === 'CREATE' && needsNameGeneration(object.metadata)) {
    const m = object.metadata
    m.name = (options.generateName ?? SimpleNameGenerator)(m.generateName, object)
  }
  const info = options.resource ?? infoFrom(object)
  const nsError = enforceNamespace(object, info, options.namespace)
  if (nsError !== undefined) return failed(nsError, warnings)

  const schemaValidator = schema === undefined ? undefined : schemaValidatorFor(schema, version)
  const statusSchema = schema?.properties?.status
  const ctx: StrategyContext = {
    info,
    schema,
    schemaValidator,
    statusValidator: statusSchema === undefined ? undefined : schemaValidatorFor(statusSchema, version),
    scale: options.scale,
    minor,
    correlate: options.correlate,
  }

  let validated: PreCELValidation
  // rest.ValidateUpdate's own checks, ahead of the strategy's (and not part of its blocking test)
  let common: FieldError[] = []
  let oldObject: JSONObject | undefined
  let current = object
  if (operation === 'CREATE') {
    prepareForCreate(object, options.statusSubresource === true)
    validated = validateCreate(object, ctx)
  } else {
    const old = decodeCustomResource(options.oldObject ?? {}, schema, { ...FROM_STORAGE, nullCreationTimestamp })
    if (old.object === undefined) return failed(old.error ?? 'invalid old object', warnings)
    oldObject = old.object
    if (operation === 'UPDATE') {
      const o = oldObject
      beforeUpdate(object, o, () => prepareForUpdate(object, o, options.statusSubresource === true))
    } else {
      current = prepareForStatusUpdate(object, oldObject)
      beforeUpdate(current, oldObject, () => {})
    }
    common = validateCommonFields(current, oldObject, info, minor)
    validated =
      operation === 'UPDATE' ? validateUpdate(current, oldObject, ctx) : validateStatusUpdate(current, oldObject, ctx)
  }

  const errors = [...common, ...validated.errors]
  const hasRules = hasXValidations(schema)
  const blocked = blockingError(validated.errors)
  if (hasRules && blocked !== undefined) errors.push(blocked)
  // bad values printed as the target release prints them (before 1.34: Go syntax, "null")
  return {
    errors: withReleaseValues(errors, minor),
    warnings,
    ratcheted: withReleaseValues(validated.ratcheted, minor),
    object: current,
    oldObject,
    correlation: validated.correlation,
    runCEL: hasRules && blocked === undefined,
    errorsIfOtherwiseValid:
      operation === 'CREATE' ? withReleaseValues(validateCreateObjectMeta(current, info, minor), minor) : [],
    warningsIfValid: operation === 'UPDATE_STATUS' ? [] : finalizerWarnings(current, oldObject, minor),
  }
}
