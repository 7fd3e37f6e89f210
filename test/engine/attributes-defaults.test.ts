import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../src/engine/policy-set.js'

// admit() takes AdmissionAttributes as a library caller writes them (issue 26): subResource and dryRun
// default to the main resource and no dry run, as an AdmissionReview without them means
// (admission/v1 AdmissionRequest: subResource omitted for the main resource; dryRun omitted is false).

const POLICY = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'max-replicas' },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
        ],
      },
      validations: [{ expression: 'object.spec.replicas <= 3 && request.dryRun == false', message: 'too many' }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'max-replicas' },
    spec: { policyName: 'max-replicas', validationActions: ['Deny'] },
  },
]

const deployment = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
})

const attributes = (replicas: number) => ({
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  name: 'web',
  namespace: 'default',
  operation: 'CREATE' as const,
  object: deployment(replicas),
  userInfo: { username: 'alice' },
})

describe('admit: AdmissionAttributes defaults', () => {
  const set = PolicySet.build(POLICY)
  it('without subResource and dryRun: the main resource, not a dry run', () => {
    expect(set.admit(attributes(2)).allowed).toBe(true)
    const denied = set.admit(attributes(5))
    expect(denied.allowed).toBe(false)
    expect(denied.status?.message).toBe(
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: too many",
    )
  })
  it('given values are kept: a dry run is one', () => {
    expect(set.admit({ ...attributes(2), dryRun: true }).allowed).toBe(false)
  })
})
