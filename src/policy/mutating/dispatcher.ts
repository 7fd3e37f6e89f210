import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../../kube/admissionregistration/types.js'
import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes, GroupVersionKind } from '../attributes.js'
import type { DispatchContext, PolicyHook } from '../generic/hooks.js'
import {
  collectInvocations,
  type FailedInvocation,
  metadataOf,
  type PolicyError,
  paramName,
  policyError,
} from '../generic/invocations.js'
import type { AdmissionStatus } from '../generic/status.js'
import { jsonDiff, jsonEqual } from './diff.js'
import type { PatchOperation } from './jsonpatch.js'
import type { PolicyMutator } from './mutator.js'

// The mutating admission policy plugin for one request (apiserver pkg/admission/plugin/policy/
// generic/policy_dispatcher.go Dispatch, mutating/dispatcher.go dispatchInvocations,
// reinvocationcontext.go, and the admission chain's one reinvocation of the mutating plugins):
// policies in order, per policy its bindings, per binding its params: one invocation each; an
// invocation whose match conditions pass runs its mutations in order on the object as the ones
// before left it (a failing one is an error under the policy's failurePolicy, the object kept). A
// policy with reinvocationPolicy IfNeeded is invoked once more when the object was mutated after it
// ran (the plugin reinvokes the IfNeeded invocations it ran once any mutation updated the object).
// Errors that are not ignored deny the request: the first one's text is the Status message.

/** A MutatingAdmissionPolicy with its bindings, compiled (generic.PolicyHook[…, PolicyEvaluator]). */
export interface MutatingPolicyHook extends PolicyHook<MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding> {
  readonly mutator: PolicyMutator
}

export interface MutatingDispatchContext extends DispatchContext {
  /** The type converter's schema of a kind (built-in schemas, CRDs); undefined: none registered. */
  readonly schemaFor: (kind: GroupVersionKind) => JSONSchemaProps | undefined
  /** The decoding and defaulting of the object after each mutation (built-ins); an error is a 500. */
  readonly normalize?: (object: JSONObject) => { object: JSONObject } | { error: string }
}

/** What one invocation changed. */
export interface PolicyMutation {
  readonly policy: string
  readonly binding: string
  /** `namespace/name` (or `name`) of the param, when the binding has one. */
  readonly param?: string
  /** 1 for the first invocation, 2 for a reinvocation. */
  readonly pass: 1 | 2
  /** RFC 6902 from the object before this invocation to after it. */
  readonly patch: readonly PatchOperation[]
}

/** An error of a policy (or binding) under failurePolicy Fail (generic.PolicyError). */
export type MutationError = PolicyError

export interface MutateResult {
  readonly allowed: boolean
  /** The object after every mutation (the request's object when none applied). */
  readonly object: JSONObject | null | undefined
  readonly mutations: readonly PolicyMutation[]
  readonly errors: readonly MutationError[]
  readonly status?: AdmissionStatus
}

function statusOf(
  a: AdmissionAttributes,
  message: string,
  reason: string,
  causes: readonly string[],
  code = 403,
): AdmissionStatus {
  const name =
    a.name !== ''
      ? a.name
      : String(metadataOf(a.object ?? null).name ?? metadataOf(a.object ?? null).generateName ?? '')
  return {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message,
    reason,
    code,
    details: {
      ...(a.resource.group !== '' ? { group: a.resource.group } : {}),
      kind: a.resource.resource,
      name,
      causes: causes.map((m) => ({ message: m })),
    },
  }
}

/** The request's mutating admission policies; `hooks` in the order they run. */
export function dispatchMutating(
  a: AdmissionAttributes,
  hooks: readonly MutatingPolicyHook[],
  ctx: MutatingDispatchContext,
): MutateResult {
  const mutations: PolicyMutation[] = []
  const errors: FailedInvocation[] = []
  const reinvocable = new Set<string>()
  let reinvoke = new Set<string>()
  let attrs = a
  for (const pass of [1, 2] as const) {
    if (pass === 2 && reinvoke.size === 0) break
    const invocations = collectInvocations(attrs, hooks, ctx, pass === 1 ? errors : [])
    if (invocations.length === 0) continue
    // a namespaced request needs its Namespace
    const isNamespace = attrs.kind.group === '' && attrs.kind.version === 'v1' && attrs.kind.kind === 'Namespace'
    const nsName = isNamespace ? '' : attrs.namespace
    let namespace: JSONObject | undefined
    if (nsName !== '') {
      namespace = ctx.namespaceObject(nsName)
      if (namespace === undefined) {
        const message = `namespaces "${nsName}" not found`
        return {
          allowed: false,
          object: a.object,
          mutations,
          errors: [],
          status: {
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            message,
            reason: 'NotFound',
            code: 404,
            details: { kind: 'namespaces', name: nsName, causes: [] },
          },
        }
      }
    }
    let dirty = false
    for (const inv of invocations) {
      if (pass === 2 && !reinvoke.has(inv.key)) continue
      const policy = inv.hook.policy.metadata?.name ?? ''
      const binding = inv.binding.metadata?.name ?? ''
      const sameKind =
        inv.matchKind.group === attrs.kind.group &&
        inv.matchKind.version === attrs.kind.version &&
        inv.matchKind.kind === attrs.kind.kind
      let versioned = sameKind || ctx.convert === undefined ? attrs : ctx.convert(attrs, inv.matchKind)
      const input = () => ({
        matchedResource: inv.matchResource,
        attributes: versioned,
        params: inv.param,
        ...(namespace !== undefined ? { namespace } : {}),
        authorize: ctx.authorize,
      })
      const matched = inv.hook.mutator.match(input())
      if (matched.error !== undefined) {
        errors.push(policyError(inv, matched.error, 'Invalid'))
        continue
      }
      if (!matched.matches) continue
      const before = versioned.object
      for (let i = 0; i < inv.hook.mutator.mutationCount; i++) {
        if (versioned.object === undefined || versioned.object === null) continue
        let schema: JSONSchemaProps | undefined
        if (inv.hook.mutator.needsSchema(i)) {
          schema = ctx.schemaFor(inv.matchKind)
          if (schema === undefined) {
            const k = inv.matchKind
            const gvk = `${k.group === '' ? '' : `${k.group}/`}${k.version}, Kind=${k.kind}`
            const message = `Resource kind ${gvk} not found. There can be a delay between when CustomResourceDefinitions are created and when they are available.`
            return {
              allowed: false,
              object: a.object,
              mutations,
              errors: [],
              status: statusOf(a, message, 'ServiceUnavailable', [], 503),
            }
          }
        }
        const out = inv.hook.mutator.mutate(i, { ...input(), ...(schema !== undefined ? { schema } : {}) })
        if ('error' in out) {
          errors.push(policyError(inv, out.error, 'Invalid'))
          continue
        }
        let next = out.object
        // a mutation that changed nothing leaves the decoded, defaulted object as it was: decoding and
        // defaulting it again would give it back (the test op that failed returns the object itself)
        const unchanged = next === versioned.object || jsonEqual(next, versioned.object)
        if (unchanged) next = versioned.object
        else if (ctx.normalize !== undefined) {
          const n = ctx.normalize(next)
          if ('error' in n) {
            const message = `Internal error occurred: ${n.error}`
            return {
              allowed: false,
              object: a.object,
              mutations,
              errors: [],
              status: statusOf(a, message, 'InternalError', [n.error], 500),
            }
          }
          next = n.object
        }
        versioned = { ...versioned, object: next }
        dirty = true
      }
      if (!jsonEqual(before, versioned.object)) {
        // RequireReinvokingPreviouslyInvokedPlugins
        for (const k of reinvocable) reinvoke.add(k)
        reinvocable.clear()
        const param = paramName(inv.param)
        // the invocation's patch is computed when read (most callers only count the invocations); the
        // objects it compares are never changed in place (each mutation builds a new object)
        const after = versioned.object
        let patch: readonly PatchOperation[] | undefined
        mutations.push({
          policy,
          binding,
          ...(param !== undefined ? { param } : {}),
          pass,
          get patch() {
            patch ??= jsonDiff(before, after)
            return patch
          },
        })
      }
      if (inv.hook.policy.spec?.reinvocationPolicy === 'IfNeeded') reinvocable.add(inv.key)
      // back to the request's version
      attrs =
        sameKind || ctx.convert === undefined ? versioned : { ...attrs, object: convertBack(versioned.object, attrs) }
    }
    // a dispatch that updated the object (Dirty) makes every IfNeeded invocation it ran reinvocable
    if (dirty) {
      for (const k of reinvocable) reinvoke.add(k)
      reinvocable.clear()
    }
    if (pass === 2) reinvoke = new Set()
  }
  const failing = errors.filter((e) => e.failurePolicy !== 'Ignore')
  const out: MutationError[] = failing.map(({ policy, binding, message, text }) => ({
    policy,
    ...(binding !== undefined ? { binding } : {}),
    message,
    text,
  }))
  if (failing.length === 0) return { allowed: true, object: attrs.object, mutations, errors: out }
  const first = failing[0] as (typeof failing)[number]
  return {
    allowed: false,
    object: a.object,
    mutations,
    errors: out,
    status: statusOf(
      a,
      first.text,
      first.reason || 'Forbidden',
      failing.map((e) => e.text),
    ),
  }
}

/** The object in the request's apiVersion/kind again (kelp converts by apiVersion alone). */
function convertBack(o: JSONObject | null | undefined, a: AdmissionAttributes): JSONObject | null | undefined {
  if (o === undefined || o === null) return o
  const apiVersion = a.kind.group === '' ? a.kind.version : `${a.kind.group}/${a.kind.version}`
  return { ...o, apiVersion, kind: a.kind.kind }
}
