import { describe, expect, test } from 'vitest'
import { validateStatefulSet } from '../../../../src/builtin/validation/apps/validation.js'
import { fieldTypes, type O, stored, texts, tweak } from '../support.js'

// apps/v1 StatefulSet, the parts of ValidateStatefulSetSpec kelp lacked (kubernetes v1.37.2
// pkg/apis/apps/validation/validation_test.go TestValidateStatefulSet "empty PersistentVolumeClaimRetentionPolicy",
// "invalid PersistentVolumeClaimRetentionPolicy", TestValidateStatefulSetUpdate "update containers and pvc
// retention policy"), and the order of ValidateStatefulSetSpec (retention policy, then the claim templates,
// then replicas) as kube-apiserver v1.37.2 answers.

const sts = (spec: O = {}): O => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'abc', namespace: 'default', resourceVersion: '1' },
  spec: {
    serviceName: 'svc',
    selector: { matchLabels: { a: 'b' } },
    template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'img' }] } },
    ...spec,
  },
})
const P = 'spec.persistentVolumeClaimRetentionPolicy'

describe('TestValidateStatefulSet: persistentVolumeClaimRetentionPolicy', () => {
  test('valid: Delete / Retain', () => {
    expect(
      fieldTypes(sts({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } })),
    ).toEqual([])
  })
  test('empty PersistentVolumeClaimRetentionPolicy (the v1 default fills it; the validator alone refuses it)', () => {
    const o = tweak(stored(sts()), (x) => {
      x.spec.persistentVolumeClaimRetentionPolicy = {}
    })
    expect(validateStatefulSet(o, 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      `${P}.whenDeleted FieldValueNotSupported`,
      `${P}.whenScaled FieldValueNotSupported`,
    ])
  })
  test('invalid PersistentVolumeClaimRetentionPolicy', () => {
    const o = sts({
      persistentVolumeClaimRetentionPolicy: {
        whenDeleted: 'invalid-retention-policy',
        whenScaled: 'invalid-retention-policy',
      },
    })
    expect(texts(o)).toEqual([
      `${P}.whenDeleted: Unsupported value: "invalid-retention-policy": supported values: "Retain", "Delete"`,
      `${P}.whenScaled: Unsupported value: "invalid-retention-policy": supported values: "Retain", "Delete"`,
    ])
  })
})

describe("ValidateStatefulSetSpec's order (kube-apiserver v1.37.2)", () => {
  test('retention policy, claim templates, replicas', () => {
    const o = sts({
      replicas: -1,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: [], resources: { requests: { storage: '1Gi' } } } },
      ],
    })
    expect(fieldTypes(o)).toEqual([
      `${P}.whenDeleted FieldValueNotSupported`,
      'spec.volumeClaimTemplates[0].spec.accessModes FieldValueRequired',
      'spec.replicas FieldValueInvalid',
    ])
  })
})

describe('TestValidateStatefulSetUpdate', () => {
  test('update containers and pvc retention policy', () => {
    const old = sts()
    const o = sts({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } })
    expect(fieldTypes(o, old)).toEqual([])
  })
  test('an invalid retention policy on update', () => {
    expect(fieldTypes(sts({ persistentVolumeClaimRetentionPolicy: { whenScaled: 'Keep' } }), sts())).toEqual([
      `${P}.whenScaled FieldValueNotSupported`,
    ])
  })
  test('the claim templates are not validated again on update (SkipValidateVolumeClaimTemplates)', () => {
    const claims = [
      { metadata: { name: 'data' }, spec: { accessModes: [], resources: { requests: { storage: '1Gi' } } } },
    ]
    expect(
      fieldTypes(sts({ volumeClaimTemplates: claims, replicas: 2 }), sts({ volumeClaimTemplates: claims })),
    ).toEqual([])
  })
})
