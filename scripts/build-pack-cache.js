// After the bundle (npm run build): the bundled pack's objects (dist/cli/pack-checked/objects.json,
// src/check/pack.ts) and its expressions parsed and checked once per release, written to
// dist/cli/pack-checked/<release>.json for `kelp check`'s cold start
// (src/check/pack-cache.ts). Uses the per-module dist/ files, compiled from the same sources as the
// bundle; stamped with the bundle's identity so that another build does not use them.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = (p) => join(root, 'dist', p)
const { encodeChecked } = await import(dist('cel/checker/serialize.js'))
const { bundledPack, bundledPackFiles, bundledPoliciesDir, PACK_OBJECTS_FILE, packObjectsFile } = await import(
  dist('check/pack.js')
)
const { loadManifests } = await import(dist('manifest/load.js'))
const { buildStamp, PACK_CHECKED_DIR } = await import(dist('check/pack-cache.js'))
const { PolicySet } = await import(dist('engine/policy-set.js'))
const { SUPPORTED_VERSIONS } = await import(dist('kube/environment.js'))

await rm(PACK_CHECKED_DIR, { recursive: true, force: true })
await mkdir(PACK_CHECKED_DIR, { recursive: true })
const stamp = buildStamp(dirname(PACK_CHECKED_DIR))
// the pack's objects as the YAML gives them (bundledPack reads them from here when the files match)
const policies = bundledPoliciesDir()
const { files } = bundledPackFiles(policies)
const loaded = loadManifests(files)
if (loaded.errors.length > 0) throw new Error(`the bundled pack does not load: ${loaded.errors[0].message}`)
await writeFile(PACK_OBJECTS_FILE, JSON.stringify(packObjectsFile(policies, files, loaded)))
for (const version of SUPPORTED_VERSIONS) {
  const entries = {}
  const checkedCache = {
    get: () => undefined,
    put: (context, expression, ast) => {
      entries[context] ??= {}
      entries[context][expression] = encodeChecked(ast)
    },
  }
  const pack = bundledPack(version)
  if (pack.errors.length > 0) throw new Error(`the bundled pack does not load: ${pack.errors[0].message}`)
  const set = PolicySet.build(
    pack.objects.map((o) => o.object),
    { version, trusted: true, checkedCache },
  )
  for (const h of set.policies) void h.validator.shared // compiles the policy
  await writeFile(join(PACK_CHECKED_DIR, `${version}.json`), JSON.stringify({ stamp, entries }))
}
