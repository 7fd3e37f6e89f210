import { describe, expect, it } from 'vitest'
import { EquivalentResourceRegistry, RESTMapper } from '../../../src/kube/resources.js'
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../../../src/policy/attributes.js'
import { bindingMatches, definitionMatches } from '../../../src/policy/generic/policy-matcher.js'
import { StatusError } from '../../../src/policy/matching/errors.js'
import { Matcher, newMatchCriteria } from '../../../src/policy/matching/matching.js'
import { namespaceLookupFromObjects } from '../../../src/policy/matching/namespace.js'
import {
  defaultMatchResources,
  type MatchResources,
  type NamedRuleWithOperations,
} from '../../../src/policy/matching/types.js'
import { attrs, gvk, gvr } from './helpers.js'

// TestMatcher, transcribed from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/policy/matching/matching_test.go (cases in the Go table's order).

const mapper = new EquivalentResourceRegistry((_group, resource) =>
  // co-locate deployments in all API groups
  resource === 'deployments' ? '/deployments' : '',
)
mapper.registerKindFor(gvr('extensions', 'v1beta1', 'deployments'), '', gvk('extensions', 'v1beta1', 'Deployment'))
mapper.registerKindFor(gvr('apps', 'v1', 'deployments'), '', gvk('apps', 'v1', 'Deployment'))
mapper.registerKindFor(gvr('apps', 'v1beta1', 'deployments'), '', gvk('apps', 'v1beta1', 'Deployment'))
mapper.registerKindFor(gvr('apps', 'v1alpha1', 'deployments'), '', gvk('apps', 'v1alpha1', 'Deployment'))
mapper.registerKindFor(gvr('extensions', 'v1beta1', 'deployments'), 'scale', gvk('extensions', 'v1beta1', 'Scale'))
mapper.registerKindFor(gvr('apps', 'v1', 'deployments'), 'scale', gvk('autoscaling', 'v1', 'Scale'))
mapper.registerKindFor(gvr('apps', 'v1beta1', 'deployments'), 'scale', gvk('apps', 'v1beta1', 'Scale'))
mapper.registerKindFor(gvr('apps', 'v1alpha1', 'deployments'), 'scale', gvk('apps', 'v1alpha1', 'Scale'))
// register invalid kinds to trigger an error
mapper.registerKindFor(gvr('example.com', 'v1', 'widgets'), '', gvk('', '', ''))
mapper.registerKindFor(gvr('example.com', 'v2', 'widgets'), '', gvk('', '', ''))

const rule = (
  apiGroups: string[],
  apiVersions: string[],
  resources: string[],
  extra: Partial<NamedRuleWithOperations> = { scope: '*' },
): NamedRuleWithOperations => ({ operations: ['*'], apiGroups, apiVersions, resources, ...extra })

const create = (
  kind: GroupVersionKind,
  resource: GroupVersionResource,
  sub = '',
  obj: Record<string, unknown> | null = null,
) => attrs(obj, null, kind, 'ns', 'name', resource, sub, 'CREATE')

const sel = { namespaceSelector: {}, objectSelector: {} }
const appsDeployCreate = create(gvk('apps', 'v1', 'Deployment'), gvr('apps', 'v1', 'deployments'))
const scaleCreate = create(gvk('autoscaling', 'v1', 'Scale'), gvr('apps', 'v1', 'deployments'), 'scale')
const scaleMainCreate = create(gvk('autoscaling', 'v1', 'Scale'), gvr('apps', 'v1', 'deployments'))
const pod = { metadata: {} }
const examplePodCreate = create(
  gvk('example.apiserver.k8s.io', 'v1', 'Pod'),
  gvr('example.apiserver.k8s.io', 'v1', 'pods'),
  '',
  pod,
)
const badValueSelector = (key: string) => ({ matchExpressions: [{ key, operator: 'In', values: ['bad value'] }] })
const extDeploy = rule(['extensions'], ['v1beta1'], ['deployments'])
const extDeployScale = rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale'])
const appsBetaDeployScale = rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale'])

interface Case {
  name: string
  criteria: MatchResources
  attrs: AdmissionAttributes
  expectMatches: boolean
  expectMatchKind?: GroupVersionKind
  expectMatchResource?: GroupVersionResource
  expectErr?: string
}

const cases: Case[] = [
  {
    name: 'no rules (just write)',
    criteria: { namespaceSelector: {}, resourceRules: [] },
    attrs: appsDeployCreate,
    expectMatches: false,
  },
  {
    name: 'wildcard rule, match as requested',
    criteria: { ...sel, resourceRules: [rule(['*'], ['*'], ['*'])] },
    attrs: appsDeployCreate,
    expectMatches: true,
    expectMatchKind: gvk('apps', 'v1', 'Deployment'),
  },
  {
    name: 'specific rules, prefer exact match',
    criteria: {
      ...sel,
      resourceRules: [
        rule(['extensions'], ['v1'], ['deployments']),
        rule(['apps'], ['v1beta1'], ['deployments']),
        rule(['apps'], ['v1'], ['deployments']),
      ],
    },
    attrs: appsDeployCreate,
    expectMatches: true,
    expectMatchKind: gvk('apps', 'v1', 'Deployment'),
  },
  {
    name: 'specific rules, match miss',
    criteria: { ...sel, resourceRules: [extDeploy, rule(['apps'], ['v1beta1'], ['deployments'])] },
    attrs: appsDeployCreate,
    expectMatches: false,
  },
  {
    name: 'specific rules, exact match miss',
    criteria: {
      ...sel,
      matchPolicy: 'Exact',
      resourceRules: [extDeploy, rule(['apps'], ['v1beta1'], ['deployments'])],
    },
    attrs: appsDeployCreate,
    expectMatches: false,
  },
  {
    name: 'specific rules, equivalent match, prefer extensions',
    criteria: {
      ...sel,
      matchPolicy: 'Equivalent',
      resourceRules: [extDeploy, rule(['apps'], ['v1beta1'], ['deployments'])],
    },
    attrs: appsDeployCreate,
    expectMatches: true,
    expectMatchResource: gvr('extensions', 'v1beta1', 'deployments'),
    expectMatchKind: gvk('extensions', 'v1beta1', 'Deployment'),
  },
  {
    name: 'specific rules, equivalent match, prefer apps',
    criteria: {
      ...sel,
      matchPolicy: 'Equivalent',
      resourceRules: [rule(['apps'], ['v1beta1'], ['deployments']), extDeploy],
    },
    attrs: appsDeployCreate,
    expectMatches: true,
    expectMatchResource: gvr('apps', 'v1beta1', 'deployments'),
    expectMatchKind: gvk('apps', 'v1beta1', 'Deployment'),
  },
  {
    name: 'specific rules, subresource prefer exact match',
    criteria: {
      ...sel,
      resourceRules: [
        extDeployScale,
        appsBetaDeployScale,
        rule(['apps'], ['v1'], ['deployments', 'deployments/scale']),
      ],
    },
    attrs: scaleCreate,
    expectMatches: true,
    expectMatchKind: gvk('autoscaling', 'v1', 'Scale'),
  },
  {
    name: 'specific rules, subresource match miss',
    criteria: { ...sel, resourceRules: [extDeployScale, appsBetaDeployScale] },
    attrs: scaleCreate,
    expectMatches: false,
  },
  {
    name: 'specific rules, subresource exact match miss',
    criteria: { ...sel, matchPolicy: 'Exact', resourceRules: [extDeployScale, appsBetaDeployScale] },
    attrs: scaleCreate,
    expectMatches: false,
  },
  {
    name: 'specific rules, subresource equivalent match, prefer extensions',
    criteria: { ...sel, matchPolicy: 'Equivalent', resourceRules: [extDeployScale, appsBetaDeployScale] },
    attrs: scaleCreate,
    expectMatches: true,
    expectMatchResource: gvr('extensions', 'v1beta1', 'deployments'),
    expectMatchKind: gvk('extensions', 'v1beta1', 'Scale'),
  },
  {
    name: 'specific rules, subresource equivalent match, prefer apps',
    criteria: { ...sel, matchPolicy: 'Equivalent', resourceRules: [appsBetaDeployScale, extDeployScale] },
    attrs: scaleCreate,
    expectMatches: true,
    expectMatchResource: gvr('apps', 'v1beta1', 'deployments'),
    expectMatchKind: gvk('apps', 'v1beta1', 'Scale'),
  },
  {
    name: 'specific rules, prefer exact match and name match',
    criteria: {
      ...sel,
      resourceRules: [rule(['apps'], ['v1'], ['deployments'], { scope: '*', resourceNames: ['name'] })],
    },
    attrs: scaleMainCreate,
    expectMatches: true,
    expectMatchKind: gvk('autoscaling', 'v1', 'Scale'),
  },
  {
    name: 'specific rules, prefer exact match and name match miss',
    criteria: {
      ...sel,
      resourceRules: [rule(['apps'], ['v1'], ['deployments'], { scope: '*', resourceNames: ['wrong-name'] })],
    },
    attrs: scaleMainCreate,
    expectMatches: false,
  },
  {
    name: 'specific rules, subresource equivalent match, prefer extensions and name match',
    criteria: {
      ...sel,
      matchPolicy: 'Equivalent',
      resourceRules: [
        rule(['apps'], ['v1'], ['deployments', 'deployments/scale'], { scope: '*', resourceNames: ['name'] }),
      ],
    },
    attrs: create(gvk('autoscaling', 'v1', 'Scale'), gvr('extensions', 'v1beta1', 'deployments'), 'scale'),
    expectMatches: true,
    expectMatchResource: gvr('apps', 'v1', 'deployments'),
    expectMatchKind: gvk('autoscaling', 'v1', 'Scale'),
  },
  {
    name: 'specific rules, subresource equivalent match, prefer extensions and name match miss',
    criteria: {
      ...sel,
      matchPolicy: 'Equivalent',
      resourceRules: [
        rule(['apps'], ['v1'], ['deployments', 'deployments/scale'], { scope: '*', resourceNames: ['wrong-name'] }),
      ],
    },
    attrs: create(gvk('autoscaling', 'v1', 'Scale'), gvr('extensions', 'v1beta1', 'deployments'), 'scale'),
    expectMatches: false,
  },
  {
    name: 'exclude resource match on miss',
    criteria: { ...sel, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [extDeploy] },
    attrs: scaleMainCreate,
    expectMatches: true,
    expectMatchKind: gvk('autoscaling', 'v1', 'Scale'),
  },
  {
    name: 'exclude resource miss on match',
    criteria: { ...sel, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [extDeploy] },
    attrs: create(gvk('autoscaling', 'v1', 'Scale'), gvr('extensions', 'v1beta1', 'deployments')),
    expectMatches: false,
  },
  {
    name: 'treat empty ResourceRules as match',
    criteria: { ...sel, excludeResourceRules: [extDeploy] },
    attrs: scaleMainCreate,
    expectMatches: true,
  },
  {
    name: 'treat non-empty ResourceRules as no match',
    criteria: { ...sel, resourceRules: [{}] },
    attrs: scaleMainCreate,
    expectMatches: false,
  },
  {
    name: "erroring namespace selector on otherwise non-matching rule doesn't error",
    criteria: {
      namespaceSelector: badValueSelector('key '),
      objectSelector: {},
      resourceRules: [rule(['*'], ['*'], ['deployments'], {})],
    },
    attrs: examplePodCreate,
    expectMatches: false,
    expectErr: '',
  },
  {
    name: 'erroring namespace selector on otherwise matching rule errors',
    criteria: {
      namespaceSelector: badValueSelector('key'),
      objectSelector: {},
      resourceRules: [rule(['*'], ['*'], ['pods'], {})],
    },
    attrs: examplePodCreate,
    expectMatches: false,
    expectErr: 'bad value',
  },
  {
    name: "erroring object selector on otherwise non-matching rule doesn't error",
    criteria: {
      namespaceSelector: {},
      objectSelector: badValueSelector('key'),
      resourceRules: [rule(['*'], ['*'], ['deployments'], {})],
    },
    attrs: examplePodCreate,
    expectMatches: false,
    expectErr: '',
  },
  {
    name: 'erroring object selector on otherwise matching rule errors',
    criteria: {
      namespaceSelector: {},
      objectSelector: badValueSelector('key'),
      resourceRules: [rule(['*'], ['*'], ['pods'], {})],
    },
    attrs: examplePodCreate,
    expectMatches: false,
    expectErr: 'bad value',
  },
]

describe('TestMatcher', () => {
  const a = new Matcher()
  for (const tc of cases) {
    it(tc.name, () => {
      const r = a.matches(tc.attrs, mapper, newMatchCriteria(tc.criteria))
      if (r.error) {
        if (!tc.expectErr) throw r.error
        expect(r.error.message).toContain(tc.expectErr)
        return
      }
      expect(tc.expectErr ?? '').toBe('')
      if (tc.expectMatchKind && r.matches) expect(r.matchKind).toEqual(tc.expectMatchKind)
      expect(r.matches).toBe(tc.expectMatches)
      if (tc.expectMatchResource) expect(r.matches).toBe(true)
      // exact match by default; equivalent matches state expectMatchResource
      if (r.matches) expect(r.matchResource).toEqual(tc.expectMatchResource ?? tc.attrs.resource)
    })
  }
})

describe('Matcher: beyond the Go table', () => {
  const m = new Matcher()
  it('unknown kind for an equivalent resource errors (the registry registers empty kinds for widgets)', () => {
    const r = m.matches(
      create(gvk('example.com', 'v1', 'Widget'), gvr('example.com', 'v1', 'widgets')),
      mapper,
      newMatchCriteria({
        ...sel,
        matchPolicy: 'Equivalent',
        resourceRules: [rule(['example.com'], ['v2'], ['widgets'])],
      }),
    )
    expect(r.matches).toBe(false)
    expect(r.error?.message).toBe('unable to convert to example.com/v2, Resource=widgets: unknown kind')
  })

  it('excludeResourceRules use the equivalent resources too (matchPolicy Equivalent)', () => {
    const criteria = { ...sel, matchPolicy: 'Equivalent', excludeResourceRules: [extDeploy] }
    expect(m.matches(appsDeployCreate, mapper, newMatchCriteria(criteria)).matches).toBe(false)
    expect(m.matches(appsDeployCreate, mapper, newMatchCriteria({ ...criteria, matchPolicy: 'Exact' })).matches).toBe(
      true,
    )
  })

  it('invalid selector messages are internal errors carrying the field errors', () => {
    const r = m.matches(
      examplePodCreate,
      mapper,
      newMatchCriteria({
        namespaceSelector: {},
        objectSelector: badValueSelector('key'),
        resourceRules: [rule(['*'], ['*'], ['pods'])],
      }),
    )
    expect(r.error).toBeInstanceOf(StatusError)
    expect((r.error as StatusError).status.code).toBe(500)
    expect(r.error?.message).toMatch(/^Internal error occurred: values\[0\]\[key\]: Invalid value: "bad value": /)
  })

  const withNs = new Matcher(
    namespaceLookupFromObjects([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } },
    ]),
  )
  const nsCriteria = newMatchCriteria({
    namespaceSelector: { matchLabels: { env: 'prod' } },
    objectSelector: {},
    resourceRules: [rule(['apps'], ['v1'], ['deployments'])],
  })
  const deployIn = (ns: string) =>
    attrs(
      { metadata: {} },
      null,
      gvk('apps', 'v1', 'Deployment'),
      ns,
      'd',
      gvr('apps', 'v1', 'deployments'),
      '',
      'CREATE',
    )

  it('namespaceSelector reads the supplied Namespace objects', () => {
    expect(withNs.matches(deployIn('prod'), mapper, nsCriteria).matches).toBe(true)
    expect(withNs.matches(deployIn('dev'), mapper, nsCriteria)).toEqual({ matches: false })
  })

  it('an unknown namespace is NotFound, as the API server reports a namespace that does not exist', () => {
    const r = withNs.matches(deployIn('nowhere'), mapper, nsCriteria)
    expect(r.matches).toBe(false)
    expect(r.error).toBeInstanceOf(StatusError)
    expect((r.error as StatusError).status).toMatchObject({ code: 404, reason: 'NotFound' })
    expect(r.error?.message).toBe('namespaces "nowhere" not found')
    // …but only when the rules match: a request the policy does not apply to is not failed
    const other = attrs(null, null, gvk('', 'v1', 'Pod'), 'nowhere', 'p', gvr('', 'v1', 'pods'), '', 'CREATE')
    expect(withNs.matches(other, mapper, nsCriteria)).toEqual({ matches: false })
  })

  it('with the built-in REST mapping, core events match a rule for events.k8s.io (Equivalent)', () => {
    const rm = new RESTMapper()
    const ev = attrs({ metadata: {} }, null, gvk('', 'v1', 'Event'), 'ns', 'e', gvr('', 'v1', 'events'), '', 'CREATE')
    const r = m.matches(
      ev,
      rm,
      newMatchCriteria(defaultMatchResources({ resourceRules: [rule(['events.k8s.io'], ['v1'], ['events'])] })),
    )
    expect(r).toEqual({
      matches: true,
      matchResource: gvr('events.k8s.io', 'v1', 'events'),
      matchKind: gvk('events.k8s.io', 'v1', 'Event'),
    })
  })

  it('an autoscaling/v1 HPA request matches a rule for autoscaling/v2 as an autoscaling/v2 HPA', () => {
    const rm = new RESTMapper()
    const hpa = attrs(
      { metadata: {} },
      null,
      gvk('autoscaling', 'v1', 'HorizontalPodAutoscaler'),
      'ns',
      'h',
      gvr('autoscaling', 'v1', 'horizontalpodautoscalers'),
      '',
      'UPDATE',
    )
    const mr = defaultMatchResources({ resourceRules: [rule(['autoscaling'], ['v2'], ['horizontalpodautoscalers'])] })
    const r = m.matches(hpa, rm, newMatchCriteria(mr))
    expect(r.matches && r.matchKind).toEqual(gvk('autoscaling', 'v2', 'HorizontalPodAutoscaler'))
    expect(m.matches(hpa, rm, newMatchCriteria({ ...mr, matchPolicy: 'Exact' })).matches).toBe(false)
  })
})

describe('policy_matcher.go: DefinitionMatches / BindingMatches', () => {
  const m = new Matcher()
  const attr = appsDeployCreate
  it('requires matchConstraints and both selectors', () => {
    expect(definitionMatches(m, attr, mapper, undefined).error?.message).toBe(
      'policy contained no match constraints, a required field',
    )
    expect(definitionMatches(m, attr, mapper, { objectSelector: {} }).error?.message).toBe(
      'a nil namespace selector was passed, please ensure selectors are initialized properly',
    )
    expect(definitionMatches(m, attr, mapper, { namespaceSelector: {} }).error?.message).toBe(
      'a nil object selector was passed, please ensure selectors are initialized properly',
    )
    expect(definitionMatches(m, attr, mapper, { ...sel }).matches).toBe(true)
  })
  it('a binding without matchResources matches', () => {
    expect(bindingMatches(m, attr, mapper, undefined)).toEqual({ matches: true })
    expect(bindingMatches(m, attr, mapper, { namespaceSelector: {} }).error?.message).toContain('nil object selector')
    expect(bindingMatches(m, attr, mapper, { ...sel, resourceRules: [rule(['batch'], ['*'], ['*'])] })).toEqual({
      matches: false,
    })
  })
  it('defaultMatchResources applies the API defaults', () => {
    expect(defaultMatchResources({ resourceRules: [{ resources: ['pods'] }] })).toEqual({
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ resources: ['pods'], scope: '*' }],
    })
  })
})
