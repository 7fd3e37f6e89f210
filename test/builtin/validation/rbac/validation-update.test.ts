import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/rbac/validation/validation_test.go TestValidateRoleBindingUpdate (and the
// ClusterRoleBinding counterpart), with the release difference of ValidateRoleBindingUpdate /
// ValidateClusterRoleBindingUpdate: up to 1.36 a changed roleRef is `cannot change roleRef`, from 1.37
// ValidateImmutableField's `field is immutable`; the bad value is the internal RoleRef (no JSON tags).

const G = 'rbac.authorization.k8s.io'
const binding = (kind: string, roleName: string): O => ({
  apiVersion: `${G}/v1`,
  kind,
  metadata: {
    name: 'master',
    resourceVersion: '1',
    ...(kind === 'RoleBinding' ? { namespace: 'default' } : {}),
  },
  roleRef: { apiGroup: G, kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: roleName },
})

describe('TestValidateRoleBindingUpdate', () => {
  for (const kind of ['RoleBinding', 'ClusterRoleBinding']) {
    const old = binding(kind, 'valid')
    const changed = binding(kind, 'changed')
    const role = kind === 'RoleBinding' ? 'Role' : 'ClusterRole'
    const value = `{"APIGroup":"${G}","Kind":"${role}","Name":"changed"}`
    test(`${kind}: success`, () => expect(fieldTypes(old, old)).toEqual([]))
    test(`${kind}: changedRef`, () => expect(fieldTypes(changed, old)).toEqual(['roleRef FieldValueInvalid']))
    test(`${kind}: 1.37 says field is immutable`, () =>
      expect(texts(changed, old, 37)).toEqual([`roleRef: Invalid value: ${value}: field is immutable`]))
    test(`${kind}: 1.34-1.36 say cannot change roleRef`, () => {
      for (const minor of [34, 36])
        expect(texts(changed, old, minor)).toEqual([`roleRef: Invalid value: ${value}: cannot change roleRef`])
    })
  }
})

describe('release-1.33 ErrorBody: the roleRef printed with %#v', () => {
  test('RoleBinding', () =>
    expect(texts(binding('RoleBinding', 'changed'), binding('RoleBinding', 'valid'), 33)).toEqual([
      `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${G}", Kind:"Role", Name:"changed"}: cannot change roleRef`,
    ]))
})
