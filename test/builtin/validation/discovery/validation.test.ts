import { describe, expect, test } from 'vitest'
import { prepareEndpointSlice } from '../../../../src/builtin/validation/discovery/prepare.js'
import { defaultFeatureGates } from '../../../../src/kube/feature-gates.js'
import { fieldTypes, type O, texts } from '../support.js'

// discovery.k8s.io/v1 EndpointSlice: kubernetes v1.37.2 pkg/apis/discovery/validation/validation_test.go
// TestValidateEndpointSlice (Go counts the errors; here their fields and types), TestValidateEndpointSliceUpdate,
// the beta declarative rules of pkg/apis/discovery/v1 zz_generated.validations.go as kube-apiserver v1.37.2
// orders them (after the handwritten errors), and the strategy's dropTopologyOnV1
// (pkg/registry/discovery/endpointslice/strategy_test.go Test_dropTopologyOnV1).

const slice = (o: O = {}): O => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'hello', namespace: 'foo', resourceVersion: '1' },
  addressType: 'IPv4',
  ports: [{ name: 'http', protocol: 'TCP' }],
  endpoints: [{ addresses: ['10.1.2.3'], hostname: 'valid-123' }],
  ...o,
})
const ips = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${Math.floor(i / 256)}.${i % 256 || 1}`)

describe('TestValidateEndpointSlice success cases', () => {
  const ok: [string, O][] = [
    ['good-slice', slice()],
    [
      'empty-port-name',
      slice({
        ports: [
          { name: '', protocol: 'TCP' },
          { name: 'http', protocol: 'TCP' },
        ],
      }),
    ],
    ['long-port-name', slice({ ports: [{ name: 'a'.repeat(63), protocol: 'TCP' }] })],
    ['empty-ports-and-endpoints', slice({ ports: [], endpoints: [] })],
    ['max-endpoints', slice({ endpoints: Array.from({ length: 1000 }, () => ({ addresses: ['10.1.2.3'] })) })],
    ['max-addresses', slice({ endpoints: [{ addresses: ips(100) }] })],
    ['valid-fqdns', slice({ addressType: 'FQDN', endpoints: [{ addresses: ['foo.example.com', 'example.com'] }] })],
    ['valid-ipv6', slice({ addressType: 'IPv6', endpoints: [{ addresses: ['2001:4860:4860::8888'] }] })],
    ['valid-hints', slice({ endpoints: [{ addresses: ['10.1.2.3'], hints: { forZones: [{ name: 'zone-a' }] } }] })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
})

describe('TestValidateEndpointSlice error cases', () => {
  const bad: [string, O, string[]][] = [
    [
      'duplicate-port-name',
      slice({
        ports: [
          { name: '', protocol: 'TCP' },
          { name: '', protocol: 'TCP' },
        ],
      }),
      ['ports[1].name FieldValueDuplicate'],
    ],
    [
      'bad-port-name-caps',
      slice({ ports: [{ name: 'aCapital', protocol: 'TCP' }] }),
      ['ports[0].name FieldValueInvalid'],
    ],
    [
      'bad-port-name-chars',
      slice({ ports: [{ name: 'almost_valid', protocol: 'TCP' }] }),
      ['ports[0].name FieldValueInvalid'],
    ],
    [
      'bad-port-name-length',
      slice({ ports: [{ name: 'a'.repeat(64), protocol: 'TCP' }] }),
      ['ports[0].name FieldValueInvalid'],
    ],
    [
      'invalid-port-protocol',
      slice({ ports: [{ name: 'http', protocol: 'foo' }] }),
      ['ports[0].protocol FieldValueNotSupported'],
    ],
    [
      'too-many-ports',
      slice({ ports: Array.from({ length: 20001 }, (_, i) => ({ name: `p-${i}`, protocol: 'TCP' })) }),
      ['ports FieldValueTooMany'],
    ],
    [
      'too-many-endpoints',
      slice({ endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['10.1.2.3'] })) }),
      ['endpoints FieldValueTooMany'],
    ],
    ['no-endpoint-addresses', slice({ endpoints: [{ addresses: [] }] }), ['endpoints[0].addresses FieldValueRequired']],
    [
      'too-many-addresses',
      slice({ endpoints: [{ addresses: ips(101) }] }),
      ['endpoints[0].addresses FieldValueTooMany'],
    ],
    [
      'bad-topology-key',
      slice({ endpoints: [{ addresses: ['10.1.2.3'], deprecatedTopology: { '--INVALID': 'example' } }] }),
      ['endpoints[0].deprecatedTopology FieldValueInvalid'],
    ],
    [
      'too-many-topology-keys',
      slice({
        endpoints: [
          {
            addresses: ['10.1.2.3'],
            deprecatedTopology: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`key${i}`, 'x'])),
          },
        ],
      }),
      ['endpoints[0].deprecatedTopology FieldValueTooMany'],
    ],
    [
      'bad-hostname',
      slice({ endpoints: [{ addresses: ['10.1.2.3'], hostname: '--INVALID' }] }),
      ['endpoints[0].hostname FieldValueInvalid'],
    ],
    ['bad-meta', slice({ metadata: { name: '*&^', namespace: 'foo' } }), ['metadata.name FieldValueInvalid']],
    [
      'bad-ip',
      slice({ endpoints: [{ addresses: ['123.456.789.012'] }] }),
      ['endpoints[0].addresses[0] FieldValueInvalid'],
    ],
    [
      'legacy-ip-with-strict-validation',
      slice({ endpoints: [{ addresses: ['012.034.056.078'] }] }),
      ['endpoints[0].addresses[0] FieldValueInvalid'],
    ],
    [
      'bad-ipv4',
      slice({ endpoints: [{ addresses: ['123.456.789.012', '2001:4860:4860::8888'] }] }),
      ['endpoints[0].addresses[0] FieldValueInvalid', 'endpoints[0].addresses FieldValueInvalid'],
    ],
    [
      'bad-ipv6',
      slice({ addressType: 'IPv6', endpoints: [{ addresses: ['123.456.789.012', '2001:4860:4860:defg'] }] }),
      ['endpoints[0].addresses[0] FieldValueInvalid', 'endpoints[0].addresses[1] FieldValueInvalid'],
    ],
    [
      'bad-fqdns',
      slice({
        addressType: 'FQDN',
        endpoints: [{ addresses: ['foo.*', 'FOO.example.com', 'underscores_are_bad.example.com', '*.example.com'] }],
      }),
      [0, 1, 2, 3].map((i) => `endpoints[0].addresses[${i}] FieldValueInvalid`),
    ],
    [
      'bad-app-protocol',
      slice({ ports: [{ name: 'http', protocol: 'TCP', appProtocol: '--' }] }),
      ['ports[0].appProtocol FieldValueInvalid'],
    ],
    [
      'invalid-zone-hint',
      slice({ endpoints: [{ addresses: ['10.1.2.3'], hints: { forZones: [{ name: 'inv@lid' }] } }] }),
      ['endpoints[0].hints.forZones[0].name FieldValueInvalid'],
    ],
    [
      'overlapping-zone-hints',
      slice({
        endpoints: [{ addresses: ['10.1.2.3'], hints: { forZones: [{ name: 'zone-a' }, { name: 'zone-a' }] } }],
      }),
      ['endpoints[0].hints.forZones[1].name FieldValueDuplicate'],
    ],
    [
      'too-many-zone-hints',
      slice({
        endpoints: [
          {
            addresses: ['10.1.2.3'],
            hints: { forZones: Array.from({ length: 9 }, (_, i) => ({ name: `zone-${i}` })) },
          },
        ],
      }),
      ['endpoints[0].hints.forZones FieldValueTooMany'],
    ],
    [
      'invalid-node-hint',
      slice({ endpoints: [{ addresses: ['10.1.2.3'], hints: { forNodes: [{ name: 'inv@lid' }] } }] }),
      ['endpoints[0].hints.forNodes[0].name FieldValueInvalid'],
    ],
    [
      'empty-everything',
      { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: {} },
      ['metadata.name FieldValueRequired', 'metadata.namespace FieldValueRequired', 'addressType FieldValueRequired'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
})

describe('kube-apiserver v1.37.2: the texts and the declarative order', () => {
  test('an unsupported addressType and an empty addresses list come last, declarative texts', () => {
    const o = slice({ addressType: 'IPv5', ports: [{ name: 'Bad', protocol: 'TCP' }], endpoints: [{ addresses: [] }] })
    expect(texts(o)).toEqual([
      `ports[0].name: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"',
      'endpoints[0].addresses: Required value',
    ])
  })
  test('IPv6 slices: not IPv6, loopback, canonical form', () => {
    const o = slice({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1', '::1', '2001:DB8::1'] }] })
    expect(texts(o)).toEqual([
      'endpoints[0].addresses: Invalid value: "10.0.0.1": must be an IPv6 address',
      'endpoints[0].addresses[1]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[0].addresses[2]: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")',
    ])
  })
  test('before 1.37 (1.36: alpha, not enforced) the handwritten errors only, in their order', () => {
    const o = slice({ addressType: 'IPv5', endpoints: [{ addresses: [] }] })
    expect(texts(o, undefined, 36)).toEqual([
      'addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"',
      'endpoints[0].addresses: Required value: must contain at least 1 address',
    ])
  })
})

describe('TestValidateEndpointSliceUpdate', () => {
  test('valid and identical', () => expect(fieldTypes(slice(), slice())).toEqual([]))
  test('addressType changed: the declarative immutability', () => {
    expect(texts(slice({ addressType: 'IPv6', endpoints: [] }), slice({ endpoints: [] }))).toEqual([
      'addressType: Invalid value: null: field is immutable',
    ])
  })
  test('unchanged invalid endpoints are tolerated', () => {
    const old = slice({ endpoints: [{ addresses: ['10.01.2.3'] }] })
    expect(fieldTypes(slice({ endpoints: [{ addresses: ['10.01.2.3'] }], ports: [] }), old)).toEqual([])
  })
  test('changed invalid endpoints are not', () => {
    const old = slice({ endpoints: [{ addresses: ['10.01.2.3'] }] })
    expect(fieldTypes(slice({ endpoints: [{ addresses: ['10.01.2.3'] }, { addresses: ['10.1.2.4'] }] }), old)).toEqual([
      'endpoints[0].addresses[0] FieldValueInvalid',
    ])
  })
})

describe('strategy_test.go Test_dropTopologyOnV1', () => {
  const on = defaultFeatureGates(37)
  test('v1 create: deprecatedTopology dropped', () => {
    const o = slice({
      endpoints: [{ addresses: ['10.1.2.3'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' } }],
    })
    prepareEndpointSlice(o, undefined, on)
    expect(o.endpoints).toEqual([{ addresses: ['10.1.2.3'] }])
  })
  test('v1 update with unchanged endpoints: kept', () => {
    const eps = [{ addresses: ['10.1.2.3'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' } }]
    const o = slice({ endpoints: structuredClone(eps) })
    prepareEndpointSlice(o, slice({ endpoints: structuredClone(eps) }), on)
    expect(o.endpoints).toEqual(eps)
  })
  test('v1 update: the old topology node name moves to nodeName', () => {
    const old = slice({
      endpoints: [{ addresses: ['10.1.2.3'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' } }],
    })
    const o = slice({
      endpoints: [{ addresses: ['10.1.2.4'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' } }],
    })
    prepareEndpointSlice(o, old, on)
    expect(o.endpoints).toEqual([{ addresses: ['10.1.2.4'], nodeName: 'node-1' }])
  })
  test('a __proto__ topology key is data', () => {
    const o = slice({ endpoints: [{ addresses: ['10.1.2.3'], deprecatedTopology: JSON.parse('{"__proto__": "x"}') }] })
    prepareEndpointSlice(o, undefined, on)
    expect(o.endpoints).toEqual([{ addresses: ['10.1.2.3'] }])
  })
})
