import { copyOwn } from './own-keys.js'
import { isObject, type JSONObject } from './values/json.js'

// Copies are copyOwn's, not Object.assign: any key (`__proto__` too) stays an own one.

// The ObjectMeta fields the server owns, as the store sets them before validating admission
// (k8s.io/apiserver pkg/registry/rest: FillObjectMetaSystemFields on create, BeforeUpdate on update), for
// built-in kinds and custom resources alike. The server's uid is random and its creationTimestamp the
// request's time: kelp gives a fixed placeholder uid and the time it runs.

/** The uid kelp gives an object the server would give a random one (also a Job's controller-uid labels). */
export const PLACEHOLDER_UID = '00000000-0000-0000-0000-000000000000'

/** The resourceVersion of an object kelp takes as stored (an update's current object; etcd's revision). */
export const PLACEHOLDER_RESOURCE_VERSION = '1'

/** metav1.Time as it marshals: RFC 3339, whole seconds, UTC. */
export const wholeSeconds = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`

/** The text of the current second, made once per second (every create of a run asks for it). */
let second = -1
let secondText = ''
function now(): string {
  const s = Math.floor(Date.now() / 1000)
  if (s !== second) {
    second = s
    secondText = wholeSeconds(new Date(s * 1000))
  }
  return secondText
}

/**
 * FillObjectMetaSystemFields (rest/meta.go) on a copy of `meta`: a new uid and the creationTimestamp; the
 * handler wiped what the client gave of them before (WipeObjectMetaSystemFields).
 */
export function filledOnCreate(meta: JSONObject): JSONObject {
  const out = copyOwn(meta)
  out.uid = PLACEHOLDER_UID
  out.creationTimestamp = now()
  return out
}

/**
 * rest.BeforeUpdate on a copy of `meta`: the stored uid when none is given, the stored creationTimestamp
 * whenever it has one (an update cannot change it).
 */
export function keptOnUpdate(meta: JSONObject, old: unknown): JSONObject {
  const o: JSONObject = isObject(old) && isObject(old.metadata) ? old.metadata : {}
  const out = copyOwn(meta)
  if ((typeof out.uid !== 'string' || out.uid === '') && o.uid !== undefined) out.uid = o.uid
  if (typeof o.creationTimestamp === 'string' && o.creationTimestamp !== '') out.creationTimestamp = o.creationTimestamp
  return out
}
