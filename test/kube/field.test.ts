import { describe, expect, it } from 'vitest'
import { compareKubeAwareVersionStrings } from '../../src/kube/api-version.js'
import {
  ErrorType,
  errorString,
  type FieldError,
  FieldPath,
  field,
  GoStruct,
  kubectlInvalidText,
  newInvalid,
  OMIT,
  withReleaseValues,
} from '../../src/kube/field.js'

const at = 'path.to.field'
const raw = (type: ErrorType, badValue: unknown, detail = 'the details'): FieldError => ({
  type,
  field: at,
  badValue,
  detail,
})
const p = FieldPath.of(at)

// apimachinery pkg/util/validation/field/errors_test.go TestErrorFormatting
describe('apimachinery field/errors_test.go TestErrorFormatting', () => {
  const cases: [string, FieldError, string][] = [
    ['required', raw(ErrorType.Required, 'the value'), `${at}: Required value: the details`],
    ['required func', field.required(p, 'the details'), `${at}: Required value: the details`],
    ['forbidden', raw(ErrorType.Forbidden, 'the value'), `${at}: Forbidden: the details`],
    ['forbidden func', field.forbidden(p, 'the details'), `${at}: Forbidden: the details`],
    ['too long', raw(ErrorType.TooLong, 'the value'), `${at}: Too long: the details`],
    ['too long func(1)', field.tooLong(p, 1), `${at}: Too long: may not be more than 1 byte`],
    ['too long func(2)', field.tooLong(p, 2), `${at}: Too long: may not be more than 2 bytes`],
    ['too long func(-1)', field.tooLong(p, -1), `${at}: Too long: value is too long`],
    ['too many', raw(ErrorType.TooMany, 'the value'), `${at}: Too many: "the value": the details`],
    ['too many func(2, 1)', field.tooMany(p, 2, 1), `${at}: Too many: 2: must have at most 1 item`],
    ['too many func(3, 2)', field.tooMany(p, 3, 2), `${at}: Too many: 3: must have at most 2 items`],
    ['too many func(2, -1)', field.tooMany(p, 2, -1), `${at}: Too many: 2: has too many items`],
    ['too many func(-1, 1)', field.tooMany(p, -1, 1), `${at}: Too many: must have at most 1 item`],
    ['internal error', raw(ErrorType.Internal, 'the value'), `${at}: Internal error: the details`],
    ['internal error func', field.internal(p, 'the error'), `${at}: Internal error: the error`],
    ['invalid string', raw(ErrorType.Invalid, 'the value'), `${at}: Invalid value: "the value": the details`],
    ['invalid int', raw(ErrorType.Invalid, -42), `${at}: Invalid value: -42: the details`],
    ['invalid bool', raw(ErrorType.Invalid, true), `${at}: Invalid value: true: the details`],
    [
      'invalid struct',
      raw(
        ErrorType.Invalid,
        new GoStruct([
          ['stringField', 'stringval'],
          ['intField', 9376],
          ['boolField', true],
        ]),
      ),
      `${at}: Invalid value: {"stringField":"stringval","intField":9376,"boolField":true}: the details`,
    ],
    [
      'invalid list',
      raw(ErrorType.Invalid, ['one', 'two', 'three']),
      `${at}: Invalid value: ["one","two","three"]: the details`,
    ],
    [
      'invalid map',
      raw(ErrorType.Invalid, { one: 1, two: 2, three: 3 }),
      `${at}: Invalid value: {"one":1,"three":3,"two":2}: the details`,
    ],
    ['invalid omitValue', raw(ErrorType.Invalid, OMIT), `${at}: Invalid value: the details`],
    ['invalid untyped nil', raw(ErrorType.Invalid, null), `${at}: Invalid value: null: the details`],
    ['invalid func', field.invalid(p, 'the value', 'the details'), `${at}: Invalid value: "the value": the details`],
    ['not found', raw(ErrorType.NotFound, 'the value'), `${at}: Not found: "the value": the details`],
    ['not supported', raw(ErrorType.NotSupported, 'the value'), `${at}: Unsupported value: "the value": the details`],
    [
      'not supported func',
      field.notSupported(p, 'the value', ['val1', 'val2']),
      `${at}: Unsupported value: "the value": supported values: "val1", "val2"`,
    ],
    ['duplicate', raw(ErrorType.Duplicate, 'the value'), `${at}: Duplicate value: "the value": the details`],
    ['duplicate func', field.duplicate(p, 'the value'), `${at}: Duplicate value: "the value"`],
    ['type invalid', raw(ErrorType.TypeInvalid, 'the value'), `${at}: Invalid value: "the value": the details`],
    [
      'type invalid func',
      field.typeInvalid(p, 'the value', 'the details'),
      `${at}: Invalid value: "the value": the details`,
    ],
  ]
  it.each(cases)('%s', (_name, e, expected) => {
    expect(errorString(e)).toBe(expected)
  })
})

// Bad values up to Kubernetes 1.33: release-1.33 errors.go ErrorBody printed nil as the string "null"
// and composite values with Go's %#v; kubernetes#132314 (first in 1.34) prints them as JSON. The
// expected texts are the outputs of apimachinery's own field package, run at release-1.33 and at
// release-1.34 (a Go program calling field.Invalid / Duplicate / NotSupported / TypeInvalid with the
// same values and printing Error()). release-1.33 errors_test.go TestErrorUsefulMessage:
// `Invalid(nil, nil, "").Error()` must contain "null".
describe('field.Error bad values by release (apimachinery errors.go, kubernetes#132314)', () => {
  const q = FieldPath.of('spec', 'x')
  const blocking =
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'
  const cases: [string, FieldError, string, string][] = [
    [
      'nil',
      field.invalid(undefined, null, blocking),
      `<nil>: Invalid value: "null": ${blocking}`,
      `<nil>: Invalid value: null: ${blocking}`,
    ],
    [
      'map (a list-type map duplicate)',
      field.duplicate(q.index(1), { name: 'a' }),
      'spec.x[1]: Duplicate value: map[string]interface {}{"name":"a"}',
      'spec.x[1]: Duplicate value: {"name":"a"}',
    ],
    [
      'empty map',
      field.duplicate(q.index(1), {}),
      'spec.x[1]: Duplicate value: map[string]interface {}{}',
      'spec.x[1]: Duplicate value: {}',
    ],
    [
      'nested map, list and nil',
      field.invalid(q, { b: 'x', a: 1, c: [true, 2.5, null] }, 'the details'),
      'spec.x: Invalid value: map[string]interface {}{"a":1, "b":"x", "c":[]interface {}{true, 2.5, interface {}(nil)}}: the details',
      'spec.x: Invalid value: {"a":1,"b":"x","c":[true,2.5,null]}: the details',
    ],
    [
      'list',
      field.invalid(q, ['one', 2, { k: 'v' }], 'the details'),
      'spec.x: Invalid value: []interface {}{"one", 2, map[string]interface {}{"k":"v"}}: the details',
      'spec.x: Invalid value: ["one",2,{"k":"v"}]: the details',
    ],
    [
      'unsupported map',
      field.notSupported(q, { a: 'b' }, ['x', 'y']),
      'spec.x: Unsupported value: map[string]interface {}{"a":"b"}: supported values: "x", "y"',
      'spec.x: Unsupported value: {"a":"b"}: supported values: "x", "y"',
    ],
    [
      'type invalid, empty list',
      field.typeInvalid(q, [], 'spec.x in body must be of type string'),
      'spec.x: Invalid value: []interface {}{}: spec.x in body must be of type string',
      'spec.x: Invalid value: []: spec.x in body must be of type string',
    ],
    ['int', field.invalid(q, -42, 'the details'), 'spec.x: Invalid value: -42: the details', ''],
    ['string', field.invalid(q, 'the value', 'the details'), 'spec.x: Invalid value: "the value": the details', ''],
  ]
  it.each(cases)('%s', (_name, e, release133, release134) => {
    expect(errorString(withReleaseValues([e], 33)[0] as FieldError)).toBe(release133)
    expect(errorString(withReleaseValues([e], 34)[0] as FieldError)).toBe(release134 || release133)
    expect(errorString(e)).toBe(release134 || release133)
  })
  it('release-1.33 TestErrorUsefulMessage: a nil bad value prints "null"', () => {
    expect(errorString(withReleaseValues([field.invalid(undefined, null, '')], 33)[0] as FieldError)).toContain('null')
  })
  it('the Status and kubectl text carry the release rendering', () => {
    const [e] = withReleaseValues([field.duplicate(q.index(1), { name: 'a' })], 32)
    const status = newInvalid('example.com', 'Widget', 'w', [e as FieldError])
    expect(status.details.causes[0]?.message).toBe('Duplicate value: map[string]interface {}{"name":"a"}')
    expect(kubectlInvalidText(status)).toBe(
      'The Widget "w" is invalid: spec.x[1]: Duplicate value: map[string]interface {}{"name":"a"}\n',
    )
  })
})

describe('apimachinery field/path.go String', () => {
  it('joins names with dots and subscripts in brackets', () => {
    expect(FieldPath.of('spec').child('containers').index(0).child('env').key('a.b').toString()).toBe(
      'spec.containers[0].env[a.b]',
    )
    expect(FieldPath.ofKey('3').child('x').toString()).toBe('[3].x')
  })
})

// apimachinery pkg/api/errors NewInvalid, and kubectl's checkErr / MultilineError for Invalid statuses
describe('apimachinery api/errors NewInvalid and kubectl printing', () => {
  const e1 = field.invalid(FieldPath.of('spec', 'replicas'), 12, 'must be ≤ 10')
  const e2 = field.required(FieldPath.of('spec', 'name'), 'name is required')
  it('one error: the message carries it alone', () => {
    const s = newInvalid('example.com', 'Widget', 'w1', [e1])
    expect(s.code).toBe(422)
    expect(s.reason).toBe('Invalid')
    expect(s.message).toBe('Widget.example.com "w1" is invalid: spec.replicas: Invalid value: 12: must be ≤ 10')
    expect(s.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: 12: must be ≤ 10', field: 'spec.replicas' },
    ])
    expect(kubectlInvalidText(s)).toBe('The Widget "w1" is invalid: spec.replicas: Invalid value: 12: must be ≤ 10\n')
  })
  it('several errors: a bracketed list, and one kubectl line each; duplicates dropped from the message', () => {
    const s = newInvalid('example.com', 'Widget', 'w1', [e1, e2, e1])
    expect(s.message).toBe(
      'Widget.example.com "w1" is invalid: [spec.replicas: Invalid value: 12: must be ≤ 10, spec.name: Required value: name is required]',
    )
    expect(kubectlInvalidText(newInvalid('example.com', 'Widget', 'w1', [e1, e2]))).toBe(
      'The Widget "w1" is invalid: \n* spec.replicas: Invalid value: 12: must be ≤ 10\n* spec.name: Required value: name is required\n',
    )
  })
  it('a core-group kind has no group suffix', () => {
    expect(newInvalid('', 'ConfigMap', 'c', [e2]).message).toBe(
      'ConfigMap "c" is invalid: spec.name: Required value: name is required',
    )
  })
})

describe('apimachinery pkg/version/helpers_test.go TestCompareKubeAwareVersionStrings', () => {
  const cases: [string, string, boolean][] = [
    ['v1', 'v2', false],
    ['v2', 'v1', true],
    ['v10', 'v2', true],
    ['v1', 'v2alpha1', true],
    ['v1', 'v2beta1', true],
    ['v1alpha2', 'v1alpha1', true],
    ['v1beta1', 'v2alpha3', true],
    ['v1alpha10', 'v1alpha2', true],
    ['v1beta10', 'v1beta2', true],
    ['foo', 'v1beta2', false],
    ['bar', 'foo', true],
    ['version1', 'version2', true],
    ['version1', 'version10', true],
  ]
  it.each(cases)('%s vs %s', (v1, v2, greater) => {
    expect(compareKubeAwareVersionStrings(v1, v2) > 0).toBe(greater)
  })
})
