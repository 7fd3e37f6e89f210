import { describe, expect, test } from 'vitest'
import { csrError } from '../../../../src/builtin/validation/certificates/csr.js'
import { readTLV } from '../../../../src/builtin/validation/certificates/der.js'
import { pemDecode } from '../../../../src/builtin/validation/certificates/pem.js'
import { type O, fieldTypes as plainFieldTypes, texts, tweak } from '../support.js'

// certificates.k8s.io/v1 CertificateSigningRequest: kubernetes v1.37.2 pkg/apis/certificates/validation/
// validation_test.go (TestValidateCertificateSigningRequestCreate: its rows with their field errors;
// TestValidateCertificateSigningRequestUpdate), and texts the real apiserver v1.37.2 printed for requests
// made with openssl 3.0 (below) and then broken. The request parsing must survive any input.

// openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=cluster-kinds-ec
const EC = `-----BEGIN CERTIFICATE REQUEST-----
MIHUMH0CAQAwGzEZMBcGA1UEAwwQY2x1c3Rlci1raW5kcy1lYzBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABL9GMaKZfS1UTmHOExkEeQFf6+7NpQjs10zWHnB5Ygma
/nxBZD4Waly46kOjADCAKSmyKtDKjL2ENKGdOuewGAmgADAKBggqhkjOPQQDAgNH
ADBEAiASIucv5/khcVNXbCX0GJwxN8rVIuUxNUNKOKd4J8lwvgIgFmg6TSNhtRCP
BhqAHBIKDIq0YVMp82PuzM1vPMiYagI=
-----END CERTIFICATE REQUEST-----`
// openssl req -new -newkey ed25519 -subj /CN=cluster-kinds-ed
const ED = `-----BEGIN CERTIFICATE REQUEST-----
MIGaME4CAQAwGzEZMBcGA1UEAwwQY2x1c3Rlci1raW5kcy1lZDAqMAUGAytlcAMh
AMDsPjjRhI6fzGFWIyEf6ai8ikflYRVC0b3dresiwQonoAAwBQYDK2VwA0EAk5/0
BuTzlC7PrfZ6jlt+jzsLAoOdNIto3mkeks9cJS57sDS92c5ZeQHXe/tbCELf01L5
aRjv/E5acIBGIbWCCQ==
-----END CERTIFICATE REQUEST-----`
// openssl req -new -newkey rsa:512 -subj /CN=small
const RSA512 = `-----BEGIN CERTIFICATE REQUEST-----
MIHJMHUCAQAwEDEOMAwGA1UEAwwFc21hbGwwXDANBgkqhkiG9w0BAQEFAANLADBI
AkEA0DKXVPwACCsGTT6IRY9JfkLPPDtNCyLwSedE1ReaqPx6L+Fr2RwLTcuVlnbD
Cz/BibpUDZDsAiX0H/FTG2x0qQIDAQABoAAwDQYJKoZIhvcNAQELBQADQQBC2EZi
K7uIKfBT23guvvNIb6Iv8Anna8GrxCqsCbSQVnpoLeum2d/RZ3Vs8rhmDATWrwA4
TK8yMOcReO6g0TXC
-----END CERTIFICATE REQUEST-----`

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64')
const latin1 = (s: string | Uint8Array) => Buffer.from(s).toString('latin1')
const derOf = (pem: string) => Buffer.from(pem.split('\n').slice(1, -1).join(''), 'base64')
const pemOf = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(der).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`

const rv = (o: O): O => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
const fieldTypes = (o: O, old?: O) => (old === undefined ? plainFieldTypes(o) : plainFieldTypes(rv(o), rv(old)))
const csr = (spec: O = {}): O => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'testcsr' },
  spec: { request: b64(EC), usages: ['client auth'], signerName: 'example.com/valid-name', ...spec },
})

describe('validation_test.go TestValidateCertificateSigningRequestCreate', () => {
  test('a valid request (ECDSA P-256)', () => expect(fieldTypes(csr())).toEqual([]))
  test('a valid request (Ed25519)', () => expect(fieldTypes(csr({ request: b64(ED) }))).toEqual([]))
  test('CSR with invalid request data should fail', () =>
    expect(texts(csr({ request: b64('invalid data') }))).toEqual([
      `spec.request: Invalid value: "${b64('invalid data')}": PEM block type must be CERTIFICATE REQUEST`,
    ]))
  test('CSR with no usages should fail', () =>
    expect(fieldTypes(csr({ usages: [] }))).toEqual(['spec.usages FieldValueRequired']))
  test('CSR with no signerName set should fail', () =>
    expect(fieldTypes(csr({ signerName: '' }))).toEqual(['spec.signerName FieldValueRequired']))
  const signer: [string, string, string[]][] = [
    [
      "signerName contains no '/'",
      'an-invalid-signer-name',
      [
        'spec.signerName: Invalid value: "an-invalid-signer-name": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      ],
    ],
    [
      "signerName contains two '/'",
      'an-invalid-signer-name.com/something/else',
      [
        'spec.signerName: Invalid value: "an-invalid-signer-name.com/something/else": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      ],
    ],
    [
      'signerName domain component is not fully qualified',
      'example/some-signer-name',
      ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'],
    ],
    [
      'signerName path component is empty',
      'example.com/',
      [
        `spec.signerName: Invalid value: "": validating label "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'signerName path component ends with a symbol',
      'example.com/something-',
      [
        `spec.signerName: Invalid value: "something-": validating label "something-": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
  ]
  for (const [name, s, want] of signer) test(name, () => expect(texts(csr({ signerName: s }))).toEqual(want))
  test('signerName path component contains no . but is valid', () =>
    expect(fieldTypes(csr({ signerName: 'example.com/valid-name' }))).toEqual([]))
  test('signerName of maximum length', () => {
    const fqdn = `${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(61)}`
    expect(fieldTypes(csr({ signerName: `${fqdn}/${'a'.repeat(63)}.${'a'.repeat(253)}` }))).toEqual([])
  })
  test('signerName domain component is too long', () => {
    const fqdn = `${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(62)}`
    expect(fieldTypes(csr({ signerName: `${fqdn}/valid-name` }))).toEqual(['spec.signerName FieldValueTooLong'])
  })
  test('the legacy signer is refused', () =>
    expect(texts(csr({ signerName: 'kubernetes.io/legacy-unknown' }))).toEqual([
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    ]))
  test('unknown and duplicate usages', () =>
    expect(fieldTypes(csr({ usages: ['client auth', 'foo', 'client auth'] }))).toEqual([
      'spec.usages[1] FieldValueNotSupported',
      'spec.usages[2] FieldValueDuplicate',
    ]))
  test('expirationSeconds below 600', () =>
    expect(texts(csr({ expirationSeconds: 599 }))).toEqual([
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ]))
  test('expirationSeconds of 600', () => expect(fieldTypes(csr({ expirationSeconds: 600 }))).toEqual([]))
})

describe('validation_test.go TestValidateCertificateSigningRequestUpdate', () => {
  test('the spec is the stored one (PrepareForUpdate): a new spec is not validated', () =>
    expect(fieldTypes(csr({ usages: ['nope'] }), csr())).toEqual([]))
  test('metadata changes are checked', () =>
    expect(
      fieldTypes(
        tweak(csr(), (x) => (x.metadata.name = 'other')),
        csr(),
      ),
    ).toEqual(['metadata.name FieldValueInvalid']))
})

describe('the request: parsed and verified as Go does (texts from the real apiserver)', () => {
  const der = derOf(EC)
  test('a signature that does not verify', () => {
    const bad = Uint8Array.from(der)
    bad[bad.length - 1] ^= 1
    expect(csrError(latin1(pemOf(bad)))).toBe('x509: ECDSA verification failure')
  })
  test('an Ed25519 request changed after signing', () => {
    const bad = Uint8Array.from(derOf(ED))
    bad[Buffer.from(bad).indexOf('cluster-kinds-ed')] = 0x43
    expect(csrError(latin1(pemOf(bad)))).toBe('x509: Ed25519 verification failure')
  })
  test('a 512-bit RSA key', () =>
    expect(csrError(RSA512)).toBe(
      'crypto/rsa: 512-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)',
    ))
  test('trailing data', () =>
    expect(csrError(latin1(pemOf(Buffer.concat([der, Buffer.from([0, 0])]))))).toBe(
      'asn1: syntax error: trailing data',
    ))
  test('truncated', () =>
    expect(csrError(latin1(pemOf(der.subarray(0, der.length - 10))))).toBe('asn1: syntax error: data truncated'))
  test('garbage in the block', () =>
    expect(csrError(latin1(pemOf(Buffer.from('hello world, not DER'))))).toBe(
      "asn1: structure error: tags don't match (16 vs {class:1 tag:8 length:101 isCompound:true}) {optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} certificateRequest @2",
    ))
  test('a CERTIFICATE block', () =>
    expect(csrError(EC.replaceAll('CERTIFICATE REQUEST', 'CERTIFICATE'))).toBe(
      'PEM block type must be CERTIFICATE REQUEST',
    ))
})

describe('hostile input never throws nor hangs', () => {
  test('every truncation and every flipped byte of a request', () => {
    const der = derOf(EC)
    for (let n = 0; n <= der.length; n++)
      expect(typeof (csrError(latin1(pemOf(der.subarray(0, n)))) ?? '')).toBe('string')
    for (let i = 0; i < der.length; i++) {
      const b = Uint8Array.from(der)
      b[i] ^= 0xff
      expect(typeof (csrError(latin1(pemOf(b))) ?? '')).toBe('string')
    }
  })
  test('huge lengths and deep nesting are bounded', () => {
    expect(() => readTLV(Uint8Array.from([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), 0)).toThrow(/asn1/)
    const deep = new Uint8Array(20000).fill(0x30)
    expect(typeof csrError(latin1(pemOf(deep)))).toBe('string')
  })
  test('PEM edge cases', () => {
    expect(pemDecode('')).toBeUndefined()
    expect(pemDecode('-----BEGIN X-----\n')).toBeUndefined()
    expect(pemDecode('junk\n-----BEGIN X-----\nQUJD\n-----END X-----\n')?.type).toBe('X')
    expect(pemDecode('-----BEGIN X-----\nQUJD\n-----END Y-----\n')).toBeUndefined()
    expect(pemDecode('-----BEGIN X-----\nnot base64!\n-----END X-----\n')).toBeUndefined()
    expect(csrError('-'.repeat(100000))).toBe('PEM block type must be CERTIFICATE REQUEST')
  })
})

describe('the PEM reader stays linear on hostile input', () => {
  test('many BEGIN lines before one END line, with and without headers', () => {
    const t0 = Date.now()
    // only the last BEGIN line meets its END line: an empty block, as Go finds it
    expect(pemDecode(`${'-----BEGIN X-----\n'.repeat(60000)}-----END X-----\n`)?.bytes).toEqual(new Uint8Array())
    expect(pemDecode(`${'-----BEGIN X-----\n'.repeat(60000)}-----END Y-----\n`)).toBeUndefined()
    expect(pemDecode(`${'-----BEGIN X-----\nA: b\nQUJD\n'.repeat(40000)}-----END Y-----\n`)).toBeUndefined()
    expect(pemDecode('-----BEGIN X-----\n'.repeat(60000))).toBeUndefined()
    expect(Date.now() - t0).toBeLessThan(5000)
  })
})
