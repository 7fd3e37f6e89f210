import { goQuote } from '../../../cel/ext/quote.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../../../kube/validation/names.js'
import { type ValidateNameFunc, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { isPathSegmentName } from '../../../kube/validation/path-segment-name.js'
import { type JSONObject, num, obj, str } from '../common.js'

// apiregistration.k8s.io/v1 APIService, kube-aggregator's kind (served by the aggregator inside
// kube-apiserver): k8s.io/kube-aggregator v0.37.2 pkg/apis/apiregistration/validation/validation.go
// ValidateAPIService / ValidateAPIServiceUpdate, and the strategy's PrepareForCreate / PrepareForUpdate
// (pkg/registry/apiservice/strategy.go). On the decoded, defaulted v1 object (spec.service.port 443 by
// v1/defaults.go SetDefaults_ServiceReference).

const SPEC = FieldPath.of('spec')

/** The name rule of ValidateAPIService: a path segment that is `<spec.version>.<spec.group>`. */
function apiServiceName(spec: JSONObject): ValidateNameFunc {
  const required = `${str(spec.version)}.${str(spec.group)}`
  // the rule ignores `prefix`: a generateName is held to the same required name
  return (name) => {
    const failures = isPathSegmentName(name)
    if (failures.length > 0) return failures
    return name === required ? [] : [`must be \`spec.version+"."+spec.group\`: ${goQuote(required)}`]
  }
}

/** caBundle's length in bytes (the decoded object holds it base64, as Go marshals []byte). */
function caBundleBytes(spec: JSONObject): number {
  const b = spec.caBundle
  return typeof b === 'string' ? Buffer.from(b, 'base64').length : 0
}

/** ValidateAPIService without its ObjectMeta part. */
function validateAPIServiceSpec(spec: JSONObject): FieldError[] {
  const errs: FieldError[] = []
  const group = str(spec.group)
  const version = str(spec.version)
  // in this case we allow empty group (legacy kube's v1)
  if (group === '' && version !== 'v1')
    errs.push(field.required(SPEC.child('group'), 'only v1 may have an empty group and it better be legacy kube'))
  if (group !== '')
    for (const msg of isDNS1123Subdomain(group)) errs.push(field.invalid(SPEC.child('group'), group, msg))
  for (const msg of isDNS1035Label(version)) errs.push(field.invalid(SPEC.child('version'), version, msg))
  const groupPriority = num(spec.groupPriorityMinimum)
  if (groupPriority <= 0 || groupPriority > 20000)
    errs.push(field.invalid(SPEC.child('groupPriorityMinimum'), groupPriority, 'must be positive and less than 20000'))
  const versionPriority = num(spec.versionPriority)
  if (versionPriority <= 0 || versionPriority > 1000)
    errs.push(field.invalid(SPEC.child('versionPriority'), versionPriority, 'must be positive and less than 1000'))
  const insecure = spec.insecureSkipTLSVerify === true
  const caBytes = caBundleBytes(spec)
  const service = obj(spec.service)
  if (service === undefined) {
    if (caBytes !== 0)
      errs.push(field.invalid(SPEC.child('caBundle'), `${caBytes} bytes`, 'local APIServices may not have a caBundle'))
    if (insecure)
      errs.push(
        field.invalid(
          SPEC.child('insecureSkipTLSVerify'),
          true,
          'local APIServices may not have insecureSkipTLSVerify',
        ),
      )
    return errs
  }
  const svc = SPEC.child('service')
  if (str(service.namespace) === '') errs.push(field.required(svc.child('namespace'), ''))
  if (str(service.name) === '') errs.push(field.required(svc.child('name'), ''))
  // the internal type's port is an int32 (a nil pointer converts to 0; defaulting made it 443)
  const port = num(service.port)
  const portErrs = isValidPortNum(port)
  if (portErrs.length > 0)
    errs.push(field.invalid(svc.child('port'), port, `port is not valid: ${portErrs.join(', ')}`))
  if (insecure && caBytes > 0)
    errs.push(field.invalid(SPEC.child('insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'))
  return errs
}

/** ValidateAPIService: ObjectMeta with the `<version>.<group>` name rule, then the spec. */
export function validateAPIService(o: JSONObject, minor: number): FieldError[] {
  const spec = obj(o.spec) ?? {}
  return [
    ...validateObjectMetaFor(o, { namespaced: false, nameFn: apiServiceName(spec), minor }),
    ...validateAPIServiceSpec(spec),
  ]
}

/** ValidateAPIServiceUpdate: ValidateObjectMetaUpdate, then all of ValidateAPIService. */
export function validateAPIServiceUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return [
    ...validateObjectMetaFor(o, {
      namespaced: false,
      nameFn: apiServiceName(obj(o.spec) ?? {}),
      minor,
      oldObject: old,
    }),
    ...validateAPIService(o, minor),
  ]
}

/**
 * The strategy's PrepareForCreate (old undefined): the status wiped, and a local APIService (no service) marked
 * Available at once (apiregistration.NewLocalAvailableAPIServiceCondition, stamped with the time of the request
 * in whole seconds as metav1.Time marshals); PrepareForUpdate: the old status kept (the main resource never
 * writes it). In place.
 */
export function prepareAPIService(o: JSONObject, old: JSONObject | undefined): void {
  if (old !== undefined) {
    o.status = structuredClone(obj(old.status) ?? {})
    return
  }
  o.status = {}
  if (obj(o.spec)?.service === undefined)
    o.status = {
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastTransitionTime: `${new Date().toISOString().slice(0, 19)}Z`,
          reason: 'Local',
          message: 'Local APIServices are always available',
        },
      ],
    }
}
