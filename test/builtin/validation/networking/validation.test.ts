import { describe, expect, test } from 'vitest'
import { fieldTypes, type O } from '../support.js'

// networking.k8s.io/v1 NetworkPolicy: kubernetes v1.37.2 pkg/apis/networking/validation/validation_test.go
// TestValidateNetworkPolicy (the error cases; Go checks only that each fails, here with the paths),
// through the registry's validator.

const np = (spec: O): O => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'bar', namespace: 'foo' },
  spec: { podSelector: { matchLabels: { a: 'b' } }, ...spec },
})
const ingressFrom = (...from: O[]) => ({ ingress: [{ from }] })
const egressTo = (to: O[], ports?: O[]) => ({ egress: [{ to, ...(ports ? { ports } : {}) }] })
const ipv4 = { ipBlock: { cidr: '192.168.0.0/16', except: ['192.168.3.0/24', '192.168.4.0/24'] } }
const nsSel = { namespaceSelector: { matchLabels: { c: 'd' } } }
const bad = { matchLabels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' } }
const ipb = (cidr: string, except?: string[]) => ({ ipBlock: { cidr, ...(except ? { except } : {}) } })

describe('validation_test.go TestValidateNetworkPolicy', () => {
  const cases: [string, O, string[]][] = [
    ['success: ipBlock', np(ingressFrom(ipv4)), []],
    [
      'success: ports',
      np(
        egressTo(
          [nsSel],
          [
            { port: 32000, endPort: 32768 },
            { protocol: 'UDP', port: 'dns' },
          ],
        ),
      ),
      [],
    ],
    [
      'namespaceSelector and ipBlock',
      np(ingressFrom({ ...nsSel, ...ipv4 })),
      ['spec.ingress[0].from[0] FieldValueForbidden'],
    ],
    [
      'missing from and to type',
      np({ ...ingressFrom({}), ...egressTo([{}]) }),
      ['spec.ingress[0].from[0] FieldValueRequired', 'spec.egress[0].to[0] FieldValueRequired'],
    ],
    ['invalid spec.podSelector', np({ podSelector: bad }), ['spec.podSelector.matchLabels FieldValueInvalid']],
    [
      'invalid ingress.ports.protocol',
      np({ ingress: [{ ports: [{ protocol: 'ICMP', port: 80 }] }] }),
      ['spec.ingress[0].ports[0].protocol FieldValueNotSupported'],
    ],
    [
      'invalid ingress.ports.port (int)',
      np({ ingress: [{ ports: [{ protocol: 'TCP', port: 123456789 }] }] }),
      ['spec.ingress[0].ports[0].port FieldValueInvalid'],
    ],
    [
      'invalid ingress.ports.port (str)',
      np({ ingress: [{ ports: [{ protocol: 'TCP', port: '!@#$' }] }] }),
      ['spec.ingress[0].ports[0].port FieldValueInvalid', 'spec.ingress[0].ports[0].port FieldValueInvalid'],
    ],
    [
      'invalid ingress.from.podSelector',
      np(ingressFrom({ podSelector: bad })),
      ['spec.ingress[0].from[0].podSelector.matchLabels FieldValueInvalid'],
    ],
    [
      'invalid egress.to.podSelector',
      np(egressTo([{ podSelector: bad }])),
      ['spec.egress[0].to[0].podSelector.matchLabels FieldValueInvalid'],
    ],
    [
      'invalid ingress.from.namespaceSelector',
      np(ingressFrom({ namespaceSelector: bad })),
      ['spec.ingress[0].from[0].namespaceSelector.matchLabels FieldValueInvalid'],
    ],
    [
      'missing cidr field',
      np(ingressFrom(ipb('', ['192.168.3.0/24']))),
      ['spec.ingress[0].from[0].ipBlock.cidr FieldValueRequired'],
    ],
    [
      'invalid cidr format',
      np(ingressFrom(ipb('192.168.5.6'))),
      ['spec.ingress[0].from[0].ipBlock.cidr FieldValueInvalid'],
    ],
    [
      'invalid ipv6 cidr format',
      np(ingressFrom(ipb('fd00:192:168::'))),
      ['spec.ingress[0].from[0].ipBlock.cidr FieldValueInvalid'],
    ],
    [
      'legacy cidr format with strict validation',
      np(ingressFrom(ipb('001.002.003.000/0'))),
      ['spec.ingress[0].from[0].ipBlock.cidr FieldValueInvalid'],
    ],
    [
      'except field is an empty string',
      np(ingressFrom(ipb('192.168.0.0/16', ['']))),
      ['spec.ingress[0].from[0].ipBlock.except[0] FieldValueInvalid'],
    ],
    [
      'except field is an invalid ip',
      np(ingressFrom(ipb('192.168.0.0/16', ['300.300.300.300']))),
      ['spec.ingress[0].from[0].ipBlock.except[0] FieldValueInvalid'],
    ],
    [
      'except IP is outside of CIDR range',
      np(ingressFrom(ipb('192.168.8.0/24', ['192.168.9.1/32']))),
      ['spec.ingress[0].from[0].ipBlock.except[0] FieldValueInvalid'],
    ],
    [
      'except IP is not strictly within CIDR range',
      np(ingressFrom(ipb('192.168.0.0/24', ['192.168.0.0/24']))),
      ['spec.ingress[0].from[0].ipBlock.except[0] FieldValueInvalid'],
    ],
    [
      'except IPv6 is outside of CIDR range',
      np(ingressFrom(ipb('fd00:192:168:1::/64', ['fd00:192:168:2::/64']))),
      ['spec.ingress[0].from[0].ipBlock.except[0] FieldValueInvalid'],
    ],
    [
      'invalid policyTypes',
      np({ ...egressTo([ipv4]), policyTypes: ['foo', 'bar'] }),
      ['spec.policyTypes[0] FieldValueNotSupported', 'spec.policyTypes[1] FieldValueNotSupported'],
    ],
    [
      'too many policyTypes',
      np({ ...egressTo([ipv4]), policyTypes: ['foo', 'bar', 'baz'] }),
      ['spec.policyTypes FieldValueInvalid'],
    ],
    [
      'multiple ports defined, one port range is invalid',
      np(
        egressTo(
          [nsSel],
          [
            { protocol: 'UDP', port: 35000, endPort: 32768 },
            { port: 32000, endPort: 32768 },
          ],
        ),
      ),
      ['spec.egress[0].ports[0].endPort FieldValueInvalid'],
    ],
    [
      'endPort defined with named/string port',
      np(egressTo([nsSel], [{ protocol: 'UDP', port: 'dns', endPort: 32768 }])),
      ['spec.egress[0].ports[0].endPort FieldValueInvalid'],
    ],
    [
      'endPort defined without port defined',
      np(egressTo([nsSel], [{ protocol: 'TCP', endPort: 32768 }])),
      ['spec.egress[0].ports[0].endPort FieldValueInvalid'],
    ],
    [
      'invalid endport range defined',
      np(egressTo([nsSel], [{ protocol: 'TCP', port: 30000, endPort: 65537 }])),
      ['spec.egress[0].ports[0].endPort FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('legacy cidr format with legacy validation (1.35)', () =>
    expect(fieldTypes(np(ingressFrom(ipb('001.002.003.000/0'))), undefined, 35)).toEqual([]))
})

describe('validation_test.go TestValidateNetworkPolicyUpdate', () => {
  const old = np(ingressFrom(ipb('001.002.003.000/0')))
  old.metadata.resourceVersion = '1'
  test('an invalid CIDR already in the old object stays allowed', () => {
    const n = structuredClone(old)
    n.spec.egress = [{ to: [ipb('001.002.003.000/0')] }]
    expect(fieldTypes(n, old)).toEqual([])
  })
  test('a new invalid CIDR is not', () => {
    const n = structuredClone(old)
    n.spec.egress = [{ to: [ipb('010.0.0.0/8')] }]
    expect(fieldTypes(n, old)).toEqual(['spec.egress[0].to[0].ipBlock.cidr FieldValueInvalid'])
  })
})
