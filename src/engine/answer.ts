// The engine's answer to one request (AdmitResult): the admission plugins' outcome merged with what the
// handler and the registry answered before them (decoding, the strategy, a custom resource's schema).

import type { BuiltinResult } from '../builtin/index.js'
import type { CustomResourceResult } from '../crd/custom-resource.js'
import type { RequestStatus } from '../kube/decoding.js'
import type { InvalidStatus } from '../kube/field.js'
import type { JSONObject } from '../kube/values/json.js'
import type { AdmissionStatus } from '../policy/generic/status.js'
import type { MutationError, PolicyMutation } from '../policy/mutating/dispatcher.js'
import type { PatchOperation } from '../policy/mutating/jsonpatch.js'
import type { DispatchResult } from '../policy/validating/dispatcher.js'
import type { ApiLifecycle } from './lifecycle.js'

/**
 * Why a request got 404 `no matches for kind "X" in version "g/v"` (kubectl apply fails on it):
 * - `not-served`: a built-in group (no dot: the apiserver refuses CRD groups without one, so no CRD
 *   can ever define it) whose kind/version the target release does not serve (a typo, a removed or
 *   future version);
 * - `version-not-served`: a loaded CRD defines the group/kind, but not this version as served;
 * - `crd-refused`: the CRD for the group/kind was refused (it is in `problems`);
 * - `no-crd`: a dotted group no loaded CRD defines; a CRD the inputs do not have may serve it.
 */
export type NoMatchReason = 'not-served' | 'version-not-served' | 'crd-refused' | 'no-crd'

export interface NoMatch {
  readonly reason: NoMatchReason
  /** metadata.name of the CRD (version-not-served, crd-refused). */
  readonly crd?: string
}

/**
 * The Status of a refused request, whichever step refused it: the admission plugins' (`AdmissionStatus`,
 * `kind: 'Status'`: a validating policy's Deny, a mutating policy's error, validate()'s 404 `no matches for
 * kind`), or the one the handler and registry answer before them (`RequestStatus`: 400 BadRequest of a body
 * that does not decode, 404, 504 Timeout; `InvalidStatus`: 422 Invalid of a built-in's native validation or a
 * custom resource's schema and rules).
 */
export type AnswerStatus = AdmissionStatus | InvalidStatus | RequestStatus

/** Whether a Status is the admission plugins' (its message is `<resource> "<name>" is forbidden: …`). */
export const isAdmissionStatus = (s: AnswerStatus | undefined): s is AdmissionStatus => s !== undefined && 'kind' in s

export interface AdmitResult extends Omit<DispatchResult, 'status'> {
  /**
   * The answer's Status when refused (`allowed: false`), whichever step refused: the one place for it.
   * `builtin.status` and `customResource.status` hold the same for their steps.
   */
  readonly status?: AnswerStatus
  /** The custom resource validation, when the object's kind is defined by a loaded CRD. */
  readonly customResource?: CustomResourceResult
  /** Set when the answer is 404 `no matches for kind`: why. */
  readonly noMatch?: NoMatch
  /** The name generated from metadata.generateName on CREATE (what the cluster would have stored). */
  readonly generatedName?: string
  /**
   * The decoding and defaulting of a built-in object (CREATE / UPDATE): when not allowed, the 400
   * BadRequest (`status`, `message`) and no policy ran; else `object` is the object as the policies
   * saw it (decoded, defaulted) and `warnings` the unknown fields under fieldValidation Warn, then the
   * strategy's (a Pod's AppArmor annotations copied into their fields by PrepareForCreate, and once validation
   * passed WarningsOnCreate / WarningsOnUpdate: src/builtin/warnings/), which the answer's `warnings` begin with.
   */
  readonly builtin?: BuiltinResult
  /**
   * Set when a MutatingAdmissionPolicy matched the request: the object after the mutating policies
   * (what schema validation and the validating policies saw), each invocation's change, and the RFC
   * 6902 patch from the object the mutating policies received (decoded and defaulted) to it.
   */
  readonly mutatedObject?: JSONObject
  readonly patch?: readonly PatchOperation[]
  readonly mutations?: readonly PolicyMutation[]
  /** The errors of the mutating policies that denied the request (the first one is `status.message`). */
  readonly mutationErrors?: readonly MutationError[]
  /**
   * validate() only (admit() answers for an apiserver that words this itself): the object's apiVersion at the
   * target release, when its lifecycle has something to say. A deprecated version's warning is also the first
   * of `warnings`, where kube-apiserver puts it.
   */
  readonly apiLifecycle?: ApiLifecycle
  /** Set when an in-tree admission plugin refused the request (`status`): its name (src/engine/admission/in-tree.ts). */
  readonly admissionPlugin?: string
  /**
   * The in-tree admission plugins that met this request but could not run for lack of input (no LimitRange,
   * ServiceAccount, RuntimeClass, PriorityClass, StorageClass or IngressClass of the kind among the inputs):
   * one sentence each, the same for every request (a report says each once per run).
   */
  readonly pluginsNotRun?: readonly string[]
}
