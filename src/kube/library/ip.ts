import { ErrorValue } from '../../cel/common/errors.js'
import { actualSize } from '../../cel/cost/runtime.js'
import { goQuote } from '../../cel/ext/quote.js'
import { fn, type Library, memberOverload, overload } from '../../cel/functions.js'
import { BoolType, IntType, opaque, StringType } from '../../cel/types/types.js'
import type { CelValue } from '../../cel/values/values.js'
import { type Addr, parseAddr } from '../values/netip.js'

// Kubernetes' `kubernetes.net.ip` library (k8s.io/apiserver pkg/cel/library/ip.go; value type
// pkg/cel/ip.go). IP values are netip addresses (src/kube/values/netip.ts), of CEL type `net.IP`.

/** The CEL type of IP values (`type(ip('1.2.3.4')) == net.IP`). */
export const IPType = opaque('net.IP')

/**
 * ip.go parseIPAddr: netip.ParseAddr, then zones and IPv4-mapped IPv6 addresses are rejected.
 * Returns the address, or the error text Kubernetes reports (cel-go types.NewErr("%v", err)).
 */
export function parseIPAddr(raw: string): Addr | string {
  const addr = parseAddr(raw)
  if (typeof addr === 'string') return `IP Address ${goQuote(raw)} parse error during conversion from string: ${addr}`
  if (addr.zone !== '') return `IP address ${goQuote(raw)} with zone value is not allowed`
  if (addr.is4In6()) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`
  return addr
}

/** `ip(string)`: the address, or the parse error as a CEL error. */
export function stringToIP(s: string): Addr {
  const addr = parseIPAddr(s)
  if (typeof addr === 'string') throw new ErrorValue(addr)
  return addr
}

function isIP(s: string): boolean {
  return typeof parseIPAddr(s) !== 'string'
}

/** `ip.isCanonical(string)`: Addr.String() reproduces the input (errors as `ip()`). */
function ipIsCanonical(s: string): boolean {
  const addr = stringToIP(s)
  // the strict dotted-quad parser only accepts the canonical form
  return addr.v4 || addr.toString() === s
}

export const ipLibrary: Library = {
  name: 'kubernetes.net.ip',
  types: [IPType],
  functions: [
    fn('ip', overload('string_to_ip', [StringType], IPType, stringToIP)),
    fn(
      'family',
      memberOverload('ip_family', [IPType], IntType, (ip: Addr) => (ip.v4 ? 4 : 6)),
    ),
    fn('ip.isCanonical', overload('ip_is_canonical', [StringType], BoolType, ipIsCanonical)),
    fn(
      'isUnspecified',
      memberOverload('ip_is_unspecified', [IPType], BoolType, (ip: Addr) => ip.isUnspecified()),
    ),
    fn(
      'isLoopback',
      memberOverload('ip_is_loopback', [IPType], BoolType, (ip: Addr) => ip.isLoopback()),
    ),
    fn(
      'isLinkLocalMulticast',
      memberOverload('ip_is_link_local_multicast', [IPType], BoolType, (ip: Addr) => ip.isLinkLocalMulticast()),
    ),
    fn(
      'isLinkLocalUnicast',
      memberOverload('ip_is_link_local_unicast', [IPType], BoolType, (ip: Addr) => ip.isLinkLocalUnicast()),
    ),
    fn(
      'isGlobalUnicast',
      memberOverload('ip_is_global_unicast', [IPType], BoolType, (ip: Addr) => ip.isGlobalUnicast()),
    ),
    fn('isIP', overload('is_ip', [StringType], BoolType, isIP)),
    fn(
      'string',
      overload('ip_to_string', [IPType], StringType, (ip: Addr) => ip.toString()),
    ),
  ],
}

// ---- cost (apiserver pkg/cel/library/cost.go), for the cost mechanism being built.

/** A cost or size range, as cel-go's checker.CostEstimate / SizeEstimate. */
export interface CostRange {
  readonly min: number
  readonly max: number
}

/**
 * The cost of one overload. `estimate` maps the size estimates of the operands (receiver first) to
 * the call's own cost (the operands' costs are added by the estimator). `actual` is the run-time
 * cost from the argument values (receiver first) and the result. Sizes are cel-go's: code points
 * for strings, `size()` of net.IP (4 or 16 bytes) and net.CIDR (ceil(prefix bits / 8)).
 * Overloads not listed cost what cel-go's defaults say (1 at run time, 1 + operands estimated).
 */
export interface OverloadCost {
  readonly estimate?: (sizes: readonly CostRange[]) => CostRange
  /** `overloadId` as RuntimeCost's: '' when the checker left several overloads (cost.go reads it). */
  readonly actual?: (args: readonly CelValue[], result: CelValue, overloadId?: string) => number
}

/** cel-go common.StringTraversalCostFactor. */
const TRAVERSAL = 0.1

/** cel-go's MultiplyByCostFactor on a range: each bound times the factor, rounded up. */
export function scaleRange(r: CostRange, factor: number): CostRange {
  return { min: Math.ceil(r.min * factor), max: Math.ceil(r.max * factor) }
}

const ONE: CostRange = { min: 1, max: 1 }
const nominal: OverloadCost = { estimate: () => ONE, actual: () => 1 }

/** Parsing a string is one traversal: ceil(size(s) * 0.1). */
export const parseCost: OverloadCost = {
  estimate: ([s]) => scaleRange(s as CostRange, TRAVERSAL),
  actual: ([s]) => Math.ceil(actualSize(s as CelValue) * TRAVERSAL),
}

/**
 * Costs of the IP library by overload id. Kubernetes' cost_test.go (TestIPCost, TestIPIsCanonicalCost)
 * pins `ip('192.168.0.1')` at 2 and `ip.isCanonical('192.168.0.1')` at 3, estimated and actual.
 * `==` between two IPs costs 1 (cost.go CallCost / EstimateCallCost `_==_` on net.IP).
 * (cost.go's EstimateCallCost guards the global parse functions with `target != nil`; the figures
 * above are what Kubernetes' tests expect, so they are transcribed as applying.)
 */
export const ipCosts: Readonly<Record<string, OverloadCost>> = {
  string_to_ip: parseCost,
  is_ip: parseCost,
  // parse, then compare the canonical text with the input: twice the traversal
  ip_is_canonical: {
    estimate: ([s]) => scaleRange(s as CostRange, 2 * TRAVERSAL),
    actual: ([s]) => Math.ceil(actualSize(s as CelValue) * 2 * TRAVERSAL),
  },
  ip_family: nominal,
  ip_is_unspecified: nominal,
  ip_is_loopback: nominal,
  ip_is_link_local_multicast: nominal,
  ip_is_link_local_unicast: nominal,
  ip_is_global_unicast: nominal,
}
