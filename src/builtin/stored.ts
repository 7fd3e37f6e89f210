import { isObject as isObj, type JSONObject } from '../kube/values/json.js'
import { admitServiceAccount } from './admission/serviceaccount.js'
import { decodeBuiltin, marshalBuiltin } from './index.js'
import { groupKindOf, type PrepareOptions, preparedForCreate, preparedForUpdate, RESET_STATUS } from './prepared.js'

// A built-in object as a create or update stores it (what `kubectl apply --dry-run=server -o yaml` prints, for
// `kelp check -o yaml`; kubernetes v1.37.2): the object validating admission saw (prepared.ts: the handler's and
// the store's preparation, the kinds' PrepareForCreate / PrepareForUpdate), without the server's random uid and
// creationTimestamp, read back through the storage codec (protobuf has no empty-but-set list or map: every empty
// list or map is nil, so omitted, or null where the field is not omitempty: `rules: null` for a Role given
// `rules: []`). A Pod given here without the engine's admission gets the default mutating plugins, in the
// namespace's default ServiceAccount without settings of its own and with no PriorityClass in the cluster
// (plugin/pkg/admission): ServiceAccount (serviceAccountName default, the kube-api-access-<random> projected token
// volume mounted in every container; the random suffix is `00000` here), Priority (priority 0 and
// PreemptLowerPriority without a class; the two system classes), DefaultTolerationSeconds (the not-ready and
// unreachable NoExecute tolerations, 300 s).
// Not done (docs/known-differences.md): the rest of a Pod's PrepareForCreate (the scheduling gates' condition, …)
// and the autoscaling/v1 conversion annotations.

/** The suffix kelp gives the token volume (the plugin's is 5 random characters of utilrand's alphabet, never 0). */
export const TOKEN_VOLUME_PLACEHOLDER = 'kube-api-access-00000'
const SYSTEM_PRIORITY: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
}

/**
 * The Priority and DefaultTolerationSeconds admission plugins on a Pod's spec (in place); the
 * ServiceAccount one is src/builtin/admission/serviceaccount.ts (the engine runs it before the policies).
 */
function podAdmission(spec: JSONObject): void {
  const list = (k: string): unknown[] => (Array.isArray(spec[k]) ? (spec[k] as unknown[]) : [])
  // Priority (priority/admission.go admitPod: no default class in the cluster)
  const cls = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : ''
  if (cls === '' || SYSTEM_PRIORITY[cls] !== undefined) {
    spec.priority ??= cls === '' ? 0 : SYSTEM_PRIORITY[cls]
    spec.preemptionPolicy ??= 'PreemptLowerPriority'
  }
  // DefaultTolerationSeconds (defaulttolerationseconds/admission.go)
  const tolerations = list('tolerations').filter(isObj)
  const tolerates = (key: string) =>
    tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect))
  const added: JSONObject[] = []
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'])
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 })
  if (added.length > 0) spec.tolerations = [...list('tolerations'), ...added]
}

export type StoredOptions = PrepareOptions

/** A deep copy of the prepared object to store (its metadata an object of the copy). */
function copyToStore(prepared: JSONObject): { o: JSONObject; meta: JSONObject } {
  const o: JSONObject = structuredClone(prepared)
  const meta: JSONObject = isObj(o.metadata) ? o.metadata : {}
  o.metadata = meta
  return { o, meta }
}

/** The object a create stores (see above), from the decoded and defaulted object; a copy. */
export function storedOnCreate(object: JSONObject, options: StoredOptions): JSONObject {
  const gk = groupKindOf(object)
  const { o, meta } = copyToStore(preparedForCreate(object, options))
  // the server's own uid and creationTimestamp are random: not printed
  delete meta.uid
  delete meta.creationTimestamp
  if (gk === '/Pod' && isObj(o.spec)) {
    const mirror = isObj(meta.annotations) && Object.hasOwn(meta.annotations, 'kubernetes.io/config.mirror')
    if (!mirror) {
      // objects given here directly get the plugin's mutation; one the engine admitted has it (a named
      // ServiceAccount: the plugin ran, with that ServiceAccount's automount, which may have said no token)
      const named = isObj(o.spec) && typeof o.spec.serviceAccountName === 'string' && o.spec.serviceAccountName !== ''
      if (!named) admitServiceAccount(o, () => TOKEN_VOLUME_PLACEHOLDER)
      podAdmission(o.spec as JSONObject)
    }
  }
  return readBack(gk, o, options.minor)
}

/**
 * The object as stored: a kind whose status was reset is decoded again (its status as Go marshals the zero
 * value; defaulting is idempotent), then read back through the storage codec (protobuf): an empty list or map
 * comes back nil.
 */
function readBack(gk: string, o: JSONObject, minor: number | undefined): JSONObject {
  let out = o
  if (RESET_STATUS.has(gk)) {
    const again = decodeBuiltin(o, { fieldValidation: 'Ignore', minor: minor ?? 37 })
    out = (again?.object as JSONObject | undefined) ?? o
  }
  marshalBuiltin(out, true)
  return out
}

/**
 * The object an update stores, from the admitted (decoded, defaulted, patched) object and the stored `old`
 * (preparedForUpdate: the old generation and status, a generation counted when the spec changed), its uid and
 * creationTimestamp the object's own (the callers print neither the server's uid nor its resourceVersion),
 * read back through the storage codec. A copy.
 */
export function storedOnUpdate(
  object: JSONObject,
  old: JSONObject,
  options: { readonly minor?: number } = {},
): JSONObject {
  const gk = groupKindOf(object)
  const { o, meta } = copyToStore(preparedForUpdate(object, old))
  const given: JSONObject = isObj(object.metadata) ? object.metadata : {}
  for (const k of ['uid', 'creationTimestamp']) {
    if (given[k] === undefined) delete meta[k]
    else meta[k] = structuredClone(given[k])
  }
  return readBack(gk, o, options.minor)
}
