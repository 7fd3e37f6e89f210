import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { docExamples } from '../docs/doc-examples.js'
import { hasOpenssl, makeCert, tempDir } from './helpers.js'

// docs/webhook.md: every ```ts block is run as a module (`kelp-k8s` → src/index.ts, `kelp-k8s/webhook` →
// src/webhook/index.ts). Each starts a server on port 0 over HTTPS with the test's self-signed
// certificate (KELP_TLS_DIR, as the examples read it), sends one AdmissionReview, asserts the answer
// with node:assert, and closes.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const OUT = join(ROOT, 'test/.docs-out')
const PAGE = 'docs/webhook.md'
const examples = docExamples(PAGE)

async function run(line: number, code: string): Promise<void> {
  mkdirSync(OUT, { recursive: true })
  const file = join(OUT, `docs_webhook_md_${line}.ts`)
  writeFileSync(
    file,
    code
      .replace(/from 'kelp-k8s\/webhook'/g, `from '${join(ROOT, 'src/webhook/index.js')}'`)
      .replace(/from 'kelp-k8s'/g, `from '${join(ROOT, 'src/index.js')}'`),
  )
  await import(file)
}

describe.skipIf(!hasOpenssl)('docs/webhook.md examples', () => {
  let previous: string | undefined
  beforeAll(() => {
    const dir = tempDir('kelp-webhook-docs-')
    // the names a kubernetes.io/tls Secret mounts
    const { cert, key } = makeCert(dir, 'tls')
    writeFileSync(join(dir, 'tls.crt'), cert)
    writeFileSync(join(dir, 'tls.key'), key)
    previous = process.env.KELP_TLS_DIR
    process.env.KELP_TLS_DIR = dir
  })
  afterAll(() => {
    if (previous === undefined) delete process.env.KELP_TLS_DIR
    else process.env.KELP_TLS_DIR = previous
  })

  it('has the examples: kelp serve from code, node:https, Express, Fastify', () => {
    const code = examples.map((e) => e.code).join('\n')
    expect(examples.length).toBeGreaterThanOrEqual(4)
    for (const s of ["from 'kelp-k8s/webhook'", "from 'express'", "from 'fastify'", 'startWebhookServer', 'port: 0'])
      expect(code).toContain(s)
  })

  for (const ex of examples) {
    it(`${ex.title} (line ${ex.line})`, async () => {
      await run(ex.line, ex.code)
    })
  }
})
