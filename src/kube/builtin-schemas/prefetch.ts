import type { GroupVersionKind } from '../gvk.js'
import {
  BuiltinSchemaFileMissing,
  builtinDefinitions,
  missingBuiltinSchemaFiles,
  provideBuiltinSchemaFile,
  resolvedSchemaFor,
} from './index.js'

// A page's way to the built-in schemas: reads are synchronous (the engine is), fetches are not. So a page fetches
// what the kinds it is about to evaluate reach before it evaluates: their group-version's manifest, then the
// definition files their refs lead to, one round of fetches per level (each read that lacks a file names it:
// missingBuiltinSchemaFiles). An evaluation that still met a missing file is run again after fetching it
// (src/playground/evaluate).

/** Reads a data file by its path under data/builtin-schemas (`gv/api__v1.json.gz`): its bytes, gzip or not. */
export type BuiltinSchemaLoader = (file: string) => Promise<Uint8Array>

/** The rounds of fetches a prefetch makes at most: a kind's refs reach a handful of definition files. */
const MAX_ROUNDS = 12

/** Gzip bytes inflated (DecompressionStream, a page's and Node's); other bytes as they are. */
export async function inflated(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** Fetches and provides the files `missing` names (in parallel). */
export async function provideMissing(files: readonly string[], load: BuiltinSchemaLoader): Promise<void> {
  await Promise.all(files.map(async (f) => provideBuiltinSchemaFile(f, await inflated(await load(f)))))
}

/** Fetches what the kinds' schemas in `release` reach, until every one of them resolves without a missing file. */
export async function prefetchBuiltinSchemas(
  release: string,
  kinds: readonly GroupVersionKind[],
  load: BuiltinSchemaLoader,
): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    for (const gvk of kinds) {
      try {
        if (builtinDefinitions(release, gvk.group, gvk.version)?.kindSchemaName(gvk.kind) !== undefined)
          resolvedSchemaFor(release, gvk)
      } catch (e) {
        if (!(e instanceof BuiltinSchemaFileMissing)) throw e
      }
    }
    const need = missingBuiltinSchemaFiles()
    if (need.length === 0) return
    await provideMissing(need, load)
  }
}
