import { constants, createPublicKey, type KeyObject, verify, X509Certificate } from 'node:crypto'

// The cryptographic steps of the certificates.k8s.io validations: checking a CertificateSigningRequest's
// signature with its own public key, and reading a ClusterTrustBundle's certificates (x509.ParseCertificate,
// IsCA) (Go's x509.checkSignature ends in rsa.VerifyPKCS1v15 / VerifyPSS,
// ecdsa.VerifyASN1, ed25519.Verify). It needs real public-key arithmetic, which kelp takes from Node's
// crypto (synchronous; WebCrypto's is asynchronous) rather than carrying its own RSA and elliptic-curve
// code: the rest of the request's parsing (pem.ts, der.ts, csr.ts) needs no Node module. Any input is
// safe: Node parses the key and checks the signature, and every failure is reported as a value.

export type KeyKind = 'rsa' | 'ec' | 'ed25519' | 'other'

export interface PublicKey {
  readonly kind: KeyKind
  /** An RSA key's modulus size in bits. */
  readonly bits?: number
  /** An elliptic-curve key's curve as Go names it (P-224, P-256, P-384, P-521). */
  readonly curve?: string
  readonly key: KeyObject
}

const GO_CURVES: Record<string, string> = {
  secp224r1: 'P-224',
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
}

/** The SubjectPublicKeyInfo DER as a key, or undefined when Node cannot read it. */
export function parseSPKI(spki: Uint8Array): PublicKey | undefined {
  try {
    const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' })
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
  try {
    return new X509Certificate(Buffer.from(der)).ca
  } catch {
    return undefined
  }
}
