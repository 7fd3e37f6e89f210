import { describe, expect, test } from 'vitest'
import { dropDisabledFields } from '../../../../src/builtin/strategy.js'
import { defaultFeatureGates } from '../../../../src/kube/feature-gates.js'
import { fieldTypes, type O, stored, texts, tweak } from '../support.js'

// resource.k8s.io/v1 ResourceSlice and DeviceTaintRule: kubernetes v1.37.2
// pkg/apis/resource/validation/validation_resourceslice_test.go (TestValidateResourceSlice) and
// validation_devicetaintrule_test.go. The declarative texts (DeviceAttribute's union, the taint effect)
// are the 1.37.2 apiserver's. Go's testResourceSlice: nodeName = pool name, N devices `device-<i>`.

const badName = '!@#$%^'
const slice = (pool: string, driver: string, n: number, extra: O = {}): O => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name: 'foo' },
  spec: {
    nodeName: pool,
    pool: { name: pool, resourceSliceCount: 1 },
    driver,
    devices: Array.from({ length: n }, (_, i) => ({ name: `device-${i}` })),
    ...extra,
  },
})
const good = (n = 1) => slice('foo', 'dra.example.com', n)
const devs = (s: O) => s.spec.devices as O[]

describe('validation_resourceslice_test.go TestValidateResourceSlice', () => {
  const cases: [string, O, string[]][] = [
    ['good', good(128), []],
    ['too-large', good(129), ['spec.devices FieldValueTooMany']],
    [
      'too-large-taints (64 with taints)',
      tweak(good(65), (s) => {
        for (const d of devs(s)) d.taints = [{ key: 'example.com/taint', effect: 'NoExecute' }]
      }),
      ['spec.devices FieldValueTooMany'],
    ],
    [
      'bad-nodename',
      slice(badName, 'dra.example.com', 1),
      ['spec.pool.name FieldValueInvalid', 'spec.nodeName FieldValueInvalid'],
    ],
    [
      'bad-multi-pool-name',
      slice(`${badName}/${badName}`, 'dra.example.com', 1),
      ['spec.pool.name FieldValueInvalid', 'spec.pool.name FieldValueInvalid', 'spec.nodeName FieldValueInvalid'],
    ],
    ['good-pool-name', tweak(good(), (s) => (s.spec.pool.name = 'x'.repeat(253))), []],
    [
      'bad-pool',
      tweak(good(), (s) => {
        s.spec.pool = { name: `${'x/'.repeat(126)}xy`, resourceSliceCount: 0, generation: -1 }
      }),
      [
        'spec.pool.name FieldValueTooLong',
        'spec.pool.resourceSliceCount FieldValueInvalid',
        'spec.pool.generation FieldValueInvalid',
      ],
    ],
    ['missing-pool-name', tweak(good(), (s) => (s.spec.pool.name = '')), ['spec.pool.name FieldValueRequired']],
    [
      'bad-empty-node-selector',
      tweak(good(), (s) => {
        delete s.spec.nodeName
        s.spec.nodeSelector = {}
      }),
      [
        'spec.nodeSelector.nodeSelectorTerms FieldValueRequired',
        'spec.nodeSelector.nodeSelectorTerms FieldValueInvalid',
      ],
    ],
    [
      'bad-node-selection',
      tweak(good(), (s) => {
        s.spec.nodeName = 'worker'
        s.spec.nodeSelector = {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker'] }] }],
        }
      }),
      ['spec FieldValueInvalid'],
    ],
    ['empty-node-selection', tweak(good(), (s) => delete s.spec.nodeName), ['spec FieldValueRequired']],
    ['bad-drivername', slice('foo', badName, 1), ['spec.driver FieldValueInvalid']],
    [
      'both-shared-counters-and-devices',
      tweak(good(), (s) => (s.spec.sharedCounters = [{ name: 'counterset', counters: { memory: { value: '1Gi' } } }])),
      ['spec FieldValueInvalid'],
    ],
    ['bad-devices', tweak(good(3), (s) => (devs(s)[1]!.name = badName)), ['spec.devices[1].name FieldValueInvalid']],
    [
      'bad-attribute-c-identifier',
      tweak(good(2), (s) => (devs(s)[1]!.attributes = { ['.'.repeat(33)]: { string: 'y' } })),
      ['spec.devices[1].attributes FieldValueTooLong', 'spec.devices[1].attributes FieldValueInvalid'],
    ],
    [
      'bad-attribute-domain',
      tweak(good(2), (s) => (devs(s)[1]!.attributes = { [`${'_'.repeat(64)}/y`]: { string: 'z' } })),
      ['spec.devices[1].attributes FieldValueTooLong', 'spec.devices[1].attributes FieldValueInvalid'],
    ],
    [
      'bad-attribute-empty-domain-and-c-identifier',
      tweak(good(2), (s) => (devs(s)[1]!.attributes = { '/': { string: 'z' } })),
      ['spec.devices[1].attributes FieldValueInvalid', 'spec.devices[1].attributes FieldValueInvalid'],
    ],
    [
      'combined-attributes-capacity-length',
      tweak(good(1), (s) => {
        const attributes: O = {}
        for (let i = 0; i < 32; i++) attributes[`attr_${i}`] = { string: 'x' }
        devs(s)[0]!.attributes = attributes
        devs(s)[0]!.capacity = { cap: { value: '1Gi' } }
      }),
      ['spec.devices[0] FieldValueInvalid'],
    ],
    [
      'forbidden-request-policy-on-single-allocatable-capacity',
      tweak(good(1), (s) => (devs(s)[0]!.capacity = { memory: { value: '1Gi', requestPolicy: { default: '1Mi' } } })),
      ['spec.devices[0].capacity[memory].requestPolicy FieldValueForbidden'],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))

  test('bad-attribute (the declarative union texts)', () => {
    const o = tweak(good(5), (s) => {
      devs(s)[1]!.attributes = { [badName]: {} }
      devs(s)[2]!.attributes = { foo: { string: 'x', version: '1.2.3' } }
      devs(s)[3]!.attributes = { foo: { version: 'x'.repeat(65) } }
      devs(s)[4]!.attributes = { foo: { string: 'x'.repeat(65) } }
    })
    const union = 'must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`'
    expect(texts(o)).toEqual([
      "spec.devices[1].attributes: Invalid value: \"!@#$%^\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
      `spec.devices[3].attributes[foo].version: Invalid value: "${'x'.repeat(65)}": must be a string compatible with semver.org spec 2.0.0`,
      'spec.devices[3].attributes[foo].version: Too long: may not be more than 64 bytes',
      'spec.devices[4].attributes[foo].string: Too long: may not be more than 64 bytes',
      `spec.devices[1].attributes[!@#$%^]: Invalid value: "": ${union}`,
      `spec.devices[2].attributes[foo]: Invalid value: "{string, version}": must specify exactly ${union.slice('must specify '.length)}`,
    ])
  })

  test('taints', () => {
    const o = tweak(good(3), (s) => {
      devs(s)[0]!.taints = [
        { key: 'example.com/taint', effect: 'NoExecute' },
        { key: 'taint', value: 'tainted', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:00Z' },
        {},
        { key: badName, value: badName, effect: 'some-other-effect' },
      ]
    })
    expect(fieldTypes(o)).toEqual([
      'spec.devices[0].taints[2].key FieldValueInvalid',
      'spec.devices[0].taints[2].key FieldValueInvalid',
      'spec.devices[0].taints[3].key FieldValueInvalid',
      'spec.devices[0].taints[3].value FieldValueInvalid',
      'spec.devices[0].taints[2].effect FieldValueRequired',
      'spec.devices[0].taints[3].effect FieldValueNotSupported',
    ])
  })

  test('too-many-taints', () => {
    const o = tweak(good(1), (s) => {
      devs(s)[0]!.taints = Array.from({ length: 17 }, (_, i) => ({ key: `example.com/t${i}`, effect: 'NoExecute' }))
    })
    expect(fieldTypes(o)).toEqual(['spec.devices[0].taints FieldValueTooMany'])
  })

  test('a taint without timeAdded gets the time of the request (SetDefaults_DeviceTaint)', () => {
    const t = stored(tweak(good(1), (s) => (devs(s)[0]!.taints = [{ key: 'k', effect: 'NoSchedule' }])))
    expect(t.spec.devices[0].taints[0].timeAdded).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })

  test('list-type attributes are dropped on create (DRAListTypeAttributes off in 1.37)', () => {
    const o = stored(tweak(good(1), (s) => (devs(s)[0]!.attributes = { models: { strings: ['a', 'b'] } })))
    dropDisabledFields(o, undefined, defaultFeatureGates(37))
    expect(o.spec.devices[0].attributes).toEqual({ models: {} })
  })

  test('update: pool name, driver and node name are immutable', () => {
    const old = tweak(good(1), (s) => (s.metadata.resourceVersion = '1'))
    const n = tweak(old, (s) => {
      s.spec.driver = 'other.example.com'
      s.spec.pool.name = 'bar'
      s.spec.nodeName = 'bar'
    })
    expect(fieldTypes(n, old)).toEqual([
      'spec.pool.name FieldValueInvalid',
      'spec.driver FieldValueInvalid',
      'spec.nodeName FieldValueInvalid',
    ])
  })
})

const rule = (spec: O): O => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceTaintRule',
  metadata: { name: 'rule' },
  spec,
})

describe('validation_devicetaintrule_test.go TestValidateDeviceTaint', () => {
  test('good', () =>
    expect(
      fieldTypes(
        rule({
          deviceSelector: { driver: 'dra.example.com', pool: 'pool', device: 'dev' },
          taint: { key: 'example.com/taint', effect: 'NoExecute' },
        }),
      ),
    ).toEqual([]))
  test('bad selector and taint', () =>
    expect(
      fieldTypes(
        rule({
          deviceSelector: { driver: badName, pool: badName, device: badName },
          taint: { key: 'k', effect: 'Evict' },
        }),
      ),
    ).toEqual([
      'spec.deviceSelector.driver FieldValueInvalid',
      'spec.deviceSelector.pool FieldValueInvalid',
      'spec.deviceSelector.device FieldValueInvalid',
      'spec.taint.effect FieldValueNotSupported',
    ]))
})
