import { describe, expect, it } from 'vitest'
import { type Addr, type Prefix, parseAddr, parsePrefix } from '../../src/kube/values/netip.js'

// Expected values are Go's: src/net/netip/netip_test.go (Go 1.24) unless a case says otherwise.

function addr(s: string): Addr {
  const a = parseAddr(s)
  if (typeof a === 'string') throw new Error(a)
  return a
}

function prefix(s: string): Prefix {
  const p = parsePrefix(s)
  if (typeof p === 'string') throw new Error(p)
  return p
}

/** The 128-bit form as Go's Mk128(hi, lo). */
function words(a: Addr): [bigint, bigint] {
  return [(BigInt(a.w0) << 32n) | BigInt(a.w1), (BigInt(a.w2) << 32n) | BigInt(a.w3)]
}

describe('netip_test.go TestParseAddr (valid IPs)', () => {
  const valid: { in: string; hi: bigint; lo: bigint; v4?: boolean; zone?: string; str?: string }[] = [
    { in: '0.0.0.0', hi: 0n, lo: 0xffff00000000n, v4: true },
    { in: '192.168.140.255', hi: 0n, lo: 0xffffc0a88cffn, v4: true },
    { in: '::', hi: 0n, lo: 0n },
    { in: '::1', hi: 0n, lo: 1n },
    { in: 'fd7a:115c:a1e0:ab12:4843:cd96:626b:430b', hi: 0xfd7a115ca1e0ab12n, lo: 0x4843cd96626b430bn },
    { in: 'fd7a:115c::626b:430b', hi: 0xfd7a115c00000000n, lo: 0x00000000626b430bn },
    { in: 'fd7a:115c:a1e0:ab12:4843:cd96::', hi: 0xfd7a115ca1e0ab12n, lo: 0x4843cd9600000000n },
    {
      in: 'fd7a:115c:a1e0:ab12:4843:cd96:626b::',
      hi: 0xfd7a115ca1e0ab12n,
      lo: 0x4843cd96626b0000n,
      str: 'fd7a:115c:a1e0:ab12:4843:cd96:626b:0',
    },
    {
      in: 'fd7a:115c:a1e0::4843:cd96:626b:430b',
      hi: 0xfd7a115ca1e00000n,
      lo: 0x4843cd96626b430bn,
      str: 'fd7a:115c:a1e0:0:4843:cd96:626b:430b',
    },
    { in: '::ffff:192.168.140.255', hi: 0n, lo: 0x0000ffffc0a88cffn, str: '::ffff:192.168.140.255' },
    {
      in: 'fd7a:115c:a1e0:ab12:4843:cd96:626b:430b%eth0',
      hi: 0xfd7a115ca1e0ab12n,
      lo: 0x4843cd96626b430bn,
      zone: 'eth0',
    },
    {
      in: '1:2::ffff:192.168.140.255%eth1',
      hi: 0x0001000200000000n,
      lo: 0x0000ffffc0a88cffn,
      zone: 'eth1',
      str: '1:2::ffff:c0a8:8cff%eth1',
    },
    {
      in: '::ffff:192.168.140.255%eth1',
      hi: 0n,
      lo: 0x0000ffffc0a88cffn,
      zone: 'eth1',
      str: '::ffff:192.168.140.255%eth1',
    },
    { in: 'FD9E:1A04:F01D::1', hi: 0xfd9e1a04f01d0000n, lo: 1n, str: 'fd9e:1a04:f01d::1' },
  ]
  for (const t of valid) {
    it(t.in, () => {
      const a = addr(t.in)
      expect(words(a)).toEqual([t.hi, t.lo])
      expect(a.v4).toBe(t.v4 ?? false)
      expect(a.zone).toBe(t.zone ?? '')
      expect(a.toString()).toBe(t.str ?? t.in)
      // ParseAddr(ip.String()) is the identity
      expect(addr(a.toString()).equals(a)).toBe(true)
    })
  }
})

describe('netip_test.go TestParseAddr (errors with their exact text)', () => {
  const cases: [string, string][] = [
    ['010.000.015.001', 'ParseAddr("010.000.015.001"): IPv4 field has octet with leading zero'],
    [
      '000001.00000002.00000003.000000004',
      'ParseAddr("000001.00000002.00000003.000000004"): IPv4 field has octet with leading zero',
    ],
    ['::ffff:1.2.03.4', 'ParseAddr("::ffff:1.2.03.4"): IPv4 field has octet with leading zero'],
    ['::ffff:1.2.3.z', 'ParseAddr("::ffff:1.2.3.z"): unexpected character (at "z")'],
    // apiserver pkg/cel/library/ip_test.go TestIP "parse invalid ipv4" / "parse invalid ipv6"
    ['192.168.0.1.0', 'ParseAddr("192.168.0.1.0"): IPv4 address too long'],
    ['2001:db8:::68', 'ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")'],
  ]
  for (const [input, want] of cases) it(input, () => expect(parseAddr(input)).toBe(want))
})

describe('netip_test.go TestParseAddr (invalid IPs)', () => {
  const invalid = [
    '',
    'bad',
    '1234',
    '1.2.3.4%eth0',
    '.1.2.3',
    '1.2.3.',
    '1..2.3',
    '1.2.3.4.5',
    '0300.0250.0214.0377',
    '0xc0.0xa8.0x8c.0xff',
    '192.168.12345',
    '127.0.1',
    '192.1234567',
    '127.1',
    '192.168.300.1',
    '192.168.0.1.5.6',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4::5:6:7:8',
    'fe801::1',
    'fe80:tail:scal:e::',
    'fe80::1%',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:192.168.140.255',
    'ffff::ffff:ffff:ffff:ffff:ffff:ffff:192.168.140.255',
    '::ffff:192.168.140.bad',
    'fe80::1::1',
    'fe80:1?:1',
    'fe80:',
    '0:0:0:0:0:ffff:0:00000',
    '0:0:0:0:00000:ffff:127.1.2.3',
  ]
  for (const input of invalid) {
    it(JSON.stringify(input), () => {
      const r = parseAddr(input)
      expect(typeof r).toBe('string')
      expect(r as string).toMatch(/^ParseAddr\(".*"\): /)
    })
  }
})

describe('netip_test.go TestIPProperties', () => {
  // [address, globalUnicast, linkLocalMulticast, linkLocalUnicast, loopback, multicast, unspecified]
  const cases: [string, boolean, boolean, boolean, boolean, boolean, boolean][] = [
    ['192.0.2.1', true, false, false, false, false, false],
    ['::ffff:192.0.2.1', true, false, false, false, false, false],
    ['2001:db8::1', true, false, false, false, false, false],
    ['2001:db8::1%eth0', true, false, false, false, false, false],
    ['4000::1', true, false, false, false, false, false],
    ['224.0.0.1', false, true, false, false, true, false],
    ['::ffff:224.0.0.1', false, true, false, false, true, false],
    ['ff02::1', false, true, false, false, true, false],
    ['ff02::1%eth0', false, true, false, false, true, false],
    ['169.254.0.1', false, false, true, false, false, false],
    ['::ffff:169.254.0.1', false, false, true, false, false, false],
    ['fe80::1', false, false, true, false, false, false],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false, false, true, false, false, false],
    ['fe80::1%eth0', false, false, true, false, false, false],
    ['127.0.0.1', false, false, false, true, false, false],
    ['::1', false, false, false, true, false, false],
    ['ff01::1', false, false, false, false, true, false],
    ['ff01::1%eth0', false, false, false, false, true, false],
    ['10.0.0.1', true, false, false, false, false, false],
    ['172.16.0.1', true, false, false, false, false, false],
    ['192.168.1.1', true, false, false, false, false, false],
    ['fd00::1', true, false, false, false, false, false],
    ['::ffff:10.0.0.1', true, false, false, false, false, false],
    ['::ffff:172.16.0.1', true, false, false, false, false, false],
    ['::ffff:192.168.1.1', true, false, false, false, false, false],
    ['0.0.0.0', false, false, false, false, false, true],
    ['::', false, false, false, false, false, true],
  ]
  for (const [s, gu, llm, llu, lo, mc, un] of cases) {
    it(s, () => {
      const a = addr(s)
      expect(a.isGlobalUnicast()).toBe(gu)
      expect(a.isLinkLocalMulticast()).toBe(llm)
      expect(a.isLinkLocalUnicast()).toBe(llu)
      expect(a.isLoopback()).toBe(lo)
      expect(a.isMulticast()).toBe(mc)
      expect(a.isUnspecified()).toBe(un)
    })
  }
  it('loopback v6 mapped v4Addr (AddrFrom16 of ::1 is ::1)', () => expect(addr('::1').isLoopback()).toBe(true))
})

describe('netip_test.go TestIs4AndIs6 / TestIs4In6', () => {
  const is4: [string, boolean][] = [
    ['1.2.3.4', true],
    ['127.0.0.2', true],
    ['::1', false],
    ['::ffff:192.0.2.128', false],
    ['::fffe:c000:0280', false],
    ['::1%eth0', false],
  ]
  for (const [s, want] of is4) it(`Is4(${s})`, () => expect(addr(s).is4()).toBe(want))
  const is4In6: [string, boolean][] = [
    ['::ffff:c000:0280', true],
    ['::ffff:192.0.2.128', true],
    ['::ffff:192.0.2.128%eth0', true],
    ['::fffe:c000:0280', false],
    ['::ffff:127.1.2.3', true],
    ['::ffff:7f01:0203', true],
    ['0:0:0:0:0000:ffff:127.1.2.3', true],
    ['0:0:0:0::ffff:127.1.2.3', true],
    ['::1', false],
    ['1.2.3.4', false],
  ]
  for (const [s, want] of is4In6) it(`Is4In6(${s})`, () => expect(addr(s).is4In6()).toBe(want))
})

describe('netip_test.go TestAddrLessCompare (equality part)', () => {
  it('an IPv4 address is not its IPv4-mapped IPv6 form, nor 0102:0304::', () => {
    expect(addr('1.2.3.4').equals(addr('::ffff:1.2.3.4'))).toBe(false)
    expect(addr('1.2.3.4').equals(addr('0102:0304::0'))).toBe(false)
    expect(addr('1.2.3.4').equals(addr('1.2.3.4'))).toBe(true)
  })
  it('zones distinguish addresses', () => {
    expect(addr('::1').equals(addr('::1%foo'))).toBe(false)
    expect(addr('::1%a').equals(addr('::1%a'))).toBe(true)
    expect(addr('::1%a').equals(addr('::1%b'))).toBe(false)
  })
})

describe('netip_test.go TestPrefixMarshalTextString / TestPrefix (String)', () => {
  const cases: [string, string][] = [
    ['1.2.3.4/24', '1.2.3.4/24'],
    ['fd7a:115c:a1e0:ab12:4843:cd96:626b:430b/118', 'fd7a:115c:a1e0:ab12:4843:cd96:626b:430b/118'],
    ['::ffff:c000:0280/96', '::ffff:192.0.2.128/96'],
    ['::ffff:192.168.140.255/8', '::ffff:192.168.140.255/8'],
    ['1.2.3.4/32', '1.2.3.4/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['::/0', '::/0'],
    ['::1/128', '::1/128'],
    ['2001:db8::/32', '2001:db8::/32'],
  ]
  for (const [s, want] of cases) it(s, () => expect(prefix(s).toString()).toBe(want))
})

describe('netip_test.go TestPrefixMasked / TestPrefixMasking', () => {
  const cases: [string, string][] = [
    ['192.168.0.255/24', '192.168.0.0/24'],
    ['2100::/3', '2000::/3'],
    // TestPrefixMasking: ip.Prefix(bits) is the masked prefix
    ['192.0.2.0/16', '192.0.0.0/16'],
    ['255.255.255.255/20', '255.255.240.0/20'],
    ['100.98.156.66/10', '100.64.0.0/10'],
    ['2001:db8::1/32', '2001:db8::/32'],
    ['fe80::dead:beef:dead:beef/96', 'fe80::dead:beef:0:0/96'],
    ['aaaa::/4', 'a000::/4'],
    ['::/63', '::/63'],
  ]
  for (const [s, want] of cases) {
    it(s, () => {
      const m = prefix(s).masked()
      expect(m.equals(prefix(want))).toBe(true)
      expect(m.toString()).toBe(want)
    })
  }
})

describe('netip_test.go TestPrefix (Contains)', () => {
  const cases: [string, string, number, string[], string[]][] = [
    ['192.168.0.0/24', '192.168.0.0', 24, ['192.168.0.1', '192.168.0.55'], ['192.168.1.1', '1.1.1.1']],
    ['192.168.1.1/32', '192.168.1.1', 32, ['192.168.1.1'], ['192.168.1.2']],
    [
      '100.64.0.0/10',
      '100.64.0.0',
      10,
      ['100.64.0.0', '100.64.0.1', '100.81.251.94', '100.100.100.100', '100.127.255.254', '100.127.255.255'],
      ['100.63.255.255', '100.128.0.0'],
    ],
    [
      '2001:db8::/96',
      '2001:db8::',
      96,
      ['2001:db8::aaaa:bbbb', '2001:db8::1'],
      ['2001:db8::1:aaaa:bbbb', '2001:db9::'],
    ],
    ['0.0.0.0/0', '0.0.0.0', 0, ['192.168.0.1', '1.1.1.1'], ['2001:db8::1']],
    ['::/0', '::', 0, ['::1', '2001:db8::1'], ['192.0.2.1']],
    ['2000::/3', '2000::', 3, ['2001:db8::1'], ['fe80::1']],
  ]
  for (const [s, ip, bits, yes, no] of cases) {
    it(s, () => {
      const p = prefix(s)
      expect(p.addr.equals(addr(ip))).toBe(true)
      expect(p.bits).toBe(bits)
      for (const a of yes) expect(p.contains(addr(a)), a).toBe(true)
      for (const a of no) expect(p.contains(addr(a)), a).toBe(false)
    })
  }
  it('a zoned address is never contained (Prefix.Contains doc)', () => {
    expect(prefix('fe80::/10').contains(addr('fe80::1%eth0'))).toBe(false)
  })
})

describe('netip_test.go TestParsePrefixError', () => {
  const cases: [string, string][] = [
    ['192.168.0.0', "no '/'"],
    ['1.257.1.1/24', 'value >255'],
    ['1.1.1.0/q', 'bad bits'],
    ['1.1.1.0/-1', 'bad bits'],
    ['1.1.1.0/33', 'out of range'],
    ['2001::/129', 'out of range'],
    ['1.1.1.0%a/24', 'unexpected character'],
    ['2001:db8::%a/32', 'zones cannot be present'],
    ['1.1.1.0/+32', 'bad bits'],
    ['1.1.1.0/-32', 'bad bits'],
    ['1.1.1.0/032', 'bad bits'],
    ['1.1.1.0/0032', 'bad bits'],
  ]
  for (const [s, sub] of cases) {
    it(s, () => {
      const r = parsePrefix(s)
      expect(typeof r).toBe('string')
      expect(r as string).toContain(sub)
      expect(r as string).toMatch(/^netip\.ParsePrefix\(".*"\): /)
    })
  }
  // apiserver pkg/cel/library/cidr_test.go "parse invalid ipv4" (inner text of the CEL error)
  it('192.168.0.0/ (cidr_test.go)', () => {
    expect(parsePrefix('192.168.0.0/')).toBe('netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""')
  })
})

describe('netip_test.go TestPrefixOverlaps', () => {
  const cases: [string, string, boolean][] = [
    ['::0/3', '0.0.0.0/3', false],
    ['1.2.0.0/16', '1.2.0.0/16', true],
    ['1.2.0.0/16', '1.2.3.0/24', true],
    ['1.2.0.0/16', '1.2.3.0/32', true],
    ['1.2.3.0/32', '0.0.0.0/0', true],
    ['1.2.3.0/32', '5.5.5.5/0', true],
    ['5::1/128', '5::0/8', true],
    ['1::1/128', '2::2/128', false],
    ['0100::0/8', '::1/128', false],
    // IPv4-mapped IPv6 addresses do not overlap with IPv4
    ['::ffff:1.2.0.0/16', '1.2.3.0/24', false],
  ]
  for (const [a, b, want] of cases) {
    it(`${a} ${b}`, () => {
      expect(prefix(a).overlaps(prefix(b))).toBe(want)
      expect(prefix(b).overlaps(prefix(a))).toBe(want)
    })
  }
})
