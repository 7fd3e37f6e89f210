import { describe, expect, it } from 'vitest'
import {
  validateLabelSelector,
  validateValidatingAdmissionPolicy,
} from '../../../../src/builtin/validation/admissionregistration/index.js'
import {
  applyDefaults,
  applyValidatingAdmissionPolicyBindingDefaults,
  applyValidatingAdmissionPolicyDefaults,
} from '../../../../src/kube/admissionregistration/defaults.js'
import type { ValidatingAdmissionPolicy } from '../../../../src/kube/admissionregistration/types.js'
import { errorString, FieldPath } from '../../../../src/kube/field.js'

// Checks of validation.go and metav1 validation.go the Go tables do not cover, and the v1 defaults.

const texts = (p: ValidatingAdmissionPolicy) => validateValidatingAdmissionPolicy(p).map(errorString)
const policy = (spec: NonNullable<ValidatingAdmissionPolicy['spec']>, name = 'p'): ValidatingAdmissionPolicy =>
  applyValidatingAdmissionPolicyDefaults({
    metadata: { name },
    spec: {
      matchConstraints: {
        resourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
      },
      ...spec,
    },
  })

describe('metav1validation.ValidateLabelSelector', () => {
  const at = FieldPath.of('sel')
  const sel = (s: Parameters<typeof validateLabelSelector>[0], allowInvalidLabelValueInSelector = false) =>
    validateLabelSelector(s, { allowInvalidLabelValueInSelector }, at).map(errorString)
  it('accepts nil, empty and valid selectors', () => {
    expect(sel(undefined)).toEqual([])
    expect(sel({})).toEqual([])
    expect(
      sel({
        matchLabels: { 'example.com/a': 'b' },
        matchExpressions: [
          { key: 'x', operator: 'In', values: ['1'] },
          { key: 'y', operator: 'DoesNotExist' },
        ],
      }),
    ).toEqual([])
  })
  it('reports operators, values and keys', () => {
    expect(
      sel({
        matchExpressions: [
          { key: 'x', operator: 'In' },
          { key: 'x', operator: 'Exists', values: ['a'] },
          { key: 'bad key', operator: 'Equals', values: ['-bad'] },
        ],
      }),
    ).toEqual([
      "sel.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "sel.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'sel.matchExpressions[2].operator: Invalid value: "Equals": not a valid selector operator',
      `sel.matchExpressions[2].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `sel.matchExpressions[2].values[0]: Invalid value: "-bad": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ])
    expect(sel({ matchExpressions: [{ key: 'x', operator: 'In', values: ['-bad'] }] }, true)).toEqual([])
  })
  it('matchLabels report at the matchLabels path', () =>
    expect(sel({ matchLabels: { a: '-' } })[0]).toMatch(/^sel\.matchLabels: Invalid value: "-": a valid label/))
})

describe('validateValidatingAdmissionPolicySpec details', () => {
  it('a defaulted minimal policy is valid', () =>
    expect(texts(policy({ validations: [{ expression: 'true' }] }))).toEqual([]))
  it('matchPolicy and selectors are required before defaulting', () =>
    expect(
      validateValidatingAdmissionPolicy({
        metadata: { name: 'p' },
        spec: { validations: [{ expression: 'true' }], matchConstraints: { resourceRules: [] } },
      }).map(errorString),
    ).toEqual([
      'spec.failurePolicy: Required value',
      'spec.matchConstraints.matchPolicy: Required value',
      'spec.matchConstraints.namespaceSelector: Required value',
      'spec.matchConstraints.objectSelector: Required value',
      'spec.matchConstraints.resourceRules: Required value',
    ]))
  it('message and messageExpression must not be blank; message has no line breaks', () =>
    expect(
      texts(
        policy({
          validations: [
            { expression: 'true', message: '  ', messageExpression: ' ' },
            { expression: 'true', message: 'a\nb' },
          ],
        }),
      ),
    ).toEqual([
      'spec.validations[0].messageExpression: Invalid value: " ": must be non-empty if specified',
      'spec.validations[0].message: Invalid value: "  ": message must be non-empty if specified',
      'spec.validations[1].message: Invalid value: "a\\nb": message must not contain line breaks',
    ]))
  it('scope must be supported', () =>
    expect(
      texts(
        policy({
          validations: [{ expression: 'true' }],
          matchConstraints: {
            resourceRules: [
              { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'All' },
            ],
          },
        }),
      ),
    ).toEqual([
      'spec.matchConstraints.resourceRules[0].scope: Unsupported value: "All": supported values: "*", "Cluster", "Namespaced"',
    ]))
  it('at most 64 match conditions; names unique and qualified', () => {
    const mcs = Array.from({ length: 65 }, (_, i) => ({ name: `test${i}`, expression: 'true' }))
    expect(texts(policy({ validations: [{ expression: 'true' }], matchConditions: mcs }))).toEqual([
      'spec.matchConditions: Too many: 65: must have at most 64 items',
    ])
    expect(
      texts(
        policy({
          validations: [{ expression: 'true' }],
          matchConditions: [
            { name: 'a', expression: 'true' },
            { name: 'a', expression: ' ' },
          ],
        }),
      ),
    ).toEqual([
      'spec.matchConditions[1].expression: Required value',
      'spec.matchConditions[1].name: Duplicate value: "a"',
    ])
  })
  it('at most 20 audit annotations; value expressions at most 5 KiB', () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" }))
    const errs = texts(policy({ auditAnnotations: many }))
    expect(errs).toHaveLength(1)
    expect(errs[0]).toMatch(
      /^spec\.auditAnnotations: Invalid value: \[\{"Key":"k0","ValueExpression":"'v'"\},.*: must not have more than 20 auditAnnotations$/,
    )
    expect(texts(policy({ auditAnnotations: [{ key: 'k', valueExpression: `'${'x'.repeat(5119)}'` }] }))).toEqual([
      'spec.auditAnnotations[0].valueExpression: Required value: must not exceed 5120 bytes in length',
    ])
    expect(texts(policy({ auditAnnotations: [{ key: 'k' }] }, ''))[1]).toBe(
      'spec.auditAnnotations[0].key: Invalid value: "k": requires metadata.name be non-empty',
    )
  })
  it('variable names: reserved words are not identifiers', () =>
    expect(
      texts(policy({ validations: [{ expression: 'true' }], variables: [{ name: 'in', expression: '1' }] })),
    ).toEqual(['spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier']))
  it('namespace is forbidden on a cluster-scoped policy', () =>
    expect(
      texts({ ...policy({ validations: [{ expression: 'true' }] }), metadata: { name: 'p', namespace: 'default' } }),
    ).toEqual(['metadata.namespace: Forbidden: not allowed on this type']))
})

describe('defaults.go (v1)', () => {
  it('policy: failurePolicy, matchPolicy, selectors, rule scope', () => {
    const input: ValidatingAdmissionPolicy = {
      kind: 'ValidatingAdmissionPolicy',
      spec: {
        matchConstraints: {
          resourceRules: [{ operations: ['CREATE'] }, { scope: 'Namespaced' }],
          excludeResourceRules: [{}],
        },
      },
    }
    expect(applyDefaults(input)).toEqual({
      kind: 'ValidatingAdmissionPolicy',
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          resourceRules: [{ operations: ['CREATE'], scope: '*' }, { scope: 'Namespaced' }],
          excludeResourceRules: [{ scope: '*' }],
        },
      },
    })
    expect(input.spec?.failurePolicy).toBeUndefined()
    expect(applyValidatingAdmissionPolicyDefaults({ spec: { failurePolicy: 'Ignore' } })).toEqual({
      spec: { failurePolicy: 'Ignore' },
    })
  })
  it('binding: matchResources; paramRef.parameterNotFoundAction only in v1alpha1', () => {
    // SetDefaults_ParamRef is in pkg/apis/admissionregistration/v1alpha1/defaults.go alone: kube-apiserver 1.37
    // refuses a v1 binding without it (`spec.paramRef.parameterNotFoundAction: Required value`)
    expect(
      applyValidatingAdmissionPolicyBindingDefaults({
        apiVersion: 'admissionregistration.k8s.io/v1',
        spec: { policyName: 'p', paramRef: { name: 'x' }, matchResources: { matchPolicy: 'Exact' } },
      }),
    ).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      spec: {
        policyName: 'p',
        paramRef: { name: 'x' },
        matchResources: { matchPolicy: 'Exact', namespaceSelector: {}, objectSelector: {} },
      },
    })
    expect(
      applyValidatingAdmissionPolicyBindingDefaults({
        apiVersion: 'admissionregistration.k8s.io/v1alpha1',
        spec: { policyName: 'p', paramRef: { name: 'x' } },
      }).spec?.paramRef,
    ).toEqual({ name: 'x', parameterNotFoundAction: 'Deny' })
    expect(applyDefaults({ kind: 'ValidatingAdmissionPolicyBinding', spec: {} })).toEqual({
      kind: 'ValidatingAdmissionPolicyBinding',
      spec: {},
    })
  })
})
