import { describe, expect, it } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'
import { isAdmissionStatus, latestWrites, materialNotServed, PolicySet } from '../../src/engine/policy-set.js'

// Policy material as a cluster of the target release holds it (issue 26):
// - served versions: the admissionregistration.k8s.io and apiextensions.k8s.io lifecycles
//   (api/admissionregistration/*/zz_generated.prerelease-lifecycle.go; ValidatingAdmissionPolicy v1 GA in
//   1.30, v1beta1 off by default from 1.28 and removed in 1.34; CustomResourceDefinition v1beta1 removed in
//   1.22): material of a version the release does not serve is refused as kubectl reports it,
//   `no matches for kind "<Kind>" in version "<apiVersion>"` (apimachinery meta.NoKindMatchError), and
//   no policy of it runs;
// - one object per group, kind, namespace and name: the version is the encoding, not the identity (the
//   storage is per resource), so two writes of one name leave the later (kubectl apply of both).

const docs = (y: string) => parseAllDocuments(y).map((d) => d.toJS())

const policy = (apiVersion: string, message: string, name = 'deny-pods') => `
apiVersion: ${apiVersion}
kind: ValidatingAdmissionPolicy
metadata: {name: ${name}}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "false"
    message: ${message}
`
const binding = (apiVersion: string, policyName = 'deny-pods', name = 'deny-pods') => `
apiVersion: ${apiVersion}
kind: ValidatingAdmissionPolicyBinding
metadata: {name: ${name}}
spec: {policyName: ${policyName}, validationActions: [Deny]}
`
const pod = parse(`
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec: {containers: [{name: c, image: "nginx:1.27"}]}
`)

const denials = (set: PolicySet) => {
  // the causes of the Forbidden Status, one per denying policy × binding (validating/dispatcher.go)
  const r = set.validate(pod)
  return (isAdmissionStatus(r.status) ? r.status.details.causes : []).map((c) => c.message)
}

describe('policy material per target release', () => {
  const cases: [string, string, string, string | undefined][] = [
    ['1.37', 'admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', 'removed in v1.34'],
    ['1.37', 'admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicyBinding', 'removed in v1.34'],
    ['1.31', 'admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', 'not served by default'],
    ['1.30', 'admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicy', 'not served by default'],
    ['1.29', 'admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'introduced in v1.30'],
    ['1.29', 'admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', 'introduced in v1.30'],
    ['1.35', 'admissionregistration.k8s.io/v1', 'MutatingAdmissionPolicy', 'introduced in v1.36'],
    ['1.22', 'apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition', 'removed in v1.22'],
    ['1.30', 'admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', undefined],
    ['1.37', 'admissionregistration.k8s.io/v1', 'MutatingAdmissionPolicyBinding', undefined],
    ['1.21', 'apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition', undefined],
  ]
  for (const [release, apiVersion, kind, why] of cases) {
    it(`${kind} ${apiVersion} at ${release}: ${why ?? 'served'}`, () => {
      const message = materialNotServed({ apiVersion, kind, metadata: { name: 'x' } }, release)
      if (why === undefined) expect(message).toBeUndefined()
      else {
        expect(message).toMatch(new RegExp(`^no matches for kind "${kind}" in version "${apiVersion}"`))
        expect(message).toContain(why)
      }
    })
  }

  it('a v1beta1 policy and binding at 1.37 are refused and deny nothing; at v1 they deny', () => {
    const old = PolicySet.build(
      docs(
        policy('admissionregistration.k8s.io/v1beta1', 'no') + '---' + binding('admissionregistration.k8s.io/v1beta1'),
      ),
      {
        version: '1.37',
      },
    )
    expect(old.problems.map((p) => [p.kind, p.message.split(' (')[0]])).toEqual([
      [
        'ValidatingAdmissionPolicy',
        'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"',
      ],
      [
        'ValidatingAdmissionPolicyBinding',
        'no matches for kind "ValidatingAdmissionPolicyBinding" in version "admissionregistration.k8s.io/v1beta1"',
      ],
    ])
    expect(denials(old)).toEqual([])
    const current = PolicySet.build(
      docs(policy('admissionregistration.k8s.io/v1', 'no') + '---' + binding('admissionregistration.k8s.io/v1')),
      {
        version: '1.37',
      },
    )
    expect(current.problems).toEqual([])
    expect(denials(current)).toEqual([
      "ValidatingAdmissionPolicy 'deny-pods' with binding 'deny-pods' denied request: no",
    ])
  })

  it('a v1 policy at 1.29 is refused (v1 is GA from 1.30)', () => {
    const set = PolicySet.build(
      docs(policy('admissionregistration.k8s.io/v1', 'no') + '---' + binding('admissionregistration.k8s.io/v1')),
      {
        version: '1.30',
        release: '1.29',
      },
    )
    expect(set.problems.map((p) => p.kind)).toEqual(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'])
    expect(denials(set)).toEqual([])
  })
})

describe('one object per identity: the later write wins', () => {
  it('latestWrites: the version is no part of the identity; namespace and name are', () => {
    const o = (apiVersion: string, kind: string, name: string, namespace?: string) => ({
      apiVersion,
      kind,
      metadata: { name, ...(namespace ? { namespace } : {}) },
    })
    expect(
      latestWrites([
        o('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'a'),
        o('admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', 'a'),
        o('v1', 'ConfigMap', 'c', 'x'),
        o('v1', 'ConfigMap', 'c', 'y'),
        o('v1', 'ConfigMap', 'c', 'x'),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'g-' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'g-' } },
        o('v1', 'Secret', 'c', 'x'),
      ]),
    ).toEqual([1, true, 4, true, true, true, true, true])
  })

  it('a binding written twice (two files) applies once', () => {
    const set = PolicySet.build(
      docs(
        `${policy('admissionregistration.k8s.io/v1', 'no')}---${binding('admissionregistration.k8s.io/v1')}---${binding('admissionregistration.k8s.io/v1')}`,
      ),
    )
    expect(set.problems).toEqual([])
    expect(denials(set)).toEqual(["ValidatingAdmissionPolicy 'deny-pods' with binding 'deny-pods' denied request: no"])
    expect(set.diagnostics.map((d) => [d.index, d.message])).toContainEqual([
      1,
      'replaced by a later ValidatingAdmissionPolicyBinding "deny-pods" of the inputs (input 3): a cluster holds one, the last applied',
    ])
  })

  it('of two versions of one policy, the later is the policy', () => {
    const first = PolicySet.build(
      docs(
        `${policy('admissionregistration.k8s.io/v1', 'first')}---${policy('admissionregistration.k8s.io/v1', 'second')}---${binding('admissionregistration.k8s.io/v1')}`,
      ),
    )
    expect(denials(first)).toEqual([
      "ValidatingAdmissionPolicy 'deny-pods' with binding 'deny-pods' denied request: second",
    ])
  })
})
