import { describe, expect, test } from 'vitest'
import {
  dropLeaseDisabledFields,
  validateCoordinatedLeaseStrategy,
  validateLeaseSpec,
} from '../../../../src/builtin/validation/coordination/validation.js'
import { errorString, FieldPath } from '../../../../src/kube/field.js'
import { fieldTypes, type O, tweak } from '../support.js'

// coordination.k8s.io/v1 Lease: kubernetes v1.37.2 pkg/apis/coordination/validation/validation_test.go
// (TestValidateLease, TestValidateLeaseSpec, TestValidateLeaseSpecUpdate, TestValidateCoordinatedLeaseStrategy:
// Go checks failure or success; the paths and texts are validation.go's) and the strategy's drop of the
// CoordinatedLeaderElection fields (pkg/registry/coordination/lease/strategy.go).

const lease = (spec: O = {}): O => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'lease', namespace: 'default' },
  spec,
})
const FOO = FieldPath.of('foo')

describe('validation_test.go TestValidateLease', () => {
  test('an invalid name', () =>
    expect(fieldTypes(tweak(lease(), (x) => (x.metadata.name = 'invalidName++')))).toEqual([
      'metadata.name FieldValueInvalid',
    ]))
  test('no namespace', () =>
    expect(
      fieldTypes(tweak(lease(), (x) => delete x.metadata.namespace)).includes('metadata.namespace FieldValueRequired'),
    ).toBe(true))
})

describe('validation_test.go TestValidateLeaseSpec', () => {
  test('valid', () =>
    expect(
      validateLeaseSpec({ holderIdentity: 'holder', leaseDurationSeconds: 10, leaseTransitions: 1 }, FOO, 37),
    ).toEqual([]))
  test('valid with PreferredHolder', () =>
    expect(
      validateLeaseSpec(
        {
          holderIdentity: 'holder',
          leaseDurationSeconds: 10,
          strategy: 'OldestEmulationVersion',
          preferredHolder: 'x',
        },
        FOO,
        37,
      ),
    ).toEqual([]))
  test('a zero duration and negative transitions', () =>
    expect(validateLeaseSpec({ leaseDurationSeconds: 0, leaseTransitions: -1 }, FOO, 37).map(errorString)).toEqual([
      'foo.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'foo.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]))
  test('preferredHolder without strategy', () =>
    expect(validateLeaseSpec({ preferredHolder: 'holder2' }, FOO, 37).map(errorString)).toEqual([
      'foo.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
    ]))
  test('through the registry: a negative duration', () =>
    expect(fieldTypes(lease({ leaseDurationSeconds: -5 }))).toEqual(['spec.leaseDurationSeconds FieldValueInvalid']))
})

describe('validation_test.go TestValidateCoordinatedLeaseStrategy', () => {
  const cases: [string, boolean][] = [
    ['foobar', true],
    ['example.com/foobar/toomanyslashes', true],
    ['OldestEmulationVersion', false],
    ['example.com/foobar', false],
  ]
  for (const [s, fails] of cases)
    test(s, () => expect(validateCoordinatedLeaseStrategy(s, FOO, 37).length > 0).toBe(fails))
  test('the path repeats strategy', () =>
    expect(validateCoordinatedLeaseStrategy('foobar', FOO, 37).map(errorString)).toEqual([
      'foo.strategy: Unsupported value: "foobar": supported values: "OldestEmulationVersion"',
    ]))
})

describe('strategy.go: CoordinatedLeaderElection off drops strategy and preferredHolder', () => {
  test('on create', () => {
    const o: O = { spec: { holderIdentity: 'h', strategy: 'x', preferredHolder: 'p' } }
    dropLeaseDisabledFields(o, undefined, () => false)
    expect(o.spec).toEqual({ holderIdentity: 'h' })
  })
  test('kept on update when the old lease had them', () => {
    const o: O = { spec: { strategy: 'x', preferredHolder: 'p' } }
    dropLeaseDisabledFields(o, { spec: { strategy: 'y', preferredHolder: 'q' } }, () => false)
    expect(o.spec).toEqual({ strategy: 'x', preferredHolder: 'p' })
  })
})
