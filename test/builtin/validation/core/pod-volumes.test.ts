import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { validateVolumes } from '../../../../src/builtin/validation/core/pod-volumes.js'
import { errorString, type FieldError, FieldPath } from '../../../../src/kube/field.js'
import { fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: TestValidateVolumes (the cases of
// the sources kelp validates in detail: names, one source, hostPath, gitRepo, secret, configMap,
// downwardAPI, projected, image; each error matched, as the Go test does, by type, by a field that
// equals or ends with the expected one, and by a detail substring), TestValidateKeyToPath,
// TestValidateNFSVolumeSource, TestValidateCSIVolumeSource, TestValidateEphemeralVolume subsets and
// the volume cases of TestValidatePod. ValidateVolumes is called on path `field` as in Go.

type Want = [type: string, field: string, detail?: string]
const F = FieldPath.of('field')
const vols = (...v: O[]) => validateVolumes(v, F, 37)[1]
const txt = (errs: FieldError[]) => errs.map(errorString)

/** The Go test's matcher: same count, then each error's type, field (equal or `.`-suffix) and detail substring. */
function match(errs: FieldError[], want: Want[]) {
  expect(errs.map((e) => `${e.type} ${e.field}`)).toHaveLength(want.length)
  want.forEach(([type, f, detail], i) => {
    const e = errs[i] as FieldError
    expect(e.type).toBe(type)
    expect(e.field === f || e.field.endsWith(`.${f}`), `${e.field} ~ ${f}`).toBe(true)
    if (detail !== undefined) expect(e.detail).toContain(detail)
  })
}

const R = 'FieldValueRequired'
const I = 'FieldValueInvalid'
const N = 'FieldValueNotSupported'
const X = 'FieldValueForbidden'

const items = (key: string, path: string, extra: O = {}) => [{ key, path, ...extra }]

describe('TestValidateVolumes', () => {
  const cases: [string, O, Want[]][] = [
    ['valid alpha name', { name: 'empty', emptyDir: {} }, []],
    ['valid num name', { name: '123', emptyDir: {} }, []],
    ['valid alphanum name', { name: 'empty-123', emptyDir: {} }, []],
    ['valid numalpha name', { name: '123-empty', emptyDir: {} }, []],
    ['zero-length name', { name: '', emptyDir: {} }, [[R, 'name']]],
    ['name > 63 characters', { name: 'a'.repeat(64), emptyDir: {} }, [[I, 'name', 'must be no more than']]],
    ['name has dots', { name: 'a.b', emptyDir: {} }, [[I, 'name', 'must not contain dots']]],
    ['name not a DNS label', { name: 'Not a DNS label', emptyDir: {} }, [[I, 'name', 'a lowercase RFC 1123 label']]],
    [
      'more than one source',
      { name: 'dups', emptyDir: {}, hostPath: { path: '/mnt/path', type: 'Directory' } },
      [[X, 'hostPath', 'may not specify more than 1 volume']],
    ],
    ['default HostPath', { name: 'hostpath', hostPath: { path: '/mnt/path', type: 'Directory' } }, []],
    ['valid HostPath', { name: 'hostpath', hostPath: { path: '/mnt/path', type: 'Socket' } }, []],
    ['invalid HostPath', { name: 'hostpath', hostPath: { path: '/mnt/path', type: 'invalid' } }, [[N, 'type']]],
    [
      'invalid HostPath backsteps',
      { name: 'hostpath', hostPath: { path: '/mnt/path/..', type: 'Directory' } },
      [[I, 'path', "must not contain '..'"]],
    ],
    [
      'valid GcePersistentDisk',
      { name: 'gce-pd', gcePersistentDisk: { pdName: 'my-PD', fsType: 'ext4', partition: 1, readOnly: false } },
      [],
    ],
    [
      'valid AWSElasticBlockStore',
      { name: 'aws-ebs', awsElasticBlockStore: { volumeID: 'my-PD', fsType: 'ext4', partition: 1, readOnly: false } },
      [],
    ],
    [
      'valid GitRepo',
      { name: 'git-repo', gitRepo: { repository: 'my-repo', revision: 'hashstring', directory: 'target' } },
      [],
    ],
    ['valid GitRepo in .', { name: 'git-repo-dot', gitRepo: { repository: 'my-repo', directory: '.' } }, []],
    [
      'valid GitRepo with .. in name',
      { name: 'git-repo-dot-dot-foo', gitRepo: { repository: 'my-repo', directory: '..foo' } },
      [],
    ],
    [
      'GitRepo starts with ../',
      { name: 'gitrepo', gitRepo: { repository: 'foo', directory: '../dots/bar' } },
      [[I, 'gitRepo.directory', "must not contain '..'"]],
    ],
    [
      'GitRepo contains ..',
      { name: 'gitrepo', gitRepo: { repository: 'foo', directory: 'dots/../bar' } },
      [[I, 'gitRepo.directory', "must not contain '..'"]],
    ],
    [
      'GitRepo absolute target',
      { name: 'gitrepo', gitRepo: { repository: 'foo', directory: '/abstarget' } },
      [[I, 'gitRepo.directory']],
    ],
    ['valid Secret', { name: 'secret', secret: { secretName: 'my-secret' } }, []],
    ['valid Secret with defaultMode', { name: 'secret', secret: { secretName: 'my-secret', defaultMode: 0o644 } }, []],
    ['valid Secret with defaultUser', { name: 'secret', secret: { secretName: 'my-secret', defaultUser: 1000 } }, []],
    [
      'valid Secret with projection and mode',
      { name: 'secret', secret: { secretName: 'my-secret', items: items('foo', 'filename', { mode: 0o644 }) } },
      [],
    ],
    [
      'valid Secret with projection and user',
      { name: 'secret', secret: { secretName: 'my-secret', items: items('foo', 'filename', { user: 1000 }) } },
      [],
    ],
    [
      'valid Secret with subdir projection',
      { name: 'secret', secret: { secretName: 'my-secret', items: items('foo', 'dir/filename') } },
      [],
    ],
    [
      'secret with missing path',
      { name: 'secret', secret: { secretName: 's', items: items('key', '') } },
      [[R, 'secret.items[0].path']],
    ],
    [
      'secret with leading ..',
      { name: 'secret', secret: { secretName: 's', items: items('key', '../foo') } },
      [[I, 'secret.items[0].path']],
    ],
    [
      'secret with .. inside',
      { name: 'secret', secret: { secretName: 's', items: items('key', 'foo/../bar') } },
      [[I, 'secret.items[0].path']],
    ],
    [
      'secret with invalid positive defaultMode',
      { name: 'secret', secret: { secretName: 's', defaultMode: 0o1000 } },
      [[I, 'secret.defaultMode']],
    ],
    [
      'secret with invalid negative defaultMode',
      { name: 'secret', secret: { secretName: 's', defaultMode: -1 } },
      [[I, 'secret.defaultMode']],
    ],
    [
      'secret with invalid positive defaultUser',
      { name: 'secret', secret: { secretName: 's', defaultUser: 2147483648 } },
      [[I, 'secret.defaultUser']],
    ],
    [
      'secret with invalid negative defaultUser',
      { name: 'secret', secret: { secretName: 's', defaultUser: -1 } },
      [[I, 'secret.defaultUser']],
    ],
    [
      'secret with projection and invalid positive user',
      { name: 'secret', secret: { secretName: 's', items: items('key', 'p', { user: 2147483648 }) } },
      [[I, 'secret.items[0].user']],
    ],
    [
      'secret with projection and invalid negative user',
      { name: 'secret', secret: { secretName: 's', items: items('key', 'p', { user: -1 }) } },
      [[I, 'secret.items[0].user']],
    ],
    ['valid ConfigMap', { name: 'cfgmap', configMap: { name: 'my-cfgmap' } }, []],
    ['valid ConfigMap with defaultMode', { name: 'cfgmap', configMap: { name: 'my-cfgmap', defaultMode: 0o644 } }, []],
    ['valid ConfigMap with defaultUser', { name: 'cfgmap', configMap: { name: 'my-cfgmap', defaultUser: 1000 } }, []],
    [
      'valid ConfigMap with projection and mode',
      { name: 'cfgmap', configMap: { name: 'my-cfgmap', items: items('foo', 'filename', { mode: 0o644 }) } },
      [],
    ],
    [
      'valid ConfigMap with projection and user',
      { name: 'cfgmap', configMap: { name: 'my-cfgmap', items: items('foo', 'filename', { user: 1000 }) } },
      [],
    ],
    [
      'valid ConfigMap with subdir projection',
      { name: 'cfgmap', configMap: { name: 'my-cfgmap', items: items('foo', 'dir/filename') } },
      [],
    ],
    [
      'configmap with missing path',
      { name: 'cfgmap', configMap: { name: 'c', items: items('key', '') } },
      [[R, 'configMap.items[0].path']],
    ],
    [
      'configmap with leading ..',
      { name: 'cfgmap', configMap: { name: 'c', items: items('key', '../foo') } },
      [[I, 'configMap.items[0].path']],
    ],
    [
      'configmap with .. inside',
      { name: 'cfgmap', configMap: { name: 'c', items: items('key', 'foo/../bar') } },
      [[I, 'configMap.items[0].path']],
    ],
    [
      'configmap with invalid positive defaultMode',
      { name: 'cfgmap', configMap: { name: 'c', defaultMode: 0o1000 } },
      [[I, 'configMap.defaultMode']],
    ],
    [
      'configmap with invalid negative defaultMode',
      { name: 'cfgmap', configMap: { name: 'c', defaultMode: -1 } },
      [[I, 'configMap.defaultMode']],
    ],
    [
      'configmap with invalid positive defaultUser',
      { name: 'cfgmap', configMap: { name: 'c', defaultUser: 2147483648 } },
      [[I, 'configMap.defaultUser']],
    ],
    [
      'configmap with invalid negative defaultUser',
      { name: 'cfgmap', configMap: { name: 'c', defaultUser: -1 } },
      [[I, 'configMap.defaultUser']],
    ],
    [
      'configMap with projection and invalid positive user',
      { name: 'cfgmap', configMap: { name: 'c', items: items('key', 'p', { user: 2147483648 }) } },
      [[I, 'configMap.items[0].user']],
    ],
    [
      'configMap with projection and invalid negative user',
      { name: 'cfgmap', configMap: { name: 'c', items: items('key', 'p', { user: -1 }) } },
      [[I, 'configMap.items[0].user']],
    ],
    [
      'ProjectedVolumeSource valid defaultMode',
      { name: 'projected-volume', projected: { defaultMode: 0o644, sources: [{ secret: { name: 'foo' } }] } },
      [],
    ],
    [
      'ProjectedVolumeSource invalid positive defaultMode',
      { name: 'projected-volume', projected: { defaultMode: 0o1000, sources: [{ secret: { name: 'foo' } }] } },
      [[I, 'projected.defaultMode']],
    ],
    [
      'ProjectedVolumeSource invalid negative defaultMode',
      { name: 'projected-volume', projected: { defaultMode: -1, sources: [{ secret: { name: 'foo' } }] } },
      [[I, 'projected.defaultMode']],
    ],
    [
      'ProjectedVolumeSource valid defaultUser',
      { name: 'projected-volume', projected: { defaultUser: 1000, sources: [{ secret: { name: 'foo' } }] } },
      [],
    ],
    [
      'ProjectedVolumeSource invalid positive defaultUser',
      { name: 'projected-volume', projected: { defaultUser: 2147483648, sources: [{ secret: { name: 'foo' } }] } },
      [[I, 'projected.defaultUser']],
    ],
    [
      'ProjectedVolumeSource invalid negative defaultUser',
      { name: 'projected-volume', projected: { defaultUser: -1, sources: [{ secret: { name: 'foo' } }] } },
      [[I, 'projected.defaultUser']],
    ],
    [
      'ProjectedVolumeSource ServiceAccountToken valid user',
      {
        name: 'projected-volume',
        projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, user: 1000 } }] },
      },
      [],
    ],
    [
      'ProjectedVolumeSource ServiceAccountToken invalid positive user',
      {
        name: 'projected-volume',
        projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, user: 2147483648 } }] },
      },
      [[I, 'projected.sources[0].serviceAccountToken.user']],
    ],
    [
      'ProjectedVolumeSource ServiceAccountToken invalid negative user',
      {
        name: 'projected-volume',
        projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, user: -1 } }] },
      },
      [[I, 'projected.sources[0].serviceAccountToken.user']],
    ],
    [
      'ProjectedVolumeSource more than one projection in a source',
      {
        name: 'projected-volume',
        projected: { sources: [{ secret: { name: 'foo' } }, { secret: { name: 'foo' }, downwardAPI: {} }] },
      },
      [[X, 'projected.sources[1]']],
    ],
    [
      'ProjectedVolumeSource more than one projection in a source (without names)',
      { name: 'projected-volume', projected: { sources: [{ secret: {} }, { secret: {}, downwardAPI: {} }] } },
      [
        [R, 'projected.sources[0].secret.name'],
        [R, 'projected.sources[1].secret.name'],
        [X, 'projected.sources[1]'],
      ],
    ],
    [
      'valid image volume on pod',
      { name: 'image-volume', image: { reference: 'quay.io/my/artifact:v1', pullPolicy: 'IfNotPresent' } },
      [],
    ],
    ['no volume source', { name: 'volume' }, [[R, 'field[0]', 'must specify a volume type']]],
    [
      'image volume with empty name',
      { name: '', image: { reference: 'quay.io/my/artifact:v1', pullPolicy: 'IfNotPresent' } },
      [[R, 'name']],
    ],
    [
      'image volume with empty reference on pod',
      { name: 'image-volume', image: { reference: '', pullPolicy: 'IfNotPresent' } },
      [[R, 'image.reference']],
    ],
    [
      'image volume with wrong pullPolicy',
      { name: 'image-volume', image: { reference: 'quay.io/my/artifact:v1', pullPolicy: 'wrong' } },
      [[N, 'image.pullPolicy']],
    ],
  ]
  for (const [name, vol, want] of cases) it(name, () => match(vols(vol), want))

  it('duplicate names: one error', () =>
    expect(txt(vols({ name: 'abc', emptyDir: {} }, { name: 'abc', emptyDir: {} }))).toEqual([
      'field[1].name: Duplicate value: "abc"',
    ]))
})

describe('TestValidateVolumes: downwardAPI', () => {
  const f = (path: string, fieldPath: string) => ({ path, fieldRef: { apiVersion: 'v1', fieldPath } })
  const r = (path: string, resource: string) => ({
    path,
    resourceFieldRef: { containerName: 'test-container', resource },
  })
  const dapi = (o: O) => vols({ name: 'downwardapi', downwardAPI: o })
  it('valid DownwardAPI', () =>
    expect(
      dapi({
        items: [
          f('labels', 'metadata.labels'),
          f('labels with subscript', "metadata.labels['key']"),
          f('labels with complex subscript', "metadata.labels['test.example.com/key']"),
          f('annotations', 'metadata.annotations'),
          f('annotations with subscript', "metadata.annotations['key']"),
          f('annotations with complex subscript', "metadata.annotations['TEST.EXAMPLE.COM/key']"),
          f('namespace', 'metadata.namespace'),
          f('name', 'metadata.name'),
          f('path/with/subdirs', 'metadata.labels'),
          f('path/./withdot', 'metadata.labels'),
          f('path/with/embedded..dotdot', 'metadata.labels'),
          f('path/with/leading/..dotdot', 'metadata.labels'),
          r('cpu_limit', 'limits.cpu'),
          r('cpu_request', 'requests.cpu'),
          r('memory_limit', 'limits.memory'),
          r('memory_request', 'requests.memory'),
        ],
      }),
    ).toEqual([]))
  it('hugepages-downwardAPI-enabled', () =>
    expect(
      dapi({ items: [r('hugepages_request', 'requests.hugepages-2Mi'), r('hugepages_limit', 'limits.hugepages-2Mi')] }),
    ).toEqual([]))
  const one = (item: O) => dapi({ items: [item] })
  const cases: [string, O, Want[]][] = [
    ['downapi valid defaultMode', { defaultMode: 0o644 }, []],
    ['downapi valid item mode', { items: [{ ...f('path', 'metadata.labels'), mode: 0o644 }] }, []],
    [
      'downapi invalid positive item mode',
      { items: [{ ...f('path', 'metadata.labels'), mode: 0o1000 }] },
      [[I, 'downwardAPI.mode']],
    ],
    [
      'downapi invalid negative item mode',
      { items: [{ ...f('path', 'metadata.labels'), mode: -1 }] },
      [[I, 'downwardAPI.mode']],
    ],
    ['downapi valid defaultUser', { defaultUser: 1000 }, []],
    ['downapi valid item user', { items: [{ ...f('path', 'metadata.labels'), user: 1000 }] }, []],
    [
      'downapi invalid positive item user',
      { items: [{ ...f('path', 'metadata.labels'), user: 2147483648 }] },
      [[I, 'downwardAPI.user']],
    ],
    [
      'downapi invalid negative item user',
      { items: [{ ...f('path', 'metadata.labels'), user: -1 }] },
      [[I, 'downwardAPI.user']],
    ],
    ['downapi empty metatada path', { items: [f('', 'metadata.labels')] }, [[R, 'downwardAPI.path']]],
    ['downapi absolute path', { items: [f('/absolutepath', 'metadata.labels')] }, [[I, 'downwardAPI.path']]],
    [
      'downapi dot dot path',
      { items: [f('../../passwd', 'metadata.labels')] },
      [[I, 'downwardAPI.path', "must not contain '..'"]],
    ],
    [
      'downapi dot dot file name',
      { items: [f('..badFileName', 'metadata.labels')] },
      [[I, 'downwardAPI.path', "must not start with '..'"]],
    ],
    [
      'downapi dot dot first level dirent',
      { items: [f('..badDirName/goodFileName', 'metadata.labels')] },
      [[I, 'downwardAPI.path', "must not start with '..'"]],
    ],
    [
      'downapi fieldRef and ResourceFieldRef together',
      {
        items: [
          {
            ...f('test', 'metadata.labels'),
            resourceFieldRef: { containerName: 'test-container', resource: 'requests.memory' },
          },
        ],
      },
      [[I, 'downwardAPI', 'fieldRef and resourceFieldRef can not be specified simultaneously']],
    ],
    ['downapi invalid positive defaultMode', { defaultMode: 0o1000 }, [[I, 'downwardAPI.defaultMode']]],
    ['downapi invalid negative defaultMode', { defaultMode: -1 }, [[I, 'downwardAPI.defaultMode']]],
    ['downapi invalid positive defaultUser', { defaultUser: 2147483648 }, [[I, 'downwardAPI.defaultUser']]],
    ['downapi invalid negative defaultUser', { defaultUser: -1 }, [[I, 'downwardAPI.defaultUser']]],
  ]
  for (const [name, o, want] of cases) it(name, () => match(dapi(o), want))
  it('field selector messages (validateObjectFieldSelector)', () => {
    expect(txt(one(f('p', 'spec.nodeName')))).toEqual([
      'field[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
    ])
    expect(txt(one(f('p', 'metadata.foo')))).toEqual([
      'field[0].downwardAPI.fieldRef.fieldPath: Invalid value: "metadata.foo": error converting fieldPath: field label not supported: metadata.foo',
    ])
    expect(txt(one({ path: 'p', fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } }))).toEqual([
      'field[0].downwardAPI.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
    ])
    expect(ft(one({ path: 'p', fieldRef: { fieldPath: 'metadata.name' } }))).toEqual([
      'field[0].downwardAPI.fieldRef.apiVersion FieldValueRequired',
    ])
    expect(ft(one({ path: 'p' }))).toEqual(['field[0].downwardAPI FieldValueRequired'])
    expect(ft(one({ path: 'p', resourceFieldRef: { resource: 'limits.cpu' } }))).toEqual([
      'field[0].downwardAPI.resourceFieldRef.containerName FieldValueRequired',
    ])
    expect(ft(one(r('p', 'limits.gpu')))).toEqual([
      'field[0].downwardAPI.resourceFieldRef.resource FieldValueNotSupported',
    ])
  })
})

const ft = (errs: FieldError[]) => errs.map((e) => `${e.field} ${e.type}`)

describe('TestValidateKeyToPath (through a configMap volume)', () => {
  const kp = (k: O) => vols({ name: 'v', configMap: { name: 'c', items: [k] } })
  const cases: [O, string | undefined][] = [
    [{ key: 'k', path: 'p' }, undefined],
    [{ key: 'k', path: 'p/p/p/p' }, undefined],
    [{ key: 'k', path: 'p/..p/p../p..p' }, undefined],
    [{ key: 'k', path: 'p', mode: 0o644 }, undefined],
    [{ key: '', path: 'p' }, R],
    [{ key: 'k', path: '' }, R],
    [{ key: 'k', path: '..p' }, I],
    [{ key: 'k', path: '../p' }, I],
    [{ key: 'k', path: 'p/../p' }, I],
    [{ key: 'k', path: 'p/..' }, I],
    [{ key: 'k', path: 'p', mode: 0o1000 }, I],
    [{ key: 'k', path: 'p', mode: -1 }, I],
  ]
  cases.forEach(([k, type], i) => {
    it(`[${i}] ${JSON.stringify(k)}`, () => expect(kp(k).map((e) => e.type)).toEqual(type === undefined ? [] : [type]))
  })
})

describe('TestValidateNFSVolumeSource', () => {
  const nfs = (o: O) => vols({ name: 'nfs', nfs: o })
  it('missing server', () => match(nfs({ server: '', path: '/tmp' }), [[R, 'server']]))
  it('missing path (then not absolute)', () =>
    match(nfs({ server: 'my-server', path: '' }), [
      [R, 'path'],
      [I, 'path'],
    ]))
  it('abs path', () => match(nfs({ server: 'my-server', path: 'tmp' }), [[I, 'path', 'must be an absolute path']]))
})

describe('TestValidateCSIVolumeSource', () => {
  const csi = (o: O) => vols({ name: 'csi', csi: o })
  const cases: [string, O, string?, string?][] = [
    ['all required fields ok', { driver: 'test-driver' }],
    ['missing driver name', { driver: '' }, R, 'driver'],
    ['driver name: ok no punctuations', { driver: 'comgooglestoragecsigcepd' }],
    ['driver name: ok dot only', { driver: 'io.kubernetes.storage.csi.flex' }],
    ['driver name: ok dash only', { driver: 'io-kubernetes-storage-csi-flex' }],
    ['driver name: invalid underscore', { driver: 'io_kubernetes_storage_csi_flex' }, I, 'driver'],
    ['driver name: invalid dot underscores', { driver: 'io.kubernetes.storage_csi.flex' }, I, 'driver'],
    ['driver name: ok beginning with number', { driver: '2io.kubernetes.storage-csi.flex' }],
    ['driver name: ok ending with number', { driver: 'io.kubernetes.storage-csi.flex2' }],
    ['driver name: invalid dot dash underscores', { driver: 'io.kubernetes-storage.csi_flex' }, I, 'driver'],
    ['driver name: ok length 1', { driver: 'a' }],
    ['driver name: invalid length > 63', { driver: 'g'.repeat(65) }, 'FieldValueTooLong', 'driver'],
    ['driver name: invalid start char', { driver: '_comgooglestoragecsigcepd' }, I, 'driver'],
    ['driver name: invalid end char', { driver: 'comgooglestoragecsigcepd/' }, I, 'driver'],
    ['driver name: invalid separators', { driver: 'com/google/storage/csi~gcepd' }, I, 'driver'],
    ['valid nodePublishSecretRef', { driver: 'com.google.gcepd', nodePublishSecretRef: { name: 'foobar' } }],
    [
      'nodePublishSecretRef: invalid name missing',
      { driver: 'com.google.gcepd', nodePublishSecretRef: { name: '' } },
      R,
      'nodePublishSecretRef.name',
    ],
  ]
  for (const [name, o, type, f] of cases)
    it(name, () => {
      const errs = csi(o)
      if (type === undefined) expect(txt(errs)).toEqual([])
      else {
        expect(errs[0]?.type).toBe(type)
        expect(errs[0]?.field.endsWith(`.${f}`)).toBe(true)
      }
    })
})

describe('emptyDir, serviceAccountToken, ephemeral (TestValidateVolumes / TestValidatePod / TestValidateEphemeralVolume)', () => {
  it('emptyDir sizeLimit must not be negative', () =>
    expect(txt(vols({ name: 'e', emptyDir: { sizeLimit: '-1' } }))).toEqual([
      'field[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity',
    ]))
  it('serviceAccountToken expiration and path', () => {
    const sat = (o: O) => vols({ name: 'p', projected: { sources: [{ serviceAccountToken: o }] } })
    expect(txt(sat({ path: 'token', expirationSeconds: 599 }))).toEqual([
      'field[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ])
    expect(txt(sat({ path: 'token', expirationSeconds: 2 ** 32 + 1 }))).toEqual([
      'field[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ])
    // Go reports the token path at the projected volume, not at the source
    expect(ft(sat({ expirationSeconds: 3600 }))).toEqual(['field[0].projected.path FieldValueRequired'])
    expect(ft(sat({ path: '/abs', expirationSeconds: 3600 }))).toEqual(['field[0].projected.path FieldValueInvalid'])
  })
  it('projected: conflicting duplicate paths', () =>
    expect(
      txt(
        vols({
          name: 'p',
          projected: {
            sources: [
              { secret: { name: 's', items: [{ key: 'a', path: 'x' }] } },
              { configMap: { name: 'c', items: [{ key: 'b', path: 'x' }] } },
            ],
          },
        }),
      ),
    ).toEqual(['field[0].projected: Invalid value: "c": conflicting duplicate paths']))
  it('ephemeral: volumeClaimTemplate required, its metadata and spec', () => {
    expect(ft(vols({ name: 'e', ephemeral: {} }))).toEqual([
      'field[0].ephemeral.volumeClaimTemplate FieldValueRequired',
    ])
    expect(
      ft(
        vols({
          name: 'e',
          ephemeral: {
            volumeClaimTemplate: {
              metadata: { name: 'x', labels: { a: 'b' } },
              spec: { resources: { requests: { storage: '1Gi' } } },
            },
          },
        }),
      ),
    ).toEqual([
      'field[0].ephemeral.volumeClaimTemplate.metadata.name FieldValueForbidden',
      'field[0].ephemeral.volumeClaimTemplate.spec.accessModes FieldValueRequired',
    ])
  })
  it('through a Pod: the PVC name of an ephemeral volume and a PVC it creates (TestValidatePod)', () => {
    const spec = {
      volumes: [
        { name: 'pvc', persistentVolumeClaim: { claimName: '123-ephemeral-volume' } },
        {
          name: 'ephemeral-volume',
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10G' } } },
            },
          },
        },
      ],
    }
    expect(
      texts({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: '123', namespace: 'ns' },
        spec: { containers: [{ name: 'ctr', image: 'image' }], ...spec },
      }),
    ).toEqual([
      'spec.volumes[0].persistentVolumeClaim.claimName: Invalid value: "123-ephemeral-volume": must not reference a PVC that gets created for an ephemeral volume',
    ])
    const long = 'a'.repeat(200)
    expect(
      fieldTypes({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: long, namespace: 'ns' },
        spec: {
          containers: [{ name: 'ctr', image: 'image' }],
          volumes: [{ name: 'b'.repeat(60), ephemeral: spec.volumes[1]?.ephemeral }],
        },
      }),
    ).toEqual(['spec.volumes[0].name FieldValueInvalid'])
  })
  it('a volume mount of an unknown volume (ValidateVolumeMounts)', () =>
    expect(
      fieldTypes({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'ns' },
        spec: {
          containers: [
            {
              name: 'ctr',
              image: 'image',
              volumeMounts: [{ name: 'x', mountPath: '/x', subPath: '../a', mountPropagation: 'Bidirectional' }],
            },
          ],
        },
      }),
    ).toEqual([
      'spec.containers[0].volumeMounts[0].name FieldValueNotFound',
      'spec.containers[0].volumeMounts.subPath FieldValueInvalid',
      'spec.containers[0].volumeMounts.mountPropagation FieldValueForbidden',
    ]))
})

describe('TestAlphaValidateVolumeDevices (through a Pod container)', () => {
  const volumes = [
    { name: 'abc', persistentVolumeClaim: { claimName: 'testclaim1' } },
    { name: 'abc-123', persistentVolumeClaim: { claimName: 'testclaim2' } },
    { name: 'def', hostPath: { path: '/foo/baz', type: '' } },
    {
      name: 'ephemeral',
      ephemeral: {
        volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10G' } } } },
      },
    },
    { name: 'xyz', emptyDir: {} },
    { name: 'ghi', emptyDir: {} },
  ]
  const run = (volumeDevices: O[], volumeMounts: O[]) =>
    fieldTypes({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ns' },
      spec: { volumes, containers: [{ name: 'ctr', image: 'image', volumeDevices, volumeMounts }] },
    }).filter((t) => t.includes('.volumeDevices'))
  const good = [
    { name: 'xyz', mountPath: '/foofoo' },
    { name: 'ghi', mountPath: '/foo/usr/share/test' },
  ]
  const bad = [
    { name: 'abc', mountPath: '/foo' },
    { name: 'abc-123', mountPath: '/this/path/exists' },
  ]
  it('success', () =>
    expect(
      run(
        [
          { name: 'abc', devicePath: '/foo' },
          { name: 'abc-123', devicePath: '/usr/share/test' },
          { name: 'ephemeral', devicePath: '/disk' },
        ],
        good,
      ),
    ).toEqual([]))
  const cases: [string, O[]][] = [
    ['empty name', [{ name: '', devicePath: '/foo' }]],
    [
      'duplicate name',
      [
        { name: 'abc', devicePath: '/foo' },
        { name: 'abc', devicePath: '/foo/bar' },
      ],
    ],
    ['name not found', [{ name: 'not-found', devicePath: '/usr/share/test' }]],
    ['name found but invalid source', [{ name: 'def', devicePath: '/usr/share/test' }]],
    ['empty devicepath', [{ name: 'abc', devicePath: '' }]],
    ['relative devicepath', [{ name: 'abc-123', devicePath: 'baz' }]],
    [
      'duplicate devicepath',
      [
        { name: 'abc', devicePath: '/foo' },
        { name: 'abc-123', devicePath: '/foo' },
      ],
    ],
    ['no backsteps', [{ name: 'def', devicePath: '/baz/../' }]],
    ['name exists in volumemounts', [{ name: 'abc', devicePath: '/baz/../' }]],
    ['path exists in volumemounts', [{ name: 'xyz', devicePath: '/this/path/exists' }]],
    ['both exist in volumemounts', [{ name: 'abc', devicePath: '/this/path/exists' }]],
  ]
  for (const [name, devices] of cases) it(`failure: ${name}`, () => expect(run(devices, bad).length).toBeGreaterThan(0))
  it('messages', () =>
    expect(
      texts({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'ns' },
        spec: {
          volumes,
          containers: [{ name: 'ctr', image: 'image', volumeDevices: [{ name: 'def', devicePath: '/a/../b' }] }],
        },
      }),
    ).toEqual([
      'spec.containers[0].volumeDevices[0].name: Invalid value: "def": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      `spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/a/../b": can not contain backsteps ('..')`,
    ]))
})
