// Node's built-in modules where the host is Node, read when first needed through process.getBuiltinModule (Node
// 20.16 and later) instead of imported: the core runs in a browser page too (src/playground), which has none, and
// a static `node:` import would fail to load there. Each caller says what it does without one (the page's seams).

type BuiltInModules = {
  'node:buffer': typeof import('node:buffer')
  'node:crypto': typeof import('node:crypto')
  'node:fs': typeof import('node:fs')
  'node:module': typeof import('node:module')
  'node:path': typeof import('node:path')
  'node:url': typeof import('node:url')
  'node:zlib': typeof import('node:zlib')
}

interface NodeProcess {
  readonly getBuiltinModule?: (id: string) => unknown
}

/** The built-in module, or undefined where the host is no Node (a browser). */
export function nodeModule<K extends keyof BuiltInModules>(id: K): BuiltInModules[K] | undefined {
  const p = (globalThis as { process?: NodeProcess }).process
  return p?.getBuiltinModule?.(id) as BuiltInModules[K] | undefined
}

/** The built-in module where it must be there (a file read by Node): a clear error elsewhere. */
export function requireNodeModule<K extends keyof BuiltInModules>(id: K, why: string): BuiltInModules[K] {
  const m = nodeModule(id)
  if (m === undefined) throw new Error(`kelp: ${why} needs Node.js 20.16 or later (${id}); this host has none`)
  return m
}

/** A CommonJS package required from Node (`yaml`: loaded on first use, not at every start), or undefined in a page. */
export function requirePackage(name: string, from: string): unknown {
  const m = nodeModule('node:module')
  return m === undefined ? undefined : m.createRequire(from)(name)
}
