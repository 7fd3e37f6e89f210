import {
  BIT_STRING,
  children,
  DERError,
  INTEGER,
  OID,
  oidText,
  readHeader,
  readTLV,
  SEQUENCE,
  type TLV,
  tagMismatch,
} from './der.js'
import { pemDecode } from './pem.js'
import { type PublicKey, parseSPKI, verifySignature } from './signature.js'

// certificates.ParseCSR then CheckSignature (kubernetes v1.37.2 pkg/apis/certificates/helpers.go ParseCSR,
// pkg/apis/certificates/validation/validation.go validateCSR; Go 1.26 crypto/x509 ParseCertificateRequest,
// parseCertificateRequest, parsePublicKey, getSignatureAlgorithmFromAI, checkSignature): the error text the
// apiserver puts after `spec.request: Invalid value: …`, or undefined for a request that parses and whose
// signature verifies. Not reproduced: the parsing of the subject and of the requested extensions
// (subjectAltName) beyond their DER framing.

export interface SigAlg {
  readonly name: string
  /** Node's digest name; '' for MD5 (refused as insecure), null for Ed25519 (no pre-hash). */
  readonly hash: string | null
  readonly pk: 'RSA' | 'ECDSA' | 'DSA' | 'Ed25519'
  readonly pss?: boolean
}

// signatureAlgorithmDetails (crypto/x509/x509.go), by OID
const SIG_ALGS: ReadonlyMap<string, SigAlg> = new Map([
  ['1.2.840.113549.1.1.4', { name: 'MD5-RSA', hash: '', pk: 'RSA' }],
  ['1.2.840.113549.1.1.5', { name: 'SHA1-RSA', hash: 'sha1', pk: 'RSA' }],
  ['1.3.14.3.2.29', { name: 'SHA1-RSA', hash: 'sha1', pk: 'RSA' }],
  ['1.2.840.113549.1.1.11', { name: 'SHA256-RSA', hash: 'sha256', pk: 'RSA' }],
  ['1.2.840.113549.1.1.12', { name: 'SHA384-RSA', hash: 'sha384', pk: 'RSA' }],
  ['1.2.840.113549.1.1.13', { name: 'SHA512-RSA', hash: 'sha512', pk: 'RSA' }],
  ['1.2.840.10040.4.3', { name: 'DSA-SHA1', hash: 'sha1', pk: 'DSA' }],
  ['2.16.840.1.101.3.4.3.2', { name: 'DSA-SHA256', hash: 'sha256', pk: 'DSA' }],
  ['1.2.840.10045.4.1', { name: 'ECDSA-SHA1', hash: 'sha1', pk: 'ECDSA' }],
  ['1.2.840.10045.4.3.2', { name: 'ECDSA-SHA256', hash: 'sha256', pk: 'ECDSA' }],
  ['1.2.840.10045.4.3.3', { name: 'ECDSA-SHA384', hash: 'sha384', pk: 'ECDSA' }],
  ['1.2.840.10045.4.3.4', { name: 'ECDSA-SHA512', hash: 'sha512', pk: 'ECDSA' }],
  ['1.3.101.112', { name: 'Ed25519', hash: null, pk: 'Ed25519' }],
])
const RSA_PSS = '1.2.840.113549.1.1.10'
// the hash OIDs inside RSASSA-PSS parameters
const PSS_HASHES: ReadonlyMap<string, SigAlg> = new Map([
  ['2.16.840.1.101.3.4.2.1', { name: 'SHA256-RSAPSS', hash: 'sha256', pk: 'RSA', pss: true }],
  ['2.16.840.1.101.3.4.2.2', { name: 'SHA384-RSAPSS', hash: 'sha384', pk: 'RSA', pss: true }],
  ['2.16.840.1.101.3.4.2.3', { name: 'SHA512-RSAPSS', hash: 'sha512', pk: 'RSA', pss: true }],
])

const KEY_RSA = '1.2.840.113549.1.1.1'
const KEY_EC = '1.2.840.10045.2.1'
const KEY_ED25519 = '1.3.101.112'
const KEY_X25519 = '1.3.101.110'
const KEY_DSA = '1.2.840.10040.4.1'
const CURVES = new Set(['1.3.132.0.33', '1.2.840.10045.3.1.7', '1.3.132.0.34', '1.3.132.0.35'])

/** The Go type name signaturePublicKeyAlgoMismatchError prints for a key. */
const GO_KEY_TYPE: Record<string, string> = {
  rsa: '*rsa.PublicKey',
  ec: '*ecdsa.PublicKey',
  ed25519: 'ed25519.PublicKey',
}

function expect(t: TLV | undefined, tag: number): TLV {
  if (t === undefined) throw new DERError('asn1: syntax error: sequence truncated')
  if (t.cls !== 0 || t.tag !== tag)
    throw new DERError(
      `asn1: structure error: tags don't match (${tag} vs {class:${t.cls} tag:${t.tag} length:${t.content.length} isCompound:${t.constructed}})`,
    )
  return t
}

/** getSignatureAlgorithmFromAI: the algorithm, or undefined (UnknownSignatureAlgorithm). */
function signatureAlgorithm(ai: TLV): SigAlg | undefined {
  const parts = children(ai.content)
  const oid = oidText(expect(parts[0], OID).content)
  const params = parts[1]
  if (oid === KEY_ED25519 && params !== undefined) return undefined
  if (oid !== RSA_PSS) return SIG_ALGS.get(oid)
  if (params === undefined) return undefined
  // the hash named by the parameters (Go compares them with its three DER encodings; the hash decides here)
  for (const t of children(params.content)) {
    if (t.cls !== 2 || t.tag !== 0) continue
    const inner = children(t.content)[0]
    const hashOID = inner === undefined ? '' : oidText(children(inner.content)[0]?.content ?? new Uint8Array())
    return PSS_HASHES.get(hashOID)
  }
  return undefined
}

/** parsePublicKey's refusals (the key itself read by Node): an error text, or the key (undefined: unknown algorithm). */
function publicKey(spki: TLV): string | PublicKey | undefined {
  const [alg] = children(spki.content)
  const algParts = children(expect(alg, SEQUENCE).content)
  const oid = oidText(expect(algParts[0], OID).content)
  const params = algParts[1]
  if (oid !== KEY_RSA && oid !== KEY_EC && oid !== KEY_ED25519 && oid !== KEY_X25519 && oid !== KEY_DSA)
    return undefined
  if (oid === KEY_RSA && (params === undefined || params.tag !== 5)) return 'x509: RSA key missing NULL parameters'
  if (oid === KEY_EC) {
    if (params === undefined || params.tag !== OID) return 'x509: invalid ECDSA parameters'
    if (!CURVES.has(oidText(params.content))) return 'x509: unsupported elliptic curve'
  }
  if (oid === KEY_ED25519 && params !== undefined) return 'x509: Ed25519 key encoded with illegal parameters'
  if (oid === KEY_X25519 && params !== undefined) return 'x509: X25519 key encoded with illegal parameters'
  const key = parseSPKI(spki.full)
  if (key === undefined) {
    if (oid === KEY_RSA) return 'x509: invalid RSA public key'
    if (oid === KEY_ED25519) return 'x509: wrong Ed25519 public key size'
    if (oid === KEY_DSA) return 'x509: invalid DSA public key'
    return 'x509: invalid ECDSA public key'
  }
  return key
}

/** checkSignature (allowSHA1: a CSR may be signed with SHA-1). */
function checkSignature(
  alg: SigAlg | undefined,
  tbs: Uint8Array,
  sig: Uint8Array,
  key: PublicKey | undefined,
): string | undefined {
  const unsupported = 'x509: cannot verify signature: algorithm unimplemented'
  if (alg === undefined) return unsupported
  if (alg.hash === '') return `x509: cannot verify signature: insecure algorithm ${alg.name}`
  if (key === undefined || key.kind === 'other') return unsupported
  const have = key.kind === 'rsa' ? 'RSA' : key.kind === 'ec' ? 'ECDSA' : 'Ed25519'
  if (have !== alg.pk)
    return `x509: signature algorithm specifies an ${alg.pk} public key, but have public key of type ${GO_KEY_TYPE[key.kind]}`
  if (key.kind === 'rsa' && key.bits !== undefined && key.bits < 1024)
    return `crypto/rsa: ${key.bits}-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)`
  if (verifySignature(alg.hash, tbs, key, sig, alg.pss === true)) return undefined
  if (key.kind === 'rsa') return 'crypto/rsa: verification error'
  return key.kind === 'ec' ? 'x509: ECDSA verification failure' : 'x509: Ed25519 verification failure'
}

/** A request taken apart (x509.ParseCertificateRequest's result, as far as validation reads it). */
export interface ParsedCSR {
  readonly alg: SigAlg | undefined
  readonly tbs: Uint8Array
  readonly signature: Uint8Array
  /** undefined: an algorithm Go does not know (its PublicKey is nil). */
  readonly key: PublicKey | undefined
}

/** x509.ParseCertificateRequest of DER bytes: the request, or Go's error text. */
export function parseCertificateRequest(der: Uint8Array): ParsedCSR | string {
  try {
    // the outer SEQUENCE's tag is checked before its length (parseField)
    const h = readHeader(der, 0)
    if (h.cls !== 0 || h.tag !== SEQUENCE || !h.constructed) throw tagMismatch(SEQUENCE, h, 'certificateRequest')
    const outer = readTLV(der, 0)
    if (outer.next !== der.length) return 'asn1: syntax error: trailing data'
    const [tbs, sigAlg, sigValue] = children(expect(outer.tlv, SEQUENCE).content)
    const tbsParts = children(expect(tbs, SEQUENCE).content)
    expect(tbsParts[0], INTEGER)
    if (tbsParts[1] === undefined) throw new DERError('asn1: syntax error: sequence truncated')
    const spki = expect(tbsParts[2], SEQUENCE)
    const alg = signatureAlgorithm(expect(sigAlg, SEQUENCE))
    const bits = expect(sigValue, BIT_STRING).content
    if (bits.length === 0) return 'asn1: syntax error: zero length BIT STRING'
    const key = publicKey(spki)
    if (typeof key === 'string') return key
    return { alg, tbs: (tbs as TLV).full, signature: bits.subarray(1), key }
  } catch (e) {
    if (e instanceof DERError) return e.message
    throw e
  }
}

/** CertificateRequest.CheckSignature. */
export function checkCSRSignature(csr: ParsedCSR): string | undefined {
  return checkSignature(csr.alg, csr.tbs, csr.signature, csr.key)
}

/** validateCSR's error for the request's bytes (latin-1), or undefined. */
export function csrError(request: string): string | undefined {
  const block = pemDecode(request)
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST'
  const csr = parseCertificateRequest(block.bytes)
  return typeof csr === 'string' ? csr : checkCSRSignature(csr)
}
