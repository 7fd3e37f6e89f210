import { type FieldError, type FieldPath, field, GoStruct } from '../../../kube/field.js'
import { byteLength } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain } from '../../../kube/validation/objectmeta.js'
import {
  arr,
  type JSONObject,
  obj,
  optNum,
  str,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateQualifiedName,
} from '../common.js'

// The smaller PodSpec rules (kubernetes v1.37.2 pkg/apis/core/validation/validation.go):
// validatePodResourceClaims, validatePodHostNetworkDeps, validateReadinessGates, validateSchedulingGates,
// validatePodHostName, ValidatePreemptionPolicy, ValidateRuntimeClassName. The imagePullSecrets rule
// ("only name may be set") cannot fail on a decoded v1 object (LocalObjectReference has only `name`),
// and deprecatedServiceAccount is kept equal to serviceAccountName by SetDefaults_PodSpec.

const claimValue = (c: JSONObject) =>
  new GoStruct([
    ['Name', str(c.name)],
    ['ResourceClaimName', typeof c.resourceClaimName === 'string' ? c.resourceClaimName : null],
    ['ResourceClaimTemplateName', typeof c.resourceClaimTemplateName === 'string' ? c.resourceClaimTemplateName : null],
  ])

/**
 * validatePodResourceClaims (DynamicResourceAllocation is GA, on, from 1.34; before, the strategy
 * drops the field). `mirror`: the pod carries the mirror-pod annotation.
 */
export function validatePodResourceClaims(claims: unknown, p: FieldPath, mirror: boolean): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set<string>()
  arr(claims).forEach((x, i) => {
    if (mirror) {
      // field.NewPath(""): an empty path
      errs.push({ ...field.forbidden(undefined, 'static pods do not support resource claims'), field: '' })
      return
    }
    const c = obj(x) ?? {}
    const ip = p.index(i)
    const name = str(c.name)
    if (name === '') errs.push(field.required(ip.child('name'), ''))
    else if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else {
      errs.push(...validateDNS1123Label(name, ip.child('name')))
      names.add(name)
    }
    const hasName = typeof c.resourceClaimName === 'string'
    const hasTemplate = typeof c.resourceClaimTemplateName === 'string'
    if (hasName && hasTemplate)
      errs.push(
        field.invalid(
          ip,
          claimValue(c),
          'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
        ),
      )
    if (!hasName && !hasTemplate)
      errs.push(
        field.invalid(ip, claimValue(c), 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'),
      )
    for (const k of ['resourceClaimName', 'resourceClaimTemplateName']) {
      const v = c[k]
      if (typeof v === 'string')
        for (const m of nameIsDNSSubdomain(v, false)) errs.push(field.invalid(ip.child(k), v, m))
    }
  })
  return errs
}

/** validatePodHostNetworkDeps: with hostNetwork, hostPort must equal containerPort (0 allowed in templates). */
export function validatePodHostNetworkDeps(spec: JSONObject, p: FieldPath, resourceIsPod: boolean): FieldError[] {
  if (spec.hostNetwork !== true) return []
  const errs: FieldError[] = []
  arr(spec.containers).forEach((c, i) => {
    arr(obj(c)?.ports).forEach((x, j) => {
      const port = obj(x) ?? {}
      const hp = optNum(port.hostPort) ?? 0
      const cp = optNum(port.containerPort) ?? 0
      if ((resourceIsPod || hp !== 0) && hp !== cp)
        errs.push(
          field.invalid(
            p.child('containers').index(i).child('ports').index(j).child('hostPort'),
            hp,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        )
    })
  })
  return errs
}

/** validateReadinessGates. */
export function validateReadinessGates(gates: unknown, p: FieldPath, minor = 37): FieldError[] {
  return arr(gates).flatMap((g, i) =>
    validateQualifiedName(str(obj(g)?.conditionType), p.index(i).child('conditionType'), minor),
  )
}

/** validateSchedulingGates (errors at the gate's index, no `name` step). */
export function validateSchedulingGates(gates: unknown, p: FieldPath, minor = 37): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  arr(gates).forEach((g, i) => {
    const name = str(obj(g)?.name)
    errs.push(...validateQualifiedName(name, p.index(i), minor))
    if (seen.has(name)) errs.push(field.duplicate(p.index(i), name))
    seen.add(name)
  })
  return errs
}

/** validatePodHostName (hostnameOverride). */
export function validatePodHostName(spec: JSONObject, p: FieldPath): FieldError[] {
  const ho = spec.hostnameOverride
  if (typeof ho !== 'string') return []
  const errs: FieldError[] = []
  const hp = p.child('hostnameOverride')
  if (spec.setHostnameAsFQDN === true)
    errs.push(field.forbidden(hp, 'may not be specified when setHostnameAsFQDN is true'))
  if (spec.hostNetwork === true) errs.push(field.forbidden(hp, 'may not be specified when hostNetwork is true'))
  if (byteLength(ho) > 64) errs.push(field.tooLong(hp, 64))
  errs.push(...validateDNS1123Subdomain(ho, hp))
  return errs
}

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never']

/** ValidatePreemptionPolicy (a nil policy is not checked). */
export function validatePreemptionPolicy(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v !== 'string') return []
  if (v === '') return [field.required(p, '')]
  return PREEMPTION_POLICIES.includes(v) ? [] : [field.notSupported(p, v, PREEMPTION_POLICIES)]
}

/** ValidateRuntimeClassName. */
export function validateRuntimeClassName(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v !== 'string') return []
  return nameIsDNSSubdomain(v, false).map((m) => field.invalid(p, v, m))
}
