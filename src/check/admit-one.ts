import { type ApplyAnswer, kubectlApply, storedOnCreateOf, storedOnUpdateOf } from '../engine/apply.js'
import { applySizeRefusal } from '../engine/apply-sizes.js'
import { kubectlDecodeRefusal, metadataDecoded } from '../engine/kubectl.js'
import type { PolicySet } from '../engine/policy-set.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/parse.js'
import type { UserInfo } from '../policy/attributes.js'
import { forbiddenStatus } from '../policy/generic/status.js'
import { type Finding, type ObjectResult, outcomeOf } from '../report/model.js'
import { apiLifecycleFindings, findingsOf, kubectlAnswer, kubectlRefused, oldRefusal, sizeAnswer } from './findings.js'

// One object admitted as kubectl apply would send it (CREATE, or UPDATE over the previous revision), its answer
// worded as findings: what every object of `kelp check` goes through (admit.ts), and the playground's one write.
// It reads no file (the page runs it).

/** The outcomes of the requests a cluster accepts (and stores the object of). */
const ACCEPTED: ReadonlySet<string> = new Set(['allowed', 'warned', 'audited', 'unchanged'])

/** What a caller beside `kelp check` asks of one admission (the playground: its user, the engine's answer). */
export interface AdmitOneOptions {
  /** The request's user (default: the engine's DEFAULT_USER, as `kelp check`). */
  readonly userInfo?: UserInfo
  /** Called with kubectl apply's answer when one was made (the mutated object, the patch, the costs' inputs). */
  readonly onApplied?: (applied: ApplyAnswer) => void
}

/**
 * One object admitted as kubectl apply sends it: a create, or the three-way patch over what `oldObject`'s create
 * stored; the engine's answer worded as findings at the object's source.
 */
export function admitOne(
  set: PolicySet,
  loaded: LoadedObject,
  oldObject: JSONObject | undefined,
  kubeVersion: string,
  defaultNamespace: string,
  withStored = false,
  extra?: AdmitOneOptions,
): ObjectResult {
  const o = loaded.object
  const source = loaded.source
  const m = isObject(o.metadata) ? o.metadata : {}
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const kind = typeof o.kind === 'string' ? o.kind : ''
  const findings: Finding[] = []
  // Object.assign, not a spread: on Node 20's V8 a spread followed by a new key costs ~1 µs
  const at = (f: Omit<Finding, 'source'>): Finding => Object.assign({}, f, { source })
  let generatedName: string | undefined
  let stored: unknown
  let operation: 'CREATE' | 'UPDATE' = oldObject === undefined ? 'CREATE' : 'UPDATE'
  let unchanged = false
  let requestNamespace: string | undefined
  const result = (): ObjectResult => {
    const namespace = typeof m.namespace === 'string' ? m.namespace : requestNamespace
    // kubectl's `unchanged`: a warning of the GET (a deprecated version) is still printed
    const outcome =
      unchanged && !findings.some((f) => f.level === 'deny' || f.level === 'error') ? 'unchanged' : outcomeOf(findings)
    return {
      source,
      apiVersion,
      kind,
      ...(namespace !== undefined ? { namespace } : {}),
      name: generatedName ?? String(m.name ?? m.generateName ?? ''),
      operation,
      outcome,
      findings,
      ...(stored !== undefined && ACCEPTED.has(outcome) ? { stored: stored as Record<string, unknown> } : {}),
    }
  }

  // the API lifecycle at the target: a version it does not serve is refused, a deprecated one warned of
  const lifecycle = apiLifecycleFindings(apiVersion, kind, kubeVersion)
  if (lifecycle.refusal !== undefined) {
    // kubectl decodes the document before it looks the kind up: metadata that does not decode is its error
    const undecoded = kubectlDecodeRefusal(o, source.file)
    findings.push(at(undecoded === undefined ? lifecycle.refusal : kubectlRefused(undecoded)))
  } else {
    if (lifecycle.warning !== undefined) findings.push(at(lifecycle.warning))
    // kubectl apply: a create, or the three-way patch of the previous revision's stored object (src/engine/apply.ts)
    const applied = kubectlApply(set, {
      manifest: o,
      ...(oldObject !== undefined ? { old: oldObject } : {}),
      namespace: defaultNamespace,
      release: kubeVersion,
      ...(extra?.userInfo !== undefined ? { userInfo: extra.userInfo } : {}),
    })
    extra?.onApplied?.(applied)
    operation = applied.operation
    if (applied.oldRefused !== undefined)
      findings.push(
        at({
          level: 'info',
          type: 'invalid',
          rule: 'apply/old-refused',
          message: `the previous revision of ${kind} "${String(m.name ?? '')}" would have been refused (${oldRefusal(applied.oldRefused)}): the cluster holds no such object, so this is a create`,
        }),
      )
    if (applied.unchanged) {
      // kubectl prints `<kind>/<name> unchanged` and sends nothing: no admission, no answer but the GET's
      unchanged = true
      if (withStored) stored = storedOnUpdateOf(applied, kubeVersion)
      return result()
    }
    if (applied.patchError !== undefined) {
      // kubectl's own error (patcher.go: `error: error when applying patch: …`): nothing sent
      findings.push(at({ level: 'deny', type: 'parse', rule: 'kubectl/patch', message: applied.patchError }))
      return result()
    }
    if (applied.conflict !== undefined) {
      findings.push(
        at({
          level: 'deny',
          type: 'invalid',
          rule: 'apiserver/conflict',
          reason: 'Conflict',
          message: applied.conflict,
        }),
      )
      return result()
    }
    const request = applied.request ?? { error: '' }
    const answer = applied.result!
    // a namespaced object without a namespace goes to -n's (a Namespace's requests carry its own name)
    if (!('error' in request) && request.namespace !== '' && !(kind === 'Namespace' && apiVersion === 'v1'))
      requestNamespace = request.namespace
    generatedName = answer.generatedName
    // the object as the cluster stores it (-o yaml): the create's (src/builtin/stored.ts), the update's
    if (withStored && applied.request !== undefined)
      stored =
        applied.operation === 'UPDATE'
          ? storedOnUpdateOf(applied, kubeVersion)
          : storedOnCreateOf(answer, applied.request, kubeVersion)
    else if (withStored) stored = answer.customResource?.object ?? answer.builtin?.object
    // the Forbidden Status names the object by its generated name, as the cluster's does
    const denial = (message: string, reason: string) =>
      'error' in request
        ? message
        : forbiddenStatus(generatedName !== undefined ? { ...request, name: generatedName } : request, message, reason)
            .message
    const own = findingsOf(answer, kind, denial)
    // what kubectl refuses before sending, in its words (src/engine/kubectl.ts)
    const answered = kubectlAnswer(own, o, source.file, metadataDecoded(answer.builtin))
    // a refusal of kubectl's own: nothing was sent, so no warning came back either
    const refused = answered.length === 1 && answered[0]!.rule === 'kubectl/refused'
    if (refused) findings.length = 0
    // what kubectl sends may be over the apiserver's limits (src/engine/apply-sizes.ts)
    const size = refused
      ? undefined
      : applySizeRefusal(
          o,
          operation === 'UPDATE' ? oldObject : undefined,
          'error' in request ? undefined : request.namespace,
        )
    for (const f of size === undefined ? answered : sizeAnswer(size, answered)) findings.push(at(f))
  }
  return result()
}
