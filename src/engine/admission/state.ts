// One request's way through admission: what every stage reads of the set (AdmissionContext, built once per
// set) and the state the stages accumulate (AdmissionState, one object per request: the stages write their
// part of the answer into it, and a stage that ends the request returns the answer).

import type { AdmissionInputs } from '../../builtin/admission/inputs.js'
import type { BuiltinResult } from '../../builtin/index.js'
import type { CustomResourceResult } from '../../crd/custom-resource.js'
import type { CustomResourceDefinitions } from '../../crd/registry.js'
import type { RESTMapper } from '../../kube/resources.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes, GroupVersionKind } from '../../policy/attributes.js'
import type { DispatchContext } from '../../policy/generic/hooks.js'
import type { MutatingDispatchContext, MutatingPolicyHook } from '../../policy/mutating/dispatcher.js'
import type { PolicyHook } from '../../policy/validating/dispatcher.js'
import type { AdmitResult, NoMatch } from '../answer.js'
import type { PolicySetOptions } from '../options.js'

/** What admission reads of a policy set: the same for every request. */
export interface AdmissionContext {
  readonly options: PolicySetOptions
  /** The target release (`options.release ?? options.version`) and its minor. */
  readonly release: string
  readonly minor: number
  readonly crds: CustomResourceDefinitions
  /** Whether any CRD was loaded, accepted or refused (objects of a refused one get its NotFound). */
  readonly hasCRDs: boolean
  readonly mapper: RESTMapper
  /** The validating policies with bindings. */
  readonly hooks: readonly PolicyHook[]
  /** The mutating policies with bindings, in the order they run. */
  readonly mutatingHooks: readonly MutatingPolicyHook[]
  readonly dispatch: DispatchContext
  readonly mutatingDispatch: MutatingDispatchContext
  /** Why no resource serves a group/version/kind. */
  readonly noMatch: (kind: GroupVersionKind) => NoMatch
  /** What the default admission plugins read of the cluster, from the inputs (in-tree.ts). */
  readonly inputs: AdmissionInputs
}

/** What the mutating policies changed (only the keys of a change are present). */
export type Mutated = Pick<AdmitResult, 'mutatedObject' | 'patch' | 'mutations'>

/** The answer so far of one request: each stage reads what the ones before it wrote. */
export interface AdmissionState {
  /** The request as given (attribute defaults applied). */
  readonly request: AdmissionAttributes
  /** Whether mutating admission runs: asked for, and the set has mutating policies. */
  readonly mutating: boolean
  /** The request as the next stage sees it: named, decoded, defaulted, mutated. */
  attrs: AdmissionAttributes
  /** The name generated from metadata.generateName, and `{ generatedName }` for the answers (else empty). */
  generatedName: string | undefined
  named: { readonly generatedName?: string }
  /** The decoded built-in (undefined: not a built-in, or not decoded), and its stored old object. */
  builtin: BuiltinResult | undefined
  oldBuiltin: JSONObject | undefined
  /** The object before a custom resource's decoding (what schema validation reads when no policy mutated). */
  requestObject: AdmissionAttributes['object']
  /** False when a custom resource's body does not decode: the mutating policies never see it. */
  crDecoded: boolean
  mutated: Mutated
  customResource: CustomResourceResult | undefined
  /** The in-tree plugins that could not run for lack of input (in-tree.ts `NOT_RUN`), when any. */
  notRun: string[] | undefined
}

/** A stage of admission: writes its part into the state, or returns the answer that ends the request. */
export type AdmissionStage = (ctx: AdmissionContext, s: AdmissionState) => AdmitResult | undefined

/**
 * The empty `named` and `mutated`: shared, never written (the answers only read them: Object.assign sources).
 * The hot path allocates the state and no empty objects: the one allocation the stages add over a single function.
 */
export const NOTHING: { readonly generatedName?: string } & Mutated = Object.freeze({})

export function newState(request: AdmissionAttributes, mutating: boolean): AdmissionState {
  return {
    request,
    mutating,
    attrs: request,
    generatedName: undefined,
    named: NOTHING,
    builtin: undefined,
    oldBuiltin: undefined,
    requestObject: request.object,
    crDecoded: true,
    mutated: NOTHING,
    customResource: undefined,
    notRun: undefined,
  }
}
