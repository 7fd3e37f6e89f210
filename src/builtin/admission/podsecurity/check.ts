import { compareStrings } from '../../../cel/values/strings.js'
import { own } from '../../../kube/own-keys.js'
import { isObject, type JSONObject } from '../../../kube/values/json.js'
import type { Level } from './api.js'

// What a check is and answers (k8s.io/pod-security-admission policy/checks.go), and the helpers the checks
// share (policy/helpers.go, policy/visitor.go). A check reads the pod's metadata and spec as the apiserver
// decoded them (v1 JSON: a field left out is Go's nil or zero value).

export interface CheckResult {
  readonly allowed: boolean
  readonly forbiddenReason?: string
  readonly forbiddenDetail?: string
}

export const ALLOWED: CheckResult = Object.freeze({ allowed: true })

export type CheckPodFn = (podMetadata: JSONObject, podSpec: JSONObject) => CheckResult

export interface VersionedCheck {
  /** The first v1 minor the implementation applies to. */
  readonly minimumVersion: number
  readonly checkPod: CheckPodFn
  /** Baseline checks this restricted one replaces at its versions. */
  readonly overrideCheckIDs?: readonly string[]
}

export interface Check {
  readonly id: string
  readonly level: Exclude<Level, 'privileged'>
  readonly versions: readonly VersionedCheck[]
}

export interface AggregateCheckResult {
  readonly allowed: boolean
  readonly forbiddenReasons: readonly string[]
  readonly forbiddenDetails: readonly string[]
}

const UnknownForbiddenReason = 'unknown forbidden reason'

/** AggregateCheckResults: the failed checks' reasons and details, in evaluation order. */
export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const reasons: string[] = []
  const details: string[] = []
  for (const r of results) {
    if (r.allowed) continue
    reasons.push(r.forbiddenReason || UnknownForbiddenReason)
    details.push(r.forbiddenDetail ?? '')
  }
  return { allowed: reasons.length === 0, forbiddenReasons: reasons, forbiddenDetails: details }
}

/** AggregateCheckResult.ForbiddenReason: the reasons joined. */
export const forbiddenReason = (a: AggregateCheckResult): string => a.forbiddenReasons.join(', ')

/** AggregateCheckResult.ForbiddenDetail: `reason (detail), reason (detail), …` (no parentheses for an empty detail). */
export function forbiddenDetail(a: AggregateCheckResult): string {
  return a.forbiddenReasons
    .map((r, i) => {
      const d = a.forbiddenDetails[i] ?? ''
      return d === '' ? r : `${r} (${d})`
    })
    .join(', ')
}

/** joinQuote: `"a", "b"` (Go's %s of the raw names: no escaping). */
export const joinQuote = (items: readonly string[]): string => (items.length === 0 ? '' : `"${items.join('", "')}"`)

export const pluralize = (singular: string, plural: string, count: number): string => (count === 1 ? singular : plural)

/** sets.String.List(): the distinct values in Go's string order. */
export const sortedSet = (s: ReadonlySet<string>): string[] => [...s].sort(compareStrings)

/** A field of a decoded object when it is an object (Go: a non-nil pointer to a struct). */
export function obj(o: unknown, key: string): JSONObject | undefined {
  const v = isObject(o) ? own(o as JSONObject, key) : undefined
  return isObject(v) ? (v as JSONObject) : undefined
}

/** A list field's object items. */
export function items(o: unknown, key: string): JSONObject[] {
  const v = isObject(o) ? own(o as JSONObject, key) : undefined
  return Array.isArray(v) ? (v.filter(isObject) as JSONObject[]) : []
}

/** A string field ('' when absent: Go's zero value). */
export function str(o: unknown, key: string): string {
  const v = isObject(o) ? own(o as JSONObject, key) : undefined
  return typeof v === 'string' ? v : ''
}

/** A *bool / *int64 / *string field: undefined when absent or null (nil). */
export function ptr(o: unknown, key: string): unknown {
  const v = isObject(o) ? own(o as JSONObject, key) : undefined
  return v === null ? undefined : v
}

/** A container's name. */
export const nameOf = (c: JSONObject): string => str(c, 'name')

/** visitContainers: init containers, containers, then ephemeral containers. */
export function visitContainers(podSpec: JSONObject, visitor: (container: JSONObject) => void): void {
  for (const c of items(podSpec, 'initContainers')) visitor(c)
  for (const c of items(podSpec, 'containers')) visitor(c)
  for (const c of items(podSpec, 'ephemeralContainers')) visitor(c)
}

/** relaxPolicyForUserNamespacePod: hostUsers set to false (a pod in a user namespace). */
export const relaxPolicyForUserNamespacePod = (podSpec: JSONObject): boolean => ptr(podSpec, 'hostUsers') === false

/** podSpec.OS != nil && podSpec.OS.Name == corev1.Windows. */
export const isWindowsPod = (podSpec: JSONObject): boolean => str(obj(podSpec, 'os'), 'name') === 'windows'

/** A pod's annotations, own keys only. */
export function annotationsOf(podMetadata: JSONObject): JSONObject {
  return obj(podMetadata, 'annotations') ?? {}
}
