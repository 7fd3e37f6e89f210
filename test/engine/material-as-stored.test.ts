import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { PolicySet } from '../../src/engine/policy-set.js'

// Policy material as kube-apiserver 1.37.2 holds it once `kubectl apply` has created it (issue 28): each expected
// text and verdict below was answered by a real kube-apiserver v1.37.2 (`kubectl apply -f` of the material, then
// `kubectl apply --dry-run=server` of the object), and each rule is named with its Go source.

const docs = (y: string) => parseAllDocuments(y).map((d) => d.toJS())

const denyConfigMaps = (selector: string) =>
  docs(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: deny-cm}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["configmaps"]}
  validations:
  - {expression: "false", message: no configmaps here}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: deny-cm}
spec:
  policyName: deny-cm
  validationActions: [Deny]
  matchResources:
    namespaceSelector: {matchLabels: {${selector}}}
`)

const configMap = (namespace: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace },
  data: { a: 'b' },
})

describe('a Namespace among the inputs', () => {
  // SetDefaults_Namespace (pkg/apis/core/v1/defaults.go) labels every Namespace with its name
  it('carries kubernetes.io/metadata.name, so a binding selecting namespaces by name matches', () => {
    const set = PolicySet.build([
      ...denyConfigMaps('kubernetes.io/metadata.name: team-a'),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    ])
    expect(set.problems).toEqual([])
    expect(set.validate(configMap('team-a')).status?.message).toBe(
      "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'deny-cm' with binding 'deny-cm' denied request: no configmaps here",
    )
  })
  it('has the label set to its name whatever the manifest says; the input object is not changed', () => {
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-b', labels: { 'kubernetes.io/metadata.name': 'x' } },
    }
    const set = PolicySet.build([...denyConfigMaps('kubernetes.io/metadata.name: team-b'), ns])
    expect(set.validate(configMap('team-b')).status?.reason).toBe('Invalid')
    expect(ns.metadata.labels['kubernetes.io/metadata.name']).toBe('x')
  })
})

const maxKeys = (paramRef: string, name = 'max-keys') =>
  docs(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ${name}}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["secrets"]}
  validations:
  - expression: "size(object.data) <= int(params.data.max)"
    messageExpression: "'too many keys, max ' + params.data.max"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: ${name}}
spec:
  policyName: ${name}
  validationActions: [Deny]
  paramRef: ${paramRef}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: limits}
data: {max: "1"}
`)

const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'default' },
  data: { a: 'Yg==', c: 'ZA==' },
}

describe('params', () => {
  it('a namespaced param without a namespace is where kubectl apply creates it: the context namespace', () => {
    const set = PolicySet.build(maxKeys('{name: limits, namespace: default, parameterNotFoundAction: Deny}'))
    expect(set.problems).toEqual([])
    expect(set.validate(secret).status?.message).toBe(
      "secrets \"s\" is forbidden: ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys' denied request: too many keys, max 1",
    )
    // another context namespace (kelp check -n): not found in default
    const other = PolicySet.build(maxKeys('{name: limits, namespace: default, parameterNotFoundAction: Deny}'), {
      defaultNamespace: 'team-a',
    })
    expect(other.validate(secret).status?.message).toContain('no params found for policy binding with `Deny`')
  })
})

describe('material the apiserver refuses is refused, not used', () => {
  it('a v1 binding whose paramRef has no parameterNotFoundAction (no default in v1: v1alpha1/defaults.go only)', () => {
    const set = PolicySet.build(maxKeys('{name: limits, namespace: default}'))
    expect(set.problems.map((p) => p.message)).toEqual([
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "max-keys" is invalid: spec.paramRef.parameterNotFoundAction: Required value',
    ])
    expect(set.validate(secret).status).toBeUndefined()
  })
  it('names ending in .static.k8s.io (pkg/apis/admissionregistration/validation/static_suffix.go, 1.37+)', () => {
    const name = 'max-keys.static.k8s.io'
    const text = (kind: string) =>
      `${kind}.admissionregistration.k8s.io "${name}" is invalid: metadata.name: Invalid value: "${name}": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API`
    const material = maxKeys('{name: limits, namespace: default, parameterNotFoundAction: Deny}', name)
    const set = PolicySet.build(material)
    expect(set.problems.map((p) => p.message)).toEqual([
      text('ValidatingAdmissionPolicy'),
      text('ValidatingAdmissionPolicyBinding'),
    ])
    expect(set.validate(secret).status).toBeUndefined()
    // 1.36 has no such rule (the ManifestBasedAdmissionControlConfig gate arrives in 1.37)
    expect(PolicySet.build(material, { version: '1.36' }).problems).toEqual([])
  })
})
