import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
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
  it('holds a cache for every file the command runs at start, which V8 accepts under the flags kelp sets', () => {
    const { entry, preload } = manifest()
    expect(preload.length).toBeGreaterThan(0)
    // V8 refuses a cache written under other flags: checked in a process given the V8 flags kelp.cjs sets
    // before it compiles the bundle (src/cli/kelp.cts V8_FLAGS), as the command runs
    const flags = /const V8_FLAGS = '([^']*)'/.exec(readFileSync(join(cliDir, 'kelp.cjs'), 'utf8'))?.[1]
    expect(flags).toBeDefined()
    const probe = `
      const { readFileSync } = require('node:fs'); const { join } = require('node:path')
      const { Module } = require('node:module'); const { Script } = require('node:vm')
      require('node:v8').setFlagsFromString(process.env.KELP_TEST_V8_FLAGS)
      const [dir, cache, ...names] = process.argv.slice(1)
      const rejected = (source, data, filename) =>
        new Script(Module.wrap(source), { filename, cachedData: readFileSync(data) }).cachedDataRejected
      const out = {}
      for (const n of names) out[n] = rejected(readFileSync(join(dir, n), 'utf8'), join(cache, n + '.bin'), join(dir, n))
      // and it was written for these files: another file's cache is refused
      out.other = rejected('/* another file */', join(cache, names[names.length - 1] + '.bin'), undefined)
      process.stdout.write(JSON.stringify(out))`
    const names = [...preload, entry]
    const rejected = JSON.parse(
      execFileSync(process.execPath, ['-e', probe, cliDir, cacheDir, ...names], {
        encoding: 'utf8',
        env: { ...process.env, KELP_TEST_V8_FLAGS: flags },
      }),
    ) as Record<string, boolean>
    for (const name of names) expect(rejected[name], name).toBe(false)
    expect(rejected.other).toBe(true)
    expect(readdirSync(cacheDir).sort()).toEqual(names.map((n) => `${n}.bin`).sort())
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
