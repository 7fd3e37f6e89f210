import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts, tweak } from '../support.js'

// policy/v1 PodDisruptionBudget: kubernetes v1.37.2 pkg/apis/policy/validation/validation_test.go
// TestValidatePodDisruptionBudgetSpec, TestValidateMinAvailablePodDisruptionBudgetSpec,
// TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec,
// TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec (Go checks failure / success; the paths
// and types are validation.go's). scheduling.k8s.io/v1 PriorityClass:
// pkg/apis/scheduling/validation/validation_test.go TestValidatePriorityClass, TestValidatePriorityClassUpdate.

const pdb = (spec: O): O => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'pdb', namespace: 'ns' },
  spec,
})

describe('validation_test.go TestValidatePodDisruptionBudgetSpec', () => {
  test('minAvailable and maxUnavailable both set', () => {
    expect(fieldTypes(pdb({ minAvailable: '0%', maxUnavailable: '10%' }))).toEqual(['spec FieldValueInvalid'])
    expect(texts(pdb({ minAvailable: '0%', maxUnavailable: '10%' }))).toEqual([
      'spec: Invalid value: {"MinAvailable":"0%","Selector":null,"MaxUnavailable":"10%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
    ])
  })
})

describe('validation_test.go TestValidateMinAvailablePodDisruptionBudgetSpec', () => {
  for (const v of ['0%', '1%', '100%', 0, 1, 100])
    test(`success ${JSON.stringify(v)}`, () => expect(fieldTypes(pdb({ minAvailable: v }))).toEqual([]))
  for (const v of ['1.1%', 'nope', '-1%', '101%', -1])
    test(`failure ${JSON.stringify(v)}`, () =>
      expect(fieldTypes(pdb({ minAvailable: v }))).toEqual(['spec.minAvailable FieldValueInvalid']))
  test('texts', () => {
    expect(texts(pdb({ minAvailable: '101%' }))).toEqual([
      'spec.minAvailable: Invalid value: "101%": must not be greater than 100%',
    ])
    expect(texts(pdb({ minAvailable: -1 }))).toEqual([
      'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0',
    ])
  })
})

describe('validation_test.go TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec', () => {
  test('10% and 1', () =>
    expect(fieldTypes(pdb({ minAvailable: '10%', maxUnavailable: 1 }))).toEqual(['spec FieldValueInvalid']))
})

describe('validation_test.go TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec', () => {
  const cases: [string, O, string[]][] = [
    ['valid nil UnhealthyPodEvictionPolicy', { minAvailable: '10%' }, []],
    ['valid UnhealthyPodEvictionPolicy', { minAvailable: '10%', unhealthyPodEvictionPolicy: 'AlwaysAllow' }, []],
    [
      'empty UnhealthyPodEvictionPolicy',
      { minAvailable: '10%', unhealthyPodEvictionPolicy: '' },
      ['spec.unhealthyPodEvictionPolicy FieldValueNotSupported'],
    ],
    [
      'invalid UnhealthyPodEvictionPolicy',
      { minAvailable: '10%', unhealthyPodEvictionPolicy: 'Invalid' },
      ['spec.unhealthyPodEvictionPolicy FieldValueNotSupported'],
    ],
  ]
  for (const [name, spec, want] of cases) test(name, () => expect(fieldTypes(pdb(spec))).toEqual(want))
  test('selector errors, and an old invalid label value allowed on update', () => {
    const bad = pdb({
      minAvailable: 1,
      selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['-x-'] }] },
    })
    expect(fieldTypes(bad)).toEqual(['spec.selector.matchExpressions[0].values[0] FieldValueInvalid'])
    const old = tweak(bad, (x) => (x.metadata.resourceVersion = '1'))
    expect(fieldTypes(old, old)).toEqual([])
  })
})

const pc = (name: string, value: number | undefined, extra: O = {}): O => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name, ...(extra.namespace ? { namespace: extra.namespace } : {}) },
  ...(value !== undefined ? { value } : {}),
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'namespace')),
})

describe('validation_test.go TestValidatePriorityClass', () => {
  const ok: [string, O][] = [
    ['no description', pc('tier1', 100)],
    [
      'with description',
      pc('tier1', 200, { globalDefault: false, description: 'Used for the highest priority pods.' }),
    ],
    ['system node critical', pc('system-node-critical', 2000001000, { description: 'system priority class 0' })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['with namespace', pc('tier1', 100, { namespace: 'foo' }), ['metadata.namespace FieldValueForbidden']],
    ['invalid name', pc('tier&1', 100), ['metadata.name FieldValueInvalid']],
    ['incorrect system class name', pc('system-node-critical', 0), ['metadata.name FieldValueForbidden']],
    ['incorrect system class value', pc('system-something', 2000001000), ['metadata.name FieldValueForbidden']],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('texts', () => {
    expect(texts(pc('system-node-critical', 0))).toEqual([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
    ])
    expect(texts(pc('tier1', 1000000001))).toEqual([
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    ])
    expect(texts(pc('tier1', 1, { preemptionPolicy: 'Sometimes' }))).toEqual([
      'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ])
  })
})

describe('validation_test.go TestValidatePriorityClassUpdate', () => {
  const old = tweak(
    pc('tier1', 100, { preemptionPolicy: 'PreemptLowerPriority' }),
    (x) => (x.metadata.resourceVersion = '1'),
  )
  const n = (name: string, value: number | undefined, extra: O = {}) =>
    tweak(
      pc(name, value, { preemptionPolicy: 'PreemptLowerPriority', ...extra }),
      (x) => (x.metadata.resourceVersion = '2'),
    )
  const ok: [string, O][] = [
    ['no change', n('tier1', 100, { description: 'Used for the highest priority pods.' })],
    ['change description', n('tier1', 100, { description: 'A different description.' })],
    ['remove description', n('tier1', 100)],
    ['change globalDefault', n('tier1', 100, { globalDefault: true })],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o, old)).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['add namespace', n('tier1', 100, { namespace: 'foo' }), ['metadata.namespace FieldValueInvalid']],
    ['change name', n('tier2', 100), ['metadata.name FieldValueInvalid']],
    ['remove value', n('tier1', undefined), ['value FieldValueForbidden']],
    ['change value', n('tier1', 101), ['value FieldValueForbidden']],
    ['change preemptionPolicy', n('tier1', 100, { preemptionPolicy: 'Never' }), ['preemptionPolicy FieldValueInvalid']],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o, old)).toEqual(want))
})
