import { deepEqual } from '../values/json.js'
import {
  ErrBadJSONDoc,
  ErrBadPatchFormatForPrimitiveList,
  ErrBadPatchFormatForRetainKeys,
  ErrBadPatchFormatForSetElementOrderList,
  ErrNoListOfLists,
  errBadArgType,
  errBadPatchType,
  errNoMergeKey,
  newErrConflict,
  newErrPreconditionFailed,
  PatchError,
  type PreconditionFunc,
} from './mergepatch.js'
import type { LookupPatchMeta } from './patch-meta.js'
import {
  compareGo,
  copyValue,
  del,
  get,
  goEqual,
  goV,
  has,
  isMap,
  type JSONMap,
  kindOf,
  scalarKey,
  set,
} from './values.js'

// Strategic merge patch (apimachinery pkg/util/strategicpatch patch.go): applying one
// (StrategicMergePatch), and creating one as kubectl apply does (CreateThreeWayMergePatch: additions and
// changes from current to modified, deletions from original to modified, the two merged) or as
// CreateTwoWayMergePatch does. Lists whose field has patch strategy `merge` are merged by their merge
// key (lists of maps) or as sets (lists of scalars); directives steer the rest: `$patch: replace |
// delete | merge`, `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>`, `$retainKeys`, and
// null deletes a key.
//
// Values are JSON data as apimachinery's json.Unmarshal gives them (numbers: an integral one is int64,
// see values.ts). Like the Go code, the functions below work on fresh copies (Go unmarshals the bytes
// per call) and mutate those copies; the exported entry points copy their arguments first.

const directiveMarker = '$patch'
const deleteDirective = 'delete'
const replaceDirective = 'replace'
const mergeDirective = 'merge'
const retainKeysStrategy = 'retainKeys'
const deleteFromPrimitiveListDirectivePrefix = '$deleteFromPrimitiveList'
const retainKeysDirective = `$${retainKeysStrategy}`
const setElementOrderDirectivePrefix = '$setElementOrder'

/** DiffOptions: what diffMaps reports. */
export interface DiffOptions {
  /** Emit `$setElementOrder` directives for merging lists (kubectl ≥ 1.7 sends them). */
  readonly setElementOrder?: boolean
  /** Report only deletions. */
  readonly ignoreChangesAndAdditions?: boolean
  /** Report only additions and changes. */
  readonly ignoreDeletions?: boolean
  /** Emit `$retainKeys` for this map (its field's strategy has retainKeys). */
  readonly buildRetainKeysDirective?: boolean
}

/** MergeOptions: applying a patch (parallel lists resolved, nulls dropped) or merging two patches. */
interface MergeOptions {
  /** Apply `$deleteFromPrimitiveList` / `$retainKeys` rather than keep them for a later application. */
  readonly mergeParallelList: boolean
  /** Drop nulls that match nothing (application); keep them (merging patches). */
  readonly ignoreUnmatchedNulls: boolean
}

type Kind = ReturnType<typeof kindOf>

// ── creating patches ────────────────────────────────────────────────────────────────────────────

/** CreateTwoWayMergeMapPatch: the patch turning original into modified. */
export function createTwoWayMergePatch(
  original: JSONMap | null | undefined,
  modified: JSONMap | null | undefined,
  schema: LookupPatchMeta,
  ...fns: PreconditionFunc[]
): JSONMap {
  const patch = diffMaps(copyValue(original ?? {}), copyValue(modified ?? {}), schema, { setElementOrder: true })
  for (const fn of fns) if (!fn(patch)) throw newErrPreconditionFailed(patch)
  return patch
}

/**
 * CreateThreeWayMergePatch: kubectl apply's patch. Additions and changes come from current → modified
 * (deletions ignored: what the server added stays), deletions from original → modified (only what the
 * last apply set is removed); the two are merged as patches. With overwrite false, a patch that
 * changes what someone else changed (original → current) is a ConflictError.
 */
export function createThreeWayMergePatch(
  original: JSONMap | null | undefined,
  modified: JSONMap | null | undefined,
  current: JSONMap | null | undefined,
  schema: LookupPatchMeta,
  overwrite = true,
  ...fns: PreconditionFunc[]
): JSONMap {
  const originalMap = copyValue(original ?? {})
  const modifiedMap = copyValue(modified ?? {})
  const currentMap = copyValue(current ?? {})
  const deltaMap = diffMaps(currentMap, modifiedMap, schema, { ignoreDeletions: true, setElementOrder: true })
  const deletionsMap = diffMaps(originalMap, modifiedMap, schema, {
    setElementOrder: true,
    ignoreChangesAndAdditions: true,
  })
  const patchMap = mergeMap(deletionsMap, deltaMap, schema, { mergeParallelList: false, ignoreUnmatchedNulls: false })
  for (const fn of fns) if (!fn(patchMap)) throw newErrPreconditionFailed(patchMap)
  if (!overwrite) {
    const changedMap = diffMaps(copyValue(original ?? {}), copyValue(current ?? {}), schema, {})
    if (mergingMapsHaveConflicts(patchMap, changedMap, schema)) throw newErrConflict(patchMap, changedMap)
  }
  return patchMap
}

/** diffMaps: the patch from original to modified, for the options' kinds of change. */
function diffMaps(original: JSONMap, modified: JSONMap, schema: LookupPatchMeta, opts: DiffOptions): JSONMap {
  const patch: JSONMap = {}
  const retainKeysList: unknown[] = []
  for (const key of Object.keys(modified)) {
    const modifiedValue = modified[key]
    if (opts.buildRetainKeysDirective && modifiedValue !== null) retainKeysList.push(key)
    if (!has(original, key)) {
      if (!opts.ignoreChangesAndAdditions) set(patch, key, modifiedValue)
      continue
    }
    const originalValue = original[key]
    if (key === directiveMarker) {
      // handleDirectiveMarker
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string')
        throw new PatchError(`invalid value for special key: ${directiveMarker}`)
      if (modifiedValue !== originalValue) set(patch, directiveMarker, modifiedValue)
      continue
    }
    const kind = kindOf(originalValue)
    if (kind !== kindOf(modifiedValue)) {
      if (!opts.ignoreChangesAndAdditions) set(patch, key, modifiedValue)
      continue
    }
    if (kind === 'map') handleMapDiff(key, originalValue as JSONMap, modifiedValue as JSONMap, patch, schema, opts)
    else if (kind === 'slice')
      handleSliceDiff(key, originalValue as unknown[], modifiedValue as unknown[], patch, schema, opts)
    else replacePatchFieldIfNotEqual(key, originalValue, modifiedValue, patch, opts)
  }
  // updatePatchIfMissing: keys gone from modified are deleted
  if (!opts.ignoreDeletions) for (const key of Object.keys(original)) if (!has(modified, key)) set(patch, key, null)
  if (retainKeysList.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified)))
    set(patch, retainKeysDirective, sortScalars(retainKeysList))
  return patch
}

function handleMapDiff(
  key: string,
  originalValue: JSONMap,
  modifiedValue: JSONMap,
  patch: JSONMap,
  schema: LookupPatchMeta,
  opts: DiffOptions,
): void {
  let subschema: LookupPatchMeta
  let strategies: readonly string[]
  try {
    const [s, meta] = schema.lookupPatchMetadataForStruct(key)
    subschema = s
    strategies = meta.patchStrategies
  } catch (e) {
    // an unknown field that did not change is no error
    if (deepEqual(originalValue, modifiedValue)) return
    throw e
  }
  const [retainKeys, patchStrategy] = extractRetainKeysPatchStrategy(strategies)
  if (patchStrategy === replaceDirective) {
    if (!opts.ignoreChangesAndAdditions) set(patch, key, modifiedValue)
    return
  }
  const patchValue = diffMaps(originalValue, modifiedValue, subschema, {
    ...opts,
    buildRetainKeysDirective: retainKeys,
  })
  if (Object.keys(patchValue).length > 0) set(patch, key, patchValue)
}

function handleSliceDiff(
  key: string,
  originalValue: unknown[],
  modifiedValue: unknown[],
  patch: JSONMap,
  schema: LookupPatchMeta,
  opts: DiffOptions,
): void {
  let subschema: LookupPatchMeta
  let strategies: readonly string[]
  let mergeKey: string
  try {
    const [s, meta] = schema.lookupPatchMetadataForSlice(key)
    subschema = s
    strategies = meta.patchStrategies
    mergeKey = meta.patchMergeKey
  } catch (e) {
    if (deepEqual(originalValue, modifiedValue)) return
    throw e
  }
  const [retainKeys, patchStrategy] = extractRetainKeysPatchStrategy(strategies)
  if (patchStrategy !== mergeDirective) {
    replacePatchFieldIfNotEqual(key, originalValue, modifiedValue, patch, opts)
    return
  }
  const [addList, deletionList, setOrderList] = diffLists(originalValue, modifiedValue, subschema, mergeKey, {
    ...opts,
    buildRetainKeysDirective: retainKeys,
  })
  if (addList.length > 0) set(patch, key, addList)
  if (deletionList.length > 0) set(patch, `${deleteFromPrimitiveListDirectivePrefix}/${key}`, deletionList)
  if (setOrderList.length > 0) set(patch, `${setElementOrderDirectivePrefix}/${key}`, setOrderList)
}

function replacePatchFieldIfNotEqual(
  key: string,
  original: unknown,
  modified: unknown,
  patch: JSONMap,
  opts: DiffOptions,
): void {
  if (opts.ignoreChangesAndAdditions) return
  if (deepEqual(original, modified)) return
  set(patch, key, modified)
}

function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists)
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map[string]interface {}', item)
      if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey)
    }
}

/** The value `index` compares: an item's merge key value (maps) or the item (scalars). */
const orderValue = (item: unknown, mergeKey: string, kind: Kind): unknown =>
  kind === 'map' ? (isMap(item) ? get(item, mergeKey) : undefined) : item

/** index(): the first position of the item's value in a list, by interface ==, as a lookup table. */
function indexer(list: readonly unknown[], mergeKey: string, kind: Kind): (item: unknown) => number {
  const at = new Map<string, number>()
  const keyOf = (v: unknown) => (v === undefined ? 'u' : scalarKey(v))
  for (let i = 0; i < list.length; i++) {
    const k = keyOf(orderValue(list[i], mergeKey, kind))
    if (!at.has(k)) at.set(k, i)
  }
  return (item) => at.get(keyOf(orderValue(item, mergeKey, kind))) ?? -1
}

/** normalizeElementOrder: patch items in the patch's order, server-only items in the server's, interleaved. */
function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: Kind,
): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind)
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind)
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind)
}

/** mergeSortedSlice: a server-only item goes first only when both are in the server's list and it comes earlier there. */
function mergeSortedSlice(
  left: unknown[],
  right: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: Kind,
): unknown[] {
  const index = indexer(serverOrder, mergeKey, kind)
  const out: unknown[] = []
  let i = 0
  let j = 0
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++])
    else if (j >= right.length) out.push(left[i++])
    else {
      const li = index(left[i])
      const ri = index(right[j])
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++])
      else out.push(right[j++])
    }
  }
  return out
}

/** extractToDeleteItems: the `$patch: delete` items apart. */
function extractToDeleteItems(l: unknown[]): [unknown[], unknown[]] {
  const nonDelete: unknown[] = []
  const toDelete: unknown[] = []
  for (const v of l) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v)
    if (has(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v)
    else nonDelete.push(v)
  }
  return [nonDelete, toDelete]
}

/**
 * normalizeSliceOrder: the list sorted stably by position in `order` (delete directives last). Go's
 * comparator calls two items ordered whenever either is missing from `order`; when all are present it
 * is a strict order and any stable sort agrees, otherwise sort.SliceStable's insertion sort is followed.
 */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: Kind): unknown[] {
  let toDelete: unknown[] = []
  let list = toSort
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order)
    ;[list, toDelete] = extractToDeleteItems(toSort)
  }
  const index = indexer(order, mergeKey, kind)
  const at = list.map(index)
  let sorted: unknown[]
  if (at.every((i) => i >= 0)) {
    sorted = list
      .map((v, i) => [v, at[i] as number] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([v]) => v)
  } else {
    // sort.SliceStable: insertion sort by blocks, less(i, j) true unless both are found and i ≥ j
    const items = list.map((v, i) => [v, at[i] as number] as const)
    const less = (a: readonly [unknown, number], b: readonly [unknown, number]) =>
      a[1] >= 0 && b[1] >= 0 ? a[1] < b[1] : true
    for (let i = 1; i < items.length; i++)
      for (let j = i; j > 0 && less(items[j] as never, items[j - 1] as never); j--) {
        const t = items[j] as readonly [unknown, number]
        items[j] = items[j - 1] as readonly [unknown, number]
        items[j - 1] = t
      }
    sorted = items.map(([v]) => v)
  }
  return [...sorted, ...toDelete]
}

/** diffLists: the patch list, the deletion list (scalars) and the `$setElementOrder` list of a merging list. */
function diffLists(
  original: unknown[],
  modified: unknown[],
  schema: LookupPatchMeta,
  mergeKey: string,
  opts: DiffOptions,
): [unknown[], unknown[], unknown[]] {
  if (original.length === 0) {
    if (modified.length === 0 || opts.ignoreChangesAndAdditions) return [[], [], []]
    return [modified, [], []]
  }
  const kind = sliceElementKind(original, modified)
  if (kind === 'map') {
    const [patchList0, deleteList] = diffListsOfMaps(original, modified, schema, mergeKey, opts)
    const patchList = [...normalizeSliceOrder(patchList0, modified, mergeKey, kind), ...deleteList]
    const orderSame = isOrderSame(original, modified, mergeKey)
    let setOrderList: unknown[] = []
    if (
      opts.setElementOrder &&
      ((!opts.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) ||
        (!opts.ignoreDeletions && patchList.length > 0))
    )
      setOrderList = modified.map((v) => {
        const m: JSONMap = {}
        set(m, mergeKey, get(v as JSONMap, mergeKey) ?? null)
        return m
      })
    return [patchList, [], setOrderList]
  }
  if (kind === 'slice') throw new PatchError(ErrNoListOfLists)
  const [add, deleteList] = diffListsOfScalars(original, modified, opts)
  const patchList = normalizeSliceOrder(add, modified, mergeKey, kind)
  let setOrderList: unknown[] = []
  if (
    opts.setElementOrder &&
    ((!opts.ignoreDeletions && deleteList.length > 0) ||
      (!opts.ignoreChangesAndAdditions && !deepEqual(original, modified)))
  )
    setOrderList = modified
  return [patchList, deleteList, setOrderList]
}

/** isOrderSame: the merge keys of both lists in the same order. */
function isOrderSame(original: unknown[], modified: unknown[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false
  for (let i = 0; i < modified.length; i++) if (!mergeKeyValueEqual(original[i], modified[i], mergeKey)) return false
  return true
}

/** diffListsOfScalars: additions and (deduplicated) deletions, walking both lists sorted by `%v`. */
function diffListsOfScalars(original: unknown[], modified: unknown[], opts: DiffOptions): [unknown[], unknown[]] {
  const originalScalars = sortScalars([...original])
  const modifiedScalars = sortScalars([...modified])
  const addList: unknown[] = []
  const deletionList: unknown[] = []
  let oi = 0
  let mi = 0
  while (oi < originalScalars.length || mi < modifiedScalars.length) {
    const oIn = oi < originalScalars.length
    const mIn = mi < modifiedScalars.length
    const os = oIn ? goV(originalScalars[oi]) : ''
    const ms = mIn ? goV(modifiedScalars[mi]) : ''
    const c = oIn && mIn ? compareGo(os, ms) : 0
    if (oIn && mIn && c === 0) {
      oi++
      mi++
    } else if (!oIn || c > 0) {
      if (!opts.ignoreChangesAndAdditions) addList.push(modifiedScalars[mi])
      mi++
    } else {
      if (!opts.ignoreDeletions) deletionList.push(originalScalars[oi])
      oi++
    }
  }
  return [addList, deduplicateScalars(deletionList)]
}

/** diffListsOfMaps: per merge key (both lists sorted by its `%v`), the item patches, additions and delete directives. */
function diffListsOfMaps(
  original: unknown[],
  modified: unknown[],
  schema: LookupPatchMeta,
  mergeKey: string,
  opts: DiffOptions,
): [unknown[], unknown[]] {
  const patch: unknown[] = []
  const deletionList: unknown[] = []
  const originalSorted = sortMergeListsByNameArray(original, schema, mergeKey, false)
  const modifiedSorted = sortMergeListsByNameArray(modified, schema, mergeKey, false)
  let oi = 0
  let mi = 0
  for (;;) {
    const oIn = oi < originalSorted.length
    const mIn = mi < modifiedSorted.length
    if (!oIn && !mIn) break
    let oElem: JSONMap | undefined
    let oKey: unknown
    let oStr = ''
    let mElem: JSONMap | undefined
    let mKey: unknown
    let mStr = ''
    if (oIn) {
      ;[oElem, oKey] = mapAndMergeKeyValue(originalSorted[oi], mergeKey)
      oStr = goV(oKey)
    }
    if (mIn) {
      ;[mElem, mKey] = mapAndMergeKeyValue(modifiedSorted[mi], mergeKey)
      mStr = goV(mKey)
    }
    const c = oIn && mIn ? compareGo(oStr, mStr) : 0
    if (oIn && mIn && c === 0) {
      const patchValue = diffMaps(oElem as JSONMap, mElem as JSONMap, schema, opts)
      if (Object.keys(patchValue).length > 0) {
        set(patchValue, mergeKey, mKey)
        patch.push(patchValue)
      }
      oi++
      mi++
    } else if (!oIn || c > 0) {
      // added to modified
      if (!opts.ignoreChangesAndAdditions) patch.push(mElem)
      mi++
    } else {
      // removed from modified
      if (!opts.ignoreDeletions) deletionList.push(createDeleteDirective(mergeKey, oKey))
      oi++
    }
  }
  return [patch, deletionList]
}

function mapAndMergeKeyValue(item: unknown, mergeKey: string): [JSONMap, unknown] {
  if (!isMap(item)) throw errBadArgType('map[string]interface {}', item)
  if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey)
  return [item, item[mergeKey]]
}

/** CreateDeleteDirective: `{<mergeKey>: value, $patch: delete}`. */
export function createDeleteDirective(mergeKey: string, mergeKeyValue: unknown): JSONMap {
  const m: JSONMap = {}
  set(m, mergeKey, mergeKeyValue)
  set(m, directiveMarker, deleteDirective)
  return m
}

function hasAdditionalNewField(original: JSONMap, modified: JSONMap): boolean {
  for (const k of Object.keys(original)) {
    if (original[k] === null) continue
    if (!has(modified, k)) return true
  }
  return false
}

// ── applying patches ────────────────────────────────────────────────────────────────────────────

/**
 * StrategicMergePatch (StrategicMergeMapPatchUsingLookupPatchMeta): the patch applied to original;
 * neither argument is changed.
 */
export function strategicMergePatch(
  original: JSONMap | null | undefined,
  patch: JSONMap | null | undefined,
  schema: LookupPatchMeta,
): JSONMap {
  return mergeMap(copyValue(original ?? {}), copyValue(patch ?? {}), schema, {
    mergeParallelList: true,
    ignoreUnmatchedNulls: true,
  })
}

/** StrategicMergePatch on JSON text (StrategicMergePatchUsingLookupPatchMeta): `invalid JSON document` for text that is not a JSON object. */
export function strategicMergePatchJSON(
  original: string | undefined,
  patch: string | undefined,
  schema: LookupPatchMeta,
): JSONMap {
  return strategicMergePatch(parseJSONMap(original), parseJSONMap(patch), schema)
}

/** handleUnmarshal: JSON text as a map (nil as `{}`). */
export function parseJSONMap(text: string | undefined): JSONMap {
  if (text === undefined) return {}
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    throw new PatchError(ErrBadJSONDoc)
  }
  if (v === null) return {}
  if (!isMap(v)) throw new PatchError(ErrBadJSONDoc)
  return v
}

/** MergeStrategicMergeMapPatchUsingLookupPatchMeta: patches merged into one (directives kept). */
export function mergeStrategicMergeMapPatches(schema: LookupPatchMeta, ...patches: JSONMap[]): JSONMap {
  let merged: JSONMap = {}
  for (const p of patches)
    merged = mergeMap(merged, copyValue(p), schema, { mergeParallelList: false, ignoreUnmatchedNulls: false })
  return merged
}

/** handleDirectiveInMergeMap: `$patch: replace` (the patch without it) or `delete` (empty). */
function handleDirectiveInMergeMap(directive: unknown, patch: JSONMap): JSONMap {
  if (directive === replaceDirective) {
    del(patch, directiveMarker)
    return patch
  }
  if (directive === deleteDirective) return {}
  throw errBadPatchType(directive, patch)
}

const containsDirectiveMarker = (item: unknown): boolean => isMap(item) && has(item, directiveMarker)

/** mergeKeyValueEqual: two items with equal merge key values (the items themselves without a key). */
function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right)
  if (!isMap(left)) throw errBadArgType('map[string]interface {}', left)
  if (!isMap(right)) throw errBadArgType('map[string]interface {}', right)
  if (!has(left, mergeKey)) throw errNoMergeKey(left, mergeKey)
  if (!has(right, mergeKey)) throw errNoMergeKey(right, mergeKey)
  return goEqual(left[mergeKey], right[mergeKey])
}

/** extractKey: the field a parallel-list directive names (`$setElementOrder/<field>`). */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/')
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListDirectivePrefix) throw new PatchError(ErrBadPatchFormatForPrimitiveList)
    if (prefix === setElementOrderDirectivePrefix) throw new PatchError(ErrBadPatchFormatForSetElementOrderList)
    throw new PatchError(`fail to find unknown prefix ${JSON.stringify(prefix)} in ${s}\n`)
  }
  return s.slice(slash + 1)
}

/** validatePatchWithSetOrderList: the patch list's items appear in the `$setElementOrder` list, in its order. */
function validatePatchWithSetOrderList(patchList: unknown, setOrderList: unknown, mergeKey: string): void {
  if (!Array.isArray(setOrderList)) throw new PatchError(ErrBadPatchFormatForSetElementOrderList)
  if (patchList !== undefined && !Array.isArray(patchList))
    throw new PatchError(ErrBadPatchFormatForSetElementOrderList)
  const typedPatchList = (patchList ?? []) as unknown[]
  if (setOrderList.length === 0 || typedPatchList.length === 0) return
  const nonDeleteList = mergeKey !== '' ? extractToDeleteItems(typedPatchList)[0] : typedPatchList
  let pi = 0
  let si = 0
  while (pi < nonDeleteList.length && si < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[pi])) {
      pi++
      continue
    }
    if (mergeKeyValueEqual(nonDeleteList[pi], setOrderList[si], mergeKey)) pi++
    si++
  }
  if (pi < nonDeleteList.length && si >= setOrderList.length)
    throw new PatchError(
      `The order in patch list:\n${goV(typedPatchList)}\n doesn't match ${setElementOrderDirectivePrefix} list:\n${goV(setOrderList)}\n`,
    )
}

/** applyRetainKeysDirective: keys not in `$retainKeys` are cleared from original (kept as a directive when merging patches). */
function applyRetainKeysDirective(original: JSONMap, patch: JSONMap, options: MergeOptions): void {
  if (!has(patch, retainKeysDirective)) return
  const retainKeysInPatch = patch[retainKeysDirective]
  del(patch, retainKeysDirective)
  if (!options.mergeParallelList) {
    // merging patches: both $retainKeys must agree
    if (has(original, retainKeysDirective)) {
      const inOriginal = original[retainKeysDirective]
      if (!deepEqual(inOriginal, retainKeysInPatch))
        throw new PatchError(
          `${goV(inOriginal)} and ${goV(retainKeysInPatch)} are not deep equal: this may happen when calculating the 3-way diff patch`,
        )
    } else set(original, retainKeysDirective, retainKeysInPatch)
    return
  }
  if (!Array.isArray(retainKeysInPatch)) throw new PatchError(ErrBadPatchFormatForRetainKeys)
  // the list's entries as a set; only strings can match a key
  const keep = new Set<string>()
  for (const v of retainKeysInPatch) {
    scalarKey(v)
    if (typeof v === 'string') keep.add(v)
  }
  for (const k of Object.keys(patch)) {
    const v = patch[k]
    if (
      v === null ||
      k.startsWith(deleteFromPrimitiveListDirectivePrefix) ||
      k.startsWith(setElementOrderDirectivePrefix)
    )
      continue
    if (!keep.has(k)) throw new PatchError(ErrBadPatchFormatForRetainKeys)
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) del(original, k)
}

/**
 * mergePatchIntoOriginal: each `$setElementOrder/<field>` directive applied with its list: the list
 * merged, then ordered by the directive (server-only items keep their relative places).
 */
function mergePatchIntoOriginal(original: JSONMap, patch: JSONMap, schema: LookupPatchMeta, opts: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderDirectivePrefix)) continue
    if (!has(patch, key)) continue
    const setElementOrderInPatch = patch[key]
    if (!opts.mergeParallelList) {
      if (has(original, key)) {
        if (!deepEqual(original[key], setElementOrderInPatch))
          throw new PatchError(ErrBadPatchFormatForSetElementOrderList)
      } else set(original, key, setElementOrderInPatch)
    }
    del(patch, key)
    if (!Array.isArray(setElementOrderInPatch)) throw errBadArgType('[]interface {}', setElementOrderInPatch)
    const typedSetElementOrderList = setElementOrderInPatch
    const originalKey = extractKey(key, setElementOrderDirectivePrefix)
    const foundOriginal = has(original, originalKey)
    const foundPatch = has(patch, originalKey)
    const originalList = get(original, originalKey)
    const patchList = get(patch, originalKey)
    let originalFieldValue: unknown[] = []
    let patchFieldValue: unknown[] | undefined
    if (foundOriginal) {
      if (!Array.isArray(originalList)) throw errBadArgType('[]interface {}', originalList)
      originalFieldValue = originalList
    }
    if (foundPatch) {
      if (!Array.isArray(patchList)) throw errBadArgType('[]interface {}', patchList)
      patchFieldValue = patchList
    }
    const [subschema, patchMeta] = schema.lookupPatchMetadataForSlice(originalKey)
    const [, patchStrategy] = extractRetainKeysPatchStrategy(patchMeta.patchStrategies)
    const mergeKey = patchMeta.patchMergeKey
    validatePatchWithSetOrderList(patchFieldValue, typedSetElementOrderList, mergeKey)

    let merged: unknown[]
    // the server order: the original list as Go still sees it through its slice header (below)
    let serverOrder = originalFieldValue
    if (foundOriginal && !foundPatch) merged = originalFieldValue
    else if (!foundOriginal && foundPatch) {
      const [v, keep] = removeDirectives(patchFieldValue)
      if (!keep) continue
      merged = v as unknown[]
    } else if (foundOriginal && foundPatch) {
      // mergeSlice deletes, replaces and appends in the list's backing array while capacity lasts,
      // and originalFieldValue is a header over that array: what it sees then decides the order
      // (patch_test.go "add map and delete map from merging list" depends on it)
      const backing = GoSlice.decoded(originalFieldValue)
      merged = mergeSliceHandler(backing, patchList, subschema, patchStrategy, mergeKey, false, opts)
      serverOrder = backing.viewOfOriginal(originalFieldValue.length)
    } else continue

    const [patchItems, serverOnlyItems] =
      mergeKey === ''
        ? partitionPrimitivesByPresentInList(merged, typedSetElementOrderList)
        : partitionMapsByPresentInList(merged, typedSetElementOrderList, mergeKey)
    const kind = sliceElementKind(originalFieldValue, patchFieldValue ?? [])
    set(
      original,
      originalKey,
      normalizeElementOrder(patchItems, serverOnlyItems, typedSetElementOrderList, serverOrder, mergeKey, kind),
    )
    del(patch, originalKey)
  }
}

function partitionPrimitivesByPresentInList(original: unknown[], partitionBy: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set(partitionBy.map(scalarKey))
  const patch: unknown[] = []
  const serverOnly: unknown[] = []
  for (const v of original) (inPatch.has(scalarKey(v)) ? patch : serverOnly).push(v)
  return [patch, serverOnly]
}

function partitionMapsByPresentInList(
  original: unknown[],
  partitionBy: unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const patch: unknown[] = []
  const serverOnly: unknown[] = []
  for (const v of original) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v)
    if (!has(v, mergeKey)) throw errNoMergeKey(v, mergeKey)
    const [, , found] = findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, v[mergeKey])
    ;(found ? patch : serverOnly).push(v)
  }
  return [patch, serverOnly]
}

/** removeDirectives: a value with every map holding `$patch` dropped (false: the value itself holds one). */
function removeDirectives(obj: unknown): [unknown, boolean] {
  if (isMap(obj)) {
    if (has(obj, directiveMarker)) return [null, false]
    for (const k of Object.keys(obj)) {
      const [v, keep] = removeDirectives(obj[k])
      if (keep) set(obj, k, v)
      else del(obj, k)
    }
    return [obj, true]
  }
  if (Array.isArray(obj)) {
    const res: unknown[] = []
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v)
      if (keep) res.push(nv)
    }
    return [res, true]
  }
  return [obj, true]
}

/** mergeMap: the patch merged into original (which it changes and returns). */
function mergeMap(original: JSONMap, patch: JSONMap, schema: LookupPatchMeta, opts: MergeOptions): JSONMap {
  if (has(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch)
  applyRetainKeysDirective(original, patch, opts)
  mergePatchIntoOriginal(original, patch, schema, opts)

  for (const key of Object.keys(patch)) {
    const patchV = patch[key]
    let k = key
    let isDeleteList = false
    // preprocessDeletionListForMerging
    if (key.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      if (!opts.mergeParallelList) {
        // merging patches: the directive is kept as it is
        set(original, key, patchV)
        continue
      }
      isDeleteList = true
      k = extractKey(key, deleteFromPrimitiveListDirectivePrefix)
    }

    if (patchV === null) {
      del(original, k)
      if (opts.ignoreUnmatchedNulls) continue
    }

    if (!has(original, k) || kindOf(original[k]) !== kindOf(patchV)) {
      // absent, or of another type: the patch value replaces it
      if (!isDeleteList) {
        if (opts.ignoreUnmatchedNulls) discardNullValuesFromPatch(patchV)
        const [v, ok] = removeDirectives(patchV)
        if (ok) set(original, k, v)
        else del(original, k)
      }
      continue
    }

    const originalV = original[k]
    switch (kindOf(originalV)) {
      case 'map': {
        const [subschema, patchMeta] = schema.lookupPatchMetadataForStruct(k)
        const [, patchStrategy] = extractRetainKeysPatchStrategy(patchMeta.patchStrategies)
        set(original, k, mergeMapHandler(originalV, patchV, subschema, patchStrategy, opts))
        break
      }
      case 'slice': {
        const [subschema, patchMeta] = schema.lookupPatchMetadataForSlice(k)
        const [, patchStrategy] = extractRetainKeysPatchStrategy(patchMeta.patchStrategies)
        const list = GoSlice.decoded(originalV as unknown[])
        set(
          original,
          k,
          mergeSliceHandler(list, patchV, subschema, patchStrategy, patchMeta.patchMergeKey, isDeleteList, opts),
        )
        break
      }
      default: {
        const [v, ok] = removeDirectives(patchV)
        if (ok) set(original, k, v)
        else del(original, k)
      }
    }
  }
  return original
}

/** discardNullValuesFromPatch: nulls are no deletions where nothing is to delete. */
function discardNullValuesFromPatch(patchV: unknown): void {
  if (isMap(patchV)) {
    for (const k of Object.keys(patchV)) {
      if (patchV[k] === null) del(patchV, k)
      else discardNullValuesFromPatch(patchV[k])
    }
  } else if (Array.isArray(patchV)) for (const v of patchV) discardNullValuesFromPatch(v)
}

function mergeMapHandler(
  original: unknown,
  patch: unknown,
  schema: LookupPatchMeta,
  fieldPatchStrategy: string,
  opts: MergeOptions,
): JSONMap {
  if (!isMap(original)) throw errBadArgType('map[string]interface {}', original)
  if (!isMap(patch)) throw errBadArgType('map[string]interface {}', patch)
  if (fieldPatchStrategy !== replaceDirective) return mergeMap(original, patch, schema, opts)
  return patch
}

function mergeSliceHandler(
  original: GoSlice,
  patch: unknown,
  schema: LookupPatchMeta,
  fieldPatchStrategy: string,
  fieldPatchMergeKey: string,
  isDeleteList: boolean,
  opts: MergeOptions,
): unknown[] {
  if (!Array.isArray(patch)) throw errBadArgType('[]interface {}', patch)
  if (fieldPatchStrategy === mergeDirective || isDeleteList)
    return mergeSlice(original, patch, schema, fieldPatchMergeKey, opts, isDeleteList)
  return patch
}

/** mergeSlice: a merging list patched: scalars as a set, maps by merge key; then ordered. */
function mergeSlice(
  list: GoSlice,
  patch: unknown[],
  schema: LookupPatchMeta,
  mergeKey: string,
  opts: MergeOptions,
  isDeleteList: boolean,
): unknown[] {
  let original = list.items()
  if (original.length === 0 && patch.length === 0) return original
  const kind = sliceElementKind(original, patch)
  let merged: unknown[]
  if (kind !== 'map') {
    if (opts.mergeParallelList && isDeleteList) return deleteFromSlice(original, patch)
    // both := append(original, patch...); deduplicateScalars(both) works in place
    const both = list.appended(patch)
    merged = both.arr.slice(0, deduplicateScalarsInPlace(both.arr, both.len))
  } else {
    if (mergeKey === '') throw new PatchError(`cannot merge lists without merge key for ${schema.name()}`)
    const [replace, rest] = mergeSliceWithSpecialElements(list, patch, mergeKey)
    if (replace) {
      // the patch's other items are the list
      original = rest
      patch = []
      merged = rest
    } else {
      original = list.items()
      patch = rest
      merged = mergeSliceWithoutSpecialElements(list, rest, mergeKey, schema, opts)
    }
  }
  const [patchItems, serverOnlyItems] =
    mergeKey === ''
      ? partitionPrimitivesByPresentInList(merged, patch)
      : partitionMapsByPresentInList(merged, patch, mergeKey)
  return normalizeElementOrder(patchItems, serverOnlyItems, patch, original, mergeKey, kind)
}

/**
 * mergeSliceWithSpecialElements: `$patch: delete` items deleted from the list (in its backing array,
 * as Go's append(s[:i], s[i+1:]...) does); returns whether `$patch: replace` was given, and the
 * patch's other items.
 */
function mergeSliceWithSpecialElements(list: GoSlice, patch: unknown[], mergeKey: string): [boolean, unknown[]] {
  const without: unknown[] = []
  let replace = false
  for (const v of patch) {
    const typedV = v as JSONMap
    if (!has(typedV, directiveMarker)) {
      without.push(v)
      continue
    }
    const patchType = typedV[directiveMarker]
    if (patchType === deleteDirective) {
      if (!has(typedV, mergeKey)) throw errNoMergeKey(typedV, mergeKey)
      for (;;) {
        const [, i, found] = findMapInSliceBasedOnKeyValue(list.items(), mergeKey, typedV[mergeKey])
        if (!found) break
        list.remove(i)
      }
    } else if (patchType === replaceDirective) replace = true
    else if (patchType === mergeDirective) throw new PatchError('merging lists cannot yet be specified in the patch')
    else throw errBadPatchType(patchType, typedV)
  }
  return [replace, without]
}

/** mergeSliceWithoutSpecialElements: each patch item merged into the item with its merge key, or appended. */
function mergeSliceWithoutSpecialElements(
  list: GoSlice,
  patch: unknown[],
  mergeKey: string,
  schema: LookupPatchMeta,
  opts: MergeOptions,
): unknown[] {
  let s = list
  for (const v of patch) {
    const typedV = v as JSONMap
    if (!has(typedV, mergeKey)) throw errNoMergeKey(typedV, mergeKey)
    const [originalMap, i, found] = findMapInSliceBasedOnKeyValue(s.items(), mergeKey, typedV[mergeKey])
    if (found) s.arr[i] = mergeMap(originalMap as JSONMap, typedV, schema, opts)
    else s = s.appended([v])
  }
  return s.items()
}

/** growslice's new capacity for a []interface{} (16-byte items) of capacity cap that must hold needed. */
function grownCap(cap: number, needed: number): number {
  let newcap = cap
  if (needed > cap * 2) newcap = needed
  else if (cap < 256) newcap = cap * 2
  else while (newcap < needed) newcap += Math.floor((newcap + 3 * 256) / 4)
  return Math.floor(roundupsize(newcap * 16) / 16)
}

/** The capacity json decoding leaves on a list of n items (append one at a time from empty). */
function decodedCap(n: number): number {
  let cap = 0
  while (cap < n) cap = grownCap(cap, cap + 1)
  return cap
}

// runtime/sizeclasses.go: the object sizes up to 32 KiB; larger allocations are whole 8 KiB pages
const SIZE_CLASSES = [
  16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576,
  640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144,
  6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576,
  27264, 28672, 32768,
]
function roundupsize(size: number): number {
  for (const c of SIZE_CLASSES) if (size <= c) return c
  return Math.ceil(size / 8192) * 8192
}

/**
 * A Go slice: a length over a backing array with a capacity. The strategic merge code appends to and
 * deletes from lists in place; another header over the same array (the caller's original list) sees
 * those writes, and the merged order depends on what it sees.
 */
class GoSlice {
  constructor(
    /** The backing array (its JS length may exceed len: items left beyond the header). */
    readonly arr: unknown[],
    public len: number,
    readonly cap: number,
  ) {}

  /** A list as apimachinery's json.Unmarshal leaves it: a copy of the items, the capacity of append growth. */
  static decoded(items: readonly unknown[]): GoSlice {
    return new GoSlice([...items], items.length, decodedCap(items.length))
  }

  items(): unknown[] {
    return this.arr.slice(0, this.len)
  }

  /** append(s, items...): in this array while capacity lasts, else in a new one. */
  appended(items: readonly unknown[]): GoSlice {
    const len = this.len + items.length
    if (len <= this.cap) {
      for (let i = 0; i < items.length; i++) this.arr[this.len + i] = items[i]
      return new GoSlice(this.arr, len, this.cap)
    }
    return new GoSlice([...this.items(), ...items], len, grownCap(this.cap, len))
  }

  /** s = append(s[:i], s[i+1:]...): the items after i move left in place; the last slot keeps its item. */
  remove(i: number): void {
    for (let j = i; j < this.len - 1; j++) this.arr[j] = this.arr[j + 1]
    this.len--
  }

  /** What a header of length n over this array sees now. */
  viewOfOriginal(n: number): unknown[] {
    return this.arr.slice(0, n)
  }
}

/** deleteFromSlice: `$deleteFromPrimitiveList` applied. */
function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const del = new Set(toDelete.map(scalarKey))
  return current.filter((v) => !del.has(scalarKey(v)))
}

function findMapInSliceBasedOnKeyValue(
  m: unknown[],
  key: string,
  value: unknown,
): [JSONMap | undefined, number, boolean] {
  for (let k = 0; k < m.length; k++) {
    const v = m[k]
    if (!isMap(v)) throw new PatchError(`value for key ${k} is not a map`)
    if (has(v, key) && goEqual(v[key], value)) return [v, k, true]
  }
  return [undefined, 0, false]
}

// ── sorting ─────────────────────────────────────────────────────────────────────────────────────

/** sortMergeListsByName: merging lists sorted by merge key (scalars deduplicated and sorted), directive lists sorted. */
export function sortMergeListsByName(m: JSONMap, schema: LookupPatchMeta): JSONMap {
  return sortMergeListsByNameMap(copyValue(m), schema)
}

function sortMergeListsByNameMap(s: JSONMap, schema: LookupPatchMeta): JSONMap {
  const newS: JSONMap = {}
  for (const k of Object.keys(s)) {
    let v = s[k]
    if (k === retainKeysDirective) {
      if (!Array.isArray(v)) throw new PatchError(ErrBadPatchFormatForRetainKeys)
      v = sortScalars(v)
    } else if (k.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      if (!Array.isArray(v)) throw new PatchError(ErrBadPatchFormatForPrimitiveList)
      v = sortScalars(v)
    } else if (k.startsWith(setElementOrderDirectivePrefix)) {
      if (!Array.isArray(v)) throw new PatchError(ErrBadPatchFormatForSetElementOrderList)
    } else if (k !== directiveMarker) {
      if (isMap(v)) {
        const [subschema] = schema.lookupPatchMetadataForStruct(k)
        v = sortMergeListsByNameMap(v, subschema)
      } else if (Array.isArray(v)) {
        const [subschema, patchMeta] = schema.lookupPatchMetadataForSlice(k)
        const [, patchStrategy] = extractRetainKeysPatchStrategy(patchMeta.patchStrategies)
        if (patchStrategy === mergeDirective) v = sortMergeListsByNameArray(v, subschema, patchMeta.patchMergeKey, true)
      }
    }
    set(newS, k, v)
  }
  return newS
}

function sortMergeListsByNameArray(
  s: unknown[],
  schema: LookupPatchMeta,
  mergeKey: string,
  recurse: boolean,
): unknown[] {
  if (s.length === 0) return s
  const kind = sliceElementKind(s)
  if (kind !== 'map') return sortScalars(deduplicateScalars([...s]))
  const newS = s.map((elem) => (recurse ? sortMergeListsByNameMap(elem as JSONMap, schema) : elem))
  return sortMapsBasedOnField(newS, mergeKey)
}

/** sortMapsBasedOnField: by the `%v` of the field (stable; Go's sort.Sort leaves equal keys unordered). */
function sortMapsBasedOnField(m: unknown[], fieldName: string): unknown[] {
  return m
    .map((v) => [v, goV(get(v as JSONMap, fieldName) ?? null)] as const)
    .sort((a, b) => compareGo(a[1], b[1]))
    .map(([v]) => v)
}

/** sortScalars: by `%v` (a new list). */
function sortScalars(s: unknown[]): unknown[] {
  return s
    .map((v) => [v, goV(v)] as const)
    .sort((a, b) => compareGo(a[1], b[1]))
    .map(([v]) => v)
}

/** deduplicateScalars, on a copy. */
function deduplicateScalars(list: unknown[]): unknown[] {
  const s = [...list]
  s.length = deduplicateScalarsInPlace(s, s.length)
  return s
}

/** deduplicateScalars: Go's in-place removal (a duplicate is overwritten by the last item) over s[0:n); the new length. */
function deduplicateScalarsInPlace(s: unknown[], n: number): number {
  let length = n - 1
  for (let i = 0; i < length; i++)
    for (let j = i + 1; j <= length; j++)
      if (goEqual(s[i], s[j])) {
        s[j] = s[length]
        length--
        j--
      }
  return length + 1
}

/** sliceElementType: the one kind of all the lists' items; lists of lists and mixed kinds are errors. */
function sliceElementKind(...slices: unknown[][]): Kind {
  let prev: Kind | undefined
  for (const s of slices)
    for (const v of s) {
      const k = kindOf(v)
      if (prev === undefined) {
        prev = k
        if (k === 'slice') throw new PatchError(ErrNoListOfLists)
      } else if (prev !== k)
        throw new PatchError(`list element types are not identical: [${slices.map((x) => goV(x)).join(' ')}]`)
    }
  if (prev === undefined) throw new PatchError('no elements in any of the given slices')
  return prev
}

/** extractRetainKeysPatchStrategy: [retainKeys, the other strategy]. */
function extractRetainKeysPatchStrategy(strategies: readonly string[]): [boolean, string] {
  switch (strategies.length) {
    case 0:
      return [false, '']
    case 1:
      return strategies[0] === retainKeysStrategy ? [true, ''] : [false, strategies[0] as string]
    case 2:
      if (strategies[0] === retainKeysStrategy) return [true, strategies[1] as string]
      if (strategies[1] === retainKeysStrategy) return [true, strategies[0] as string]
  }
  throw new PatchError(`unexpected patch strategy: [${strategies.join(' ')}]`)
}

// ── conflicts ───────────────────────────────────────────────────────────────────────────────────

/** MergingMapsHaveConflicts: whether two patches change the same field differently. */
export function mergingMapsHaveConflicts(left: JSONMap, right: JSONMap, schema: LookupPatchMeta): boolean {
  return mergingMapFieldsHaveConflicts(left, right, schema, '', '')
}

function mergingMapFieldsHaveConflicts(
  left: unknown,
  right: unknown,
  schema: LookupPatchMeta | undefined,
  fieldPatchStrategy: string,
  fieldPatchMergeKey: string,
): boolean {
  switch (kindOf(left)) {
    case 'map': {
      if (!isMap(right)) return true
      const l = left as JSONMap
      const okLeft = has(l, directiveMarker)
      const okRight = has(right, directiveMarker)
      if (okLeft || okRight) {
        if (okLeft !== okRight) return true
        if (!goEqual(l[directiveMarker], right[directiveMarker])) return true
      }
      if (fieldPatchStrategy === replaceDirective) return false
      return mapsHaveConflicts(l, right, schema)
    }
    case 'slice':
      if (!Array.isArray(right)) return true
      return slicesHaveConflicts(left as unknown[], right, schema, fieldPatchStrategy, fieldPatchMergeKey)
    default:
      return !deepEqual(left, right)
  }
}

function mapsHaveConflicts(typedLeft: JSONMap, typedRight: JSONMap, schema: LookupPatchMeta | undefined): boolean {
  for (const key of Object.keys(typedLeft)) {
    if (key === directiveMarker || key === retainKeysDirective || !has(typedRight, key)) continue
    const leftValue = typedLeft[key]
    let subschema: LookupPatchMeta | undefined
    let patchStrategy = ''
    let mergeKey = ''
    if (Array.isArray(leftValue) || isMap(leftValue)) {
      const [s, meta] = Array.isArray(leftValue)
        ? (schema as LookupPatchMeta).lookupPatchMetadataForSlice(key)
        : (schema as LookupPatchMeta).lookupPatchMetadataForStruct(key)
      subschema = s
      ;[, patchStrategy] = extractRetainKeysPatchStrategy(meta.patchStrategies)
      mergeKey = meta.patchMergeKey
    }
    if (mergingMapFieldsHaveConflicts(leftValue, typedRight[key], subschema, patchStrategy, mergeKey)) return true
  }
  return false
}

function slicesHaveConflicts(
  typedLeft: unknown[],
  typedRight: unknown[],
  schema: LookupPatchMeta | undefined,
  fieldPatchStrategy: string,
  fieldPatchMergeKey: string,
): boolean {
  const kind = sliceElementKind(typedLeft, typedRight)
  if (fieldPatchStrategy === mergeDirective) {
    if (kind !== 'map') return false
    const leftMap = sliceOfMapsToMapOfMaps(typedLeft, fieldPatchMergeKey)
    const rightMap = sliceOfMapsToMapOfMaps(typedRight, fieldPatchMergeKey)
    for (const key of Object.keys(leftMap))
      if (has(rightMap, key) && mergingMapFieldsHaveConflicts(leftMap[key], rightMap[key], schema, '', '')) return true
    return false
  }
  if (typedLeft.length !== typedRight.length) return true
  let l = typedLeft
  let r = typedRight
  if (kind !== 'map') {
    l = sortScalars(deduplicateScalars(l))
    r = sortScalars(deduplicateScalars(r))
  }
  for (let i = 0; i < l.length; i++) if (mergingMapFieldsHaveConflicts(l[i], r[i], schema, '', '')) return true
  return false
}

function sliceOfMapsToMapOfMaps(slice: unknown[], mergeKey: string): JSONMap {
  const result: JSONMap = {}
  for (const value of slice) {
    if (!isMap(value)) throw new PatchError(`invalid element type in merging list:${goV(slice)}`)
    if (!has(value, mergeKey))
      throw new PatchError(`cannot find merge key \`${mergeKey}\` in merging list element:${goV(value)}`)
    set(result, goV(value[mergeKey]), value)
  }
  return result
}
