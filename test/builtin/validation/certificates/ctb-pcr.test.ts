import { describe, expect, test } from 'vitest'
import { type O, fieldTypes as plainFieldTypes, texts, tweak } from '../support.js'

// certificates.k8s.io/v1 ClusterTrustBundle and PodCertificateRequest: kubernetes v1.37.2
// pkg/apis/certificates/validation/validation_test.go (TestValidateClusterTrustBundle: its rows and their
// field errors; TestValidatePodCertificateRequestCreate, TestValidatePodCertificateRequestUpdate), with
// certificates and requests made by openssl 3.0 (below) and texts the real apiserver v1.37.2 printed.

// openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -addext basicConstraints=critical,CA:TRUE
const CA = `-----BEGIN CERTIFICATE-----
MIIBejCCASGgAwIBAgIUe6nKP2pgjGUzheV2OMMulm6+5TIwCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIa2luZHMtY2EwHhcNMjYxMjA2MTMxNjIyWhcNMzYxMjAzMTMx
NjIyWjATMREwDwYDVQQDDAhraW5kcy1jYTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABKTlWRGAxlWKKALtfz/oiSBdWwZqxwAAmU2ZCmhDZI7mXntRoip6MGrInM98
3z2CE5i0pM+zW3Wk2GaacRcgNBCjUzBRMB0GA1UdDgQWBBTcWce8s0177S6Wi8ts
LZPIhnG6fzAfBgNVHSMEGDAWgBTcWce8s0177S6Wi8tsLZPIhnG6fzAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIHEKxtPJMpDJDiel9kg3Xb0IhcEb
+Xx4Mv/4c1sBHvbOAiA9ayXPikEujXbldWJ2CaIip2YZN+XihuMhwE0Rq10K5w==
-----END CERTIFICATE-----`
const CA2 = `-----BEGIN CERTIFICATE-----
MIIBfTCCASOgAwIBAgIUCrBt/wOH7qxltDHUcmNOtHn77GcwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJa2luZHMtY2EyMB4XDTI2MTIwNjEzMTYyMloXDTM2MTIwMzEz
MTYyMlowFDESMBAGA1UEAwwJa2luZHMtY2EyMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEbk4qha2i6uC2KxKs0d7uzZob+hW36X7BYQ2KYwWKnVsS86T02bVDpZMR
5uHYEt5H/wiPQHqZfSakiFegmhjapaNTMFEwHQYDVR0OBBYEFATxZujPYN3h/J6x
dMlIBS3tMc6aMB8GA1UdIwQYMBaAFATxZujPYN3h/J6xdMlIBS3tMc6aMA8GA1Ud
EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgSkgEvqVB37fL5EcuT3H3jk0Z
rRUfwnvld7gLO24wEWoCIQCzyd40qdITsnEL/a6t1RBwh3GS/wOduKyGJRxiykn5
WQ==
-----END CERTIFICATE-----`
// openssl req -x509 -addext basicConstraints=critical,CA:FALSE
const LEAF = `-----BEGIN CERTIFICATE-----
MIIBcDCCARagAwIBAgIULmh4hesjWG+asZJEnUj2cUzmMLIwCgYIKoZIzj0EAwIw
DzENMAsGA1UEAwwEbGVhZjAeFw0yNjEyMDYxMzE2MjJaFw0yNjEyMTYxMzE2MjJa
MA8xDTALBgNVBAMMBGxlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAS/RjGi
mX0tVE5hzhMZBHkBX+vuzaUI7NdM1h5weWIJmv58QWQ+FmpcuOpDowAwgCkpsirQ
yoy9hDShnTrnsBgJo1AwTjAdBgNVHQ4EFgQURCEZUSTxdaNrTjCzWpqa45/Pns8w
HwYDVR0jBBgwFoAURCEZUSTxdaNrTjCzWpqa45/Pns8wDAYDVR0TAQH/BAIwADAK
BggqhkjOPQQDAgNIADBFAiEA97epJfv3pKRma9DQ9U6Zb594Sm5sz0VPUOSp5mY7
j70CIA+rs4L2zqWQ9h4iEKKnf9zDEPf7RfQmM200ZKp3EzjA
-----END CERTIFICATE-----`
// openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -outform DER | base64
const EC_STUB =
  'MIHUMH0CAQAwGzEZMBcGA1UEAwwQY2x1c3Rlci1raW5kcy1lYzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABL9GMaKZfS1UTmHOExkEeQFf6+7NpQjs10zWHnB5Ygma/nxBZD4Waly46kOjADCAKSmyKtDKjL2ENKGdOuewGAmgADAKBggqhkjOPQQDAgNHADBEAiASIucv5/khcVNXbCX0GJwxN8rVIuUxNUNKOKd4J8lwvgIgFmg6TSNhtRCPBhqAHBIKDIq0YVMp82PuzM1vPMiYagI='
// openssl req -new -newkey ed25519 -outform DER | base64
const ED_STUB =
  'MIGaME4CAQAwGzEZMBcGA1UEAwwQY2x1c3Rlci1raW5kcy1lZDAqMAUGAytlcAMhAMDsPjjRhI6fzGFWIyEf6ai8ikflYRVC0b3dresiwQonoAAwBQYDK2VwA0EAk5/0BuTzlC7PrfZ6jlt+jzsLAoOdNIto3mkeks9cJS57sDS92c5ZeQHXe/tbCELf01L5aRjv/E5acIBGIbWCCQ=='

const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O) => (old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old)))
const ctb = (name: string, trustBundle: string, signerName?: string): O => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'ClusterTrustBundle',
  metadata: { name },
  spec: { trustBundle, ...(signerName === undefined ? {} : { signerName }) },
})
const DNS_SUBDOMAIN = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`

describe('validation_test.go TestValidateClusterTrustBundle', () => {
  const ok: [string, O][] = [
    ['valid, no signer name', ctb('foo', CA)],
    ['valid, with signer name', ctb('k8s.io:foo:bar', CA, 'k8s.io/foo')],
    [
      'valid, with signer name, with inter-block garbage',
      ctb('k8s.io:foo:abc', `garbage\n${CA}\ngarbage\n${CA2}`, 'k8s.io/foo'),
    ],
  ]
  for (const [name, o] of ok) test(name, () => expect(fieldTypes(o)).toEqual([]))
  const bad: [string, O, string[]][] = [
    [
      'invalid, too big',
      ctb('foo', 'x'.repeat(1024 * 1024 + 1)),
      ['spec.trustBundle: Too long: may not be more than 1048576 bytes'],
    ],
    [
      'invalid, no signer name, invalid name',
      ctb('k8s.io:bar:foo', CA),
      [
        'metadata.name: Invalid value: "k8s.io:bar:foo": ClusterTrustBundle without signer name must not have ":" in its name',
      ],
    ],
    [
      'invalid, with signer name, missing name prefix',
      ctb('look-ma-no-prefix', CA, 'k8s.io/foo'),
      [
        'metadata.name: Invalid value: "look-ma-no-prefix": ClusterTrustBundle for signerName k8s.io/foo must be named with prefix k8s.io:foo:',
      ],
    ],
    [
      'invalid, with signer name, bad name suffix',
      ctb('k8s.io:foo:123notvalidDNSSubdomain', CA, 'k8s.io/foo'),
      [`metadata.name: Invalid value: "k8s.io:foo:123notvalidDNSSubdomain": ${DNS_SUBDOMAIN}`],
    ],
    [
      'invalid, no trust anchors',
      ctb('foo', 'garbage'),
      ['spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided'],
    ],
    [
      'invalid, bad signer name',
      ctb('invalid:foo', CA, 'invalid'),
      [
        'spec.signerName: Invalid value: "invalid": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      ],
    ],
    [
      'invalid, bad block type',
      ctb('foo', `${CA}\n-----BEGIN NOTACERTIFICATE-----\nQUJD\n-----END NOTACERTIFICATE-----`),
      ['spec.trustBundle: Invalid value: "<value omitted>": entry 1 has bad block type: NOTACERTIFICATE'],
    ],
    [
      'invalid, cert is not a CA cert',
      ctb('foo', LEAF),
      ['spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set'],
    ],
    [
      'invalid, duplicated blocks',
      ctb('foo', `${CA}\n${CA}`),
      ['spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 1])'],
    ],
    [
      'invalid, non-certificate entry',
      ctb('foo', `${CA}\n-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----`),
      ['spec.trustBundle: Invalid value: "<value omitted>": entry 1 does not parse as X.509'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(texts(o)).toEqual(want))
  test('TestValidateClusterTrustBundleUpdate: the signer name is immutable', () =>
    expect(fieldTypes(ctb('k8s.io:foo:bar', CA, 'k8s.io/bar'), ctb('k8s.io:foo:bar', CA, 'k8s.io/foo'))).toEqual([
      'metadata.name FieldValueInvalid',
      'spec.signerName FieldValueInvalid',
    ]))
})

const pcr = (spec: O = {}): O => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'PodCertificateRequest',
  metadata: { name: 'foo', namespace: 'bar' },
  spec: {
    signerName: 'k8s.io/foo',
    podName: 'pod-1',
    podUID: 'pod-uid-1',
    serviceAccountName: 'sa-1',
    serviceAccountUID: 'sa-uid-1',
    nodeName: 'node-1',
    nodeUID: 'node-uid-1',
    maxExpirationSeconds: 86400,
    stubPKCS10Request: EC_STUB,
    ...spec,
  },
})

describe('validation_test.go TestValidatePodCertificateRequestCreate', () => {
  test('valid ECDSA P256 stub request', () => expect(fieldTypes(pcr())).toEqual([]))
  test('valid Ed25519 stub request', () => expect(fieldTypes(pcr({ stubPKCS10Request: ED_STUB }))).toEqual([]))
  const bad: [string, O, string[]][] = [
    ['bad signer name', pcr({ signerName: 'notvalid' }), ['spec.signerName FieldValueInvalid']],
    ['bad pod name', pcr({ podName: 'Pod_1' }), ['spec.podName FieldValueInvalid']],
    ['empty pod uid', pcr({ podUID: '' }), ['spec.podUID FieldValueInvalid']],
    ['pod uid too long', pcr({ podUID: 'x'.repeat(129) }), ['spec.podUID FieldValueTooLong']],
    ['bad service account name', pcr({ serviceAccountName: 'SA_1' }), ['spec.serviceAccountName FieldValueInvalid']],
    ['empty node uid', pcr({ nodeUID: '' }), ['spec.nodeUID FieldValueInvalid']],
    [
      'maxExpirationSeconds too short',
      pcr({ maxExpirationSeconds: 3599 }),
      ['spec.maxExpirationSeconds FieldValueInvalid'],
    ],
    [
      'maxExpirationSeconds too long for a non-Kubernetes signer',
      pcr({ maxExpirationSeconds: 91 * 86400 + 1 }),
      ['spec.maxExpirationSeconds FieldValueInvalid'],
    ],
    [
      'maxExpirationSeconds too long for a Kubernetes signer',
      pcr({ signerName: 'kubernetes.io/foo', maxExpirationSeconds: 86401 }),
      ['spec.maxExpirationSeconds FieldValueInvalid'],
    ],
    ['no stub request', tweak(pcr(), (x) => delete x.spec.stubPKCS10Request), ['spec FieldValueInvalid']],
    ['bad stub request', pcr({ stubPKCS10Request: 'AAAA' }), ['spec.stubPKCS10Request FieldValueInvalid']],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('the texts (the real apiserver)', () => {
    expect(texts(pcr({ stubPKCS10Request: 'AAAA' }))).toEqual([
      'spec.stubPKCS10Request: Invalid value: must be a valid PKCS#10 CSR',
    ])
    expect(texts(tweak(pcr(), (x) => delete x.spec.stubPKCS10Request))).toEqual([
      'spec: Invalid value: exactly one of (stubPKCS10Request) or (pkixPublicKey, proofOfPossession) must be set',
    ])
  })
})

describe('validation_test.go TestValidatePodCertificateRequestUpdate', () => {
  test('no changes', () => expect(fieldTypes(pcr(), pcr())).toEqual([]))
  test('the spec is immutable (the internal spec struct printed, as the real apiserver does)', () =>
    expect(texts(rv(pcr({ podName: 'pod-2' })), rv(pcr()))).toEqual([
      `spec: Invalid value: {"SignerName":"k8s.io/foo","PodName":"pod-2","PodUID":"pod-uid-1","ServiceAccountName":"sa-1","ServiceAccountUID":"sa-uid-1","NodeName":"node-1","NodeUID":"node-uid-1","MaxExpirationSeconds":86400,"PKIXPublicKey":null,"ProofOfPossession":null,"StubPKCS10Request":"${EC_STUB}","UnverifiedUserAnnotations":null}: field is immutable`,
    ]))
})
