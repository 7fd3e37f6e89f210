import { storedOnCreate, storedOnUpdate } from '../builtin/stored.js'
import { goQuote } from '../cel/ext/quote.js'
import { BUILTIN_SCHEMA_RELEASES, hasBuiltinSchemas } from '../kube/builtin-schemas/index.js'
import {
  builtinPatchSchemaFor,
  type KubectlApplyPatch,
  kubectlApplyPatch,
  LastAppliedConfigAnnotation,
  withLastAppliedAnnotation,
} from '../kube/patch/index.js'
import { filledOnCreate, PLACEHOLDER_RESOURCE_VERSION } from '../kube/system-fields.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type { AdmissionAttributes, UserInfo } from '../policy/attributes.js'
import { metaOf } from './objects.js'
import type { AdmitResult, PolicySet } from './policy-set.js'

// `kubectl apply` (client-side) of a manifest, with or without a previous revision the cluster holds
// (kubectl pkg/cmd/apply apply.go applyOneObject, patcher.go):
// - no previous revision: a create of the manifest (kubectl adds its last-applied-configuration annotation,
//   util.CreateApplyAnnotation; kelp's create answers leave it out, apply-sizes.ts sizes it);
// - a previous revision: the cluster holds what that revision's create stored (decoded, defaulted, the create
//   strategy's PrepareForCreate / BeforeCreate: a Job's generated selector and labels, a Service's cluster IP
//   and IP families, ...; src/builtin/stored.ts, and the CRD strategy for custom resources), with the old
//   manifest as its annotation; kubectl sends the three-way patch (original = that annotation, modified = the
//   new manifest with its new annotation, current = the stored object): a strategic merge patch for built-in
//   kinds, a JSON merge patch for custom resources (src/kube/patch). An empty patch is kubectl's `unchanged`:
//   nothing is sent and no admission runs. Otherwise the apiserver applies the patch to the stored object
//   (endpoints/handlers/patch.go) and admits the result as an UPDATE whose oldObject is the stored object.
// A previous revision whose create the cluster would refuse natively (a 400 or 422) was never stored: the new
// manifest is then a create. Validating policies do not decide it: the old object exists from before them.
// Server-side apply (`kubectl apply --server-side`) is not modelled.

export interface ApplyInput {
  /** The manifest applied (as read). */
  readonly manifest: JSONObject
  /** The previous revision's manifest of the same object (kubectl applied it before), if any. */
  readonly old?: JSONObject
  /** kubectl's context namespace (-n): namespaced objects without one are applied there. */
  readonly namespace: string
  /** The target release (the patch meta of built-in kinds; the storage rules of their strategies). */
  readonly release: string
  /** The user the requests are sent as (default: the set's DEFAULT_USER). */
  readonly userInfo?: UserInfo
}

export interface ApplyAnswer {
  /** UPDATE when the cluster holds the previous revision's object. */
  readonly operation: 'CREATE' | 'UPDATE'
  /** kubectl's `unchanged`: the three-way patch was empty, nothing was sent, no admission ran. */
  readonly unchanged: boolean
  /** The request admitted; absent when unchanged or when no resource serves the kind. */
  readonly request?: AdmissionAttributes
  /** The engine's answer to the request (absent when unchanged). */
  readonly result?: AdmitResult
  /** The object the previous revision's create stored: the UPDATE's oldObject (and the answer when unchanged). */
  readonly current?: JSONObject
  /** The patch kubectl sent (an UPDATE). */
  readonly patch?: Pick<KubectlApplyPatch, 'patch' | 'patchType'>
  /** The previous revision's create the cluster refused natively: the new manifest is a create. */
  readonly oldRefused?: AdmitResult
  /** The patch could not be made or applied (kubectl's error; nothing admitted). */
  readonly patchError?: string
  /** The apiserver's 409 Conflict (the patch set a resourceVersion): its message; nothing admitted. */
  readonly conflict?: string
}

/** The manifest as kubectl sends it: a namespaced object without a namespace takes -n (cli-runtime SetNamespace). */
function withNamespace(manifest: JSONObject, request: AdmissionAttributes): JSONObject {
  const isNamespace = request.resource.group === '' && request.resource.resource === 'namespaces'
  const m = metaOf(manifest)
  if (request.namespace === '' || isNamespace) {
    // cli-runtime builder.go FilterNamespace: a cluster-scoped object's namespace is dropped before kubectl
    // records or diffs it
    if (!isObject(manifest.metadata) || !Object.hasOwn(m, 'namespace')) return manifest
    const { namespace: _, ...rest } = m
    return { ...manifest, metadata: rest }
  }
  if (typeof m.namespace === 'string' && m.namespace !== '') return manifest
  return { ...manifest, metadata: { ...m, namespace: request.namespace } }
}

/** The object a create stores, from the engine's answer to it (what `kubectl apply --dry-run=server -o yaml` prints). */
export function storedOnCreateOf(
  result: AdmitResult,
  request: AdmissionAttributes,
  release: string,
): JSONObject | undefined {
  const cr = result.customResource?.object as JSONObject | undefined
  if (cr !== undefined) return cr
  const mutated = mutatedWithName(result)
  const object = mutated ?? (result.builtin?.object as JSONObject | undefined)
  if (object === undefined || result.builtin?.object === undefined) return object
  const isNamespace = request.resource.group === '' && request.resource.resource === 'namespaces'
  return storedOnCreate(object, {
    namespace: request.namespace,
    namespaced: request.namespace !== '' && !isNamespace,
    minor: minorOf(release),
  })
}

/** The object an update stores (the update strategy's PrepareForUpdate over the admitted object; src/builtin/stored.ts). */
export function storedOnUpdateOf(answer: ApplyAnswer, release: string): JSONObject | undefined {
  if (answer.unchanged && answer.current !== undefined) {
    // the object as kubectl's GET returned it; the server's uid and creationTimestamp (kelp's) are not printed
    const out = structuredClone(answer.current)
    delete metaOf(out).uid
    delete metaOf(out).creationTimestamp
    return out
  }
  const r = answer.result
  if (r === undefined || answer.current === undefined) return undefined
  const cr = r.customResource?.object as JSONObject | undefined
  // the CRD strategy already kept the status and counted the generation (src/crd/structural/strategy.ts)
  const object = cr ?? (r.mutatedObject as JSONObject | undefined) ?? (r.builtin?.object as JSONObject | undefined)
  if (object === undefined) return undefined
  const out =
    cr !== undefined ? structuredClone(cr) : storedOnUpdate(object, answer.current, { minor: minorOf(release) })
  // the server's own uid, creationTimestamp and resourceVersion (kelp's placeholders) are not printed, as on a create
  delete metaOf(out).uid
  delete metaOf(out).creationTimestamp
  delete metaOf(out).resourceVersion
  return out
}

function mutatedWithName(r: AdmitResult): JSONObject | undefined {
  const o = r.mutatedObject
  if (o === undefined || r.generatedName === undefined) return o
  return { ...o, metadata: { ...metaOf(o), name: r.generatedName } }
}

const minorOf = (release: string): number => Number(/^v?\d+\.(\d+)/.exec(release)?.[1] ?? 37)

/** The releases with published schemas bound the patch meta: an older target reads the oldest (the fields' tags do not change). */
function patchRelease(release: string): string {
  if (hasBuiltinSchemas(release)) return release
  const first = BUILTIN_SCHEMA_RELEASES[0] ?? release
  const last = BUILTIN_SCHEMA_RELEASES[BUILTIN_SCHEMA_RELEASES.length - 1] ?? release
  return minorOf(release) < minorOf(first) ? first : last
}

/**
 * Whether the engine's answer to a create means the cluster stored nothing: a body that does not decode, a
 * native or CRD validation that refuses it, a kind not served.
 */
function refusedNatively(r: AdmitResult): boolean {
  if (r.noMatch !== undefined) return true
  if (r.builtin !== undefined && !r.builtin.allowed) return true
  if (r.customResource !== undefined && !r.customResource.allowed) return true
  return false
}

/** `kubectl apply -f <manifest>` over a cluster holding `old`'s object (or nothing). */
export function kubectlApply(set: PolicySet, input: ApplyInput): ApplyAnswer {
  const user = input.userInfo !== undefined ? { userInfo: input.userInfo } : {}
  const first = set.request(input.manifest, { namespace: input.namespace, ...user })
  if ('error' in first) {
    // no resource serves the kind: kubectl's GET fails before any patch (the engine says why)
    return {
      operation: input.old === undefined ? 'CREATE' : 'UPDATE',
      unchanged: false,
      result: set.validate(input.manifest, user),
    }
  }
  const modified = withNamespace(input.manifest, first)
  // a create is admitted as the manifest reads (kelp's create answers, measured against the apiserver, leave
  // kubectl's annotation out: its size is apply-sizes.ts's)
  const create = (oldRefused?: AdmitResult): ApplyAnswer => ({
    operation: 'CREATE',
    unchanged: false,
    request: first,
    result: set.admit(first),
    ...(oldRefused !== undefined ? { oldRefused } : {}),
  })
  if (input.old === undefined) return create()
  const oldRequest = set.request(withLastAppliedAnnotation(withNamespace(input.old, first)), {
    namespace: input.namespace,
    ...user,
  })
  if ('error' in oldRequest) return create()
  const oldResult = set.admit(oldRequest)
  if (refusedNatively(oldResult)) return create(oldResult)
  const stored = storedOnCreateOf(oldResult, oldRequest, input.release)
  if (stored === undefined) return create(oldResult)
  // the server's uid and creationTimestamp (rest.FillObjectMetaSystemFields: src/kube/system-fields.ts; a Job's
  // generated selector carries the same placeholder uid) and its resourceVersion (kelp's placeholder)
  const current: JSONObject = {
    ...stored,
    metadata: Object.assign(filledOnCreate(metaOf(stored)), { resourceVersion: PLACEHOLDER_RESOURCE_VERSION }),
  }
  // the stored object is read in the version the new manifest names (kubectl's GET): same schema assumed
  if (typeof input.manifest.apiVersion === 'string') current.apiVersion = input.manifest.apiVersion
  const annotations = metaOf(current).annotations
  const lastApplied =
    isObject(annotations) && typeof annotations[LastAppliedConfigAnnotation] === 'string'
      ? (annotations[LastAppliedConfigAnnotation] as string)
      : undefined
  let applied: KubectlApplyPatch
  try {
    applied = kubectlApplyPatch({
      lastApplied,
      modified,
      current,
      gvk: first.kind,
      schemaFor: builtinPatchSchemaFor(patchRelease(input.release)),
    })
  } catch (e) {
    return { operation: 'UPDATE', unchanged: false, current, patchError: (e as Error).message }
  }
  const patch = { patch: applied.patch, patchType: applied.patchType }
  if (applied.unchanged) return { operation: 'UPDATE', unchanged: true, current, patch }
  const object = applied.result
  const meta = metaOf(object)
  // registry/generic/registry/store.go Update: a resourceVersion the patch set (a manifest holding one, e.g. an
  // object exported from a cluster) is not the stored one: 409 Conflict before any validation
  const rv = meta.resourceVersion
  if (typeof rv === 'string' && rv !== '' && rv !== '0' && rv !== PLACEHOLDER_RESOURCE_VERSION) {
    const r = first.resource
    const qualified = r.group === '' ? r.resource : `${r.resource}.${r.group}`
    const name = typeof meta.name === 'string' ? meta.name : ''
    return {
      operation: 'UPDATE',
      unchanged: false,
      current,
      patch,
      conflict: `Operation cannot be fulfilled on ${qualified} ${goQuote(name)}: the object has been modified; please apply your changes to the latest version and try again`,
    }
  }
  // pkg/apis/apps/v1/conversion.go: a StatefulSet's claim templates come out of the v1 conversion with their
  // apiVersion and kind, as the stored ones did (src/builtin/stored.ts)
  if (first.kind.group === 'apps' && first.kind.kind === 'StatefulSet') {
    const spec = object.spec
    if (isObject(spec) && Array.isArray(spec.volumeClaimTemplates))
      spec.volumeClaimTemplates = spec.volumeClaimTemplates.map((t) =>
        isObject(t) ? { ...t, apiVersion: 'v1', kind: 'PersistentVolumeClaim' } : t,
      )
  }
  // rest.BeforeUpdate: a change of creationTimestamp is ignored (the stored one kept)
  const stamp = metaOf(current).creationTimestamp
  if (meta.creationTimestamp !== stamp) object.metadata = Object.assign({}, meta, { creationTimestamp: stamp })
  const request = set.request(object, { namespace: input.namespace, oldObject: current, ...user })
  if ('error' in request)
    return { operation: 'UPDATE', unchanged: false, current, patch, result: set.validate(applied.result, user) }
  return { operation: 'UPDATE', unchanged: false, request, result: set.admit(request), current, patch }
}
