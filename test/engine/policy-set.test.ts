import { describe, expect, it } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'
import { PolicySet } from '../../src/engine/policy-set.js'

// The examples of the Kubernetes documentation page "Validating Admission Policy"
// (kubernetes/website content/en/docs/reference/access-authn-authz/validating-admission-policy.md)
// and the texts the apiserver answers (apiserver validating/dispatcher.go, admission.NewForbidden).

const docs = (y: string) => parseAllDocuments(y).map((d) => d.toJS())

const demoPolicy = docs(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "demo-policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "demo-binding-test.example.com"
spec:
  policyName: "demo-policy.example.com"
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
---
apiVersion: v1
kind: Namespace
metadata: {name: test, labels: {environment: test}}
`)

const deployment = (replicas: number, namespace = 'test') =>
  parse(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, namespace: ${namespace}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec: {containers: [{name: nginx, image: "nginx:1.27"}]}
`)

describe('ValidatingAdmissionPolicy docs example (demo-policy.example.com)', () => {
  const set = PolicySet.build(demoPolicy)

  it('loads without problems', () => {
    expect(set.problems).toEqual([])
  })

  it('denies 6 replicas in a namespace labelled environment=test', () => {
    const r = set.validate(deployment(6))
    expect(r.allowed).toBe(false)
    // the docs: "The deployments "nginx" is invalid: : ValidatingAdmissionPolicy 'demo-policy.example.com'
    // with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5"
    const message =
      "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5"
    expect(r.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: `deployments.apps "nginx" is forbidden: ${message}`,
      reason: 'Invalid',
      code: 422,
      details: { group: 'apps', kind: 'deployments', name: 'nginx', causes: [{ message }] },
    })
  })

  it('admits 5 replicas, and any count outside the selected namespace', () => {
    expect(set.validate(deployment(5)).allowed).toBe(true)
    expect(set.validate(deployment(6, 'prod')).allowed).toBe(true)
  })
})

describe('validationActions Warn and Audit (docs: "Validation actions")', () => {
  const objects = (actions: string) => [
    ...demoPolicy.slice(0, 1),
    {
      ...demoPolicy[1],
      spec: { policyName: 'demo-policy.example.com', validationActions: actions.split(',') },
    },
  ]

  it('Warn: admitted with the warning kubectl prints', () => {
    const r = PolicySet.build(objects('Warn')).validate(deployment(6))
    expect(r.allowed).toBe(true)
    expect(r.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com': failed expression: object.spec.replicas <= 5",
    ])
  })

  it('Warn: each request warns with its own message, one set for all (kelp keeps the last text per validation)', () => {
    const policy = demoPolicy[0] as { spec: Record<string, unknown> }
    const set = PolicySet.build([
      {
        ...policy,
        spec: {
          ...policy.spec,
          validations: [
            {
              expression: 'object.spec.replicas <= 5',
              messageExpression: "'too many: ' + string(object.spec.replicas)",
            },
          ],
        },
      },
      ...objects('Warn').slice(1),
    ])
    const warned = (replicas: number) => set.validate(deployment(replicas)).warnings
    const text = (m: string) =>
      `Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com': ${m}`
    expect([6, 7, 7, 6, 5].map(warned)).toEqual([
      [text('too many: 6')],
      [text('too many: 7')],
      [text('too many: 7')],
      [text('too many: 6')],
      [],
    ])
  })

  it('Audit: admitted with the validation_failure audit annotation', () => {
    const r = PolicySet.build(objects('Audit')).validate(deployment(6))
    expect(r.allowed).toBe(true)
    expect(JSON.parse(r.auditAnnotations['validation.policy.admission.k8s.io/validation_failure'] ?? '')).toEqual([
      {
        message: 'failed expression: object.spec.replicas <= 5',
        policy: 'demo-policy.example.com',
        binding: 'demo-binding-test.example.com',
        expressionIndex: 0,
        validationActions: ['Audit'],
      },
    ])
  })
})

describe('params, messageExpression, variables, auditAnnotations', () => {
  // docs: "Parameter resources" and "Message expression" and "Audit annotations" sections
  const objects = docs(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicalimit-policy.example.com}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  variables:
  - {name: replicas, expression: object.spec.replicas}
  validations:
  - expression: "variables.replicas <= params.maxReplicas"
    messageExpression: "'object.spec.replicas must be no greater than ' + string(params.maxReplicas)"
    reason: Invalid
  auditAnnotations:
  - key: high-replica-count
    valueExpression: "variables.replicas > 2 ? 'Deployment spec.replicas set to ' + string(variables.replicas) : ''"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicalimit-binding-test.example.com}
spec:
  policyName: replicalimit-policy.example.com
  validationActions: [Deny]
  paramRef: {name: replica-limit-test.example.com, namespace: default, parameterNotFoundAction: Deny}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: replicalimits.rules.example.com}
spec:
  group: rules.example.com
  names: {kind: ReplicaLimit, plural: replicalimits}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties: {maxReplicas: {type: integer}}
---
apiVersion: rules.example.com/v1
kind: ReplicaLimit
metadata: {name: replica-limit-test.example.com, namespace: default}
maxReplicas: 3
`)
  const set = PolicySet.build(objects)

  it('loads', () => expect(set.problems).toEqual([]))

  it('denies with the messageExpression text', () => {
    const r = set.validate(deployment(4, 'default'))
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toBe(
      "deployments.apps \"nginx\" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no greater than 3",
    )
  })

  it('admits within the limit, with the audit annotation `<policy>/<key>` (empty values omitted)', () => {
    const r = set.validate(deployment(3, 'default'))
    expect(r.allowed).toBe(true)
    expect(r.auditAnnotations).toEqual({
      'replicalimit-policy.example.com/high-replica-count': 'Deployment spec.replicas set to 3',
    })
    expect(set.validate(deployment(2, 'default')).auditAnnotations).toEqual({})
  })

  it('paramRef.namespace names where the param is, whatever the request namespace', () => {
    expect(set.validate(deployment(4, 'other')).allowed).toBe(false)
    expect(set.validate(deployment(3, 'other')).allowed).toBe(true)
  })

  it('parameterNotFoundAction Deny without the param: a configuration error under failurePolicy Fail', () => {
    const withoutParam = PolicySet.build(objects.filter((o) => o.kind !== 'ReplicaLimit'))
    const r = withoutParam.validate(deployment(1, 'default'))
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toBe(
      "deployments.apps \"nginx\" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    )
  })
})

describe('a broken policy is reported, and the rest still works', () => {
  it('reports the compile error of the policy; its binding does nothing', () => {
    const objs = [
      ...demoPolicy,
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'broken.example.com' },
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
            ],
          },
          validations: [{ expression: 'object.spec.replicas <' }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'broken-binding' },
        spec: { policyName: 'broken.example.com', validationActions: ['Deny'] },
      },
    ]
    const set = PolicySet.build(objs)
    expect(set.problems.map((p) => [p.kind, p.name])).toEqual([['ValidatingAdmissionPolicy', 'broken.example.com']])
    expect(set.problems[0]?.errors[0]?.field).toBe('spec.validations[0].expression')
    expect(set.problems[0]?.errors[0]?.detail).toMatch(/^compilation failed: ERROR: <input>:1:23: Syntax error/)
    expect(set.validate(deployment(6)).allowed).toBe(false)
    expect(set.validate(deployment(1)).allowed).toBe(true)
  })
})
