import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { PolicySet } from '../../src/engine/policy-set.js'
import { createAdmissionHandler } from '../../src/webhook/handler.js'
import { DEPLOYMENTS, deployment, review } from './helpers.js'

// A validating webhook is called after the apiserver's mutating admission, on the object it will store
// (admission chain: mutating plugins, then validating; webhook/validating/dispatcher.go). The library's
// handler in validate mode therefore judges the review's object as sent: given one set holding mutating
// and validating policies (issue 26), it used to validate the MutatingAdmissionPolicy's copy and allow
// what the Deny policy refuses, with no patch, so the cluster stored the unmutated object.

const SET = PolicySet.build(
  parseAllDocuments(`
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: add-owner}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"owner": "platform"}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-owner}
spec: {policyName: add-owner}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: require-owner}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels"
    message: an owner label is required
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: require-owner}
spec: {policyName: require-owner, validationActions: [Deny]}
`).map((d) => d.toJS()),
)

describe('createAdmissionHandler: validate mode applies no mutation', () => {
  it('judges the object as sent: the Deny policy refuses it', () => {
    expect(SET.problems).toEqual([])
    const r = createAdmissionHandler(() => SET).handle(review(deployment(1), DEPLOYMENTS))
    const response = (r.body as { response: { allowed: boolean; patch?: string; status?: { message: string } } })
      .response
    expect(response.allowed).toBe(false)
    expect(response.patch).toBeUndefined()
    expect(response.status?.message).toBe(
      "ValidatingAdmissionPolicy 'require-owner' with binding 'require-owner' denied request: an owner label is required",
    )
  })

  it('mutate mode still mutates: the patch adds the label', () => {
    const r = createAdmissionHandler(() => SET, { mode: 'mutate' }).handle(review(deployment(1), DEPLOYMENTS))
    const response = (r.body as { response: { allowed: boolean; patch?: string } }).response
    expect(response.allowed).toBe(true)
    expect(Buffer.from(response.patch ?? '', 'base64').toString('utf8')).toContain('"owner"')
  })
})
