import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The direction of the house (docs/architecture.md): cel ← kube ← (crd, builtin, policy) ← engine ← report ←
// manifest ← check ← faces (cli, webhook, the library's src/index.ts and check-api.ts). A module may import its own
// folder and any folder of a lower layer; never a sibling of its layer, never upwards, and no face another face.
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
  // the library's entry (src/index.ts) and the files beside it
  library: 5,
}

/** `from → to` (paths under src/) that break the direction today: why, and what removes them. */
const ALLOWED: Record<string, string> = {
  'builtin/validation/webhooks.ts → policy/types.ts':
    'admission-registration validation is one package in Kubernetes, split today between builtin/ and policy/ (issue 27, item 4)',
  'builtin/validation/webhooks.ts → policy/validation/match-conditions.ts': 'as above (issue 27, item 4)',
  'builtin/validation/webhooks.ts → policy/validation/options.ts': 'as above (issue 27, item 4)',
  'builtin/validation/webhooks.ts → policy/validation/rule-with-operations.ts': 'as above (issue 27, item 4)',
  'builtin/validation/webhooks.ts → policy/validation-cel.ts': 'as above (issue 27, item 4)',
  'cli/program.ts → webhook/log.ts':
    'streamLines, the log writer the CLI shares: moves below the faces (issue 27, item 2)',
  'cli/commands.ts → webhook/log.ts': 'the logger of `kelp serve`, started by the CLI (issue 27, item 3)',
  'cli/commands.ts → webhook/server.ts':
    '`kelp serve` is a command of the kelp CLI: it starts the webhook face (issue 27, item 3)',
}

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

const folderOf = (path: string): string => (path.includes('/') ? (path.split('/')[0] as string) : 'library')

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
