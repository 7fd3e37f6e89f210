import type { FieldError } from '../../kube/field.js'

// ObjectMeta for every kind: `validateObjectMetaFor(object, { namespaced, nameFn, minor, oldObject })`
// in src/kube/validation/objectmeta.ts (ValidateObjectMeta on create, ValidateObjectMetaUpdate when
// oldObject is given), with the name rules `nameIsDNSSubdomain`, `nameIsDNSLabel`,
// `nameIsDNS1035Label`, `validatePathSegment` and `anyName` exported beside it; the name and label
// formats are in src/kube/validation/names.ts.

// The native validation of built-in kinds (kube-apiserver's pkg/apis/<group>/validation, run by each
// kind's registry strategy Validate / ValidateUpdate after decoding and defaulting): one function per
// group/version/kind, create and update. Validators are registered by the files that define them
// (core.ts, apps.ts, ... import `register`); `validatorFor` is what the engine asks.

export type JSONObject = Record<string, unknown>

export interface ValidationContext {
  /** The target release's minor (30 … 37): messages and feature-gated rules follow its defaults. */
  readonly minor: number
  /** The object before the update (decoded and defaulted), on UPDATE. */
  readonly oldObject?: JSONObject
}

/** A kind's strategy validation: the field errors, in the apiserver's order ([] = valid). */
export type KindValidator = (object: JSONObject, context: ValidationContext) => FieldError[]

/** group → version → kind → validator (nested: asked once per object, no key string built). */
const validators = new Map<string, Map<string, Map<string, KindValidator>>>()

/** Registers the validator of one kind (group '' for core). */
export function register(group: string, version: string, kind: string, validate: KindValidator): void {
  let versions = validators.get(group)
  if (versions === undefined) validators.set(group, (versions = new Map()))
  let kinds = versions.get(version)
  if (kinds === undefined) versions.set(version, (kinds = new Map()))
  kinds.set(kind, validate)
}

/** The validator of a kind, or undefined when kelp does not cover that kind's native validation yet. */
export function validatorFor(group: string, version: string, kind: string): KindValidator | undefined {
  return validators.get(group)?.get(version)?.get(kind)
}
