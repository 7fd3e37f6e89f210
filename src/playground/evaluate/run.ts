import { BuiltinSchemaFileMissing, missingBuiltinSchemaFiles } from '../../kube/builtin-schemas/index.js'
import { prefetchBuiltinSchemas, provideMissing } from '../../kube/builtin-schemas/prefetch.js'
import type { GroupVersionKind } from '../../kube/gvk.js'
import { kubeVersionOf } from '../../report/usage.js'
import { checkState } from '../state.js'
import { evaluateSync, forgetBuiltMaterial } from './evaluate.js'
import type { EvaluateOptions, PlaygroundResult, PlaygroundState, SchemaSource } from './types.js'

// evaluatePlayground: in Node the engine reads the built-in schemas from the package's files; a page has to
// fetch them (opts.loadSchemas) before the synchronous engine reads them. The kinds the panes name are fetched
// first (their group-versions and the definitions their schemas reach); an evaluation that still asked for a file
// not fetched (a kind a policy matches, ObjectMeta's core/v1) is run again once it is there.

/** Evaluations run again at most for files they asked for (each run fetches every file it missed). */
const MAX_RUNS = 6

/** The data file's bytes through the page's loader (a fetch Response, an ArrayBuffer or bytes). */
function loader(load: SchemaSource): (file: string) => Promise<Uint8Array> {
  return async (file) => {
    const got = await load(`data/builtin-schemas/${file}`)
    // by shape, not instanceof: bytes may come from another realm (a worker's, a frame's)
    if (ArrayBuffer.isView(got)) return new Uint8Array(got.buffer, got.byteOffset, got.byteLength)
    if (!('arrayBuffer' in got)) return new Uint8Array(got)
    if (!got.ok) throw new Error(`kelp playground: data/builtin-schemas/${file}: HTTP ${got.status}`)
    return new Uint8Array(await got.arrayBuffer())
  }
}

/** The group-version-kinds the object panes name (apiVersion and kind read with a regexp: before any parse). */
function paneKinds(state: PlaygroundState): GroupVersionKind[] {
  const kinds: GroupVersionKind[] = [{ group: '', version: 'v1', kind: 'Namespace' }]
  for (const text of [state.object, state.oldObject]) {
    const av = /^apiVersion:\s*["']?([^\s"'#]+)/m.exec(text)?.[1]
    const kind = /^kind:\s*["']?([^\s"'#]+)/m.exec(text)?.[1]
    if (av === undefined || kind === undefined) continue
    const slash = av.indexOf('/')
    kinds.push(
      slash < 0 ? { group: '', version: av, kind } : { group: av.slice(0, slash), version: av.slice(slash + 1), kind },
    )
  }
  return kinds
}

/** Evaluates one playground state: the write's answer as kubectl prints it, with markers, costs and notes. */
export async function evaluatePlayground(given: PlaygroundState, opts?: EvaluateOptions): Promise<PlaygroundResult> {
  const state = checkState(given)
  const load = opts?.loadSchemas === undefined ? undefined : loader(opts.loadSchemas)
  let release: string | undefined
  try {
    release = kubeVersionOf(state.release).target
  } catch {
    release = undefined
  }
  if (load !== undefined && release !== undefined) await prefetchBuiltinSchemas(release, paneKinds(state), load)
  missingBuiltinSchemaFiles()
  for (let run = 1; ; run++) {
    const result = evaluateOnce(state)
    const missing = missingBuiltinSchemaFiles()
    if (missing.length === 0) return result
    // what was built without the files is built again with them
    forgetBuiltMaterial()
    if (load === undefined || run === MAX_RUNS) {
      result.notes.push(
        `the built-in schemas ${missing.join(', ')} were not available${load === undefined ? ' (no loadSchemas given)' : ''}: the answer may lack what they decide`,
      )
      return result
    }
    await provideMissing(missing, load)
  }
}

/** One evaluation; a schema file a page has not fetched yet, met where nothing catches it, is an empty answer. */
function evaluateOnce(state: PlaygroundState): PlaygroundResult {
  try {
    return evaluateSync(state)
  } catch (e) {
    if (!(e instanceof BuiltinSchemaFileMissing)) throw e
    return {
      kubectl: [],
      allowed: false,
      warnings: [],
      auditAnnotations: Object.create(null) as Record<string, string>,
      stored: null,
      mutated: null,
      nativeErrors: [],
      markers: [],
      costs: [],
      notes: [],
    }
  }
}
