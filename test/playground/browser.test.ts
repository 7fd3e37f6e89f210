import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { build } from 'rolldown'
import { beforeAll, describe, expect, it } from 'vitest'
import type * as Engine from '../../src/playground/evaluate/index.js'
import { examples } from '../../src/playground/evaluate/index.js'

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
  // a browser's globals, none of Node's
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
  engine = context.kelpPlayground as typeof Engine
}, 120_000)

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

  it('answers the deny example as in Node, the schemas fetched through the loader', async () => {
    const state = examples.find((e) => e.name.startsWith('Deny'))!.state
    const r = await engine.evaluatePlayground(state, { loadSchemas })
    expect(r.kubectl).toEqual([
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas must be at most 5`,
    ])
  })

  it('round-trips a state through the URL text', async () => {
    const state = examples[0]!.state
    expect(await engine.decodeState(await engine.encodeState(state))).toEqual(state)
  })
})
