import { admitOne } from '../../check/admit-one.js'
import type { ApplyAnswer } from '../../engine/apply.js'
import { instantiateMaterial } from '../../engine/material-variables.js'
import { PolicySet, type PolicySetOptions } from '../../engine/policy-set.js'
import type { KubeVersion } from '../../kube/environment.js'
import { derivedNameGenerator } from '../../kube/names.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import { type LoadedObject, parseManifests } from '../../manifest/load.js'
import { kubectlLine } from '../../report/common.js'
import type { Finding, ObjectResult } from '../../report/model.js'
import { kubeVersionOf } from '../../report/usage.js'
import type { EvaluateOptions, Marker, PaneId, PlaygroundResult, PlaygroundState } from './types.js'

// One playground write through the path of `kelp check`: the material's set built as check/prepare.ts builds it
// (the material instantiated for the release, no bundled pack: the material pane is the cluster's), the object
// admitted by check/admit-one.ts (kubectl apply: a create, or over the old object's create for UPDATE), its answer
// worded as kubectl prints it.

/** The file name the object's findings carry: kubectl apply -f - (`error when creating "STDIN"`). */
const OBJECT_FILE = '-'

/** The set built from the material text, kept while the text and the release are unchanged (a keystroke in the object pane rebuilds nothing). */
interface BuiltMaterial {
  readonly key: string
  readonly set: PolicySet
  readonly objects: readonly LoadedObject[]
  readonly markers: readonly Marker[]
}
let lastBuilt: BuiltMaterial | undefined

function yamlMarkers(pane: PaneId, errors: readonly Finding[]): Marker[] {
  return errors.map((e) => ({
    pane,
    line: e.source?.line ?? 1,
    column: e.source?.column ?? 1,
    severity: e.level === 'info' ? 'info' : 'error',
    message: e.message,
  }))
}

function buildMaterial(text: string, release: string, env: KubeVersion): BuiltMaterial {
  const key = `${release}\u0000${text}`
  if (lastBuilt?.key === key) return lastBuilt
  const parsed = parseManifests(text, 'material')
  const markers = yamlMarkers('material', parsed.errors)
  const instantiated = instantiateMaterial(
    parsed.objects.map((o) => o.object),
    env,
  )
  const objects = parsed.objects.map((o, i) => ({ ...o, object: instantiated[i] as JSONObject }))
  const options: PolicySetOptions = {
    version: env,
    release,
    generateName: derivedNameGenerator,
    defaultNamespace: 'default',
  }
  const set = PolicySet.build(
    objects.map((o) => o.object),
    options,
  )
  for (const p of set.problems) {
    const at = objects[p.index]?.source
    markers.push({
      pane: 'material',
      line: at?.line ?? 1,
      column: at?.column ?? 1,
      severity: 'error',
      message: p.message,
    })
  }
  for (const d of set.diagnostics) {
    const at = objects[d.index]?.source
    markers.push({
      pane: 'material',
      line: at?.line ?? 1,
      column: at?.column ?? 1,
      severity: d.level === 'warn' ? 'warning' : 'info',
      message: `${d.kind} "${d.name}": ${d.message}`,
    })
  }
  lastBuilt = { key, set, objects, markers }
  return lastBuilt
}

/** The first object of a pane, or its YAML errors (and a note when it holds more than one). */
function paneObject(pane: PaneId, text: string, markers: Marker[], notes: string[]): LoadedObject | undefined {
  const parsed = parseManifests(text, OBJECT_FILE)
  markers.push(...yamlMarkers(pane, parsed.errors))
  if (parsed.objects.length > 1)
    notes.push(`the ${pane} pane holds ${parsed.objects.length} objects: only the first is written`)
  return parsed.objects[0]
}

const nullMap = (): Record<string, string> => Object.create(null) as Record<string, string>

/** kubectl's name of an object: `deployment.apps/web` (the printer's lower-cased group-kind). */
function resourceName(r: ObjectResult): string {
  const group = r.apiVersion.includes('/') ? r.apiVersion.slice(0, r.apiVersion.indexOf('/')) : ''
  return `${r.kind.toLowerCase()}${group === '' ? '' : `.${group}`}/${r.name}`
}

export function evaluateSync(state: PlaygroundState): PlaygroundResult {
  const markers: Marker[] = []
  const notes: string[] = []
  const result: PlaygroundResult = {
    kubectl: [],
    allowed: false,
    warnings: [],
    auditAnnotations: nullMap(),
    mutated: null,
    nativeErrors: [],
    markers,
    costs: [],
    notes,
  }
  let version: { target: string; env: KubeVersion }
  try {
    version = kubeVersionOf(state.release)
  } catch (e) {
    notes.push((e as Error).message)
    result.kubectl.push(`error: ${(e as Error).message}`)
    return result
  }
  const built = buildMaterial(state.material, version.target, version.env)
  markers.push(...built.markers)
  const object = paneObject('object', state.object, markers, notes)
  const old = state.operation === 'UPDATE' ? paneObject('oldObject', state.oldObject, markers, notes) : undefined
  if (object === undefined) {
    result.kubectl.push(
      markers.some((m) => m.pane === 'object')
        ? 'error: the object does not parse'
        : 'error: no objects passed to apply',
    )
    return result
  }
  let applied: ApplyAnswer | undefined
  const r = admitOne(built.set, object, old?.object, version.target, 'default', true, {
    userInfo: { username: state.user.username, groups: [...state.user.groups] },
    onApplied: (a) => {
      applied = a
    },
  })
  const answer = applied?.result
  for (const f of r.findings) {
    if (f.level === 'warn') result.warnings.push(f.message)
    if (f.level === 'info' || f.level === 'audit') {
      if (f.annotation === undefined) notes.push(f.message)
      continue
    }
    result.kubectl.push(kubectlLine(f, r))
  }
  for (const [k, v] of Object.entries(answer?.auditAnnotations ?? {})) result.auditAnnotations[k] = v
  const accepted =
    r.outcome === 'allowed' || r.outcome === 'warned' || r.outcome === 'audited' || r.outcome === 'unchanged'
  result.allowed = accepted
  if (accepted) {
    const verb = r.outcome === 'unchanged' ? 'unchanged' : r.operation === 'UPDATE' ? 'configured' : 'created'
    result.kubectl.push(`${resourceName(r)} ${verb} (server dry run)`)
  }
  const b = answer?.builtin
  if (b !== undefined && !b.allowed) for (const e of b.errors) result.nativeErrors.push(`${e.field}: ${e.detail}`)
  if (isObject(answer?.mutatedObject)) {
    result.mutated = {
      before: b?.object ?? object.object,
      after: answer.mutatedObject,
      patch: [...(answer.patch ?? [])].map((p) => ({ ...p })),
      diff: '',
    }
  }
  return result
}

/**
 * Evaluates one playground state: the write's answer as kubectl prints it, with markers, costs and notes.
 * `loadSchemas`: how a page reads the built-in kinds' schemas (Node reads the package's files).
 */
export async function evaluatePlayground(state: PlaygroundState, _opts?: EvaluateOptions): Promise<PlaygroundResult> {
  return evaluateSync(state)
}
