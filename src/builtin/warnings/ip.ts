import type { FieldPath } from '../../kube/field.js'
import { isCIDR, parseIPSloppy } from '../../kube/values/net.js'
import { type Addr, parseAddr, parsePrefix } from '../../kube/values/netip.js'
import { goQuote } from './common.js'

// The deprecated-IP-format warnings (apimachinery pkg/util/validation/ip.go GetWarningsForIP,
// GetWarningsForCIDR, v0.37.2): a value the legacy parser (netutils.ParseIPSloppy / ParseCIDRSloppy:
// leading zeros in IPv4 fields, IPv4-mapped IPv6) accepts but netip does not, or an IPv6 value not in
// RFC 5952 form. The values reach here validated: one the sloppy parser refuses has no warning.

/** The dotted quad's fields with their leading zeros dropped (how ParseIPSloppy reads them: decimal). */
function unzeroed(quad: string): string {
  return quad
    .split('.')
    .map((f) => String(Number(f)))
    .join('.')
}

/** The address ParseIPSloppy reads from `text` (its leading zeros read as decimal), as netip holds it. */
function sloppyAddr(text: string): Addr | undefined {
  const family = parseIPSloppy(text)
  if (family === undefined) return undefined
  let canonical = text
  if (family === 4) canonical = unzeroed(text)
  else {
    const colon = text.lastIndexOf(':')
    if (text.indexOf('.', colon) >= 0) canonical = text.slice(0, colon + 1) + unzeroed(text.slice(colon + 1))
  }
  const a = parseAddr(canonical)
  return typeof a === 'string' ? undefined : a
}

/** net.IP.String(): an IPv4-mapped IPv6 address prints as its IPv4 address. */
function netIPString(a: Addr): string {
  const s = a.toString()
  return a.is4In6() ? s.slice(s.lastIndexOf(':') + 1) : s
}

/** GetWarningsForIP. */
export function getWarningsForIP(p: FieldPath, value: string): string[] {
  const ip = sloppyAddr(value)
  if (ip === undefined) return []
  const addr = parseAddr(value)
  if (typeof addr === 'string' || addr.is4In6())
    return [`${p}: non-standard IP address ${goQuote(value)} is invalid: use ${goQuote(netIPString(ip))}`]
  if (addr.is6() && addr.toString() !== value)
    return [`${p}: IPv6 address ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(addr.toString())})`]
  return []
}

/** GetWarningsForCIDR. */
export function getWarningsForCIDR(p: FieldPath, value: string): string[] {
  if (!isCIDR(value)) return []
  const slash = value.indexOf('/')
  const ip = sloppyAddr(value.slice(0, slash))
  if (ip === undefined) return []
  const bits = Number(value.slice(slash + 1))
  const masked = parsePrefix(`${ip.toString()}/${bits}`)
  if (typeof masked === 'string') return []
  const network = masked.masked()
  // IPNet.String(): an IPv4-mapped network prints as IPv4, with the last 32 bits of its mask
  const ipnet = `${netIPString(network.addr)}/${ip.is4In6() ? Math.max(bits - 96, 0) : bits}`
  const warnings: string[] = []
  if (!network.addr.equals(ip)) {
    const single = `${netIPString(ip)}/${ip.bitLen()}`
    warnings.push(
      `${p}: CIDR value ${goQuote(value)} is ambiguous in this context (should be ${goQuote(ipnet)} or ${goQuote(single)}?)`,
    )
  }
  const prefix = parsePrefix(value)
  if (typeof prefix === 'string' || prefix.addr.is4In6())
    warnings.push(`${p}: non-standard CIDR value ${goQuote(value)} is invalid: use ${goQuote(ipnet)}`)
  else if (warnings.length === 0 && prefix.addr.is6() && prefix.toString() !== value)
    warnings.push(
      `${p}: IPv6 CIDR value ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(prefix.toString())})`,
    )
  return warnings
}
