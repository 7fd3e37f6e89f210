import { describe, expect, it } from 'vitest'
import { ADMISSION_STAGES, admit } from '../../../src/engine/admission/pipeline.js'
import { isAdmissionStatus, PolicySet } from '../../../src/engine/policy-set.js'
import { widgetCrd } from '../../fixtures/widget-crd.js'

// The stages of one request in kube-apiserver's order, and what the order decides: a step that refuses
// answers, and no later step runs (a 400 of the handler's decoding, a 422 of the registry's validation before
// any validating policy; a mutating policy runs before the strategy validates its result).

type J = Record<string, unknown>

const rules = (resources: string[], group = '') => ({
  resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE'], resources }],
})
const vap = (name: string, resources: string[], group = ''): J[] => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: rules(resources, group), validations: [{ expression: 'false', message: 'no' }] },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name, validationActions: ['Deny'] },
  },
]
const map = (name: string, resources: string[], expression: string): J[] => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: rules(resources),
      reinvocationPolicy: 'Never',
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression } }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name },
  },
]
const crd = widgetCrd({
  schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: 3 } } } },
  },
})
const meta = { name: 'x', namespace: 'default' }

describe('admission stages', () => {
  it('run in kube-apiserver order', () => {
    expect(ADMISSION_STAGES.map((s) => s.name)).toEqual([
      'excludedResources', // generic/plugin.go Dispatch
      'generateName', // registry/store.go Create
      'decodeAndDefault', // endpoints/handlers create.go / update.go
      'inTreeMutatingPlugins', // NamespaceLifecycle … DefaultIngressClass, before MutatingAdmissionPolicy (plugins.go)
      'mutatingAdmission', // the handler's admit
      'strategy', // rest.BeforeCreate: PrepareForCreate, Validate
      'customResourceValidation', // the CRD's strategy Validate
      'validatingBeforePodSecurity', // the in-tree plugins' Validate before PodSecurity: LimitRanger, ServiceAccount (plugins.go)
      'podSecurity', // the PodSecurity plugin, validating, before ValidatingAdmissionPolicy
      'validatingAfterPodSecurity', // RuntimeClass's Validate (plugins.go order)
      'validatingAdmission', // createValidation
    ])
  })

  it('are what admit() calls, in that order', () => {
    const text = admit.toString()
    const at = ADMISSION_STAGES.map((stage) => text.indexOf(stage.name))
    expect(at.every((p) => p > 0)).toBe(true)
    expect([...at].sort((x, y) => x - y)).toEqual(at)
  })

  const set = PolicySet.build([
    crd,
    ...vap('no-pods', ['pods']),
    ...vap('no-widgets', ['widgets'], 'example.com'),
    ...vap('no-policies', ['validatingadmissionpolicies'], 'admissionregistration.k8s.io'),
  ])

  it('a body that does not decode is a 400: no policy runs', () => {
    const r = set.validate({ apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: 5 } })
    expect([r.status?.code, r.status?.reason, r.violations]).toEqual([400, 'BadRequest', []])
  })

  it("the strategy's 422 comes before any validating policy", () => {
    const r = set.validate({ apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [] } })
    expect([r.status?.code, r.status?.reason, r.violations]).toEqual([422, 'Invalid', []])
    expect(isAdmissionStatus(r.status)).toBe(false)
  })

  it("the CRD's 422 comes before any validating policy", () => {
    const r = set.validate({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta, spec: { size: 5 } })
    expect([r.status?.code, r.status?.reason, r.violations]).toEqual([422, 'Invalid', []])
  })

  it('a valid object reaches the validating policies', () => {
    const r = set.validate({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta, spec: { size: 1 } })
    expect(isAdmissionStatus(r.status)).toBe(true)
    expect(r.violations.map((v) => v.policy)).toEqual(['no-widgets'])
  })

  it('an excluded resource reaches no policy', () => {
    const r = set.validate(vap('any', ['pods'])[0] as J)
    expect(r).toEqual({ allowed: true, warnings: [], auditAnnotations: {}, violations: [] })
  })

  it('the strategy validates what the mutating policies left', () => {
    const mutating = PolicySet.build(
      map('no-containers', ['pods'], '[JSONPatch{op: "replace", path: "/spec/containers", value: []}]'),
    )
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [{ name: 'c', image: 'i' }] } }
    const r = mutating.validate(pod)
    expect(r.mutatedObject).toBeDefined()
    expect([r.status?.code, r.status?.reason]).toEqual([422, 'Invalid'])
    expect(mutating.admit(mutating.request(pod) as never, { mutating: false }).allowed).toBe(true)
  })
})
