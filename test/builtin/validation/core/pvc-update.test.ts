import { describe, expect, it } from 'vitest'
import { fieldTypes, type O, texts } from '../support.js'

// ValidatePersistentVolumeClaimUpdate's volumeAttributesClassName rules per release (kubernetes
// release-1.30, 1.33, 1.34 pkg/apis/core/validation/validation.go; TestValidatePersistentVolumeClaimUpdate
// of v1.37.2 is in pvc.test.ts): the class is munged before the spec comparison always in
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

// apimachinery v0.37.2 pkg/util/diff.Diff, run in Go on the same values (structs mirroring the internal
// core.PersistentVolumeClaimSpec of 1.34-1.37, metav1.LabelSelector, resource.Quantity): the outputs below.
const GO_CASE1 =
  '@@ -1,6 +1,6 @@\n {\n  "AccessModes": [\n-  "ReadWriteOnce"\n+  "ReadOnlyMany"\n  ],\n  "Selector": null,\n  "Resources": {\n@@ -10,7 +10,7 @@\n   }\n  },\n  "VolumeName": "volume",\n- "StorageClassName": "gold",\n+ "StorageClassName": "silver",\n  "VolumeMode": "Filesystem",\n  "DataSource": null,\n  "DataSourceRef": null,\n'
const GO_CASE2 =
  '@@ -2,7 +2,25 @@\n  "AccessModes": [\n   "ReadWriteOnce"\n  ],\n- "Selector": null,\n+ "Selector": {\n+  "matchLabels": {\n+   "a": "1\\u003c\\u0026\\u003e",\n+   "b": "2"\n+  },\n+  "matchExpressions": [\n+   {\n+    "key": "k",\n+    "operator": "In",\n+    "values": [\n+     "x"\n+    ]\n+   },\n+   {\n+    "key": "e",\n+    "operator": "Exists"\n+   }\n+  ]\n+ },\n  "Resources": {\n   "Limits": null,\n   "Requests": {\n@@ -12,7 +30,16 @@\n  "VolumeName": "volume",\n  "StorageClassName": "gold",\n  "VolumeMode": "Filesystem",\n- "DataSource": null,\n- "DataSourceRef": null,\n- "VolumeAttributesClassName": null\n+ "DataSource": {\n+  "APIGroup": null,\n+  "Kind": "PersistentVolumeClaim",\n+  "Name": "src"\n+ },\n+ "DataSourceRef": {\n+  "APIGroup": null,\n+  "Kind": "PersistentVolumeClaim",\n+  "Name": "src",\n+  "Namespace": null\n+ },\n+ "VolumeAttributesClassName": "vac"\n }\n'

describe('spec is immutable after creation: the diff from 1.34 is diff.Diff of the internal specs', () => {
  const claim = (spec: O): O => pvc({ storageClassName: 'gold', volumeMode: 'Filesystem', ...spec })
  const prefix =
    'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n'
  it('accessModes and storageClassName changed', () => {
    const o = claim({})
    const n = claim({ accessModes: ['ReadOnlyMany'], storageClassName: 'silver' })
    expect(texts(n, o, 37)).toEqual([prefix + GO_CASE1])
    expect(texts(n, o, 34)).toEqual([prefix + GO_CASE1])
  })
  it('selector, data sources and class added (as Go marshals them: JSON tags for the selector, HTML escaped)', () => {
    const o = claim({})
    const n = claim({
      selector: {
        matchLabels: { b: '2', a: '1<&>' },
        matchExpressions: [
          { key: 'k', operator: 'In', values: ['x'] },
          { key: 'e', operator: 'Exists' },
        ],
      },
      dataSource: { kind: 'PersistentVolumeClaim', name: 'src' },
      dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'src' },
      volumeAttributesClassName: 'vac',
    })
    const t = texts(n, o, 37).find((x) => x.startsWith('spec: Forbidden'))
    expect(t).toBe(prefix + GO_CASE2)
  })
  it('before 1.34 (go-cmp, not reproducible) kelp appends a line per changed field', () => {
    const o = claim({})
    const n = claim({ storageClassName: 'silver' })
    expect(texts(n, o, 33)).toEqual([prefix + '-  storageClassName: "gold"\n+  storageClassName: "silver"'])
  })
})
