import { describe, expect, test } from 'vitest'
import { type O, fieldTypes as plainFieldTypes, texts as plainTexts, tweak } from '../support.js'

// storage.k8s.io/v1 CSIDriver, CSINode, VolumeAttachment, CSIStorageCapacity, VolumeAttributesClass: kubernetes
// v1.37.2 pkg/apis/storage/validation/validation_test.go (TestCSIDriverValidation, TestCSIDriverValidationUpdate,
// TestCSINodeValidation, TestCSINodeUpdateValidation, TestVolumeAttachmentValidationV1,
// TestVolumeAttachmentUpdateValidation, TestValidateCSIStorageCapacity, TestValidateVolumeAttributesClass,
// TestValidateVolumeAttributesClassUpdate: Go checks failure or success, the paths and types are
// validation.go's), the texts where the real apiserver v1.37.2 printed them (the attacher's declarative rules).

// an update carries the stored object's resourceVersion (ValidateObjectMetaUpdate requires one)
const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O): string[] =>
  old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old))
const texts = (o: O, old?: O): string[] => (old === undefined ? plainTexts(o) : plainTexts(rv(o), rv(old)))

const driver = (spec: O = {}, name = 'test-driver'): O => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIDriver',
  metadata: { name },
  spec: { attachRequired: true, podInfoOnMount: true, storageCapacity: false, ...spec },
})

describe('validation_test.go TestCSIDriverValidation', () => {
  const ok: [string, O][] = [
    ['a driver', driver()],
    ['the name with dots', driver({}, 'io.kubernetes.storage.csi.driver')],
    ['fsGroupPolicy File', driver({ fsGroupPolicy: 'File' })],
    ['fsGroupPolicy None', driver({ fsGroupPolicy: 'None' })],
    ['ephemeral and persistent', driver({ volumeLifecycleModes: ['Persistent', 'Ephemeral'] })],
    ['token requests', driver({ tokenRequests: [{ audience: 'foo', expirationSeconds: 600 }, { audience: '' }] })],
    ['nodeAllocatableUpdatePeriodSeconds 10', driver({ nodeAllocatableUpdatePeriodSeconds: 10 })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['an invalid name', driver({}, 'a*b'), ['metadata.name FieldValueInvalid']],
    [
      'an invalid fsGroupPolicy',
      driver({ fsGroupPolicy: 'invalid-mode' }),
      ['spec.fsGroupPolicy FieldValueNotSupported'],
    ],
    [
      'an invalid volume lifecycle mode',
      driver({ volumeLifecycleModes: ['no-such-mode'] }),
      ['spec.volumeLifecycleModes FieldValueNotSupported'],
    ],
    [
      'a duplicate audience',
      driver({ tokenRequests: [{ audience: 'foo' }, { audience: 'foo' }] }),
      ['spec.tokenRequests[1].audience FieldValueDuplicate'],
    ],
    [
      'expirationSeconds below 10 minutes',
      driver({ tokenRequests: [{ audience: 'foo', expirationSeconds: 10 }] }),
      ['spec.tokenRequests[0].expirationSeconds FieldValueInvalid'],
    ],
    [
      'expirationSeconds above 2^32',
      driver({ tokenRequests: [{ audience: 'foo', expirationSeconds: 4294967297 }] }),
      ['spec.tokenRequests[0].expirationSeconds FieldValueInvalid'],
    ],
    [
      'nodeAllocatableUpdatePeriodSeconds below 10',
      driver({ nodeAllocatableUpdatePeriodSeconds: 9 }),
      ['spec.nodeAllocatableUpdatePeriodSeconds FieldValueInvalid'],
    ],
    [
      'serviceAccountTokenInSecrets without tokenRequests (TestCSIServiceAccountToken)',
      driver({ serviceAccountTokenInSecrets: true }),
      ['spec.serviceAccountTokenInSecrets FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('the texts (the real apiserver)', () => {
    expect(texts(driver({ fsGroupPolicy: 'Sometimes' }))).toEqual([
      'spec.fsGroupPolicy: Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType"',
    ])
    expect(texts(driver({ nodeAllocatableUpdatePeriodSeconds: 5 }))).toEqual([
      'spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds',
    ])
  })
})

describe('validation_test.go TestCSIDriverValidationUpdate', () => {
  const old = driver({ volumeLifecycleModes: ['Persistent'] })
  test('podInfoOnMount may change', () =>
    expect(fieldTypes(driver({ podInfoOnMount: false, volumeLifecycleModes: ['Persistent'] }), old)).toEqual([]))
  test('attachRequired is immutable (reported as attachedRequired)', () =>
    expect(fieldTypes(driver({ attachRequired: false, volumeLifecycleModes: ['Persistent'] }), old)).toEqual([
      'spec.attachedRequired FieldValueInvalid',
    ]))
  test('volumeLifecycleModes are immutable', () =>
    expect(fieldTypes(driver({ volumeLifecycleModes: ['Ephemeral'] }), old)).toEqual([
      'spec.volumeLifecycleModes FieldValueInvalid',
    ]))
})

const csiNode = (drivers: O[], name = 'valid-node'): O => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSINode',
  metadata: { name },
  spec: { drivers },
})
const nodeDriver = (extra: O = {}): O => ({
  name: 'valid-driver1',
  nodeID: 'valid-node',
  topologyKeys: ['company.com/zone1'],
  ...extra,
})

describe('validation_test.go TestCSINodeValidation', () => {
  test('a valid node', () =>
    expect(
      fieldTypes(csiNode([nodeDriver(), nodeDriver({ name: 'valid-driver2', allocatable: { count: 0 } })])),
    ).toEqual([]))
  test('a driver name with capital letters is valid', () =>
    expect(fieldTypes(csiNode([nodeDriver({ name: 'Valid-Driver' })]))).toEqual([]))
  const bad: [string, O, string[]][] = [
    [
      'an invalid driver name',
      csiNode([nodeDriver({ name: '$csi-driver@' })]),
      ['spec.drivers[0].name FieldValueInvalid'],
    ],
    ['an empty driver name', csiNode([nodeDriver({ name: '' })]), ['spec.drivers[0].name FieldValueRequired']],
    [
      'a driver name over 63 characters',
      csiNode([nodeDriver({ name: `${'a'.repeat(60)}.com` })]),
      ['spec.drivers[0].name FieldValueTooLong'],
    ],
    ['an empty nodeID', csiNode([nodeDriver({ nodeID: '' })]), ['spec.drivers[0].nodeID FieldValueRequired']],
    [
      'a nodeID over 256',
      csiNode([nodeDriver({ nodeID: 'n'.repeat(257) })]),
      ['spec.drivers[0].nodeID FieldValueInvalid'],
    ],
    [
      'a negative allocatable count',
      csiNode([nodeDriver({ allocatable: { count: -1 } })]),
      ['spec.drivers[0].allocatable.count FieldValueInvalid'],
    ],
    ['a duplicate driver', csiNode([nodeDriver(), nodeDriver()]), ['spec.drivers[1].name FieldValueDuplicate']],
    [
      'duplicate and empty topology keys',
      csiNode([nodeDriver({ topologyKeys: ['company.com/zone1', 'company.com/zone1', ''] })]),
      // IsQualifiedName(""): "name part must be non-empty" and the pattern
      [
        'spec.drivers[0] FieldValueDuplicate',
        'spec.drivers[0] FieldValueRequired',
        'spec.drivers[0] FieldValueInvalid',
        'spec.drivers[0] FieldValueInvalid',
      ],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
})

describe('validation_test.go TestCSINodeUpdateValidation', () => {
  const old = csiNode([nodeDriver(), nodeDriver({ name: 'valid-driver2', allocatable: { count: 3 } })])
  test('a driver added, allocatable changed (MutableCSINodeAllocatableCount)', () =>
    expect(
      fieldTypes(
        csiNode([
          nodeDriver(),
          nodeDriver({ name: 'valid-driver2', allocatable: { count: 5 } }),
          nodeDriver({ name: 'valid-driver3' }),
        ]),
        old,
      ),
    ).toEqual([]))
  test('a driver nodeID changed', () =>
    expect(fieldTypes(csiNode([nodeDriver({ nodeID: 'other' })]), old)).toEqual(['spec.drivers FieldValueInvalid']))
})

const va = (spec: O, name = 'foo'): O => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttachment',
  metadata: { name },
  spec,
})
const vaSpec = (extra: O = {}): O => ({
  attacher: 'myattacher',
  nodeName: 'mynode',
  source: { persistentVolumeName: 'foo' },
  ...extra,
})

describe('validation_test.go TestVolumeAttachmentValidationV1', () => {
  test('a valid attachment', () => expect(fieldTypes(va(vaSpec()))).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['an invalid name', va(vaSpec(), 'Foo_'), ['metadata.name FieldValueInvalid']],
    ['no attacher', va(vaSpec({ attacher: '' })), ['spec.attacher FieldValueRequired']],
    ['an invalid attacher', va(vaSpec({ attacher: 'invalid!@#$%^&*()' })), ['spec.attacher FieldValueInvalid']],
    ['no source', va(vaSpec({ source: {} })), ['spec.source FieldValueRequired']],
    [
      'an empty persistentVolumeName',
      va(vaSpec({ source: { persistentVolumeName: '' } })),
      ['spec.source.persistentVolumeName FieldValueRequired', 'spec.source.persistentVolumeName FieldValueInvalid'],
    ],
    ['an invalid nodeName', va(vaSpec({ nodeName: 'Node_1' })), ['spec.nodeName FieldValueInvalid']],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('the attacher errors come after the handwritten ones, worded by the declarative rules (real apiserver)', () => {
    const t = texts(va(vaSpec({ attacher: `Bad_${'a'.repeat(70)}`, nodeName: 'Node_1' })))
    expect(t[0]).toMatch(/^spec\.nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain/)
    expect(t[1]).toMatch(
      /^spec\.attacher: Invalid value: "Bad_a+": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '\.', and must start and end with an alphanumeric character \(e\.g\. 'Example\.com', /,
    )
    expect(t[2]).toBe('spec.attacher: Too long: may not be more than 63 characters')
  })
  test('an upper-case attacher is valid', () =>
    expect(fieldTypes(va(vaSpec({ attacher: 'CSI.Example.com' })))).toEqual([]))
})

describe('validation_test.go TestVolumeAttachmentUpdateValidation', () => {
  const old = va(vaSpec())
  test('the spec is immutable (a declarative error: null value)', () =>
    expect(texts(va(vaSpec({ nodeName: 'other' })), old)).toEqual(['spec: Invalid value: null: field is immutable']))
  test('a status change passes', () =>
    expect(
      fieldTypes(
        tweak(old, (x) => (x.status = { attached: true })),
        old,
      ),
    ).toEqual([]))
})

const capacity = (extra: O = {}): O => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIStorageCapacity',
  metadata: { name: 'csc-329803da-fdd2-42e4-af6f-7b07e7ccc305', namespace: 'default' },
  storageClassName: 'test-sc',
  ...extra,
})

describe('validation_test.go TestValidateCSIStorageCapacity', () => {
  const ok: [string, O][] = [
    ['good-capacity', capacity()],
    ['good-capacity-value', capacity({ capacity: '1' })],
    ['good-topology', capacity({ nodeTopology: { matchLabels: { foo: 'bar' } } })],
    ['empty-topology', capacity({ nodeTopology: {} })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['missing-storage-class-name', capacity({ storageClassName: '' }), ['storageClassName FieldValueInvalid']],
    [
      'bad-storage-class-name',
      capacity({ storageClassName: '-invalid-@#$%^&*()-' }),
      ['storageClassName FieldValueInvalid'],
    ],
    ['bad-capacity-value', capacity({ capacity: '-11' }), ['capacity FieldValueInvalid']],
    [
      'bad-topology-fields',
      capacity({ nodeTopology: { matchExpressions: [{ key: 'foo', operator: 'no-such-operator', values: ['bar'] }] } }),
      ['nodeTopology.matchExpressions[0].operator FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('the update: storageClassName and nodeTopology immutable', () =>
    expect(
      fieldTypes(capacity({ storageClassName: 'other', nodeTopology: { matchLabels: { a: 'b' } } }), capacity()),
    ).toEqual(['nodeTopology FieldValueInvalid', 'storageClassName FieldValueInvalid']))
})

const vac = (extra: O = {}): O => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttributesClass',
  metadata: { name: 'foo' },
  driverName: 'kubernetes.io/foo',
  parameters: { 'foo-parameter': 'free-form-string' },
  ...extra,
})

describe('validation_test.go TestValidateVolumeAttributesClass', () => {
  test('driverName without a slash', () => expect(fieldTypes(vac({ driverName: 'foo' }))).toEqual([]))
  const bad: [string, O, string[]][] = [
    [
      'namespace is present',
      tweak(vac(), (x) => (x.metadata.namespace = 'bar')),
      ['metadata.namespace FieldValueForbidden'],
    ],
    ['invalid driverName', vac({ driverName: 'kubernetes.io/invalid/foo' }), ['driverName FieldValueInvalid']],
    ['empty parameters', vac({ parameters: {} }), ['parameters FieldValueRequired']],
    ['nil parameters', tweak(vac(), (x) => delete x.parameters), ['parameters FieldValueRequired']],
    ['invalid empty parameter name', vac({ parameters: { '': 'value' } }), ['parameters FieldValueInvalid']],
    ['driverName: Required value', vac({ driverName: '' }), ['driverName FieldValueRequired']],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('TestValidateVolumeAttributesClassUpdate: driverName and parameters may not change', () =>
    expect(fieldTypes(vac({ driverName: 'kubernetes.io/bar', parameters: { a: 'b' } }), vac())).toEqual([
      'driverName FieldValueForbidden',
      'parameters FieldValueForbidden',
    ]))
})
