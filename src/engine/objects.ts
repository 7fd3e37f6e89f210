// What the engine reads of any object before knowing its kind: its group/version/kind and its metadata,
// both tolerant of malformed input (a manifest may say anything; the apiserver answers it, kelp must too).

import { isObject, type JSONObject } from '../kube/values/json.js'
import type { GroupVersionKind } from '../policy/attributes.js'

/** metadata, or an empty object when it is absent or not an object. */
export const metaOf = (o: JSONObject): JSONObject => (isObject(o.metadata) ? o.metadata : {})

/** apiVersion `group/version` (or a core `version`) and kind, `''` for what is missing. */
export function gvkOf(o: JSONObject): GroupVersionKind {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const i = av.indexOf('/')
  return {
    group: i < 0 ? '' : av.slice(0, i),
    version: i < 0 ? av : av.slice(i + 1),
    kind: typeof o.kind === 'string' ? o.kind : '',
  }
}

/** `1.37` → 37 (the target release's minor, for feature-gated defaults and validation). */
export function releaseMinor(release: string): number {
  const m = /^v?1\.(\d+)/.exec(release)
  return m ? Number(m[1]) : 37
}
