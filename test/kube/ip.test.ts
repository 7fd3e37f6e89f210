import { describe, expect, it } from 'vitest'
import type { CelValue } from '../../src/cel/index.js'
import { compile, standardEnv } from '../../src/cel/program.js'
import { cidrLibrary } from '../../src/kube/library/cidr.js'
import { type CostRange, ipCosts, ipLibrary } from '../../src/kube/library/ip.js'
import { Addr, parseAddr } from '../../src/kube/values/netip.js'

// Kubernetes' IP library: apiserver pkg/cel/library/ip_test.go (TestIP, ported completely), the
// examples of the ip.go doc comment, and cost_test.go (TestIPCost, TestIPIsCanonicalCost).

const env = standardEnv().extend({ libraries: [ipLibrary, cidrLibrary] })

function run(expr: string, activation: Record<string, CelValue> = {}): CelValue {
  return compile(expr, { env }).evaluate(activation)
}

function ip(s: string): Addr {
  const a = parseAddr(s)
  if (typeof a === 'string') throw new Error(a)
  return a
}

type Case = { name: string; expr: string; result?: CelValue; error?: string }

describe('ip_test.go TestIP', () => {
  const cases: Case[] = [
    { name: 'parse ipv4', expr: 'ip("192.168.0.1")', result: ip('192.168.0.1') },
    {
      name: 'parse invalid ipv4',
      expr: 'ip("192.168.0.1.0")',
      error:
        'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
    },
    { name: 'isIP valid ipv4', expr: 'isIP("192.168.0.1")', result: true },
    { name: 'isIP invalid ipv4', expr: 'isIP("192.168.0.1.0")', result: false },
    { name: 'ip.isCanonical valid ipv4', expr: 'ip.isCanonical("127.0.0.1")', result: true },
    {
      name: 'ip.isCanonical invalid ipv4',
      expr: 'ip.isCanonical("127.0.0.1.0")',
      error:
        'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long',
    },
    { name: 'ipv4 family', expr: 'ip("192.168.0.1").family()', result: 4 },
    { name: 'ipv4 isUnspecified true', expr: 'ip("0.0.0.0").isUnspecified()', result: true },
    { name: 'ipv4 isUnspecified false', expr: 'ip("127.0.0.1").isUnspecified()', result: false },
    { name: 'ipv4 isLoopback true', expr: 'ip("127.0.0.1").isLoopback()', result: true },
    { name: 'ipv4 isLoopback false', expr: 'ip("1.2.3.4").isLoopback()', result: false },
    { name: 'ipv4 isLinkLocalMulticast true', expr: 'ip("224.0.0.1").isLinkLocalMulticast()', result: true },
    { name: 'ipv4 isLinkLocalMulticast false', expr: 'ip("224.0.1.1").isLinkLocalMulticast()', result: false },
    { name: 'ipv4 isLinkLocalUnicast true', expr: 'ip("169.254.169.254").isLinkLocalUnicast()', result: true },
    { name: 'ipv4 isLinkLocalUnicast false', expr: 'ip("192.168.0.1").isLinkLocalUnicast()', result: false },
    { name: 'ipv4 isGlobalUnicast true', expr: 'ip("192.168.0.1").isGlobalUnicast()', result: true },
    { name: 'ipv4 isGlobalUnicast false', expr: 'ip("255.255.255.255").isGlobalUnicast()', result: false },
    { name: 'parse ipv6', expr: 'ip("2001:db8::68")', result: ip('2001:db8::68') },
    {
      name: 'parse invalid ipv6',
      expr: 'ip("2001:db8:::68")',
      error:
        'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    },
    { name: 'isIP valid ipv6', expr: 'isIP("2001:db8::68")', result: true },
    { name: 'isIP invalid ipv4 (ipv6 input)', expr: 'isIP("2001:db8:::68")', result: false },
    { name: 'ip.isCanonical valid ipv6', expr: 'ip.isCanonical("2001:db8::68")', result: true },
    { name: 'ip.isCanonical non-canonical ipv6', expr: 'ip.isCanonical("2001:DB8::68")', result: false },
    {
      name: 'ip.isCanonical invalid ipv6',
      expr: 'ip.isCanonical("2001:db8:::68")',
      error:
        'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    },
    { name: 'ipv6 family', expr: 'ip("2001:db8::68").family()', result: 6 },
    { name: 'ipv6 isUnspecified true', expr: 'ip("::").isUnspecified()', result: true },
    { name: 'ipv6 isUnspecified false', expr: 'ip("::1").isUnspecified()', result: false },
    { name: 'ipv6 isLoopback true', expr: 'ip("::1").isLoopback()', result: true },
    { name: 'ipv6 isLoopback false', expr: 'ip("2001:db8::abcd").isLoopback()', result: false },
    { name: 'ipv6 isLinkLocalMulticast true', expr: 'ip("ff02::1").isLinkLocalMulticast()', result: true },
    { name: 'ipv6 isLinkLocalMulticast false', expr: 'ip("fd00::1").isLinkLocalMulticast()', result: false },
    { name: 'ipv6 isLinkLocalUnicast true', expr: 'ip("fe80::1").isLinkLocalUnicast()', result: true },
    { name: 'ipv6 isLinkLocalUnicast false', expr: 'ip("fd80::1").isLinkLocalUnicast()', result: false },
    { name: 'ipv6 isGlobalUnicast true', expr: 'ip("2001:db8::abcd").isGlobalUnicast()', result: true },
    { name: 'ipv6 isGlobalUnicast false', expr: 'ip("ff00::1").isGlobalUnicast()', result: false },
    { name: 'converting an IP address to a string', expr: 'string(ip("192.168.0.1"))', result: '192.168.0.1' },
  ]
  for (const c of cases) {
    it(c.name, () => {
      if (c.error !== undefined) {
        expect(() => run(c.expr)).toThrow(c.error)
        try {
          run(c.expr)
        } catch (e) {
          expect((e as Error).message).toBe(c.error)
        }
        return
      }
      const got = run(c.expr)
      if (c.result instanceof Addr) expect(c.result.equals(got as Addr)).toBe(true)
      else expect(got).toBe(c.result)
    })
  }

  // The library declares its type (cel.Types), so `net.IP` is a type identifier.
  it('type of IP is net.IP', () => {
    expect(run('type(ip("192.168.0.1")) == net.IP', {})).toBe(true)
  })

  // ip_test.go: a compile error from the type checker.
  it('passing cidr into isIP returns compile error', () => {
    expect(() => run('isIP(cidr("192.168.0.0/24"))')).toThrow(
      "found no matching overload for 'isIP' applied to '(net.CIDR)'",
    )
  })
})

describe('ip.go doc comment examples', () => {
  const cases: [string, CelValue][] = [
    ["isIP('127.0.0.1')", true],
    ["isIP('::1')", true],
    ["isIP('127.0.0.256')", false],
    ["isIP(':::1')", false],
    ["ip.isCanonical('127.0.0.1')", true],
    ["ip.isCanonical('2001:db8::abcd')", true],
    ["ip.isCanonical('2001:DB8::ABCD')", false],
    ["ip.isCanonical('2001:db8::0:0:0:abcd')", false],
    ["ip('127.0.0.1').family() == 4", true],
    ["ip('::1').family() == 6", true],
    ["ip('0.0.0.0').isUnspecified()", true],
    ["ip('127.0.0.1').isUnspecified()", false],
    ["ip('::').isUnspecified()", true],
    ["ip('::1').isUnspecified()", false],
    ["ip('127.0.0.1').isLoopback()", true],
    ["ip('192.168.0.1').isLoopback()", false],
    ["ip('::1').isLoopback()", true],
    ["ip('2001:db8::abcd').isLoopback()", false],
    ["ip('224.0.0.1').isLinkLocalMulticast()", true],
    ["ip('224.0.1.1').isLinkLocalMulticast()", false],
    ["ip('ff02::1').isLinkLocalMulticast()", true],
    ["ip('fd00::1').isLinkLocalMulticast()", false],
    ["ip('169.254.169.254').isLinkLocalUnicast()", true],
    ["ip('192.168.0.1').isLinkLocalUnicast()", false],
    ["ip('fe80::1').isLinkLocalUnicast()", true],
    ["ip('fd80::1').isLinkLocalUnicast()", false],
    ["ip('192.168.0.1').isGlobalUnicast()", true],
    ["ip('255.255.255.255').isGlobalUnicast()", false],
    ["ip('2001:db8::abcd').isGlobalUnicast()", true],
    ["ip('ff00::1').isGlobalUnicast()", false],
  ]
  for (const [expr, want] of cases) it(expr, () => expect(run(expr)).toBe(want))

  it("ip('127.0.0.256') and ip(':::1') are errors", () => {
    expect(() => run("ip('127.0.0.256')")).toThrow(
      'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255',
    )
    expect(() => run("ip(':::1')")).toThrow(/^IP Address ":::1" parse error during conversion from string: /)
  })
})

describe('ip.go parseIPAddr rejections (the format strings of ip.go)', () => {
  it('zones are not allowed', () => {
    expect(() => run("ip('fe80::1%eth0')")).toThrow('IP address "fe80::1%eth0" with zone value is not allowed')
    expect(run("isIP('fe80::1%eth0')")).toBe(false)
  })
  it('IPv4-mapped IPv6 addresses are not allowed', () => {
    expect(() => run("ip('::ffff:1.2.3.4')")).toThrow('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed')
    expect(() => run("ip.isCanonical('::ffff:1.2.3.4')")).toThrow(
      'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed',
    )
    expect(run("isIP('::ffff:1.2.3.4')")).toBe(false)
  })
  it('dyn arguments dispatch at run time', () => {
    expect(run("ip(dyn('10.0.0.1')).family()")).toBe(4)
  })
})

describe('cost_test.go TestIPCost / TestIPIsCanonicalCost (this library’s share)', () => {
  const size = (n: number): CostRange => ({ min: n, max: n })
  it('ip(string) costs ceil(len * 0.1): 2 for 192.168.0.1, 4 for a 39-character IPv6', () => {
    const c = ipCosts.string_to_ip!
    expect(c.actual!(['192.168.0.1'], null)).toBe(2)
    expect(c.estimate!([size(11)])).toEqual(size(2))
    expect(c.actual!(['2001:db8:3333:4444:5555:6666:7777:8888'], null)).toBe(4)
    expect(c.estimate!([size(39)])).toEqual(size(4))
  })
  it('the accessors cost 1 (base + 1)', () => {
    for (const id of [
      'ip_family',
      'ip_is_unspecified',
      'ip_is_loopback',
      'ip_is_link_local_multicast',
      'ip_is_link_local_unicast',
      'ip_is_global_unicast',
    ]) {
      expect(ipCosts[id]!.actual!([ip('192.168.0.1')], true)).toBe(1)
      expect(ipCosts[id]!.estimate!([size(4)])).toEqual(size(1))
    }
  })
  it('ip.isCanonical costs 3, 8 and 3', () => {
    const c = ipCosts.ip_is_canonical!
    expect(c.actual!(['192.168.0.1'], true)).toBe(3)
    expect(c.estimate!([size(11)])).toEqual(size(3))
    expect(c.actual!(['2001:db8:3333:4444:5555:6666:7777:8888'], true)).toBe(8)
    expect(c.estimate!([size(39)])).toEqual(size(8))
    expect(c.actual!(['2001:db8::abcd'], true)).toBe(3)
    expect(c.estimate!([size(14)])).toEqual(size(3))
  })
  it('isIP is a traversal like ip()', () => {
    expect(ipCosts.is_ip!.actual!(['192.168.0.1'], true)).toBe(2)
  })
})
