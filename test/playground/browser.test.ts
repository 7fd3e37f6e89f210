import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { build } from 'rolldown'
import { beforeAll, describe, expect, it } from 'vitest'
import type * as Engine from '../../src/playground/evaluate/index.js'
import { evaluatePlayground, examples } from '../../src/playground/evaluate/index.js'

// The playground's engine stays browser-safe: its entry is bundled for the browser with no Node built-in
// allowed (any `node:` import, or a bare built-in name, fails the build), and the bundle runs in a context that
// has a browser's globals and none of Node's (no process, Buffer or require): built-in schemas fetched through
// the page's loader, the yaml package and Buffer stood in for.

const root = join(import.meta.dirname, '../..')
const NODE_BUILTINS = new Set(builtinModules)

let code = ''
let engine: typeof Engine

beforeAll(async () => {
  const { output } = await build({
    input: join(root, 'src/playground/evaluate/index.ts'),
    platform: 'browser',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'no-node-builtins',
        resolveId(id, importer) {
          if (id.startsWith('node:') || NODE_BUILTINS.has(id))
            throw new Error(`a Node built-in in the browser bundle: ${id} imported by ${importer}`)
          return null
        },
      },
    ],
    output: { format: 'iife', name: 'kelpPlayground' },
  })
  code = output.map((c) => (c.type === 'chunk' ? c.code : '')).join('\n')
  engine = load()
}, 120_000)

/** The bundle run in a fresh context with a browser's globals and none of Node's. */
function load(): typeof Engine {
  const context: Record<string, unknown> = {
    TextEncoder,
    TextDecoder,
    CompressionStream,
    DecompressionStream,
    Blob,
    Response,
    URL,
    structuredClone,
    queueMicrotask,
    setTimeout,
    clearTimeout,
    performance,
    console,
  }
  context.globalThis = context
  context.self = context
  runInNewContext(`${code}\nglobalThis.kelpPlayground = kelpPlayground`, context)
  return context.kelpPlayground as typeof Engine
}

/** The page's loader: the package's data files, as fetch would give them. */
const loadSchemas = async (path: string) => {
  expect(path).toMatch(/^data\/builtin-schemas\/(gv|defs)\/[\w.-]+\.json\.gz$/)
  return new Uint8Array(readFileSync(join(root, path)))
}

describe('the playground engine in a browser', () => {
  it('bundles with no Node built-in and runs without Node', () => {
    expect(code.length).toBeGreaterThan(100_000)
    expect(code).not.toMatch(/\brequire\(["']node:/)
    expect(typeof engine.evaluatePlayground).toBe('function')
  })

  // the page's answer is Node's: the schemas it needs fetched through the loader (type checking against the
  // matched kinds' schemas included), the yaml package and Buffer stood in for
  for (const e of examples)
    it(`answers as in Node: ${e.name}`, async () => {
      const page = await engine.evaluatePlayground(e.state, { loadSchemas })
      const node = await evaluatePlayground(e.state)
      // the other realm's objects compared as JSON
      expect(JSON.parse(JSON.stringify(page))).toEqual(JSON.parse(JSON.stringify(node)))
    })

  it('validates a CertificateSigningRequest but its signature, and says so', async () => {
    const base = examples[0]!.state
    for (const [name, object] of Object.entries(CSRS)) {
      const state = { ...base, material: '', object }
      const page = await engine.evaluatePlayground(state, { loadSchemas })
      const node = await evaluatePlayground(state)
      expect(page.kubectl, name).toEqual(node.kubectl)
      expect(page.allowed, name).toBe(node.allowed)
      const note = page.notes.some((n) => n.startsWith("the request's signature was not verified"))
      // the key is read and its size checked in the page too (a 512-bit RSA key is refused before any signature)
      expect(note, name).toBe(name !== 'csr-rsa512')
      expect(node.notes.some((n) => n.includes('signature'))).toBe(false)
    }
  })

  it('without a loader, answers what it can and says which schemas it lacked', async () => {
    const fresh = load()
    const r = await fresh.evaluatePlayground(examples.find((e) => e.name.startsWith('Type error'))!.state)
    expect(r.notes.some((n) => n.includes('were not available (no loadSchemas given)'))).toBe(true)
  })

  it('round-trips a state through the URL text', async () => {
    const state = examples[0]!.state
    expect(await engine.decodeState(await engine.encodeState(state))).toEqual(state)
  })
})

// CertificateSigningRequests of test/e2e/differential/cases/kinds/cluster-kinds.yaml (checked there against the apiserver)
const CSRS: Record<string, string> = {
  'csr-ec':
    'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: csr-ec\nspec:\n  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIVU1IMENBUUF3R3pFWk1CY0dBMVVFQXd3UVkyeDFjM1JsY2kxcmFXNWtjeTFsWXpCWk1CTUdCeXFHU000OQpBZ0VHQ0NxR1NNNDlBd0VIQTBJQUJMOUdNYUtaZlMxVVRtSE9FeGtFZVFGZjYrN05wUWpzMTB6V0huQjVZZ21hCi9ueEJaRDRXYWx5NDZrT2pBRENBS1NteUt0REtqTDJFTktHZE91ZXdHQW1nQURBS0JnZ3Foa2pPUFFRREFnTkgKQURCRUFpQVNJdWN2NS9raGNWTlhiQ1gwR0p3eE44clZJdVV4TlVOS09LZDRKOGx3dmdJZ0ZtZzZUU05odFJDUApCaHFBSEJJS0RJcTBZVk1wODJQdXpNMXZQTWlZYWdJPQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K\n  signerName: example.com/signer\n  usages: [digital signature, key encipherment, client auth]\n  expirationSeconds: 86400\n',
  'csr-rsa':
    'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: csr-rsa\nspec:\n  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQ2NUQ0NBVmtDQVFBd0xERWFNQmdHQTFVRUF3d1JZMngxYzNSbGNpMXJhVzVrY3kxeWMyRXhEakFNQmdOVgpCQW9NQld0cGJtUnpNSUlCSWpBTkJna3Foa2lHOXcwQkFRRUZBQU9DQVE4QU1JSUJDZ0tDQVFFQTZvQnQ0cjErCitOS0YySndGaXQ1TTZIY1ZLWEkweFRFK1N6S29JVVJiOHpwMXNHeWNyemg1ZjZWK0t1b3RwYmdLZllPZFNFR0cKeTdSaTBCNVUzTlVjZE5FU0tNOElIdzVieU1KSzYvNUZUYWFBZHJnSWU1RGFIOWZQS2ZpQVR4NWt1VGVIRFY5YQp2NWNoTVVXVnZCdndxT2lnNTU1cmg3aEhSam1GWS85cElCSDlOak0xb210YWRmQk5zYXYvUlloUDVaazdYdjZNClhQSlBlcDNvdjZScnJva0dJZms5b20vQUNieUNPeFRpNTdvcDMxU1V0a3BDMlJyaDhHK3VURUwrekIzc1lzZmsKSVZMMVBvRVpEdUxLNllGdThZTVRWUEVJSU1CeVVJUVFzN0tPZmNVU2p5VmlHdktBWXdNelZjcFJQVHJvVGxWSApKaUJtZFBSOUVyRldid0lEQVFBQm9BQXdEUVlKS29aSWh2Y05BUUVMQlFBRGdnRUJBSXNnT1lVYnlncW05QnVVCnd1UE00VEozaG9PR1hQUTlmNFRiTlhYS0MxcFZQdThGZUVFMm9KRTJjTDdhMXkxZ1F3eS84RTNvM1AzV0tyUGoKeFZPSnY0TkhpZkR6eGlMY3JWYTJJSW1iRlNwb09wL05GT1FPVDlaYXA4MFlKWXpleEM4ZUkvVERZeTJmZ040ZgpHY3FNNjJaVGp6cjBZZkdPQXNOSWJZODlHc25rcFdJUVhjdUtxSmdyZ25sNEtkcjc0aU1WUUNwTmk4NWtYSmsvCnNyaVBpTUhrbTR1UUVMc2NTQmc5NU1Ga2d1RXdvRXUyR2M0ZFpnSGhJSXhGcDFHU0NFOVFwMDNBaXc5MGIxVDIKUUpLLzIzL2I5bGNQUU1heEt6QUJnb3Y2clhvdDQ5dzRua0FuTXg5Um9LUkJ2T1M3MTFtb2RhTmJpaFBGbndNTQpkYm1QbFNnPQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K\n  signerName: kubernetes.io/kube-apiserver-client\n  usages: [client auth]\n',
  'csr-ed25519':
    'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: csr-ed25519\nspec:\n  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlHYU1FNENBUUF3R3pFWk1CY0dBMVVFQXd3UVkyeDFjM1JsY2kxcmFXNWtjeTFsWkRBcU1BVUdBeXRsY0FNaApBTURzUGpqUmhJNmZ6R0ZXSXlFZjZhaThpa2ZsWVJWQzBiM2RyZXNpd1Fvbm9BQXdCUVlESzJWd0EwRUFrNS8wCkJ1VHpsQzdQcmZaNmpsdCtqenNMQW9PZE5JdG8zbWtla3M5Y0pTNTdzRFM5MmM1WmVRSFhlL3RiQ0VMZjAxTDUKYVJqdi9FNWFjSUJHSWJXQ0NRPT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==\n  signerName: example.com/signer\n  usages: [client auth]\n',
  'csr-p384-san':
    'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: csr-p384-san\nspec:\n  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQk5qQ0J2UUlCQURBUE1RMHdDd1lEVlFRRERBUndNemcwTUhZd0VBWUhLb1pJemowQ0FRWUZLNEVFQUNJRApZZ0FFWC9EUlRtMUlSNnd1VkdoQXNrMGJMR0lIenJieUpaZDN6elJ2clp6UTloM21jeTdvVE96dUx5Z0RhcHdFCnpyY2hQTFpFb1lUM0hNbjcvMzNML2F1VkNnWE5sdHA2cjYzM2l6d29CNDU4RWk5Y2I0ZkJXMGFJL1hHZjFIN0wKQ2wwK29DOHdMUVlKS29aSWh2Y05BUWtPTVNBd0hqQWNCZ05WSFJFRUZUQVRnZ3RsZUdGdGNHeGxMbU52YlljRQpDZ0FBQVRBS0JnZ3Foa2pPUFFRREFnTm9BREJsQWpFQWhEYmdNdGxOelIyWE9SUzB3N2tTdVdZUFQ0QVpzZHJnCndMaWZ2S3F3cFNzaW5peG5qNnpMb1hXc3JKQVY0ekY1QWpBb0RCMTg0M3dNa2U1d1pCTWVGMnloZGZaWjV6aXQKTVkrM0tndDFBaW5UT0l0SU1XV2pUSTRnVHdKeVJiUXY0ZUE9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=\n  signerName: example.com/signer\n  usages: [server auth]\n',
  'csr-pss':
    'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: csr-pss\nspec:\n  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQ2h6Q0NBVHNDQVFBd0RqRU1NQW9HQTFVRUF3d0RjSE56TUlJQklqQU5CZ2txaGtpRzl3MEJBUUVGQUFPQwpBUThBTUlJQkNnS0NBUUVBNm9CdDRyMSsrTktGMkp3Rml0NU02SGNWS1hJMHhURStTektvSVVSYjh6cDFzR3ljCnJ6aDVmNlYrS3VvdHBiZ0tmWU9kU0VHR3k3UmkwQjVVM05VY2RORVNLTThJSHc1YnlNSks2LzVGVGFhQWRyZ0kKZTVEYUg5ZlBLZmlBVHg1a3VUZUhEVjlhdjVjaE1VV1Z2QnZ3cU9pZzU1NXJoN2hIUmptRlkvOXBJQkg5TmpNMQpvbXRhZGZCTnNhdi9SWWhQNVprN1h2Nk1YUEpQZXAzb3Y2UnJyb2tHSWZrOW9tL0FDYnlDT3hUaTU3b3AzMVNVCnRrcEMyUnJoOEcrdVRFTCt6QjNzWXNma0lWTDFQb0VaRHVMSzZZRnU4WU1UVlBFSUlNQnlVSVFRczdLT2ZjVVMKanlWaUd2S0FZd016VmNwUlBUcm9UbFZISmlCbWRQUjlFckZXYndJREFRQUJvQUF3UVFZSktvWklodmNOQVFFSwpNRFNnRHpBTkJnbGdoa2dCWlFNRUFnRUZBS0VjTUJvR0NTcUdTSWIzRFFFQkNEQU5CZ2xnaGtnQlpRTUVBZ0VGCkFLSURBZ0VnQTRJQkFRRFFtUlZ1bmFYMVhWV3NjYmlXS0JKbWRqWGwrNjJNcVllN1RiRFNlbFMvbDQrOGt2YUoKTHNHdWlGUUpYT1J4d1lzVE9ja0Jub0d3c0lJQkNTVzRGaWpPZ1J5b0xyZ3cxKzlaWFA2NUhkT2pKbGNpRUZzNAp3N2FmSWp3cWNYN3p1L0RUbDhMU0dhNFJLVlRRd1Ezd1dqT3FaRlNoSnNCRVhWcHZRcDBhWVlJLy9OREVULzF5CkFEc0ZueWtqNk4reXF5bDVTTnZSSXlrYXhPMTdrTldmN3I0Z1BvVnVZNW5YRUUyOWQwako3dTQyOGJpaEtlQjQKUE5LY2NQdS9XZDFyZ3pRZGtvYkQzbzF3VjJFSElNa1BJbWFaUmlXMG9IVmVWTmV1ZitSM0F3cmhvNjYwNkFjbgpnQTlYeG9ZcmQzbnZldXpUN0EraWJobkRVUTdMUFlhbm90c1EKLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==\n  signerName: example.com/signer\n  usages: [client auth]\n',
  'csr-rsa512':
    'apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: csr-rsa512\nspec:\n  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlISk1IVUNBUUF3RURFT01Bd0dBMVVFQXd3RmMyMWhiR3d3WERBTkJna3Foa2lHOXcwQkFRRUZBQU5MQURCSQpBa0VBMERLWFZQd0FDQ3NHVFQ2SVJZOUpma0xQUER0TkN5THdTZWRFMVJlYXFQeDZMK0ZyMlJ3TFRjdVZsbmJECkN6L0JpYnBVRFpEc0FpWDBIL0ZURzJ4MHFRSURBUUFCb0FBd0RRWUpLb1pJaHZjTkFRRUxCUUFEUVFCQzJFWmkKSzd1SUtmQlQyM2d1dnZOSWI2SXY4QW5uYThHcnhDcXNDYlNRVm5wb0xldW0yZC9SWjNWczhyaG1EQVRXcndBNApUSzh5TU9jUmVPNmcwVFhDCi0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=\n  signerName: example.com/signer\n  usages: [client auth]\n',
}
