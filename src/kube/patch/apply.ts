import { goJSON } from '../field.js'
import type { GroupVersionKind } from '../gvk.js'
import { createThreeWayJSONMergePatch, mergePatch } from './json-merge.js'
import { ErrBadJSONDoc, PatchError, requireKeyUnchanged, requireMetadataKeyUnchanged } from './mergepatch.js'
import type { LookupPatchMeta } from './patch-meta.js'
import { createThreeWayMergePatch, strategicMergePatch } from './strategic-merge.js'
import { copyValue, del, get, isMap, type JSONMap, set } from './values.js'

// The patch `kubectl apply` (client-side) sends for an object that exists (kubectl pkg/cmd/apply
// patcher.go patchSimple): the three-way patch of original (the last-applied-configuration annotation
// of the stored object), modified (the new manifest, carrying its own last-applied annotation:
// kubectl pkg/util apply.go GetModifiedConfiguration) and current (the object as stored); a strategic
// merge patch when the kind has one (built-in kinds: their OpenAPI document accepts
// application/strategic-merge-patch+json), else a JSON merge patch whose preconditions keep
// apiVersion, kind and metadata.name. A patch `{}` is kubectl's `unchanged`: nothing is sent, no
// admission runs. `result` is what the apiserver stores before admission and validation: the patch
// applied to current (strategic: StrategicMergeMapPatch; JSON: json-patch MergePatch).

export const LastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration'

/** How a kind is patched: its strategic patch meta, or undefined (JSON merge patch: custom resources). */
export type PatchSchemaFor = (gvk: GroupVersionKind) => LookupPatchMeta | undefined

export interface KubectlApplyInput {
  /**
   * The last applied configuration: the annotation's text (JSON), or the manifest last applied (its
   * annotation is then computed as kubectl wrote it). undefined: the stored object has no annotation
   * (made by `kubectl create`): nothing is deleted.
   */
  readonly lastApplied: string | JSONMap | undefined
  /** The manifest being applied (as read, without the annotation; a namespace kubectl defaulted included). */
  readonly modified: JSONMap
  /** The object as stored (with the annotation the last apply stored). */
  readonly current: JSONMap
  readonly gvk: GroupVersionKind
  readonly schemaFor: PatchSchemaFor
  /** kubectl apply --overwrite (default true): with false, a patch conflicting with changes made since the last apply is a ConflictError. */
  readonly overwrite?: boolean
}

export interface KubectlApplyPatch {
  readonly patch: JSONMap
  readonly patchType: 'strategic' | 'merge'
  /** The patch is `{}`: kubectl prints `<kind>/<name> unchanged` and sends nothing. */
  readonly unchanged: boolean
  /** The patch applied to current (current itself when unchanged). */
  readonly result: JSONMap
  /** The modified object kubectl diffed: the manifest with its last-applied annotation. */
  readonly modified: JSONMap
}

/**
 * The last-applied-configuration annotation kubectl writes for a manifest (GetModifiedConfiguration
 * with annotate=false, unstructured.UnstructuredJSONScheme): the object with the annotation removed
 * (and `metadata.annotations` set, `{}` when it held nothing else), as Go's json.Encoder writes a
 * map: compact, keys sorted, `<`, `>`, `&` escaped, then a newline.
 */
export function lastAppliedConfiguration(manifest: JSONMap): string {
  return `${goJSON(withoutLastApplied(manifest))}\n`
}

/** The object with metadata.annotations holding every string annotation but the last-applied one (GetAnnotations / SetAnnotations of unstructured). */
function withoutLastApplied(manifest: JSONMap): JSONMap {
  const obj = copyValue(manifest)
  let metadata = get(obj, 'metadata')
  if (!isMap(metadata)) {
    metadata = {}
    set(obj, 'metadata', metadata)
  }
  const m = metadata as JSONMap
  const current = get(m, 'annotations')
  // NestedStringMap: annotations that are not all strings read as none
  const annots: JSONMap =
    isMap(current) && Object.values(current).every((v) => typeof v === 'string') ? copyValue(current) : {}
  del(annots, LastAppliedConfigAnnotation)
  set(m, 'annotations', annots)
  return obj
}

/**
 * GetModifiedConfiguration(annotate=true): the manifest with its own last-applied annotation, the
 * object kubectl creates on a first apply and diffs on later ones.
 */
export function withLastAppliedAnnotation(manifest: JSONMap): JSONMap {
  const obj = withoutLastApplied(manifest)
  const text = `${goJSON(obj)}\n`
  set((obj['metadata'] as JSONMap)['annotations'] as JSONMap, LastAppliedConfigAnnotation, text)
  return obj
}

/** The original configuration: the annotation's JSON, or the manifest's annotation form. */
function originalOf(lastApplied: string | JSONMap | undefined): JSONMap | undefined {
  if (lastApplied === undefined) return undefined
  if (typeof lastApplied !== 'string') return JSON.parse(lastAppliedConfiguration(lastApplied)) as JSONMap
  let v: unknown
  try {
    v = JSON.parse(lastApplied)
  } catch {
    throw new PatchError(ErrBadJSONDoc)
  }
  if (v !== null && !isMap(v)) throw new PatchError(ErrBadJSONDoc)
  return v ?? undefined
}

/** The patch kubectl apply sends for `modified` over the stored `current`, and what it makes of it. */
export function kubectlApplyPatch(input: KubectlApplyInput): KubectlApplyPatch {
  const original = originalOf(input.lastApplied)
  const modified = withLastAppliedAnnotation(input.modified)
  const meta = input.schemaFor(input.gvk)
  if (meta !== undefined) {
    const patch = createThreeWayMergePatch(original, modified, input.current, meta, input.overwrite ?? true)
    const unchanged = Object.keys(patch).length === 0
    const result = unchanged ? copyValue(input.current) : strategicMergePatch(input.current, patch, meta)
    return { patch, patchType: 'strategic', unchanged, result, modified }
  }
  // buildMergePatch: overwrite is not consulted for JSON merge patches
  const patch = createThreeWayJSONMergePatch(
    original,
    modified,
    input.current,
    requireKeyUnchanged('apiVersion'),
    requireKeyUnchanged('kind'),
    requireMetadataKeyUnchanged('name'),
  )
  const unchanged = Object.keys(patch).length === 0
  const result = unchanged ? copyValue(input.current) : mergePatch(input.current, patch)
  return { patch, patchType: 'merge', unchanged, result, modified }
}
