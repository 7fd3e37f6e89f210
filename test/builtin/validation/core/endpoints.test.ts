import { describe, expect, test } from 'vitest'
import { validateEndpointsCreate } from '../../../../src/builtin/validation/core/endpoints.js'
import { fieldTypes, type O, texts } from '../support.js'

// core/v1 Endpoints: kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go TestValidateEndpointsCreate
// (success cases; error cases by field and type, Go matching by type, field and origin) and
// TestValidateEndpointsUpdate; the texts as kube-apiserver v1.37.2 answers.

const ep = (subsets: O[] | undefined, meta: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: Object.fromEntries(
    Object.entries({ name: 'mysvc', namespace: 'namespace', resourceVersion: '1', ...meta }).filter(
      ([, v]) => v !== undefined,
    ),
  ),
  ...(subsets !== undefined ? { subsets } : {}),
})

describe('TestValidateEndpointsCreate success cases', () => {
  const ok: [string, O][] = [
    [
      'simple endpoint',
      ep([
        {
          addresses: [{ ip: '10.10.1.1' }, { ip: '10.10.2.2' }],
          ports: [
            { name: 'a', port: 8675, protocol: 'TCP' },
            { name: 'b', port: 309, protocol: 'TCP' },
          ],
        },
        {
          addresses: [{ ip: '10.10.3.3' }],
          ports: [
            { name: 'a', port: 93, protocol: 'TCP' },
            { name: 'b', port: 76, protocol: 'TCP' },
          ],
        },
      ]),
    ],
    ['empty subsets', ep(undefined)],
    [
      'no name required for singleton port',
      ep([{ addresses: [{ ip: '10.10.1.1' }], ports: [{ port: 8675, protocol: 'TCP' }] }]),
    ],
    [
      'valid appProtocol',
      ep([{ addresses: [{ ip: '10.10.1.1' }], ports: [{ port: 8675, protocol: 'TCP', appProtocol: 'HTTP' }] }]),
    ],
    ['empty ports', ep([{ addresses: [{ ip: '10.10.3.3' }] }])],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
})

describe('TestValidateEndpointsCreate error cases', () => {
  const port = { name: 'a', port: 93, protocol: 'TCP' }
  const bad: [string, O, string[]][] = [
    ['missing namespace', ep(undefined, { namespace: undefined }), ['metadata.namespace FieldValueRequired']],
    ['missing name', ep(undefined, { name: undefined }), ['metadata.name FieldValueRequired']],
    [
      'invalid namespace',
      ep(undefined, { namespace: 'no@#invalid.;chars"allowed' }),
      ['metadata.namespace FieldValueInvalid'],
    ],
    ['invalid name', ep(undefined, { name: '-_Invliad^&Characters' }), ['metadata.name FieldValueInvalid']],
    ['empty addresses', ep([{ ports: [port] }]), ['subsets[0] FieldValueRequired']],
    [
      'invalid IP (and ValidateEndpointIP)',
      ep([{ addresses: [{ ip: '[2001:0db8:85a3:0042:1000:8a2e:0370:7334]' }], ports: [port] }]),
      ['subsets[0].addresses[0].ip FieldValueInvalid', 'subsets[0].addresses[0].ip FieldValueInvalid'],
    ],
    [
      'invalid legacy IP with strict validation',
      ep([{ addresses: [{ ip: '001.002.003.004' }], ports: [port] }]),
      ['subsets[0].addresses[0].ip FieldValueInvalid'],
    ],
    [
      'Multiple ports, one without name',
      ep([
        {
          addresses: [{ ip: '10.10.1.1' }],
          ports: [
            { port: 8675, protocol: 'TCP' },
            { name: 'b', port: 309, protocol: 'TCP' },
          ],
        },
      ]),
      ['subsets[0].ports[0].name FieldValueRequired'],
    ],
    [
      'Invalid port number',
      ep([{ addresses: [{ ip: '10.10.1.1' }], ports: [{ name: 'a', port: 66000, protocol: 'TCP' }] }]),
      ['subsets[0].ports[0].port FieldValueInvalid'],
    ],
    [
      'Invalid protocol',
      ep([{ addresses: [{ ip: '10.10.1.1' }], ports: [{ name: 'a', port: 93, protocol: 'Protocol' }] }]),
      ['subsets[0].ports[0].protocol FieldValueNotSupported'],
    ],
    [
      'Address missing IP (and ValidateEndpointIP)',
      ep([{ addresses: [{}], ports: [port] }]),
      ['subsets[0].addresses[0].ip FieldValueInvalid', 'subsets[0].addresses[0].ip FieldValueInvalid'],
    ],
    [
      'Port missing number',
      ep([{ addresses: [{ ip: '10.10.1.1' }], ports: [{ name: 'a', protocol: 'TCP' }] }]),
      ['subsets[0].ports[0].port FieldValueInvalid'],
    ],
    ...['127.0.0.1', '169.254.169.254', '224.0.0.1'].map((ip): [string, O, string[]] => [
      `Address ${ip}`,
      ep([{ addresses: [{ ip }], ports: [{ name: 'p', port: 93, protocol: 'TCP' }] }]),
      ['subsets[0].addresses[0].ip FieldValueInvalid'],
    ]),
    [
      'Invalid AppProtocol',
      ep([
        {
          addresses: [{ ip: '10.10.1.1' }],
          ports: [{ name: 'p', port: 93, protocol: 'TCP', appProtocol: 'lots-of[invalid]-{chars}' }],
        },
      ]),
      ['subsets[0].ports[0].appProtocol FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))

  test('Port missing protocol (the v1 default fills it; the validator alone requires it)', () => {
    const o = ep([{ addresses: [{ ip: '10.10.1.1' }], ports: [{ name: 'a', port: 93 }] }])
    expect(validateEndpointsCreate(o, 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      'subsets[0].ports[0].protocol FieldValueRequired',
    ])
  })
})

describe('kube-apiserver v1.37.2 texts', () => {
  test('the excluded ranges', () => {
    expect(texts(ep([{ addresses: [{ ip: '127.0.0.1' }, { ip: '0.0.0.0' }] }]))).toEqual([
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].addresses[1].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
    ])
  })
  test('no addresses', () => {
    expect(texts(ep([{ ports: [{ port: 80 }] }]))).toEqual([
      'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
    ])
  })
})

describe('TestValidateEndpointsUpdate', () => {
  test('valid update', () => {
    const old = ep([{ addresses: [{ ip: '10.1.2.3' }] }])
    expect(fieldTypes(ep([{ addresses: [{ ip: '10.1.2.4' }] }]), old)).toEqual([])
  })
  test('invalid subsets kept unchanged are tolerated', () => {
    const subsets = [{ addresses: [{ ip: '001.002.003.004' }] }]
    expect(fieldTypes(ep(structuredClone(subsets), { labels: { a: 'b' } }), ep(structuredClone(subsets)))).toEqual([])
  })
  test('invalid subsets changed are not', () => {
    const old = ep([{ addresses: [{ ip: '001.002.003.004' }] }])
    expect(fieldTypes(ep([{ addresses: [{ ip: '001.002.003.004' }, { ip: '10.1.2.3' }] }]), old)).toEqual([
      'subsets[0].addresses[0].ip FieldValueInvalid',
    ])
  })
})
