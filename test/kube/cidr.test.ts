import { describe, expect, it } from 'vitest'
import type { CelValue } from '../../src/cel/index.js'
import { compile, standardEnv } from '../../src/cel/program.js'
import { cidrCosts, cidrLibrary } from '../../src/kube/library/cidr.js'
import { type CostRange, ipCosts, ipLibrary } from '../../src/kube/library/ip.js'
import { Addr, type Prefix, parseAddr, parsePrefix } from '../../src/kube/values/netip.js'

// Kubernetes' CIDR library: apiserver pkg/cel/library/cidr_test.go (TestCIDR, ported completely),
// the examples of the cidr.go doc comment, and cost_test.go TestCIDRCost.

const env = standardEnv().extend({ libraries: [ipLibrary, cidrLibrary] })

function run(expr: string, activation: Record<string, CelValue> = {}): CelValue {
  return compile(expr, { env }).evaluate(activation)
}

function ip(s: string): Addr {
  const a = parseAddr(s)
  if (typeof a === 'string') throw new Error(a)
  return a
}

function cidr(s: string): Prefix {
  const p = parsePrefix(s)
  if (typeof p === 'string') throw new Error(p)
  return p
}

type Case = { name: string; expr: string; result?: CelValue; error?: string }

function check(c: Case): void {
  if (c.error !== undefined) {
    let message: string | undefined
    try {
      run(c.expr)
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toBe(c.error)
    return
  }
  const got = run(c.expr)
  if (c.result instanceof Addr || (typeof c.result === 'object' && c.result !== null && 'bits' in c.result)) {
    expect((c.result as Addr | Prefix).equals(got as Addr)).toBe(true)
  } else {
    expect(got).toBe(c.result)
  }
}

describe('cidr_test.go TestCIDR', () => {
  const cases: Case[] = [
    { name: 'parse ipv4', expr: 'cidr(dyn("192.168.0.0/24"))', result: cidr('192.168.0.0/24') },
    {
      name: 'parse invalid ipv4',
      expr: 'cidr("192.168.0.0/")',
      error:
        'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""',
    },
    { name: 'contains IP ipv4 (IP)', expr: 'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', result: true },
    {
      name: 'does not contain IP ipv4 (IP)',
      expr: 'cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))',
      result: false,
    },
    { name: 'contains IP ipv4 (string)', expr: 'cidr("192.168.0.0/24").containsIP("192.168.0.1")', result: true },
    {
      name: 'does not contain IP ipv4 (string)',
      expr: 'cidr("192.168.0.0/24").containsIP("192.168.1.1")',
      result: false,
    },
    {
      name: 'contains CIDR ipv4 (CIDR)',
      expr: 'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))',
      result: true,
    },
    {
      name: 'does not contain IP ipv4 (CIDR)',
      expr: 'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))',
      result: false,
    },
    {
      name: 'contains CIDR ipv4 (string)',
      expr: 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")',
      result: true,
    },
    {
      name: 'does not contain CIDR ipv4 (string)',
      expr: 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")',
      result: false,
    },
    { name: 'returns IP ipv4', expr: 'cidr("192.168.0.0/24").ip()', result: ip('192.168.0.0') },
    { name: 'masks masked ipv4', expr: 'cidr("192.168.0.0/24").masked()', result: cidr('192.168.0.0/24') },
    { name: 'masks unmasked ipv4', expr: 'cidr("192.168.0.1/24").masked()', result: cidr('192.168.0.0/24') },
    { name: 'returns prefix length ipv4', expr: 'cidr("192.168.0.0/24").prefixLength()', result: 24 },
    { name: 'parse ipv6', expr: 'cidr("2001:db8::/32")', result: cidr('2001:db8::/32') },
    {
      name: 'parse invalid ipv6',
      expr: 'cidr("2001:db8::/")',
      error:
        'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""',
    },
    { name: 'contains IP ipv6 (IP)', expr: 'cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', result: true },
    {
      name: 'does not contain IP ipv6 (IP)',
      expr: 'cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))',
      result: false,
    },
    { name: 'contains IP ipv6 (string)', expr: 'cidr("2001:db8::/32").containsIP("2001:db8::1")', result: true },
    {
      name: 'does not contain IP ipv6 (string)',
      expr: 'cidr("2001:db8::/32").containsIP("2001:dc8::1")',
      result: false,
    },
    {
      name: 'contains CIDR ipv6 (CIDR)',
      expr: 'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))',
      result: true,
    },
    {
      name: 'does not contain IP ipv6 (CIDR)',
      expr: 'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))',
      result: false,
    },
    {
      name: 'contains CIDR ipv6 (string)',
      expr: 'cidr("2001:db8::/32").containsCIDR("2001:db8::/33")',
      result: true,
    },
    {
      name: 'does not contain CIDR ipv6 (string)',
      expr: 'cidr("2001:db8::/32").containsCIDR("2001:db8::/31")',
      result: false,
    },
    { name: 'returns IP ipv6', expr: 'cidr("2001:db8::/32").ip()', result: ip('2001:db8::') },
    { name: 'masks masked ipv6', expr: 'cidr("2001:db8::/32").masked()', result: cidr('2001:db8::/32') },
    { name: 'masks unmasked ipv6', expr: 'cidr("2001:db8:1::/32").masked()', result: cidr('2001:db8::/32') },
    { name: 'returns prefix length ipv6', expr: 'cidr("2001:db8::/32").prefixLength()', result: 32 },
    { name: 'converting a CIDR to a string', expr: 'string(cidr("192.168.0.0/24"))', result: '192.168.0.0/24' },
  ]
  for (const c of cases) it(c.name, () => check(c))

  // The library declares its type (cel.Types), so `net.CIDR` is a type identifier.
  it('type of CIDR is net.CIDR', () => {
    expect(run('type(cidr("192.168.0.0/24")) == net.CIDR', {})).toBe(true)
  })

  // cidr_test.go: a compile error from the type checker.
  it('compilation error for cidr(int)', () => {
    expect(() => run('cidr(192168)')).toThrow("found no matching overload for 'cidr' applied to '(int)'")
  })
})

describe('cidr.go doc comment examples', () => {
  const cases: [string, CelValue][] = [
    ["isCIDR('192.168.0.0/16')", true],
    ["isCIDR('::1/128')", true],
    ["isCIDR('192.168.0.0/33')", false],
    ["isCIDR('::1/129')", false],
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true],
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", false],
    ["cidr('192.168.0.0/24').containsIP('192.168.0.1')", true],
    ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
    ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true],
    ["cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24'))", false],
    ["cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')", true],
    ["cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')", false],
    ["cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", true],
    ["cidr('192.168.0.1/24').ip().family()", 4],
    ["cidr('::1/128').ip() == ip('::1')", true],
    ["cidr('::1/128').ip().family()", 6],
    ["cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", true],
    ["cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()", false],
    ["cidr('192.168.0.0/16').prefixLength()", 16],
    ["cidr('::1/128').prefixLength()", 128],
  ]
  for (const [expr, want] of cases) it(expr, () => expect(run(expr)).toBe(want))

  it("cidr('192.168.0.0/33') and cidr('::1/129') are errors (out of range)", () => {
    expect(() => run("cidr('192.168.0.0/33')")).toThrow(
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/33"): prefix length out of range',
    )
    expect(() => run("cidr('::1/129')")).toThrow(/netip\.ParsePrefix\("::1\/129"\): prefix length out of range$/)
  })

  // The doc comment claims cidr('192.168.0.1/16') is an error; the code (and TestCIDR "masks unmasked ipv4")
  // accept host bits and keep them as written.
  it("cidr('192.168.0.1/16') keeps its host bits", () => {
    expect(run("string(cidr('192.168.0.1/16'))")).toBe('192.168.0.1/16')
  })
})

describe('cidr.go behaviours beyond the tests', () => {
  // kubernetes/kubernetes#130450: containsCIDR masks the argument, so a subnet with another base address is contained
  it('containsCIDR of a subnet at a different address (PR 130450)', () => {
    expect(run("cidr('192.168.0.0/16').containsCIDR('192.168.0.1/32')")).toBe(true)
  })
  it('an unparsable string in containsIP is `no such overload` (cidrContainsIP type check)', () => {
    expect(() => run("cidr('10.0.0.0/8').containsIP('not an ip')")).toThrow('no such overload')
  })
  it('an unparsable string in containsCIDR propagates the cidr() error', () => {
    expect(() => run("cidr('10.0.0.0/8').containsCIDR('10.0.0.0')")).toThrow(
      `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0"): no '/'`,
    )
  })
  it('IPv4-mapped IPv6 prefixes are rejected (parseCIDR)', () => {
    expect(() => run("cidr('::ffff:1.2.3.4/120')")).toThrow(
      'network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed',
    )
    expect(run("isCIDR('::ffff:1.2.3.4/120')")).toBe(false)
  })
  it('families never contain each other', () => {
    expect(run("cidr('0.0.0.0/0').containsIP('::1')")).toBe(false)
    expect(run("cidr('::/0').containsCIDR('10.0.0.0/8')")).toBe(false)
  })
})

describe('cost_test.go TestCIDRCost (this library’s share)', () => {
  const size = (n: number): CostRange => ({ min: n, max: n })
  const add = (a: CostRange, b: CostRange): CostRange => ({ min: a.min + b.min, max: a.max + b.max })
  const v4 = cidr('192.168.0.0/16')
  const v6 = cidr('2001:db8::/32')

  it('cidr(string) costs 2 for both test prefixes', () => {
    expect(cidrCosts.string_to_cidr!.actual!(['192.168.0.0/16'], v4)).toBe(2)
    expect(cidrCosts.string_to_cidr!.estimate!([size(14)])).toEqual(size(2))
    expect(cidrCosts.string_to_cidr!.actual!(['2001:db8::/32'], v6)).toBe(2)
    expect(cidrCosts.string_to_cidr!.estimate!([size(13)])).toEqual(size(2))
  })
  it('.ip(), .prefixLength(), .masked() cost base + 1', () => {
    for (const id of ['cidr_ip', 'cidr_prefix_length', 'cidr_masked']) {
      expect(cidrCosts[id]!.actual!([v4], null)).toBe(1)
      expect(cidrCosts[id]!.estimate!([size(2)])).toEqual(size(1))
    }
  })

  // Each figure is the call's cost plus its argument's own parse (ip() or cidr()).
  const argParse = (s: string) => ipCosts.string_to_ip!.actual!([s], null)
  const argParseEst = (s: string) => ipCosts.string_to_ip!.estimate!([size(s.length)])
  it('ipv4 containsCIDR(cidr(...)) and containsCIDR(string): +5 actual, +[5, 9] estimated', () => {
    for (const s of ['192.0.0.0/30', '192.168.0.0/16']) {
      const c = cidrCosts.cidr_contains_cidr!
      expect(c.actual!([v4, cidr(s)], true) + argParse(s)).toBe(5)
      expect(add(c.estimate!([size(2), size(2)]), argParseEst(s))).toEqual({ min: 5, max: 9 })
      const cs = cidrCosts.cidr_contains_cidr_string!
      expect(cs.actual!([v4, s], true)).toBe(5)
      expect(cs.estimate!([size(2), size(s.length)])).toEqual({ min: 5, max: 9 })
    }
  })
  it('ipv4 containsIP: +2/+[2, 5] for 192.0.0.1, +3/+[3, 6] for longer addresses', () => {
    const table: [string, number, CostRange][] = [
      ['192.0.0.1', 2, { min: 2, max: 5 }],
      ['192.169.0.1', 3, { min: 3, max: 6 }],
      ['192.169.169.250', 3, { min: 3, max: 6 }],
    ]
    for (const [s, actual, est] of table) {
      const c = cidrCosts.cidr_contains_ip_ip!
      expect(c.actual!([v4, ip(s)], true) + argParse(s)).toBe(actual)
      expect(add(c.estimate!([size(2), size(4)]), argParseEst(s))).toEqual(est)
    }
    const cs = cidrCosts.cidr_contains_ip_string!
    expect(cs.actual!([v4, '192.0.0.1'], true)).toBe(2)
    expect(cs.estimate!([size(2), size(9)])).toEqual({ min: 2, max: 5 })
    expect(cs.actual!([v4, '192.169.0.1'], true)).toBe(3)
    expect(cs.estimate!([size(2), size(11)])).toEqual({ min: 3, max: 6 })
  })
  it('ipv6 containsCIDR: +5 actual, +[5, 9] estimated', () => {
    for (const s of ['2001:db8::/126', '2001:db8::/32']) {
      const c = cidrCosts.cidr_contains_cidr!
      expect(c.actual!([v6, cidr(s)], true) + argParse(s)).toBe(5)
      expect(add(c.estimate!([size(4), size(4)]), argParseEst(s))).toEqual({ min: 5, max: 9 })
      expect(cidrCosts.cidr_contains_cidr_string!.actual!([v6, s], true)).toBe(5)
      expect(cidrCosts.cidr_contains_cidr_string!.estimate!([size(4), size(s.length)])).toEqual({ min: 5, max: 9 })
    }
  })
  it('ipv6 containsIP: +5/+[5, 8] for a full address, +3/+[3, 6] for 2001:db8::1', () => {
    const table: [string, number, CostRange][] = [
      ['2001:db8:3333:4444:5555:6666:7777:8888', 5, { min: 5, max: 8 }],
      ['2001:db8::1', 3, { min: 3, max: 6 }],
    ]
    for (const [s, actual, est] of table) {
      const c = cidrCosts.cidr_contains_ip_ip!
      expect(c.actual!([v6, ip(s)], true) + argParse(s)).toBe(actual)
      expect(add(c.estimate!([size(4), size(16)]), argParseEst(s))).toEqual(est)
      const cs = cidrCosts.cidr_contains_ip_string!
      expect(cs.actual!([v6, s], true)).toBe(actual)
      expect(cs.estimate!([size(4), size(s.length)])).toEqual(est)
    }
  })
})
