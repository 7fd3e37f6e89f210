import { describe, expect, test } from 'vitest'
import { prepareNode } from '../../../../src/builtin/validation/core/node.js'
import { type O, fieldTypes as plainFieldTypes, texts, tweak } from '../support.js'

// core/v1 Node: kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go (TestValidateNode,
// TestValidateNodeUpdate, TestValidateNodeSwapStatus, TestValidateNodeDeclaredFeatures: Go checks failure
// or success), the paths and texts as the real apiserver v1.37.2 printed them (taints reported under
// `metadata`, as validation.go's path variable there is the metadata's).

const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O) => (old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old)))
const node = (spec: O = {}, status: O = {}, name = 'abc'): O => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { a: 'b' } },
  spec,
  status: { capacity: { cpu: '10', memory: '10G', 'my.org/gpu': '10' }, ...status },
})

describe('validation_test.go TestValidateNode', () => {
  const ok: [string, O][] = [
    ['a node', node()],
    ['with taints', node({ taints: [{ key: 'GPU', value: 'true', effect: 'NoSchedule' }] })],
    ['with a pod CIDR', node({ podCIDRs: ['192.168.0.0/16'] })],
    ['dual-stack pod CIDRs', node({ podCIDRs: ['192.168.0.0/16', '2000::/10'] })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['zero-length Name', node({}, {}, ''), ['metadata.name FieldValueRequired']],
    [
      'missing-taint-key',
      node({ taints: [{ key: '', value: 'special-user-1', effect: 'NoSchedule' }] }),
      ['metadata.taints[0].key FieldValueInvalid', 'metadata.taints[0].key FieldValueInvalid'],
    ],
    [
      'bad-taint-key',
      node({
        taints: [{ key: 'NoUppercaseOrSpecialCharsLike=Equals', value: 'special-user-1', effect: 'NoSchedule' }],
      }),
      ['metadata.taints[0].key FieldValueInvalid'],
    ],
    [
      'bad-taint-value',
      node({ taints: [{ key: 'dedicated', value: 'some\\bad\\value', effect: 'NoSchedule' }] }),
      ['metadata.taints[0].value FieldValueInvalid'],
    ],
    [
      'missing-taint-effect',
      node({ taints: [{ key: 'dedicated', value: 'special-user-3', effect: '' }] }),
      ['metadata.taints[0].effect FieldValueRequired'],
    ],
    [
      'invalid-taint-effect',
      node({ taints: [{ key: 'dedicated', value: 'special-user-3', effect: 'NoScheduleNoAdmit' }] }),
      ['metadata.taints[0].effect FieldValueNotSupported'],
    ],
    [
      'duplicated-taints-with-same-key-effect',
      node({
        taints: [
          { key: 'dedicated', value: 'special-user-1', effect: 'NoSchedule' },
          { key: 'dedicated', value: 'special-user-2', effect: 'NoSchedule' },
        ],
      }),
      ['metadata.taints[1] FieldValueDuplicate'],
    ],
    ['invalid-pod-cidr', node({ podCIDRs: ['192.168.0.0'] }), ['spec.podCIDRs[0] FieldValueInvalid']],
    [
      'invalid-legacy-pod-cidr-with-strict-validation',
      node({ podCIDRs: ['192.168.000.000/16'] }),
      ['spec.podCIDRs[0] FieldValueInvalid'],
    ],
    [
      'duplicate-pod-cidr',
      node({ podCIDRs: ['10.0.0.1/16', '10.0.0.1/16'] }),
      ['spec.podCIDRs[0] FieldValueInvalid', 'spec.podCIDRs[1] FieldValueInvalid', 'spec.podCIDRs FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('the duplicate taint text (internal core.Taint, the real apiserver)', () =>
    expect(
      texts(
        node({
          taints: [
            { key: 'c', value: 'x', effect: 'NoSchedule' },
            { key: 'c', value: 'z', effect: 'NoSchedule' },
          ],
        }),
      ),
    ).toEqual([
      'metadata.taints[1]: Duplicate value: {"Key":"c","Value":"z","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair',
    ]))
  test('a bad CIDR beside another (IsDualStackCIDRStrings fails)', () =>
    expect(texts(node({ podCIDRs: ['10.244.0.0/24', 'foo'] })).slice(1)).toEqual([
      'spec.podCIDRs: Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[1]: <nil> (invalid CIDR address: foo)',
      'spec.podCIDRs: Invalid value: ["10.244.0.0/24","foo"]: may specify no more than one CIDR for each IP family',
    ]))
  test('status resources (ValidateNodeResources: paths by Child)', () =>
    expect(fieldTypes(node({}, { capacity: { cpu: '-1' }, allocatable: { pods: '1500m' } }))).toEqual([
      'status.capacity.cpu FieldValueInvalid',
      'status.allocatable.pods FieldValueInvalid',
    ]))
})

describe('validation_test.go TestValidateNodeSwapStatus', () => {
  const swap = (capacity?: number) => node({}, { nodeInfo: { swap: capacity === undefined ? {} : { capacity } } })
  test('node with nil nodeSwapStatus.Capacity', () => expect(fieldTypes(swap())).toEqual([]))
  test('node with positive capacity', () => expect(fieldTypes(swap(1024))).toEqual([]))
  test('node with zero capacity should be invalid', () =>
    expect(texts(swap(0))).toEqual(['metadata.nodeSwapStatus.capacity: Invalid value: 0: must be greater than zero']))
  test('node with negative capacity should be invalid', () =>
    expect(fieldTypes(swap(-1))).toEqual(['metadata.nodeSwapStatus.capacity FieldValueInvalid']))
})

describe('validation_test.go TestValidateNodeDeclaredFeatures', () => {
  const cases: [string, string[], boolean][] = [
    ['empty feature list', [], false],
    ['valid features', ['AnotherFeature', 'MyFeature', 'MyFeature/SubFeature'], false],
    ['duplicate feature names', ['MyFeature', 'MyFeature'], true],
    ['unsorted feature names', ['MyFeature', 'AnotherFeature'], true],
    ['mixed valid and invalid', ['AnotherFeature', 'invalid', 'MyFeature'], true],
    ['invalid feature name format', ['myFeature'], true],
    ['invalid feature name - kebab-case', ['Feature-name'], true],
    ['invalid feature name - ends with slash', ['FeatureA/'], true],
  ]
  for (const [name, features, fails] of cases)
    test(name, () => expect(fieldTypes(node({}, { declaredFeatures: features })).length > 0).toBe(fails))
})

describe('validation_test.go TestValidateNodeUpdate', () => {
  const old = node({ podCIDRs: ['192.168.0.0/16'], providerID: 'provider:///old' })
  test('labels may change', () =>
    expect(
      fieldTypes(
        tweak(old, (x) => (x.metadata.labels = { c: 'd' })),
        old,
      ),
    ).toEqual([]))
  test('the pod CIDR may not change', () =>
    expect(fieldTypes(node({ podCIDRs: ['192.167.0.0/16'], providerID: 'provider:///old' }), old)).toEqual([
      'spec.podCIDRs FieldValueForbidden',
    ]))
  test('the providerID may not change nor be cleared', () => {
    expect(texts(rv(node({ podCIDRs: ['192.168.0.0/16'], providerID: 'provider:///new' })), rv(old))).toEqual([
      'spec.providerID: Invalid value: null: field cannot be modified once set',
    ])
    expect(fieldTypes(node({ podCIDRs: ['192.168.0.0/16'] }), old)).toEqual(['spec.providerID FieldValueInvalid'])
  })
  test('a providerID may be set', () =>
    expect(
      fieldTypes(node({ podCIDRs: ['192.168.0.0/16'], providerID: 'x' }), node({ podCIDRs: ['192.168.0.0/16'] })),
    ).toEqual([]))
})

describe('prepareNode: the v1 podCIDR conversion, the not-ready taint, dropDisabledFields', () => {
  test('podCIDR fills podCIDRs; podCIDR wins when they differ; back to v1 podCIDR is podCIDRs[0]', () => {
    const a: O = { spec: { podCIDR: '10.0.0.0/24' } }
    prepareNode(a, undefined, () => false)
    expect(a.spec.podCIDRs).toEqual(['10.0.0.0/24'])
    const b: O = { spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.1.0.0/24', 'fd00::/64'] } }
    prepareNode(b, {}, () => false)
    expect(b.spec).toEqual({ podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'] })
    const c: O = { spec: { podCIDRs: ['10.1.0.0/24', 'fd00::/64'] } }
    prepareNode(c, {}, () => false)
    expect(c.spec.podCIDR).toBe('10.1.0.0/24')
  })
  test('on create: the not-ready NoSchedule taint once (plugin/pkg/admission/nodetaint), configSource dropped', () => {
    const n: O = { spec: { configSource: { configMap: {} } }, status: { config: {} } }
    prepareNode(n, undefined, () => false)
    expect(n).toEqual({ spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }, status: {} })
    const t: O = { spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', value: 'x' }] } }
    prepareNode(t, undefined, () => false)
    expect(t.spec.taints).toHaveLength(1)
  })
  test('on update: no taint added; configSource kept when the old node had one', () => {
    const n: O = { spec: { configSource: { configMap: {} } } }
    prepareNode(n, { spec: { configSource: {} } }, () => false)
    expect(n).toEqual({ spec: { configSource: { configMap: {} } } })
  })
})
