// The playground page (src/playground/app/, docs/playground.md) built into dist/playground/ as static files:
//   index.html               the page, its styles inlined, the first chunk and the engine chunk preloaded
//   assets/main-[hash].js    the first chunk: the page and its CodeMirror editors
//   assets/engine-[hash].js  the engine (src/playground/evaluate/ and the core), imported lazily by main
//   sw.js                    the service worker that keeps the page's files for offline use
//   builtin-schemas/         data/builtin-schemas/ as is, fetched by the page only when a kind needs it
// The page's sizes, gzipped (what a server that compresses sends), are printed at the end. tsc's output for
// src/playground/*.ts (kelp playground's server) lands in the same folder; the server serves only the files above.

import { createHash } from 'node:crypto'
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { builtinModules } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'rolldown'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const app = join(root, 'src/playground/app')
const dist = join(root, 'dist/playground')
const tmp = join(root, 'dist/.playground-build')
await rm(tmp, { recursive: true, force: true })

// the page runs in a browser: a Node built-in reached from it fails the build (not the page, later, in a browser)
const NODE_BUILTINS = new Set(builtinModules)
const noNodeBuiltins = {
  name: 'no-node-builtins',
  resolveId(id, importer) {
    if (id.startsWith('node:') || NODE_BUILTINS.has(id))
      throw new Error(`build-playground: a Node built-in in the page: ${id} imported by ${importer}`)
    return null
  },
}

const started = Date.now()
const { output } = await build({
  input: { main: join(app, 'main.ts') },
  platform: 'browser',
  plugins: [noNodeBuiltins],
  tsconfig: join(app, 'tsconfig.json'),
  output: {
    dir: join(tmp, 'assets'),
    format: 'esm',
    entryFileNames: '[name]-[hash].js',
    chunkFileNames: '[name]-[hash].js',
    minify: true,
  },
  logLevel: 'warn',
})
const chunks = output.filter((c) => c.type === 'chunk')
const entry = chunks.find((c) => c.isEntry && c.name === 'main')
if (!entry) throw new Error('build-playground: no main entry in the bundle')
const byFile = new Map(chunks.map((c) => [c.fileName, c]))
/** A chunk and every chunk it imports statically, dependencies first. */
const closure = (file, into = []) => {
  const c = byFile.get(file)
  if (!c || into.includes(file)) return into
  for (const d of c.imports) closure(d, into)
  into.push(file)
  return into
}
const first = closure(entry.fileName)
const lazy = entry.dynamicImports
  .flatMap((f) => closure(f))
  .filter((f, i, a) => !first.includes(f) && a.indexOf(f) === i)

// the service worker: its own bundle (no imports), with the files it keeps at install
const sw = await build({
  input: join(app, 'sw.ts'),
  platform: 'browser',
  tsconfig: join(app, 'tsconfig.json'),
  output: { dir: join(tmp, 'sw'), format: 'iife', entryFileNames: 'sw.js', minify: true },
  logLevel: 'warn',
})
const swChunk = sw.output.find((c) => c.type === 'chunk')
// the cache's name: every chunk's (content-hashed) name and the schemas' index, so that a build that changes any
// of them, the schemas included (not hashed by name), starts a fresh cache
const version = createHash('sha256')
  .update(chunks.map((c) => c.fileName).join('\n'))
  .update(await readFile(join(root, 'data/builtin-schemas/index.json')))
  .digest('hex')
  .slice(0, 16)
const manifest = JSON.stringify({
  version,
  files: ['./', ...chunks.map((c) => `assets/${c.fileName}`)],
})
const placeholder = /(["'`])__KELP_SW_MANIFEST__\1/
if (!placeholder.test(swChunk.code)) throw new Error('build-playground: the service worker has no manifest placeholder')
await writeFile(
  join(tmp, 'sw.js'),
  swChunk.code.replace(placeholder, () => JSON.stringify(manifest)),
)
await rm(join(tmp, 'sw'), { recursive: true })

// the page: styles inlined (one request less), both chunks' files preloaded so the engine arrives with the page
const styles = await readFile(join(app, 'styles.css'), 'utf8')
const preloads = [...first.filter((f) => f !== entry.fileName), ...lazy]
  .map((f) => `<link rel="modulepreload" href="./assets/${f}">`)
  .join('\n')
let html = await readFile(join(app, 'index.html'), 'utf8')
for (const [mark, value] of [
  ['/*STYLES*/', styles.trim()],
  ['<!--PRELOADS-->', preloads],
  ['/*ENTRY*/', `./assets/${entry.fileName}`],
]) {
  if (!html.includes(mark)) throw new Error(`build-playground: index.html has no ${mark}`)
  html = html.replace(mark, () => value)
}
await writeFile(join(tmp, 'index.html'), html)
await cp(join(root, 'data/builtin-schemas'), join(tmp, 'builtin-schemas'), { recursive: true })

// into place: the site's files of an earlier build go, tsc's output for src/playground/ stays
await mkdir(dist, { recursive: true })
for (const f of ['index.html', 'sw.js', 'assets', 'builtin-schemas', 'sizes.json'])
  await rm(join(dist, f), { recursive: true, force: true })
for (const f of await readdir(tmp)) await rename(join(tmp, f), join(dist, f))
await rm(tmp, { recursive: true, force: true })

const gz = async (f) => {
  const bytes = await readFile(join(dist, f))
  return { file: f, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}
const page = [await gz('index.html'), ...(await Promise.all(first.map((f) => gz(`assets/${f}`))))]
const engine = await Promise.all(lazy.map((f) => gz(`assets/${f}`)))
const sum = (rows) => rows.reduce((n, r) => n + r.gzip, 0)
const schemaFiles = []
const walk = async (d) => {
  for (const e of await readdir(d, { withFileTypes: true }))
    if (e.isDirectory()) await walk(join(d, e.name))
    else schemaFiles.push((await stat(join(d, e.name))).size)
}
await walk(join(dist, 'builtin-schemas'))
const sizes = {
  page,
  engine,
  serviceWorker: await gz('sw.js'),
  firstLoadGzip: sum(page) + sum(engine),
  schemas: { files: schemaFiles.length, bytes: schemaFiles.reduce((a, b) => a + b, 0) },
}
await writeFile(join(dist, 'sizes.json'), `${JSON.stringify(sizes, null, 2)}\n`)
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`
const line = (r) => `  ${r.file.padEnd(40)} ${kb(r.bytes).padStart(11)} ${kb(r.gzip).padStart(11)} gzip`
console.log(`build-playground: ${relative(root, dist)}/ in ${Date.now() - started} ms`)
for (const r of [...page, ...engine, sizes.serviceWorker]) console.log(line(r))
console.log(
  `  first load (page + engine, before schemas): ${kb(sizes.firstLoadGzip)} gzip; ` +
    `built-in schemas: ${schemaFiles.length} gzip files, ${kb(sizes.schemas.bytes)}, fetched per group-version`,
)
