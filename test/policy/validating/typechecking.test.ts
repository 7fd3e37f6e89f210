import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { MatchResources, ValidatingAdmissionPolicy } from '../../../src/kube/admissionregistration/types.js'
import {
  OpenAPISchemaResolver,
  type OpenAPIV3Document,
  populateRefs,
  SchemaNotFoundError,
  toJSONSchemaProps,
} from '../../../src/kube/openapi.js'
import { RESTMapper } from '../../../src/kube/resources.js'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import type { GroupVersionKind } from '../../../src/policy/attributes.js'
import {
  kindsFor,
  type TypeCheckWarning,
  typeCheck,
  typesToCheck,
} from '../../../src/policy/validating/typechecking.js'
import { widgetCrd } from '../../fixtures/widget-crd.js'

// TestExtractTypeNames and TestTypeCheck are transcribed from k8s.io/apiserver release-1.36
// pkg/admission/plugin/policy/validating/typechecking_test.go (case names and expectations as
// there; the fake schema resolver returns one schema for every kind, or "not found"). The Go test's
// RESTMapper knows only v1 Pod and apps/v1 Deployment; kelp's default RESTMapper serves those too.
// The later tests are kelp's own, against the hand-trimmed OpenAPI v3 fixtures.

const fixture = (name: string): OpenAPIV3Document =>
  JSON.parse(readFileSync(new URL(`../../fixtures/openapi/${name}`, import.meta.url), 'utf8')) as OpenAPIV3Document

const mapper = new RESTMapper()

const deployments: MatchResources = {
  resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
}

// spec.StringProperty(), spec.Int64Property()
const stringProperty: JSONSchemaProps = { type: 'string' }
const int64Property: JSONSchemaProps = { type: 'integer', format: 'int64' }
const objectWith = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties })

function check(policy: ValidatingAdmissionPolicy, schemaToReturn: JSONSchemaProps | undefined): TypeCheckWarning[] {
  return typeCheck(policy, { schemas: () => schemaToReturn, mapper })
}

type Assertion = (warnings: TypeCheckWarning[]) => void
const toBeEmpty: Assertion = (w) => expect(w).toEqual([])
const toHaveLengthOf =
  (n: number): Assertion =>
  (w) =>
    expect(w).toHaveLength(n)
const toHaveFieldRef =
  (...paths: string[]): Assertion =>
  (w) =>
    expect(w.map((x) => x.fieldRef)).toEqual(paths)
const toContain =
  (substring: string): Assertion =>
  (w) => {
    expect(w.length).toBeGreaterThan(0)
    for (const x of w) expect(x.warning).toContain(substring)
  }

describe('TestExtractTypeNames', () => {
  const cases: { name: string; policy: ValidatingAdmissionPolicy; expected: GroupVersionKind[] }[] = [
    { name: 'empty', policy: {}, expected: [] },
    {
      name: 'specific',
      policy: { spec: { matchConstraints: deployments } },
      expected: [{ group: 'apps', version: 'v1', kind: 'Deployment' }],
    },
    {
      name: 'multiple',
      policy: {
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
              { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] },
            ],
          },
        },
      },
      expected: [
        { group: '', version: 'v1', kind: 'Pod' },
        { group: 'apps', version: 'v1', kind: 'Deployment' },
      ],
    },
    {
      name: 'all resources',
      policy: {
        spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['*'] }] } },
      },
      expected: [],
    },
    {
      name: 'sub resources',
      policy: {
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['pods/*'] }] },
        },
      },
      expected: [],
    },
    {
      name: 'mixtures',
      policy: {
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
              { apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments'] },
            ],
          },
        },
      },
      expected: [{ group: 'apps', version: 'v1', kind: 'Deployment' }],
    },
  ]
  for (const tc of cases) it(tc.name, () => expect(typesToCheck(tc.policy, mapper)).toEqual(tc.expected))
})

describe('TestTypeCheck', () => {
  const deploymentPolicy: ValidatingAdmissionPolicy = {
    spec: { validations: [{ expression: "object.foo == 'bar'" }], matchConstraints: deployments },
  }
  const noTypeSchemaPolicy: ValidatingAdmissionPolicy = {
    spec: { validations: [{ expression: 'true' }], matchConstraints: deployments },
  }
  const deploymentPolicyWithBadMessageExpression: ValidatingAdmissionPolicy = {
    spec: {
      validations: [{ expression: "object.foo == 'bar'", messageExpression: 'object.foo + 114514' }], // confusion
      matchConstraints: deployments,
    },
  }
  const multiExpressionPolicy: ValidatingAdmissionPolicy = {
    spec: {
      validations: [{ expression: "object.foo == 'bar'" }, { expression: "object.bar == 'foo'" }],
      matchConstraints: deployments,
    },
  }
  const paramsRefPolicy: ValidatingAdmissionPolicy = {
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'DoesNotMatter' },
      validations: [{ expression: 'object.foo == params.bar' }],
      matchConstraints: deployments,
    },
  }
  const authorizerPolicy: ValidatingAdmissionPolicy = {
    spec: {
      validations: [{ expression: "authorizer.group('').resource('endpoints').check('create').allowed()" }],
      matchConstraints: deployments,
    },
  }
  const authorizerInvalidPolicy: ValidatingAdmissionPolicy = {
    spec: { validations: [{ expression: 'authorizer.allowed()' }], matchConstraints: deployments },
  }
  const reproducerPolicy: ValidatingAdmissionPolicy = {
    spec: {
      validations: [{ expression: 'has(object.spec.text)' }],
      matchConstraints: {
        resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1alpha1'], resources: ['reproducers'] }],
      },
    },
  }
  const fooString = objectWith({ foo: stringProperty })
  const fooInt64 = objectWith({ foo: int64Property })

  const cases: {
    name: string
    schemaToReturn?: JSONSchemaProps
    policy: ValidatingAdmissionPolicy
    assertions: Assertion[]
  }[] = [
    { name: 'empty', policy: {}, assertions: [toBeEmpty] },
    { name: 'unresolved schema', policy: deploymentPolicy, assertions: [toBeEmpty] },
    { name: 'passed check', policy: deploymentPolicy, schemaToReturn: fooString, assertions: [toBeEmpty] },
    {
      name: 'undefined field',
      policy: deploymentPolicy,
      schemaToReturn: objectWith({ bar: stringProperty }),
      assertions: [toHaveFieldRef('spec.validations[0].expression'), toContain(`undefined field 'foo'`)],
    },
    {
      name: 'field type mismatch',
      policy: deploymentPolicy,
      schemaToReturn: fooInt64,
      assertions: [toHaveFieldRef('spec.validations[0].expression'), toContain('found no matching overload')],
    },
    {
      name: 'params',
      policy: paramsRefPolicy,
      schemaToReturn: fooString,
      assertions: [toHaveFieldRef('spec.validations[0].expression'), toContain(`undefined field 'bar'`)],
    },
    {
      name: 'params with untyped schema',
      policy: {
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'Config' },
          validations: [{ expression: 'params != null' }],
          matchConstraints: deployments,
        },
      },
      schemaToReturn: {},
      assertions: [toBeEmpty],
    },
    {
      name: 'multiple expressions',
      policy: multiExpressionPolicy,
      schemaToReturn: fooString,
      // expressions[0] is okay, [1] is wrong
      assertions: [toHaveFieldRef('spec.validations[1].expression'), toHaveLengthOf(1)],
    },
    {
      name: 'message expressions',
      policy: deploymentPolicyWithBadMessageExpression,
      schemaToReturn: fooString,
      assertions: [toHaveFieldRef('spec.validations[0].messageExpression'), toHaveLengthOf(1)],
    },
    { name: 'authorizer', policy: authorizerPolicy, schemaToReturn: fooString, assertions: [toBeEmpty] },
    {
      name: 'authorizer invalid',
      policy: authorizerInvalidPolicy,
      schemaToReturn: fooString,
      assertions: [
        toHaveFieldRef('spec.validations[0].expression'),
        toHaveLengthOf(1),
        toContain("found no matching overload for 'allowed' applied to 'kubernetes.authorization.Authorizer"),
      ],
    },
    {
      name: 'additionalProperties: true',
      policy: reproducerPolicy,
      schemaToReturn: objectWith({
        spec: objectWith({ text: stringProperty }),
        status: objectWith({ problematicProperty: { type: 'object', additionalProperties: true } }),
      }),
      assertions: [toBeEmpty],
    },
    { name: 'schema without type', policy: noTypeSchemaPolicy, schemaToReturn: {}, assertions: [toBeEmpty] },
    {
      name: 'variables valid',
      policy: {
        spec: {
          variables: [{ name: 'works', expression: 'true' }],
          validations: [{ expression: 'variables.works' }],
          matchConstraints: deployments,
        },
      },
      schemaToReturn: fooInt64,
      assertions: [toHaveLengthOf(0)],
    },
    {
      name: 'variables missing field',
      policy: {
        spec: {
          variables: [{ name: 'works', expression: 'true' }],
          validations: [{ expression: 'variables.nonExisting' }],
          matchConstraints: deployments,
        },
      },
      schemaToReturn: fooInt64,
      assertions: [
        toHaveLengthOf(1),
        toHaveFieldRef('spec.validations[0].expression'),
        toContain("undefined field 'nonExisting'"),
      ],
    },
    {
      name: 'variables field wrong type',
      policy: {
        spec: {
          variables: [{ name: 'name', expression: "'something'" }],
          validations: [{ expression: 'variables.name == object.foo' }], // foo is int64
          matchConstraints: deployments,
        },
      },
      schemaToReturn: fooInt64,
      assertions: [
        toHaveLengthOf(1),
        toHaveFieldRef('spec.validations[0].expression'),
        toContain("found no matching overload for '_==_' applied to '(string, int)"),
      ],
    },
    {
      name: 'error in variables, not reported during type checking.',
      policy: {
        spec: {
          variables: [{ name: 'name', expression: "object.foo == 'str'" }],
          validations: [{ expression: 'variables.name == object.foo' }], // foo is int64
          matchConstraints: deployments,
        },
      },
      schemaToReturn: fooInt64,
      assertions: [toHaveLengthOf(0)],
    },
  ]
  for (const tc of cases)
    it(tc.name, () => {
      const warnings = check(tc.policy, tc.schemaToReturn)
      for (const a of tc.assertions) a(warnings)
    })
})

describe('warning text (TypeCheckingResult.String)', () => {
  it('is "<group>/<version>, Kind=<Kind>: <issues>\\n"', () => {
    const w = check(
      { spec: { validations: [{ expression: "object.foo == 'bar'" }], matchConstraints: deployments } },
      objectWith({ bar: stringProperty }),
    )
    expect(w).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'foo'\n | object.foo == 'bar'\n | ......^\n",
      },
    ])
  })

  it('joins the kinds that fail with "\\n", core group as "/v1"', () => {
    const w = check(
      {
        spec: {
          validations: [{ expression: 'object.nope' }],
          matchConstraints: {
            resourceRules: [{ apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['pods', 'deployments'] }],
          },
        },
      },
      objectWith({ foo: stringProperty }),
    )
    const issue = "ERROR: <input>:1:7: undefined field 'nope'\n | object.nope\n | ......^\n"
    expect(w).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning: `/v1, Kind=Pod: ${issue}\napps/v1, Kind=Deployment: ${issue}`,
      },
    ])
  })

  it('names the root types <Kind><n> in resolution order (kinds sorted, then params)', () => {
    const w = check(
      {
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          validations: [{ expression: 'object + params' }],
          matchConstraints: deployments,
        },
      },
      fooString,
    )
    expect(w[0]?.warning).toContain("found no matching overload for '_+_' applied to '(Deployment1, ConfigMap2)'")
  })

  const fooString = objectWith({ foo: stringProperty })
})

describe('type-checking environment', () => {
  // buildEnvSet declares `authorizer` only, so `authorizer.requestResource` is a field selection on
  // cel.ObjectType("kubernetes.authorization.Authorizer"), a struct type no provider knows (authz.go
  // registers functions, not types): cel-go's checker lookupFieldType reports
  // `unexpected failed resolution of 'kubernetes.authorization.Authorizer'` at the select.
  it('reports authorizer.requestResource as the apiserver does', () => {
    const w = check(
      {
        spec: {
          validations: [{ expression: "authorizer.requestResource.check('get').allowed()" }],
          matchConstraints: deployments,
        },
      },
      objectWith({ foo: stringProperty }),
    )
    expect(w[0]?.warning).toBe(
      "apps/v1, Kind=Deployment: ERROR: <input>:1:11: unexpected failed resolution of 'kubernetes.authorization.Authorizer'\n | authorizer.requestResource.check('get').allowed()\n | ..........^\n",
    )
  })
})

describe('typesToCheck and the REST mapping (RESTMapper.KindsFor)', () => {
  it('resolves singular names and lower-cases resources', () => {
    expect(kindsFor(mapper, { group: 'apps', version: 'v1', resource: 'Deployment' })).toEqual([
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ])
  })
  it('an empty group matches the version in every group', () => {
    expect(kindsFor(mapper, { group: '', version: 'v1', resource: 'events' })).toEqual([
      { group: '', version: 'v1', kind: 'Event' },
      { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
    ])
  })
  it('unknown resources and versions resolve to nothing', () => {
    expect(kindsFor(mapper, { group: 'apps', version: 'v2', resource: 'deployments' })).toEqual([])
    expect(
      typesToCheck(
        {
          spec: {
            matchConstraints: {
              resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
            },
          },
        },
        mapper,
      ),
    ).toEqual([])
  })
  it('a wildcard group or version skips the rule; wildcard and subresource resources are dropped', () => {
    const p = (apiGroups: string[], apiVersions: string[], resources: string[]): ValidatingAdmissionPolicy => ({
      spec: { matchConstraints: { resourceRules: [{ apiGroups, apiVersions, resources }] } },
    })
    expect(typesToCheck(p(['apps', '*'], ['v1'], ['deployments']), mapper)).toEqual([])
    expect(typesToCheck(p(['apps'], ['v1', 'v*'], ['deployments']), mapper)).toEqual([])
    expect(typesToCheck(p(['apps'], ['v1'], ['deployments/status', '*', 'replicasets']), mapper)).toEqual([
      { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
    ])
  })
  it('stops a rule at 10 kinds found, sorted by group, version, kind', () => {
    const resources = [
      'configmaps',
      'endpoints',
      'events',
      'limitranges',
      'namespaces',
      'nodes',
      'persistentvolumeclaims',
      'persistentvolumes',
      'pods',
      'podtemplates',
      'secrets',
      'services',
    ]
    const got = typesToCheck(
      { spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources }] } } },
      mapper,
    )
    // sorted: configmaps, endpoints, events (core and events.k8s.io: two kinds), limitranges, namespaces,
    // nodes, persistentvolumeclaims, persistentvolumes, pods → the 10th kind found
    expect(got.map((k) => `${k.group}/${k.kind}`)).toEqual([
      '/ConfigMap',
      '/Endpoints',
      '/Event',
      '/LimitRange',
      '/Namespace',
      '/Node',
      '/PersistentVolume',
      '/PersistentVolumeClaim',
      '/Pod',
      'events.k8s.io/Event',
    ])
  })
})

describe('OpenAPI v3 documents (resolver.ClientDiscoveryResolver, PopulateRefs)', () => {
  const apps = fixture('apis__apps__v1.json')
  const core = fixture('api__v1.json')
  const resolver = new OpenAPISchemaResolver([apps, core])
  const deployment = { group: 'apps', version: 'v1', kind: 'Deployment' }

  it('finds a kind by x-kubernetes-group-version-kind in its group-version document, refs populated', () => {
    const s = resolver.resolveSchema(deployment)
    expect(s.type).toBe('object')
    const spec = s.properties?.['spec']
    expect(spec?.required).toEqual(['selector', 'template'])
    // the allOf wrapper (with its default and description) is replaced by the referred schema
    expect(spec?.['allOf']).toBeUndefined()
    const containers = spec?.properties?.['template']?.properties?.['spec']?.properties?.['containers']
    expect(containers?.items?.properties?.['image']?.type).toBe('string')
    expect(s.properties?.['metadata']?.properties?.['creationTimestamp']).toMatchObject({
      type: 'string',
      format: 'date-time',
    })
    // IntOrString: the format the built-in types carry means x-kubernetes-int-or-string
    expect(
      spec?.properties?.['strategy']?.properties?.['rollingUpdate']?.properties?.['maxSurge']?.[
        'x-kubernetes-int-or-string'
      ],
    ).toBe(true)
  })

  it('kinds are looked up only in their own group-version document', () => {
    // autoscaling/v1 Scale is a component of the apps/v1 document, but discovery looks in autoscaling/v1
    expect(() => resolver.resolveSchema({ group: 'autoscaling', version: 'v1', kind: 'Scale' })).toThrow(
      SchemaNotFoundError,
    )
    expect(() => resolver.resolveSchema({ group: 'apps', version: 'v1', kind: 'StatefulSet' })).toThrow(
      'cannot resolve group version kind "apps/v1, Kind=StatefulSet": schema not found',
    )
    expect(resolver.schemaFor({ group: 'batch', version: 'v1', kind: 'Job' })).toBeUndefined()
    const withPath = new OpenAPISchemaResolver([{ path: '/openapi/v3/apis/autoscaling/v1', document: apps }])
    expect(withPath.schemaFor({ group: 'autoscaling', version: 'v1', kind: 'Scale' })?.type).toBe('object')
  })

  it('cuts a reference back to a schema being expanded to {type: object}', () => {
    const schemas = {
      JSONSchemaProps: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          items: { allOf: [{ $ref: '#/components/schemas/JSONSchemaProps' }], description: 'd' },
          properties: { type: 'object', additionalProperties: { $ref: '#/components/schemas/JSONSchemaProps' } },
          not: { $ref: '#/components/schemas/Other' },
        },
      },
      Other: { type: 'object', properties: { back: { $ref: '#/components/schemas/JSONSchemaProps' } } },
    } as const
    const schemaOf = (ref: string) => schemas[ref.replace('#/components/schemas/', '') as keyof typeof schemas]
    const s = toJSONSchemaProps(populateRefs(schemaOf, '#/components/schemas/JSONSchemaProps'))
    expect(s.properties?.['items']).toEqual({ type: 'object' })
    expect(s.properties?.['properties']?.additionalProperties).toEqual({ type: 'object' })
    // Other is expanded once, its way back to the root cut
    expect(s.properties?.['not']).toEqual({ type: 'object', properties: { back: { type: 'object' } } })
    expect(() => populateRefs(schemaOf, '#/components/schemas/Missing')).toThrow(SchemaNotFoundError)
    // a root given by bare name (as ClientDiscoveryResolver gives it) is not recognised: one level more
    const byName = toJSONSchemaProps(populateRefs(schemaOf, 'JSONSchemaProps'))
    expect(byName.properties?.['items']?.properties?.['items']).toEqual({ type: 'object' })
  })

  const policy = (expression: string, extra: Partial<ValidatingAdmissionPolicy['spec']> = {}) => ({
    spec: { validations: [{ expression }], matchConstraints: deployments, ...extra },
  })
  const run = (p: ValidatingAdmissionPolicy) => typeCheck(p, { schemas: (gvk) => resolver.schemaFor(gvk), mapper })

  it('types a Deployment from the document', () => {
    expect(
      run(policy('object.spec.replicas > 3 && object.spec.template.spec.containers.all(c, c.image != "")')),
    ).toEqual([])
    expect(run(policy("object.metadata.labels['app'] == oldObject.metadata.name"))).toEqual([])
    // int-or-string is dyn
    expect(
      run(
        policy(
          "object.spec.strategy.rollingUpdate.maxSurge == 1 || object.spec.strategy.rollingUpdate.maxSurge == '25%'",
        ),
      ),
    ).toEqual([])
    expect(run(policy("object.spec.replicas == 'three'"))[0]?.warning).toContain(
      "found no matching overload for '_==_' applied to '(int, string)'",
    )
    expect(run(policy('object.spec.template.spec.containers[0].imagePullPolicy.size() > 0'))).toEqual([])
    expect(run(policy('object.spec.template.spec.containers[0].imagePolicy == ""'))[0]?.warning).toContain(
      "undefined field 'imagePolicy'",
    )
  })

  it('a map of Quantity is not visible to CEL (Quantity has no type in OpenAPI v3)', () => {
    // the apiserver's SchemaDeclType drops the resources.limits map: Quantity is only oneOf string/number
    expect(run(policy("object.spec.template.spec.containers[0].resources.limits['cpu'] == '1'"))[0]?.warning).toContain(
      "undefined field 'limits'",
    )
  })

  it('types params from the param kind', () => {
    const p = (expression: string) =>
      policy(expression, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }) as ValidatingAdmissionPolicy
    expect(run(p("params.data['image'] == object.spec.template.spec.containers[0].image"))).toEqual([])
    expect(run(p('params.data.replicas == object.spec.replicas'))[0]?.warning).toContain(
      "found no matching overload for '_==_' applied to '(string, int)'",
    )
  })

  it('skips kinds without a schema', () => {
    const p: ValidatingAdmissionPolicy = {
      spec: {
        validations: [{ expression: 'object.spec.replicas > 0' }],
        matchConstraints: {
          resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'statefulsets'] }],
        },
      },
    }
    expect(run(p)).toEqual([])
    const q: ValidatingAdmissionPolicy = {
      spec: { ...p.spec, validations: [{ expression: 'object.spec.replicas > 0 && object.spec.phase == ""' }] },
    }
    const w = run(q)
    expect(w).toHaveLength(1)
    expect(w[0]?.warning).toMatch(/^apps\/v1, Kind=Deployment: ERROR: .*undefined field 'phase'/)
    expect(w[0]?.warning).not.toContain('StatefulSet')
  })

  it('reports each failing kind of the match', () => {
    const p: ValidatingAdmissionPolicy = {
      spec: {
        validations: [{ expression: 'object.spec.replicas > 0', messageExpression: "'x' + object.spec.serviceName" }],
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
            { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] },
          ],
        },
      },
    }
    const w = run(p)
    expect(w.map((x) => x.fieldRef)).toEqual([
      'spec.validations[0].expression',
      'spec.validations[0].messageExpression',
    ])
    expect(w[0]?.warning).toMatch(/^\/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'replicas'/)
    expect(w[0]?.warning).not.toContain('Deployment')
    expect(w[1]?.warning).toMatch(/^\/v1, Kind=Pod: .*\n\napps\/v1, Kind=Deployment: /s)
  })
})

describe('CRD schemas', () => {
  const crd = widgetCrd({
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } },
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer' },
                  port: { 'x-kubernetes-int-or-string': true },
                  template: {
                    type: 'object',
                    'x-kubernetes-embedded-resource': true,
                    'x-kubernetes-preserve-unknown-fields': true,
                  },
                },
              },
            },
          },
        },
      },
      { name: 'v2', served: true, storage: false },
    ],
  })
  const crdMapper = new RESTMapper({
    crds: [
      {
        group: 'example.com',
        kind: 'Widget',
        plural: 'widgets',
        namespaced: true,
        versions: ['v1', 'v2'],
      },
    ],
  })

  for (const [label, resolver] of [
    ['built-in ObjectMeta', new OpenAPISchemaResolver()],
    ['ObjectMeta of a loaded document', new OpenAPISchemaResolver([fixture('apis__apps__v1.json')])],
  ] as const) {
    resolver.addCRD(crd)
    const run = (expression: string, versions = ['v1']) =>
      typeCheck(
        {
          spec: {
            validations: [{ expression }],
            matchConstraints: {
              resourceRules: [{ apiGroups: ['example.com'], apiVersions: versions, resources: ['widgets'] }],
            },
          },
        },
        { schemas: (gvk) => resolver.schemaFor(gvk), mapper: crdMapper },
      )

    it(`publishes metadata as ObjectMeta (${label})`, () => {
      expect(run("object.metadata.labels['a'] == 'b' && object.metadata.generation > 1")).toEqual([])
      expect(run("object.apiVersion == 'example.com/v1' && object.kind == 'Widget'")).toEqual([])
      expect(run('object.spec.size + 1 > 2 && object.spec.port == 80')).toEqual([])
      expect(run("object.spec.size == 'big'")[0]?.warning).toContain(
        "example.com/v1, Kind=Widget: ERROR: <input>:1:18: found no matching overload for '_==_' applied to '(int, string)'",
      )
    })

    it(`embedded resources get apiVersion, kind and ObjectMeta (${label})`, () => {
      expect(run("object.spec.template.metadata.namespace == 'x' && object.spec.template.kind == 'Pod'")).toEqual([])
    })

    it(`a version without a schema is an object without fields (${label})`, () => {
      const w = run('object.spec.size > 1', ['v2'])
      expect(w[0]?.warning).toContain("example.com/v2, Kind=Widget: ERROR: <input>:1:7: undefined field 'spec'")
    })
  }
})

// Without --openapi: the target release's published schemas (src/kube/builtin-schemas). Cases from
// kubernetes v1.37.2 pkg/controller/validatingadmissionpolicystatus/controller_test.go
// (TestTypeChecking: the status controller with resolver.NewDefinitionsSchemaResolver over the
// compiled-in definitions, expectations as substrings there), then the full texts kelp gives.
describe('built-in schemas of the release (no OpenAPI documents given)', () => {
  const builtin = new OpenAPISchemaResolver([], { release: '1.37' })
  const run = (validations: { expression: string }[], resolver = builtin) =>
    typeCheck(
      { spec: { validations, matchConstraints: deployments } },
      { schemas: (gvk) => resolver.schemaFor(gvk), mapper: new RESTMapper({ release: '1.37' }) },
    )
  it('deployment with correct expression', () => {
    expect(run([{ expression: 'object.spec.replicas > 1' }])).toEqual([])
  })
  it('deployment with type confusion', () => {
    const w = run([{ expression: 'object.spec.replicas < 100' }, { expression: "object.spec.replicas > '1'" }])
    toHaveFieldRef('spec.validations[1].expression')(w)
    toContain("found no matching overload for '_>_' applied to '(int, string)'")(w)
  })
  it('two expressions different type checking errors', () => {
    const w = run([{ expression: 'object.spec.nonExistingFirst > 1' }, { expression: "object.spec.replicas > '1'" }])
    toHaveFieldRef('spec.validations[0].expression', 'spec.validations[1].expression')(w)
    expect(w[0]?.warning).toContain("undefined field 'nonExistingFirst'")
    expect(w[1]?.warning).toContain("found no matching overload for '_>_' applied to '(int, string)'")
  })
  it('one expression, two warnings', () => {
    const w = run([
      { expression: 'object.spec.replicas < 100' },
      { expression: "object.spec.replicas > '1' && object.spec.nonExisting == 1" },
    ])
    toHaveFieldRef('spec.validations[1].expression')(w)
    toContain("undefined field 'nonExisting'")(w)
    toContain("found no matching overload for '_>_' applied to '(int, string)'")(w)
  })
  it('the full text of object.spec.replicsa', () => {
    expect(run([{ expression: 'object.spec.replicsa > 1' }])).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'\n | object.spec.replicsa > 1\n | ...........^\n",
      },
    ])
  })
  it('a document given wins for its group-version; other group-versions stay built-in', () => {
    const trimmed = fixture('apis__apps__v1.json')
    const both = new OpenAPISchemaResolver([trimmed], { release: '1.37' })
    expect(both.schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' })).toEqual(
      new OpenAPISchemaResolver([trimmed]).schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' }),
    )
    expect(both.schemaFor({ group: 'batch', version: 'v1', kind: 'Job' })?.properties?.['spec']).toBeDefined()
    // a release without shipped schemas (before 1.30) knows only the documents and CRDs
    expect(
      new OpenAPISchemaResolver([], { release: '1.29' }).schemaFor({
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
      }),
    ).toBeUndefined()
  })
  it('each release types with its own schemas: Pod spec.resources from 1.32, container restartPolicyRules from 1.34', () => {
    const pods: MatchResources = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }
    const at = (release: string, expression: string) =>
      typeCheck(
        { spec: { validations: [{ expression }], matchConstraints: pods } },
        {
          schemas: (gvk) => new OpenAPISchemaResolver([], { release }).schemaFor(gvk),
          mapper: new RESTMapper({ release }),
        },
      )
    expect(at('1.30', 'has(object.spec.hostUsers)')).toEqual([])
    expect(at('1.31', 'has(object.spec.resources)')[0]?.warning).toContain("undefined field 'resources'")
    expect(at('1.32', 'has(object.spec.resources)')).toEqual([])
    const rules = 'object.spec.containers.all(c, !has(c.restartPolicyRules))'
    expect(at('1.33', rules)[0]?.warning).toContain("undefined field 'restartPolicyRules'")
    expect(at('1.34', rules)).toEqual([])
  })
})

describe('PolicySet diagnostics: type checking without --openapi', () => {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replicas' },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE'] },
        ],
      },
      validations: [{ expression: 'object.spec.replicsa <= 5' }],
    },
  }
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'replicas' },
    spec: { policyName: 'replicas', validationActions: ['Deny'] },
  }
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    // a Deployment the apiserver's native validation accepts, so that the policy is what answers
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    },
  }

  it('reports object.spec.replicsa on Deployments from the release’s schemas', async () => {
    const { PolicySet } = await import('../../../src/engine/policy-set.js')
    const set = PolicySet.build([policy, binding], { version: '1.37' })
    expect(set.diagnostics.filter((d) => d.field === 'spec.validations[0].expression')).toEqual([
      {
        index: 0,
        kind: 'ValidatingAdmissionPolicy',
        name: 'replicas',
        level: 'warn',
        field: 'spec.validations[0].expression',
        message:
          "type checking: spec.validations[0].expression: apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'\n | object.spec.replicsa <= 5\n | ...........^",
      },
    ])
    // a release before 1.30 ships no schemas: nothing to check against
    const old = PolicySet.build([policy, binding], { version: '1.30', release: '1.29' })
    expect(old.diagnostics.filter((d) => d.field?.startsWith('spec.validations'))).toEqual([])
    // the policies a trusted predicate accepts (the bundled pack) are not type checked
    const trusted = PolicySet.build([policy, binding], { version: '1.37', trusted: (o) => o === policy })
    expect(trusted.diagnostics.filter((d) => d.field?.startsWith('spec.validations'))).toEqual([])
  })

  it('admission stays as the apiserver runs it: object is dyn, the typo fails at evaluation', async () => {
    const { PolicySet } = await import('../../../src/engine/policy-set.js')
    const set = PolicySet.build([policy, binding], { version: '1.37' })
    const r = set.validate(deployment)
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain('no such key: replicsa')
  })
})

describe('the bundled pack type checks clean against every release’s schemas', () => {
  // kelp check does not type check the pack at run time (PolicySetOptions.trusted): this test does
  it.each(['1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37'])('%s', async (release) => {
    const { bundledPack } = await import('../../../src/check/pack.js')
    const resolver = new OpenAPISchemaResolver([], { release })
    const releaseMapper = new RESTMapper({ release })
    let kinds = 0
    for (const { object } of bundledPack(release).objects) {
      if (object['kind'] !== 'ValidatingAdmissionPolicy') continue
      const policy = object as ValidatingAdmissionPolicy
      kinds += typesToCheck(policy, releaseMapper).length
      const w = typeCheck(policy, {
        schemas: (gvk) => resolver.schemaFor(gvk),
        mapper: releaseMapper,
        version: release as '1.30',
      })
      expect({ policy: policy.metadata?.name, w }).toEqual({ policy: policy.metadata?.name, w: [] })
    }
    expect(kinds).toBeGreaterThan(10)
  })
})
