import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Label, isDNS1123Subdomain } from '../../../kube/library/format.js'
import { isValidLabelValue } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { parseIPSloppy } from '../../../kube/values/net.js'
import { parseAddr } from '../../../kube/values/netip.js'
import {
  arr,
  deepEqual,
  ipErrors,
  isIPv6String,
  isValidIPForLegacyField,
  type JSONObject,
  obj,
  optStr,
  str,
  strictIPCIDR,
  strMap,
  validateDNS1123Label,
  validateLabels,
  validateQualifiedName,
} from '../common.js'
import { validateEndpointIP } from '../core/service.js'

// discovery.k8s.io/v1 EndpointSlice: kubernetes v1.37.2 pkg/apis/discovery/validation/validation.go
// ValidateEndpointSliceCreate / ValidateEndpointSliceUpdate (ObjectMeta with ValidateEndpointSliceName,
// NameIsDNSSubdomain; addressType, ports, endpoints with their addresses per address type, node names,
// deprecatedTopology, hostname and hints; an update's unchanged endpoints keep what older releases
// accepted; addressType immutable). From 1.37 (beta, DeclarativeValidationBeta on; alpha in 1.36) the rules of
// pkg/apis/discovery/v1 zz_generated.validations.go (addressType required, enum and immutable,
// endpoints[*].addresses required and at most 100) replace the handwritten errors they cover and come
// after the handwritten list; an unchanged field is not validated declaratively on update.

const META = FieldPath.of('metadata')
const ADDRESS_TYPE = FieldPath.of('addressType')
const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6']
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']
const MAX_TOPOLOGY_LABELS = 16
const MAX_ADDRESSES = 100
const MAX_PORTS = 20000
const MAX_ENDPOINTS = 1000
const MAX_ZONE_HINTS = 8
const MAX_NODE_HINTS = 8

/** Whether the kind's declarative rules are enforced: beta (DeclarativeValidationBeta on) from 1.37, alpha in 1.36. */
const beta = (minor: number) => minor >= 37

/** A handwritten error and whether it is MarkCoveredByDeclarative. */
type Hw = { e: FieldError; covered: boolean }

/** validation.IsValidIP (strict, canonical). */
function isValidIP(p: FieldPath, value: string): FieldError[] {
  const errs = ipErrors(p, value, true)
  if (errs.length > 0) return errs
  const a = parseAddr(value)
  if (typeof a !== 'string' && a.toString() !== value)
    errs.push(field.invalid(p, value, `must be in canonical form ("${a.toString()}")`))
  return errs
}

/** validation.IsFullyQualifiedDomainName. */
function isFullyQualifiedDomainName(p: FieldPath, name: string): FieldError[] {
  if (name.length === 0) return [field.required(p, '')]
  const n = name.endsWith('.') ? name.slice(0, -1) : name
  const sub = isDNS1123Subdomain(n)
  if (sub.length > 0) return [field.invalid(p, n, sub.join(','))]
  const labels = n.split('.')
  if (labels.length < 2) return [field.invalid(p, n, 'should be a domain with at least two segments separated by dots')]
  for (const l of labels) {
    const e = isDNS1123Label(l)
    if (e.length > 0) return [field.invalid(p, l, e.join(','))]
  }
  return []
}

const nodeNameErrors = (p: FieldPath, name: string): FieldError[] =>
  nameIsDNSSubdomain(name, false).map((m) => field.invalid(p, name, m))

/** validateHints. */
function validateHints(hints: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const fz = arr(hints.forZones)
  const fzp = p.child('forZones')
  if (fz.length > MAX_ZONE_HINTS) return [field.tooMany(fzp, fz.length, MAX_ZONE_HINTS)]
  const zones: string[] = []
  fz.forEach((z, i) => {
    const zp = fzp.index(i).child('name')
    const name = str(obj(z)?.name)
    if (zones.includes(name)) errs.push(field.duplicate(zp, name))
    else zones.push(name)
    for (const m of isValidLabelValue(name)) errs.push(field.invalid(zp, name, m))
  })
  const fn = arr(hints.forNodes)
  const fnp = p.child('forNodes')
  if (fn.length > MAX_NODE_HINTS) return [...errs, field.tooMany(fnp, fn.length, MAX_NODE_HINTS)]
  const nodes: string[] = []
  fn.forEach((x, i) => {
    const np = fnp.index(i).child('name')
    const name = str(obj(x)?.name)
    if (nodes.includes(name)) errs.push(field.duplicate(np, name))
    else nodes.push(name)
    errs.push(...nodeNameErrors(np, name))
  })
  return errs
}

/** validateEndpoints. */
function validateEndpoints(endpoints: unknown, addrType: string, minor: number): Hw[] {
  const p = FieldPath.of('endpoints')
  const list = arr(endpoints)
  if (list.length > MAX_ENDPOINTS) return [{ e: field.tooMany(p, list.length, MAX_ENDPOINTS), covered: false }]
  const out: Hw[] = []
  const hw = (errs: FieldError[], covered = false) => {
    for (const e of errs) out.push({ e, covered })
  }
  list.forEach((x, i) => {
    const ep = obj(x) ?? {}
    const ip = p.index(i)
    const ap = ip.child('addresses')
    const addresses = arr(ep.addresses)
    if (addresses.length === 0) hw([field.required(ap, 'must contain at least 1 address')], true)
    else if (addresses.length > MAX_ADDRESSES) hw([field.tooMany(ap, addresses.length, MAX_ADDRESSES)], true)
    addresses.forEach((a, j) => {
      const address = str(a)
      const aip = ap.index(j)
      if (addrType === 'IPv4') {
        const ipErrs = isValidIPForLegacyField(aip, address, strictIPCIDR(minor), [])
        if (ipErrs.length > 0) hw(ipErrs)
        else {
          if (parseIPSloppy(address) === undefined || isIPv6String(address))
            hw([field.invalid(ap, address, 'must be an IPv4 address')])
          hw(validateEndpointIP(address, aip))
        }
      } else if (addrType === 'IPv6') {
        const ipErrs = isValidIP(aip, address)
        if (ipErrs.length > 0) hw(ipErrs)
        else {
          if (!isIPv6String(address)) hw([field.invalid(ap, address, 'must be an IPv6 address')])
          hw(validateEndpointIP(address, aip))
        }
      } else if (addrType === 'FQDN') hw(isFullyQualifiedDomainName(aip, address))
    })
    const nodeName = optStr(ep.nodeName)
    if (nodeName !== undefined) hw(nodeNameErrors(ip.child('nodeName'), nodeName))
    // deprecatedTopology: dropped from v1 writes before validation (prepare.ts dropTopologyOnV1)
    const topology = strMap(ep.deprecatedTopology)
    const tp = ip.child('deprecatedTopology')
    const n = topology === undefined ? 0 : Object.keys(topology).length
    if (n > MAX_TOPOLOGY_LABELS) hw([field.tooMany(tp, n, MAX_TOPOLOGY_LABELS)])
    hw(validateLabels(topology, tp, minor))
    const hostname = optStr(ep.hostname)
    if (hostname !== undefined) hw(validateDNS1123Label(hostname, ip.child('hostname')))
    const hints = obj(ep.hints)
    if (hints !== undefined) hw(validateHints(hints, ip.child('hints')))
  })
  return out
}

/** validatePorts. */
function validatePorts(ports: unknown, minor: number): FieldError[] {
  const p = FieldPath.of('ports')
  const list = arr(ports)
  if (list.length > MAX_PORTS) return [field.tooMany(p, list.length, MAX_PORTS)]
  const errs: FieldError[] = []
  // Go scans a slice (slices.Contains); a Set answers the same for up to 20000 ports
  const names = new Set<string>()
  list.forEach((x, i) => {
    const port = obj(x) ?? {}
    const ip = p.index(i)
    const name = str(port.name)
    if (name.length > 0) errs.push(...validateDNS1123Label(name, ip.child('name')))
    if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else names.add(name)
    const protocol = optStr(port.protocol)
    if (protocol === undefined) errs.push(field.required(ip.child('protocol'), ''))
    else if (!PROTOCOLS.includes(protocol)) errs.push(field.notSupported(ip.child('protocol'), protocol, PROTOCOLS))
    const appProtocol = optStr(port.appProtocol)
    if (appProtocol !== undefined) errs.push(...validateQualifiedName(appProtocol, ip.child('appProtocol'), minor))
  })
  return errs
}

/** validateAddressType (both errors covered by the declarative ones). */
function validateAddressType(t: string): FieldError[] {
  if (t === '') return [field.required(ADDRESS_TYPE, '')]
  if (!ADDRESS_TYPES.includes(t)) return [field.notSupported(ADDRESS_TYPE, t, ADDRESS_TYPES)]
  return []
}

/** Validate_EndpointSlice's beta rules, with update ratcheting (an unchanged field is skipped). */
function declarative(es: JSONObject, old: JSONObject | undefined): FieldError[] {
  const errs: FieldError[] = []
  const t = str(es.addressType)
  if (old === undefined || str(old.addressType) !== t) {
    if (t === '') errs.push(field.required(ADDRESS_TYPE, ''))
    else if (old !== undefined) errs.push(field.invalid(ADDRESS_TYPE, null, 'field is immutable'))
    else if (!ADDRESS_TYPES.includes(t)) errs.push(field.notSupported(ADDRESS_TYPE, t, ADDRESS_TYPES))
  }
  if (old !== undefined && deepEqual(old.endpoints ?? null, es.endpoints ?? null)) return errs
  const oldEndpoints = arr(old?.endpoints)
  arr(es.endpoints).forEach((x, i) => {
    const addresses = arr(obj(x)?.addresses)
    // EachValSliceVal correlates nothing for an atomic list: each element validated, unchanged ones skipped
    if (oldEndpoints.some((o) => deepEqual(o, x))) return
    const ap = FieldPath.of('endpoints').index(i).child('addresses')
    if (addresses.length === 0) errs.push(field.required(ap, ''))
    else if (addresses.length > MAX_ADDRESSES) errs.push(field.tooMany(ap, addresses.length, MAX_ADDRESSES))
  })
  return errs
}

/** ValidateEndpointSlice (create: old undefined) and ValidateEndpointSliceUpdate. */
function validateEndpointSlice(es: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const meta = validateObjectMetaFor(es, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, path: META })
  const hand: Hw[] = [
    ...validateAddressType(str(es.addressType)).map((e) => ({ e, covered: true })),
    ...validatePorts(es.ports, minor).map((e) => ({ e, covered: false })),
  ]
  const endpointErrs = validateEndpoints(es.endpoints, str(es.addressType), minor)
  // an update whose endpoints did not change keeps what older releases accepted
  if (!(endpointErrs.length > 0 && old !== undefined && deepEqual(old.endpoints ?? null, es.endpoints ?? null)))
    hand.push(...endpointErrs)
  if (old !== undefined && str(old.addressType) !== str(es.addressType))
    hand.push({ e: field.invalid(ADDRESS_TYPE, str(es.addressType), 'field is immutable'), covered: true })
  if (!beta(minor)) return [...meta, ...hand.map((h) => h.e)]
  const dec = declarative(es, old)
  const matched = (e: FieldError) => dec.some((d) => d.type === e.type && d.field === e.field)
  return [...meta, ...hand.filter((h) => !(h.covered && matched(h.e))).map((h) => h.e), ...dec]
}

/** ValidateEndpointSliceCreate. */
export function validateEndpointSliceCreate(es: JSONObject, minor: number): FieldError[] {
  return validateEndpointSlice(es, undefined, minor)
}

/** ValidateEndpointSliceUpdate. */
export function validateEndpointSliceUpdate(es: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateEndpointSlice(es, old, minor)
}
