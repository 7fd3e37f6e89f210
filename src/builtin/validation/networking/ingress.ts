import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isValidPortName } from '../../../kube/library/format.js'
import { isDNS1123Subdomain, maxLenError, regexError } from '../../../kube/validation/names.js'
import {
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateObjectMetaFor,
} from '../../../kube/validation/objectmeta.js'
import { isPathSegmentName } from '../../../kube/validation/path-segment-name.js'
import { parseIPSloppy } from '../../../kube/values/net.js'
import { annotations, arr, isObj, isValidPortNum, type JSONObject, num, obj, str, strs } from '../common.js'

// networking.k8s.io/v1 Ingress and IngressClass: kubernetes v1.37.2 pkg/apis/networking/validation/validation.go
// ValidateIngressCreate / ValidateIngressUpdate (IngressValidationOptions from the old object;
// RelaxedServiceNameValidation on from 1.36), ValidateIngressClass / ValidateIngressClassUpdate. The
// declarative rules of IngressClassParametersReference (kind and name required, beta from 1.37)
// replace the handwritten Required errors then, and come after the other errors.

const SPEC = FieldPath.of('spec')

const WILDCARD_FMT = `\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`)
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character"

/** validation.IsWildcardDNS1123Subdomain. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = []
  if (Buffer.byteLength(value) > 253) errs.push(maxLenError(253))
  if (!WILDCARD_RE.test(value)) errs.push(regexError(WILDCARD_MSG, WILDCARD_FMT, '*.example.com'))
  return errs
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
const HTTP_PATH_RE = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/

/** validation.IsDomainPrefixedPath. */
export function isDomainPrefixedPath(p: FieldPath, dp: string): FieldError[] {
  if (dp === '') return [field.required(p, '')]
  const slash = dp.indexOf('/')
  if (slash <= 0 || slash === dp.length - 1)
    return [field.invalid(p, dp, 'must be a domain-prefixed path (such as "acme.io/foo")')]
  const host = dp.slice(0, slash)
  const path = dp.slice(slash + 1)
  const errs = isDNS1123Subdomain(host).map((m) => field.invalid(p, host, m))
  if (!HTTP_PATH_RE.test(path)) errs.push(field.invalid(p, path, regexError('Invalid path', HTTP_PATH_FMT)))
  return errs
}

interface IngressOpts {
  allowInvalidSecretName: boolean
  allowInvalidWildcardHostRule: boolean
  allowRelaxedServiceName: boolean
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix']
const INVALID_SEQ = ['//', '/./', '/../', '%2f', '%2F']
const INVALID_SUFFIX = ['/..', '/.']

function validateTypedLocalRef(r: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (typeof r.apiGroup === 'string')
    for (const m of isDNS1123Subdomain(r.apiGroup)) errs.push(field.invalid(p.child('apiGroup'), r.apiGroup, m))
  for (const k of ['kind', 'name'] as const) {
    const v = str(r[k])
    if (v === '') errs.push(field.required(p.child(k), ''))
    else for (const m of isPathSegmentName(v)) errs.push(field.invalid(p.child(k), v, m))
  }
  return errs
}

function validateBackend(b: JSONObject, p: FieldPath, o: IngressOpts): FieldError[] {
  const res = obj(b.resource)
  const svc = obj(b.service)
  if (res && svc) return [field.invalid(p, '', 'cannot set both resource and service backends')]
  if (res) return validateTypedLocalRef(res, p.child('resource'))
  if (!svc) return [field.invalid(p, '', 'resource or service backend is required')]
  const errs: FieldError[] = []
  const name = str(svc.name)
  if (name === '') errs.push(field.required(p.child('service', 'name'), ''))
  else {
    const fn = o.allowRelaxedServiceName ? nameIsDNSLabel : nameIsDNS1035Label
    for (const m of fn(name, false)) errs.push(field.invalid(p.child('service', 'name'), name, m))
  }
  const port = obj(svc.port) ?? {}
  const pn = str(port.name)
  const pnum = num(port.number)
  if (pn !== '' && pnum !== 0) errs.push(field.invalid(p, '', 'cannot set both port name & port number'))
  else if (pn !== '')
    for (const m of isValidPortName(pn)) errs.push(field.invalid(p.child('service', 'port', 'name'), pn, m))
  else if (pnum !== 0)
    for (const m of isValidPortNum(pnum)) errs.push(field.invalid(p.child('service', 'port', 'number'), pnum, m))
  else errs.push(field.required(p, 'port name or number is required'))
  return errs
}

function validatePath(path: JSONObject, p: FieldPath, o: IngressOpts): FieldError[] {
  if (typeof path.pathType !== 'string') return [field.required(p.child('pathType'), 'pathType must be specified')]
  const errs: FieldError[] = []
  const v = str(path.path)
  const pp = p.child('path')
  switch (path.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!v.startsWith('/')) errs.push(field.invalid(pp, v, 'must be an absolute path'))
      if (v.length > 0) {
        for (const s of INVALID_SEQ) if (v.includes(s)) errs.push(field.invalid(pp, v, `must not contain '${s}'`))
        for (const s of INVALID_SUFFIX) if (v.endsWith(s)) errs.push(field.invalid(pp, v, `cannot end with '${s}'`))
      }
      break
    case 'ImplementationSpecific':
      if (v.length > 0 && !v.startsWith('/')) errs.push(field.invalid(pp, v, 'must be an absolute path'))
      break
    default:
      errs.push(field.notSupported(p.child('pathType'), path.pathType, PATH_TYPES))
  }
  errs.push(...validateBackend(obj(path.backend) ?? {}, p.child('backend'), o))
  return errs
}

function validateRuleValue(rule: JSONObject, p: FieldPath | undefined, o: IngressOpts): FieldError[] {
  const http = obj(rule.http)
  if (http === undefined) return []
  const hp = (p ?? FieldPath.of('')).child('http')
  const paths = arr(http.paths)
  const errs: FieldError[] = []
  if (paths.length === 0) errs.push(field.required(hp.child('paths'), ''))
  paths.forEach((x, i) => {
    errs.push(...validatePath(obj(x) ?? {}, hp.child('paths').index(i), o))
  })
  return errs
}

function validateSpec(spec: JSONObject, o: IngressOpts): FieldError[] {
  const errs: FieldError[] = []
  const rules = arr(spec.rules)
  if (rules.length === 0 && !isObj(spec.defaultBackend))
    errs.push(
      field.invalid(
        SPEC,
        Array.isArray(spec.rules) ? spec.rules : null,
        'either `defaultBackend` or `rules` must be specified',
      ),
    )
  if (isObj(spec.defaultBackend)) errs.push(...validateBackend(spec.defaultBackend, SPEC.child('defaultBackend'), o))
  rules.forEach((r, i) => {
    const rule = obj(r) ?? {}
    const rp = SPEC.child('rules').index(i)
    const host = str(rule.host)
    let wildcard = false
    if (host !== '') {
      if (parseIPSloppy(host) !== undefined)
        errs.push(field.invalid(rp.child('host'), host, 'must be a DNS name, not an IP address'))
      if (host.includes('*')) {
        for (const m of isWildcardDNS1123Subdomain(host)) errs.push(field.invalid(rp.child('host'), host, m))
        wildcard = true
      } else for (const m of isDNS1123Subdomain(host)) errs.push(field.invalid(rp.child('host'), host, m))
    }
    if (!wildcard || !o.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, rp, o))
  })
  arr(spec.tls).forEach((t, ti) => {
    const tls = obj(t) ?? {}
    const tp = SPEC.child('tls').index(ti)
    strs(tls.hosts).forEach((h, i) => {
      const msgs = h.includes('*') ? isWildcardDNS1123Subdomain(h) : isDNS1123Subdomain(h)
      for (const m of msgs) errs.push(field.invalid(tp.child('hosts').index(i), h, m))
    })
    const sn = str(tls.secretName)
    if (!o.allowInvalidSecretName && sn !== '')
      for (const m of nameIsDNSSubdomain(sn, false)) errs.push(field.invalid(tp.child('secretName'), sn, m))
  })
  if (typeof spec.ingressClassName === 'string')
    for (const m of nameIsDNSSubdomain(spec.ingressClassName, false))
      errs.push(field.invalid(SPEC.child('ingressClassName'), spec.ingressClassName, m))
  return errs
}

const relaxedName = (n: string) => nameIsDNSLabel(n, false).length === 0 && nameIsDNS1035Label(n, false).length > 0

function ingressOptions(old: JSONObject | undefined, minor: number): IngressOpts {
  const o: IngressOpts = {
    allowInvalidSecretName: false,
    allowInvalidWildcardHostRule: false,
    allowRelaxedServiceName: minor >= 36,
  }
  if (old === undefined) return o
  const spec = obj(old.spec) ?? {}
  o.allowInvalidSecretName = arr(spec.tls).some((t) => {
    const sn = str(obj(t)?.secretName)
    return sn !== '' && nameIsDNSSubdomain(sn, false).length > 0
  })
  o.allowInvalidWildcardHostRule = arr(spec.rules).some((r) => {
    const rule = obj(r) ?? {}
    return (
      str(rule.host).includes('*') &&
      validateRuleValue(rule, undefined, {
        allowInvalidSecretName: false,
        allowInvalidWildcardHostRule: false,
        allowRelaxedServiceName: false,
      }).length > 0
    )
  })
  if (!o.allowRelaxedServiceName) {
    const names: string[] = []
    const db = obj(obj(spec.defaultBackend)?.service)
    if (db) names.push(str(db.name))
    for (const r of arr(spec.rules))
      for (const x of arr(obj(obj(r)?.http)?.paths)) {
        const s = obj(obj(obj(x)?.backend)?.service)
        if (s) names.push(str(s.name))
      }
    o.allowRelaxedServiceName = names.some(relaxedName)
  }
  return o
}

function validateIngressCreateOrUpdate(ing: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const o = ingressOptions(old, minor)
  const spec = obj(ing.spec) ?? {}
  const meta = validateObjectMetaFor(ing, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor })
  if (old !== undefined)
    return [
      ...validateObjectMetaFor(ing, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor, oldObject: old }),
      ...meta,
      ...validateSpec(spec, o),
    ]
  const errs = [...meta, ...validateSpec(spec, o)]
  const ann = annotations(ing)
  const cls = 'kubernetes.io/ingress.class'
  if (Object.hasOwn(ann, cls) && typeof spec.ingressClassName === 'string' && ann[cls] !== spec.ingressClassName)
    errs.push(
      field.invalid(
        FieldPath.of('annotations').child(cls),
        ann[cls],
        'must match `ingressClassName` when both are specified',
      ),
    )
  return errs
}

const SCOPES = ['Cluster', 'Namespace']

function validateParams(params: JSONObject, p: FieldPath, declarative: boolean, declared: FieldError[]): FieldError[] {
  const errs: FieldError[] = []
  if (typeof params.apiGroup === 'string')
    for (const m of isDNS1123Subdomain(params.apiGroup))
      errs.push(field.invalid(p.child('apiGroup'), params.apiGroup, m))
  for (const k of ['kind', 'name'] as const) {
    const v = str(params[k])
    if (v === '') (declarative ? declared : errs).push(field.required(p.child(k), ''))
    else for (const m of isPathSegmentName(v)) errs.push(field.invalid(p.child(k), v, m))
  }
  if (typeof params.scope !== 'string') {
    errs.push(field.required(p.child('scope'), ''))
    return errs
  }
  const scope = params.scope
  if (!SCOPES.includes(scope)) errs.push(field.notSupported(p.child('scope'), scope, SCOPES))
  else {
    if (scope === 'Namespace') {
      if (typeof params.namespace !== 'string')
        errs.push(field.required(p.child('namespace'), "`parameters.scope` is set to 'Namespace'"))
      else
        for (const m of nameIsDNSLabel(params.namespace, false))
          errs.push(field.invalid(p.child('namespace'), params.namespace, m))
    }
    if (scope === 'Cluster' && typeof params.namespace === 'string')
      errs.push(field.forbidden(p.child('namespace'), "`parameters.scope` is set to 'Cluster'"))
  }
  return errs
}

function validateIngressClassFields(ic: JSONObject, minor: number, declared: FieldError[]): FieldError[] {
  const errs = validateObjectMetaFor(ic, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  const spec = obj(ic.spec) ?? {}
  const ctrl = str(spec.controller)
  const cp = SPEC.child('controller')
  if (Buffer.byteLength(ctrl) > 250) errs.push(field.tooLong(cp, 250))
  errs.push(...isDomainPrefixedPath(cp, ctrl))
  const params = obj(spec.parameters)
  if (params !== undefined) errs.push(...validateParams(params, SPEC.child('parameters'), minor >= 37, declared))
  return errs
}

/** ValidateIngressClass. */
export function validateIngressClass(ic: JSONObject, minor: number): FieldError[] {
  const declared: FieldError[] = []
  return [...validateIngressClassFields(ic, minor, declared), ...declared]
}

/** ValidateIngressClassUpdate. */
export function validateIngressClassUpdate(ic: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const declared: FieldError[] = []
  const errs = validateObjectMetaFor(ic, {
    namespaced: false,
    nameFn: nameIsDNSSubdomain,
    minor: minor,
    oldObject: old,
  })
  const nc = str(obj(ic.spec)?.controller)
  const oc = str(obj(old.spec)?.controller)
  if (nc !== oc) errs.push(field.invalid(SPEC.child('controller'), nc, 'field is immutable'))
  errs.push(...validateIngressClassFields(ic, minor, declared))
  // declarative ratcheting: an unchanged field is not validated again
  const op = obj(obj(old.spec)?.parameters)
  const np = obj(obj(ic.spec)?.parameters)
  const kept = declared.filter((e) => {
    const k = e.field.endsWith('.kind') ? 'kind' : 'name'
    return !(op !== undefined && np !== undefined && str(op[k]) === str(np[k]))
  })
  return [...errs, ...kept]
}

/** ValidateIngressCreate. */
export function validateIngressCreate(ing: JSONObject, minor: number): FieldError[] {
  return validateIngressCreateOrUpdate(ing, undefined, minor)
}

/** ValidateIngressUpdate. */
export function validateIngressUpdate(ing: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateIngressCreateOrUpdate(ing, old, minor)
}
