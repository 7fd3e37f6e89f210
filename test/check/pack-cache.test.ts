import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { encodeChecked } from '../../src/cel/checker/serialize.js'
import { bundledPack, instantiatePack, type PackObjectsFile } from '../../src/check/pack.js'
import { buildStamp, type PackCheckedFile, packCheckedCache } from '../../src/check/pack-cache.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import { SUPPORTED_VERSIONS } from '../../src/kube/environment.js'

// The bundled pack's checked ASTs that `npm run build` writes (scripts/build-pack-cache.js,
// dist/cli/pack-checked/) must be what checking the pack gives now, for every release: the test
// fails on a stale or partial file. `npm test` builds dist/ before vitest.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cliDir = join(root, 'dist/cli')
const dir = join(cliDir, 'pack-checked')

/** The pack's expressions as checking them now gives them, by context and expression. */
function freshEntries(version: (typeof SUPPORTED_VERSIONS)[number]): Record<string, Record<string, unknown>> {
  const entries: Record<string, Record<string, unknown>> = {}
  const checkedCache = {
    get: () => undefined,
    put: (context: string, expression: string, ast: Parameters<typeof encodeChecked>[0]) => {
      entries[context] ??= {}
      ;(entries[context] as Record<string, unknown>)[expression] = encodeChecked(ast)
    },
  }
  const set = PolicySet.build(
    bundledPack(version).objects.map((o) => o.object),
    { version, trusted: true, checkedCache },
  )
  for (const h of set.policies) void h.validator.shared
  return entries
}

describe.skipIf(!existsSync(dir))('dist/cli/pack-checked (built by npm run build)', () => {
  it.each(SUPPORTED_VERSIONS)('%s: every expression of the pack, as checking it gives now', (version) => {
    const file = JSON.parse(readFileSync(join(dir, `${version}.json`), 'utf8')) as PackCheckedFile
    expect(file.stamp).toBe(buildStamp(cliDir))
    const fresh = freshEntries(version)
    expect(Object.values(fresh).reduce((n, c) => n + Object.keys(c).length, 0)).toBeGreaterThan(100)
    expect(JSON.parse(JSON.stringify(fresh))).toStrictEqual(file.entries)
  })

  it('serves every expression of the pack as kelp check builds it (instantiated again with the inputs)', () => {
    const cache = packCheckedCache('1.37', dir)
    expect(cache).toBeDefined()
    let hits = 0
    let misses = 0
    const checkedCache = {
      get: (context: string, expression: string) => {
        const ast = cache?.get(context, expression)
        if (ast === undefined) misses++
        else hits++
        return ast
      },
    }
    const objects = instantiatePack(bundledPack('1.37').objects, '1.37').map((o) => o.object)
    const set = PolicySet.build(objects, { version: '1.37', trusted: true, checkedCache })
    for (const h of set.policies) void h.validator.shared
    expect(misses).toBe(0)
    expect(hits).toBeGreaterThan(100)
  })

  it('is used only by the build that wrote it', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'kelp-pack-checked-'))
    try {
      cpSync(dir, join(tmp, 'pack-checked'), { recursive: true })
      writeFileSync(join(tmp, 'kelp-main.cjs'), '')
      expect(packCheckedCache('1.37', join(tmp, 'pack-checked'))).toBeUndefined() // another stamp
      expect(packCheckedCache('1.37', dir)).toBeDefined()
      expect(packCheckedCache('1.37', join(tmp, 'absent'))).toBeUndefined()
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })

  it('kelp check reports the same with and without it', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'kelp-pack-checked-'))
    try {
      const manifests = ['examples/web.yaml', 'examples/debug-pod.yaml'].map((f) => join(root, f))
      const run = () => {
        try {
          return execFileSync(process.execPath, [join(cliDir, 'kelp.cjs'), 'check', '-o', 'json', ...manifests], {
            encoding: 'utf8',
          })
        } catch (e) {
          return (e as { stdout: string }).stdout // exit 1: a denial
        }
      }
      const withCache = run()
      cpSync(dir, join(tmp, 'pack-checked'), { recursive: true })
      rmSync(dir, { recursive: true })
      let without: string
      try {
        without = run()
      } finally {
        cpSync(join(tmp, 'pack-checked'), dir, { recursive: true })
      }
      expect(JSON.parse(withCache).summary).toMatchObject({ denied: 1 })
      expect(withCache).toBe(without)
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })

  it('objects.json holds the objects the YAML gives, and is not used once a file differs', () => {
    const fromYaml = bundledPack('1.37', join(tmpdir(), 'kelp-absent', 'objects.json'))
    expect(fromYaml.errors).toEqual([])
    const built = join(dir, 'objects.json') // the build's (src/check/pack.ts looks for it in dist/cli/pack-checked)
    expect(bundledPack('1.37', built)).toEqual(fromYaml)
    // the same digest over other objects: used (the digest is what decides)
    const file = JSON.parse(readFileSync(built, 'utf8')) as PackObjectsFile
    const tmp = mkdtempSync(join(tmpdir(), 'kelp-pack-objects-'))
    try {
      const one = { ...file, objects: file.objects.slice(0, 1) }
      writeFileSync(join(tmp, 'same.json'), JSON.stringify(one))
      expect(bundledPack('1.37', join(tmp, 'same.json')).objects).toHaveLength(1)
      // another digest (the files changed since the build): the YAML is read
      writeFileSync(join(tmp, 'stale.json'), JSON.stringify({ ...one, stamp: 'another build' }))
      expect(bundledPack('1.37', join(tmp, 'stale.json'))).toEqual(fromYaml)
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })
})
