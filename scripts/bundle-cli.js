// The kelp command is shipped as one bundled module (dist/cli/main.js, with the check worker and the
// lazily loaded webhook server as its other entries/chunks) instead of ~230 modules: resolving and
// translating that many ESM files cost ~90 ms of every `kelp check` start (docs/benchmarks.md,
// bench/cli.js). The library (dist/index.js and its .d.ts) stays tsc's per-module output.
// The bundle stays in dist/cli/ so that its import.meta.url-relative paths (package.json, policies/)
// resolve as the per-module files' do.
import { chmod, readdir, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'dist/cli')
const out = join(root, 'dist/.cli-bundle')
await rm(out, { recursive: true, force: true })
await build({
  input: { main: join(cli, 'main.js'), 'check-worker': join(cli, 'check-worker.js') },
  platform: 'node',
  // prom-client and the other dependencies stay packages: installed beside kelp, resolved at run time
  external: [/^[^./]/],
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name]-[hash].js' },
  logLevel: 'warn',
})
// replace tsc's entry files with the bundled ones (the other per-module files stay for the library);
// the chunks of an earlier build go first
for (const f of await readdir(cli)) if (f.startsWith('chunk-')) await rm(join(cli, f))
for (const f of await readdir(out)) await rename(join(out, f), join(cli, f))
await rm(out, { recursive: true, force: true })
await chmod(join(cli, 'main.js'), 0o755)
