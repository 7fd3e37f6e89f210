import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { validateVolumes } from '../../../../src/builtin/validation/core/pod-volumes.js'
import { type FieldError, FieldPath } from '../../../../src/kube/field.js'
import { type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go TestValidateVolumes: the cases of the in-tree
// sources (iscsi, glusterfs, flocker, rbd, cinder, cephfs, fc, flexVolume, azureFile, quobyte, azureDisk,
// scaleIO) and the clusterTrustBundle / podCertificate user cases, matched as the Go test matches (type, a
// field equal to or ending with the expected one, a detail substring); TestValidatePod's clusterTrustBundle
// and podCertificate cases (a substring of the error text). The texts in full come from a kube-apiserver
// v1.37.2 (`kubectl apply --dry-run=server`) for the cases marked so.

type Want = [type: string, field: string, detail?: string]
const F = FieldPath.of('field')
const vols = (...v: O[]) => validateVolumes(v, F, 37)[1]

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

const iscsi = (x: O) => ({
  name: 'iscsi',
  iscsi: { targetPortal: '127.0.0.1', iqn: 'iqn.2015-02.example.com:test', lun: 1, fsType: 'ext4', ...x },
})
const quobyte = (x: O) => ({
  name: 'quobyte',
  quobyte: { registry: 'registry:7861', volume: '/test', tenant: 'ThisIsSomeTenantUUID', ...x },
})
const fc = (x: O) => ({ name: 'fc', fc: x })
const projected = (source: O) => ({ name: 'projected-volume', projected: { sources: [source] } })

describe('TestValidateVolumes: the in-tree sources', () => {
  const cases: [string, O, Want[]][] = [
    ['valid ISCSI', iscsi({}), []],
    ['valid IQN: eui format', iscsi({ iqn: 'eui.0123456789ABCDEF' }), []],
    ['valid IQN: naa format', iscsi({ iqn: 'naa.62004567BA64678D0123456789ABCDEF' }), []],
    ['empty portal', iscsi({ targetPortal: '' }), [[R, 'iscsi.targetPortal']]],
    ['empty iqn', iscsi({ iqn: '' }), [[R, 'iscsi.iqn']]],
    ['invalid IQN: iqn format', iscsi({ iqn: 'iqn.2015-02.example.com:test;ls;' }), [[I, 'iscsi.iqn']]],
    ['invalid IQN: eui format', iscsi({ iqn: 'eui.0123456789ABCDEFGHIJ' }), [[I, 'iscsi.iqn']]],
    ['invalid IQN: naa format', iscsi({ iqn: 'naa.62004567BA_4-78D.123456789ABCDEF' }), [[I, 'iscsi.iqn']]],
    ['valid initiatorName', iscsi({ initiatorName: 'iqn.2015-02.example.com:init' }), []],
    ['invalid initiatorName', iscsi({ initiatorName: '2015-02.example.com:init' }), [[I, 'iscsi.initiatorname']]],
    ['empty secret (discovery)', iscsi({ chapAuthDiscovery: true }), [[R, 'iscsi.secretRef']]],
    ['empty secret (session)', iscsi({ chapAuthSession: true }), [[R, 'iscsi.secretRef']]],
    ['valid Glusterfs', { name: 'glusterfs', glusterfs: { endpoints: 'host1', path: 'path' } }, []],
    ['empty hosts', { name: 'glusterfs', glusterfs: { endpoints: '', path: 'path' } }, [[R, 'glusterfs.endpoints']]],
    ['empty path', { name: 'glusterfs', glusterfs: { endpoints: 'host', path: '' } }, [[R, 'glusterfs.path']]],
    [
      'valid Flocker -- datasetUUID',
      { name: 'flocker', flocker: { datasetUUID: 'd846b09d-223d-43df-ab5b-d6db2206a0e4' } },
      [],
    ],
    ['valid Flocker -- datasetName', { name: 'flocker', flocker: { datasetName: 'datasetName' } }, []],
    ['both empty', { name: 'flocker', flocker: { datasetName: '' } }, [[R, 'flocker']]],
    [
      'both specified',
      { name: 'flocker', flocker: { datasetName: 'datasetName', datasetUUID: 'd846b09d-223d-43df-ab5b-d6db2206a0e4' } },
      [[I, 'flocker']],
    ],
    [
      'slash in flocker datasetName',
      { name: 'flocker', flocker: { datasetName: 'foo/bar' } },
      [[I, 'flocker.datasetName', "must not contain '/'"]],
    ],
    ['valid RBD', { name: 'rbd', rbd: { monitors: ['foo'], image: 'bar', fsType: 'ext4' } }, []],
    ['empty rbd monitors', { name: 'rbd', rbd: { monitors: [], image: 'bar' } }, [[R, 'rbd.monitors']]],
    ['empty image', { name: 'rbd', rbd: { monitors: ['foo'], image: '' } }, [[R, 'rbd.image']]],
    ['valid Cinder', { name: 'cinder', cinder: { volumeID: '29ea5088-4f60-4757-962e-dba678767887' } }, []],
    ['valid CephFS', { name: 'cephfs', cephfs: { monitors: ['foo'] } }, []],
    ['empty cephfs monitors', { name: 'cephfs', cephfs: { monitors: [] } }, [[R, 'cephfs.monitors']]],
    ['FC valid targetWWNs and lun', fc({ targetWWNs: ['some_wwn'], lun: 1 }), []],
    ['FC valid wwids', fc({ wwids: ['some_wwid'] }), []],
    [
      'FC empty targetWWNs and wwids',
      fc({ targetWWNs: [], lun: 1, wwids: [] }),
      [[R, 'fc.targetWWNs', 'must specify either targetWWNs or wwids']],
    ],
    [
      'FC invalid: both targetWWNs and wwids simultaneously',
      fc({ targetWWNs: ['some_wwn'], lun: 1, wwids: ['some_wwid'] }),
      [[I, 'fc.targetWWNs', 'targetWWNs and wwids can not be specified simultaneously']],
    ],
    [
      'FC valid targetWWNs and empty lun',
      fc({ targetWWNs: ['wwn'] }),
      [[R, 'fc.lun', 'lun is required if targetWWNs is specified']],
    ],
    [
      'FC valid targetWWNs and invalid lun',
      fc({ targetWWNs: ['wwn'], lun: 256 }),
      [[I, 'fc.lun', 'must be between 0 and 255, inclusive']],
    ],
    ['valid FlexVolume', { name: 'flex-volume', flexVolume: { driver: 'kubernetes.io/blue', fsType: 'ext4' } }, []],
    ['valid AzureFile', { name: 'azure-file', azureFile: { secretName: 'key', shareName: 'share' } }, []],
    [
      'AzureFile empty secret',
      { name: 'azure-file', azureFile: { secretName: '', shareName: 'share' } },
      [[R, 'azureFile.secretName']],
    ],
    [
      'AzureFile empty share',
      { name: 'azure-file', azureFile: { secretName: 'name', shareName: '' } },
      [[R, 'azureFile.shareName']],
    ],
    ['valid Quobyte', quobyte({ user: 'root', group: 'root', registry: 'registry:7861', volume: 'volume' }), []],
    ['empty registry quobyte', quobyte({ registry: '' }), [[R, 'quobyte.registry']]],
    ['wrong format registry quobyte', quobyte({ registry: 'registry7861' }), [[I, 'quobyte.registry']]],
    [
      'wrong format multiple registries quobyte',
      quobyte({ registry: 'registry:7861,reg2' }),
      [[I, 'quobyte.registry']],
    ],
    ['empty volume quobyte', quobyte({ volume: '' }), [[R, 'quobyte.volume']]],
    ['empty tenant quobyte', quobyte({ tenant: '' }), []],
    [
      'too long tenant quobyte',
      quobyte({
        tenant:
          'this is too long to be a valid uuid so this test has to fail on the maximum length validation of the tenant.',
      }),
      [[R, 'quobyte.tenant']],
    ],
    [
      'valid AzureDisk',
      { name: 'azure-disk', azureDisk: { diskName: 'foo', diskURI: 'https://blob/vhds/bar.vhd' } },
      [],
    ],
    [
      'AzureDisk empty disk name',
      { name: 'azure-disk', azureDisk: { diskName: '', diskURI: 'https://blob/vhds/bar.vhd' } },
      [[R, 'azureDisk.diskName']],
    ],
    [
      'AzureDisk empty disk uri',
      { name: 'azure-disk', azureDisk: { diskName: 'foo', diskURI: '' } },
      [[R, 'azureDisk.diskURI']],
    ],
    [
      'valid scaleio volume',
      {
        name: 'scaleio-volume',
        scaleIO: { gateway: 'http://abcd/efg', system: 'test-system', volumeName: 'test-vol-1' },
      },
      [],
    ],
    [
      'ScaleIO with empty name',
      { name: 'scaleio-volume', scaleIO: { gateway: 'http://abcd/efg', system: 'test-system', volumeName: '' } },
      [[R, 'scaleIO.volumeName']],
    ],
    [
      'ScaleIO with empty gateway',
      { name: 'scaleio-volume', scaleIO: { gateway: '', system: 'test-system', volumeName: 'test-vol-1' } },
      [[R, 'scaleIO.gateway']],
    ],
    [
      'ScaleIO with empty system',
      { name: 'scaleio-volume', scaleIO: { gateway: 'http://agc/efg/gateway', system: '', volumeName: 'test-vol-1' } },
      [[R, 'scaleIO.system']],
    ],
    [
      'ProjectedVolumeSource ClusterTrustBundle valid user',
      projected({ clusterTrustBundle: { path: 'foo-path', name: 'foo', user: 1001 } }),
      [],
    ],
    [
      'ProjectedVolumeSource ClusterTrustBundle invalid positive user',
      projected({ clusterTrustBundle: { path: 'foo-path', name: 'foo', user: 2147483648 } }),
      [[I, 'projected.sources[0].clusterTrustBundle.user']],
    ],
    [
      'ProjectedVolumeSource ClusterTrustBundle invalid negative user',
      projected({ clusterTrustBundle: { path: 'foo-path', name: 'foo', user: -1 } }),
      [[I, 'projected.sources[0].clusterTrustBundle.user']],
    ],
    [
      'ProjectedVolumeSource PodCertificate valid user',
      projected({
        podCertificate: {
          signerName: 'example.com/foo',
          keyType: 'ED25519',
          credentialBundlePath: 'credbundle.pem',
          user: 1001,
        },
      }),
      [],
    ],
    [
      'ProjectedVolumeSource PodCertificate invalid positive user',
      projected({
        podCertificate: {
          signerName: 'example.com/foo',
          keyType: 'ED25519',
          credentialBundlePath: 'credbundle.pem',
          user: 2147483648,
        },
      }),
      [[I, 'projected.sources[0].podCertificate.user']],
    ],
    [
      'ProjectedVolumeSource PodCertificate invalid negative user',
      projected({
        podCertificate: {
          signerName: 'example.com/foo',
          keyType: 'ED25519',
          credentialBundlePath: 'credbundle.pem',
          user: -1,
        },
      }),
      [[I, 'projected.sources[0].podCertificate.user']],
    ],
  ]
  for (const [name, vol, want] of cases) it(name, () => match(vols(vol), want))
})

const pod = (volumes: O[], name = 'pod1'): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'ctr', image: 'image' }], volumes },
})
const projectedPod = (source: O) => texts(pod([projected(source)]))

describe('TestValidatePod: clusterTrustBundle and podCertificate projections', () => {
  const ED = { signerName: 'example.com/foo', keyType: 'ED25519' }
  const cases: [string, O, string][] = [
    [
      'ClusterTrustBundlePEM projected volume using both byName and bySigner',
      {
        clusterTrustBundle: {
          path: 'foo-path',
          signerName: 'example.com/foo',
          labelSelector: { matchLabels: { version: 'live' } },
          name: 'foo',
        },
      },
      'only one of name and signerName may be used',
    ],
    [
      'ClusterTrustBundlePEM projected volume byName with no name',
      { clusterTrustBundle: { path: 'foo-path', name: '' } },
      'must be a valid object name',
    ],
    [
      'ClusterTrustBundlePEM projected volume bySigner with no signer name',
      { clusterTrustBundle: { path: 'foo-path', signerName: '', labelSelector: { matchLabels: { foo: 'bar' } } } },
      'must be a valid signer name',
    ],
    [
      'ClusterTrustBundlePEM projected volume bySigner with invalid signer name',
      { clusterTrustBundle: { path: 'foo-path', signerName: 'example.com/foo/invalid' } },
      'must be a fully qualified domain and path of the form',
    ],
    [
      'PodCertificate projected volume with no signer name',
      { podCertificate: { keyType: 'ED25519', credentialBundlePath: 'credbundle.pem' } },
      'Required value',
    ],
    [
      'PodCertificate projected volume with bad signer name',
      {
        podCertificate: {
          signerName: 'example.com/foo/invalid',
          keyType: 'ED25519',
          credentialBundlePath: 'credbundle.pem',
        },
      },
      'must be a fully qualified domain and path of the form',
    ],
    [
      'PodCertificate projected volume with bad key type',
      { podCertificate: { signerName: 'example.com/foo', keyType: 'BAD', credentialBundlePath: 'credbundle.pem' } },
      'Unsupported value: "BAD"',
    ],
    [
      'PodCertificate projected volume with no paths',
      { podCertificate: ED },
      'Required value: specify at least one of credentialBundlePath, keyPath, and certificateChainPath',
    ],
    [
      'PodCertificate projected volume with conflicting paths',
      { podCertificate: { ...ED, keyPath: 'same.pem', certificateChainPath: 'same.pem' } },
      'conflicting duplicate paths',
    ],
    [
      'PodCertificate projected volume with bad cred bundle path',
      { podCertificate: { signerName: 'example.com/foo', credentialBundlePath: '/absolute.pem' } },
      'must be a relative path',
    ],
    [
      'PodCertificate projected volume with bad key path',
      {
        podCertificate: {
          signerName: 'example.com/foo',
          keyPath: '/absolute.pem',
          certificateChainPath: 'certificates.pem',
        },
      },
      'must be a relative path',
    ],
    [
      'PodCertificate projected volume with bad certificates path',
      {
        podCertificate: {
          signerName: 'example.com/foo',
          keyPath: 'key.pem',
          certificateChainPath: '/certificates.pem',
        },
      },
      'must be a relative path',
    ],
    [
      'PodCertificate projected volume with bad user annotations, invalid key',
      {
        podCertificate: {
          ...ED,
          keyPath: 'key.pem',
          certificateChainPath: 'certificates.pem',
          userAnnotations: { 'only/one/slash': 'bar' },
        },
      },
      "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix",
    ],
    [
      'PodCertificate projected volume with bad user annotations, too long key prefix size',
      {
        podCertificate: {
          ...ED,
          keyPath: 'key.pem',
          certificateChainPath: 'certificates.pem',
          userAnnotations: { [`${'a'.repeat(254)}/foo`]: 'bar' },
        },
      },
      'prefix part must be no more than 253 bytes',
    ],
    [
      'PodCertificate projected volume with bad user annotations, too long total key/value size',
      {
        podCertificate: {
          ...ED,
          keyPath: 'key.pem',
          certificateChainPath: 'certificates.pem',
          userAnnotations: { 'domain/a': 'd'.repeat(256 * 1024) },
        },
      },
      'may not be more than 262144 bytes',
    ],
  ]
  for (const [name, source, want] of cases)
    it(name, () =>
      expect(
        projectedPod(source).some((t) => t.includes(want)),
        projectedPod(source).join('\n'),
      ).toBe(true),
    )
})

describe('the texts of a kube-apiserver v1.37.2', () => {
  it('the in-tree sources', () => {
    expect(texts(pod([{ name: 'v', iscsi: { targetPortal: '', iqn: 'bad', lun: 300 } }]))).toEqual([
      'spec.volumes[0].iscsi.targetPortal: Required value',
      'spec.volumes[0].iscsi.iqn: Invalid value: "bad": must be valid format starting with iqn, eui, or naa',
      'spec.volumes[0].iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive',
    ])
    expect(texts(pod([{ name: 'v', azureDisk: { diskName: '', diskURI: '', cachingMode: 'X', kind: 'Y' } }]))).toEqual([
      'spec.volumes[0].azureDisk.diskName: Required value',
      'spec.volumes[0].azureDisk.diskURI: Required value',
      'spec.volumes[0].azureDisk.cachingMode: Unsupported value: "X": supported values: "None", "ReadOnly", "ReadWrite"',
      'spec.volumes[0].azureDisk.kind: Unsupported value: "Y": supported values: "Dedicated", "Managed", "Shared"',
      'spec.volumes[0].azureDisk.diskURI: Unsupported value: "": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"',
    ])
    expect(texts(pod([{ name: 'v', flexVolume: { driver: '', options: { 'kubernetes.io/x': 'y' } } }]))).toEqual([
      'spec.volumes[0].flexVolume.driver: Required value',
      'spec.volumes[0].flexVolume.options[kubernetes.io/x]: Invalid value: "kubernetes.io/x": kubernetes.io and k8s.io namespaces are reserved',
    ])
    expect(texts(pod([{ name: 'v', quobyte: { registry: 'x', volume: '' } }]))).toEqual([
      'spec.volumes[0].quobyte.registry: Invalid value: "x": must be a host:port pair or multiple pairs separated by commas',
      'spec.volumes[0].quobyte.volume: Required value',
    ])
    expect(texts(pod([{ name: 'v', flocker: {} }]))).toEqual([
      'spec.volumes[0].flocker: Required value: one of datasetName and datasetUUID is required',
    ])
  })
  it('the iSCSI name rule holds when iscsi is a second source too', () => {
    const portal = `${'1'.repeat(60)}:3260`
    expect(
      texts(
        pod([
          {
            name: 'v',
            emptyDir: {},
            iscsi: {
              targetPortal: portal,
              iqn: 'iqn.2015-02.example.com:test',
              initiatorName: 'iqn.2015-02.example.com:init',
            },
          },
        ]),
      ),
    ).toEqual([
      'spec.volumes[0].iscsi: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[0].name: Invalid value: "v": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
    ])
  })
  it('the projections', () => {
    expect(projectedPod({ clusterTrustBundle: { path: 'a' } })).toEqual([
      'spec.volumes[0].projected.sources[0].clusterTrustBundle: Required value: either name or signerName must be specified',
    ])
    expect(projectedPod({ podCertificate: { signerName: 'a', keyType: 'X' } })).toEqual([
      'spec.volumes[0].projected.sources[0].podCertificate.signerName: Invalid value: "a": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      'spec.volumes[0].projected.sources[0].podCertificate.keyType: Unsupported value: "X": supported values: "RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"',
      'spec.volumes[0].projected.sources[0].podCertificate: Required value: specify at least one of credentialBundlePath, keyPath, and certificateChainPath',
    ])
  })
})
