// Patches as kubectl makes them and the apiserver applies them: strategic merge patch
// (apimachinery pkg/util/strategicpatch), JSON merge patch (RFC 7386, jsonmergepatch), the patch meta
// of built-in kinds, and `kubectl apply`'s three-way patch.

export {
  type KubectlApplyInput,
  type KubectlApplyPatch,
  kubectlApplyPatch,
  LastAppliedConfigAnnotation,
  lastAppliedConfiguration,
  type PatchSchemaFor,
  withLastAppliedAnnotation,
} from './apply.js'
export { createMergePatch, createThreeWayJSONMergePatch, keepOrDeleteNullInObj, mergePatch } from './json-merge.js'
export {
  ConflictError,
  hasConflicts,
  PatchError,
  PreconditionFailedError,
  type PreconditionFunc,
  requireKeyUnchanged,
  requireMetadataKeyUnchanged,
} from './mergepatch.js'
export {
  builtinPatchMeta,
  builtinPatchMetaFromOpenAPIV3,
  builtinPatchSchemaFor,
  componentsResolver,
  type LookupPatchMeta,
  type PatchMeta,
  PatchMetaFromOpenAPIV3,
  PatchMetaFromStructSchema,
} from './patch-meta.js'
export {
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  type DiffOptions,
  mergeStrategicMergeMapPatches,
  mergingMapsHaveConflicts,
  sortMergeListsByName,
  strategicMergePatch,
  strategicMergePatchJSON,
} from './strategic-merge.js'
