import { describe, expect, it } from 'vitest'
import { materialProblems } from '../../src/engine/material-problems.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// materialProblems: one document's problems without building a set. The expected texts are the apiserver's
// (validation.go ValidateMutatingAdmissionPolicy / …Binding, as test/policy/mutating.test.ts has them; the
// client's `no matches for kind`); a set built from the document alone reports the same problems.

type J = Record<string, unknown>

const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] }
const mutatingPolicy: J = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: { matchConstraints: rules, mutations: [] },
}
const deleteBinding: J = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name: 'b' },
  spec: {
    policyName: 'p',
    matchResources: {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['pods'] }],
    },
  },
}
const validatingPolicy = (apiVersion: string, expression: string): J => ({
  apiVersion,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'v' },
  spec: { matchConstraints: rules, validations: [{ expression }] },
})
const crd = (group: string): J => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
})

describe('materialProblems', () => {
  it('none for what is no material, or material a cluster accepts', () => {
    expect(materialProblems({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).toEqual([])
    expect(materialProblems('not an object')).toEqual([])
    expect(materialProblems(validatingPolicy('admissionregistration.k8s.io/v1', 'true'))).toEqual([])
    expect(materialProblems(crd('example.com'))).toEqual([])
  })

  it("a refused policy or binding: the apiserver's 422", () => {
    expect(materialProblems(mutatingPolicy).map((p) => p.message)).toEqual([
      'MutatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.mutations: Required value: mutations must contain at least one item, spec.reinvocationPolicy: Required value]',
    ])
    expect(materialProblems(deleteBinding, {}, 4).map((p) => [p.index, p.kind, p.name, p.message])).toEqual([
      [
        4,
        'MutatingAdmissionPolicyBinding',
        'b',
        'MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
      ],
    ])
    const [syntax] = materialProblems(validatingPolicy('admissionregistration.k8s.io/v1', 'object.spec.replicas <'))
    expect(syntax?.errors[0]?.field).toBe('spec.validations[0].expression')
    expect(syntax?.errors[0]?.detail).toMatch(/^compilation failed: ERROR: <input>:1:23: Syntax error/)
  })

  it('a CRD of a group without a dot is refused', () => {
    expect(materialProblems(crd('example')).map((p) => [p.kind, p.name])).toEqual([
      ['CustomResourceDefinition', 'widgets.example'],
    ])
  })

  it("a version the release does not serve: the client's no matches for kind", () => {
    const old = validatingPolicy('admissionregistration.k8s.io/v1beta1', 'true')
    const [p] = materialProblems(old, { release: '1.37' })
    expect(p?.message).toMatch(
      /^no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io\/v1beta1" \(removed in v1\.34/,
    )
    expect(materialProblems(old, { release: '1.37', materialVersions: 'any' })).toEqual([])
    expect(materialProblems({ ...mutatingPolicy, spec: {} }, { release: '1.35' }).map((p) => p.message)).toEqual([
      'no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1" (introduced in v1.36)',
    ])
  })

  it('trusted material has no validation problems', () => {
    expect(materialProblems(mutatingPolicy, { trusted: true })).toEqual([])
    expect(materialProblems(mutatingPolicy, { trusted: (o) => o === mutatingPolicy })).toEqual([])
  })

  it('are the problems of a set built from the document alone', () => {
    const docs = [
      mutatingPolicy,
      deleteBinding,
      validatingPolicy('admissionregistration.k8s.io/v1', 'object.spec.replicas <'),
      validatingPolicy('admissionregistration.k8s.io/v1beta1', 'true'),
      crd('example'),
      crd('example.com'),
    ]
    for (const d of docs)
      for (const release of ['1.33', '1.37'])
        expect(materialProblems(d, { release })).toEqual(PolicySet.build([d], { release }).problems)
  })
})
