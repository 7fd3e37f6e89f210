import { createPrivateKey, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Server as HttpsServer } from 'node:https'
import type { Logger } from '../report/log.js'
import type { WebhookMetrics } from './metrics.js'
import { fingerprintOf, type ReloadResult } from './watch.js'

// TLS of `kelp serve`: the serving certificate and key (and the client CA of mTLS), checked to belong
// together before they serve, the ciphers, and the reload that installs a new pair between handshakes
// (setSecureContext) while the last good one keeps serving. controller-runtime's pkg/certwatcher
// (certwatcher.go ReadCertificate, GetCertificate) and webhook/server.go (its tls.Config: TLS 1.2 at
// least, the client CA).

export interface TlsMaterial {
  readonly cert: Buffer
  readonly key: Buffer
  readonly ca?: Buffer
}

/**
 * Reads the serving pair (and the client CA) and checks that the key is the certificate's: a
 * mismatched pair (an EC key beside an RSA certificate, half of a rotation) would make every
 * handshake fail, so it is refused here and the last good pair keeps serving.
 */
export function readTlsMaterial(certFile: string, keyFile: string, caFile?: string): TlsMaterial {
  const cert = readFileSync(certFile)
  const key = readFileSync(keyFile)
  const ca = caFile === undefined ? undefined : readFileSync(caFile)
  let matches: boolean
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))
  } catch (e) {
    throw new Error(`the certificate or key does not parse: ${(e as Error).message}`)
  }
  if (!matches) throw new Error(`the private key ${keyFile} does not belong to the certificate ${certFile}`)
  if (ca !== undefined) {
    try {
      new X509Certificate(ca)
    } catch (e) {
      throw new Error(`the client CA ${caFile} does not parse: ${(e as Error).message}`)
    }
  }
  return { cert, key, ...(ca !== undefined ? { ca } : {}) }
}

const TLS_MIN = 'TLSv1.2' as const
/**
 * TLS 1.3's suites as node has them, and on TLS 1.2 only ECDHE key exchange with AEAD ciphers (no
 * static-RSA key exchange, no CBC): what the Kubernetes and Mozilla "intermediate" profiles allow.
 */
export const CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':')

/** The secure context of a pair: node's https options, and setSecureContext's. */
export const secureOptions = (m: TlsMaterial) => ({
  cert: m.cert,
  key: m.key,
  ...(m.ca !== undefined ? { ca: m.ca } : {}),
  minVersion: TLS_MIN,
  ciphers: CIPHERS,
  honorCipherOrder: true,
})

const fingerprint = (m: TlsMaterial) => fingerprintOf([m.cert, m.key, m.ca ?? ''])

export interface CertificateFiles {
  readonly tlsCert: string
  readonly tlsKey: string
  readonly clientCA?: string
}

export interface CertificateReloader {
  /** The pair the server starts with (its errors are the caller's: the server does not start). */
  initial(): TlsMaterial
  /** The server started with `initial()`'s pair: later reloads install theirs into it. */
  serving(server: HttpsServer, initial: TlsMaterial): void
  /** Reads the pair again and installs it when it changed (`force`: even when it did not). */
  reload(force?: boolean): ReloadResult
}

export function createCertificateReloader(
  files: CertificateFiles,
  metrics: WebhookMetrics,
  log: Logger,
): CertificateReloader {
  let server: HttpsServer | undefined
  let certFingerprint: string | undefined
  return {
    initial: () => readTlsMaterial(files.tlsCert, files.tlsKey, files.clientCA),
    serving(s, initial) {
      server = s
      certFingerprint = fingerprint(initial)
      metrics.observeReload('certificate', true)
    },
    reload(force = false) {
      let material: TlsMaterial
      try {
        material = readTlsMaterial(files.tlsCert, files.tlsKey, files.clientCA)
      } catch (e) {
        // a rotation writes cert and key one after the other: the next change event retries
        metrics.observeReload('certificate', false)
        const err = (e as Error).message
        log.error('certificate not reloaded: the current one keeps serving', {
          cert: files.tlsCert,
          key: files.tlsKey,
          errors: [err],
        })
        return { target: 'certificate', outcome: 'failed', errors: [err] }
      }
      const fp = fingerprint(material)
      if (!force && fp === certFingerprint) return { target: 'certificate', outcome: 'unchanged' }
      try {
        server?.setSecureContext(secureOptions(material))
      } catch (e) {
        metrics.observeReload('certificate', false)
        const err = (e as Error).message
        log.error('certificate not reloaded: the current one keeps serving', { errors: [err] })
        return { target: 'certificate', outcome: 'failed', errors: [err] }
      }
      certFingerprint = fp
      metrics.observeReload('certificate', true)
      log.info('certificate loaded', { cert: files.tlsCert, key: files.tlsKey })
      return { target: 'certificate', outcome: 'loaded' }
    },
  }
}
