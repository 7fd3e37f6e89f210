import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts, tweak } from '../support.js'

// storage.k8s.io/v1 StorageClass: kubernetes v1.37.2 pkg/apis/storage/validation/validation_test.go
// TestValidateStorageClass, TestValidateVolumeBindingMode, TestValidateUpdateVolumeBindingMode,
// TestValidateAllowedTopologies (Go checks failure / success; the paths and types are validation.go's),
// and the 1.37 declarative rules. v1 defaults reclaimPolicy (Delete) and volumeBindingMode
// (Immediate): Go's internal objects without a mode fail where the apiserver's defaulted ones do not.

const sc = (extra: O = {}): O => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'foo' },
  provisioner: 'kubernetes.io/foo-provisioner',
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'Immediate',
  ...extra,
})

describe('validation_test.go TestValidateStorageClass', () => {
  const ok: [string, O][] = [
    ['empty parameters', sc({ parameters: {} })],
    ['nil parameters', sc()],
    [
      'some parameters',
      sc({
        parameters: {
          'kubernetes.io/foo-parameter': 'free/form/string',
          'foo-parameter': 'free-form-string',
          'foo-parameter2': '{"embedded": "json", "with": {"structures":"inside"}}',
        },
      }),
    ],
    ['retain reclaimPolicy', sc({ reclaimPolicy: 'Retain' })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
  const long: Record<string, string> = {}
  for (let total = 0; total < 256 * 1024; ) {
    const k = `param/${total}`
    const v = `value-${total}`
    long[k] = v
    total += k.length + v.length
  }
  const bad: [string, O, string[]][] = [
    [
      'namespace is present',
      tweak(sc(), (x) => (x.metadata.namespace = 'bar')),
      ['metadata.namespace FieldValueForbidden'],
    ],
    [
      'invalid provisioner',
      sc({ provisioner: 'kubernetes.io/invalid/provisioner' }),
      ['provisioner FieldValueInvalid'],
    ],
    [
      'invalid empty parameter name',
      sc({ provisioner: 'kubernetes.io/foo', parameters: { '': 'value' } }),
      ['parameters FieldValueInvalid'],
    ],
    ['provisioner: Required value', sc({ provisioner: '' }), ['provisioner FieldValueRequired']],
    [
      'too long parameters',
      sc({ provisioner: 'kubernetes.io/foo', parameters: long }),
      ['parameters FieldValueTooLong'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  // a real kube-apiserver 1.37.2 (kubectl create --dry-run=server) answered `The StorageClass "sc" is invalid:
  // reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"` (supportedReclaimPolicy)
  test('Recycle is not a StorageClass reclaim policy', () =>
    expect(texts(sc({ reclaimPolicy: 'Recycle' }))).toEqual([
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
    ]))
  test('an unsupported reclaimPolicy', () =>
    expect(texts(sc({ reclaimPolicy: 'Keep' }))).toEqual([
      'reclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Retain"',
    ]))
  test('provisioner Required is the declarative error from 1.37, handwritten before', () => {
    expect(texts(sc({ provisioner: '', volumeBindingMode: 'Never' }))).toEqual([
      'volumeBindingMode: Unsupported value: "Never": supported values: "Immediate", "WaitForFirstConsumer"',
      'provisioner: Required value',
    ])
    expect(texts(sc({ provisioner: '', volumeBindingMode: 'Never' }), undefined, 36)).toEqual([
      'provisioner: Required value',
      'volumeBindingMode: Unsupported value: "Never": supported values: "Immediate", "WaitForFirstConsumer"',
    ])
  })
})

describe('validation_test.go TestValidateVolumeBindingMode', () => {
  test('no mode (defaulted to Immediate in v1)', () =>
    expect(fieldTypes(tweak(sc(), (x) => delete x.volumeBindingMode))).toEqual([]))
  test('immediate mode', () => expect(fieldTypes(sc())).toEqual([]))
  test('waiting mode', () => expect(fieldTypes(sc({ volumeBindingMode: 'WaitForFirstConsumer' }))).toEqual([]))
  test('invalid mode', () =>
    expect(fieldTypes(sc({ volumeBindingMode: 'foo' }))).toEqual(['volumeBindingMode FieldValueNotSupported']))
})

describe('validation_test.go TestValidateUpdateVolumeBindingMode', () => {
  const rv = (o: O) => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
  const imm = rv(sc())
  const wait = rv(sc({ volumeBindingMode: 'WaitForFirstConsumer' }))
  test('old and new same mode value', () => expect(fieldTypes(imm, imm)).toEqual([]))
  test('old and new different modes (1.37: declarative, null value)', () =>
    expect(texts(wait, imm)).toEqual(['volumeBindingMode: Invalid value: null: field is immutable']))
  test('old and new different modes (1.36: handwritten)', () =>
    expect(texts(wait, imm, 36)).toEqual([
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]))
  test('parameters, provisioner and reclaimPolicy are immutable (declarative order: provisioner first)', () => {
    const n = rv(sc({ provisioner: 'kubernetes.io/other', parameters: { a: 'b' }, reclaimPolicy: 'Retain' }))
    expect(fieldTypes(n, imm)).toEqual([
      'provisioner FieldValueInvalid',
      'parameters FieldValueInvalid',
      'reclaimPolicy FieldValueInvalid',
    ])
    expect(fieldTypes(n, imm, 36)).toEqual([
      'parameters FieldValueInvalid',
      'provisioner FieldValueInvalid',
      'reclaimPolicy FieldValueInvalid',
    ])
  })
})

describe('validation_test.go TestValidateAllowedTopologies', () => {
  const term = (...exprs: [string, string[]][]) => ({
    matchLabelExpressions: exprs.map(([key, values]) => ({ key, values })),
  })
  const zone = 'failure-domain.beta.kubernetes.io/zone'
  const host = 'kubernetes.io/hostname'
  const withT = (t: O[]) => sc({ volumeBindingMode: 'WaitForFirstConsumer', allowedTopologies: t })
  const cases: [string, O[], string[]][] = [
    ['no topology', [], []],
    ['valid topology', [term([zone, ['zone1']], [host, ['node1']]), term([zone, ['zone2']], [host, ['node2']])], []],
    [
      'topology invalid key',
      [term(['/invalidkey', ['zone1']])],
      ['allowedTopologies[0].matchLabelExpressions[0].key FieldValueInvalid'],
    ],
    [
      'topology lack of values',
      [term([host, []])],
      ['allowedTopologies[0].matchLabelExpressions[0].values FieldValueRequired'],
    ],
    [
      'duplicate TopologySelectorRequirement values',
      [term([host, ['node1', 'node1']])],
      ['allowedTopologies[0].matchLabelExpressions[0].values[1] FieldValueDuplicate'],
    ],
    ['multiple TopologySelectorRequirement values', [term([host, ['node1', 'node2']])], []],
    ['empty MatchLabelExpressions', [{ matchLabelExpressions: [] }], []],
    [
      'duplicate MatchLabelExpression keys',
      [term([host, ['node1']], [host, ['node2']])],
      ['allowedTopologies[0].matchLabelExpressions[1].key FieldValueDuplicate'],
    ],
    [
      'duplicate MatchLabelExpression keys but across separate terms',
      [term([host, ['node1']]), term([host, ['node2']])],
      [],
    ],
    [
      'duplicate AllowedTopologies terms',
      [term([zone, ['zone1']], [host, ['node1']]), term([zone, ['zone1']], [host, ['node1']])],
      ['allowedTopologies[1].matchLabelExpressions FieldValueDuplicate'],
    ],
    [
      'two AllowedTopologies terms, with a pair of the same MatchLabelExpressions and a pair of different ones',
      [term([zone, ['zone1']], [host, ['node1']]), term([zone, ['zone1']], [host, ['node2']])],
      [],
    ],
    [
      'two AllowedTopologies terms, differing by a single value',
      [term([host, ['node1', 'node2']]), term([host, ['node1', 'node3']])],
      [],
    ],
    [
      'duplicate AllowedTopologies terms, with a pair of the same MatchLabelExpressions in different order',
      [term([host, ['node1']], [zone, ['zone1']]), term([zone, ['zone1']], [host, ['node1']])],
      ['allowedTopologies[1].matchLabelExpressions FieldValueDuplicate'],
    ],
    [
      'duplicate AllowedTopologies terms, with the same values in different order',
      [term([zone, ['zone1', 'zone2']]), term([zone, ['zone2', 'zone1']])],
      ['allowedTopologies[1].matchLabelExpressions FieldValueDuplicate'],
    ],
  ]
  for (const [name, t, want] of cases) test(name, () => expect(fieldTypes(withT(t))).toEqual(want))
})
