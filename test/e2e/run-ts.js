// Runs a TypeScript entry of the e2e tree with plain node (Node 20 has no type stripping): rolldown (a pinned
// devDependency, as scripts/bundle-cli.js uses it) bundles the entry and its relative imports into
// .cache/e2e-bundle/, packages stay external. Used by `npm run cluster` and the bench scripts.
//   node test/e2e/run-ts.js test/e2e/cluster.ts [args...]
// or, from a script: const mod = await importTs('test/e2e/harness.ts')
import { mkdirSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'rolldown'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')

/** Bundles a .ts file (path from the repository root or absolute) and imports it. */
export async function importTs(entry) {
  const input = resolve(ROOT, entry)
  // the bundle runs from .cache/e2e-bundle/: harness.ts finds the repository through KELP_ROOT
  process.env.KELP_ROOT = ROOT
  const dir = join(ROOT, '.cache/e2e-bundle')
  mkdirSync(dir, { recursive: true })
  const file = `${basename(input, '.ts')}-${process.pid}.mjs`
  await build({
    input,
    platform: 'node',
    external: [/^[^./]/],
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    output: { file: join(dir, file), format: 'esm' },
    logLevel: 'warn',
  })
  return await import(pathToFileURL(join(dir, file)).href)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [entry, ...rest] = process.argv.slice(2)
  if (!entry) {
    console.error('usage: node test/e2e/run-ts.js <file.ts> [args...]')
    process.exit(2)
  }
  process.argv = [process.argv[0], resolve(ROOT, entry), ...rest]
  await importTs(entry)
}
