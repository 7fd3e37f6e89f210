import { skippedChecks } from '../../builtin/validation/certificates/signature.js'
import { goQuote } from '../../cel/ext/quote.js'
import { admitOne } from '../../check/admit-one.js'
import { findingsOf } from '../../check/findings.js'
import { type ApplyAnswer, kubectlApply, storedOnCreateOf } from '../../engine/apply.js'
import { NO_OBJECTS_PASSED } from '../../engine/kubectl.js'
import { instantiateMaterial } from '../../engine/material-variables.js'
import { type AdmitResult, isAdmissionStatus, PolicySet, type PolicySetOptions } from '../../engine/policy-set.js'
import type { KubeVersion } from '../../kube/environment.js'
import { errorString, type InvalidStatus, kubectlInvalidText } from '../../kube/field.js'
import { derivedNameGenerator } from '../../kube/names.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import { yamlPackage } from '../../kube/yaml/yaml-package.js'
import { type LoadedObject, parseManifests } from '../../manifest/parse.js'
import type { UserInfo } from '../../policy/attributes.js'
import { forbiddenStatus } from '../../policy/generic/status.js'
import { jsonDiff } from '../../policy/mutating/diff.js'
import { kubectlLine } from '../../report/common.js'
import type { Finding, ObjectResult } from '../../report/model.js'
import { kubeVersionOf } from '../../report/usage.js'
import { checkedCache } from './checked-cache.js'
import { costRows, recordCosts } from './costs.js'
import { unifiedDiff } from './diff.js'
import { PaneText } from './markers.js'
import type { CostRow, Marker, PaneId, PlaygroundResult, PlaygroundState } from './types.js'

// One playground write through the path of `kelp check`: the material's set built as check/prepare.ts builds it
// (the material instantiated for the release; no bundled pack: the material pane is what the cluster holds), the
// object admitted by check/admit-one.ts (kubectl apply: a create, or for UPDATE an apply over what the old
// object's create stored), its answer worded by check/findings.ts and report/common.ts as kubectl prints it.
// DELETE, which kelp check does not send, is the engine's admission of `kubectl delete` of what the object's
// create stored. Synchronous (the engine is); index.ts fetches the schemas a page lacks and runs it again.

/** The file the object's findings name: kubectl apply -f - (`error when creating "STDIN"`). */
const OBJECT_FILE = '-'
/** kubectl's context namespace: where a namespaced object without one goes. */
const NAMESPACE = 'default'

/** What is built from the material text alone: kept while the text and the release are unchanged. */
interface BuiltMaterial {
  readonly key: string
  readonly set: PolicySet
  readonly objects: readonly LoadedObject[]
  readonly markers: readonly Marker[]
  /** The cost rows without their run-time figures. */
  readonly costs: readonly CostRow[]
}
let lastBuilt: BuiltMaterial | undefined

/** Forgets the built material (a page that provided schema files builds it again with them). */
export function forgetBuiltMaterial(): void {
  lastBuilt = undefined
}

const severityOf = (level: Finding['level'] | 'warn' | 'info'): Marker['severity'] =>
  level === 'warn' ? 'warning' : level === 'info' || level === 'audit' ? 'info' : 'error'

function yamlMarkers(pane: PaneId, errors: readonly Finding[]): Marker[] {
  return errors.map((e) => ({
    pane,
    line: e.source?.line ?? 1,
    column: e.source?.column ?? 1,
    severity: severityOf(e.level),
    message: e.message,
  }))
}

function buildMaterial(text: string, release: string, env: KubeVersion): BuiltMaterial {
  const key = `${release}\u0000${text}`
  if (lastBuilt?.key === key) return lastBuilt
  const parsed = parseManifests(text, 'material')
  const markers = yamlMarkers('material', parsed.errors)
  // the pack's per-release variables set for the release, as kelp check does to all material (check/pack.ts)
  const instantiated = instantiateMaterial(
    parsed.objects.map((o) => o.object),
    env,
  )
  const objects = parsed.objects.map((o, i) => ({ ...o, object: instantiated[i] as JSONObject }))
  // check/prepare.ts gather()'s options, without the pack's and --openapi's
  const options: PolicySetOptions = {
    version: env,
    release,
    generateName: derivedNameGenerator,
    defaultNamespace: NAMESPACE,
    // the expressions an earlier build checked are planned without parsing and checking (kelp check does so for the pack)
    checkedCache,
  }
  const set = PolicySet.build(
    objects.map((o) => o.object),
    options,
  )
  const pane = new PaneText('material', text)
  for (const p of set.problems) {
    const o = objects[p.index]
    if (o === undefined) continue
    // each cause at its field (a compile error at its character); the whole Status when none names a field
    const causes = p.errors.filter((e) => e.field !== '')
    if (causes.length === 0) markers.push(...pane.markers(o, undefined, 'error', p.message))
    for (const e of causes)
      markers.push(...pane.markers(o, e.field, 'error', `${p.kind} "${p.name}": ${errorString(e)}`))
  }
  for (const d of set.diagnostics) {
    const o = objects[d.index]
    if (o !== undefined)
      markers.push(...pane.markers(o, d.field, severityOf(d.level), `${d.kind} "${d.name}": ${d.message}`))
  }
  const costs = costRows(
    objects.map((o) => o.object),
    set.crds,
    env,
    new Map(),
  )
  lastBuilt = { key, set, objects, markers, costs }
  return lastBuilt
}

/** The first object of a pane, or its YAML errors (and a note when it holds more than one). */
function paneObject(
  pane: PaneId,
  text: string,
  markers: Marker[],
  notes: string[],
  errors?: Finding[],
): LoadedObject | undefined {
  const parsed = parseManifests(text, OBJECT_FILE)
  markers.push(...yamlMarkers(pane, parsed.errors))
  errors?.push(...parsed.errors)
  if (parsed.objects.length > 1)
    notes.push(`the ${pane} pane holds ${parsed.objects.length} objects: only the first is written`)
  return parsed.objects[0]
}

const nullMap = (): Record<string, string> => Object.create(null) as Record<string, string>

/** kubectl's name of an object: `deployment.apps/web` (its printer's lower-cased group-kind). */
function resourceName(apiVersion: string, kind: string, name: string): string {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  return `${kind.toLowerCase()}${group === '' ? '' : `.${group}`}/${name}`
}

/** kubectl -o yaml's text of an object (sigs.k8s.io/yaml: keys sorted; report/yaml.ts's options). */
const toYAML = (o: unknown): string =>
  yamlPackage().stringify(o, { version: '1.1', sortMapEntries: true, lineWidth: 0, indentSeq: false })

/**
 * The findings' part of the result: the warnings kubectl prints, then the one error it prints (the Status of the
 * first refusal: several native causes as kubectl lists them, report/common.ts's wording otherwise); notes.
 */
function worded(
  result: PlaygroundResult,
  findings: readonly Finding[],
  o: ObjectResult | undefined,
  answer: AdmitResult | undefined,
): void {
  const errors: Finding[] = []
  for (const f of findings) {
    if (f.level === 'warn') {
      result.warnings.push(f.message)
      result.kubectl.push(kubectlLine(f, o))
    } else if (f.level === 'info' || f.level === 'audit') {
      // audit annotations are the answer's (kubectl prints none); other information is a note
      if (f.annotation === undefined) result.notes.push(f.message)
    } else errors.push(f)
  }
  // a kind the cluster does not serve: kubectl's mapping fails before it sends anything (kelp's reason a note)
  const unserved = findings.find((f) => f.rule === 'kind/unknown' || (f.type === 'not-served' && f.level === 'deny'))
  if (unserved !== undefined && o !== undefined) {
    if (unserved.level !== 'info') result.notes.push(unserved.message)
    result.kubectl.push(noMapping(o))
    return
  }
  const first = errors[0]
  if (first === undefined) return
  const status = answer?.status
  const native = (f: Finding) => f.type === 'invalid' && (f.rule.startsWith('builtin/') || f.rule.startsWith('crd/'))
  if (
    errors.length > 1 &&
    errors.every(native) &&
    status !== undefined &&
    !isAdmissionStatus(status) &&
    'details' in status &&
    status.code === 422
  )
    result.kubectl.push(kubectlInvalidText(status as InvalidStatus).replace(/\n$/, ''))
  else result.kubectl.push(kubectlLine(first, o))
}

/**
 * kubectl's error for a kind its discovery does not map (cli-runtime resource mapping; the object's own namespace,
 * as written): `error: resource mapping not found for name: … ensure CRDs are installed first`.
 */
function noMapping(o: ObjectResult): string {
  const written = o.source.file === OBJECT_FILE ? 'STDIN' : o.source.file
  return `error: resource mapping not found for name: ${goQuote(o.name)} namespace: ${goQuote(o.namespace ?? '')} from ${goQuote(written)}: no matches for kind ${goQuote(o.kind)} in version ${goQuote(o.apiVersion)}\nensure CRDs are installed first`
}

/** What the answer says of the object itself: its kind's or CRD's validation causes, the audit annotations. */
function answered(result: PlaygroundResult, answer: AdmitResult | undefined): void {
  if (answer === undefined) return
  for (const [k, v] of Object.entries(answer.auditAnnotations)) result.auditAnnotations[k] = v
  const b = answer.builtin
  if (b !== undefined && !b.allowed) for (const e of b.errors) result.nativeErrors.push(errorString(e))
  const cr = answer.customResource
  if (cr !== undefined && !cr.allowed) for (const e of cr.errors) result.nativeErrors.push(errorString(e))
}

/** The mutating policies' change: the object they received (the answer without them) and the one they left. */
function mutation(set: PolicySet, applied: ApplyAnswer): PlaygroundResult['mutated'] {
  const after = applied.result?.mutatedObject
  if (!isObject(after) || applied.request === undefined) return null
  const without = set.admit(applied.request, { mutating: false })
  const before = without.customResource?.object ?? without.builtin?.object ?? applied.request.object
  return {
    before,
    after,
    patch: jsonDiff(before, after).map((p) => ({ ...p })),
    diff: unifiedDiff(toYAML(before), toYAML(after)),
  }
}

/** What the object's create stored (the object a DELETE removes), or undefined when the create stores nothing. */
function storedObject(set: PolicySet, o: JSONObject, release: string, userInfo: UserInfo): JSONObject | undefined {
  const created = kubectlApply(set, { manifest: o, namespace: NAMESPACE, release, userInfo })
  return created.request !== undefined && created.result !== undefined
    ? storedOnCreateOf(created.result, created.request, release)
    : undefined
}

/** `kubectl delete --dry-run=server` of what the object's create stored. */
function deleteAnswer(
  result: PlaygroundResult,
  set: PolicySet,
  o: JSONObject,
  stored: JSONObject | undefined,
  userInfo: UserInfo,
): void {
  if (stored === undefined) result.notes.push('the object would not be created: the DELETE is of the object as written')
  const request = set.request(stored ?? o, {
    operation: 'DELETE',
    oldObject: stored ?? o,
    namespace: NAMESPACE,
    userInfo,
  })
  const kind = typeof o.kind === 'string' ? o.kind : ''
  if ('error' in request) {
    result.kubectl.push(`error: ${request.error}`)
    return
  }
  const answer = set.admit(request)
  answered(result, answer)
  const denial = (message: string, reason: string) => forbiddenStatus(request, message, reason).message
  worded(result, findingsOf(answer, kind, denial), undefined, answer)
  result.allowed = answer.allowed
  if (answer.allowed) {
    // kubectl 1.37's delete names the namespace of a namespaced object (a Namespace's request carries its own name)
    const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
    const [resource, name] = resourceName(av, kind, request.name).split('/') as [string, string]
    const namespaced = request.namespace !== '' && request.resource.resource !== 'namespaces'
    result.kubectl.push(
      `${resource} "${name}" deleted${namespaced ? ` from ${request.namespace} namespace` : ''} (server dry run)`,
    )
  }
}

/** One evaluation, synchronously (index.ts's evaluatePlayground provides the schemas a page has to fetch). */
export function evaluateSync(state: PlaygroundState): PlaygroundResult {
  const markers: Marker[] = []
  const notes: string[] = []
  const result: PlaygroundResult = {
    kubectl: [],
    allowed: false,
    warnings: [],
    auditAnnotations: nullMap(),
    stored: null,
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
    result.kubectl.push(`error: ${(e as Error).message}`)
    return result
  }
  skippedChecks()
  const built = buildMaterial(state.material, version.target, version.env)
  markers.push(...built.markers)
  const objectErrors: Finding[] = []
  const object = paneObject('object', state.object, markers, notes, objectErrors)
  const old = state.operation === 'UPDATE' ? paneObject('oldObject', state.oldObject, markers, notes) : undefined
  if (state.operation === 'UPDATE' && old === undefined && !markers.some((m) => m.pane === 'oldObject'))
    notes.push('UPDATE without an old object: the write is a create')
  if (object === undefined) {
    // kelp check's words for a document that does not parse, or kubectl's for none
    const error = objectErrors.find((e) => e.level === 'error')
    result.kubectl.push(error !== undefined ? kubectlLine(error) : `error: ${NO_OBJECTS_PASSED}`)
    result.costs = built.costs.map((r) => ({ ...r }))
    return result
  }
  const userInfo: UserInfo = { username: state.user.username, groups: [...state.user.groups] }
  // the object a DELETE removes: what its create stored (that create's costs are not this write's)
  const stored =
    state.operation === 'DELETE' ? storedObject(built.set, object.object, version.target, userInfo) : undefined
  const { costs } = recordCosts(() => {
    if (state.operation === 'DELETE') {
      deleteAnswer(result, built.set, object.object, stored, userInfo)
      return
    }
    let applied: ApplyAnswer | undefined
    const r = admitOne(built.set, object, old?.object, version.target, NAMESPACE, true, {
      userInfo,
      onApplied: (a) => {
        applied = a
      },
    })
    worded(result, r.findings, r, applied?.result)
    answered(result, applied?.result)
    result.allowed = r.stored !== undefined || r.outcome === 'unchanged'
    result.stored = r.stored ?? null
    if (result.allowed) {
      const verb = r.outcome === 'unchanged' ? 'unchanged' : r.operation === 'UPDATE' ? 'configured' : 'created'
      result.kubectl.push(`${resourceName(r.apiVersion, r.kind, r.name)} ${verb} (server dry run)`)
    }
    if (applied !== undefined) result.mutated = mutation(built.set, applied)
  })
  result.costs = built.costs.map((row) => ({ ...row, actual: costs.get(row.expression) ?? null }))
  const skipped = skippedChecks()
  if (skipped.signatures > 0)
    notes.push(
      "the request's signature was not verified: the page has no synchronous public-key crypto (kelp check verifies it)",
    )
  if (skipped.certificates > 0)
    notes.push(
      "the bundle's certificates were not parsed as X.509: the page has no certificate parser (kelp check parses them)",
    )
  return result
}
