import type { ParamKind, ParamRef } from '../../kube/admissionregistration/types.js'
import { labelSelectorAsSelector } from '../../kube/labels.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { GroupVersionKind } from '../attributes.js'

// Parameter resolution for one binding (apiserver pkg/admission/plugin/policy/generic/
// policy_dispatcher.go CollectParams): the param objects the policy is evaluated with, one
// evaluation each; [null] when the policy or binding has no params.

/** The param objects of a kind, as the apiserver's informer would list them. */
export interface ParamSource {
  /** Whether the kind's resource is namespaced. */
  readonly namespaced: boolean
  readonly objects: readonly JSONObject[]
}

const meta = (o: JSONObject): JSONObject =>
  typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as JSONObject) : {}

/** schema.ParseGroupVersion + Kind: `group/version` or `version` (core). */
export function paramKindGVK(pk: ParamKind): GroupVersionKind {
  const av = pk.apiVersion ?? ''
  const i = av.indexOf('/')
  return { group: i < 0 ? '' : av.slice(0, i), version: i < 0 ? av : av.slice(i + 1), kind: pk.kind ?? '' }
}

/** The answer for a policy or binding without params (shared: asked for every binding of every request). */
const NO_PARAMS: { readonly params: readonly null[] } = Object.freeze({ params: Object.freeze([null]) })

/** CollectParams: the params, or the configuration error's text. */
export function collectParams(
  paramKind: ParamKind | undefined,
  source: ParamSource | undefined,
  paramRef: ParamRef | undefined,
  namespace: string,
): { readonly params: readonly (JSONObject | null)[] } | { readonly error: string } {
  if (paramKind === undefined || paramKind === null || paramRef === undefined || paramRef === null) return NO_PARAMS
  if (source === undefined) {
    const gvk = paramKindGVK(paramKind)
    return {
      error: `paramKind kind \`&ParamKind{APIVersion:${paramKind.apiVersion ?? ''},Kind:${gvk.kind},}\` not known`,
    }
  }
  let objects = source.objects
  if (source.namespaced) {
    const ns = paramRef.namespace || namespace
    if (ns === '')
      return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' }
    objects = objects.filter((o) => (meta(o).namespace ?? '') === ns)
  } else if (paramRef.namespace) {
    return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' }
  }
  let params: JSONObject[]
  if (paramRef.name) {
    if (paramRef.selector !== undefined && paramRef.selector !== null) {
      return { error: 'paramRef.name and paramRef.selector are mutually exclusive' }
    }
    params = objects.filter((o) => meta(o).name === paramRef.name).slice(0, 1)
  } else if (paramRef.selector !== undefined && paramRef.selector !== null) {
    let selector: ReturnType<typeof labelSelectorAsSelector>
    try {
      selector = labelSelectorAsSelector(paramRef.selector as Parameters<typeof labelSelectorAsSelector>[0])
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) }
    }
    params = objects.filter((o) => selector.matches((meta(o).labels ?? {}) as Record<string, string>))
  } else {
    return { error: 'one of name or selector must be provided' }
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') {
    return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' }
  }
  return { params }
}
