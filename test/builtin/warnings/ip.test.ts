import { describe, expect, it } from 'vitest'
import { getWarningsForCIDR, getWarningsForIP } from '../../../src/builtin/warnings/ip.js'
import { FieldPath } from '../../../src/kube/field.js'

// k8s.io/apimachinery v0.37.2 pkg/util/validation/ip_test.go: TestGetWarningsForIP, TestGetWarningsForCIDR.

const clusterIP = FieldPath.of('spec').child('clusterIPs').index(0)
const ranges = FieldPath.of('spec').child('loadBalancerSourceRanges').index(0)

describe('GetWarningsForIP', () => {
  const rows: [string, FieldPath, string, string[]][] = [
    ['IPv4 No failures', clusterIP, '192.12.2.2', []],
    ['IPv6 No failures', clusterIP, '2001:db8::2', []],
    [
      'IPv4 with leading zeros',
      clusterIP,
      '192.012.2.2',
      ['spec.clusterIPs[0]: non-standard IP address "192.012.2.2" is invalid: use "192.12.2.2"'],
    ],
    [
      'IPv4-mapped IPv6',
      clusterIP,
      '::ffff:192.12.2.2',
      ['spec.clusterIPs[0]: non-standard IP address "::ffff:192.12.2.2" is invalid: use "192.12.2.2"'],
    ],
    [
      'IPv6 non-canonical format',
      FieldPath.of('spec').child('loadBalancerIP'),
      '2001:db8:0:0::2',
      ['spec.loadBalancerIP: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")'],
    ],
  ]
  for (const [name, p, address, want] of rows) it(name, () => expect(getWarningsForIP(p, address)).toEqual(want))
  it('a value the sloppy parser refuses has none (validation refused it already)', () => {
    expect(getWarningsForIP(clusterIP, 'not-an-ip')).toEqual([])
  })
})

describe('GetWarningsForCIDR', () => {
  const at = 'spec.loadBalancerSourceRanges[0]'
  const rows: [string, string, string[]][] = [
    ['IPv4 No failures', '192.12.2.0/24', []],
    ['IPv6 No failures', '2001:db8::/64', []],
    [
      'IPv4 with leading zeros',
      '192.012.2.0/24',
      [`${at}: non-standard CIDR value "192.012.2.0/24" is invalid: use "192.12.2.0/24"`],
    ],
    [
      'leading zeros in prefix length',
      '192.12.2.0/024',
      [`${at}: non-standard CIDR value "192.12.2.0/024" is invalid: use "192.12.2.0/24"`],
    ],
    [
      'IPv4-mapped IPv6',
      '::ffff:192.12.2.0/120',
      [`${at}: non-standard CIDR value "::ffff:192.12.2.0/120" is invalid: use "192.12.2.0/24"`],
    ],
    [
      'bits after prefix length',
      '192.12.2.8/24',
      [
        `${at}: CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)`,
      ],
    ],
    [
      'multiple problems',
      '192.012.2.8/24',
      [
        `${at}: CIDR value "192.012.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)`,
        `${at}: non-standard CIDR value "192.012.2.8/24" is invalid: use "192.12.2.0/24"`,
      ],
    ],
    [
      'IPv6 non-canonical format',
      '2001:db8:0:0::/64',
      [`${at}: IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")`],
    ],
  ]
  for (const [name, cidr, want] of rows) it(name, () => expect(getWarningsForCIDR(ranges, cidr)).toEqual(want))
})
