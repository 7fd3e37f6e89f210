import { describe, expect, it } from 'vitest'
import { validateDeprecationWarning } from '../../src/crd/definition/spec.js'
import { validateStoredVersions } from '../../src/crd/definition/stored-versions.js'
import { FieldPath } from '../../src/kube/field.js'
import { compare, invalid, invalidIndex, type Match } from './definition-go.js'

// Small tables of pkg/apis/apiextensions/validation/validation_test.go.

describe('validation_test.go TestValidateCustomResourceDefinitionStoredVersions', () => {
  const cases: [string, string[], string, string[], Match[]][] = [
    ['one version', ['v1'], 'v1', ['v1'], []],
    [
      'no stored version',
      ['v1'],
      'v1',
      [],
      [invalid('status', 'storedVersions').contains('Invalid value: []: must have at least one stored version')],
    ],
    ['many versions', ['v1alpha', 'v1beta1', 'v1'], 'v1', ['v1alpha', 'v1'], []],
    [
      'missing stored versions',
      ['v1beta1', 'v1'],
      'v1',
      ['v1alpha', 'v1beta1', 'v1'],
      [invalidIndex(0, 'status', 'storedVersions').contains('Invalid value: "v1alpha": missing from spec.versions')],
    ],
    [
      'missing storage versions',
      ['v1alpha', 'v1beta1', 'v1'],
      'v1',
      ['v1alpha', 'v1beta1'],
      [
        invalid('status', 'storedVersions').contains(
          'Invalid value: ["v1alpha","v1beta1"]: must have the storage version v1',
        ),
      ],
    ],
  ]
  for (const [name, versions, storage, stored, expected] of cases) {
    it(name, () => {
      const vs = versions.map((v) => (v === storage ? { name: v, storage: true } : { name: v }))
      const errs = validateStoredVersions(stored, vs, FieldPath.of('status', 'storedVersions'))
      expect(compare(expected, errs)).toEqual({ missing: [], unexpected: [] })
    })
  }
})

describe('validation_test.go Test_validateDeprecationWarning', () => {
  const NON_PRINTABLE = 'must only contain printable UTF-8 characters; non-printable character found at index 12'
  const cases: [string, boolean, string | undefined, string[]][] = [
    ['not deprecated, nil warning', false, undefined, []],
    ['not deprecated, empty warning', false, '', ['can only be set for deprecated versions']],
    ['not deprecated, set warning', false, 'foo', ['can only be set for deprecated versions']],
    ['utf-8', true, 'Iñtërnâtiônàlizætiøn,💝🐹🌇⛔', []],
    ['long warning', true, 'x'.repeat(256), []],
    ['too long warning', true, 'x'.repeat(257), ['must be <= 256 characters long']],
    ['newline', true, 'Test message\nfoo', [NON_PRINTABLE]],
    ['non-printable character', true, 'Test message\u0008', [NON_PRINTABLE]],
    ['null character', true, 'Test message\u0000', [NON_PRINTABLE]],
    // "non-utf-8": a JavaScript string cannot hold invalid UTF-8 (Go's JSON decoding replaces it too)
  ]
  for (const [name, deprecated, warning, want] of cases) {
    it(name, () => {
      expect(validateDeprecationWarning(deprecated, warning)).toEqual(want)
    })
  }
  it('the index is a byte offset', () => {
    expect(validateDeprecationWarning(true, 'ñ\u0007')).toEqual([
      'must only contain printable UTF-8 characters; non-printable character found at index 2',
    ])
  })
})
