import { describe, expect, it } from 'vitest'
import {
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyBindingUpdate,
} from '../../../../src/builtin/validation/admissionregistration/index.js'
import type {
  NamedRuleWithOperations,
  ValidatingAdmissionPolicyBinding,
} from '../../../../src/kube/admissionregistration/types.js'
import { aggregateString, errorString, type FieldError } from '../../../../src/kube/field.js'

// Transcribed from kubernetes pkg/apis/admissionregistration/validation/validation_test.go:
// TestValidateValidatingAdmissionPolicyBinding and TestValidateValidatingAdmissionPolicyBindingUpdate
// (internal Go objects written as the v1 JSON they stand for; an expected text must occur in the
// aggregate of all errors, "" means none). List bad values print as JSON (current apimachinery).

function expectErrors(errs: FieldError[], expected: string) {
  if (expected === '') expect(errs.map(errorString)).toEqual([])
  else expect(aggregateString(errs)).toContain(expected)
}

const rule = (operations: string[] | undefined, resources = ['a']): NamedRuleWithOperations => ({
  ...(operations === undefined ? {} : { operations }),
  apiGroups: ['a'],
  apiVersions: ['a'],
  resources,
})
const selector = { matchLabels: { a: 'b' } }
const fullMatch = (rules: NamedRuleWithOperations[]) => ({
  namespaceSelector: selector,
  objectSelector: selector,
  matchPolicy: 'Exact',
  resourceRules: rules,
})
const paramRef = { name: 'xyzlimit-scale-setting.example.com', parameterNotFoundAction: 'Deny' }
const binding = (
  spec: ValidatingAdmissionPolicyBinding['spec'],
  name = 'config',
): ValidatingAdmissionPolicyBinding => ({
  metadata: { name },
  ...(spec === undefined ? {} : { spec }),
})
const withRules = (rules: NamedRuleWithOperations[], deny = true) =>
  binding({
    policyName: 'xyzlimit-scale.example.com',
    paramRef,
    ...(deny ? { validationActions: ['Deny'] } : {}),
    matchResources: { resourceRules: rules },
  })

describe('validation_test.go TestValidateValidatingAdmissionPolicyBinding', () => {
  const cases: [string, ValidatingAdmissionPolicyBinding, string][] = [
    ['metadata.name validation', binding(undefined, '!!!!'), 'metadata.name: Invalid value: "!!!!":'],
    ['PolicyName is required', binding({}), 'spec.policyName: Required value'],
    [
      'matchResources validation: matchPolicy',
      binding({ policyName: 'xyzlimit-scale.example.com', paramRef, matchResources: { matchPolicy: 'other' } }),
      'spec.matchResources.matchPolicy: Unsupported value: "other": supported values: "Equivalent", "Exact"',
    ],
    [
      'Operations must not be empty or nil',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        paramRef,
        matchResources: {
          resourceRules: [rule([]), rule(undefined)],
          excludeResourceRules: [rule([]), rule(undefined)],
        },
      }),
      'spec.matchResources.resourceRules[0].operations: Required value, spec.matchResources.resourceRules[1].operations: Required value, spec.matchResources.excludeResourceRules[0].operations: Required value, spec.matchResources.excludeResourceRules[1].operations: Required value',
    ],
    ['"" is NOT a valid operation', withRules([rule(['CREATE', ''])], false), 'Unsupported value: ""'],
    [
      'operation must be either create/update/delete/connect',
      withRules([rule(['PATCH'])], false),
      'Unsupported value: "PATCH"',
    ],
    [
      'wildcard operation cannot be mixed with other strings',
      withRules([rule(['CREATE', '*'])]),
      "if '*' is present, must not specify other operations",
    ],
    [
      'resource "*" can co-exist with resources that have subresources',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        paramRef,
        validationActions: ['Deny'],
        matchResources: fullMatch([rule(['CREATE'], ['*', 'a/b', 'a/*', '*/b'])]),
      }),
      '',
    ],
    [
      `resource "*" cannot mix with resources that don't have subresources`,
      withRules([rule(['CREATE'], ['*', 'a'])]),
      "if '*' is present, must not specify other resources without subresources",
    ],
    [
      'resource a/* cannot mix with a/x',
      withRules([rule(['CREATE'], ['a/*', 'a/x'])]),
      `spec.matchResources.resourceRules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x`,
    ],
    [
      'resource a/* can mix with a',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        paramRef,
        validationActions: ['Deny'],
        matchResources: fullMatch([rule(['CREATE'], ['a/*', 'a'])]),
      }),
      '',
    ],
    [
      'resource */a cannot mix with x/a',
      withRules([rule(['CREATE'], ['*/a', 'x/a'])]),
      `spec.matchResources.resourceRules[0].resources[1]: Invalid value: "x/a": if '*/a' is present, must not specify x/a`,
    ],
    [
      'resource */* cannot mix with other resources',
      withRules([rule(['CREATE'], ['*/*', 'a'])]),
      `spec.matchResources.resourceRules[0].resources: Invalid value: ["*/*","a"]: if '*/*' is present, must not specify other resources`,
    ],
    [
      'validationActions must be unique',
      binding({ policyName: 'xyzlimit-scale.example.com', paramRef, validationActions: ['Deny', 'Deny'] }),
      'spec.validationActions[1]: Duplicate value: "Deny"',
    ],
    [
      'validationActions must contain supported values',
      binding({ policyName: 'xyzlimit-scale.example.com', paramRef, validationActions: ['illegal'] }),
      'Unsupported value: "illegal": supported values: "Audit", "Deny", "Warn"',
    ],
    [
      'paramRef selector must not be set when name is set',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        validationActions: ['Deny'],
        paramRef: {
          name: 'xyzlimit-scale-setting.example.com',
          selector: { matchLabels: { label: 'value' } },
          parameterNotFoundAction: 'Deny',
        },
      }),
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive, spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    ],
    [
      'paramRef parameterNotFoundAction must be set',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        validationActions: ['Deny'],
        paramRef: { name: 'xyzlimit-scale-setting.example.com' },
      }),
      'spec.paramRef.parameterNotFoundAction: Required value',
    ],
    [
      'paramRef parameterNotFoundAction must be an valid value',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        validationActions: ['Deny'],
        paramRef: { name: 'xyzlimit-scale-setting.example.com', parameterNotFoundAction: 'invalid' },
      }),
      'spec.paramRef.parameterNotFoundAction: Unsupported value: "invalid": supported values: "Deny", "Allow"',
    ],
    [
      'paramRef one of name or selector',
      binding({
        policyName: 'xyzlimit-scale.example.com',
        validationActions: ['Deny'],
        paramRef: { parameterNotFoundAction: 'Deny' },
      }),
      'one of name or selector must be specified',
    ],
  ]
  for (const [name, b, expected] of cases)
    it(name, () => expectErrors(validateValidatingAdmissionPolicyBinding(b), expected))
})

describe('validation_test.go TestValidateValidatingAdmissionPolicyBindingUpdate', () => {
  const valid = binding({
    policyName: 'xyzlimit-scale.example.com',
    paramRef,
    validationActions: ['Deny'],
    matchResources: fullMatch([rule(['CREATE'])]),
  })
  it('should pass on valid new ValidatingAdmissionPolicyBinding', () =>
    expectErrors(validateValidatingAdmissionPolicyBindingUpdate(valid, valid), ''))
  it('should pass on valid new ValidatingAdmissionPolicyBinding with invalid old ValidatingAdmissionPolicyBinding', () =>
    expectErrors(validateValidatingAdmissionPolicyBindingUpdate(valid, binding({}, '!!!')), ''))
})

describe('validateValidationActions (validation.go)', () => {
  const b = (validationActions: string[] | undefined) =>
    binding({ policyName: 'p', ...(validationActions ? { validationActions } : {}) })
  const texts = (x: ValidatingAdmissionPolicyBinding) => validateValidatingAdmissionPolicyBinding(x).map(errorString)
  it('Deny together with Warn is invalid', () =>
    expect(texts(b(['Deny', 'Warn']))).toEqual([
      'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]))
  it('at least one action is required', () =>
    expect(texts(b(undefined))).toEqual([
      'spec.validationActions: Required value: at least one validation action is required',
    ]))
  it('Warn with Audit is valid', () => expect(texts(b(['Warn', 'Audit']))).toEqual([]))
  it('an unsupported duplicate is reported twice', () =>
    expect(texts(b(['x', 'x']))).toEqual([
      'spec.validationActions[0]: Unsupported value: "x": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions[1]: Unsupported value: "x": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions[1]: Duplicate value: "x"',
    ]))
  it('policyName must be a DNS subdomain', () =>
    expect(texts(binding({ policyName: 'Bad_Name', validationActions: ['Deny'] }))).toEqual([
      `spec.policyName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]))
  it('paramRef name is a path segment; selector validated strictly', () =>
    expect(
      texts(
        binding({
          policyName: 'p',
          validationActions: ['Deny'],
          paramRef: { name: 'a/b', parameterNotFoundAction: 'Allow' },
        }),
      ),
    ).toEqual([`spec.paramRef.name: Invalid value: "a/b": may not contain '/'`]))
})
