import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import {
  arr,
  deepEqual,
  isValidIPForLegacyField,
  isValidPortNum,
  type JSONObject,
  obj,
  optNum,
  optStr,
  str,
  strictIPCIDR,
  validateDNS1123Label,
  validateQualifiedName,
} from '../common.js'
import { validateEndpointIP } from './service.js'

// core/v1 Endpoints: kubernetes v1.37.2 pkg/apis/core/validation/validation.go ValidateEndpointsCreate /
// ValidateEndpointsUpdate (ValidateEndpoints: ObjectMeta with ValidateEndpointsName, NameIsDNSSubdomain;
// the subsets' addresses, not-ready addresses and ports; on update the subsets' errors are dropped when the
// subsets did not change). The kind's declarative rules cover ObjectMeta only (alpha), not enforced.

const META = FieldPath.of('metadata')
const SUBSETS = FieldPath.of('subsets')
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']

/** validateEndpointAddress. */
function validateEndpointAddress(a: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const ip = str(a.ip)
  const errs = isValidIPForLegacyField(p.child('ip'), ip, strictIPCIDR(minor), [])
  const hostname = str(a.hostname)
  if (hostname.length > 0) errs.push(...validateDNS1123Label(hostname, p.child('hostname')))
  const nodeName = optStr(a.nodeName)
  if (nodeName !== undefined)
    for (const m of nameIsDNSSubdomain(nodeName, false)) errs.push(field.invalid(p.child('nodeName'), nodeName, m))
  errs.push(...validateEndpointIP(ip, p.child('ip')))
  return errs
}

/** validateEndpointPort. */
function validateEndpointPort(port: JSONObject, requireName: boolean, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const name = str(port.name)
  if (requireName && name.length === 0) errs.push(field.required(p.child('name'), ''))
  else if (name.length !== 0) errs.push(...validateDNS1123Label(name, p.child('name')))
  const n = optNum(port.port) ?? 0
  for (const m of isValidPortNum(n)) errs.push(field.invalid(p.child('port'), n, m))
  const protocol = str(port.protocol)
  if (protocol.length === 0) errs.push(field.required(p.child('protocol'), ''))
  else if (!PROTOCOLS.includes(protocol)) errs.push(field.notSupported(p.child('protocol'), protocol, PROTOCOLS))
  const appProtocol = optStr(port.appProtocol)
  if (appProtocol !== undefined) errs.push(...validateQualifiedName(appProtocol, p.child('appProtocol'), minor))
  return errs
}

/** validateEndpointSubsets. */
function validateEndpointSubsets(subsets: unknown, minor: number): FieldError[] {
  const errs: FieldError[] = []
  arr(subsets).forEach((x, i) => {
    const ss = obj(x) ?? {}
    const ip = SUBSETS.index(i)
    const addresses = arr(ss.addresses)
    const notReady = arr(ss.notReadyAddresses)
    if (addresses.length === 0 && notReady.length === 0)
      errs.push(field.required(ip, 'must specify `addresses` or `notReadyAddresses`'))
    addresses.forEach((a, j) => {
      errs.push(...validateEndpointAddress(obj(a) ?? {}, ip.child('addresses').index(j), minor))
    })
    notReady.forEach((a, j) => {
      errs.push(...validateEndpointAddress(obj(a) ?? {}, ip.child('notReadyAddresses').index(j), minor))
    })
    const ports = arr(ss.ports)
    ports.forEach((port, j) => {
      errs.push(...validateEndpointPort(obj(port) ?? {}, ports.length > 1, ip.child('ports').index(j), minor))
    })
  })
  return errs
}

/** ValidateEndpoints (create: old undefined). */
function validateEndpointsCommon(ep: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(ep, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, path: META })
  const subsetErrs = validateEndpointSubsets(ep.subsets, minor)
  // unchanged subsets keep what older releases accepted
  if (subsetErrs.length > 0 && old !== undefined && deepEqual(old.subsets ?? null, ep.subsets ?? null)) return errs
  errs.push(...subsetErrs)
  return errs
}

/** ValidateEndpointsCreate. */
export function validateEndpointsCreate(ep: JSONObject, minor: number): FieldError[] {
  return validateEndpointsCommon(ep, undefined, minor)
}

/** ValidateEndpointsUpdate: ValidateObjectMetaUpdate, then ValidateEndpoints. */
export function validateEndpointsUpdate(ep: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(ep, {
    namespaced: true,
    nameFn: nameIsDNSSubdomain,
    minor,
    oldObject: old,
    path: META,
  })
  errs.push(...validateEndpointsCommon(ep, old, minor))
  return errs
}
