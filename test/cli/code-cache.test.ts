import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Module } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'
import { describe, expect, it } from 'vitest'

// The kelp command's V8 code cache (dist/cli/code-cache/, scripts/build-code-cache.js, read by
// src/cli/kelp.cts): this Node accepts what the build wrote, and the command answers the same with it,
// without it, and with a damaged one (V8 refuses that and compiles as usual). `npm test` builds dist/.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cliDir = join(root, 'dist/cli')
const cacheDir = join(cliDir, 'code-cache')
const manifest = (): { entry: string; preload: string[] } =>
  JSON.parse(readFileSync(join(cliDir, 'bundle.json'), 'utf8'))

function check(): string {
  const manifests = ['examples/web.yaml', 'examples/debug-pod.yaml', 'examples/legacy.yaml'].map((f) => join(root, f))
  try {
    return execFileSync(process.execPath, [join(cliDir, 'kelp.cjs'), 'check', '-o', 'json', ...manifests], {
      encoding: 'utf8',
    })
  } catch (e) {
    return (e as { stdout: string }).stdout // exit 1: a denial
  }
}

/** Runs f with the cache directory replaced by what make writes (or removed), then puts it back. */
function withCache<T>(make: ((dir: string) => void) | undefined, f: () => T): T {
  const tmp = mkdtempSync(join(tmpdir(), 'kelp-code-cache-'))
  cpSync(cacheDir, join(tmp, 'code-cache'), { recursive: true })
  try {
    rmSync(cacheDir, { recursive: true })
    make?.(cacheDir)
    return f()
  } finally {
    rmSync(cacheDir, { recursive: true, force: true })
    cpSync(join(tmp, 'code-cache'), cacheDir, { recursive: true })
    rmSync(tmp, { recursive: true, force: true })
  }
}

describe.skipIf(!existsSync(cacheDir))('dist/cli/code-cache (built by npm run build)', () => {
  it('holds a cache for every file the command runs at start, which this V8 accepts', () => {
    const { entry, preload } = manifest()
    expect(preload.length).toBeGreaterThan(0)
    for (const name of [...preload, entry]) {
      const source = readFileSync(join(cliDir, name), 'utf8')
      const cachedData = readFileSync(join(cacheDir, `${name}.bin`))
      const script = new Script(Module.wrap(source), { filename: join(cliDir, name), cachedData })
      expect(script.cachedDataRejected, name).toBe(false)
    }
    // and it was written for these files: another file's cache is refused
    const other = new Script(Module.wrap('/* another file */'), {
      cachedData: readFileSync(join(cacheDir, `${entry}.bin`)),
    })
    expect(other.cachedDataRejected).toBe(true)
    expect(readdirSync(cacheDir).sort()).toEqual([...preload, entry].map((n) => `${n}.bin`).sort())
  })

  it('kelp check answers the same with the cache, without it, and with a damaged one', () => {
    const withIt = check()
    expect(JSON.parse(withIt).summary).toMatchObject({ denied: 1 })
    expect(withCache(undefined, check)).toBe(withIt)
    const damaged = (dir: string) => {
      const { entry, preload } = manifest()
      mkdirSync(dir)
      for (const name of [...preload, entry]) writeFileSync(join(dir, `${name}.bin`), Buffer.alloc(4096, 0x5a))
    }
    expect(withCache(damaged, check)).toBe(withIt)
  })
})
