import { describe, expect, test } from 'vitest'
import { PolicySet } from '../../src/engine/policy-set.js'

const policy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'defaults-seen' },
  spec: {
    matchConstraints: {
      resourceRules: [
        { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
      ],
    },
    validations: [
      { expression: 'object.spec.replicas == 1', message: 'replicas not defaulted' },
      {
        expression: "object.spec.template.spec.containers.all(c, c.imagePullPolicy == 'IfNotPresent')",
        message: 'pull policy',
      },
      { expression: "object.spec.strategy.rollingUpdate.maxSurge == '25%'", message: 'strategy' },
    ],
  },
}
const binding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'b' },
  spec: { policyName: 'defaults-seen', validationActions: ['Deny'] },
}
const deployment = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    ...spec,
  },
})

describe('PolicySet: built-ins decoded and defaulted before the policies', () => {
  const set = PolicySet.build([policy, binding])
  test('policies see the defaulted object; the result carries it', () => {
    const r = set.validate(deployment({}))
    expect(r.violations).toEqual([])
    expect(r.allowed).toBe(true)
    expect(r.builtin?.allowed).toBe(true)
    expect(
      (r.builtin?.object as { spec?: { progressDeadlineSeconds?: number } } | undefined)?.spec?.progressDeadlineSeconds,
    ).toBe(600)
  })
  test('a body that does not decode is the 400 BadRequest, before any policy', () => {
    const r = set.validate(deployment({ replicas: 'three' }))
    expect(r.allowed).toBe(false)
    expect(r.violations).toEqual([])
    expect(r.builtin?.status).toEqual({
      code: 400,
      reason: 'BadRequest',
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    })
    expect(set.validate(deployment({ replica: 2 })).builtin?.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
    )
  })
  test('an update decodes and defaults the old object too', () => {
    const old = deployment({})
    const r = set.validate(deployment({}), { oldObject: old })
    expect(r.allowed).toBe(true)
  })
  test('builtins: false keeps the object as given', () => {
    const off = PolicySet.build([policy, binding], { builtins: false })
    const r = off.validate(deployment({ replicas: 'three' }))
    expect(r.builtin).toBeUndefined()
    expect(r.violations.map((v) => v.message)).toContain('replicas not defaulted')
  })
})
