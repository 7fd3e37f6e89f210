import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts } from '../support.js'

// core/v1 PersistentVolume: kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go
// TestValidatePersistentVolumes (scenarios by name; Go checks failure or success, here the errors' fields and
// types), TestValidateLocalVolumes, TestValidatePVSecretReference, TestValidatePersistentVolumeSourceUpdate (the
// source's immutability; the diff texts computed with k8s.io/apimachinery v0.37.2 pkg/util/diff.Diff on the
// internal PersistentVolumeSource's layout), and the texts kube-apiserver v1.37.2 answers.

const pv = (spec: O, meta: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'foo', resourceVersion: '1', ...meta },
  spec,
})
const hostPath = { path: '/foo', type: 'Directory' }
const good = (spec: O = {}): O => ({ capacity: { storage: '10G' }, accessModes: ['ReadWriteOnce'], hostPath, ...spec })
const nodeAffinity = {
  required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'test-label-key', operator: 'In', values: ['v'] }] }] },
}

describe('TestValidatePersistentVolumes', () => {
  const ok: [string, O][] = [
    ['good-volume', pv(good())],
    ['good-volume-with-capacity-unit', pv(good({ capacity: { storage: '10Gi' } }))],
    ['good-volume-without-capacity-unit', pv(good({ capacity: { storage: '10' } }))],
    ['good-volume-with-storage-class', pv(good({ storageClassName: 'valid' }))],
    ['good-volume-with-retain-policy', pv(good({ persistentVolumeReclaimPolicy: 'Retain' }))],
    ['good-volume-with-volume-mode', pv(good({ volumeMode: 'Filesystem' }))],
    ['with-read-write-once-pod', pv(good({ accessModes: ['ReadWriteOncePod'] }))],
    ['host mount of / with recycle reclaim policy: not /', pv(good({ persistentVolumeReclaimPolicy: 'Recycle' }))],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))

  const bad: [string, O, string[]][] = [
    ['invalid-accessmode', pv(good({ accessModes: ['fakemode'] })), ['spec.accessModes FieldValueNotSupported']],
    [
      'invalid-reclaimpolicy',
      pv(good({ persistentVolumeReclaimPolicy: 'fakeReclaimPolicy' })),
      ['spec.persistentVolumeReclaimPolicy FieldValueNotSupported'],
    ],
    ['invalid-volume-mode', pv(good({ volumeMode: 'fakeVolumeMode' })), ['spec.volumeMode FieldValueNotSupported']],
    [
      'with-read-write-once-pod-and-others',
      pv(good({ accessModes: ['ReadWriteOncePod', 'ReadWriteMany'] })),
      ['spec.accessModes FieldValueForbidden'],
    ],
    [
      'unexpected-namespace',
      pv(good(), { namespace: 'unexpected-namespace' }),
      ['metadata.namespace FieldValueForbidden'],
    ],
    [
      'missing-volume-source',
      pv({ capacity: { storage: '10G' }, accessModes: ['ReadWriteOnce'] }),
      ['spec FieldValueRequired'],
    ],
    ['bad-name', pv(good(), { name: '123*Bad(Name' }), ['metadata.name FieldValueInvalid']],
    [
      'missing-capacity',
      pv({ accessModes: ['ReadWriteOnce'], hostPath }),
      ['spec.capacity FieldValueRequired', 'spec.capacity FieldValueNotSupported'],
    ],
    [
      'bad-volume-zero-capacity',
      pv(good({ capacity: { storage: '0' } })),
      ['spec.capacity[storage] FieldValueInvalid'],
    ],
    ['missing-accessmodes', pv({ capacity: { storage: '10G' }, hostPath }), ['spec.accessModes FieldValueRequired']],
    [
      'too-many-sources',
      pv({ capacity: { storage: '5G' }, hostPath, gcePersistentDisk: { pdName: 'foo', fsType: 'ext4' } }),
      ['spec.accessModes FieldValueRequired', 'spec.gcePersistentDisk FieldValueForbidden'],
    ],
    [
      'host mount of / with recycle reclaim policy',
      pv(good({ hostPath: { path: '/', type: 'Directory' }, persistentVolumeReclaimPolicy: 'Recycle' })),
      ['spec.persistentVolumeReclaimPolicy FieldValueForbidden'],
    ],
    [
      'host mount of / with recycle reclaim policy 2',
      pv(good({ hostPath: { path: '/a/..', type: 'Directory' }, persistentVolumeReclaimPolicy: 'Recycle' })),
      ['spec.hostPath.path FieldValueInvalid', 'spec.persistentVolumeReclaimPolicy FieldValueForbidden'],
    ],
    [
      'invalid-storage-class-name',
      pv(good({ storageClassName: '-invalid-' })),
      ['spec.storageClassName FieldValueInvalid'],
    ],
    [
      'bad-hostpath-volume-backsteps',
      pv(good({ hostPath: { path: '/foo/..', type: 'Directory' } })),
      ['spec.hostPath.path FieldValueInvalid'],
    ],
    [
      'volume-node-affinity-with-empty-required',
      pv(good({ nodeAffinity: {} })),
      ['spec.nodeAffinity.required FieldValueRequired'],
    ],
    [
      'volume-node-affinity-with-empty-terms',
      pv(good({ nodeAffinity: { required: { nodeSelectorTerms: [] } } })),
      ['spec.nodeAffinity.required.nodeSelectorTerms FieldValueRequired'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
})

describe('TestValidateLocalVolumes', () => {
  const local = (path: string, affinity?: O): O =>
    pv({
      capacity: { storage: '10G' },
      accessModes: ['ReadWriteOnce'],
      local: { path },
      ...(affinity ? { nodeAffinity: affinity } : {}),
    })
  test('alpha valid local volume', () => expect(fieldTypes(local('/foo', nodeAffinity))).toEqual([]))
  test('alpha invalid local volume nil annotations', () =>
    expect(fieldTypes(local('/foo'))).toEqual(['spec.nodeAffinity FieldValueRequired']))
  test('valid local volume relative path', () => expect(fieldTypes(local('foo', nodeAffinity))).toEqual([]))
  test('invalid local volume no path', () =>
    expect(fieldTypes(local('', nodeAffinity))).toEqual(['spec.local.path FieldValueRequired']))
  test('invalid local volume backsteps', () =>
    expect(fieldTypes(local('/foo/..', nodeAffinity))).toEqual(['spec.local.path FieldValueInvalid']))
})

describe('TestValidatePVSecretReference (through the CSI source)', () => {
  const csi = (ref: O): O =>
    pv({
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      csi: { driver: 'd.example.com', volumeHandle: 'h', controllerPublishSecretRef: ref },
    })
  const p = 'spec.csi.controllerPublishSecretRef'
  const cases: [string, O, string[]][] = [
    ['invalid secret ref name', { name: '$%^&*#', namespace: 'default' }, [`${p}.name FieldValueInvalid`]],
    ['invalid secret ref namespace', { name: 'valid', namespace: '$%^&*#' }, [`${p}.namespace FieldValueInvalid`]],
    ['invalid secret: missing namespace', { name: 'valid' }, [`${p}.namespace FieldValueRequired`]],
    ['invalid secret : missing name', { namespace: 'default' }, [`${p}.name FieldValueRequired`]],
    ['valid secret', { name: 'valid', namespace: 'default' }, []],
  ]
  for (const [name, ref, want] of cases) test(name, () => expect(fieldTypes(csi(ref))).toEqual(want))
})

describe('kube-apiserver v1.37.2 texts', () => {
  test('capacity with another resource', () => {
    expect(texts(pv(good({ capacity: { storage: '1Gi', cpu: '1' } })))).toEqual([
      'spec.capacity: Unsupported value: {"cpu":"1","storage":"1Gi"}: supported values: "storage"',
    ])
  })
  test('no capacity at all: the nil map', () => {
    expect(texts(pv({ accessModes: ['ReadWriteOnce'], hostPath }))).toEqual([
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: null: supported values: "storage"',
    ])
  })
  test('a negative capacity', () => {
    expect(texts(pv(good({ capacity: { storage: '-1Gi' } })))).toEqual([
      'spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity',
      'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
    ])
  })
  test('the mount options annotation on a hostPath volume', () => {
    expect(texts(pv(good(), { annotations: { 'volume.beta.kubernetes.io/mount-options': 'hard' } }))).toEqual([
      'metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type',
    ])
  })
  test('volumeAttributesClassName without csi', () => {
    expect(texts(pv(good({ volumeAttributesClassName: '' })))).toEqual([
      'spec.volumeAttributesClassName: Required value: an empty string is disallowed',
      'spec.csi: Required value: has to be specified when using volumeAttributesClassName',
    ])
  })
})

describe('TestValidatePersistentVolumeSourceUpdate and the update rules', () => {
  const base = (spec: O = {}) => pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec })
  test('unchanged source', () => {
    expect(fieldTypes(base({ hostPath: { path: '/foo' } }), base({ hostPath: { path: '/foo' } }))).toEqual([])
  })
  test('a changed hostPath: the diff of the internal source', () => {
    expect(texts(base({ hostPath: { path: '/bar' } }), base({ hostPath: { path: '/foo' } }))).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n' +
        '@@ -2,7 +2,7 @@\n  "GCEPersistentDisk": null,\n  "AWSElasticBlockStore": null,\n  "HostPath": {\n-  "Path": "/foo",\n+  "Path": "/bar",\n   "Type": ""\n  },\n  "Glusterfs": null,\n',
    ])
  })
  test('hostPath replaced by nfs', () => {
    expect(
      texts(base({ nfs: { server: 'nfs.example.com', path: '/exports' } }), base({ hostPath: { path: '/foo' } })),
    ).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n' +
        '@@ -1,12 +1,13 @@\n {\n  "GCEPersistentDisk": null,\n  "AWSElasticBlockStore": null,\n- "HostPath": {\n-  "Path": "/foo",\n-  "Type": ""\n+ "HostPath": null,\n+ "Glusterfs": null,\n+ "NFS": {\n+  "Server": "nfs.example.com",\n+  "Path": "/exports",\n+  "ReadOnly": false\n  },\n- "Glusterfs": null,\n- "NFS": null,\n  "RBD": null,\n  "ISCSI": null,\n  "Cinder": null,\n',
    ])
  })
  test('controllerExpandSecretRef may be added to a CSI source', () => {
    const csi = { driver: 'd.example.com', volumeHandle: 'h' }
    const ref = { name: 's', namespace: 'default' }
    expect(fieldTypes(base({ csi: { ...csi, controllerExpandSecretRef: ref } }), base({ csi }))).toEqual([])
  })
  test('volumeMode is immutable (at the path volumeMode)', () => {
    expect(fieldTypes(base({ hostPath, volumeMode: 'Block' }), base({ hostPath }))).toEqual([
      'volumeMode FieldValueInvalid',
    ])
  })
  test('nodeAffinity is immutable once set (MutablePVNodeAffinity off), beta labels may become GA', () => {
    const aff = (key: string) => ({
      required: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values: ['z'] }] }] },
    })
    expect(fieldTypes(base({ hostPath, nodeAffinity: aff('a') }), base({ hostPath, nodeAffinity: aff('b') }))).toEqual([
      'nodeAffinity FieldValueInvalid',
    ])
    const ga = base({ hostPath, nodeAffinity: aff('topology.kubernetes.io/zone') })
    const beta = base({ hostPath, nodeAffinity: aff('failure-domain.beta.kubernetes.io/zone') })
    expect(fieldTypes(ga, beta)).toEqual([])
    expect(fieldTypes(base({ hostPath, nodeAffinity: aff('a') }), base({ hostPath }))).toEqual([])
  })
  test('an update validates the new object twice (the strategy, then ValidatePersistentVolumeUpdate)', () => {
    expect(fieldTypes(base({ hostPath, storageClassName: 'Bad_Class' }), base({ hostPath }))).toEqual([
      'spec.storageClassName FieldValueInvalid',
      'spec.storageClassName FieldValueInvalid',
    ])
  })
})

describe('hostile input', () => {
  test('a capacity and flexVolume options keyed __proto__ are data', () => {
    const capacity = JSON.parse('{"storage": "1Gi", "__proto__": "1"}')
    expect(texts(pv(good({ capacity })))).toEqual([
      'spec.capacity: Unsupported value: {"__proto__":"1","storage":"1Gi"}: supported values: "storage"',
    ])
  })
})
