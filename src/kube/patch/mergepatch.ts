import { deepEqual } from '../values/json.js'
import { get, goTypeName, goV, isMap, type JSONMap, kindOf } from './values.js'

// apimachinery pkg/util/mergepatch: the errors both patch kinds raise (errors.go), the conflict check of
// the JSON merge three-way patch and the preconditions kubectl passes (util.go).

/** An error of the patch code; `message` is the Go error's text. */
export class PatchError extends Error {
  override name = 'PatchError'
}

/** mergepatch.ErrConflict: the patch overlaps changes made from original to current (overwrite off). */
export class ConflictError extends PatchError {
  override name = 'ConflictError'
}

/** mergepatch.ErrPreconditionFailed. */
export class PreconditionFailedError extends PatchError {
  override name = 'PreconditionFailedError'
}

export const ErrBadJSONDoc = 'invalid JSON document'
export const ErrNoListOfLists = 'lists of lists are not supported'
export const ErrBadPatchFormatForPrimitiveList = 'invalid patch format of primitive list'
export const ErrBadPatchFormatForRetainKeys = 'invalid patch format of retainKeys'
export const ErrBadPatchFormatForSetElementOrderList = 'invalid patch format of setElementOrder list'

export const errNoMergeKey = (m: JSONMap, k: string) =>
  new PatchError(`map: ${goV(m)} does not contain declared merge key: ${k}`)

/** ErrBadArgType(expected, actual): `expected a <type>, but received a <type>`. */
export const errBadArgType = (expected: string, actual: unknown) =>
  new PatchError(`expected a ${expected}, but received a ${goTypeName(actual)}`)

export const errBadPatchType = (t: unknown, m: JSONMap) =>
  new PatchError(
    `unknown patch type: ${typeof t === 'string' ? t : `%!s(${goTypeName(t)}=${goV(t)})`} in map: ${goV(m)}`,
  )

export function newErrPreconditionFailed(target: JSONMap): PreconditionFailedError {
  return new PreconditionFailedError(`precondition failed for: ${goV(target)}`)
}

/** NewErrConflict: both sides printed as YAML (sigs.k8s.io/yaml), here as JSON. */
export function newErrConflict(patch: unknown, current: unknown): ConflictError {
  return new ConflictError(
    `patch:\n${JSON.stringify(patch)}\nconflicts with changes made from original to current:\n${JSON.stringify(current)}\n`,
  )
}

/** A check a patch must pass (PreconditionFunc). */
export type PreconditionFunc = (patch: unknown) => boolean

/** RequireKeyUnchanged: the key is absent from the patch. */
export function requireKeyUnchanged(key: string): PreconditionFunc {
  return (patch) => !isMap(patch) || !Object.hasOwn(patch, key)
}

/** RequireMetadataKeyUnchanged: metadata.<key> is absent from the patch. */
export function requireMetadataKeyUnchanged(key: string): PreconditionFunc {
  return (patch) => {
    if (!isMap(patch)) return true
    const m = get(patch, 'metadata')
    return !isMap(m) || !Object.hasOwn(m, key)
  }
}

/**
 * HasConflicts: whether left and right overlap with different values at any key (JSON merge patch
 * semantics: lists compared item by item; int64 and float64 never equal).
 */
export function hasConflicts(left: unknown, right: unknown): boolean {
  switch (kindOf(left)) {
    case 'map': {
      if (!isMap(right)) return true
      const l = left as JSONMap
      for (const key of Object.keys(l)) {
        if (!Object.hasOwn(right, key)) continue
        if (hasConflicts(l[key], right[key])) return true
      }
      return false
    }
    case 'slice': {
      if (!Array.isArray(right)) return true
      const l = left as unknown[]
      if (l.length !== right.length) return true
      for (let i = 0; i < l.length; i++) if (hasConflicts(l[i], right[i])) return true
      return false
    }
    default:
      return !deepEqual(left, right)
  }
}
