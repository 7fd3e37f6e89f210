import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isValidPortName } from '../../../kube/library/format.js'
import type { LabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { parsePrefix } from '../../../kube/values/netip.js'
import {
  arr,
  isObj,
  isValidCIDRForLegacyField,
  isValidPortNum,
  type JSONObject,
  nameIsDNSSubdomain,
  obj,
  objectMeta,
  objectMetaUpdate,
  str,
  strictIPCIDR,
  strs,
} from '../common.js'

// networking.k8s.io/v1 NetworkPolicy: kubernetes v1.37.2 pkg/apis/networking/validation/validation.go
// ValidateNetworkPolicy / ValidateNetworkPolicyUpdate (ValidationOptionsForNetworking: an old
// podSelector that fails validation lets invalid label values stay). The beta declarative Required
// of ipBlock.cidr (1.36+) has the handwritten error's text and is appended after the other errors.
// Ingress and IngressClass are not covered yet.

const SPEC = FieldPath.of('spec')

interface Opts {
  allowInvalidLabelValueInSelector: boolean
  allowCIDRs: string[]
  minor: number
  declared: FieldError[]
}

function validatePort(port: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (typeof port.protocol === 'string' && !['TCP', 'UDP', 'SCTP'].includes(port.protocol))
    errs.push(field.notSupported(p.child('protocol'), port.protocol, ['TCP', 'UDP', 'SCTP']))
  const end = typeof port.endPort === 'number' ? port.endPort : undefined
  if (port.port !== undefined && port.port !== null) {
    if (typeof port.port === 'number') {
      for (const m of isValidPortNum(port.port)) errs.push(field.invalid(p.child('port'), port.port, m))
      if (end !== undefined) {
        if (end < port.port)
          errs.push(field.invalid(p.child('endPort'), end, 'must be greater than or equal to `port`'))
        for (const m of isValidPortNum(end)) errs.push(field.invalid(p.child('endPort'), end, m))
      }
    } else {
      if (end !== undefined)
        errs.push(field.invalid(p.child('endPort'), end, 'may not be specified when `port` is non-numeric'))
      const s = str(port.port)
      for (const m of isValidPortName(s)) errs.push(field.invalid(p.child('port'), s, m))
    }
  } else if (end !== undefined) {
    errs.push(field.invalid(p.child('endPort'), end, 'may not be specified when `port` is not specified'))
  }
  return errs
}

function validateIPBlock(ipb: JSONObject, p: FieldPath, o: Opts): FieldError[] {
  const cidr = str(ipb.cidr)
  if (cidr === '') {
    ;(o.minor >= 36 ? o.declared : []).push(field.required(p.child('cidr'), ''))
    return o.minor >= 36 ? [] : [field.required(p.child('cidr'), '')]
  }
  const strict = strictIPCIDR(o.minor)
  const errs = isValidCIDRForLegacyField(p.child('cidr'), cidr, strict, o.allowCIDRs)
  const net = sloppyPrefix(cidr)
  if (net === undefined) return errs
  strs(ipb.except).forEach((ex, i) => {
    const ep = p.child('except').index(i)
    errs.push(...isValidCIDRForLegacyField(ep, ex, strict, o.allowCIDRs))
    const e = sloppyPrefix(ex)
    if (e === undefined) return
    if (!net.masked().contains(e.addr) || net.bits >= e.bits)
      errs.push(field.invalid(ep, ex, 'must be a strict subset of `cidr`'))
  })
  return errs
}

/** netutils.ParseCIDRSloppy's result, approximated through netip (leading zeros stripped). */
function sloppyPrefix(s: string) {
  const t = s.replace(/(^|[./])0+(\d)/g, '$1$2')
  const pr = parsePrefix(t)
  return typeof pr === 'string' ? undefined : pr
}

function validatePeer(peer: JSONObject, p: FieldPath, o: Opts): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  const lo = { allowInvalidLabelValueInSelector: o.allowInvalidLabelValueInSelector }
  if (isObj(peer.podSelector)) {
    n++
    errs.push(...validateLabelSelector(peer.podSelector as LabelSelector, lo, p.child('podSelector'), o.minor))
  }
  if (isObj(peer.namespaceSelector)) {
    n++
    errs.push(
      ...validateLabelSelector(peer.namespaceSelector as LabelSelector, lo, p.child('namespaceSelector'), o.minor),
    )
  }
  if (isObj(peer.ipBlock)) {
    n++
    errs.push(...validateIPBlock(peer.ipBlock, p.child('ipBlock'), o))
  }
  if (n === 0) errs.push(field.required(p, 'must specify a peer'))
  else if (n > 1 && isObj(peer.ipBlock)) errs.push(field.forbidden(p, 'may not specify both ipBlock and another peer'))
  return errs
}

/** ValidateNetworkPolicySpec. */
function validateSpec(spec: JSONObject, o: Opts): FieldError[] {
  const lo = { allowInvalidLabelValueInSelector: o.allowInvalidLabelValueInSelector }
  const errs = validateLabelSelector(
    (obj(spec.podSelector) ?? {}) as LabelSelector,
    lo,
    SPEC.child('podSelector'),
    o.minor,
  )
  for (const [dir, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    arr(spec[dir]).forEach((r, i) => {
      const rule = obj(r) ?? {}
      const rp = SPEC.child(dir).index(i)
      arr(rule.ports).forEach((x, j) => {
        errs.push(...validatePort(obj(x) ?? {}, rp.child('ports').index(j)))
      })
      arr(rule[peers]).forEach((x, j) => {
        errs.push(...validatePeer(obj(x) ?? {}, rp.child(peers).index(j), o))
      })
    })
  }
  const types = strs(spec.policyTypes)
  if (types.length > 2) {
    errs.push(field.invalid(SPEC.child('policyTypes'), types, 'may not specify more than two policyTypes'))
    return errs
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress')
      errs.push(field.notSupported(SPEC.child('policyTypes').index(i), t, ['Ingress', 'Egress']))
  })
  return errs
}

function existingCIDRs(old: JSONObject): string[] {
  const out: string[] = []
  const spec = obj(old.spec) ?? {}
  for (const [dir, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    for (const r of arr(spec[dir]))
      for (const x of arr(obj(r)?.[peers])) {
        const ipb = obj(obj(x)?.ipBlock)
        if (ipb !== undefined) out.push(str(ipb.cidr), ...strs(ipb.except))
      }
  }
  return out
}

function validateNetworkPolicyCreateOrUpdate(np: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const o: Opts = {
    allowInvalidLabelValueInSelector:
      old !== undefined &&
      validateLabelSelector((obj(obj(old.spec)?.podSelector) ?? {}) as LabelSelector, {}, SPEC).length > 0,
    allowCIDRs: old === undefined ? [] : existingCIDRs(old),
    minor: minor,
    declared: [],
  }
  const errs =
    old === undefined
      ? [...objectMeta(np, true, nameIsDNSSubdomain, minor), ...validateSpec(obj(np.spec) ?? {}, o)]
      : [...objectMetaUpdate(np, old, minor), ...validateSpec(obj(np.spec) ?? {}, o)]
  return [...errs, ...o.declared]
}

/** ValidateNetworkPolicy. */
export function validateNetworkPolicy(np: JSONObject, minor: number): FieldError[] {
  return validateNetworkPolicyCreateOrUpdate(np, undefined, minor)
}

/** ValidateNetworkPolicyUpdate. */
export function validateNetworkPolicyUpdate(np: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateNetworkPolicyCreateOrUpdate(np, old, minor)
}
