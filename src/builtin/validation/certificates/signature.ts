import type { KeyObject } from 'node:crypto'
import { nodeModule } from '../../../kube/node-host.js'
import { BIT_STRING, children, INTEGER, OID, oidText, readTLV, SEQUENCE, type TLV } from './der.js'

// The cryptographic steps of the certificates.k8s.io validations: checking a CertificateSigningRequest's
// signature with its own public key, and reading a ClusterTrustBundle's certificates (x509.ParseCertificate,
// IsCA) (Go's x509.checkSignature ends in rsa.VerifyPKCS1v15 / VerifyPSS,
// ecdsa.VerifyASN1, ed25519.Verify). It needs real public-key arithmetic, which kelp takes from Node's
// crypto (synchronous; WebCrypto's is asynchronous) rather than carrying its own RSA and elliptic-curve
// code: the rest of the request's parsing (pem.ts, der.ts, csr.ts) needs no Node module. Any input is
// safe: Node parses the key and checks the signature, and every failure is reported as a value.
//
// In a page (src/playground: no Node, and validation is synchronous) the key's kind, size and curve are read
// from its DER here, the signature is taken as valid and a certificate as a CA's, and each check so passed
// over is counted (skippedChecks): the page says the answer did not check them.

export type KeyKind = 'rsa' | 'ec' | 'ed25519' | 'other'

export interface PublicKey {
  readonly kind: KeyKind
  /** An RSA key's modulus size in bits. */
  readonly bits?: number
  /** An elliptic-curve key's curve as Go names it (P-224, P-256, P-384, P-521). */
  readonly curve?: string
  /** Node's key (absent in a page). */
  readonly key?: KeyObject
}

const GO_CURVES: Record<string, string> = {
  secp224r1: 'P-224',
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
}

const crypto = nodeModule('node:crypto')

let skipped = { signatures: 0, certificates: 0 }
/** The checks passed over for want of Node's crypto since the last call (a page's evaluation reads and resets them). */
export function skippedChecks(): { readonly signatures: number; readonly certificates: number } {
  const out = skipped
  skipped = { signatures: 0, certificates: 0 }
  return out
}

/** The SubjectPublicKeyInfo DER as a key, or undefined when Node cannot read it. */
export function parseSPKI(spki: Uint8Array): PublicKey | undefined {
  if (crypto === undefined) return keyFromDER(spki)
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' })
    const t = key.asymmetricKeyType
    if (t === 'rsa') return { kind: 'rsa', bits: key.asymmetricKeyDetails?.modulusLength, key }
    if (t === 'ec') return { kind: 'ec', curve: GO_CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''], key }
    if (t === 'ed25519') return { kind: 'ed25519', key }
    return { kind: 'other', key }
  } catch {
    return undefined
  }
}

/** Whether `signature` signs `data` under `key` ('sha256', … or null for Ed25519; `pss`: RSA-PSS, salt = hash size). */
export function verifySignature(
  hash: string | null,
  data: Uint8Array,
  key: PublicKey,
  signature: Uint8Array,
  pss: boolean,
): boolean {
  if (crypto === undefined || key.key === undefined) {
    skipped.signatures++
    return true
  }
  const { constants, verify } = crypto
  try {
    if (key.kind === 'rsa')
      return verify(
        hash,
        data,
        pss
          ? { key: key.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
          : { key: key.key, padding: constants.RSA_PKCS1_PADDING },
        signature,
      )
    if (key.kind === 'ec') return verify(hash, data, { key: key.key, dsaEncoding: 'der' }, signature)
    return verify(null, data, key.key, signature)
  } catch {
    return false
  }
}

/** x509.ParseCertificate then IsCA: undefined when the DER is no certificate. */
export function certificateIsCA(der: Uint8Array): boolean | undefined {
  if (crypto === undefined) {
    skipped.certificates++
    return true
  }
  try {
    return new crypto.X509Certificate(Buffer.from(der)).ca
  } catch {
    return undefined
  }
}

// the curves' OIDs (crypto/x509 namedCurveFromOID)
const CURVE_OIDS: Record<string, string> = {
  '1.3.132.0.33': 'P-224',
  '1.2.840.10045.3.1.7': 'P-256',
  '1.3.132.0.34': 'P-384',
  '1.3.132.0.35': 'P-521',
}
// an uncompressed point's size per curve (0x04, X, Y)
const POINT_BYTES: Record<string, number> = { 'P-224': 57, 'P-256': 65, 'P-384': 97, 'P-521': 133 }

/** The key's kind, size and curve from its DER (a page's parseSPKI): what Node would refuse to read, as far as the shape tells. */
function keyFromDER(spki: Uint8Array): PublicKey | undefined {
  try {
    const [alg, bits] = children(readTLV(spki, 0).tlv.content)
    if (alg?.tag !== SEQUENCE || bits?.tag !== BIT_STRING || bits.content[0] !== 0) return undefined
    const [oid, params] = children(alg.content)
    if (oid?.tag !== OID) return undefined
    const key = bits.content.subarray(1)
    switch (oidText(oid.content)) {
      case '1.2.840.113549.1.1.1': {
        const rsa = readTLV(key, 0).tlv
        const [n, e] = rsa.tag === SEQUENCE ? children(rsa.content) : []
        if (n?.tag !== INTEGER || e?.tag !== INTEGER) return undefined
        return { kind: 'rsa', bits: bitLength(n) }
      }
      case '1.2.840.10045.2.1': {
        const curve = params?.tag === OID ? CURVE_OIDS[oidText(params.content)] : undefined
        if (curve === undefined || key[0] !== 4 || key.length !== POINT_BYTES[curve]) return undefined
        return { kind: 'ec', curve }
      }
      case '1.3.101.112':
        return key.length === 32 ? { kind: 'ed25519' } : undefined
      default:
        return { kind: 'other' }
    }
  } catch {
    return undefined
  }
}

/** An INTEGER's size in bits (its leading zero octets and bits not counted). */
function bitLength(n: TLV): number {
  const c = n.content
  let i = 0
  while (i < c.length && c[i] === 0) i++
  if (i === c.length) return 0
  return (c.length - i - 1) * 8 + (32 - Math.clz32(c[i] as number))
}
