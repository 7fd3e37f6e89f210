import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import {
  annotations,
  arr,
  clone,
  ipErrors,
  isIPv6String,
  isObj,
  isValidCIDRForLegacyField,
  isValidIPForLegacyField,
  isValidPortNum,
  type JSONObject,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  num,
  obj,
  objectMeta,
  objectMetaUpdate,
  optStr,
  str,
  strictIPCIDR,
  strMap,
  strs,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateLabels,
  validatePortNumOrName,
  validateQualifiedName,
} from '../common.js'

// core/v1 Service: kubernetes v1.37.2 pkg/apis/core/validation/validation.go ValidateServiceCreate /
// ValidateServiceUpdate (validateService, validateServicePort, ValidateServiceClusterIPsRelatedFields,
// the upgrade / downgrade checks), run by the registry after its BeginCreate / BeginUpdate hooks
// (pkg/registry/core/service/storage: normalizeClusterIPs, patchAllocatedValues, and the allocator's
// initIPFamilyFields, cluster IP and node port allocation). Offline, the cluster is taken to be
// single-stack IPv4 with the default node port range 30000-32767: allocated values are placeholders
// (a cluster IP 10.96.0.10, node ports from 30000), a requested node port outside the range is the
// allocator's Invalid error, and the allocator's own errors are answered alone, as the apiserver does
// (it returns before validation). A requested cluster IP is not checked against the service CIDR.

const SPEC = FieldPath.of('spec')
const CLUSTER_IPS = SPEC.child('clusterIPs')
const IP_FAMILIES = SPEC.child('ipFamilies')
const IP_FAMILY_POLICY = SPEC.child('ipFamilyPolicy')

const NODE_PORT_MIN = 30000
const NODE_PORT_MAX = 32767
const PLACEHOLDER_IP = '10.96.0.10'
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400

type Svc = JSONObject & { spec: JSONObject }

const spec = (s: JSONObject): JSONObject => obj(s.spec) ?? {}
const type = (s: JSONObject) => str(spec(s).type)
const clusterIPs = (s: JSONObject) => strs(spec(s).clusterIPs)
const ports = (s: JSONObject): JSONObject[] => arr(spec(s).ports).map((p) => obj(p) ?? {})
const isHeadless = (s: JSONObject) => {
  const ips = clusterIPs(s)
  return ips.length === 1 && ips[0] === 'None'
}
const externallyAccessible = (s: JSONObject) =>
  type(s) === 'LoadBalancer' ||
  type(s) === 'NodePort' ||
  (type(s) === 'ClusterIP' && arr(spec(s).externalIPs).length > 0)
const requestsOnlyLocalTraffic = (s: JSONObject) =>
  (type(s) === 'LoadBalancer' || type(s) === 'NodePort') && str(spec(s).externalTrafficPolicy) === 'Local'
const needsHealthCheck = (s: JSONObject) => type(s) === 'LoadBalancer' && requestsOnlyLocalTraffic(s)
const needsNodePort = (s: JSONObject) =>
  type(s) === 'NodePort' || (type(s) === 'LoadBalancer' && spec(s).allocateLoadBalancerNodePorts !== false)

const sameStrs = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i])

/** The IPFamilyPolicy pointer as a bad value (nil: null). */
const policyValue = (s: JSONObject) => (typeof spec(s).ipFamilyPolicy === 'string' ? spec(s).ipFamilyPolicy : null)

// ---------------------------------------------------------------------------------------------
// The registry's hooks before validation

/** normalizeClusterIPs. */
function normalizeClusterIPs(n: Svc, old: Svc | undefined): void {
  const ns = n.spec
  const nIP = str(ns.clusterIP)
  if (old === undefined) {
    if (nIP.length > 0 && clusterIPs(n).length === 0) ns.clusterIPs = [nIP]
    return
  }
  const os = old.spec
  if (clusterIPs(old).length > 0 && clusterIPs(n).length === 0 && str(os.clusterIP) === nIP) {
    ns.clusterIPs = clone(os.clusterIPs)
  }
  if (str(os.clusterIP) !== nIP) {
    if (str(os.clusterIP).length > 0 && nIP.length === 0) {
      if (sameStrs(clusterIPs(old), clusterIPs(n))) delete ns.clusterIPs
    } else if (sameStrs(clusterIPs(old), clusterIPs(n))) ns.clusterIPs = [nIP]
  }
}

/** patchAllocatedValues (update). */
function patchAllocatedValues(n: Svc, old: Svc): void {
  if (type(old) !== 'ExternalName' && type(n) !== 'ExternalName') {
    if (str(n.spec.clusterIP) === '' && old.spec.clusterIP !== undefined) n.spec.clusterIP = old.spec.clusterIP
    if (clusterIPs(n).length === 0 && clusterIPs(old).length > 0) n.spec.clusterIPs = clone(old.spec.clusterIPs)
  }
  if (needsNodePort(old) && needsNodePort(n)) {
    const used = (s: JSONObject) =>
      new Set(
        ports(s)
          .map((p) => num(p.nodePort))
          .filter((x) => x !== 0),
      )
    const nu = used(n)
    const both = new Set([...used(old)].filter((x) => nu.has(x)))
    const byName = new Map<string, number>()
    for (const p of ports(old)) byName.set(str(p.name), num(p.nodePort))
    for (const p of ports(n)) {
      if (num(p.nodePort) === 0) {
        const v = byName.get(str(p.name)) ?? 0
        if (!both.has(v) && v !== 0) p.nodePort = v
      }
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(n) && num(n.spec.healthCheckNodePort) === 0) {
    if (old.spec.healthCheckNodePort !== undefined) n.spec.healthCheckNodePort = old.spec.healthCheckNodePort
  }
}

const familyOf = (ip: string) => (isIPv6String(ip) ? 'IPv6' : 'IPv4')
const CLUSTER_FAMILIES = new Set(['IPv4'])

/** Allocators.initIPFamilyFields on a single-stack IPv4 cluster: the errors it answers, or []. */
function initIPFamilyFields(n: Svc, old: Svc | undefined, minor: number): FieldError[] {
  const s = n.spec
  if (type(n) === 'ExternalName') return []
  if (old !== undefined && matchingPreferDualStack(n, old)) return []
  if (s.ipFamilyPolicy === undefined || s.ipFamilyPolicy === null) {
    if (old !== undefined && typeof old.spec.ipFamilyPolicy === 'string') s.ipFamilyPolicy = old.spec.ipFamilyPolicy
    else if (str(s.clusterIP) === 'None' && Object.keys(strMap(s.selector) ?? {}).length === 0)
      s.ipFamilyPolicy = 'RequireDualStack'
    else s.ipFamilyPolicy = 'SingleStack'
  }
  const pre = validateClusterIPsRelatedFields(n, old, minor)
  if (pre.length > 0) return pre
  const el: FieldError[] = []
  const policy = str(s.ipFamilyPolicy)
  if (old !== undefined) {
    if (policy === 'SingleStack') {
      if (sameStrs(clusterIPs(old), clusterIPs(n)) && clusterIPs(n).length > 1) s.clusterIPs = clusterIPs(n).slice(0, 1)
      const fam = strs(s.ipFamilies)
      if (sameStrs(strs(old.spec.ipFamilies), fam) && fam.length > 1) s.ipFamilies = fam.slice(0, 1)
    } else {
      if (clusterIPs(n).length < clusterIPs(old).length)
        el.push(field.invalid(IP_FAMILY_POLICY, policy, "must be 'SingleStack' to release the secondary cluster IP"))
      if (strs(s.ipFamilies).length < strs(old.spec.ipFamilies).length)
        el.push(field.invalid(IP_FAMILY_POLICY, policy, "must be 'SingleStack' to release the secondary IP family"))
    }
  }
  if (policy === 'SingleStack') {
    if (clusterIPs(n).length === 2)
      el.push(
        field.invalid(
          IP_FAMILY_POLICY,
          policy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      )
    if (strs(s.ipFamilies).length === 2)
      el.push(
        field.invalid(
          IP_FAMILY_POLICY,
          policy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      )
  }
  const ips = clusterIPs(n)
  for (let i = 0; i < ips.length; i++) {
    const ip = ips[i] as string
    if (ip === 'None') break
    const fam = familyOf(ip)
    const families = strs(s.ipFamilies)
    if (i >= families.length) {
      if (!CLUSTER_FAMILIES.has(fam))
        el.push(field.invalid(CLUSTER_IPS.index(i), ips, `${fam} is not configured on this cluster`))
      else s.ipFamilies = [...families, fam]
    }
  }
  if (el.length > 0) return el
  if (str(s.clusterIP) === 'None' && Object.keys(strMap(s.selector) ?? {}).length === 0) {
    let fam = strs(s.ipFamilies)
    if (fam.length === 0) fam = ['IPv4']
    if (fam.length < 2 && str(s.ipFamilyPolicy) !== 'SingleStack') fam = [...fam, fam[0] === 'IPv4' ? 'IPv6' : 'IPv4']
    s.ipFamilies = fam
    return []
  }
  if (str(s.ipFamilyPolicy) === 'RequireDualStack')
    el.push(
      field.invalid(IP_FAMILY_POLICY, 'RequireDualStack', 'this cluster is not configured for dual-stack services'),
    )
  strs(s.ipFamilies).forEach((f, i) => {
    if (!CLUSTER_FAMILIES.has(f)) el.push(field.invalid(IP_FAMILIES.index(i), f, 'not configured on this cluster'))
  })
  if (el.length > 0) return el
  if (strs(s.ipFamilies).length === 0) s.ipFamilies = ['IPv4']
  return []
}

function matchingPreferDualStack(n: Svc, old: Svc): boolean {
  if (typeof n.spec.ipFamilyPolicy !== 'string') return false
  if (type(old) !== type(n)) return false
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(type(n))) return false
  if (n.spec.ipFamilyPolicy !== 'PreferDualStack') return false
  if (typeof old.spec.ipFamilyPolicy === 'string' && old.spec.ipFamilyPolicy !== 'PreferDualStack') return false
  return sameStrs(clusterIPs(old), clusterIPs(n)) && sameStrs(strs(old.spec.ipFamilies), strs(n.spec.ipFamilies))
}

/** allocClusterIPs (placeholder addresses) and initNodePorts / allocHealthCheckNodePort. */
function allocate(n: Svc, old: Svc | undefined): FieldError[] {
  const s = n.spec
  if (type(n) !== 'ExternalName' && !(clusterIPs(n).length > 0 && clusterIPs(n)[0] === 'None')) {
    const fam = strs(s.ipFamilies)
    const ips = clusterIPs(n)
    const out = fam.map((_, i) => (ips[i] === undefined || ips[i] === '' ? PLACEHOLDER_IP : (ips[i] as string)))
    if (fam.length > 0 && (old === undefined || clusterIPs(old).length === 0 || ips.length < fam.length)) {
      s.clusterIPs = out
      s.clusterIP = out[0]
    }
  }
  if (type(n) === 'NodePort' || type(n) === 'LoadBalancer') {
    const should = type(n) === 'NodePort' || s.allocateLoadBalancerNodePorts === true
    const byPort = new Map<number, number>()
    const ps = ports(n)
    const oldPorts = new Set(old === undefined ? [] : ports(old).map((p) => num(p.nodePort)))
    let next = NODE_PORT_MIN
    const taken = new Set(ps.map((p) => num(p.nodePort)))
    const nextFree = () => {
      while (taken.has(next)) next++
      taken.add(next)
      return next
    }
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i] as JSONObject
      const np = num(p.nodePort)
      if (np === 0 && !should) continue
      const prev = byPort.get(num(p.port)) ?? 0
      const request = (v: number) =>
        oldPorts.has(v) || (v >= NODE_PORT_MIN && v <= NODE_PORT_MAX)
          ? undefined
          : field.invalid(
              SPEC.child('ports').index(i).child('nodePort'),
              v,
              `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`,
            )
      if (prev === 0) {
        const requested = ps.find((q) => num(q.port) === num(p.port) && num(q.nodePort) !== 0)
        const want = requested === undefined ? 0 : num(requested.nodePort)
        if (want !== 0) {
          const e = request(want)
          if (e !== undefined) return [e]
          p.nodePort = want
          byPort.set(num(p.port), want)
        } else {
          const v = nextFree()
          p.nodePort = v
          byPort.set(num(p.port), v)
        }
      } else if (np !== prev) {
        if (np === 0) p.nodePort = prev
        else {
          const e = request(np)
          if (e !== undefined) return [e]
        }
      }
    }
  }
  if (needsHealthCheck(n) && num(s.healthCheckNodePort) === 0) s.healthCheckNodePort = NODE_PORT_MAX
  return []
}

// ---------------------------------------------------------------------------------------------
// validation.go

/** ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPsRelatedFields(s: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  if (type(s) === 'ExternalName') return []
  const errs: FieldError[] = []
  const sp = spec(s)
  const ips = clusterIPs(s)
  let hasInvalidIPs = false
  if (str(sp.clusterIP).length !== 0) {
    if (ips.length === 0) errs.push(field.required(CLUSTER_IPS, ''))
    else if (ips[0] !== sp.clusterIP) errs.push(field.invalid(CLUSTER_IPS, ips, 'first value must match `clusterIP`'))
  } else if (ips.length !== 0) {
    errs.push(field.invalid(CLUSTER_IPS, ips, 'must be empty when `clusterIP` is not specified'))
  }
  const seen = new Set<string>()
  strs(sp.ipFamilies).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(field.notSupported(IP_FAMILIES.index(i), f, ['IPv4', 'IPv6']))
    if (seen.has(f)) errs.push(field.duplicate(IP_FAMILIES.index(i), f))
    seen.add(f)
  })
  if (typeof sp.ipFamilyPolicy === 'string') {
    const p = sp.ipFamilyPolicy
    if (p !== 'SingleStack' && p !== 'PreferDualStack' && p !== 'RequireDualStack')
      errs.push(field.notSupported(IP_FAMILY_POLICY, p, ['PreferDualStack', 'RequireDualStack', 'SingleStack']))
  }
  const existing = old === undefined ? [] : clusterIPs(old)
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        hasInvalidIPs = true
        errs.push(field.invalid(CLUSTER_IPS, ips, "'None' must be the first and only value"))
      }
      return
    }
    const e = isValidIPForLegacyField(CLUSTER_IPS.index(i), ip, strictIPCIDR(minor), existing)
    if (e.length > 0) hasInvalidIPs = true
    errs.push(...e)
  })
  if (ips.length > 2) errs.push(field.invalid(CLUSTER_IPS, ips, 'may only hold up to 2 values'))
  if (hasInvalidIPs) return errs
  if (ips.length > 1) {
    const dual = ips.length === 2 && isIPv6String(ips[0] as string) !== isIPv6String(ips[1] as string)
    if (!dual) errs.push(field.invalid(CLUSTER_IPS, ips, 'may specify no more than one IP for each IP family'))
  }
  const families = strs(sp.ipFamilies)
  if (!isHeadless(s) && ips.length > 0 && families.length > 0) {
    for (let i = 0; i < ips.length && i < families.length; i++) {
      const ip = ips[i] as string
      if (families[i] === 'IPv4' && isIPv6String(ip))
        errs.push(
          field.invalid(CLUSTER_IPS.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``),
        )
      if (families[i] === 'IPv6' && !isIPv6String(ip))
        errs.push(
          field.invalid(CLUSTER_IPS.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``),
        )
    }
  }
  return errs
}

/** ValidateEndpointIP (also Endpoints' and EndpointSlices' addresses). */
export function validateEndpointIP(ip: string, p: FieldPath): FieldError[] {
  const e = ipErrors(p, ip, false)
  if (e.length > 0) return [field.invalid(p, ip, 'must be a valid IP address')]
  const errs: FieldError[] = []
  const a = ipBytes(ip)
  if (a.every((b) => b === 0)) errs.push(field.invalid(p, ip, `may not be unspecified (${ip})`))
  const v4 = a.length === 4
  if ((v4 && a[0] === 127) || (!v4 && a.slice(0, 15).every((b) => b === 0) && a[15] === 1))
    errs.push(field.invalid(p, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'))
  if ((v4 && a[0] === 169 && a[1] === 254) || (!v4 && a[0] === 0xfe && ((a[1] as number) & 0xc0) === 0x80))
    errs.push(field.invalid(p, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'))
  if ((v4 && a[0] === 224 && a[1] === 0 && a[2] === 0) || (!v4 && a[0] === 0xff && ((a[1] as number) & 0x0f) === 0x02))
    errs.push(field.invalid(p, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'))
  return errs
}

/** The address bytes (IPv4-mapped IPv6 as its IPv4 bytes, as net.IP's To4 does). */
function ipBytes(ip: string): number[] {
  if (ip.includes('.') && !ip.includes(':')) return ip.split('.').map((x) => Number.parseInt(x, 10))
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined]
  const parse = (s: string | undefined): number[] => {
    if (s === undefined || s === '') return []
    const out: number[] = []
    for (const g of s.split(':')) {
      if (g.includes('.')) out.push(...g.split('.').map((x) => Number.parseInt(x, 10)))
      else {
        const v = Number.parseInt(g, 16)
        out.push(v >> 8, v & 0xff)
      }
    }
    return out
  }
  const h = parse(head)
  const t = parse(tail)
  const bytes = [...h, ...new Array(16 - h.length - t.length).fill(0), ...t]
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12)
  return bytes
}

function validateServicePort(
  sp: JSONObject,
  requireName: boolean,
  allNames: Set<string>,
  p: FieldPath,
  minor: number,
): FieldError[] {
  const errs: FieldError[] = []
  const name = str(sp.name)
  if (requireName && name.length === 0) errs.push(field.required(p.child('name'), ''))
  else if (name.length !== 0) {
    errs.push(...validateDNS1123Label(name, p.child('name')))
    if (allNames.has(name)) errs.push(field.duplicate(p.child('name'), name))
    else allNames.add(name)
  }
  for (const m of isValidPortNum(num(sp.port))) errs.push(field.invalid(p.child('port'), num(sp.port), m))
  const proto = str(sp.protocol)
  if (proto.length === 0) errs.push(field.required(p.child('protocol'), ''))
  else if (!['SCTP', 'TCP', 'UDP'].includes(proto))
    errs.push(field.notSupported(p.child('protocol'), proto, ['SCTP', 'TCP', 'UDP']))
  errs.push(...validatePortNumOrName(sp.targetPort ?? 0, p.child('targetPort')))
  if (typeof sp.appProtocol === 'string')
    errs.push(...validateQualifiedName(sp.appProtocol, p.child('appProtocol'), minor))
  return errs
}

/** core.ServicePort{Protocol, Port} (or NodePort) as json.Marshal renders the internal struct. */
const servicePortKey = (protocol: string, port: number, nodePort: number) =>
  new GoStruct([
    ['Name', ''],
    ['Protocol', protocol],
    ['AppProtocol', null],
    ['Port', port],
    ['TargetPort', 0],
    ['NodePort', nodePort],
  ])

/** validateService. */
function validateService(s: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const sp = spec(s)
  const ann = annotations(s)
  const hints = 'service.kubernetes.io/topology-aware-hints'
  const mode = 'service.kubernetes.io/topology-mode'
  if (Object.hasOwn(ann, mode) && Object.hasOwn(ann, hints) && ann[mode] !== ann[hints]) {
    errs.push(
      field.invalid(
        FieldPath.of('metadata', 'annotations').key(mode),
        ann[mode],
        `must match annotations[${hints}] when both are specified`,
      ),
    )
  }
  const ps = ports(s)
  const headless = isHeadless(s)
  if (ps.length === 0 && !headless && type(s) !== 'ExternalName') errs.push(field.required(SPEC.child('ports'), ''))
  switch (type(s)) {
    case 'LoadBalancer':
      if (headless)
        errs.push(field.invalid(CLUSTER_IPS.index(0), 'None', "may not be set to 'None' for LoadBalancer services"))
      break
    case 'NodePort':
      if (headless)
        errs.push(field.invalid(CLUSTER_IPS.index(0), 'None', "may not be set to 'None' for NodePort services"))
      break
    case 'ExternalName': {
      if (clusterIPs(s).length > 0) errs.push(field.forbidden(CLUSTER_IPS, 'may not be set for ExternalName services'))
      if (strs(sp.ipFamilies).length > 0)
        errs.push(field.forbidden(IP_FAMILIES, 'may not be set for ExternalName services'))
      if (typeof sp.ipFamilyPolicy === 'string')
        errs.push(field.forbidden(IP_FAMILY_POLICY, 'may not be set for ExternalName services'))
      const en = str(sp.externalName)
      const cname = en.endsWith('.') ? en.slice(0, -1) : en
      if (cname.length > 0) errs.push(...validateDNS1123Subdomain(cname, SPEC.child('externalName')))
      else errs.push(field.required(SPEC.child('externalName'), ''))
      break
    }
  }
  const names = new Set<string>()
  ps.forEach((p, i) => {
    errs.push(...validateServicePort(p, ps.length > 1, names, SPEC.child('ports').index(i), minor))
  })
  if (isObj(sp.selector)) errs.push(...validateLabels(strMap(sp.selector), SPEC.child('selector'), minor))
  const aff = str(sp.sessionAffinity)
  if (aff.length === 0) errs.push(field.required(SPEC.child('sessionAffinity'), ''))
  else if (aff !== 'ClientIP' && aff !== 'None')
    errs.push(field.notSupported(SPEC.child('sessionAffinity'), aff, ['ClientIP', 'None']))
  if (aff === 'ClientIP') errs.push(...validateClientIPAffinityConfig(sp.sessionAffinityConfig))
  else if (aff === 'None' && isObj(sp.sessionAffinityConfig))
    errs.push(field.forbidden(SPEC.child('sessionAffinityConfig'), 'must not be set when session affinity is None'))
  errs.push(...validateClusterIPsRelatedFields(s, old, minor))
  const oldExternal = old === undefined ? [] : strs(spec(old).externalIPs)
  strs(sp.externalIPs).forEach((ip, i) => {
    const p = SPEC.child('externalIPs').index(i)
    const e = isValidIPForLegacyField(p, ip, strictIPCIDR(minor), oldExternal)
    if (e.length > 0) errs.push(...e)
    else errs.push(...validateEndpointIP(ip, p))
  })
  const t = type(s)
  if (t.length === 0) errs.push(field.required(SPEC.child('type'), ''))
  else if (!['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'].includes(t))
    errs.push(field.notSupported(SPEC.child('type'), t, ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']))
  if (t === 'ClusterIP') {
    ps.forEach((p, i) => {
      if (num(p.nodePort) !== 0)
        errs.push(
          field.forbidden(SPEC.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"),
        )
    })
  }
  const nodePorts = new Set<string>()
  ps.forEach((p, i) => {
    const np = num(p.nodePort)
    if (np === 0) return
    const k = `${str(p.protocol)}/${np}`
    if (nodePorts.has(k)) errs.push(field.duplicate(SPEC.child('ports').index(i).child('nodePort'), np))
    nodePorts.add(k)
  })
  const portKeys = new Set<string>()
  ps.forEach((p, i) => {
    const k = `${str(p.protocol)}/${num(p.port)}`
    if (portKeys.has(k))
      errs.push(field.duplicate(SPEC.child('ports').index(i), servicePortKey(str(p.protocol), num(p.port), 0)))
    portKeys.add(k)
  })
  const ranges = strs(sp.loadBalancerSourceRanges)
  const RANGES_ANN = 'service.beta.kubernetes.io/load-balancer-source-ranges'
  if (ranges.length > 0) {
    const fp = SPEC.child('LoadBalancerSourceRanges')
    if (t !== 'LoadBalancer') errs.push(field.forbidden(fp, "may only be used when `type` is 'LoadBalancer'"))
    const existing = old === undefined ? [] : strs(spec(old).loadBalancerSourceRanges).map((v) => v.trim())
    ranges.forEach((v, i) => {
      errs.push(...isValidCIDRForLegacyField(fp.index(i), v.trim(), strictIPCIDR(minor), existing))
    })
  } else if (Object.hasOwn(ann, RANGES_ANN)) {
    const fp = FieldPath.of('metadata', 'annotations').key(RANGES_ANN)
    if (t !== 'LoadBalancer') errs.push(field.forbidden(fp, "may only be used when `type` is 'LoadBalancer'"))
    const val = str(ann[RANGES_ANN])
    if (old === undefined || annotations(old)[RANGES_ANN] !== val) {
      const v = val.trim()
      if (v !== '') {
        for (const c of v.split(',')) errs.push(...isValidCIDRForLegacyField(fp, c.trim(), strictIPCIDR(minor), []))
      }
    }
  }
  if (typeof sp.allocateLoadBalancerNodePorts === 'boolean' && t !== 'LoadBalancer')
    errs.push(
      field.forbidden(SPEC.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"),
    )
  if (t === 'LoadBalancer' && typeof sp.allocateLoadBalancerNodePorts !== 'boolean')
    errs.push(field.required(FieldPath.of('allocateLoadBalancerNodePorts'), ''))
  errs.push(...validateLoadBalancerClassField(undefined, s, minor))
  errs.push(...validateExternalTrafficPolicy(s))
  // internal traffic policy
  const itp = optStr(sp.internalTrafficPolicy)
  if (itp === undefined) {
    if (t === 'NodePort' || t === 'LoadBalancer' || t === 'ClusterIP')
      errs.push(field.required(SPEC.child('internalTrafficPolicy'), ''))
  } else if (itp !== 'Cluster' && itp !== 'Local') {
    errs.push(field.notSupported(SPEC.child('internalTrafficPolicy'), itp, ['Cluster', 'Local']))
  }
  // traffic distribution (PreferSameTrafficDistribution: on from 1.34)
  const td = optStr(sp.trafficDistribution)
  if (td !== undefined) {
    const supported = minor >= 34 ? ['PreferClose', 'PreferSameZone', 'PreferSameNode'] : ['PreferClose']
    if (!supported.includes(td)) errs.push(field.notSupported(SPEC.child('trafficDistribution'), td, supported))
  }
  return errs
}

function validateClientIPAffinityConfig(config: unknown): FieldError[] {
  const p = SPEC.child('sessionAffinityConfig')
  const detail = 'when session affinity type is ClientIP'
  if (!isObj(config)) return [field.required(p, detail)]
  if (!isObj(config.clientIP)) return [field.required(p.child('clientIP'), detail)]
  const t = config.clientIP.timeoutSeconds
  if (typeof t !== 'number') return [field.required(p.child('clientIP').child('timeoutSeconds'), detail)]
  if (t <= 0 || t > MAX_CLIENT_IP_AFFINITY_SECONDS)
    return [
      field.invalid(
        p.child('clientIP').child('timeoutSeconds'),
        t,
        `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`,
      ),
    ]
  return []
}

function validateLoadBalancerClassField(old: JSONObject | undefined, s: JSONObject, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const p = SPEC.child('loadBalancerClass')
  const cls = optStr(spec(s).loadBalancerClass)
  if (old !== undefined && type(old) === 'LoadBalancer' && type(s) === 'LoadBalancer') {
    if (optStr(spec(old).loadBalancerClass) !== cls) errs.push(field.invalid(p, cls ?? null, 'may not change once set'))
  }
  if (type(s) === 'LoadBalancer') {
    if (cls !== undefined) errs.push(...validateQualifiedName(cls, p, minor))
  } else if (cls !== undefined) errs.push(field.forbidden(p, "may only be used when `type` is 'LoadBalancer'"))
  return errs
}

function validateExternalTrafficPolicy(s: JSONObject): FieldError[] {
  const errs: FieldError[] = []
  const sp = spec(s)
  const etp = str(sp.externalTrafficPolicy)
  if (!externallyAccessible(s)) {
    if (etp !== '')
      errs.push(
        field.invalid(SPEC.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'),
      )
  } else if (etp === '') errs.push(field.required(SPEC.child('externalTrafficPolicy'), ''))
  else if (etp !== 'Cluster' && etp !== 'Local')
    errs.push(field.notSupported(SPEC.child('externalTrafficPolicy'), etp, ['Cluster', 'Local']))
  const hc = num(sp.healthCheckNodePort)
  if (!needsHealthCheck(s)) {
    if (hc !== 0)
      errs.push(
        field.invalid(
          SPEC.child('healthCheckNodePort'),
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      )
  } else if (hc === 0) errs.push(field.required(SPEC.child('healthCheckNodePort'), ''))
  else for (const m of isValidPortNum(hc)) errs.push(field.invalid(SPEC.child('healthCheckNodePort'), hc, m))
  return errs
}

function validateUpgradeDowngradeClusterIPs(old: JSONObject, s: JSONObject): FieldError[] {
  const errs: FieldError[] = []
  if (type(s) === 'ExternalName' || type(old) === 'ExternalName') return errs
  if (isHeadless(old) && isHeadless(s)) return errs
  const o = clusterIPs(old)
  const n = clusterIPs(s)
  if (o.length === n.length) {
    o.forEach((ip, i) => {
      if (ip !== n[i]) errs.push(field.invalid(CLUSTER_IPS.index(i), n, 'may not change once set'))
    })
  } else if (o.length > n.length) {
    if (n.length === 0) errs.push(field.invalid(CLUSTER_IPS.index(0), n, 'primary clusterIP can not be unset'))
    if (o.length > 0 && n.length > 0 && n[0] !== o[0])
      errs.push(field.invalid(CLUSTER_IPS.index(0), n, 'may not change once set'))
    if (n.length === 1 && spec(s).ipFamilyPolicy !== 'SingleStack')
      errs.push(
        field.invalid(
          IP_FAMILY_POLICY,
          policyValue(s),
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      )
  } else if (o.length > 0 && n[0] !== o[0]) {
    errs.push(field.invalid(CLUSTER_IPS.index(0), n, 'may not change once set'))
  }
  return errs
}

function validateUpgradeDowngradeIPFamilies(old: JSONObject, s: JSONObject): FieldError[] {
  const errs: FieldError[] = []
  if (type(s) === 'ExternalName' || type(old) === 'ExternalName') return errs
  if (isHeadless(old) !== isHeadless(s) || isHeadless(s)) return errs
  const o = strs(spec(old).ipFamilies)
  const n = strs(spec(s).ipFamilies)
  if (o.length === n.length) {
    o.forEach((f, i) => {
      if (f !== n[i]) errs.push(field.invalid(IP_FAMILIES.index(0), n, 'may not change once set'))
    })
  } else if (o.length > n.length) {
    if (clusterIPs(s).length === 0)
      errs.push(field.invalid(IP_FAMILIES.index(0), n, 'primary ipFamily can not be unset'))
    if (n.length > 0 && n[0] !== o[0])
      errs.push(field.invalid(IP_FAMILIES.index(0), clusterIPs(s), 'may not change once set'))
    if (n.length === 1 && spec(s).ipFamilyPolicy !== 'SingleStack')
      errs.push(
        field.invalid(
          IP_FAMILY_POLICY,
          policyValue(s),
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      )
  } else if (o.length > 0 && n.length > 0 && n[0] !== o[0]) {
    errs.push(field.invalid(IP_FAMILIES.index(0), clusterIPs(s), 'may not change once set'))
  }
  return errs
}

/** ValidateServiceCreate (RelaxedServiceNameValidation: on from 1.36, names are DNS-1123 labels). */
export function validateServiceCreate(s: JSONObject, minor: number): FieldError[] {
  const nameFn = minor >= 36 ? nameIsDNSLabel : nameIsDNS1035Label
  return [...objectMeta(s, true, nameFn, minor), ...validateService(s, undefined, minor)]
}

/** ValidateServiceUpdate. */
export function validateServiceUpdate(s: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = objectMetaUpdate(s, old, minor)
  errs.push(...validateUpgradeDowngradeClusterIPs(old, s))
  errs.push(...validateUpgradeDowngradeIPFamilies(old, s))
  errs.push(...validateLoadBalancerClassField(old, s, minor))
  if (
    needsHealthCheck(old) &&
    needsHealthCheck(s) &&
    num(spec(s).healthCheckNodePort) !== num(spec(old).healthCheckNodePort)
  )
    errs.push(field.forbidden(SPEC.child('healthCheckNodePort'), 'field is immutable'))
  errs.push(...validateService(s, old, minor))
  return errs
}

/**
 * A Service as a create stores it after the registry's BeginCreate hooks (cluster IPs normalized, IP families
 * set, IPs and node ports allocated: the placeholders above, single-stack IPv4); undefined when a hook refuses it.
 */
export function serviceAsCreated(o: JSONObject, minor: number): JSONObject | undefined {
  const n = clone(o) as Svc
  n.spec = obj(n.spec) ?? {}
  normalizeClusterIPs(n, undefined)
  if (initIPFamilyFields(n, undefined, minor).length > 0) return undefined
  if (allocate(n, undefined).length > 0) return undefined
  return n as unknown as JSONObject
}

/**
 * The REST create's beforeCreate on a copy (normalized cluster IPs, IP families, the allocators), then
 * ValidateServiceCreate.
 */
export function beforeServiceCreate(o: JSONObject, minor: number): FieldError[] {
  const n = clone(o) as Svc
  n.spec = obj(n.spec) ?? {}
  normalizeClusterIPs(n, undefined)
  const e = initIPFamilyFields(n, undefined, minor)
  if (e.length > 0) return e
  const a = allocate(n, undefined)
  if (a.length > 0) return a
  return validateServiceCreate(n, minor)
}

/**
 * The REST update's beforeUpdate on a copy, the old object as the cluster stored it (through the create
 * hooks: its allocated values), then ValidateServiceUpdate.
 */
export function beforeServiceUpdate(o: JSONObject, oldObject: JSONObject, minor: number): FieldError[] {
  const n = clone(o) as Svc
  n.spec = obj(n.spec) ?? {}
  const old = clone(oldObject) as Svc
  old.spec = obj(old.spec) ?? {}
  normalizeClusterIPs(old, undefined)
  if (initIPFamilyFields(old, undefined, minor).length === 0) allocate(old, undefined)
  patchAllocatedValues(n, old)
  normalizeClusterIPs(n, old)
  const e = initIPFamilyFields(n, old, minor)
  if (e.length > 0) return e
  const a = allocate(n, old)
  if (a.length > 0) return a
  return validateServiceUpdate(n, old, minor)
}
