import { isObject, type JSONObject } from '../kube/values/json.js'
import { readRevision } from '../manifest/git.js'
import { loadManifests, parseManifests } from '../manifest/load.js'
import { pushAll } from '../report/common.js'
import type { Finding } from '../report/model.js'
import type { CheckOptions } from './options.js'

// The previous revision of the inputs (--old paths, or --base: a git revision), by identity: what the
// cluster holds when the inputs are applied (admit.ts makes such an object's write an UPDATE).

/**
 * Identity across revisions: API group (not version), kind, namespace, name. An object with no name
 * (generateName) has none: every write of it creates a new object.
 */
export function identity(o: JSONObject, defaultNamespace: string): string | undefined {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : ''
  const m = isObject(o.metadata) ? o.metadata : {}
  if (typeof m.name !== 'string' || m.name === '') return undefined
  return [group, o.kind, m.namespace ?? defaultNamespace, m.name].join('\0')
}

/** The objects of the previous revision by identity (empty without --old or --base); its errors to `diagnostics`. */
export function readOlds(
  options: Pick<CheckOptions, 'base' | 'old' | 'paths'>,
  inputFiles: readonly string[],
  defaultNamespace: string,
  diagnostics: Finding[],
): Map<string, JSONObject> {
  const olds = new Map<string, JSONObject>()
  if (options.base !== undefined) {
    const rev = readRevision(options.base, options.paths, inputFiles)
    pushAll(diagnostics, rev.errors)
    // objects of the same path first, so that an identity found in two old files resolves to its own file's
    const ordered = [...rev.files.filter((f) => !f.isInput), ...rev.files.filter((f) => f.isInput)]
    for (const f of ordered) {
      const r = parseManifests(f.text, f.name)
      if (f.isInput) pushAll(diagnostics, r.errors)
      for (const o of r.objects) {
        const id = identity(o.object, defaultNamespace)
        if (id !== undefined) olds.set(id, o.object)
      }
    }
  } else if (options.old !== undefined && options.old.length > 0) {
    const oldLoaded = loadManifests(options.old)
    pushAll(diagnostics, oldLoaded.errors)
    for (const o of oldLoaded.objects) {
      const id = identity(o.object, defaultNamespace)
      if (id !== undefined) olds.set(id, o.object)
    }
  }
  return olds
}
