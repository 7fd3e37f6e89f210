// The Namespaces a set answers with: the ones given, else (namespaces `assume`) one that exists with only
// the label every namespace carries. What the namespaceSelector and `namespaceObject` read of them.

import { isObject, type JSONObject } from '../kube/values/json.js'
import type { NamespaceInfo } from '../policy/matching/namespace.js'
import { metaOf } from './objects.js'

const assumed = new Map<string, JSONObject>()

/** What the namespaceSelector reads of a Namespace object, one per object (the objects are not changed). */
const namespaceInfos = new WeakMap<JSONObject, NamespaceInfo>()
export function namespaceInfo(ns: JSONObject): NamespaceInfo {
  let info = namespaceInfos.get(ns)
  if (info === undefined)
    namespaceInfos.set(ns, (info = { labels: (metaOf(ns).labels ?? {}) as Record<string, string> }))
  return info
}

/**
 * A given Namespace as the cluster holds it: with the `kubernetes.io/metadata.name` label SetDefaults_Namespace
 * sets to its name (kubernetes pkg/apis/core/v1/defaults.go), whatever the manifest says, so a binding selecting
 * namespaces by name matches. A copy: the input object is not changed.
 */
export function namespaceAsStored(ns: JSONObject, name: string): JSONObject {
  const meta = metaOf(ns)
  if (isObject(meta.labels) && Object.hasOwn(meta.labels, LABEL) && meta.labels[LABEL] === name) return ns
  const labels: JSONObject = Object.create(null)
  if (isObject(meta.labels)) for (const k of Object.keys(meta.labels)) labels[k] = meta.labels[k]
  labels[LABEL] = name
  return { ...ns, metadata: { ...meta, labels } }
}
const LABEL = 'kubernetes.io/metadata.name'

/** A namespace not given: existing, with the label the apiserver puts on every namespace (one object per name). */
export function assumedNamespace(name: string): JSONObject {
  let ns = assumed.get(name)
  if (ns === undefined) {
    if (assumed.size > 10_000) assumed.clear()
    assumed.set(name, (ns = assumedNamespaceObject(name)))
  }
  return ns
}

function assumedNamespaceObject(name: string): JSONObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }
}

/**
 * The Namespace object of a name: the given one, else an assumed one (undefined when `strict`: a cluster
 * without it answers NotFound).
 */
export function namespaceObjectOf(
  given: ReadonlyMap<string, JSONObject>,
  strict: boolean,
): (name: string) => JSONObject | undefined {
  return (name) => given.get(name) ?? (strict ? undefined : assumedNamespace(name))
}

/**
 * The matcher's namespace lookup. Every binding's namespaceSelector of a request asks for the same
 * namespace: the last answer is kept (the set's namespaces never change, and an assumed one is the same
 * for a name).
 */
export function namespaceLookup(
  given: ReadonlyMap<string, JSONObject>,
  strict: boolean,
): (name: string) => NamespaceInfo | undefined {
  let last: { name: string; info: NamespaceInfo | undefined } | undefined
  return (name: string) => {
    if (last?.name === name) return last.info
    const ns = given.get(name) ?? (strict ? undefined : assumedNamespace(name))
    last = { name, info: ns === undefined ? undefined : namespaceInfo(ns) }
    return last.info
  }
}
