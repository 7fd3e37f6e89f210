import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { instantiateMaterial } from '../engine/material-variables.js'
import type { KubeVersion } from '../kube/environment.js'
import type { Finding } from '../report/model.js'
import { expandPaths, type JSONObject, type LoadedObject, loadManifests } from './load.js'

// The bundled policy pack (policies/, policies/README.md) for a target release.
//
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

/**
 * The bundled pack for a target release (`'1.30'` … `'1.37'`): every object of policies/*.yaml
 * (policies/tests/ and the mutating examples of policies/mutating/ left out), instantiated for `target`;
 * `errors` are the files' parse errors.
 */
export function bundledPack(target: KubeVersion | string): { objects: LoadedObject[]; errors: Finding[] } {
  const dir = bundledPoliciesDir()
  // policies/tests/ are the suites; policies/mutating/ the opt-in mutating examples (policies/README.md):
  // a cluster runs them only when someone installs them, so `kelp check` does not either
  const skipped = ['tests', 'mutating'].map((d) => `${join(dir, d)}${sep}`)
  const found = expandPaths([dir])
  const loaded = loadManifests(found.files.filter((f) => !skipped.some((d) => resolve(f).startsWith(d))))
  return { objects: instantiatePack(loaded.objects, target), errors: [...found.errors, ...loaded.errors] }
}
