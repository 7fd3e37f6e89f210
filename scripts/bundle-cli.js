// The kelp command is shipped as a bundle (dist/cli/kelp-main.cjs, the check worker check-worker.cjs, and
// the chunks they share; the webhook server a lazily required chunk) instead of ~230 modules:
// resolving and translating that many ESM files cost ~90 ms of every `kelp check` start. It is
// CommonJS so that the command, dist/cli/kelp.cjs (src/cli/kelp.cts), can run it with V8's code cache
// (scripts/build-code-cache.js; docs/benchmarks.md). The library (dist/index.js
// and its .d.ts) and the rest of dist/cli stay tsc's per-module output.
// The bundle stays in dist/cli/ so that its import.meta.url-relative paths (package.json, policies/)
// resolve as the per-module files' do (rolldown turns import.meta.url into the file's URL).
import { chmod, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'dist/cli')
const out = join(root, 'dist/.cli-bundle')
await rm(out, { recursive: true, force: true })
const { output } = await build({
  input: {
    // the kelp command (src/bin/program.ts: the CLI's commands and the webhook's `serve`)
    'kelp-main': join(root, 'dist/bin/program.js'),
    'check-worker': join(root, 'dist/check/worker.js'),
    // kelp serve's deep lane (src/webhook/deep.ts): a thread started as a file, beside the chunks
    'webhook-deep-worker': join(root, 'dist/webhook/deep-worker.js'),
  },
  platform: 'node',
  // The dependencies every command start loads (commander, js-yaml, re2js) are bundled, so that the
  // code cache holds them too (~25 ms of a start). prom-client (the webhook's), yaml (-o yaml) and
  // @kubernetes/client-node (kelp audit's, imported on use) stay packages.
  external: [/^prom-client(\/|$)/, /^yaml(\/|$)/, /^@kubernetes\/client-node(\/|$)/],
  output: {
    dir: out,
    format: 'cjs',
    // V8 keeps a script's source for lazy compilation: one character past U+00FF (a `→` in a comment) made
    // the whole 2.6 MB chunk a two-byte string. ASCII escapes and no JSDoc: 11.4 → 5.4 MiB of large objects
    // in every process (docs/benchmarks.md). Licence comments stay.
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunk-[name]-[hash].cjs',
  },
  logLevel: 'warn',
})
const entry = output.find((c) => c.type === 'chunk' && c.isEntry && c.name === 'kelp-main')
if (!entry) throw new Error('bundle-cli: no kelp-main entry in the bundle')
// the chunks kelp-main.cjs requires when it starts (not the lazily required server), dependencies first:
// kelp.cjs runs each with the cache before the file that requires it
const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]))
const preload = []
const visit = (file) => {
  if (preload.includes(file) || !chunks.has(file)) return
  for (const dep of chunks.get(file).imports) visit(dep)
  preload.push(file)
}
for (const dep of entry.imports) visit(dep)
// the files of an earlier build go first
for (const f of await readdir(cli)) {
  const built =
    f.startsWith('chunk-') ||
    f === 'kelp-main.cjs' ||
    f === 'check-worker.cjs' ||
    f === 'webhook-deep-worker.cjs' ||
    f === 'code-cache'
  if (built) await rm(join(cli, f), { recursive: true })
}
for (const f of await readdir(out)) await rename(join(out, f), join(cli, f))
await rm(out, { recursive: true, force: true })
const worker = output.find((c) => c.type === 'chunk' && c.isEntry && c.name === 'check-worker')
if (!worker) throw new Error('bundle-cli: no check-worker entry in the bundle')
for (const dep of worker.imports) visit(dep)
await writeFile(
  join(cli, 'bundle.json'),
  `${JSON.stringify({ entry: entry.fileName, worker: worker.fileName, preload })}\n`,
)
await chmod(join(cli, 'kelp.cjs'), 0o755)
