import { describe, expect, test } from 'vitest'
import { type O, fieldTypes as plainFieldTypes, texts, tweak } from '../support.js'

// apps/v1 ControllerRevision: kubernetes v1.37.2 pkg/apis/apps/validation/validation_test.go
// (TestValidateControllerRevision, TestValidateControllerRevisionUpdate: Go checks failure or success).

const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O) => (old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old)))
const revision = (extra: O = {}): O => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name: 'ss', namespace: 'default' },
  data: { spec: { replicas: 1 } },
  revision: 1,
  ...extra,
})

describe('validation_test.go TestValidateControllerRevision', () => {
  test('valid', () => expect(fieldTypes(revision())).toEqual([]))
  test('invalid name', () =>
    expect(fieldTypes(tweak(revision(), (x) => (x.metadata.name = '#$%%^')))).toEqual([
      'metadata.name FieldValueInvalid',
    ]))
  test('empty name', () =>
    expect(fieldTypes(tweak(revision(), (x) => (x.metadata.name = '')))).toEqual(['metadata.name FieldValueRequired']))
  test('no namespace', () =>
    expect(fieldTypes(tweak(revision(), (x) => delete x.metadata.namespace))).toEqual([
      'metadata.namespace FieldValueRequired',
    ]))
  test('negative revision', () =>
    expect(fieldTypes(revision({ revision: -1 }))).toEqual(['revision FieldValueInvalid']))
  test('no data', () =>
    expect(texts(tweak(revision(), (x) => delete x.data))).toEqual(['data: Required value: data is mandatory']))
  test('data not an object', () =>
    expect(texts(revision({ data: 'text' }))).toEqual(['data: Required value: data must be a valid JSON object']))
})

describe('validation_test.go TestValidateControllerRevisionUpdate', () => {
  const old = revision()
  test('valid', () =>
    expect(
      fieldTypes(
        tweak(old, (x) => (x.metadata.labels = { a: 'b' })),
        old,
      ),
    ).toEqual([]))
  test('invalid data update', () =>
    expect(fieldTypes(revision({ data: { spec: { replicas: 2 } } }), old)).toEqual(['data FieldValueInvalid']))
  test('invalid revision update (negative)', () =>
    expect(fieldTypes(revision({ revision: -1 }), old)).toEqual(['revision FieldValueInvalid']))
})
