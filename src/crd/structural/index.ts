// Structural (non-CEL) validation of custom resources: see structure.ts for the apiserver's order.

export { getObjectMeta, type ObjectMeta, setObjectMeta } from '../../kube/objectmeta-unstructured.js'
export { CorrelatedObject, type Correlation } from '../../kube/schema/correlation.js'
export { validateObjectMeta, validateObjectMetaUpdate } from '../../kube/validation/objectmeta.js'
export { coerce } from './coerce.js'
export { toOpenAPISchema } from './convert.js'
export type { ResourceInfo, ScaleSubresource } from './cr-validator.js'
export { applySchemaCoercer, decodeCustomResource, FROM_STORAGE } from './decode.js'
export { applyDefaults, pruneDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting.js'
export { kubeOpenAPIErrorsToFieldErrors } from './field-errors.js'
export { defaultFormats, supportedFormat } from './formats.js'
export { validateListSetsAndMaps } from './listtype.js'
export { validateEmbeddedResources, validateTypeMeta } from './objectmeta-validation.js'
export { prune } from './pruning.js'
export type { JSONSchemaProps } from './schema.js'
export {
  CRSchemaValidator,
  newSchemaValidator,
  validateCustomResource,
  validateCustomResourceUpdate,
} from './schema-validation.js'
export {
  beforeUpdate,
  blockingError,
  finalizerWarnings,
  hasXValidations,
  prepareForCreate,
  prepareForStatusUpdate,
  prepareForUpdate,
  validateCommonFields,
  validateCreate,
  validateCreateObjectMeta,
  validateStatusUpdate,
  validateUpdate,
} from './strategy.js'
export { type Operation, type StructureOptions, type StructureResult, validateStructure } from './structure.js'
