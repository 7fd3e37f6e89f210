import type { MatchResources, ObjectMeta, ParamKind, ParamRef } from '../../kube/admissionregistration/types.js'
import type { Authorize } from '../../kube/authz/authorizer.js'
import type { EquivalentResourceMapper } from '../../kube/resources.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes, GroupVersionKind } from '../attributes.js'
import type { Matcher } from '../matching/matching.js'
import type { ParamSource } from './params.js'

// What the validating and mutating plugins share of a policy (apiserver pkg/admission/plugin/policy/
// generic/interfaces.go, policy_source.go PolicyHook): the policy and its bindings as the generic
// dispatcher reads them, and what dispatch needs of the world. Each kind adds its evaluator.

/** The fields of a policy generic dispatch reads (both kinds have them). */
export interface Policy {
  readonly metadata?: ObjectMeta
  readonly spec?: {
    readonly paramKind?: ParamKind
    readonly matchConstraints?: MatchResources
    readonly failurePolicy?: string
  }
}

/** The fields of a binding generic dispatch reads. */
export interface Binding {
  readonly metadata?: ObjectMeta
  readonly spec?: { readonly paramRef?: ParamRef; readonly matchResources?: MatchResources }
}

/** A policy with its bindings, compiled (generic.PolicyHook without its Evaluator). */
export interface PolicyHook<P extends Policy = Policy, B extends Binding = Binding> {
  readonly policy: P
  readonly bindings: readonly B[]
  /** The param objects of the policy's paramKind (undefined when it has none or it is unknown). */
  readonly params?: ParamSource
  /** e.g. `failed to find resource referenced by paramKind: '…'`. */
  readonly configurationError?: string
}

/** What dispatching a request needs beyond the hooks. */
export interface DispatchContext {
  readonly matcher: Matcher
  readonly mapper: EquivalentResourceMapper
  /** The Namespace object of a namespaced request (undefined: none; the matcher's lookup decides). */
  readonly namespaceObject: (name: string) => JSONObject | undefined
  readonly authorize: Authorize
  /** Converts the request's object to the kind a policy matched (matchPolicy Equivalent). */
  readonly convert?: (a: AdmissionAttributes, to: GroupVersionKind) => AdmissionAttributes
}
