import { hasConflicts, newErrConflict, newErrPreconditionFailed, type PreconditionFunc } from './mergepatch.js'
import { copyValue, del, get, has, isMap, type JSONMap, kindOf, set } from './values.js'

// JSON merge patch (RFC 7386) as kubectl and the apiserver run it for custom resources: applying one
// and creating one as gopkg.in/evanphx/json-patch.v4 does (merge.go MergePatch, CreateMergePatch), and
// kubectl apply's three-way patch (apimachinery pkg/util/jsonmergepatch CreateThreeWayJSONMergePatch):
// additions and changes from current → modified, deletions (nulls) from original → modified. Lists
// are values: a changed list is sent whole.

/** MergePatch: the patch applied to doc (json-patch v4 mergeDocs); neither argument is changed. */
export function mergePatch(doc: JSONMap, patch: JSONMap): JSONMap {
  const d = copyValue(doc)
  mergeDocs(d, copyValue(patch))
  return d
}

/** mergeDocs: each patch key into doc: null deletes, a map merges into a map, anything else replaces (its nested nulls pruned). */
function mergeDocs(doc: JSONMap, patch: JSONMap): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k]
    if (v === null) {
      del(doc, k)
      continue
    }
    const cur = get(doc, k)
    if (cur === undefined || cur === null) {
      pruneNulls(v)
      set(doc, k, v)
    } else set(doc, k, merge(cur, v))
  }
}

/** merge: a map patch merged into a map; a patch into anything else replaces it, nulls pruned; a non-map patch replaces as it is. */
function merge(cur: unknown, patch: unknown): unknown {
  if (!isMap(cur)) {
    pruneNulls(patch)
    return patch
  }
  if (!isMap(patch)) return patch
  mergeDocs(cur, patch)
  return cur
}

/** pruneNulls: null members of maps removed, at any depth (list items that are null stay). */
function pruneNulls(v: unknown): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) del(v, k)
      else pruneNulls(v[k])
    }
  } else if (Array.isArray(v)) for (const x of v) if (x !== null) pruneNulls(x)
}

/** matchesValue: encoding/json equality (every number a float64). */
function matchesValue(a: unknown, b: unknown): boolean {
  const ka = kindOf(a)
  const kb = kindOf(b)
  const num = (k: string) => k === 'int64' || k === 'float64'
  if (num(ka) && num(kb)) return Number(a) === Number(b)
  if (ka !== kb) return false
  switch (ka) {
    case 'map': {
      const x = a as JSONMap
      const y = b as JSONMap
      if (Object.keys(x).length !== Object.keys(y).length) return false
      for (const k of Object.keys(y)) if (!has(x, k) || !matchesValue(x[k], y[k])) return false
      return true
    }
    case 'slice': {
      const x = a as unknown[]
      const y = b as unknown[]
      if (x.length !== y.length) return false
      for (let i = 0; i < x.length; i++) if (!matchesValue(x[i], y[i])) return false
      return true
    }
    default:
      return a === b
  }
}

/** CreateMergePatch (getDiff): the merge patch turning original into modified. */
export function createMergePatch(original: JSONMap, modified: JSONMap): JSONMap {
  return getDiff(original, modified)
}

function getDiff(a: JSONMap, b: JSONMap): JSONMap {
  const into: JSONMap = {}
  for (const key of Object.keys(b)) {
    const bv = b[key]
    if (!has(a, key)) {
      set(into, key, copyValue(bv))
      continue
    }
    const av = a[key]
    const ka = kindOf(av)
    const kb = kindOf(bv)
    const sameType = ka === kb || ((ka === 'int64' || ka === 'float64') && (kb === 'int64' || kb === 'float64'))
    if (!sameType) {
      set(into, key, copyValue(bv))
      continue
    }
    if (ka === 'map') {
      const dst = getDiff(av as JSONMap, bv as JSONMap)
      if (Object.keys(dst).length > 0) set(into, key, dst)
    } else if (ka !== 'null' && !matchesValue(av, bv)) set(into, key, copyValue(bv))
  }
  for (const key of Object.keys(a)) if (!has(b, key)) set(into, key, null)
  return into
}

/**
 * keepOrDeleteNullInObj: with keepNull, only the nulls (deletions); without, everything but them
 * (additions and changes). An explicitly empty map is a value, not an empty patch.
 */
export function keepOrDeleteNullInObj(m: JSONMap, keepNull: boolean): JSONMap {
  const filtered: JSONMap = {}
  for (const key of Object.keys(m)) {
    const val = m[key]
    if (val === null) {
      if (keepNull) set(filtered, key, null)
      continue
    }
    if (isMap(val)) {
      if (Object.keys(val).length === 0) {
        if (!keepNull) set(filtered, key, val)
        continue
      }
      const sub = keepOrDeleteNullInObj(val, keepNull)
      if (Object.keys(sub).length !== 0) set(filtered, key, sub)
    } else if (!keepNull) set(filtered, key, val)
  }
  return filtered
}

/**
 * CreateThreeWayJSONMergePatch: kubectl apply's patch for a kind without strategic merge (custom
 * resources). A deletion that an addition or change contradicts is a ConflictError; a patch failing a
 * precondition a PreconditionFailedError.
 */
export function createThreeWayJSONMergePatch(
  original: JSONMap | null | undefined,
  modified: JSONMap | null | undefined,
  current: JSONMap | null | undefined,
  ...fns: PreconditionFunc[]
): JSONMap {
  const o = original ?? {}
  const m = modified ?? {}
  const c = current ?? {}
  const addAndChangePatch = keepOrDeleteNullInObj(getDiff(c, m), false)
  const deletePatch = keepOrDeleteNullInObj(getDiff(o, m), true)
  if (hasConflicts(addAndChangePatch, deletePatch)) throw newErrConflict(addAndChangePatch, deletePatch)
  const patch = copyValue(deletePatch)
  mergeDocs(patch, copyValue(addAndChangePatch))
  for (const fn of fns) if (!fn(patch)) throw newErrPreconditionFailed(patch)
  return patch
}
