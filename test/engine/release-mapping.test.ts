import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../src/engine/policy-set.js'

// PolicySet's REST mapping is the target release's (PolicySetOptions.release, default its CEL
// version). Expected values: kubernetes/api flowcontrol/v1beta3/zz_generated.prerelease-lifecycle.go
// (introduced 1.26, deprecated 1.29, removed 1.32), resource/v1 (introduced 1.34); a kind not served
// answers client-go's NoKindMatchError text.

const flowSchema = {
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
  kind: 'FlowSchema',
  metadata: { name: 'fs' },
  spec: { priorityLevelConfiguration: { name: 'global-default' } },
}
const deviceClass = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu' } }

describe('PolicySet: the REST mapping of the target release', () => {
  it('1.29: flowcontrol v1beta3 FlowSchema is served and admitted (its deprecation is a warning elsewhere)', () => {
    const r = PolicySet.build([], { release: '1.29' }).validate(flowSchema)
    expect(r.status).toBeUndefined()
    expect(r.allowed).toBe(true)
  })

  it('1.32: not served', () => {
    const r = PolicySet.build([], { release: '1.32' }).validate(flowSchema)
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toBe('no matches for kind "FlowSchema" in version "flowcontrol.apiserver.k8s.io/v1beta3"')
  })

  it('resource.k8s.io/v1 DeviceClass: served by 1.36 and 1.34, not by 1.33', () => {
    expect(PolicySet.build([], { release: '1.36' }).validate(deviceClass).allowed).toBe(true)
    expect(PolicySet.build([], { release: '1.34' }).validate(deviceClass).allowed).toBe(true)
    expect(PolicySet.build([], { release: '1.33' }).validate(deviceClass).status?.code).toBe(404)
  })

  it('the release defaults to the CEL version', () => {
    expect(PolicySet.build([], { version: '1.30' }).validate(flowSchema).allowed).toBe(true)
    expect(PolicySet.build([], { version: '1.33' }).validate(flowSchema).status?.code).toBe(404)
  })

  // 1.31: v1beta3 still served, and the policy's own admissionregistration.k8s.io/v1 too (GA in 1.30)
  it('a policy matching flowschemas at 1.31 sees the v1beta3 object', () => {
    const set = PolicySet.build(
      [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingAdmissionPolicy',
          metadata: { name: 'fs' },
          spec: {
            matchConstraints: {
              resourceRules: [
                {
                  apiGroups: ['flowcontrol.apiserver.k8s.io'],
                  apiVersions: ['*'],
                  operations: ['CREATE'],
                  resources: ['flowschemas'],
                },
              ],
            },
            validations: [{ expression: "object.metadata.name != 'fs'" }],
          },
        },
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingAdmissionPolicyBinding',
          metadata: { name: 'fs' },
          spec: { policyName: 'fs', validationActions: ['Deny'] },
        },
      ],
      { release: '1.31' },
    )
    const r = set.validate(flowSchema)
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain('flowschemas.flowcontrol.apiserver.k8s.io "fs" is forbidden')
  })
})
