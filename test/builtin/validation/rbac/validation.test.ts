import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts } from '../support.js'

// rbac.authorization.k8s.io/v1: the tables of kubernetes v1.37.2
// pkg/apis/rbac/validation/validation_test.go (every error of a case has the case's type and field),
// through the registry's validators (decoded, defaulted). The Go tests call the handwritten
// functions; the declarative beta rules (1.36+) change only the detail and the position of the
// verbs / subject name / roleRef name Required errors, checked at the end.

const G = 'rbac.authorization.k8s.io'
const crb = (meta: O, roleRef: O, subjects?: O[]): O => ({
  apiVersion: `${G}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: meta,
  roleRef,
  ...(subjects ? { subjects } : {}),
})
const rb = (meta: O, roleRef: O, subjects?: O[]): O => ({ ...crb(meta, roleRef, subjects), kind: 'RoleBinding' })
const ref = (kind: string, name?: string, apiGroup = G) => ({ apiGroup, kind, ...(name ? { name } : {}) })
const all = (t: string, f: string) => (got: string[]) => {
  expect(got.length).toBeGreaterThan(0)
  for (const g of got) expect(g).toBe(`${f} ${t}`)
}

describe('validation_test.go TestValidateClusterRoleBinding', () => {
  test('success', () =>
    expect(
      fieldTypes(
        crb({ name: 'master' }, ref('ClusterRole', 'valid'), [
          { name: 'validsaname', apiGroup: '', namespace: 'foo', kind: 'ServiceAccount' },
          { name: 'valid@username', apiGroup: G, kind: 'User' },
          { name: 'valid@groupname', apiGroup: G, kind: 'Group' },
        ]),
      ),
    ).toEqual([]))
  const cases: [string, O, string, string][] = [
    [
      'bad group',
      crb({ name: 'default' }, ref('ClusterRole', 'valid', 'rbac.GroupName')),
      'FieldValueNotSupported',
      'roleRef.apiGroup',
    ],
    ['bad kind', crb({ name: 'default' }, ref('Type', 'valid')), 'FieldValueNotSupported', 'roleRef.kind'],
    ['reference role', crb({ name: 'default' }, ref('Role', 'valid')), 'FieldValueNotSupported', 'roleRef.kind'],
    ['zero-length name', crb({}, ref('ClusterRole', 'valid')), 'FieldValueRequired', 'metadata.name'],
    ['bad role', crb({ name: 'default' }, ref('ClusterRole')), 'FieldValueRequired', 'roleRef.name'],
    [
      'bad subject kind',
      crb({ name: 'master' }, ref('ClusterRole', 'valid'), [{ name: 'subject' }]),
      'FieldValueNotSupported',
      'subjects[0].kind',
    ],
    [
      'bad subject name',
      crb({ name: 'master' }, ref('ClusterRole', 'valid'), [
        { namespace: 'foo', name: 'subject:bad', kind: 'ServiceAccount' },
      ]),
      'FieldValueInvalid',
      'subjects[0].name',
    ],
    [
      'missing SA namespace',
      crb({ name: 'master' }, ref('ClusterRole', 'valid'), [{ name: 'good', kind: 'ServiceAccount' }]),
      'FieldValueRequired',
      'subjects[0].namespace',
    ],
    [
      'missing subject name',
      crb({ name: 'master' }, ref('ClusterRole', 'valid'), [{ namespace: 'foo', kind: 'ServiceAccount' }]),
      'FieldValueRequired',
      'subjects[0].name',
    ],
  ]
  for (const [name, o, t, f] of cases) test(name, () => all(t, f)(fieldTypes(o)))
})

describe('validation_test.go TestValidateRoleBinding', () => {
  const ns = (name?: string) => ({ namespace: 'default', ...(name ? { name } : {}) })
  test('success', () =>
    expect(
      fieldTypes(
        rb(ns('master'), ref('Role', 'valid'), [
          { name: 'validsaname', apiGroup: '', kind: 'ServiceAccount' },
          { name: 'valid@username', apiGroup: G, kind: 'User' },
          { name: 'valid@groupname', apiGroup: G, kind: 'Group' },
        ]),
      ),
    ).toEqual([]))
  const cases: [string, O, string, string][] = [
    [
      'bad group',
      rb(ns('default'), ref('ClusterRole', 'valid', 'rbac.GroupName')),
      'FieldValueNotSupported',
      'roleRef.apiGroup',
    ],
    ['bad kind', rb(ns('default'), ref('Type', 'valid')), 'FieldValueNotSupported', 'roleRef.kind'],
    [
      'zero-length namespace',
      rb({ name: 'default' }, ref('Role', 'valid')),
      'FieldValueRequired',
      'metadata.namespace',
    ],
    ['zero-length name', rb(ns(), ref('Role', 'valid')), 'FieldValueRequired', 'metadata.name'],
    ['bad role', rb(ns('default'), ref('Role')), 'FieldValueRequired', 'roleRef.name'],
    [
      'bad subject kind',
      rb(ns('master'), ref('Role', 'valid'), [{ name: 'subject' }]),
      'FieldValueNotSupported',
      'subjects[0].kind',
    ],
    [
      'bad subject name',
      rb(ns('master'), ref('Role', 'valid'), [{ name: 'subject:bad', kind: 'ServiceAccount' }]),
      'FieldValueInvalid',
      'subjects[0].name',
    ],
    [
      'missing subject name',
      rb(ns('master'), ref('Role', 'valid'), [{ kind: 'ServiceAccount' }]),
      'FieldValueRequired',
      'subjects[0].name',
    ],
  ]
  for (const [name, o, t, f] of cases) test(name, () => all(t, f)(fieldTypes(o)))
})

describe('validation_test.go TestValidateRoleBindingUpdate', () => {
  const old = rb({ namespace: 'default', name: 'master', resourceVersion: '1' }, ref('Role', 'valid'))
  test('success', () => expect(fieldTypes(old, old)).toEqual([]))
  test('changedRef', () => {
    const n = rb({ namespace: 'default', name: 'master', resourceVersion: '1' }, ref('Role', 'changed'))
    all('FieldValueInvalid', 'roleRef')(fieldTypes(n, old))
    expect(texts(n, old)).toEqual([
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"changed"}: field is immutable',
    ])
  })
})

const role = (meta: O, rules?: O[]): O => ({
  apiVersion: `${G}/v1`,
  kind: 'Role',
  metadata: meta,
  ...(rules ? { rules } : {}),
})
const crole = (meta: O, rules?: O[]): O => ({ ...role(meta, rules), kind: 'ClusterRole' })
const d = { name: 'default', namespace: 'default' }

describe('validation_test.go TestValidateRole*', () => {
  const cases: [string, O, string[] | [string, string]][] = [
    ['TestValidateRoleZeroLengthNamespace', role({ name: 'default' }), ['FieldValueRequired', 'metadata.namespace']],
    ['TestValidateRoleZeroLengthName', role({ namespace: 'default' }), ['FieldValueRequired', 'metadata.name']],
    ['TestValidateRoleValidRole', role(d), []],
    ['TestValidateRoleValidRoleNoNamespace', crole({ name: 'default' }), []],
    ['TestValidateRoleNonResourceURL', crole({ name: 'default' }, [{ verbs: ['get'], nonResourceURLs: ['/*'] }]), []],
    [
      'TestValidateRoleNamespacedNonResourceURL',
      role(d, [{ verbs: ['get'], nonResourceURLs: ['/*'] }]),
      ['FieldValueInvalid', 'rules[0].nonResourceURLs'],
    ],
    [
      'TestValidateRoleNonResourceURLNoVerbs',
      crole({ name: 'default' }, [{ verbs: [], nonResourceURLs: ['/*'] }]),
      ['FieldValueRequired', 'rules[0].verbs'],
    ],
    [
      'TestValidateRoleMixedNonResourceAndResource',
      role(d, [{ verbs: ['get'], nonResourceURLs: ['/*'], apiGroups: ['v1'], resources: ['pods'] }]),
      ['FieldValueInvalid', 'rules[0].nonResourceURLs'],
    ],
    ['TestValidateRoleValidResource', role(d, [{ verbs: ['get'], apiGroups: ['v1'], resources: ['pods'] }]), []],
    [
      'TestValidateRoleNoAPIGroup',
      role(d, [{ verbs: ['get'], resources: ['pods'] }]),
      ['FieldValueRequired', 'rules[0].apiGroups'],
    ],
    [
      'TestValidateRoleNoResources',
      role(d, [{ verbs: ['get'], apiGroups: ['v1'] }]),
      ['FieldValueRequired', 'rules[0].resources'],
    ],
  ]
  for (const [name, o, want] of cases)
    test(name, () => {
      if (want.length === 0) expect(fieldTypes(o)).toEqual([])
      else all(want[0] as string, want[1] as string)(fieldTypes(o))
    })
})

describe('declarative beta rules (1.36+) and earlier releases', () => {
  const r = role(d, [{ verbs: [], apiGroups: [''], resources: ['pods'] }, { apiGroups: [''] }])
  test('1.37: the declarative Required, after the handwritten errors', () =>
    expect(texts(r)).toEqual([
      'rules[1].resources: Required value: resource rules must supply at least one resource',
      'rules[0].verbs: Required value',
      'rules[1].verbs: Required value',
    ]))
  test('1.35: the handwritten errors in place', () =>
    expect(texts(r, undefined, 35)).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[1].verbs: Required value: verbs must contain at least one value',
      'rules[1].resources: Required value: resource rules must supply at least one resource',
    ]))
  test('binding: subjects then roleRef', () =>
    expect(texts(rb({ namespace: 'default', name: 'x' }, ref('Role'), [{ kind: 'User', apiGroup: G }]))).toEqual([
      'subjects[0].name: Required value',
      'roleRef.name: Required value',
    ]))
  test('aggregationRule', () =>
    expect(
      texts({
        ...crole({ name: 'agg' }),
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'a b': 'x' } }] },
      }),
    ).toEqual([
      `aggregationRule.clusterRoleSelectors[0].matchLabels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]))
})
