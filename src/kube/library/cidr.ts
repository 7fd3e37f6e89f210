import { ErrorValue, noSuchOverload } from '../../cel/common/errors.js'
import { actualSize } from '../../cel/cost/runtime.js'
import { goQuote } from '../../cel/ext/quote.js'
import { fn, type Library, memberOverload, overload } from '../../cel/functions.js'
import { BoolType, IntType, opaque, StringType } from '../../cel/types/types.js'
import type { CelValue } from '../../cel/values/values.js'
import type { Addr, Prefix } from '../values/netip.js'
import { parsePrefix } from '../values/netip.js'
import { type CostRange, IPType, type OverloadCost, parseCost, parseIPAddr, scaleRange } from './ip.js'

// Kubernetes' CIDR library (k8s.io/apiserver pkg/cel/library/cidr.go, LibraryName "net.cidr"; value
// type pkg/cel/cidr.go). CIDR values are netip prefixes (src/kube/values/netip.ts) of CEL type
// `net.CIDR`, keeping the host bits as written: cidr('192.168.0.1/24') != cidr('192.168.0.0/24').

/** The CEL type of CIDR values (`type(cidr('10.0.0.0/8')) == net.CIDR`). */
export const CIDRType = opaque('net.CIDR')

const PARSE_ERROR = 'network address parse error during conversion from string: '

/** cidr.go parseCIDR: netip.ParsePrefix, then IPv4-mapped IPv6 addresses are rejected. */
export function parseCIDR(raw: string): Prefix | string {
  const p = parsePrefix(raw)
  if (typeof p === 'string') return PARSE_ERROR + p
  if (p.addr.is4In6()) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`
  return p
}

/** `cidr(string)`. stringToCIDR wraps parseCIDR's error once more, hence the doubled prefix. */
export function stringToCIDR(s: string): Prefix {
  const p = parseCIDR(s)
  if (typeof p === 'string') throw new ErrorValue(PARSE_ERROR + p)
  return p
}

/**
 * `c.containsIP(string)`: cidr.go hands stringToIP's result to cidrContainsIP, whose type check
 * fails on the error value and reports `no such overload` for the receiver, so the parse error is lost.
 */
function containsIPString(c: Prefix, s: string): boolean {
  const ip = parseIPAddr(s)
  if (typeof ip === 'string') throw noSuchOverload()
  return c.contains(ip)
}

/** Every address of `o` is in `c`: they overlap and `c` is no longer than `o`. */
function containsCIDR(c: Prefix, o: Prefix): boolean {
  return c.bits <= o.bits && c.overlaps(o)
}

export const cidrLibrary: Library = {
  name: 'net.cidr',
  types: [CIDRType],
  functions: [
    fn('cidr', overload('string_to_cidr', [StringType], CIDRType, stringToCIDR)),
    fn(
      'containsIP',
      memberOverload('cidr_contains_ip_string', [CIDRType, StringType], BoolType, containsIPString),
      memberOverload('cidr_contains_ip_ip', [CIDRType, IPType], BoolType, (c: Prefix, ip: Addr) => c.contains(ip)),
    ),
    fn(
      'containsCIDR',
      // a string that is not a CIDR propagates cidr()'s error (cidrContainsCIDR passes error values through)
      memberOverload('cidr_contains_cidr_string', [CIDRType, StringType], BoolType, (c: Prefix, s: string) =>
        containsCIDR(c, stringToCIDR(s)),
      ),
      memberOverload('cidr_contains_cidr', [CIDRType, CIDRType], BoolType, containsCIDR),
    ),
    fn(
      'ip',
      memberOverload('cidr_ip', [CIDRType], IPType, (c: Prefix) => c.addr),
    ),
    fn(
      'prefixLength',
      memberOverload('cidr_prefix_length', [CIDRType], IntType, (c: Prefix) => c.bits),
    ),
    fn(
      'masked',
      memberOverload('cidr_masked', [CIDRType], CIDRType, (c: Prefix) => c.masked()),
    ),
    fn(
      'isCIDR',
      overload('is_cidr', [StringType], BoolType, (s: string) => typeof parseCIDR(s) !== 'string'),
    ),
    fn(
      'string',
      overload('cidr_to_string', [CIDRType], StringType, (c: Prefix) => c.toString()),
    ),
  ],
}

// ---- cost (apiserver pkg/cel/library/cost.go); see OverloadCost in ip.ts for the conventions.

const TRAVERSAL = 0.1
const ONE: CostRange = { min: 1, max: 1 }
const nominal: OverloadCost = { estimate: () => ONE, actual: () => 1 }

// Estimates: the addresses compared are 4 to 16 bytes, compared twice: ceil([8, 32] * 0.1) = [1, 4].
const COMPARE_ESTIMATE: CostRange = { min: 1, max: 4 }
// containsCIDR also masks the receiver (ceil([4, 16] * 0.1) = [1, 2]) and compares the lengths (+1).
const CONTAINS_CIDR_ESTIMATE: CostRange = { min: 3, max: 7 }

/**
 * Run time: the receiver's size c = ceil(bits / 8) bytes, compared twice. cost.go reads it with actualSize,
 * so a failed receiver (an error, still charged) has size 1; so has a failed argument below.
 */
function compareCost(c: CelValue): number {
  return Math.ceil((actualSize(c) + actualSize(c)) * TRAVERSAL)
}

function containsCIDRCost(c: CelValue): number {
  return compareCost(c) + Math.ceil(actualSize(c) * TRAVERSAL) + 1
}

/** Parsing the string argument (second operand) adds one traversal of it. */
function plusParse(base: CostRange, s: CostRange): CostRange {
  const p = scaleRange(s, TRAVERSAL)
  return { min: base.min + p.min, max: base.max + p.max }
}

/**
 * Costs of the CIDR library by overload id. Kubernetes' cost_test.go TestCIDRCost pins e.g.
 * `cidr('192.168.0.0/16')` at 2, `.containsIP(ip('192.0.0.1'))` at +[2, 5] estimated / +2 actual and
 * `.containsCIDR(cidr('192.0.0.0/30'))` at +[5, 9] / +5 (the argument's own parse included).
 */
export const cidrCosts: Readonly<Record<string, OverloadCost>> = {
  string_to_cidr: parseCost,
  is_cidr: parseCost,
  cidr_ip: nominal,
  cidr_prefix_length: nominal,
  cidr_masked: nominal,
  cidr_contains_ip_ip: {
    estimate: () => COMPARE_ESTIMATE,
    actual: ([c]) => compareCost(c as CelValue),
  },
  // cost.go adds the parse only when the call resolved to the string overload (overloadId), not for a
  // dyn argument the checker left to both
  cidr_contains_ip_string: {
    estimate: ([, s]) => plusParse(COMPARE_ESTIMATE, s as CostRange),
    actual: ([c, s], _r, id) =>
      compareCost(c as CelValue) + (id === '' ? 0 : Math.ceil(actualSize(s as CelValue) * TRAVERSAL)),
  },
  cidr_contains_cidr: {
    estimate: () => CONTAINS_CIDR_ESTIMATE,
    actual: ([c]) => containsCIDRCost(c as CelValue),
  },
  cidr_contains_cidr_string: {
    estimate: ([, s]) => plusParse(CONTAINS_CIDR_ESTIMATE, s as CostRange),
    actual: ([c, s], _r, id) =>
      containsCIDRCost(c as CelValue) + (id === '' ? 0 : Math.ceil(actualSize(s as CelValue) * TRAVERSAL)),
  },
}
