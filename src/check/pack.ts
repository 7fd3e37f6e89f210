import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { instantiateMaterial } from '../engine/material-variables.js'
import type { KubeVersion } from '../kube/environment.js'
import type { JSONObject } from '../kube/values/json.js'
import { expandPaths, type Loaded, type LoadedObject, loadManifests } from '../manifest/load.js'
import type { Finding } from '../report/model.js'
import { PACK_CHECKED_DIR } from './pack-cache.js'

// The bundled policy pack (policies/, policies/README.md) for a target release. How its policies
// follow the release and each other: src/engine/material-variables.ts.

export {
  ENFORCED_WITH_ANNOTATION,
  ENFORCED_WITH_VARIABLE_ANNOTATION,
  RELEASE_VARIABLE_ANNOTATION,
} from '../engine/material-variables.js'

/** The bundled policy pack (policies/ at the package root). */
export function bundledPoliciesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../policies')
}

/** The material for `target` (instantiateMaterial over loaded objects, their sources kept). */
export function instantiatePack(objects: readonly LoadedObject[], target: KubeVersion | string): LoadedObject[] {
  const instantiated = instantiateMaterial(
    objects.map((o) => o.object),
    target,
  )
  return objects.map((o, i) => {
    const object = instantiated[i] as JSONObject
    return object === o.object ? o : { ...o, object }
  })
}

/** The pack's files: policies/*.yaml without the suites (tests/) and the opt-in mutating examples. */
export function bundledPackFiles(dir: string = bundledPoliciesDir()): { files: string[]; errors: Finding[] } {
  // policies/tests/ are the suites; policies/mutating/ the opt-in mutating examples (policies/README.md):
  // a cluster runs them only when someone installs them, so `kelp check` does not either
  const skipped = ['tests', 'mutating'].map((d) => `${join(dir, d)}${sep}`)
  const found = expandPaths([dir])
  return { files: found.files.filter((f) => !skipped.some((d) => resolve(f).startsWith(d))), errors: found.errors }
}

/**
 * The pack's objects as loadManifests reads them, written when kelp was built
 * (scripts/build-pack-cache.js, pack-checked/objects.json) with the files' digest: reading 57 KB of
 * YAML was ~30 ms of a `kelp check` start, JSON.parse of the same objects ~1 ms. Sources are kept
 * relative to policies/ (the package may be built elsewhere than it runs).
 */
export interface PackObjectsFile {
  readonly stamp: string
  readonly objects: readonly LoadedObject[]
}
export const PACK_OBJECTS_FILE = join(PACK_CHECKED_DIR, 'objects.json')

/** What identifies the pack's files: their names under policies/ and their bytes. */
export function packFilesStamp(dir: string, files: readonly string[]): string {
  const h = createHash('sha256')
  for (const f of files)
    h.update(`${relative(dir, f)}\0`)
      .update(readFileSync(f))
      .update('\0')
  return h.digest('hex')
}

/** The objects of the files as the build read them, relative to dir; for packObjects (the build). */
export function packObjectsFile(dir: string, files: readonly string[], loaded: Loaded): PackObjectsFile {
  const objects = loaded.objects.map((o) => ({ ...o, source: { ...o.source, file: relative(dir, o.source.file) } }))
  return { stamp: packFilesStamp(dir, files), objects }
}

/** The build's objects when the files are what it read, else undefined. */
function builtPackObjects(dir: string, files: readonly string[], cache: string): LoadedObject[] | undefined {
  let file: PackObjectsFile
  try {
    file = JSON.parse(readFileSync(cache, 'utf8')) as PackObjectsFile
  } catch {
    return undefined // not built (tests from the sources, a partial build): read the YAML
  }
  if (file.stamp !== packFilesStamp(dir, files)) return undefined
  return file.objects.map((o) => ({ ...o, source: { ...o.source, file: join(dir, o.source.file) } }))
}

/**
 * The bundled pack for a target release (`'1.30'` … `'1.37'`): every object of its files
 * (bundledPackFiles), instantiated for `target`; `errors` are the files' parse errors.
 */
export function bundledPack(
  target: KubeVersion | string,
  cache: string = PACK_OBJECTS_FILE,
): { objects: LoadedObject[]; errors: Finding[] } {
  const dir = bundledPoliciesDir()
  const found = bundledPackFiles(dir)
  const built = builtPackObjects(dir, found.files, cache)
  const loaded = built !== undefined ? { objects: built, errors: [] } : loadManifests(found.files)
  return { objects: instantiatePack(loaded.objects, target), errors: [...found.errors, ...loaded.errors] }
}
