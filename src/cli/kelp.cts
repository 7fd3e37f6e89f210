#!/usr/bin/env node
import fs = require('node:fs')
import nodeModule = require('node:module')
import path = require('node:path')
import v8 = require('node:v8')
import vm = require('node:vm')

// The kelp command (package.json "bin"). It runs the bundle (scripts/bundle-cli.js: CommonJS files
// beside this one, listed in bundle.json) with V8's code cache: `kelp check one.yaml` spent ~80 ms of
// its start parsing the 1.7 MB bundle and compiling the functions a check runs; the cache
// (code-cache/, written at build time by scripts/build-code-cache.js from a sample check) holds their
// bytecode. Node 20 has no code-cache API for ES modules (module.enableCompileCache is Node 22), hence
// CommonJS, and this file is CommonJS too: an ES module entry costs the ESM loader's start. V8 refuses
// a cache written by another V8 or for other flags (cachedDataRejected) and compiles as usual: a stale
// cache costs time, never a wrong answer. Without a bundle (tsc's build only) it runs bin/program.js.
// It stays in src/cli so that it is built to dist/cli/kelp.cjs, beside the bundle it runs (package.json
// "bin", parallel.ts's worker threads, the Dockerfile), but it is the executable's entry: the import test
// places it with src/bin/, above both faces.

/** What scripts/bundle-cli.js writes: the entry and the chunks it requires, dependencies first. */
interface BundleManifest {
  readonly entry: string
  /** The check worker's entry (a thread of `kelp check`). */
  readonly worker: string
  readonly preload: readonly string[]
}
type Program = typeof import('../bin/program.js')

/** Set by scripts/build-code-cache.js: the process writes the cache of what it compiled when it ends. */
const WRITE_ENV = 'KELP_WRITE_CODE_CACHE'
const { Module } = nodeModule
const nodeModulePaths = (Module as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths
const loaded: [vm.Script, string][] = []

/** Runs one CommonJS file of the bundle through vm.Script with its cache, as require would run it. */
function loadScript(dir: string, name: string): unknown {
  const filename = path.join(dir, name)
  const req = nodeModule.createRequire(filename)
  const required = req.cache[filename]
  if (required) return required.exports
  const cacheFile = path.join(dir, 'code-cache', `${name}.bin`)
  const cachedData = fs.existsSync(cacheFile) ? fs.readFileSync(cacheFile) : undefined
  const script = new vm.Script(Module.wrap(fs.readFileSync(filename, 'utf8')), { filename, cachedData })
  loaded.push([script, cacheFile])
  const m = new Module(filename)
  m.filename = filename
  m.paths = nodeModulePaths(dir) // the bundle's dependencies stay packages, found from here
  req.cache[filename] = m // the entry's require("./chunk-….cjs") finds the chunk already run
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run.call(m.exports, m.exports, req, m, filename, dir)
  m.loaded = true
  return m.exports
}

function writeCodeCache(): void {
  for (const [script, file] of loaded) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, script.createCachedData())
  }
}

/**
 * TurboFan's inlining budget per optimized function (V8's default 920 bytecodes): a `kelp check` of
 * 10,000 objects spends about half its CPU before its code is warm, much of it compiling the engine's
 * and the generated CEL's optimized code on V8's background thread. A tenth of the budget cut the CPU
 * of such a check by 8-15 % (bench/cold.js corpora, docs/benchmarks.md) and that of 40,000 objects too.
 * Set before any script is compiled: the code cache is written under the same flags (V8 rejects a cache
 * written under others).
 */
const V8_FLAGS = '--max-inlined-bytecode-size-cumulative=150'

async function start(): Promise<void> {
  v8.setFlagsFromString(V8_FLAGS)
  const manifestFile = path.join(__dirname, 'bundle.json')
  let program: Program
  if (fs.existsSync(manifestFile)) {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BundleManifest
    for (const name of manifest.preload) loadScript(__dirname, name)
    if (process.env.KELP_CHECK_WORKER === '1' && !require('node:worker_threads').isMainThread) {
      // a thread of `kelp check` (src/check/parallel.ts): the bundle's worker, with the same cache
      loadScript(__dirname, manifest.worker)
      return
    }
    program = loadScript(__dirname, manifest.entry) as Program
    if (process.env[WRITE_ENV] === '1') process.once('exit', writeCodeCache)
  } else {
    program = await import('../bin/program.js')
  }
  process.exitCode = await program.main(process.argv.slice(2))
}

void start()
