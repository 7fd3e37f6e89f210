import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts } from '../support.js'

// core/v1 Namespace and ServiceAccount: kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go
// TestValidateNamespace, TestValidateNamespaceUpdate, through the registry's validator (the
// strategy runs ValidateNamespace then ValidateNamespaceUpdate, after PrepareForCreate /
// PrepareForUpdate).

const ns = (metadata: O, spec?: O): O => ({ apiVersion: 'v1', kind: 'Namespace', metadata, ...(spec ? { spec } : {}) })

describe('validation_test.go TestValidateNamespace', () => {
  const cases: [string, O, string[]][] = [
    ['success: labels', ns({ name: 'abc', labels: { a: 'b' } }), []],
    [
      'success: qualified finalizers',
      ns({ name: 'abc-123' }, { finalizers: ['example.com/something', 'example.com/other'] }),
      [],
    ],
    ['zero-length name', ns({ name: '' }), ['metadata.name FieldValueRequired']],
    [
      'defined-namespace',
      ns({ name: 'abc-123', namespace: 'makesnosense' }),
      ['metadata.namespace FieldValueForbidden'],
    ],
    [
      'invalid-labels',
      ns({ name: 'abc', labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' } }),
      ['metadata.labels FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('a name with a dot (DNS-1123 label)', () =>
    expect(texts(ns({ name: 'a.b' }))).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']))
  test('finalizers', () =>
    expect(texts(ns({ name: 'abc' }, { finalizers: ['custom', 'a/b/c'] }))).toEqual([
      'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      `spec.finalizers: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]))
})

describe('validation_test.go TestValidateNamespaceUpdate', () => {
  const rv = (m: O) => ({ ...m, resourceVersion: '1' })
  const cases: [O, O, string[]][] = [
    // Go calls ValidateNamespaceUpdate alone on two empty namespaces; the strategy also runs
    // ValidateNamespace, whose name is required
    [ns(rv({})), ns(rv({})), ['metadata.name FieldValueRequired']],
    [ns(rv({ name: 'foo1' })), ns(rv({ name: 'bar1' })), ['metadata.name FieldValueInvalid']],
    [ns(rv({ name: 'foo2', labels: { foo: 'bar' } })), ns(rv({ name: 'foo2', labels: { foo: 'baz' } })), []],
    [ns(rv({ name: 'foo3' })), ns(rv({ name: 'foo3', labels: { foo: 'baz' } })), []],
    [ns(rv({ name: 'foo4', labels: { bar: 'foo' } })), ns(rv({ name: 'foo4', labels: { foo: 'baz' } })), []],
    [ns(rv({ name: 'foo5', labels: { foo: 'baz' } })), ns(rv({ name: 'foo5', labels: { Foo: 'baz' } })), []],
    [
      ns(rv({ name: 'foo6', labels: { foo: 'baz' } })),
      {
        ...ns(rv({ name: 'foo6', labels: { Foo: 'baz' } }), { finalizers: ['kubernetes'] }),
        status: { phase: 'Terminating' },
      },
      [],
    ],
  ]
  cases.forEach(([old, n, want], i) => {
    test(`case ${i}`, () => expect(fieldTypes(n, old)).toEqual(want))
  })
  test('spec.finalizers are kept from the old object on update', () =>
    expect(fieldTypes(ns(rv({ name: 'x' }), { finalizers: ['bad'] }), ns(rv({ name: 'x' })))).toEqual([]))
})

describe('ServiceAccount (ValidateServiceAccount: DNS subdomain names, namespaced)', () => {
  const sa = (metadata: O): O => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata })
  test('valid', () => expect(fieldTypes(sa({ name: 'a.b', namespace: 'default' }))).toEqual([]))
  test('invalid name', () =>
    expect(fieldTypes(sa({ name: 'A_b', namespace: 'default' }))).toEqual(['metadata.name FieldValueInvalid']))
  test('no namespace', () => expect(fieldTypes(sa({ name: 'a' }))).toEqual(['metadata.namespace FieldValueRequired']))
  test('update: name immutable', () =>
    expect(
      fieldTypes(
        sa({ name: 'b', namespace: 'd', resourceVersion: '1' }),
        sa({ name: 'a', namespace: 'd', resourceVersion: '1' }),
      ),
    ).toEqual(['metadata.name FieldValueInvalid']))
})
