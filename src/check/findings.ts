import { recordWarnings } from '../builtin/warnings/recorder.js'
import { apiVersionStatus } from '../engine/api-versions.js'
import { MAX_REQUEST_BODY_BYTES, type SizeRefusal, TOTAL_ANNOTATION_SIZE_LIMIT } from '../engine/apply-sizes.js'
import { kubectlRefusal, unknownFieldsInKubectlOrder } from '../engine/kubectl.js'
import { lifecycleOf } from '../engine/lifecycle.js'
import { type AdmitResult, isAdmissionStatus } from '../engine/policy-set.js'
import { errorString } from '../kube/field.js'
import type { JSONObject } from '../kube/values/json.js'
import type { Finding } from '../report/model.js'

// The engine's answers as findings (no source yet: admit.ts places them at their object). A Deny is worded as
// the apiserver's Status message (`deployments.apps "web" is forbidden: ValidatingAdmissionPolicy …`) with its
// reason, from which the formatters print kubectl's line. No Kubernetes rule is decided here: the engine
// answers (src/engine: admission, kubectl's own refusals, the size limits), this file words the answers.

type Unplaced = Omit<Finding, 'source'>

/**
 * The API lifecycle of an apiVersion and kind at the target release as findings: `refusal` when the release
 * does not serve it (removed, not yet introduced, or off unless --runtime-config enables it; nothing is
 * admitted), else `warning` when it is deprecated (the apiserver's warning).
 */
export function apiLifecycleFindings(
  apiVersion: string,
  kind: string,
  release: string,
): { readonly refusal?: Unplaced; readonly warning?: Unplaced } {
  // the texts are the engine's (src/engine/lifecycle.ts); the CLI only files them as refusal or warning
  const lifecycle = lifecycleOf(apiVersionStatus(apiVersion, kind, release))
  if (lifecycle === undefined) return SERVED
  if (lifecycle.status === 'deprecated')
    return { warning: { level: 'warn', type: 'deprecated', rule: 'api/deprecated', message: lifecycle.message } }
  const rule = lifecycle.status === 'removed' ? 'api/removed' : 'api/not-served'
  return { refusal: { level: 'deny', type: 'not-served', rule, message: lifecycle.message } }
}

/** A served, current version: nothing to say (one object for every such answer, admission's common case). */
const SERVED: { readonly refusal?: Unplaced; readonly warning?: Unplaced } = Object.freeze({})

/** A refusal of kubectl's own (type parse: no Status reason, printed `error: <message>` as kubectl prints it). */
export const kubectlRefused = (message: string): Unplaced => ({
  level: 'deny',
  type: 'parse',
  rule: 'kubectl/refused',
  message,
})

/**
 * The answer as kubectl prints it: a refusal of kubectl's own (src/engine/kubectl.ts) replaces the apiserver's,
 * which it never asked; else the findings, a strict decoding error's unknown fields in the order of kubectl's body.
 */
export function kubectlAnswer(findings: Unplaced[], o: JSONObject, file: string, metadataDecoded: boolean): Unplaced[] {
  const refusal = kubectlRefusal(o, file, metadataDecoded)
  if (refusal !== undefined) return [kubectlRefused(refusal)]
  return findings.map((f) => {
    const message = unknownFieldsInKubectlOrder(f.message)
    return message === undefined ? f : { ...f, message }
  })
}

/** Why the engine refused the previous revision's create (its first error). */
export function oldRefusal(r: AdmitResult): string {
  const b = r.builtin
  const e = b?.errors[0] ?? r.customResource?.errors[0]
  if (e !== undefined) return errorString(e)
  return b?.message ?? r.customResource?.message ?? r.status?.message ?? 'not served'
}

/**
 * The answer to a request over a size limit: the body's 413 replaces every other (the apiserver reads no further);
 * the annotations' 422 joins the other causes of the registry's validation, which runs after decoding and before
 * the validating admission policies (their findings go; a request that does not decode keeps its 400, and one
 * kubectl cannot send keeps kubectl's error).
 */
export function sizeAnswer(size: SizeRefusal, answered: Unplaced[]): Unplaced[] {
  if (answered.some((f) => f.type === 'not-served')) return answered
  if (size.limit === 'body')
    return [
      {
        level: 'deny',
        type: 'invalid',
        rule: 'apiserver/request-too-large',
        reason: 'RequestEntityTooLarge',
        message: `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`,
      },
    ]
  if (answered.some((f) => f.reason === 'BadRequest')) return answered
  const message = `metadata.annotations: Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`
  // an UPDATE's object carries the new annotation (src/engine/apply.ts): the native validation found it already
  const causes = answered.filter((f) => f.level === 'deny' && f.type === 'invalid' && f.message !== message)
  return [
    {
      level: 'deny',
      type: 'invalid',
      rule: 'apiserver/annotations-too-long',
      reason: 'Invalid',
      field: 'metadata.annotations',
      // the apiserver's words: that the annotation is kubectl's copy of the object is said nowhere (README)
      message,
    },
    ...causes,
  ]
}

/** What each MutatingAdmissionPolicy changed (info), or the errors that denied the request. */
function mutationFindings(r: AdmitResult): Unplaced[] {
  const out: Unplaced[] = []
  for (const e of r.mutationErrors ?? [])
    out.push({
      level: 'deny',
      type: 'policy',
      rule: `map/${e.policy}`,
      policy: e.policy,
      ...(e.binding !== undefined ? { binding: e.binding } : {}),
      ...(r.status?.reason !== undefined ? { reason: r.status.reason } : {}),
      message: e.text,
    })
  for (const m of r.mutations ?? []) {
    const ops = m.patch.map((p) =>
      p.op === 'remove' ? `-${p.path}` : `${p.op === 'add' ? '+' : '~'}${p.path}=${JSON.stringify(p.value)}`,
    )
    out.push({
      level: 'info',
      type: 'policy',
      rule: `map/${m.policy}`,
      policy: m.policy,
      binding: m.binding,
      message: `MutatingAdmissionPolicy '${m.policy}' with binding '${m.binding}'${m.param !== undefined ? ` (param ${m.param})` : ''}${m.pass === 2 ? ' (reinvoked)' : ''} changed: ${ops.join(', ')}`,
    })
  }
  return out
}

/** An answer with nothing to report (the common case): allowed, nothing warned, noted or annotated. */
function isClean(r: AdmitResult): boolean {
  if (!r.allowed || r.status !== undefined || r.violations.length > 0 || r.warnings.length > 0) return false
  if (r.noMatch !== undefined || r.customResource !== undefined || r.mutations !== undefined) return false
  if (r.pluginsNotRun !== undefined) return false
  if (
    r.mutationErrors !== undefined ||
    (r.builtin !== undefined && (!r.builtin.allowed || r.builtin.nativeValidation !== 'validated'))
  )
    return false
  for (const _ in r.auditAnnotations) return false
  return true
}

/** The rule of an in-tree admission plugin's note that it did not run (followed by the plugin's name). */
export const PLUGIN_NOT_RUN = 'admission/not-run/'

/** The engine's answer to an admitted request as findings. */
export function findingsOf(
  r: AdmitResult,
  kind: string,
  denial: (message: string, reason: string) => string,
): Unplaced[] {
  if (isClean(r)) return []
  const out: Unplaced[] = mutationFindings(r)
  // an in-tree plugin without its input (report() keeps the first of each per run: `admission/not-run/…`)
  for (const note of r.pluginsNotRun ?? [])
    out.push({
      level: 'info',
      type: 'invalid',
      rule: `${PLUGIN_NOT_RUN}${note.slice(0, note.indexOf(' '))}`,
      message: note,
    })
  // an in-tree admission plugin's refusal (Forbidden; NamespaceLifecycle's NotFound): no policy ran
  if (r.admissionPlugin !== undefined && !r.allowed && r.status !== undefined) {
    const reason = r.status.reason ?? 'Forbidden'
    out.push({
      level: 'deny',
      type: 'invalid',
      rule: `admission/${r.admissionPlugin}`,
      reason,
      message: r.status.message,
    })
    return out
  }
  const cr = r.customResource
  // 404 `no matches for kind`: kubectl apply fails on it, unless a CRD the inputs lack would serve it
  const noMatch = r.noMatch ?? (r.status?.code === 404 && cr === undefined ? { reason: 'no-crd' as const } : undefined)
  if (noMatch !== undefined) {
    const message = r.status?.message ?? cr?.message ?? ''
    if (noMatch.reason === 'no-crd') {
      out.push({
        level: 'info',
        type: 'not-served',
        rule: 'kind/unknown',
        message: `${message} (no CRD for it was given: not validated)`,
      })
      return out
    }
    const why =
      noMatch.reason === 'version-not-served'
        ? `CustomResourceDefinition "${noMatch.crd}" does not serve this version`
        : noMatch.reason === 'crd-refused'
          ? `its CustomResourceDefinition "${noMatch.crd}" was refused`
          : 'not served by the target release; a group without a dot cannot come from a CRD'
    out.push({ level: 'deny', type: 'not-served', rule: 'kind/not-served', message: `${message} (${why})` })
    return out
  }
  // a built-in object that does not decode: 400 BadRequest before any admission (src/builtin)
  const b = r.builtin
  if (b !== undefined && !b.allowed && b.errors.length > 0) {
    // the kind's native validation refused it: 422 Invalid, one finding per cause (as the CR path); a cause
    // whose text repeats one before is printed once, as kubectl prints the causes (an aggregate of their
    // texts, which drops repeats: apimachinery util/errors aggregate.Error)
    // the warnings added before validation refused it (unknown fields, a Pod's AppArmor annotations)
    out.push(...warningFindings(r.warnings, kind))
    const seen = new Set<string>()
    for (const e of b.errors) {
      const text = errorString(e)
      if (seen.has(text)) continue
      seen.add(text)
      out.push({
        level: 'deny',
        type: 'invalid',
        rule: `builtin/${kind}`,
        reason: 'Invalid',
        message: errorString(e),
        ...(e.field ? { field: e.field } : {}),
      })
    }
    return out
  }
  if (b !== undefined && !b.allowed) {
    out.push({
      level: 'deny',
      type: 'invalid',
      rule: `builtin/${kind}`,
      reason: b.status?.reason ?? 'BadRequest',
      message: b.message ?? b.status?.message ?? '',
    })
    return out
  }
  if (b?.nativeValidation === 'not-covered') {
    out.push({
      level: 'info',
      type: 'invalid',
      rule: 'builtin/not-covered',
      message: `the native validation of ${kind} is not covered by kelp: decoded and defaulted as the apiserver does, not validated as its registry would`,
    })
  }
  if (cr?.conversionWebhook !== undefined) {
    out.push({
      level: 'info',
      type: 'invalid',
      rule: 'crd/conversion-webhook',
      message: `the CRD converts this version to its storage version with a webhook (${cr.conversionWebhook}), which the apiserver calls to store the object (a dry run too): its answer is not checked by kelp`,
    })
  }
  if (cr !== undefined && !cr.allowed) {
    if (cr.errors.length > 0) {
      for (const e of cr.errors) {
        out.push({
          level: 'deny',
          type: 'invalid',
          rule: `crd/${kind}`,
          message: errorString(e),
          ...(e.field ? { field: e.field } : {}),
        })
      }
    } else {
      // a request the apiserver refuses before validation: its Status reason decides kubectl's line (400: a body
      // that does not decode, strict unknown fields included: `Error from server (BadRequest): …`; 504: one it
      // does not finish validating within the request's timeout, `Error from server (Timeout): …`)
      const request = cr.status?.code === 400 || cr.status?.code === 504 ? cr.status : undefined
      out.push({
        level: 'deny',
        type: cr.status?.code === 404 ? 'not-served' : 'invalid',
        rule: `crd/${kind}`,
        ...(request !== undefined ? { reason: request.reason } : {}),
        message: request !== undefined ? request.message : (cr.message ?? ''),
      })
    }
  }
  // the policies' Warn findings by their text: printed where their warning sits among the others
  const policyWarnings = new Map<string, Unplaced>()
  // a Warn text written here, not the dispatcher's: it may be missing from r.warnings
  let written = false
  // the denials, then the warnings, then the audit findings
  const audits: Unplaced[] = []
  for (const v of r.violations) {
    const who =
      v.binding !== undefined
        ? `ValidatingAdmissionPolicy '${v.policy}' with binding '${v.binding}'`
        : `ValidatingAdmissionPolicy '${v.policy}'`
    for (const action of v.actions) {
      if (action === 'Deny') {
        const reason = v.reason ?? 'Invalid'
        out.push(policyFinding(v, 'deny', denial(`${who} denied request: ${v.message}`, reason), reason))
      } else if (action === 'Warn') {
        // the dispatcher's string when it gave it (r.warnings holds that one: no copy to hash)
        const message = v.warning ?? `Validation failed for ${who}: ${v.message}`
        if (v.warning === undefined) written = true
        if (!policyWarnings.has(message)) policyWarnings.set(message, policyFinding(v, 'warn', message))
      } else if (action === 'Audit')
        // no `Audit: ` in the message: the formatters add it, as they add `Warning: ` (docs/cli-json.md)
        audits.push(policyFinding(v, 'audit', `validation failed for ${who}: ${v.message}`))
    }
  }
  // the refusal of the in-tree validating plugin kelp runs (PodSecurity): its Status, no policy behind it
  if (!r.allowed && r.violations.length === 0 && r.mutationErrors === undefined && isAdmissionStatus(r.status))
    out.push({
      level: 'deny',
      type: 'policy',
      rule: 'admission/PodSecurity',
      reason: r.status.reason,
      message: r.status.message,
    })
  // the warnings in the order the apiserver added them (unknown fields, the strategy's, the policies', the
  // PodSecurity plugin's), as its recorder sends them (src/builtin/warnings/recorder.ts)
  let added: readonly string[] = r.warnings
  if (written) {
    const given = new Set(r.warnings)
    added = [...r.warnings, ...[...policyWarnings.keys()].filter((w) => !given.has(w))]
  }
  out.push(...warningFindings(added, kind, policyWarnings))
  out.push(...audits)
  for (const [key, value] of Object.entries(r.auditAnnotations)) {
    if (key === 'validation.policy.admission.k8s.io/validation_failure') continue
    // the key in `annotation`, the value as the message (docs/cli-json.md); text prints `Audit: <key>=<value>`
    const policy = key.split('/')[0] as string
    out.push({ level: 'info', type: 'policy', rule: `audit/${policy}`, policy, message: value, annotation: key })
  }
  return out
}

/**
 * The response's warnings (`added` in the order the apiserver added them) as findings: a policy's Warn as its
 * policy finding, any other as a warning of the request (deprecated CRD versions, unknown fields, the
 * strategies' warnings); deduplicated and truncated as the apiserver's recorder sends them.
 */
function warningFindings(added: readonly string[], kind: string, policies?: ReadonlyMap<string, Unplaced>): Unplaced[] {
  if (added.length === 0) return []
  const sent = recordWarnings(added)
  return sent.map((w) => {
    const policy = policies?.get(w)
    if (policy !== undefined) return policy
    // a policy's warning the recorder cut to 256 runes: still the policy's finding, with the text as sent
    const cutPolicy = policies === undefined ? undefined : cutFrom(policies, w)
    if (cutPolicy !== undefined) return { ...cutPolicy, message: w }
    // the PodSecurity plugin's warn mode (src/engine/admission/pod-security.ts) is a policy's warning, not a deprecation
    if (w.startsWith('would violate PodSecurity '))
      return { level: 'warn', type: 'policy', rule: 'admission/PodSecurity', message: w }
    return { level: 'warn', type: 'deprecated', rule: `warning/${kind}`, message: w }
  })
}

/** The first policy finding whose text is longer than `w` and begins with it (a loop: no array per warning). */
function cutFrom(policies: ReadonlyMap<string, Unplaced>, w: string): Unplaced | undefined {
  for (const [k, f] of policies) if (k !== w && k.startsWith(w)) return f
  return undefined
}

/**
 * A violation's finding, keys in the order JSON output prints them. Built key by key: on Node 20 a
 * spread followed by keys the spread object lacks takes V8's slow path (~1 µs a call; benchmarks.md).
 */
function policyFinding(
  v: AdmitResult['violations'][number],
  level: 'deny' | 'warn' | 'audit',
  message: string,
  reason?: string,
): Unplaced {
  const f: Record<string, unknown> = { type: 'policy', rule: `vap/${v.policy}`, policy: v.policy }
  if (v.binding !== undefined) f.binding = v.binding
  f.level = level
  if (reason !== undefined) f.reason = reason
  f.message = message
  return f as unknown as Unplaced
}
