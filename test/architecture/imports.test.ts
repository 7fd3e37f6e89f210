import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The direction of the house (docs/architecture.md): cel ← kube ← (crd, builtin, policy) ← engine ← report ←
// manifest ← check ← faces (cli, webhook, the library's src/index.ts and check-api.ts) ← bin (the kelp
// executable). A module may import its own folder and any folder of a lower layer; never a sibling of its layer,
// never upwards, and no face another face.
// The imports are read from the sources (static, re-exports and dynamic `import()`), so a new import against the
// map fails here.
// ALLOWED lists today's exceptions file by file, each with why and the issue that removes it; an entry that no
// longer occurs fails too, so the list only shrinks.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const SRC = join(ROOT, 'src')

const LAYER: Record<string, number> = {
  cel: 0,
  kube: 1,
  crd: 2,
  builtin: 2,
  policy: 2,
  engine: 3,
  // the Report model and its formatters: what every face reports with (below the faces)
  report: 4,
  // the manifest reader: paths, files, stdin and git revisions into documents with positions (the apiserver's plugin/manifest)
  manifest: 4.5,
  // the check pipeline (read → validate → report, as kubeconform shapes it): what `kelp check` and checkManifests run
  check: 4.75,
  cli: 5,
  webhook: 5,
  audit: 5,
  // the playground (a static page over the engine, src/playground/)
  playground: 5,
  // the library's entry (src/index.ts) and the files beside it
  library: 5,
  // the kelp executable: the commands of the CLI and the webhook's `kelp serve` under one name
  bin: 6,
}

/** Files whose folder is fixed by the build, not by their layer: the layer (a LAYER key) they are read in. */
const PLACED: Record<string, string> = {
  // the executable's loader: built to dist/cli/kelp.cjs beside the bundle it runs (package.json bin,
  // parallel.ts's threads, the Dockerfile's entrypoint); it runs src/bin/program.ts
  'cli/kelp.cts': 'bin',
}

/** `from → to` (paths under src/) that break the direction today: why, and what removes them. */
const ALLOWED: Record<string, string> = {}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return sources(p)
    return e.name.endsWith('.ts') || e.name.endsWith('.cts') ? [p] : []
  })
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm

/** The relative imports of a file, as paths under src/ (`.js` read as the `.ts` it is built from). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] as string
    if (!spec.startsWith('.')) continue
    out.push(relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'))
  }
  return out
}

const folderOf = (path: string): string =>
  PLACED[path] ?? (path.includes('/') ? (path.split('/')[0] as string) : 'library')

describe('the import direction of src/ (docs/architecture.md)', () => {
  const files = sources(SRC)
  const edges = files.flatMap((f) => importsOf(f).map((to) => [relative(SRC, f), to] as const))

  it('reads every source file and knows every folder', () => {
    expect(files.length).toBeGreaterThan(200)
    const unknown = [...new Set(files.map((f) => folderOf(relative(SRC, f))))].filter((x) => LAYER[x] === undefined)
    expect(unknown).toEqual([])
  })

  it('no import runs against the map, beyond the listed exceptions', () => {
    const against = edges
      .filter(([from, to]) => {
        const a = folderOf(from)
        const b = folderOf(to)
        if (a === b) return false
        return !((LAYER[b] as number) < (LAYER[a] as number))
      })
      .map(([from, to]) => `${from} → ${to}`)
    expect(against.filter((e) => ALLOWED[e] === undefined)).toEqual([])
    // an exception that no longer occurs leaves the list
    expect(Object.keys(ALLOWED).filter((e) => !against.includes(e))).toEqual([])
  })
})
