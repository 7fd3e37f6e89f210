import type { FieldError } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'

// The signatures of a kind's strategy validation (kube-apiserver's pkg/apis/<group>/validation, called by
// each kind's registry strategy Validate / ValidateUpdate after decoding and defaulting). Which kinds kelp
// validates, with which functions, is the table of src/builtin/strategies.ts; src/builtin/strategy.ts
// runs a kind's row (rest.BeforeCreate / BeforeUpdate).

export type { JSONObject }

/** A kind's create validation (strategy.Validate): the field errors, in the apiserver's order ([] = valid). */
export type Validate = (object: JSONObject, minor: number) => FieldError[]

/** A kind's update validation (strategy.ValidateUpdate), with the old object decoded and defaulted. */
export type ValidateUpdate = (object: JSONObject, old: JSONObject, minor: number) => FieldError[]

export interface ValidationContext {
  /** The target release's minor (30 … 37): messages and feature-gated rules follow its defaults. */
  readonly minor: number
  /** The object before the update (decoded and defaulted), on UPDATE. */
  readonly oldObject?: JSONObject
}

/** Create (no oldObject) and update in one function: what `validatorFor` answers. */
export type KindValidator = (object: JSONObject, context: ValidationContext) => FieldError[]
