import { describe, expect, it } from 'vitest'
import { CRD, type CRDVersionSpec, defaultDeprecationWarning } from '../../src/crd/crd.js'
import { CustomResourceDefinitions } from '../../src/crd/registry.js'

// Which versions of a CRD serve custom resources, and the warnings a deprecated version adds:
//
// - apiextensions-apiserver test/integration/deprecation_test.go TestCustomResourceDeprecation: the
//   Go test lists each version with a client that records warnings; the handler
//   (pkg/apiserver/customresource_handler.go ServeHTTP) adds a served version's warnings to every
//   request for it, so kelp's create of an object of that version carries the same warnings.
// - pkg/apiserver/customresource_handler_test.go Test_defaultDeprecationWarning.
// - A version that is not served (or not defined) is not handled by the CRD handler: the request falls
//   through to the 404 of the delegate, and kubectl, which resolves the kind through discovery first,
//   reports apimachinery's meta.NoKindMatchError (pkg/api/meta/errors.go):
//   `no matches for kind "Dep" in version "tests.example.com/v1"`.

type Obj = Record<string, any>

const schema = { openAPIV3Schema: { type: 'object' } }

/** deprecationFixture */
const deprecationFixture = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'deps.tests.example.com' },
  spec: {
    group: 'tests.example.com',
    versions: [
      { name: 'v1alpha1', served: true, deprecated: true, schema },
      {
        name: 'v1alpha2',
        served: true,
        deprecated: true,
        deprecationWarning: 'custom deprecation warning',
        schema,
      },
      { name: 'v1beta3', served: true, schema },
      { name: 'v1beta2', served: true, schema },
      { name: 'v1', served: false, storage: true, schema },
    ],
    names: { plural: 'deps', singular: 'dep', kind: 'Dep', listKind: 'DepList' },
    scope: 'Cluster',
  },
}

const dep = (version: string, fields: Obj = {}): Obj => ({
  apiVersion: `tests.example.com/${version}`,
  kind: 'Dep',
  metadata: { name: 'd' },
  ...fields,
})

describe('deprecation_test.go TestCustomResourceDeprecation', () => {
  const crds = CustomResourceDefinitions.load([deprecationFixture])

  it('the fixture CRD is created', () => {
    expect(crds.problems.map((p) => p.status.message)).toEqual([])
    expect(crds.size).toBe(1)
  })

  const testcases: { name: string; version: string; want: string[] }[] = [
    {
      name: 'default',
      version: 'v1alpha1',
      want: ['tests.example.com/v1alpha1 Dep is deprecated; use tests.example.com/v1beta3 Dep'],
    },
    { name: 'custom', version: 'v1alpha2', want: ['custom deprecation warning'] },
    { name: 'older non-deprecated', version: 'v1beta2', want: [] },
    { name: 'newest non-deprecated', version: 'v1beta3', want: [] },
  ]
  for (const tc of testcases) {
    it(tc.name, () => {
      const r = crds.validate(dep(tc.version))!
      expect(r.allowed).toBe(true)
      expect(r.warnings).toEqual(tc.want)
    })
  }

  it('the warning accompanies a rejected request too (added by the handler before the write is served)', () => {
    // `metadata.name` fails ValidateObjectMetaAccessor's DNS-1123 subdomain check
    const r = crds.validate(dep('v1alpha1', { metadata: { name: 'Not_A_Name' } }))!
    expect(r.allowed).toBe(false)
    expect(r.status?.code).toBe(422)
    expect(r.warnings).toEqual(['tests.example.com/v1alpha1 Dep is deprecated; use tests.example.com/v1beta3 Dep'])
  })
})

describe('served and not-served versions', () => {
  const crds = CustomResourceDefinitions.load([deprecationFixture])

  it('a defined version that is not served: 404, no matches for kind', () => {
    const r = crds.validate(dep('v1'))!
    expect(r.allowed).toBe(false)
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
    expect(r.status).toMatchObject({ code: 404, reason: 'NotFound' })
    expect(r.message).toBe('no matches for kind "Dep" in version "tests.example.com/v1"')
  })

  it('a version the CRD does not define: 404, no matches for kind', () => {
    const r = crds.validate(dep('v2'))!
    expect(r.status).toMatchObject({ code: 404, reason: 'NotFound' })
    expect(r.message).toBe('no matches for kind "Dep" in version "tests.example.com/v2"')
  })

  it('a kind no loaded CRD defines: no result', () => {
    expect(crds.validate({ apiVersion: 'tests.example.com/v1beta3', kind: 'Other', metadata: { name: 'x' } })).toBe(
      undefined,
    )
  })

  it('a rejected CRD serves nothing: its objects get the no-match error of a cluster without it', () => {
    // two storage versions: the create is rejected (spec.versions: Invalid value: must have exactly one
    // version marked as storage version)
    const twoStorage = structuredClone(deprecationFixture) as Obj
    twoStorage.spec.versions[2].storage = true
    const rejected = CustomResourceDefinitions.load([twoStorage])
    expect(rejected.problems).toHaveLength(1)
    expect(rejected.problems[0]!.status.message).toContain('must have exactly one version marked as storage version')
    const r = rejected.validate(dep('v1beta3'))!
    expect(r.status).toMatchObject({ code: 404, reason: 'NotFound' })
    expect(r.message).toBe('no matches for kind "Dep" in version "tests.example.com/v1beta3"')
  })
})

describe('customresource_handler_test.go Test_defaultDeprecationWarning', () => {
  const crdOf = (versions: CRDVersionSpec[]): CRD =>
    new CRD({
      spec: {
        group: 'example.com',
        names: { kind: 'Widget', plural: 'widgets' },
        scope: 'Namespaced',
        versions,
      },
    })

  const tests: { name: string; deprecatedVersion: string; versions: CRDVersionSpec[]; want: string }[] = [
    {
      name: 'no replacement',
      deprecatedVersion: 'v1',
      versions: [
        { name: 'v1', served: true, deprecated: true },
        { name: 'v2', served: true, deprecated: true },
        { name: 'v3', served: false },
      ],
      want: 'example.com/v1 Widget is deprecated',
    },
    {
      name: 'replacement sorting',
      deprecatedVersion: 'v1',
      versions: [
        { name: 'v1', served: true },
        { name: 'v1alpha1', served: true },
        { name: 'v1alpha2', served: true },
        { name: 'v1beta1', served: true },
        { name: 'v1beta2', served: true },
        { name: 'v2', served: true },
        { name: 'v2alpha1', served: true },
        { name: 'v2alpha2', served: true },
        { name: 'v2beta1', served: true },
        { name: 'v2beta2', served: true },
        { name: 'v3', served: false },
        { name: 'v3alpha1', served: false },
        { name: 'v3alpha2', served: false },
        { name: 'v3beta1', served: false },
        { name: 'v3beta2', served: false },
      ],
      want: 'example.com/v1 Widget is deprecated; use example.com/v2 Widget',
    },
    {
      name: 'no newer replacement of equal stability',
      deprecatedVersion: 'v2',
      versions: [
        { name: 'v1', served: true },
        { name: 'v3', served: false },
        { name: 'v3alpha1', served: true },
        { name: 'v3beta1', served: true },
        { name: 'v4', served: true, deprecated: true },
      ],
      want: 'example.com/v2 Widget is deprecated',
    },
  ]
  for (const tt of tests) {
    it(tt.name, () => {
      expect(defaultDeprecationWarning(tt.deprecatedVersion, crdOf(tt.versions))).toBe(tt.want)
    })
  }

  it('CRDVersion.deprecationWarning: the default text for a deprecated version without deprecationWarning', () => {
    const crd = crdOf([
      { name: 'v1', served: true, deprecated: true },
      { name: 'v2', served: true },
    ])
    expect(crd.versions.get('v1')!.deprecationWarning).toBe(
      'example.com/v1 Widget is deprecated; use example.com/v2 Widget',
    )
    expect(crd.versions.get('v2')!.deprecationWarning).toBe(undefined)
  })
})
