import { describe, expect, test } from 'vitest'
import { type O, fieldTypes as plainFieldTypes, texts, tweak } from '../support.js'

// node.k8s.io/v1 RuntimeClass: kubernetes v1.37.2 pkg/apis/node/validation/validation_test.go
// (TestValidateRuntimeClass, TestValidateRuntimeUpdate, TestValidateOverhead, TestValidateScheduling: Go
// checks failure, success or the error count), the order and texts as the real apiserver v1.37.2 printed
// them (handler's declarative errors last).

const rc = (extra: O = {}, name = 'foo'): O => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name },
  handler: 'bar-baz',
  ...extra,
})
const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O) => (old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old)))

describe('validation_test.go TestValidateRuntimeClass', () => {
  test('invalid name', () => expect(fieldTypes(rc({}, '&!@#'))).toEqual(['metadata.name FieldValueInvalid']))
  test('invalid Handler name', () => expect(fieldTypes(rc({ handler: '&@#$' }))).toEqual(['handler FieldValueInvalid']))
  test('invalid empty RuntimeClass', () =>
    expect(fieldTypes(rc({ handler: '' }))).toEqual(['handler FieldValueRequired']))
  test('valid Handler', () => expect(fieldTypes(rc())).toEqual([]))
})

describe('validation_test.go TestValidateRuntimeUpdate', () => {
  const old = rc({ handler: 'bar' })
  test('valid metadata update', () =>
    expect(
      fieldTypes(
        tweak(old, (x) => (x.metadata.labels = { foo: 'bar' })),
        old,
      ),
    ).toEqual([]))
  test('invalid metadata update', () =>
    expect(
      fieldTypes(
        tweak(old, (x) => (x.metadata.name = 'somethingelse')),
        old,
      ),
    ).toEqual(['metadata.name FieldValueInvalid']))
  test('invalid Handler update (declarative: a null value)', () =>
    expect(texts(rv(rc({ handler: 'somethingelse' })), rv(old))).toEqual([
      'handler: Invalid value: null: field is immutable',
    ]))
})

describe('validation_test.go TestValidateOverhead', () => {
  test('valid overhead', () =>
    expect(fieldTypes(rc({ overhead: { podFixed: { cpu: '10', memory: '10G' } } }))).toEqual([]))
  test('invalid overhead resources', () =>
    expect(fieldTypes(rc({ overhead: { podFixed: { cpu: '-10' } } }))).toEqual([
      'overhead.limits[cpu] FieldValueInvalid',
    ]))
})

describe('validation_test.go TestValidateScheduling', () => {
  const sched = (s: O) => rc({ scheduling: s })
  test('valid scheduling', () =>
    expect(
      fieldTypes(
        sched({
          nodeSelector: { valid: 'yes' },
          tolerations: [{ key: 'valid', operator: 'Exists', effect: 'NoSchedule' }],
        }),
      ),
    ).toEqual([]))
  test('empty scheduling', () => expect(fieldTypes(sched({}))).toEqual([]))
  test('invalid nodeSelector', () =>
    expect(fieldTypes(sched({ nodeSelector: { 'not a valid key!!!': 'nope' } }))).toHaveLength(1))
  test('invalid toleration', () =>
    expect(
      fieldTypes(
        sched({
          tolerations: [
            { key: 'valid', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'not a valid key!!!', operator: 'Exists', effect: 'NoSchedule' },
          ],
        }),
      ),
    ).toHaveLength(1))
  test('duplicate tolerations (tolerationSeconds not part of the key)', () =>
    expect(
      texts(
        sched({
          tolerations: [
            { key: 'valid', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
            { key: 'valid', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
          ],
        }),
      ),
    ).toEqual([
      'scheduling.tolerations[1]: Duplicate value: {"Key":"valid","Operator":"Exists","Value":"","Effect":"NoExecute","TolerationSeconds":10}',
    ]))
  test('the handler errors come last (the real apiserver)', () =>
    expect(fieldTypes(rc({ handler: 'Bad_Handler', overhead: { podFixed: { cpu: '-1' } } }))).toEqual([
      'overhead.limits[cpu] FieldValueInvalid',
      'handler FieldValueInvalid',
    ]))
})
