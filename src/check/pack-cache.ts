import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeChecked, type EncodedChecked } from '../cel/checker/serialize.js'
import type { KubeVersion } from '../kube/environment.js'
import type { CheckedCache } from '../policy/cel/compile.js'

// The bundled pack's expressions, parsed and checked when kelp was built (scripts/build-pack-cache.js),
// one file per release in dist/cli/pack-checked/: `kelp check` plans them without parsing and checking
// them again, which was most of its cold start (docs/benchmarks.md). A file written by another build
// of kelp is not used: each records the build's stamp (buildStamp), and a miss just compiles.

// the command's directory, dist/cli: the bundle (with this file) and its pack-checked/ are there; tsc's per-module
// build of this file is in dist/check, beside it
const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '../cli')
export const PACK_CHECKED_DIR = join(CLI_DIR, 'pack-checked')

export interface PackCheckedFile {
  readonly stamp: string
  /** by the compiler's context (CheckedCache), then by expression */
  readonly entries: Readonly<Record<string, Readonly<Record<string, EncodedChecked>>>>
}

/**
 * What identifies this build of the command: the bundle's chunk names (rolldown names them by a hash
 * of their content) and the size of its entry. A rebuild that changes the code changes it.
 */
export function buildStamp(dir: string = CLI_DIR): string {
  const chunks = readdirSync(dir)
    .filter((f) => f.startsWith('chunk-') && f.endsWith('.cjs'))
    .sort()
  const entry = join(dir, 'kelp-main.cjs')
  return JSON.stringify({ chunks, entry: existsSync(entry) ? statSync(entry).size : 0 })
}

/** The bundled pack's checked ASTs for `version`, when this build wrote them; else undefined. */
export function packCheckedCache(version: KubeVersion, dir: string = PACK_CHECKED_DIR): CheckedCache | undefined {
  let file: PackCheckedFile
  try {
    file = JSON.parse(readFileSync(join(dir, `${version}.json`), 'utf8')) as PackCheckedFile
  } catch {
    return undefined // not built (tests from the sources, a partial build): compile as usual
  }
  if (file.stamp !== buildStamp(dirname(dir))) return undefined
  const entries = file.entries
  return {
    get: (context, expression) => {
      const c = Object.hasOwn(entries, context) ? entries[context] : undefined
      const e = c !== undefined && Object.hasOwn(c, expression) ? c[expression] : undefined
      return e === undefined ? undefined : decodeChecked(e)
    },
  }
}
