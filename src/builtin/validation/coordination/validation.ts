import type { FeatureGates } from '../../../kube/feature-gates.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { type JSONObject, obj, optNum } from '../common.js'

// coordination.k8s.io/v1 Lease: kubernetes v1.37.2 pkg/apis/coordination/validation/validation.go
// ValidateLease, ValidateLeaseUpdate, ValidateLeaseSpec, ValidateCoordinatedLeaseStrategy; the strategy
// (pkg/registry/coordination/lease/strategy.go) drops spec.strategy and spec.preferredHolder while the
// CoordinatedLeaderElection gate is off, which it is by default in every release kelp targets (alpha in
// 1.31, beta off from 1.33: k8s.io/apiserver pkg/features/kube_features.go).

const SPEC = FieldPath.of('spec')
const STRATEGIES = ['OldestEmulationVersion']

/** PrepareForCreate / PrepareForUpdate: the gated fields dropped unless the old object had them. */
export function dropLeaseDisabledFields(o: JSONObject, old: JSONObject | undefined, _on: FeatureGates): void {
  const spec = obj(o.spec)
  if (spec === undefined) return
  const oldSpec = obj(old?.spec)
  if (oldSpec?.strategy === undefined || oldSpec.strategy === null) delete spec.strategy
  if (oldSpec?.preferredHolder === undefined || oldSpec.preferredHolder === null) delete spec.preferredHolder
}

/** ValidateCoordinatedLeaseStrategy (the error's path repeats `strategy`, as Go's does). */
export function validateCoordinatedLeaseStrategy(strategy: string, p: FieldPath, minor: number): FieldError[] {
  if (strategy.split('/').length === 1)
    return STRATEGIES.includes(strategy) ? [] : [field.notSupported(p.child('strategy'), strategy, STRATEGIES)]
  return isQualifiedName(strategy, minor).map((m) => field.invalid(p.child('strategy'), strategy, m))
}

/** ValidateLeaseSpec. */
export function validateLeaseSpec(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const duration = optNum(spec.leaseDurationSeconds)
  if (duration !== undefined && duration <= 0)
    errs.push(field.invalid(p.child('leaseDurationSeconds'), duration, 'must be greater than 0'))
  const transitions = optNum(spec.leaseTransitions)
  if (transitions !== undefined && transitions < 0)
    errs.push(field.invalid(p.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'))
  const strategy = typeof spec.strategy === 'string' ? spec.strategy : undefined
  if (strategy !== undefined) errs.push(...validateCoordinatedLeaseStrategy(strategy, p.child('strategy'), minor))
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && (strategy ?? '') === '')
    errs.push(field.forbidden(p.child('preferredHolder'), 'may only be specified if `strategy` is defined'))
  return errs
}

/** ValidateLease. */
export function validateLease(l: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(l, { namespaced: true, nameFn: nameIsDNSSubdomain, minor })
  errs.push(...validateLeaseSpec(obj(l.spec) ?? {}, SPEC, minor))
  return errs
}

/** ValidateLeaseUpdate. */
export function validateLeaseUpdate(l: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(l, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, oldObject: old })
  errs.push(...validateLeaseSpec(obj(l.spec) ?? {}, SPEC, minor))
  return errs
}
