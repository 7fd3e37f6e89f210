import { describe, expect, it } from 'vitest'
import { strategyFor } from '../../src/builtin/strategy.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import { errorString } from '../../src/kube/field.js'

// What kube-apiserver runs for every kind, ported or not (src/builtin/strategy.ts validateWith): the kind's
// Validate's ObjectMeta part with its name rule (the metadataOnly rows of src/builtin/strategies.ts), then
// k8s.io/apiserver pkg/registry/rest create.go ValidateCreate's ValidateObjectMetaAccessor with
// path.ValidatePathSegmentName; on update, update.go validateCommonFields (ValidateObjectMetaAccessor and
// ValidateObjectMetaAccessorUpdate) and the ObjectMeta part of the kind's ValidateUpdate. Expected texts:
// kubectl apply --dry-run=server against a real kube-apiserver 1.37.2 (test/e2e/differential/cases/metadata.yaml
// and cases/updates/meta-*.yaml, where the differential compares them), which are the Go source's:
// apimachinery pkg/util/validation IsDNS1123Subdomain, IsQualifiedName, ValidateOwnerReferences ("must not be empty").

const set = PolicySet.build([])
type O = Record<string, unknown>

const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must " +
  "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const LABEL_KEY_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
  "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

const endpointSlice = (metadata: O): O => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { namespace: 'default', ...metadata },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.1.2.3'] }],
})
const pv = (metadata: O): O => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata,
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' } },
})
// a PKCS#10 request (cases/metadata.yaml's), valid since kelp validates CertificateSigningRequests
const CSR_PEM_BASE64 =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlITk1IWUNBUUF3RkRFU01CQUdBMVVFQXd3SmJXVjBZUzExYzJWeU1Ga3dFd1lIS29aSXpqMENBUVlJS29aSQp6ajBEQVFjRFFnQUVyZ01WZ3UyL2NvY2tGenNGWk9YSnNQR0M5RnZlelA0NGxJVHNXR0tRdjhYR1J3WkQzeGRrCkE5ZkZPZTAzRWVEZTREcmdtQjJZQVc0Zk54YVdYbnZsWGFBQU1Bb0dDQ3FHU000OUJBTUNBMGNBTUVRQ0lIOEUKVHdWYitaOXNkQjhocE9zMS9kQ08xbnQ4dFF1eU93NUxmemxHNFE0OEFpQnppSmRRd1Jjd3FaZjFTYkpuK0U2SAo1djZVaVM0eTNPVUx1NWZDTVVyQkJnPT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg=='
const csr = (metadata: O): O => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata,
  spec: { request: CSR_PEM_BASE64, signerName: 'example.com/signer', usages: ['client auth'] },
})
const lease = (metadata: O, holderIdentity = 'a'): O => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { namespace: 'default', ...metadata },
  spec: { holderIdentity },
})
const event = (metadata: O): O => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { namespace: 'default', ...metadata },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
  reason: 'Started',
  message: 'started',
  type: 'Normal',
})

describe("issue 28's four examples: refused as kube-apiserver 1.37.2 refuses them", () => {
  it('an EndpointSlice with an invalid label key (ValidateEndpointSlice: ValidateObjectMeta)', () => {
    const r = set.validate(endpointSlice({ name: 'meta-slice-bad-label', labels: { 'bad key': 'x' } }))
    expect(r.allowed).toBe(false)
    expect(r.builtin?.status).toMatchObject({ code: 422, reason: 'Invalid' })
    expect(r.builtin?.message).toBe(
      `The EndpointSlice "meta-slice-bad-label" is invalid: metadata.labels: Invalid value: "bad key": ${LABEL_KEY_NAME}`,
    )
    expect(r.builtin?.nativeValidation).toBe('validated')
  })

  it('a CertificateSigningRequest with an invalid label key (ValidateCertificateRequestName: no name rule)', () => {
    const r = set.validate(csr({ name: 'meta-csr-bad-label', labels: { 'bad key': 'x' } }))
    expect(r.builtin?.message).toBe(
      `The CertificateSigningRequest "meta-csr-bad-label" is invalid: metadata.labels: Invalid value: "bad key": ${LABEL_KEY_NAME}`,
    )
    // no name rule of its own: an upper-case name passes
    expect(set.validate(csr({ name: 'Meta_CSR' })).allowed).toBe(true)
  })

  it('a PersistentVolume named PV_NAME (ValidatePersistentVolumeName: NameIsDNSSubdomain)', () => {
    const r = set.validate(pv({ name: 'PV_NAME' }))
    expect(r.builtin?.message).toBe(
      `The PersistentVolume "PV_NAME" is invalid: metadata.name: Invalid value: "PV_NAME": ${DNS1123_SUBDOMAIN}`,
    )
  })

  it('an ownerReference without uid (ValidateOwnerReferences)', () => {
    const r = set.validate(
      pv({ name: 'meta-pv-owner-no-uid', ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'default' }] }),
    )
    expect(r.builtin?.message).toBe(
      'The PersistentVolume "meta-pv-owner-no-uid" is invalid: metadata.ownerReferences[0].uid: Required value: must not be empty',
    )
  })

  it('admits valid metadata, still saying the rest is not validated', () => {
    for (const o of [event({ name: 'meta-event' })]) {
      const r = set.validate(o)
      expect(r.allowed).toBe(true)
      expect(r.builtin?.nativeValidation).toBe('not-covered')
    }
    // EndpointSlice, PersistentVolume and Lease: validated natively (validation/discovery, core/persistent-volume.ts,
    // validation/coordination)
    for (const o of [endpointSlice({ name: 'meta-slice' }), pv({ name: 'meta-pv' }), lease({ name: 'meta-lease' })]) {
      const r = set.validate(o)
      expect(r.allowed).toBe(true)
      expect(r.builtin?.nativeValidation).toBe('validated')
    }
  })
})

describe('the kinds and their name rules (strategies.ts, read from each Validate*Name)', () => {
  const refusesName = (o: O) => {
    const r = set.validate(o)
    return r.builtin?.errors.map((e) => `${e.field}: ${e.detail}`)
  }
  const named =
    (apiVersion: string, kind: string, extra: O = {}, namespace?: string) =>
    (name: string) => ({
      apiVersion,
      kind,
      metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
      ...extra,
    })

  it.each([
    ['Node (ValidateNodeName)', named('v1', 'Node')],
    ['Lease (NameIsDNSSubdomain)', named('coordination.k8s.io/v1', 'Lease', {}, 'default')],
    ['CSINode (ValidateNodeName)', named('storage.k8s.io/v1', 'CSINode', { spec: { drivers: [] } })],
    [
      'VolumeAttachment (ValidateClassName)',
      named('storage.k8s.io/v1', 'VolumeAttachment', {
        spec: { attacher: 'csi.example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } },
      }),
    ],
    ['RuntimeClass (NameIsDNSSubdomain)', named('node.k8s.io/v1', 'RuntimeClass', { handler: 'runc' })],
    [
      'ControllerRevision (ValidateControllerRevisionName)',
      named('apps/v1', 'ControllerRevision', { revision: 1, data: {} }, 'default'),
    ],
    [
      'CSIStorageCapacity (ValidateStorageCapacityName)',
      named('storage.k8s.io/v1', 'CSIStorageCapacity', { storageClassName: 'standard' }, 'default'),
    ],
    [
      'VolumeAttributesClass (ValidateClassName)',
      named('storage.k8s.io/v1', 'VolumeAttributesClass', { driverName: 'd', parameters: { a: 'b' } }),
    ],
    [
      'ServiceCIDR (ValidateServiceCIDRName)',
      named('networking.k8s.io/v1', 'ServiceCIDR', { spec: { cidrs: ['10.0.0.0/24'] } }),
    ],
    [
      'PodCertificateRequest (NameIsDNSSubdomain)',
      named(
        'certificates.k8s.io/v1',
        'PodCertificateRequest',
        {
          spec: {
            signerName: 'example.com/signer',
            podName: 'p',
            podUID: 'u1',
            serviceAccountName: 'default',
            serviceAccountUID: 'u2',
            nodeName: 'n',
            nodeUID: 'u3',
            // a PKCS#10 request (DER, ECDSA P-256, made with openssl)
            stubPKCS10Request:
              'MIHUMH0CAQAwGzEZMBcGA1UEAwwQY2x1c3Rlci1raW5kcy1lYzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABL9GMaKZfS1UTmHOExkEeQFf6+7NpQjs10zWHnB5Ygma/nxBZD4Waly46kOjADCAKSmyKtDKjL2ENKGdOuewGAmgADAKBggqhkjOPQQDAgNHADBEAiASIucv5/khcVNXbCX0GJwxN8rVIuUxNUNKOKd4J8lwvgIgFmg6TSNhtRCPBhqAHBIKDIq0YVMp82PuzM1vPMiYagI=',
          },
        },
        'default',
      ),
    ],
  ])('%s: a name that is not a DNS subdomain', (_, make) => {
    expect(refusesName(make('Meta_Name'))).toEqual([`metadata.name: ${DNS1123_SUBDOMAIN}`])
    const ok = set.validate(make('meta-name'))
    expect(ok.builtin?.errors).toEqual([])
  })

  it('has rows for the kinds kelp does not decode yet, with their name rules', () => {
    // (resource.k8s.io, flowcontrol and events.k8s.io are decoded and validated: test/builtin/validation/<group>/)
    for (const [group, kind] of [['storagemigration.k8s.io', 'StorageVersionMigration']] as const)
      expect(strategyFor(group, 'v1', kind)?.metadataOnly?.('Meta_Name', false), `${group} ${kind}`).toEqual([
        DNS1123_SUBDOMAIN,
      ])
  })
})

describe('a kind with no name rule of its own: the generic registry (ValidateObjectMetaAccessor, path segments)', () => {
  it('core/v1 Event (ValidateEventCreate: legacyValidateEvent only): upper case and dots pass', () => {
    const r = set.validate(event({ name: 'Meta_Event.legacy' }))
    expect(r.allowed).toBe(true)
    expect(r.builtin?.nativeValidation).toBe('not-covered')
  })

  it('path.ValidatePathSegmentName: "%" and ".." refused', () => {
    expect(set.validate(event({ name: 'a%b' })).builtin?.message).toBe(
      `The Event "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain '%'`,
    )
    expect(set.validate(event({ name: '..' })).builtin?.message).toBe(
      `The Event ".." is invalid: metadata.name: Invalid value: "..": may not be '..'`,
    )
  })

  it('labels, annotations and owner references as for any kind', () => {
    expect(set.validate(event({ name: 'meta-event', labels: { 'bad key': 'x' } })).builtin?.message).toBe(
      `The Event "meta-event" is invalid: metadata.labels: Invalid value: "bad key": ${LABEL_KEY_NAME}`,
    )
    const ip = set.validate({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name: '10.96.0.77', labels: { 'bad key': 'x' } },
      spec: { parentRef: { group: '', resource: 'services', name: 'web', namespace: 'default' } },
    })
    expect(ip.builtin?.errors.map((e) => e.field)).toEqual(['metadata.labels'])
  })
})

describe('update: validateCommonFields and the ObjectMeta part of the kind’s ValidateUpdate', () => {
  const update = (o: O, old: O) => set.validate(o, { operation: 'UPDATE', oldObject: old })
  const printed = (r: ReturnType<typeof update>) => [...new Set(r.builtin?.errors.map(errorString))]

  it('a bad label key added on update (EndpointSlice: validateCommonFields twice, then ValidateEndpointSlice)', () => {
    const old = endpointSlice({ name: 'web-abcde' })
    const r = update(endpointSlice({ name: 'web-abcde', labels: { 'bad key': 'x' } }), old)
    expect(r.allowed).toBe(false)
    // the apiserver's causes: ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate, ValidateObjectMeta;
    // kubectl prints the one text once (kelp check as well: src/check/findings.ts)
    expect(printed(r)).toEqual([`metadata.labels: Invalid value: "bad key": ${LABEL_KEY_NAME}`])
    expect(r.builtin?.errors.map((e) => e.field)).toEqual(['metadata.labels', 'metadata.labels', 'metadata.labels'])
  })

  it('an ownerReference without uid on update (Lease)', () => {
    const r = update(
      lease({ name: 'leader', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' }] }, 'b'),
      lease({ name: 'leader' }),
    )
    expect(printed(r)).toEqual(['metadata.ownerReferences[0].uid: Required value: must not be empty'])
  })

  it('a kind without a row: the generic registry alone (core/v1 Event)', () => {
    const r = update(event({ name: 'web.started', labels: { 'bad key': 'x' } }), event({ name: 'web.started' }))
    expect(r.builtin?.errors.map((e) => e.field)).toEqual(['metadata.labels', 'metadata.labels'])
    expect(update(event({ name: 'web.started' }), event({ name: 'web.started' })).allowed).toBe(true)
  })

  it('immutable metadata (ValidateObjectMetaUpdate): uid', () => {
    const r = update(lease({ name: 'leader', uid: 'b' }), lease({ name: 'leader', uid: 'a' }))
    expect(r.builtin?.errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'metadata.uid: field is immutable',
      'metadata.uid: field is immutable',
    ])
  })
})
