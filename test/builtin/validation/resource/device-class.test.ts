import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts, tweak } from '../support.js'

// resource.k8s.io/v1 DeviceClass: kubernetes v1.37.2 pkg/apis/resource/validation/validation_deviceclass_test.go
// (TestValidateClass, TestValidateClassUpdate). Where a Go row marks an error MarkCoveredByDeclarative
// the text is the declarative rule's, as the 1.37.2 apiserver prints it (extendedResourceName's
// validate.ExtendedResourceName, the driver's k8s-long-name-caseless format).

const dc = (spec: O = {}, name = 'foo'): O => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name },
  spec,
})
const sel = (expression: string) => ({ cel: { expression } })
const cfg = (opaque: O | undefined) => (opaque === undefined ? {} : { opaque })

describe('validation_deviceclass_test.go TestValidateClass', () => {
  test('good-class', () => expect(fieldTypes(dc())).toEqual([]))
  test('bad-name', () => expect(fieldTypes(dc({}, '!@#$%^'))).toEqual(['metadata.name FieldValueInvalid']))
  test('good-extended-resource-name', () =>
    expect(fieldTypes(dc({ extendedResourceName: 'example.com/gpu' }))).toEqual([]))
  test('bad-extended-resource-name (the declarative text)', () =>
    expect(texts(dc({ extendedResourceName: 'example.com' }))).toEqual([
      'spec.extendedResourceName: Invalid value: "example.com": a name must be a domain-prefixed path, such as \'example.com/my-prop\'',
    ]))
  test('selectors', () => {
    const selectors = [sel('true'), {}, sel('noSuchVar')]
    while (selectors.length < 32) selectors.push(sel('true'))
    expect(texts(dc({ selectors }))).toEqual([
      'spec.selectors[1].cel: Required value',
      "spec.selectors[2].cel.expression: Invalid value: \"noSuchVar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n | noSuchVar\n | ^",
    ])
  })
  test('too-many-selectors', () =>
    expect(texts(dc({ selectors: Array.from({ length: 33 }, () => sel('true')) }))).toEqual([
      'spec.selectors: Too many: 33: must have at most 32 items',
    ]))
  test('configuration', () => {
    const good = cfg({ driver: 'foo', parameters: { foo: 42 } })
    // kubectl sends compact JSON: {"str":"…"} is 10 bytes around the string (Go's row has a space: 11)
    const config = [
      good,
      cfg({}),
      cfg({ driver: 'foo', parameters: 'hello-world' }),
      cfg(undefined),
      cfg({ driver: 'foo', parameters: { str: 'x'.repeat(10 * 1024 - 10) } }),
      cfg({ driver: 'foo', parameters: { str: 'x'.repeat(10 * 1024 - 10 + 1) } }),
    ]
    expect(fieldTypes(dc({ config }))).toEqual([
      'spec.config[1].opaque.parameters FieldValueRequired',
      'spec.config[2].opaque.parameters FieldValueInvalid',
      'spec.config[3].opaque FieldValueRequired',
      'spec.config[5].opaque.parameters FieldValueTooLong',
      // the declarative driver rule, after the handwritten errors
      'spec.config[1].opaque.driver FieldValueRequired',
    ])
  })
  test('too-many-configs', () =>
    expect(
      fieldTypes(dc({ config: Array.from({ length: 33 }, () => cfg({ driver: 'foo', parameters: {} })) })),
    ).toEqual(['spec.config FieldValueTooMany']))
  test('driver name: k8s-long-name-caseless and maxLength 63 (apiserver text)', () =>
    expect(texts(dc({ config: [cfg({ driver: 'Bad_Driver', parameters: {} })] }))).toEqual([
      "spec.config[0].opaque.driver: Invalid value: \"Bad_Driver\": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]))
})

describe('validation_deviceclass_test.go TestValidateClassUpdate', () => {
  const old = tweak(dc({ selectors: [sel('true')] }), (c) => (c.metadata.resourceVersion = '1'))
  test('valid-no-op-update', () => expect(fieldTypes(old, old)).toEqual([]))
  test('update with a bad selector', () =>
    expect(
      fieldTypes(
        tweak(old, (c) => (c.spec.selectors = [sel('1')])),
        old,
      ),
    ).toEqual(['spec.selectors[0].cel.expression FieldValueInvalid']))
})
