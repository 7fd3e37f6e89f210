import { own, setOwn } from '../../kube/own-keys.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import { quantity } from '../validation/core/resources.js'

// The RuntimeClass admission plugin (kubernetes plugin/pkg/admission/runtimeclass/admission.go), on by
// default, for Pods on create: the named RuntimeClass's overhead copied into spec.overhead (a Pod giving a
// different one is refused), its scheduling nodeSelector merged into the Pod's (a conflicting value
// refused) and its tolerations merged (pkg/util/tolerations MergeTolerations); Validate then checks that the
// overhead is the class's. A name no RuntimeClass has is refused (prepareObjects).

/** prepareObjects' refusal of a class that does not exist. */
export const runtimeClassNotFound = (name: string): string => `pod rejected: RuntimeClass "${name}" not found`

const obj = (v: unknown): JSONObject | undefined => (isObject(v) ? v : undefined)

/** apiequality.Semantic.DeepEqual of two ResourceLists (quantities by value; nil and empty alike only when both). */
function sameResources(a: JSONObject | undefined, b: JSONObject | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false
    const qa = quantity(a[k])
    const qb = quantity(b[k])
    if (qa === undefined || qb === undefined ? a[k] !== b[k] : qa.cmp(qb) !== 0) return false
  }
  return true
}

/** The Pod's overhead as Go holds it: an empty map is nil after decoding through omitempty. */
const podOverhead = (spec: JSONObject): JSONObject | undefined => {
  const o = obj(spec.overhead)
  return o === undefined || Object.keys(o).length === 0 ? undefined : o
}

/** Admit: setOverhead then setScheduling, in place; the plugin's Forbidden text when it refuses. */
export function admitRuntimeClass(pod: JSONObject, rc: JSONObject): string | undefined {
  const spec = obj(pod.spec)
  if (spec === undefined) return undefined
  // setOverhead
  const overhead = obj(rc.overhead)
  if (overhead !== undefined) {
    const podFixed = obj(overhead.podFixed)
    const given = podOverhead(spec)
    if (given !== undefined && !sameResources(podFixed, given))
      return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
    if (podFixed === undefined) delete spec.overhead
    else spec.overhead = { ...podFixed }
  }
  // setScheduling
  const scheduling = obj(rc.scheduling)
  if (scheduling === undefined) return undefined
  const runtimeNodeSelector = obj(scheduling.nodeSelector)
  let nodeSelector = obj(spec.nodeSelector)
  if (nodeSelector === undefined)
    nodeSelector = runtimeNodeSelector === undefined ? undefined : { ...runtimeNodeSelector }
  else {
    nodeSelector = { ...nodeSelector }
    for (const key of Object.keys(runtimeNodeSelector ?? {})) {
      const value = own(runtimeNodeSelector, key)
      const podValue = own(nodeSelector, key)
      if (podValue !== undefined && podValue !== value)
        return `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(value)}; pod.spec.nodeSelector[${key}] = ${String(podValue)}`
      setOwn(nodeSelector, key, value)
    }
  }
  const first = Array.isArray(spec.tolerations) ? (spec.tolerations as unknown[]).filter(isObject) : []
  const second = Array.isArray(scheduling.tolerations) ? (scheduling.tolerations as unknown[]).filter(isObject) : []
  const merged = mergeTolerations(first, second)
  if (nodeSelector === undefined) delete spec.nodeSelector
  else spec.nodeSelector = nodeSelector
  if (merged.length === 0) delete spec.tolerations
  else spec.tolerations = merged
  return undefined
}

/** Validate (validateOverhead): the Pod's overhead must be the class's, or absent without one. */
export function validateRuntimeClass(pod: JSONObject, rc: JSONObject | undefined): string | undefined {
  const spec = obj(pod.spec) ?? {}
  const overhead = rc === undefined ? undefined : obj(rc.overhead)
  if (overhead !== undefined) {
    if (!sameResources(obj(overhead.podFixed), podOverhead(spec)))
      return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
  } else if (spec.overhead !== undefined && spec.overhead !== null)
    return 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'
  return undefined
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** apiequality.Semantic.DeepEqual of two tolerations. */
const sameToleration = (a: JSONObject, b: JSONObject): boolean =>
  str(a.key) === str(b.key) &&
  str(a.operator) === str(b.operator) &&
  str(a.value) === str(b.value) &&
  str(a.effect) === str(b.effect) &&
  a.tolerationSeconds === b.tolerationSeconds

/** pkg/util/tolerations isSuperset: whether `ss` tolerates everything `t` does. */
function isSuperset(ss: JSONObject, t: JSONObject): boolean {
  if (sameToleration(t, ss)) return true
  if (str(t.key) !== str(ss.key) && (str(ss.key) !== '' || str(ss.operator) !== 'Exists')) return false
  if (str(t.effect) !== str(ss.effect) && str(ss.effect) !== '') return false
  if (str(ss.effect) === 'NoExecute' && typeof ss.tolerationSeconds === 'number') {
    if (typeof t.tolerationSeconds !== 'number' || t.tolerationSeconds > ss.tolerationSeconds) return false
  }
  switch (str(ss.operator)) {
    case 'Equal':
    case '':
      return str(t.operator) === 'Equal' && str(t.value) === str(ss.value)
    case 'Exists':
      return true
    default:
      return false
  }
}

/** pkg/util/tolerations MergeTolerations: the two lists without the tolerations another one covers. */
export function mergeTolerations(first: readonly JSONObject[], second: readonly JSONObject[]): JSONObject[] {
  const all = [...first, ...second]
  const merged: JSONObject[] = []
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i] as JSONObject
    for (const t2 of merged) if (isSuperset(t2, t)) continue next
    for (const t2 of all.slice(i + 1)) if (!sameToleration(t, t2) && isSuperset(t2, t)) continue next
    merged.push(t)
  }
  return merged
}
