import { describe, expect, it } from 'vitest'
import type { AdmissionAttributes, Operation } from '../../../src/policy/attributes.js'
import {
  isExemptAdmissionConfigurationResource,
  ruleGroupMatches,
  ruleMatches,
  ruleOperationMatches,
  ruleResourceMatches,
  ruleScopeMatches,
  ruleVersionMatches,
} from '../../../src/policy/matching/rules.js'
import type { RuleWithOperations } from '../../../src/policy/matching/types.js'
import { attrs, gvk, gvr } from './helpers.js'

// Transcribed from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/webhook/predicates/rules/rules_test.go.

// a(group, version, resource, subresource, name, operation): namespace "ns", kind "k"+resource
const a = (g: string, v: string, r: string, sub: string, name: string, op: Operation): AdmissionAttributes =>
  attrs(null, null, gvk(g, v, `k${r}`), 'ns', name, gvr(g, v, r), sub, op)
const namespacedAttributes = a
const clusterScopedAttributes = (
  g: string,
  v: string,
  r: string,
  sub: string,
  name: string,
  op: Operation,
): AdmissionAttributes => attrs(null, null, gvk(g, v, `k${r}`), '', name, gvr(g, v, r), sub, op)

interface RuleTest {
  rule: RuleWithOperations
  match?: AdmissionAttributes[]
  noMatch?: AdmissionAttributes[]
}

function run(table: Record<string, RuleTest>, pred: (r: RuleWithOperations, a: AdmissionAttributes) => boolean): void {
  for (const [name, tt] of Object.entries(table)) {
    describe(name, () => {
      ;(tt.match ?? []).forEach((m, i) => {
        it(`match_${i}`, () => expect(pred(tt.rule, m)).toBe(true))
      })
      ;(tt.noMatch ?? []).forEach((m, i) => {
        it(`nomatch_${i}`, () => expect(pred(tt.rule, m)).toBe(false))
      })
    })
  }
}

describe('TestGroup', () => {
  run(
    {
      wildcard: { rule: { apiGroups: ['*'] }, match: [a('g', 'v', 'r', '', 'name', 'CREATE')] },
      exact: {
        rule: { apiGroups: ['g1', 'g2'] },
        match: [a('g1', 'v', 'r', '', 'name', 'CREATE'), a('g2', 'v2', 'r3', '', 'name', 'CREATE')],
        noMatch: [a('g3', 'v', 'r', '', 'name', 'CREATE'), a('g4', 'v', 'r', '', 'name', 'CREATE')],
      },
    },
    ruleGroupMatches,
  )
})

describe('TestVersion', () => {
  run(
    {
      wildcard: { rule: { apiVersions: ['*'] }, match: [a('g', 'v', 'r', '', 'name', 'CREATE')] },
      exact: {
        rule: { apiVersions: ['v1', 'v2'] },
        match: [a('g1', 'v1', 'r', '', 'name', 'CREATE'), a('g2', 'v2', 'r', '', 'name', 'CREATE')],
        noMatch: [a('g1', 'v3', 'r', '', 'name', 'CREATE'), a('g2', 'v4', 'r', '', 'name', 'CREATE')],
      },
    },
    ruleVersionMatches,
  )
})

describe('TestOperation', () => {
  const op = (o: Operation) => a('g', 'v', 'r', '', 'name', o)
  run(
    {
      wildcard: { rule: { operations: ['*'] }, match: [op('CREATE'), op('UPDATE'), op('DELETE'), op('CONNECT')] },
      create: {
        rule: { operations: ['CREATE'] },
        match: [op('CREATE')],
        noMatch: [op('UPDATE'), op('DELETE'), op('CONNECT')],
      },
      update: {
        rule: { operations: ['UPDATE'] },
        match: [op('UPDATE')],
        noMatch: [op('CREATE'), op('DELETE'), op('CONNECT')],
      },
      delete: {
        rule: { operations: ['DELETE'] },
        match: [op('DELETE')],
        noMatch: [op('CREATE'), op('UPDATE'), op('CONNECT')],
      },
      connect: {
        rule: { operations: ['CONNECT'] },
        match: [op('CONNECT')],
        noMatch: [op('CREATE'), op('UPDATE'), op('DELETE')],
      },
      multiple: {
        rule: { operations: ['UPDATE', 'DELETE'] },
        match: [op('UPDATE'), op('DELETE')],
        noMatch: [op('CREATE'), op('CONNECT')],
      },
    },
    ruleOperationMatches,
  )
})

describe('TestResource', () => {
  run(
    {
      'no subresources': {
        rule: { resources: ['*'] },
        match: [a('g', 'v', 'r', '', 'name', 'CREATE'), a('2', 'v', 'r2', '', 'name', 'CREATE')],
        noMatch: [a('g', 'v', 'r', 'exec', 'name', 'CREATE'), a('2', 'v', 'r2', 'proxy', 'name', 'CREATE')],
      },
      'r & subresources': {
        rule: { resources: ['r/*'] },
        match: [a('g', 'v', 'r', '', 'name', 'CREATE'), a('g', 'v', 'r', 'exec', 'name', 'CREATE')],
        noMatch: [a('2', 'v', 'r2', '', 'name', 'CREATE'), a('2', 'v', 'r2', 'proxy', 'name', 'CREATE')],
      },
      'r & subresources or r2': {
        rule: { resources: ['r/*', 'r2'] },
        match: [
          a('g', 'v', 'r', '', 'name', 'CREATE'),
          a('g', 'v', 'r', 'exec', 'name', 'CREATE'),
          a('2', 'v', 'r2', '', 'name', 'CREATE'),
        ],
        noMatch: [a('2', 'v', 'r2', 'proxy', 'name', 'CREATE')],
      },
      'proxy or exec': {
        rule: { resources: ['*/proxy', '*/exec'] },
        match: [
          a('g', 'v', 'r', 'exec', 'name', 'CREATE'),
          a('2', 'v', 'r2', 'proxy', 'name', 'CREATE'),
          a('2', 'v', 'r3', 'proxy', 'name', 'CREATE'),
        ],
        noMatch: [
          a('g', 'v', 'r', '', 'name', 'CREATE'),
          a('2', 'v', 'r2', '', 'name', 'CREATE'),
          a('2', 'v', 'r4', 'scale', 'name', 'CREATE'),
        ],
      },
    },
    ruleResourceMatches,
  )
})

describe('TestScope', () => {
  const all = [
    namespacedAttributes('g', 'v', 'r', '', 'name', 'CREATE'),
    namespacedAttributes('g', 'v', 'r', 'exec', 'name', 'CREATE'),
    clusterScopedAttributes('g', 'v', 'r', '', 'name', 'CREATE'),
    clusterScopedAttributes('g', 'v', 'r', 'exec', 'name', 'CREATE'),
    clusterScopedAttributes('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
    clusterScopedAttributes('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
    namespacedAttributes('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
    namespacedAttributes('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
  ]
  run(
    {
      'all scopes': { rule: { resources: ['*'], scope: '*' }, match: all, noMatch: [] },
      'cluster scope': {
        rule: { resources: ['*'], scope: 'Cluster' },
        match: [
          clusterScopedAttributes('g', 'v', 'r', '', 'name', 'CREATE'),
          clusterScopedAttributes('g', 'v', 'r', 'exec', 'name', 'CREATE'),
          clusterScopedAttributes('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
          clusterScopedAttributes('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
          namespacedAttributes('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
          namespacedAttributes('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
        ],
        noMatch: [
          namespacedAttributes('g', 'v', 'r', '', 'name', 'CREATE'),
          namespacedAttributes('g', 'v', 'r', 'exec', 'name', 'CREATE'),
        ],
      },
      'namespace scope': {
        rule: { resources: ['*'], scope: 'Namespaced' },
        match: [
          namespacedAttributes('g', 'v', 'r', '', 'name', 'CREATE'),
          namespacedAttributes('g', 'v', 'r', 'exec', 'name', 'CREATE'),
        ],
        noMatch: [
          clusterScopedAttributes('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
          clusterScopedAttributes('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
          namespacedAttributes('', 'v1', 'namespaces', '', 'ns', 'CREATE'),
          namespacedAttributes('', 'v1', 'namespaces', 'finalize', 'ns', 'CREATE'),
          clusterScopedAttributes('g', 'v', 'r', '', 'name', 'CREATE'),
          clusterScopedAttributes('g', 'v', 'r', 'exec', 'name', 'CREATE'),
        ],
      },
    },
    ruleScopeMatches,
  )
  // rules.go: an unknown scope value matches nothing; an absent scope matches everything.
  it('unknown scope matches nothing, absent scope everything (rules.go scope())', () => {
    expect(ruleScopeMatches({ scope: 'Bogus' }, all[0]!)).toBe(false)
    expect(all.every((x) => ruleScopeMatches({}, x))).toBe(true)
  })
})

describe('Matches (all predicates) and IsExemptAdmissionConfigurationResource (rules.go)', () => {
  it('requires every predicate', () => {
    const rule: RuleWithOperations = { operations: ['CREATE'], apiGroups: ['g'], apiVersions: ['v'], resources: ['r'] }
    expect(ruleMatches(rule, a('g', 'v', 'r', '', 'name', 'CREATE'))).toBe(true)
    expect(ruleMatches(rule, a('g', 'v', 'r', '', 'name', 'UPDATE'))).toBe(false)
    expect(ruleMatches(rule, a('g', 'v2', 'r', '', 'name', 'CREATE'))).toBe(false)
    expect(ruleMatches({ ...rule, operations: [] }, a('g', 'v', 'r', '', 'name', 'CREATE'))).toBe(false)
  })
  it('exempts admission configuration kinds', () => {
    for (const k of [
      'ValidatingWebhookConfiguration',
      'MutatingWebhookConfiguration',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
      'MutatingAdmissionPolicy',
      'MutatingAdmissionPolicyBinding',
    ])
      expect(isExemptAdmissionConfigurationResource({ kind: gvk('admissionregistration.k8s.io', 'v1', k) })).toBe(true)
    expect(isExemptAdmissionConfigurationResource({ kind: gvk('apps', 'v1', 'ValidatingAdmissionPolicy') })).toBe(false)
  })
})
