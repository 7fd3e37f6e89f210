import { describe, expect, test } from 'vitest'
import { validateServiceCreate, validateServiceUpdate } from '../../../../src/builtin/validation/core/service.js'
import { fieldTypes, type O, texts } from '../support.js'

// core/v1 Service: kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go
// TestValidateServiceCreate (the Go table calls ValidateServiceCreate on makeValidService() with each
// tweak, counting errors; here each case also states the paths and types). The table's objects are
// internal types with no defaults, so they are given to validateServiceCreate as they are; the
// registry path (decode, defaults, the allocator's hooks) is tested through validatorFor below.
// `legacyIPs` cases run at 1.35 (StrictIPCIDRValidation off).

const makeValidService = (): O => ({
  metadata: { name: 'valid', namespace: 'valid', labels: {}, annotations: {}, resourceVersion: '1' },
  spec: {
    selector: { key: 'val' },
    sessionAffinity: 'None',
    type: 'ClusterIP',
    ports: [{ name: 'p', protocol: 'TCP', port: 8675, targetPort: 8675 }],
    internalTrafficPolicy: 'Cluster',
  },
})
const port = (name: string, p: number, protocol = 'TCP', extra: O = {}) => ({
  name,
  port: p,
  protocol,
  targetPort: p,
  ...extra,
})
const lb = (s: O) => {
  s.spec.type = 'LoadBalancer'
  s.spec.externalTrafficPolicy = 'Cluster'
  s.spec.allocateLoadBalancerNodePorts = true
}
const RANGES = 'service.beta.kubernetes.io/load-balancer-source-ranges'

type Case = [name: string, tweak: (s: O) => void, want: string[], minor?: number]
const cases: Case[] = [
  ['default', () => {}, []],
  ['default, with legacy IP validation', () => {}, [], 35],
  ['missing namespace', (s) => (s.metadata.namespace = ''), ['metadata.namespace FieldValueRequired']],
  ['invalid namespace', (s) => (s.metadata.namespace = '-123'), ['metadata.namespace FieldValueInvalid']],
  ['missing name', (s) => (s.metadata.name = ''), ['metadata.name FieldValueRequired']],
  ['invalid name', (s) => (s.metadata.name = '-123'), ['metadata.name FieldValueInvalid']],
  ['too long name', (s) => (s.metadata.name = 'a'.repeat(64)), ['metadata.name FieldValueInvalid']],
  ['invalid generateName', (s) => (s.metadata.generateName = '-123'), ['metadata.generateName FieldValueInvalid']],
  [
    'too long generateName',
    (s) => (s.metadata.generateName = 'a'.repeat(64)),
    ['metadata.generateName FieldValueInvalid'],
  ],
  [
    'invalid label',
    (s) => (s.metadata.labels['NoUppercaseOrSpecialCharsLike=Equals'] = 'bar'),
    ['metadata.labels FieldValueInvalid'],
  ],
  [
    'invalid annotation',
    (s) => (s.metadata.annotations['NoSpecialCharsLike=Equals'] = 'bar'),
    ['metadata.annotations FieldValueInvalid'],
  ],
  ['nil selector', (s) => delete s.spec.selector, []],
  [
    'invalid selector',
    (s) => (s.spec.selector['NoSpecialCharsLike=Equals'] = 'bar'),
    ['spec.selector FieldValueInvalid'],
  ],
  ['missing session affinity', (s) => (s.spec.sessionAffinity = ''), ['spec.sessionAffinity FieldValueRequired']],
  ['missing type', (s) => (s.spec.type = ''), ['spec.type FieldValueRequired']],
  ['missing ports', (s) => delete s.spec.ports, ['spec.ports FieldValueRequired']],
  [
    'missing ports but headless',
    (s) => {
      delete s.spec.ports
      s.spec.clusterIP = 'None'
      s.spec.clusterIPs = ['None']
    },
    [],
  ],
  ['empty port[0] name', (s) => (s.spec.ports[0].name = ''), []],
  ['empty port[1] name', (s) => s.spec.ports.push(port('', 12345)), ['spec.ports[1].name FieldValueRequired']],
  [
    'empty multi-port port[0] name',
    (s) => {
      s.spec.ports[0].name = ''
      s.spec.ports.push(port('p', 12345))
    },
    ['spec.ports[0].name FieldValueRequired'],
  ],
  ['invalid port name', (s) => (s.spec.ports[0].name = 'INVALID'), ['spec.ports[0].name FieldValueInvalid']],
  ['missing protocol', (s) => (s.spec.ports[0].protocol = ''), ['spec.ports[0].protocol FieldValueRequired']],
  [
    'invalid protocol',
    (s) => (s.spec.ports[0].protocol = 'INVALID'),
    ['spec.ports[0].protocol FieldValueNotSupported'],
  ],
  [
    'invalid cluster ip',
    (s) => {
      s.spec.clusterIP = 'invalid'
      s.spec.clusterIPs = ['invalid']
    },
    ['spec.clusterIPs[0] FieldValueInvalid'],
  ],
  [
    'valid legacy cluster ip with legacy validation',
    (s) => {
      s.spec.clusterIP = '001.002.003.004'
      s.spec.clusterIPs = ['001.002.003.004']
    },
    [],
    35,
  ],
  [
    'invalid legacy cluster ip with strict validation',
    (s) => {
      s.spec.clusterIP = '001.002.003.004'
      s.spec.clusterIPs = ['001.002.003.004']
    },
    ['spec.clusterIPs[0] FieldValueInvalid'],
  ],
  ['missing port', (s) => (s.spec.ports[0].port = 0), ['spec.ports[0].port FieldValueInvalid']],
  ['invalid port', (s) => (s.spec.ports[0].port = 65536), ['spec.ports[0].port FieldValueInvalid']],
  [
    'invalid TargetPort int',
    (s) => (s.spec.ports[0].targetPort = 65536),
    ['spec.ports[0].targetPort FieldValueInvalid'],
  ],
  [
    'valid port headless',
    (s) => {
      s.spec.ports[0].port = 11722
      s.spec.ports[0].targetPort = 11722
      s.spec.clusterIP = 'None'
      s.spec.clusterIPs = ['None']
    },
    [],
  ],
  [
    'invalid port headless 1 (tolerated in v1)',
    (s) => {
      s.spec.ports[0].port = 11722
      s.spec.ports[0].targetPort = 11721
      s.spec.clusterIP = 'None'
      s.spec.clusterIPs = ['None']
    },
    [],
  ],
  [
    'invalid port headless 2 (tolerated in v1)',
    (s) => {
      s.spec.ports[0].port = 11722
      s.spec.ports[0].targetPort = 'target'
      s.spec.clusterIP = 'None'
      s.spec.clusterIPs = ['None']
    },
    [],
  ],
  ...(
    [
      ['invalid externalIPs localhost', '127.0.0.1', ['spec.externalIPs[0] FieldValueInvalid']],
      ['invalid externalIPs unspecified', '0.0.0.0', ['spec.externalIPs[0] FieldValueInvalid']],
      ['invalid externalIPs host', 'myhost.mydomain', ['spec.externalIPs[0] FieldValueInvalid']],
      [
        'invalid legacy externalIPs with strict validation',
        '001.002.003.004',
        ['spec.externalIPs[0] FieldValueInvalid'],
      ],
      ['valid externalIPs', '1.2.3.4', []],
    ] as [string, string, string[]][]
  ).map(
    ([n, ip, want]): Case => [
      n,
      (s) => {
        s.spec.externalTrafficPolicy = 'Cluster'
        s.spec.externalIPs = [ip]
      },
      want,
    ],
  ),
  [
    'valid legacy externalIPs with legacy validation',
    (s) => {
      s.spec.externalTrafficPolicy = 'Cluster'
      s.spec.externalIPs = ['001.002.003.004']
    },
    [],
    35,
  ],
  ['dup port name', (s) => s.spec.ports.push(port('p', 12345)), ['spec.ports[1].name FieldValueDuplicate']],
  [
    'valid load balancer protocol UDP 1',
    (s) => {
      lb(s)
      s.spec.ports[0].protocol = 'UDP'
    },
    [],
  ],
  [
    'load balancer with mix protocol',
    (s) => {
      lb(s)
      s.spec.ports.push(port('q', 12345, 'UDP'))
    },
    [],
  ],
  ['valid 3', (s) => (s.spec.ports[0].targetPort = 'http'), []],
  [
    'valid cluster ip - none',
    (s) => {
      s.spec.clusterIP = 'None'
      s.spec.clusterIPs = ['None']
    },
    [],
  ],
  ['valid type - loadbalancer', lb, []],
  [
    'valid type - loadbalancer with allocateLoadBalancerNodePorts=false',
    (s) => {
      lb(s)
      s.spec.allocateLoadBalancerNodePorts = false
    },
    [],
  ],
  [
    'invalid type - missing AllocateLoadBalancerNodePorts for loadbalancer type',
    (s) => {
      lb(s)
      delete s.spec.allocateLoadBalancerNodePorts
    },
    ['allocateLoadBalancerNodePorts FieldValueRequired'],
  ],
  [
    'duplicate nodeports',
    (s) => {
      s.spec.type = 'NodePort'
      s.spec.externalTrafficPolicy = 'Cluster'
      s.spec.ports.push(port('q', 1, 'TCP', { nodePort: 1 }), port('r', 2, 'TCP', { nodePort: 1 }))
    },
    ['spec.ports[2].nodePort FieldValueDuplicate'],
  ],
  [
    'duplicate nodeports (different protocols)',
    (s) => {
      s.spec.type = 'NodePort'
      s.spec.externalTrafficPolicy = 'Cluster'
      s.spec.ports.push(
        port('q', 1, 'TCP', { nodePort: 1 }),
        port('r', 2, 'UDP', { nodePort: 1 }),
        port('s', 3, 'SCTP', { nodePort: 1 }),
      )
    },
    [],
  ],
  [
    'invalid duplicate ports (with same protocol)',
    (s) =>
      s.spec.ports.push(port('q', 12345, 'TCP', { targetPort: 8080 }), port('r', 12345, 'TCP', { targetPort: 80 })),
    ['spec.ports[2] FieldValueDuplicate'],
  ],
  [
    'valid duplicate ports (with different protocols)',
    (s) =>
      s.spec.ports.push(
        port('q', 12345, 'TCP', { targetPort: 8080 }),
        port('r', 12345, 'UDP', { targetPort: 80 }),
        port('s', 12345, 'SCTP', { targetPort: 8088 }),
      ),
    [],
  ],
  [
    'valid type - nodeport',
    (s) => {
      s.spec.type = 'NodePort'
      s.spec.externalTrafficPolicy = 'Cluster'
    },
    [],
  ],
  [
    'valid type loadbalancer with NodePort',
    (s) => {
      lb(s)
      s.spec.ports.push(port('q', 12345, 'TCP', { nodePort: 12345 }))
    },
    [],
  ],
  [
    'invalid cluster service with NodePort',
    (s) => s.spec.ports.push(port('q', 12345, 'TCP', { nodePort: 12345 })),
    ['spec.ports[1].nodePort FieldValueForbidden'],
  ],
  [
    'valid LoadBalancer source range annotation',
    (s) => {
      lb(s)
      s.metadata.annotations[RANGES] = '1.2.3.0/24,  5.6.0.0/16'
    },
    [],
  ],
  [
    'valid whitespace-only LoadBalancer source range annotation',
    (s) => {
      lb(s)
      s.metadata.annotations[RANGES] = '  '
    },
    [],
  ],
  [
    'invalid LoadBalancer source range annotation (hostname)',
    (s) => {
      lb(s)
      s.metadata.annotations[RANGES] = 'foo.bar'
    },
    [`metadata.annotations[${RANGES}] FieldValueInvalid`],
  ],
  [
    'invalid LoadBalancer source range annotation (invalid CIDR)',
    (s) => {
      lb(s)
      s.metadata.annotations[RANGES] = '1.2.3.4/33'
    },
    [`metadata.annotations[${RANGES}] FieldValueInvalid`],
  ],
  [
    'invalid LoadBalancer source range annotation for non LoadBalancer type service',
    (s) => (s.metadata.annotations[RANGES] = '1.2.3.0/24'),
    [`metadata.annotations[${RANGES}] FieldValueForbidden`],
  ],
  [
    'invalid empty-but-set LoadBalancer source range annotation for non LoadBalancer type service',
    (s) => (s.metadata.annotations[RANGES] = ''),
    [`metadata.annotations[${RANGES}] FieldValueForbidden`],
  ],
  [
    'valid legacy LoadBalancer source range with legacy validation',
    (s) => {
      lb(s)
      s.spec.loadBalancerSourceRanges = ['001.002.003.000/24']
    },
    [],
    35,
  ],
  [
    'invalid legacy LoadBalancer source range with strict validation',
    (s) => {
      lb(s)
      s.spec.loadBalancerSourceRanges = ['001.002.003.000/24']
    },
    ['spec.LoadBalancerSourceRanges[0] FieldValueInvalid'],
  ],
  [
    'valid LoadBalancer source range with whitespace',
    (s) => {
      lb(s)
      s.spec.loadBalancerSourceRanges = ['1.2.3.0/24  ', ' 5.6.0.0/16']
    },
    [],
  ],
  [
    'invalid empty LoadBalancer source range',
    (s) => {
      lb(s)
      s.spec.loadBalancerSourceRanges = ['   ']
    },
    ['spec.LoadBalancerSourceRanges[0] FieldValueInvalid'],
  ],
  [
    'invalid source range for non LoadBalancer type service',
    (s) => (s.spec.loadBalancerSourceRanges = ['1.2.3.0/24', '5.6.0.0/16']),
    ['spec.LoadBalancerSourceRanges FieldValueForbidden'],
  ],
  [
    'invalid source range annotation ignored with valid source range field',
    (s) => {
      lb(s)
      s.metadata.annotations[RANGES] = 'foo.bar'
      s.spec.loadBalancerSourceRanges = ['1.2.3.0/24', '5.6.0.0/16']
    },
    [],
  ],
  [
    'valid ExternalName (trailing dot)',
    (s) => {
      s.spec.type = 'ExternalName'
      s.spec.externalName = 'foo.bar.example.com.'
    },
    [],
  ],
  [
    'invalid ExternalName clusterIP (valid IP)',
    (s) => {
      s.spec.type = 'ExternalName'
      s.spec.clusterIP = '1.2.3.4'
      s.spec.clusterIPs = ['1.2.3.4']
      s.spec.externalName = 'foo.bar.example.com'
    },
    ['spec.clusterIPs FieldValueForbidden'],
  ],
  [
    'invalid ExternalName (not a DNS name)',
    (s) => {
      s.spec.type = 'ExternalName'
      s.spec.externalName = '-123'
    },
    ['spec.externalName FieldValueInvalid'],
  ],
]

describe('validation_test.go TestValidateServiceCreate', () => {
  for (const [name, tweak, want, minor] of cases) {
    test(name, () => {
      const s = makeValidService()
      tweak(s)
      expect(validateServiceCreate(s, minor ?? 37).map((e) => `${e.field} ${e.type}`)).toEqual(want)
    })
  }
  test('RelaxedServiceNameValidation: a leading digit is a valid name from 1.36, not before', () => {
    const s = makeValidService()
    s.metadata.name = '1-foo'
    expect(validateServiceCreate(s, 37)).toEqual([])
    expect(validateServiceCreate(s, 35).map((e) => e.field)).toEqual(['metadata.name'])
  })
  test('messages', () => {
    const s = makeValidService()
    s.spec.ports.push(port('q', 8675, 'TCP'))
    s.spec.ports[0].protocol = 'HTTP'
    expect(validateServiceCreate(s, 37).map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'spec.ports[0].protocol: supported values: "SCTP", "TCP", "UDP"',
    ])
  })
})

describe('validation_test.go TestValidateServiceUpdate (immutable fields)', () => {
  const withIP = (): O => {
    const s = makeValidService()
    s.spec.clusterIP = '1.2.3.4'
    s.spec.clusterIPs = ['1.2.3.4']
    s.spec.ipFamilies = ['IPv4']
    s.spec.ipFamilyPolicy = 'SingleStack'
    return s
  }
  test('change primary ClusterIP', () => {
    const n = withIP()
    n.spec.clusterIP = '8.6.7.5'
    n.spec.clusterIPs = ['8.6.7.5']
    expect(validateServiceUpdate(n, withIP(), 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.clusterIPs[0] FieldValueInvalid',
    ])
  })
  test('change ipFamily', () => {
    const n = withIP()
    n.spec.ipFamilies = ['IPv6']
    expect(validateServiceUpdate(n, withIP(), 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.ipFamilies[0] FieldValueInvalid',
      'spec.clusterIPs[0] FieldValueInvalid',
    ])
  })
  test('change loadBalancerClass', () => {
    const o = withIP()
    lb(o)
    o.spec.loadBalancerClass = 'test.com/old'
    const n = structuredClone(o)
    n.spec.loadBalancerClass = 'test.com/new'
    expect(validateServiceUpdate(n, o, 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.loadBalancerClass FieldValueInvalid',
    ])
  })
})

// The registry path (validatorFor): decoded, defaulted, normalized and allocated as the apiserver
// does before ValidateServiceCreate, on a single-stack IPv4 cluster with the default node port range.
describe('Service through the registry hooks', () => {
  const svc = (spec: O, name = 'web'): O => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec,
  })
  test('a plain Service is valid (cluster IP and families allocated)', () => {
    expect(fieldTypes(svc({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] }))).toEqual([])
    expect(fieldTypes(svc({ type: 'NodePort', ports: [{ port: 80 }] }))).toEqual([])
    expect(fieldTypes(svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }))).toEqual([])
    expect(fieldTypes(svc({ clusterIP: 'None', ports: [{ port: 80 }] }))).toEqual([])
    expect(fieldTypes(svc({ type: 'ExternalName', externalName: 'example.com' }))).toEqual([])
  })
  test('port out of range', () =>
    expect(texts(svc({ ports: [{ port: 70000 }] }))).toEqual([
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]))
  test('a nodePort outside the range is the allocator error', () =>
    expect(texts(svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }))).toEqual([
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]))
  test('dual-stack demanded of a single-stack cluster', () =>
    expect(texts(svc({ ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] }))).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]))
  test('duplicate port', () =>
    expect(
      texts(
        svc({
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 80 },
          ],
        }),
      ),
    ).toEqual([
      'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}',
    ]))
  test('a name with a dot', () =>
    expect(texts(svc({ ports: [{ port: 80 }] }, 'a.b'))).toEqual([
      'metadata.name: Invalid value: "a.b": must not contain dots',
    ]))
  test('clusterIP is immutable on update', () => {
    const old = svc({ clusterIP: '10.96.0.20', ports: [{ port: 80 }] })
    old.metadata.resourceVersion = '1'
    const n = structuredClone(old)
    n.spec.clusterIP = '10.96.0.21'
    expect(texts(n, old)).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.21"]: may not change once set'])
  })
  test('an update that leaves clusterIP out keeps the allocated one', () => {
    const old = svc({ clusterIP: '10.96.0.20', ports: [{ port: 80 }] })
    old.metadata.resourceVersion = '1'
    const n = svc({ ports: [{ port: 81 }] })
    n.metadata.resourceVersion = '1'
    expect(texts(n, old)).toEqual([])
  })
})
