import { describe, expect, it } from 'vitest'
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyUpdate,
} from '../../../../src/builtin/validation/admissionregistration/index.js'
import type {
  AuditAnnotation,
  MatchCondition,
  NamedRuleWithOperations,
  ValidatingAdmissionPolicy,
  Validation,
} from '../../../../src/kube/admissionregistration/types.js'
import { aggregateString, errorString, type FieldError } from '../../../../src/kube/field.js'
import { fakeCompile } from './fake-compile.js'

// Transcribed from kubernetes pkg/apis/admissionregistration/validation/validation_test.go:
// TestValidateValidatingAdmissionPolicy and TestValidateValidatingAdmissionPolicyUpdate. The Go
// objects are internal (not defaulted); here they are the v1 JSON they stand for. As in Go, an
// expected text must occur in the aggregate of all errors, and "" means no error at all. Compile
// errors come from a fake compiler (fake-compile.ts) that returns the texts cel-go would.
// Adapted expectations: list bad values print as JSON (current apimachinery field.Error), not Go's
// `[]string{…}`. Message texts as validation.go words them (the spec's F.1 and upstream, e.g.
// "name is not a valid CEL identifier", "message must not contain line breaks").

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
const objectX = [{ expression: 'object.x < 100' }]
const vap = (spec: ValidatingAdmissionPolicy['spec'], name = 'config'): ValidatingAdmissionPolicy => ({
  metadata: { name },
  ...(spec === undefined ? {} : { spec }),
})
const fullMatch = (rules: NamedRuleWithOperations[]) => ({
  namespaceSelector: selector,
  objectSelector: selector,
  matchPolicy: 'Exact',
  resourceRules: rules,
})

describe('validation_test.go TestValidateValidatingAdmissionPolicy', () => {
  const cases: [string, ValidatingAdmissionPolicy, string][] = [
    ['metadata.name validation', vap(undefined, '!!!!'), 'metadata.name: Invalid value: "!!!!":'],
    [
      'failure policy validation',
      vap({ failurePolicy: 'other', validations: objectX }),
      'spec.failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"',
    ],
    [
      'failure policy validation (no validations)',
      vap({ failurePolicy: 'other' }),
      'spec.failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"',
    ],
    [
      'API version is required in ParamKind',
      vap({ validations: objectX, paramKind: { kind: 'Example', apiVersion: 'test.example.com' } }),
      'spec.paramKind.apiVersion: Invalid value: "test.example.com"',
    ],
    [
      'API kind is required in ParamKind',
      vap({ validations: objectX, paramKind: { apiVersion: 'test.example.com/v1' } }),
      'spec.paramKind.kind: Required value',
    ],
    [
      'API version format in ParamKind',
      vap({ validations: objectX, paramKind: { kind: 'Example', apiVersion: 'test.example.com/!!!' } }),
      'pec.paramKind.apiVersion: Invalid value: "!!!":',
    ],
    [
      'API group format in ParamKind',
      vap({ validations: objectX, paramKind: { apiVersion: '!!!/v1', kind: 'ReplicaLimit' } }),
      'pec.paramKind.apiVersion: Invalid value: "!!!":',
    ],
    [
      'Validations is required',
      vap({}),
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    ],
    [
      'Invalid Validations Reason',
      vap({ validations: [{ expression: 'object.x < 100', reason: 'other' }] }),
      'spec.validations[0].reason: Unsupported value: "other"',
    ],
    ['MatchConstraints is required', vap({ validations: objectX }), 'spec.matchConstraints: Required value'],
    [
      'matchConstraints.resourceRules is required',
      vap({ validations: objectX, matchConstraints: {} }),
      'spec.matchConstraints.resourceRules: Required value',
    ],
    [
      'matchConstraints.resourceRules has at least one explicit rule',
      vap({ validations: objectX, matchConstraints: { resourceRules: [{ resourceNames: ['/./.'] }] } }),
      'spec.matchConstraints.resourceRules[0].apiVersions: Required value',
    ],
    [
      'expression is required',
      vap({ validations: [{}] }),
      'spec.validations[0].expression: Required value: expression is not specified',
    ],
    [
      'matchResources resourceNames check',
      vap({ validations: objectX, matchConstraints: { resourceRules: [{ resourceNames: ['/./.'] }] } }),
      'spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: "/./."',
    ],
    [
      'matchResources resourceNames cannot duplicate',
      vap({ validations: objectX, matchConstraints: { resourceRules: [{ resourceNames: ['test', 'test'] }] } }),
      'spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "test"',
    ],
    [
      'matchResources validation: matchPolicy',
      vap({ validations: objectX, matchConstraints: { matchPolicy: 'other' } }),
      'spec.matchConstraints.matchPolicy: Unsupported value: "other": supported values: "Equivalent", "Exact"',
    ],
    [
      'Operations must not be empty or nil',
      vap({
        validations: objectX,
        failurePolicy: 'Fail',
        matchConstraints: {
          ...fullMatch([rule([]), rule(undefined)]),
          excludeResourceRules: [rule([]), rule(undefined)],
        },
      }),
      'spec.matchConstraints.resourceRules[0].operations: Required value, spec.matchConstraints.resourceRules[1].operations: Required value, spec.matchConstraints.excludeResourceRules[0].operations: Required value, spec.matchConstraints.excludeResourceRules[1].operations: Required value',
    ],
    [
      '"" is NOT a valid operation',
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE', ''])] } }),
      'Unsupported value: ""',
    ],
    [
      'operation must be either create/update/delete/connect',
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['PATCH'])] } }),
      'Unsupported value: "PATCH"',
    ],
    [
      'wildcard operation cannot be mixed with other strings',
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE', '*'])] } }),
      "if '*' is present, must not specify other operations",
    ],
    [
      'resource "*" can co-exist with resources that have subresources',
      vap({
        failurePolicy: 'Fail',
        validations: objectX,
        matchConstraints: fullMatch([rule(['CREATE'], ['*', 'a/b', 'a/*', '*/b'])]),
      }),
      '',
    ],
    [
      `resource "*" cannot mix with resources that don't have subresources`,
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE'], ['*', 'a'])] } }),
      "if '*' is present, must not specify other resources without subresources",
    ],
    [
      'resource a/* cannot mix with a/x',
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE'], ['a/*', 'a/x'])] } }),
      `spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x`,
    ],
    [
      'resource a/* can mix with a',
      vap({
        failurePolicy: 'Fail',
        validations: objectX,
        matchConstraints: fullMatch([rule(['CREATE'], ['a/*', 'a'])]),
      }),
      '',
    ],
    [
      'resource */a cannot mix with x/a',
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE'], ['*/a', 'x/a'])] } }),
      `spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: "x/a": if '*/a' is present, must not specify x/a`,
    ],
    [
      'resource */* cannot mix with other resources',
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE'], ['*/*', 'a'])] } }),
      `spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*/*","a"]: if '*/*' is present, must not specify other resources`,
    ],
    [
      'invalid expression',
      vap({
        validations: [{ expression: 'object.x in [1, 2, ' }],
        matchConstraints: { resourceRules: [rule(['CREATE'], ['*/*'])] },
      }),
      `spec.validations[0].expression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:20: Syntax error: missing ']' at '<EOF>`,
    ],
    [
      'invalid messageExpression',
      vap({
        validations: [{ expression: 'true', messageExpression: 'object.x in [1, 2, ' }],
        matchConstraints: { resourceRules: [rule(['CREATE'], ['*/*'])] },
      }),
      `spec.validations[0].messageExpression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:20: Syntax error: missing ']' at '<EOF>`,
    ],
    [
      'messageExpression of wrong type',
      vap({
        validations: [{ expression: 'true', messageExpression: '0 == 0' }],
        matchConstraints: { resourceRules: [rule(['CREATE'], ['*/*'])] },
      }),
      'spec.validations[0].messageExpression: Invalid value: "0 == 0": must evaluate to string',
    ],
    [
      'invalid auditAnnotations key due to key name',
      vap({ auditAnnotations: [{ key: '@', valueExpression: 'value' }] }),
      'spec.auditAnnotations[0].key: Invalid value: "config/@": name part must consist of alphanumeric characters',
    ],
    [
      'auditAnnotations keys must be unique',
      vap({
        auditAnnotations: [
          { key: 'a', valueExpression: "'1'" },
          { key: 'a', valueExpression: "'2'" },
        ],
      }),
      'spec.auditAnnotations[1].key: Duplicate value: "a"',
    ],
    [
      'invalid auditAnnotations key due to metadata.name',
      vap({ auditAnnotations: [{ key: 'key', valueExpression: "'value'" }] }, 'nope!'),
      'spec.auditAnnotations[0].key: Invalid value: "nope!/key": prefix part a lowercase RFC 1123 subdomain',
    ],
    [
      'invalid auditAnnotations key due to length',
      vap(
        {
          auditAnnotations: [
            {
              key: 'this-is-a-long-name-for-an-audit-annotation-key-xxxxxxxxxxxxxxxxxxxxxxxxxx',
              valueExpression: "'value'",
            },
          ],
        },
        'this-is-a-long-name-for-a-admission-policy-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      ),
      'spec.auditAnnotations[0].key: Invalid value',
    ],
    [
      'invalid auditAnnotations valueExpression type',
      vap({ auditAnnotations: [{ key: 'something', valueExpression: 'true' }] }),
      'spec.auditAnnotations[0].valueExpression: Invalid value: "true": must evaluate to one of [string null_type]',
    ],
    [
      'invalid auditAnnotations valueExpression',
      vap({ auditAnnotations: [{ key: 'something', valueExpression: 'object.x in [1, 2, ' }] }),
      `spec.auditAnnotations[0].valueExpression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:19: Syntax error: missing ']' at '<EOF>`,
    ],
    [
      'single match condition must have a name',
      vap({ matchConditions: [{ expression: 'true' }], validations: objectX }),
      'spec.matchConditions[0].name: Required value',
    ],
    [
      'match condition with parameters allowed',
      vap({
        paramKind: { kind: 'Foo', apiVersion: 'foobar/v1alpha1' },
        matchConstraints: fullMatch([rule(['*'])]),
        failurePolicy: 'Fail',
        matchConditions: [{ name: 'hasParams', expression: 'params.foo == "okay"' }],
        validations: objectX,
      }),
      '',
    ],
    [
      'match condition with parameters not allowed if no param kind',
      vap({
        matchConstraints: fullMatch([rule(['*'])]),
        failurePolicy: 'Fail',
        matchConditions: [{ name: 'hasParams', expression: 'params.foo == "okay"' }],
        validations: objectX,
      }),
      "undeclared reference to 'params'",
    ],
    [
      'variable composition empty name',
      vap({ variables: [{ name: '    ', expression: 'true' }], validations: [{ expression: 'true' }] }),
      'spec.variables[0].name: Required value: name is not specified',
    ],
    [
      'variable composition name is not a valid identifier',
      vap({ variables: [{ name: '4ever', expression: 'true' }], validations: [{ expression: 'true' }] }),
      'spec.variables[0].name: Invalid value: "4ever": name is not a valid CEL identifier',
    ],
    [
      'variable composition cannot compile',
      vap({ variables: [{ name: 'foo', expression: "114 + '514'" }], validations: [{ expression: 'true' }] }),
      `spec.variables[0].expression: Invalid value: "114 + '514'": compilation failed: ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(int, string)`,
    ],
    [
      'validation referred to non-existing variable',
      vap({
        variables: [
          { name: 'foo', expression: '1 + 1' },
          { name: 'bar', expression: 'variables.foo + 1' },
        ],
        validations: [{ expression: 'variables.foo > 1' }, { expression: 'variables.replicas == 2' }],
      }),
      `spec.validations[1].expression: Invalid value: "variables.replicas == 2": compilation failed: ERROR: <input>:1:10: undefined field 'replicas'`,
    ],
    [
      'variables wrong order',
      vap({
        variables: [
          { name: 'correct', expression: 'object' },
          { name: 'bar', expression: 'variables.foo + 1' },
          { name: 'foo', expression: '1 + 1' },
        ],
        validations: [{ expression: 'variables.foo > 1' }],
      }),
      `spec.variables[1].expression: Invalid value: "variables.foo + 1": compilation failed: ERROR: <input>:1:10: undefined field 'foo'`,
    ],
  ]
  for (const [name, policy, expected] of cases)
    it(name, () => expectErrors(validateValidatingAdmissionPolicy(policy, { compile: fakeCompile }), expected))
})

/** validatingAdmissionPolicyWithExpressions. */
function policyWithExpressions(
  matchConditions: MatchCondition[] | undefined,
  validations: Validation[] | undefined,
  auditAnnotations: AuditAnnotation[] | undefined,
): ValidatingAdmissionPolicy {
  return vap({
    matchConstraints: fullMatch([rule(['*'])]),
    failurePolicy: 'Ignore',
    ...(matchConditions ? { matchConditions } : {}),
    ...(validations ? { validations } : {}),
    ...(auditAnnotations ? { auditAnnotations } : {}),
  })
}

describe('validation_test.go TestValidateValidatingAdmissionPolicyUpdate', () => {
  const hasParams = [{ name: 'hasParams', expression: 'params.foo == "okay"' }]
  const cases: [string, ValidatingAdmissionPolicy, ValidatingAdmissionPolicy, string][] = [
    [
      'should pass on valid new ValidatingAdmissionPolicy',
      vap({ failurePolicy: 'Fail', validations: objectX, matchConstraints: fullMatch([rule(['CREATE'])]) }),
      vap({ validations: objectX, matchConstraints: { resourceRules: [rule(['CREATE'])] } }),
      '',
    ],
    [
      'should pass on valid new ValidatingAdmissionPolicy with invalid old ValidatingAdmissionPolicy',
      vap({ failurePolicy: 'Fail', validations: objectX, matchConstraints: fullMatch([rule(['CREATE'])]) }),
      vap({}, '!!!'),
      '',
    ],
    [
      'match conditions re-checked if paramKind changes',
      vap({
        matchConstraints: fullMatch([rule(['*'])]),
        failurePolicy: 'Fail',
        matchConditions: hasParams,
        validations: objectX,
      }),
      vap({
        paramKind: { kind: 'Foo', apiVersion: 'foobar/v1alpha1' },
        matchConstraints: fullMatch([rule(['*'])]),
        failurePolicy: 'Fail',
        matchConditions: hasParams,
        validations: objectX,
      }),
      "undeclared reference to 'params'",
    ],
    [
      'match conditions not re-checked if no change to paramKind or matchConditions',
      vap({
        matchConstraints: fullMatch([rule(['*'])]),
        failurePolicy: 'Ignore',
        matchConditions: hasParams,
        validations: [{ expression: 'object.x < 50' }],
      }),
      vap({
        matchConstraints: fullMatch([rule(['*'])]),
        failurePolicy: 'Fail',
        matchConditions: hasParams,
        validations: objectX,
      }),
      '',
    ],
    [
      'expressions that are not changed must be compiled using the StoredExpression environment',
      policyWithExpressions(
        [{ name: 'checkEnvironmentMode', expression: 'test() == true' }],
        [{ expression: 'test() == true', messageExpression: 'string(test())' }],
        [{ key: 'checkEnvironmentMode', valueExpression: 'string(test())' }],
      ),
      policyWithExpressions(
        [{ name: 'checkEnvironmentMode', expression: 'test() == true' }],
        [{ expression: 'test() == true', messageExpression: 'string(test())' }],
        [{ key: 'checkEnvironmentMode', valueExpression: 'string(test())' }],
      ),
      '',
    ],
    [
      'matchCondition expressions that are changed must be compiled using the NewExpression environment',
      policyWithExpressions([{ name: 'checkEnvironmentMode', expression: 'test() == true' }], undefined, undefined),
      policyWithExpressions([{ name: 'checkEnvironmentMode', expression: 'true' }], undefined, undefined),
      "undeclared reference to 'test'",
    ],
    [
      'validation expressions that are changed must be compiled using the NewExpression environment',
      policyWithExpressions(undefined, [{ expression: 'test() == true' }], undefined),
      policyWithExpressions(undefined, [{ expression: 'true' }], undefined),
      "undeclared reference to 'test'",
    ],
    [
      'validation messageExpressions that are changed must be compiled using the NewExpression environment',
      policyWithExpressions(undefined, [{ expression: 'true', messageExpression: 'string(test())' }], undefined),
      policyWithExpressions(undefined, [{ expression: 'true', messageExpression: "'test'" }], undefined),
      "undeclared reference to 'test'",
    ],
    [
      'auditAnnotation valueExpressions that are changed must be compiled using the NewExpression environment',
      policyWithExpressions(undefined, undefined, [{ key: 'checkEnvironmentMode', valueExpression: 'string(test())' }]),
      policyWithExpressions(undefined, undefined, [{ key: 'checkEnvironmentMode', valueExpression: "'test'" }]),
      "undeclared reference to 'test'",
    ],
  ]
  for (const [name, config, oldConfig, expected] of cases)
    it(name, () =>
      expectErrors(validateValidatingAdmissionPolicyUpdate(config, oldConfig, { compile: fakeCompile }), expected),
    )
})
