import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName, isValidLabelValue } from '../../../kube/validation/names.js'
import { validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import {
  deepEqual,
  type JSONObject,
  nameIsDNSSubdomain,
  objectMetaUpdate,
  validateDNS1123Subdomain,
} from '../common.js'
import { validateTemplateObjectMeta } from '../core/pod-volumes.js'
import { validateCELExpression } from './cel.js'
import {
  arr,
  DEVICE_CONFIG_MAX_SIZE,
  DEVICE_CONSTRAINTS_MAX_SIZE,
  DEVICE_DERIVED_ATTRIBUTES_MAX_SIZE,
  DEVICE_REQUESTS_MAX_SIZE,
  DEVICE_SELECTORS_MAX_SIZE,
  duplicates,
  dvDriverName,
  Errs,
  FIRST_AVAILABLE_MAX_SIZE,
  internalGo,
  OPAQUE_PARAMETERS_MAX_LENGTH,
  obj,
  resourceFullyQualifiedName,
  str,
  tooMany,
  validateRawExtension,
  validateRequestName,
} from './common.js'

// resource.k8s.io/v1 ResourceClaim and ResourceClaimTemplate: kubernetes v1.37.2
// pkg/apis/resource/validation/validation.go ValidateResourceClaim, ValidateResourceClaimUpdate,
// ValidateResourceClaimTemplate, ValidateResourceClaimTemplateUpdate and the DeviceClaim they share
// (validateDeviceClaim), with the declarative rules of k8s.io/api resource/v1 (see common.ts). The
// status is reset by PrepareForCreate and not validated here. Not modelled: AuthorizedForAdmin (an
// adminAccess request needs the namespace label `resource.kubernetes.io/admin-access`, which kelp
// cannot see) and the derived attributes' total CEL cost.

type RequestNames = Map<string, Set<string> | undefined>

/** gatherRequestNames. */
function gatherRequestNames(claim: JSONObject): RequestNames {
  const names: RequestNames = new Map()
  for (const r of arr(claim.requests)) {
    const req = obj(r) ?? {}
    const first = arr(req.firstAvailable)
    names.set(str(req.name), first.length === 0 ? undefined : new Set(first.map((s) => str(obj(s)?.name))))
  }
  return names
}

/** requestNames.Has: `req` or `req/sub`. */
function hasRequest(names: RequestNames, s: string): boolean {
  const seg = s.split('/')
  if (seg.length > 2) return false
  if (!names.has(seg[0] as string)) return false
  if (seg.length === 1) return true
  return names.get(seg[0] as string)?.has(seg[1] as string) ?? false
}

/** gatherConstraintAttributes: request ("" for all) → the attributes its constraints name. */
function gatherConstraintAttributes(constraints: unknown[]): Map<string, Set<string>> {
  const attrs = new Map<string, Set<string>>()
  const add = (k: string, a: string) => {
    let s = attrs.get(k)
    if (s === undefined) attrs.set(k, (s = new Set()))
    s.add(a)
  }
  for (const c of constraints) {
    const con = obj(c) ?? {}
    const a =
      typeof con.matchAttribute === 'string'
        ? con.matchAttribute
        : typeof con.distinctAttribute === 'string'
          ? con.distinctAttribute
          : undefined
    if (a === undefined) continue
    const reqs = arr(con.requests)
    if (reqs.length === 0) add('', a)
    else for (const r of reqs) add(str(r), a)
  }
  return attrs
}

/** isAttributeUsedByConstraint. */
function isAttributeUsedByConstraint(attr: string, req: string, attrs: Map<string, Set<string>>): boolean {
  if (attrs.get('')?.has(attr)) return true
  if (attrs.get(req)?.has(attr)) return true
  const slash = req.indexOf('/')
  return slash >= 0 && (attrs.get(req.slice(0, slash))?.has(attr) ?? false)
}

interface Opts {
  readonly constraintAttributes: Map<string, Set<string>>
}

/** validateDeviceClaim. */
function validateDeviceClaim(claim: JSONObject, p: FieldPath, errs: Errs): void {
  const names = gatherRequestNames(claim)
  const opts: Opts = { constraintAttributes: gatherConstraintAttributes(arr(claim.constraints)) }
  const requests = arr(claim.requests)
  const rp = p.child('requests')
  if (!tooMany(errs, requests, DEVICE_REQUESTS_MAX_SIZE, rp, true)) {
    // the declarative walk checks a list (its uniqueness) before its items
    errs.covered(...duplicates(requests, (r) => str(obj(r)?.name), rp, 'resource/v1.DeviceRequest'))
    requests.forEach((r, i) => {
      validateDeviceRequest(obj(r) ?? {}, rp.index(i), opts, errs)
    })
  }
  const constraints = arr(claim.constraints)
  const cp = p.child('constraints')
  if (!tooMany(errs, constraints, DEVICE_CONSTRAINTS_MAX_SIZE, cp, true))
    constraints.forEach((c, i) => {
      validateDeviceConstraint(obj(c) ?? {}, cp.index(i), names, errs)
    })
  const config = arr(claim.config)
  const fp = p.child('config')
  if (!tooMany(errs, config, DEVICE_CONFIG_MAX_SIZE, fp, true))
    config.forEach((c, i) => {
      const cfg = obj(c) ?? {}
      validateRequestRefs(arr(cfg.requests), fp.index(i).child('requests'), names, errs)
      validateDeviceConfiguration(cfg, fp.index(i), errs)
    })
}

/** validateSet(requests, DeviceRequestsMaxSize, validateRequestNameRef, stringKey, sizeCovered, uniquenessCovered). */
function validateRequestRefs(refs: unknown[], p: FieldPath, names: RequestNames, errs: Errs): void {
  if (tooMany(errs, refs, DEVICE_REQUESTS_MAX_SIZE, p, true)) return
  errs.covered(...duplicates(refs, str, p))
  refs.forEach((r, i) => {
    errs.add(...validateRequestNameRef(str(r), p.index(i), names))
  })
}

const REQUEST_REF =
  "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"

/** validateRequestNameRef. */
function validateRequestNameRef(name: string, p: FieldPath, names: RequestNames): FieldError[] {
  const seg = name.split('/')
  if (seg.length > 2) return [field.invalid(p, name, REQUEST_REF)]
  const out: FieldError[] = []
  for (const s of seg) out.push(...validateRequestName(s, p))
  if (!hasRequest(names, name)) out.push(field.invalid(p, name, REQUEST_REF))
  return out
}

/** validateDeviceRequest. */
function validateDeviceRequest(req: JSONObject, p: FieldPath, opts: Opts, errs: Errs): void {
  errs.add(...validateRequestName(str(req.name), p.child('name')))
  const first = arr(req.firstAvailable)
  const exactly = obj(req.exactly)
  const n = (first.length > 0 ? 1 : 0) + (exactly !== undefined ? 1 : 0)
  if (n === 0) errs.add(field.required(p, 'exactly one of `exactly` or `firstAvailable` is required'))
  else if (n > 1)
    errs.add(
      field.invalid(p, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'),
    )
  else if (first.length > 0) {
    const fp = p.child('firstAvailable')
    if (!tooMany(errs, first, FIRST_AVAILABLE_MAX_SIZE, fp, true)) {
      errs.covered(...duplicates(first, (s) => str(obj(s)?.name), fp, 'resource/v1.DeviceSubRequest'))
      first.forEach((s, i) => {
        validateDeviceSubRequest(obj(s) ?? {}, fp.index(i), opts, str(req.name), errs)
      })
    }
  } else if (exactly !== undefined) validateExactDeviceRequest(exactly, p.child('exactly'), opts, str(req.name), errs)
}

/** validateDeviceSubRequest. */
function validateDeviceSubRequest(sub: JSONObject, p: FieldPath, opts: Opts, parent: string, errs: Errs): void {
  errs.add(...validateRequestName(str(sub.name), p.child('name')))
  errs.covered(...validateDeviceClass(str(sub.deviceClassName), p.child('deviceClassName')))
  validateRequestCommon(sub, p, opts, `${parent}/${str(sub.name)}`, errs)
}

/** validateExactDeviceRequest. */
function validateExactDeviceRequest(req: JSONObject, p: FieldPath, opts: Opts, name: string, errs: Errs): void {
  errs.add(...validateDeviceClass(str(req.deviceClassName), p.child('deviceClassName')))
  validateRequestCommon(req, p, opts, name, errs)
}

/** What validateExactDeviceRequest and validateDeviceSubRequest share after the class. */
function validateRequestCommon(req: JSONObject, p: FieldPath, opts: Opts, name: string, errs: Errs): void {
  validateSelectorSlice(arr(req.selectors), p.child('selectors'), errs)
  validateDeviceDerivedAttributes(arr(req.derivedAttributes), p.child('derivedAttributes'), opts, name, errs)
  validateDeviceAllocationMode(req.allocationMode, req.count, p.child('allocationMode'), p.child('count'), errs)
  arr(req.tolerations).forEach((t, i) => {
    validateDeviceToleration(obj(t) ?? {}, p.child('tolerations').index(i), errs)
  })
}

/** validateDeviceClass: required, a DNS subdomain. */
function validateDeviceClass(name: string, p: FieldPath): FieldError[] {
  return name === '' ? [field.required(p, '')] : validateDNS1123Subdomain(name, p)
}

/** validateSelectorSlice (also DeviceClass's selectors). */
export function validateSelectorSlice(selectors: unknown[], p: FieldPath, errs: Errs): void {
  if (tooMany(errs, selectors, DEVICE_SELECTORS_MAX_SIZE, p, true)) return
  selectors.forEach((s, i) => {
    const cel = obj(obj(s)?.cel)
    const sp = p.index(i)
    if (cel === undefined) errs.add(field.required(sp.child('cel'), ''))
    else errs.add(...validateCELExpression(str(cel.expression), sp.child('cel', 'expression'), false))
  })
}

/** validateDeviceDerivedAttributes, with the standard declarative rules of DeviceDerivedAttribute. */
function validateDeviceDerivedAttributes(attrs: unknown[], p: FieldPath, opts: Opts, req: string, errs: Errs): void {
  attrs.forEach((a, i) => {
    const attr = obj(a) ?? {}
    const ap = p.index(i)
    const name = str(attr.name)
    if (name !== '' && !isAttributeUsedByConstraint(name, req, opts.constraintAttributes))
      errs.add(
        field.invalid(
          ap.child('name'),
          name,
          'must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request',
        ),
      )
    const expression = str(attr.expression)
    if (expression !== '') errs.add(...validateCELExpression(expression, ap.child('expression'), true))
  })
  errs.add(...duplicates(attrs, (a) => str(obj(a)?.name), p))
  // +k8s:maxItems=32, and per item +k8s:required name (a fully qualified name) and expression
  if (attrs.length > DEVICE_DERIVED_ATTRIBUTES_MAX_SIZE)
    errs.covered(field.tooMany(p, attrs.length, DEVICE_DERIVED_ATTRIBUTES_MAX_SIZE))
  else
    attrs.forEach((a, i) => {
      const attr = obj(a) ?? {}
      const ap = p.index(i)
      if (str(attr.name) === '') errs.covered(field.required(ap.child('name'), ''))
      else errs.covered(...resourceFullyQualifiedName(str(attr.name), ap.child('name')))
      if (str(attr.expression) === '') errs.covered(field.required(ap.child('expression'), ''))
    })
}

const ALLOCATION_MODES = ['All', 'ExactCount']

/** validateDeviceAllocationMode. */
function validateDeviceAllocationMode(mode: unknown, count: unknown, mp: FieldPath, cp: FieldPath, errs: Errs): void {
  const n = typeof count === 'number' ? count : 0
  if (mode === 'All') {
    if (n !== 0) errs.add(field.invalid(cp, n, "must not be specified when allocationMode is 'All'"))
  } else if (mode === 'ExactCount') {
    if (n <= 0) errs.add(field.invalid(cp, n, 'must be greater than zero'))
  } else errs.covered(field.notSupported(mp, str(mode), ALLOCATION_MODES))
}

/** validateDeviceConstraint (DRAConsumableCapacity on in 1.37). */
function validateDeviceConstraint(c: JSONObject, p: FieldPath, names: RequestNames, errs: Errs): void {
  validateRequestRefs(arr(c.requests), p.child('requests'), names, errs)
  if (typeof c.matchAttribute === 'string')
    errs.covered(...resourceFullyQualifiedName(c.matchAttribute, p.child('matchAttribute')))
  else if (typeof c.distinctAttribute === 'string')
    errs.covered(...resourceFullyQualifiedName(c.distinctAttribute, p.child('distinctAttribute')))
  else
    errs.add(
      field.required(
        p,
        'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set',
      ),
    )
}

/** validateDeviceConfiguration: an opaque configuration (driver, parameters). */
export function validateDeviceConfiguration(cfg: JSONObject, p: FieldPath, errs: Errs): void {
  const opaque = obj(cfg.opaque)
  const op = p.child('opaque')
  if (opaque === undefined) {
    errs.add(field.required(op, ''))
    return
  }
  errs.covered(...dvDriverName(str(opaque.driver), op.child('driver')))
  errs.add(...validateRawExtension(opaque.parameters, op.child('parameters'), OPAQUE_PARAMETERS_MAX_LENGTH))
}

const TOLERATION_OPERATORS = ['Equal', 'Exists']
const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'None']

/** validateDeviceToleration (key, operator and effect by their declarative rules). */
function validateDeviceToleration(t: JSONObject, p: FieldPath, errs: Errs): void {
  const key = str(t.key)
  if (key !== '') for (const m of isQualifiedName(key)) errs.covered(field.invalid(p.child('key'), key, m))
  const value = str(t.value)
  const op = str(t.operator)
  if (op === 'Exists') {
    if (value !== '') errs.add(field.invalid(p.child('value'), value, 'must be empty for operator `Exists`'))
  } else if (op === 'Equal') {
    for (const m of isValidLabelValue(value)) errs.add(field.invalid(p.child('value'), value, m))
  } else if (op === '') errs.covered(field.required(p.child('operator'), ''))
  else errs.covered(field.notSupported(p.child('operator'), op, TOLERATION_OPERATORS))
  const effect = str(t.effect)
  if (effect !== '' && !TAINT_EFFECTS.includes(effect))
    errs.covered(field.notSupported(p.child('effect'), effect, TAINT_EFFECTS))
}

const META = FieldPath.of('metadata')

/** ValidateResourceClaim. */
export function validateResourceClaim(claim: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...validateObjectMetaFor(claim, { namespaced: true, nameFn: nameIsDNSSubdomain, minor }))
  validateDeviceClaim(obj(obj(claim.spec)?.devices) ?? {}, FieldPath.of('spec', 'devices'), errs)
  return errs.all()
}

/** ValidateResourceClaimUpdate: metadata, then the spec is immutable (a declarative rule: null value). */
export function validateResourceClaimUpdate(claim: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...validateObjectMetaFor(claim, { namespaced: true, nameFn: nameIsDNSSubdomain, minor }))
  errs.add(...objectMetaUpdate(claim, old, minor))
  if (!deepEqual(claim.spec ?? null, old.spec ?? null))
    errs.covered(field.invalid(FieldPath.of('spec'), null, 'field is immutable'))
  return errs.all()
}

/** ValidateResourceClaimTemplate. */
export function validateResourceClaimTemplate(t: JSONObject, minor: number): FieldError[] {
  const errs = new Errs()
  errs.add(...validateObjectMetaFor(t, { namespaced: true, nameFn: nameIsDNSSubdomain, minor }))
  const spec = obj(t.spec) ?? {}
  errs.add(...validateTemplateObjectMeta(obj(spec.metadata) ?? {}, FieldPath.of('spec', 'metadata'), minor))
  validateDeviceClaim(obj(obj(spec.spec)?.devices) ?? {}, FieldPath.of('spec', 'spec', 'devices'), errs)
  return errs.all()
}

/**
 * ValidateResourceClaimTemplateUpdate: ValidateObjectMetaUpdate, the spec immutable (handwritten: the new
 * spec as value, printed as the internal Go struct).
 */
export function validateResourceClaimTemplateUpdate(t: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = objectMetaUpdate(t, old, minor)
  if (!deepEqual(t.spec ?? null, old.spec ?? null))
    errs.push(
      field.invalid(
        FieldPath.of('spec'),
        internalGo('resource/v1.ResourceClaimTemplateSpec', t.spec),
        'field is immutable',
      ),
    )
  return errs
}

export { META }
