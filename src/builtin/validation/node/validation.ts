import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { isDNS1123Label } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { arr, type JSONObject, obj, optNum, str, strMap, validateLabels } from '../common.js'
import { validateResources, validateTolerations } from '../core/pod.js'

// node.k8s.io/v1 RuntimeClass: kubernetes v1.37.2 pkg/apis/node/validation/validation.go ValidateRuntimeClass,
// ValidateRuntimeClassUpdate (the strategy's ValidateUpdate runs both: pkg/registry/node/runtimeclass/
// strategy.go), with the beta declarative rules of k8s.io/api node/v1 on handler (required, k8s-short-name,
// immutable: registry/rest validate.go), which replace the handwritten errors marked covered and come
// after the handwritten ones; on update they run only when handler changed (Immutable short-circuits).
// The toleration key's declarative rule is alpha: its handwritten error stands.

const HANDLER = FieldPath.of('handler')

/** The Toleration the duplicate error prints: core's internal type, whose fields have no json tags. */
function toleration(t: JSONObject): GoStruct {
  return new GoStruct([
    ['Key', str(t.key)],
    ['Operator', str(t.operator)],
    ['Value', str(t.value)],
    ['Effect', str(t.effect)],
    ['TolerationSeconds', optNum(t.tolerationSeconds) ?? null],
  ])
}

/** validateTolerations: ValidateTolerations, then each (key, operator, value, effect) once. */
function validateSchedulingTolerations(tolerations: unknown, p: FieldPath, minor: number): FieldError[] {
  const errs = validateTolerations(tolerations, p, minor)
  const seen = new Set<string>()
  arr(tolerations).forEach((x, i) => {
    const t = obj(x) ?? {}
    const listKey = JSON.stringify([str(t.key), str(t.operator), str(t.value), str(t.effect)])
    if (seen.has(listKey)) errs.push(field.duplicate(p.index(i), toleration(t)))
    else seen.add(listKey)
  })
  return errs
}

/** The handwritten ValidateRuntimeClass, handler errors included or not (`handlerCovered`). */
function validateHandwritten(rc: JSONObject, minor: number, handlerCovered: boolean): FieldError[] {
  const errs = validateObjectMetaFor(rc, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  if (!handlerCovered) errs.push(...validateHandler(str(rc.handler)))
  const overhead = obj(rc.overhead)
  if (overhead !== undefined)
    errs.push(...validateResources({ limits: overhead.podFixed ?? null }, FieldPath.of('overhead')))
  const scheduling = obj(rc.scheduling)
  if (scheduling !== undefined) {
    const sp = FieldPath.of('scheduling')
    const selector = strMap(scheduling.nodeSelector)
    if (selector !== undefined) errs.push(...validateLabels(selector, sp.child('nodeSelector'), minor))
    errs.push(...validateSchedulingTolerations(scheduling.tolerations, sp.child('tolerations'), minor))
  }
  return errs
}

/** The handler: required, a DNS-1123 label (the handwritten and the declarative texts are the same). */
function validateHandler(handler: string): FieldError[] {
  if (handler === '') return [field.required(HANDLER, '')]
  return isDNS1123Label(handler).map((m) => field.invalid(HANDLER, handler, m))
}

/** The strategy's Validate: ValidateRuntimeClass with the declarative handler rules (1.37). */
export function validateRuntimeClass(rc: JSONObject, minor: number): FieldError[] {
  if (minor < 37) return validateHandwritten(rc, minor, false)
  return [...validateHandwritten(rc, minor, true), ...validateHandler(str(rc.handler))]
}

/**
 * The strategy's ValidateUpdate: ValidateRuntimeClass, then ValidateRuntimeClassUpdate (handler
 * immutable). A changed handler meets the declarative Immutable first, which short-circuits its other
 * rules: the handwritten handler errors then stay, and the immutable error (a null value) comes last.
 */
export function validateRuntimeClassUpdate(rc: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const changed = str(rc.handler) !== str(old.handler)
  const errs = validateHandwritten(rc, minor, false)
  errs.push(...validateObjectMetaFor(rc, { namespaced: false, nameFn: nameIsDNSSubdomain, minor, oldObject: old }))
  if (changed) errs.push(field.invalid(HANDLER, minor < 37 ? str(rc.handler) : null, 'field is immutable'))
  return errs
}
