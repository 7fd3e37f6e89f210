import { describe, expect, it } from 'vitest'
import { fieldTypes, type O, texts } from './validation-support.js'

// ValidatePersistentVolumeClaimUpdate's volumeAttributesClassName rules per release (kubernetes
// release-1.30, 1.33, 1.34 pkg/apis/core/validation/validation.go; TestValidatePersistentVolumeClaimUpdate
// of v1.37.2 is in validation-pvc.test.ts): the class is munged before the spec comparison always in
// 1.30, for a bound claim with a new class in 1.31-1.33, for any bound claim from 1.34; before 1.34 the
// VolumeAttributesClass gate is off (beta), so a change is also `update is forbidden when the
// VolumeAttributesClass feature gate is disabled`, and a class in the old spec may not be removed
// (`update from non-nil value to nil is forbidden`); from 1.34 only a class in
// status.currentVolumeAttributesClassName is protected.

const pvc = (spec: O, status?: O): O => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'foo', namespace: 'ns', resourceVersion: '1' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10G' } }, volumeName: 'volume', ...spec },
  ...(status ? { status } : {}),
})
const bound = { phase: 'Bound' }
const GATE =
  'spec.volumeAttributesClassName: Forbidden: update is forbidden when the VolumeAttributesClass feature gate is disabled'

describe('PersistentVolumeClaim update: volumeAttributesClassName per release', () => {
  it('bound claim, class removed: 1.33 spec immutable, gate off and non-nil to nil; 1.34 valid', () => {
    const o = pvc({ volumeAttributesClassName: 'foo' }, bound)
    const n = pvc({}, bound)
    expect(fieldTypes(n, o, 33)).toEqual([
      'spec FieldValueForbidden',
      'spec.volumeAttributesClassName FieldValueForbidden',
      'spec.volumeAttributesClassName FieldValueForbidden',
    ])
    expect(texts(n, o, 33).slice(1)).toEqual([
      GATE,
      'spec.volumeAttributesClassName: Forbidden: update from non-nil value to nil is forbidden',
    ])
    expect(fieldTypes(n, o, 34)).toEqual([])
  })
  it('bound claim, class emptied: 1.33 non-nil to an empty string', () => {
    const o = pvc({ volumeAttributesClassName: 'foo' }, bound)
    const n = pvc({ volumeAttributesClassName: '' }, bound)
    expect(texts(n, o, 33)).toEqual([
      GATE,
      'spec.volumeAttributesClassName: Forbidden: update from non-nil value to an empty string is forbidden',
    ])
  })
  it('1.34+: protected only when status.currentVolumeAttributesClassName is set', () => {
    const o = pvc({ volumeAttributesClassName: 'foo' }, { ...bound, currentVolumeAttributesClassName: 'foo' })
    expect(texts(pvc({}, bound), o, 37)).toEqual([
      'spec.volumeAttributesClassName: Forbidden: update to nil is forbidden when status.currentVolumeAttributesClassName is not nil',
    ])
  })
  it('unbound claim, class changed: 1.30 munged (gate error only), 1.33 spec immutable too', () => {
    const o = pvc({ volumeAttributesClassName: 'foo' })
    const n = pvc({ volumeAttributesClassName: 'bar' })
    expect(fieldTypes(n, o, 30)).toEqual(['spec.volumeAttributesClassName FieldValueForbidden'])
    expect(fieldTypes(n, o, 33)).toEqual([
      'spec FieldValueForbidden',
      'spec.volumeAttributesClassName FieldValueForbidden',
    ])
    expect(fieldTypes(n, o, 37)).toEqual(['spec FieldValueForbidden'])
  })
  it('bound claim, class changed: valid from 1.31 (with the gate error before 1.34)', () => {
    const o = pvc({ volumeAttributesClassName: 'foo' }, bound)
    const n = pvc({ volumeAttributesClassName: 'bar' }, bound)
    expect(texts(n, o, 31)).toEqual([GATE])
    expect(texts(n, o, 37)).toEqual([])
  })
})
