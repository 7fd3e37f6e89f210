import { describe, expect, it } from 'vitest'
import { apiLifecycle } from '../../src/engine/lifecycle.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// An apiVersion's lifecycle in the engine's answer. The texts are kube-apiserver's deprecation warning
// (`kubectl apply` of a policy/v1beta1 PodDisruptionBudget to a 1.21-1.24 cluster prints it after `Warning: `)
// and the client's `no matches for kind` with why (test/cli/check.test.ts has the same for kelp check).

const pdb = (apiVersion: string) => ({
  apiVersion,
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
})
const DEPRECATED =
  'policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget'
const REMOVED =
  'no matches for kind "PodDisruptionBudget" in version "policy/v1beta1" (removed in v1.25; use policy/v1 PodDisruptionBudget)'

describe('apiLifecycle', () => {
  it('deprecated: the warning; removed: the not-served answer; served: nothing', () => {
    expect(apiLifecycle(pdb('policy/v1beta1'), '1.21')).toEqual({ status: 'deprecated', message: DEPRECATED })
    expect(apiLifecycle(pdb('policy/v1beta1'), '1.25')).toEqual({ status: 'removed', message: REMOVED })
    expect(apiLifecycle(pdb('policy/v1'), '1.25')).toBeUndefined()
    // no warnings before 1.19 (KEP-1693)
    expect(apiLifecycle({ apiVersion: 'extensions/v1beta1', kind: 'Ingress' }, '1.18')).toBeUndefined()
  })

  it('not yet served: when it arrives', () => {
    expect(
      apiLifecycle({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding' }, '1.35'),
    ).toEqual({
      status: 'not-served',
      message:
        'no matches for kind "MutatingAdmissionPolicyBinding" in version "admissionregistration.k8s.io/v1" (introduced in v1.36)',
    })
  })

  it('nothing for kinds the table does not know, or releases outside it', () => {
    expect(apiLifecycle({ apiVersion: 'example.com/v1', kind: 'Widget' }, '1.37')).toBeUndefined()
    expect(apiLifecycle(pdb('policy/v1beta1'), '1.99')).toBeUndefined()
    expect(apiLifecycle(null, '1.37')).toBeUndefined()
  })
})

describe('PolicySet.validate carries the lifecycle', () => {
  it('a deprecated version: its warning first among the warnings', () => {
    const r = PolicySet.build([], { release: '1.21' }).validate(pdb('policy/v1beta1'))
    expect(r.allowed).toBe(true)
    expect(r.warnings[0]).toBe(DEPRECATED)
    expect(r.apiLifecycle).toEqual({ status: 'deprecated', message: DEPRECATED })
  })

  it('a removed version: the 404 with why', () => {
    const r = PolicySet.build([], { release: '1.25' }).validate(pdb('policy/v1beta1'))
    expect([r.allowed, r.status?.code, r.noMatch?.reason]).toEqual([false, 404, 'not-served'])
    expect(r.apiLifecycle).toEqual({ status: 'removed', message: REMOVED })
  })

  it('a served version: no key', () => {
    const r = PolicySet.build([], { release: '1.25' }).validate(pdb('policy/v1'))
    expect('apiLifecycle' in r).toBe(false)
  })
})
