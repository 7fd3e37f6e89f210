import { describe, expect, test } from 'vitest'
import { type O, fieldTypes as plainFieldTypes, texts, tweak } from '../support.js'

// networking.k8s.io/v1 ServiceCIDR and IPAddress: kubernetes v1.37.2 pkg/apis/networking/validation/
// validation_test.go (TestValidateServiceCIDR, TestValidateServiceCIDRUpdate, TestValidateIPAddress,
// TestValidateIPAddressUpdate: Go counts the errors), the texts as the real apiserver v1.37.2 printed them.

const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O) => (old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old)))
const cidr = (cidrs: unknown[] | undefined): O => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'ServiceCIDR',
  metadata: { name: 'test-name' },
  spec: cidrs === undefined ? {} : { cidrs },
})

describe('validation_test.go TestValidateServiceCIDR', () => {
  const cases: [string, unknown[] | undefined, number][] = [
    ['empty-iprange', undefined, 1],
    ['three-ipranges', ['192.168.0.0/24', 'fd00::/64', '10.0.0.0/16'], 1],
    ['good-iprange-ipv4', ['192.168.0.0/24'], 0],
    ['good-iprange-ipv6', ['fd00:1234::/64'], 0],
    ['good-iprange-ipv4-ipv6', ['192.168.0.0/24', 'fd00:1234::/64'], 0],
    ['not-iprange-ipv4', ['asdasdasd'], 1],
    ['iponly-iprange-ipv4', ['192.168.0.1'], 1],
    ['badip-iprange-ipv4', ['192.168.0.1/24'], 1],
    ['badip-iprange-ipv6', ['fd00:1234::2/64'], 1],
    ['badip-iprange-caps-ipv6', ['FD00:1234::0/64'], 1],
    ['good-iprange-ipv4-bad-ipv6', ['192.168.0.0/24', 'FD00:1234::/64'], 1],
    ['good-iprange-ipv6-bad-ipv4', ['192.168.007.0/24', 'fd00:1234::/64'], 1],
    ['bad-iprange-ipv6-bad-ipv4', ['192.168.007.0/24', 'MN00:1234::/64'], 2],
  ]
  for (const [name, c, n] of cases) test(name, () => expect(fieldTypes(cidr(c))).toHaveLength(n))
  test('texts (the real apiserver)', () => {
    expect(texts(cidr(['10.0.0.0/24', '10.1.0.0/24', 'fd00::/112']))).toEqual([
      'spec.cidrs: Invalid value: {"CIDRs":["10.0.0.0/24","10.1.0.0/24","fd00::/112"]}: may only hold up to 2 values',
    ])
    expect(texts(cidr(['10.253.0.0/24', '10.254.0.0/24']))).toEqual([
      'spec.cidrs: Invalid value: ["10.253.0.0/24","10.254.0.0/24"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    ])
    expect(texts(cidr([]))).toEqual(['spec.cidrs: Required value: at least one CIDR required'])
  })
})

describe('validation_test.go TestValidateServiceCIDRUpdate', () => {
  const v4 = cidr(['192.168.0.0/24'])
  const v6 = cidr(['fd00:1234::/64'])
  const dual = cidr(['192.168.0.0/24', 'fd00:1234::/64'])
  test('Successful update, no changes (dual)', () => expect(fieldTypes(dual, dual)).toEqual([]))
  test('Successful update, single IPv4 to dual stack upgrade', () => expect(fieldTypes(dual, v4)).toEqual([]))
  test('Successful update, single IPv6 to dual stack upgrade', () =>
    expect(fieldTypes(cidr(['fd00:1234::/64', '192.168.0.0/24']), v6)).toEqual([]))
  test('Failed update, change CIDRs (dual)', () =>
    expect(fieldTypes(cidr(['10.0.0.0/16', 'fd00:abcd::/64']), dual)).toEqual([
      'spec.cidrs[0] FieldValueInvalid',
      'spec.cidrs[1] FieldValueInvalid',
    ]))
  test('Failed update, remove a CIDR (dual to single)', () =>
    expect(fieldTypes(v4, dual)).toEqual(['spec.cidrs FieldValueInvalid']))
  test('Failed update, upgrade to dual stack of one family', () =>
    expect(fieldTypes(cidr(['192.168.0.0/24', '10.0.0.0/16']), v4)).toEqual(['spec.cidrs FieldValueInvalid']))
})

const ip = (name: string, parentRef?: O): O => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IPAddress',
  metadata: { name },
  spec: parentRef === undefined ? {} : { parentRef },
})
const svc = { group: '', resource: 'services', name: 'foo', namespace: 'bar' }

describe('validation_test.go TestValidateIPAddress', () => {
  const cases: [string, O, number][] = [
    ['empty-ipaddress-bad-name', ip('test-name', svc), 1],
    ['empty-ipaddress-bad-name-no-parent-reference', ip('test-name'), 2],
    ['good-ipaddress', ip('192.168.1.1', svc), 0],
    [
      'good-ipaddress-gateway',
      ip('192.168.1.1', { ...svc, group: 'gateway.networking.k8s.io', resource: 'gateway' }),
      0,
    ],
    ['good-ipv6address', ip('2001:4860:4860::8888', svc), 0],
    ['non-canonica-ipv6address', ip('2001:4860:4860:0::8888', svc), 1],
    ['missing-ipaddress-reference', ip('192.168.1.1'), 1],
    [
      'wrong-ipaddress-reference',
      ip('192.168.1.1', { group: 'custom.resource.com', resource: 'services', name: 'foo$%&' }),
      1,
    ],
    [
      'wrong-ipaddress-reference-multiple-errors',
      ip('192.168.1.1', { group: '.cust@m.resource.com', resource: '', name: '', namespace: 'bar$$$$$%@' }),
      4,
    ],
  ]
  for (const [name, o, n] of cases) test(name, () => expect(fieldTypes(o)).toHaveLength(n))
  test('the declarative required errors come last', () =>
    expect(fieldTypes(ip('192.168.1.1', { group: 'Bad_Group', namespace: 'a/b' }))).toEqual([
      'spec.parentRef.group FieldValueInvalid',
      'spec.parentRef.namespace FieldValueInvalid',
      'spec.parentRef.resource FieldValueRequired',
      'spec.parentRef.name FieldValueRequired',
    ]))
  test('the name texts (IsValidIP)', () => {
    expect(texts(ip('fd00:250:0::11', svc))).toEqual([
      'metadata.name: Invalid value: "fd00:250:0::11": must be in canonical form ("fd00:250::11")',
    ])
    expect(texts(ip('10.250.0.012', svc))).toEqual([
      'metadata.name: Invalid value: "10.250.0.012": must not have leading 0s',
    ])
  })
})

describe('validation_test.go TestValidateIPAddressUpdate', () => {
  const old = ip('192.168.1.1', svc)
  test('Successful update, no changes', () => expect(fieldTypes(old, old)).toEqual([]))
  test('Failed update, parentRef changed (declarative: a null value)', () =>
    expect(texts(rv(ip('192.168.1.1', { ...svc, name: 'other' })), rv(old))).toEqual([
      'spec.parentRef: Invalid value: null: field is immutable',
    ]))
})
