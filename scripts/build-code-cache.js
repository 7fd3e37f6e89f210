// After the bundle and the pack's checked ASTs (npm run build): V8's code cache of the bundle
// (dist/cli/code-cache/, read by src/cli/kelp.cts), written by a `kelp check` of the examples with
// the bundled pack, so that it holds the functions such a check compiles. A check's verdict does not
// matter here (the examples hold denials: exit 1); a crash or a missing cache fails the build.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'dist/cli')
const r = spawnSync(process.execPath, [join(cli, 'kelp.cjs'), 'check', join(root, 'examples')], {
  env: { ...process.env, KELP_WRITE_CODE_CACHE: '1' },
  encoding: 'utf8',
})
if (r.status !== 0 && r.status !== 1) throw new Error(`build-code-cache: kelp check exited ${r.status}\n${r.stderr}`)
const { entry, preload } = JSON.parse(readFileSync(join(cli, 'bundle.json'), 'utf8'))
for (const f of [...preload, entry]) {
  if (!existsSync(join(cli, 'code-cache', `${f}.bin`))) throw new Error(`build-code-cache: no cache for ${f}`)
}
