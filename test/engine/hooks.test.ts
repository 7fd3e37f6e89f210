import { describe, expect, it } from 'vitest'
import { admitMaterial, type HookContext, MUTATING, pairHooks, VALIDATING } from '../../src/engine/hooks.js'
import type { Problem } from '../../src/engine/material.js'
import { RESTMapper } from '../../src/kube/resources.js'
import { policyCompileHook } from '../../src/policy/cel/validation-hook.js'

// The one builder of validating and mutating hooks: a policy without bindings does nothing, a binding
// without its policy is ignored (as in a cluster), a paramKind no resource serves is the apiserver's
// configuration error (policy/generic/policy_source.go), refused material is a problem.

type J = Record<string, unknown>

const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] }
const vap = (name: string, spec: J = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: { matchConstraints: rules, validations: [{ expression: 'true' }], ...spec },
})
const vapb = (name: string, policyName: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, validationActions: ['Deny'] },
})
const map = (name: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: rules,
    reinvocationPolicy: 'Never',
    mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } }],
  },
})
const mapb = (name: string, policyName: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName },
})
const indexed = <T>(objs: T[]) => objs.map((obj, index) => ({ index, obj }))
const context = (problems: Problem[] = [], others: J[] = []): HookContext => ({
  compile: policyCompileHook(),
  trusted: () => false,
  problems,
  mapper: new RESTMapper({ release: '1.37' }),
  others,
})
const names = (xs: readonly { metadata?: { name?: string } }[]) => xs.map((x) => x.metadata?.name)

describe('hooks', () => {
  it('validating: input order, each policy with its bindings; unbound policies and orphan bindings none', () => {
    const ctx = context()
    const admitted = admitMaterial(
      VALIDATING,
      indexed([vap('b'), vap('a'), vap('unbound')]) as never,
      indexed([vapb('b2', 'b'), vapb('a1', 'a'), vapb('b1', 'b'), vapb('orphan', 'missing')]) as never,
      ctx,
    )
    const hooks = pairHooks(VALIDATING, admitted, ctx, (policy, bindings, params) => ({ policy, bindings, ...params }))
    expect(hooks.map((h) => [h.policy.metadata?.name, names(h.bindings)])).toEqual([
      ['b', ['b2', 'b1']],
      ['a', ['a1']],
    ])
    expect(ctx.problems).toEqual([])
  })

  it('mutating: policies and each policy’s bindings in name order', () => {
    const ctx = context()
    const admitted = admitMaterial(
      MUTATING,
      indexed([map('b'), map('a')]) as never,
      indexed([mapb('b2', 'b'), mapb('a1', 'a'), mapb('b1', 'b')]) as never,
      ctx,
    )
    const hooks = pairHooks(MUTATING, admitted, ctx, (policy, bindings) => ({ policy, bindings }))
    expect(hooks.map((h) => [h.policy.metadata?.name, names(h.bindings)])).toEqual([
      ['a', ['a1']],
      ['b', ['b1', 'b2']],
    ])
    expect(ctx.problems).toEqual([])
  })

  it('params: the objects of the paramKind; a kind no resource serves is a configuration error', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', namespace: 'default' } }
    const ctx = context([], [cm, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }])
    const admitted = admitMaterial(
      VALIDATING,
      indexed([
        vap('cm', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }),
        vap('bad', { paramKind: { apiVersion: 'example.com/v1', kind: 'BadParamKind' } }),
      ]) as never,
      indexed([vapb('cm', 'cm'), vapb('bad', 'bad')]) as never,
      ctx,
    )
    const [good, bad] = pairHooks(VALIDATING, admitted, ctx, (_p, _b, params) => params)
    expect(good).toEqual({ params: { namespaced: true, objects: [cm] } })
    expect(bad).toEqual({
      configurationError: "failed to find resource referenced by paramKind: 'example.com/v1, Kind=BadParamKind'",
    })
  })

  it('refused material: a problem at its input index, no hook', () => {
    const problems: Problem[] = []
    const ctx = context(problems)
    const broken = vap('broken', { validations: [{ expression: 'object.spec.replicas <' }] })
    const admitted = admitMaterial(VALIDATING, indexed([broken]) as never, indexed([vapb('x', 'broken')]) as never, ctx)
    expect(pairHooks(VALIDATING, admitted, ctx, (policy) => policy)).toEqual([])
    expect(problems.map((p) => [p.index, p.kind, p.name, p.errors[0]?.field])).toEqual([
      [0, 'ValidatingAdmissionPolicy', 'broken', 'spec.validations[0].expression'],
    ])
  })
})
