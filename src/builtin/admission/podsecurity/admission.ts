import { goQuote } from '../../../cel/ext/quote.js'
import { errorString, type FieldError } from '../../../kube/field.js'
import { own } from '../../../kube/own-keys.js'
import { isObject, type JSONObject } from '../../../kube/values/json.js'
import {
  AuditAnnotationPrefix,
  AuditLevelLabel,
  AuditVersionLabel,
  AuditViolationsAnnotationKey,
  compareLevels,
  EnforcedPolicyAnnotationKey,
  EnforceLevelLabel,
  EnforceVersionLabel,
  ExemptionReasonAnnotationKey,
  equivalentPolicy,
  fullyPrivileged,
  LatestVersion,
  type LevelVersion,
  levelVersionString,
  type Policy,
  policyToEvaluate,
  sameLevelVersion,
  WarnLevelLabel,
  WarnVersionLabel,
} from './api.js'
import { type AggregateCheckResult, aggregateCheckResults, forbiddenDetail, items, obj, str } from './check.js'
import { DefaultChecks, type Evaluator, NewEvaluator } from './registry.js'

// The PodSecurity admission plugin's decision on one request (k8s.io/pod-security-admission admission/admission.go
// Validate, as kube-apiserver's in-tree plugin calls it: plugin/pkg/admission/security/podsecurity/admission.go):
// a Namespace's pod-security labels checked, a Pod evaluated against its Namespace's enforce, audit and warn
// levels, a pod controller's template against audit and warn only. The existing pods a Namespace update would
// check against a stricter enforce level are the cluster's: kelp sees none, so it warns of none.

/** PodSecurityConfiguration: the default policy of a Namespace without labels, and the exemptions. */
export interface PodSecurityConfiguration {
  readonly defaults: Policy
  readonly exemptions: {
    readonly usernames: readonly string[]
    readonly namespaces: readonly string[]
    readonly runtimeClasses: readonly string[]
  }
}

const privilegedLatest: LevelVersion = { level: 'privileged', version: LatestVersion }

/** The configuration kube-apiserver runs without an AdmissionConfiguration: privileged:latest, no exemptions. */
export const DefaultPodSecurityConfiguration: PodSecurityConfiguration = {
  defaults: { enforce: privilegedLatest, audit: privilegedLatest, warn: privilegedLatest },
  exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
}

export interface PodSecurityRequest {
  readonly operation: string
  readonly group: string
  readonly resource: string
  readonly subresource: string
  readonly namespace: string
  /** The request's user (exemptions by username). */
  readonly userName: string
  /** The object after decoding, defaulting and the strategy; the stored one on UPDATE. */
  readonly object: JSONObject
  readonly oldObject?: JSONObject
  /** The request's Namespace object; undefined when it cannot be had (the plugin then cannot run). */
  readonly namespaceObject?: JSONObject
}

/** The plugin's answer: `forbidden` is the text after `<resource> "<name>" is forbidden: `. */
export interface PodSecurityResponse {
  readonly allowed: boolean
  readonly forbidden?: string
  /** A Namespace's invalid labels (422 Invalid). */
  readonly invalid?: readonly FieldError[]
  readonly warnings: readonly string[]
  /** The audit annotations as the in-tree plugin adds them (`pod-security.kubernetes.io/<key>`). */
  readonly auditAnnotations: Readonly<Record<string, string>>
  /** Whether the answer is the one of a namespace whose policy is privileged in every mode (nothing evaluated). */
  readonly privileged?: boolean
}

const allowed: PodSecurityResponse = Object.freeze({ allowed: true, warnings: [], auditAnnotations: {} })

function annotated(annotations: Record<string, string>, extra?: Partial<PodSecurityResponse>): PodSecurityResponse {
  const auditAnnotations: Record<string, string> = {}
  for (const k of Object.keys(annotations)) auditAnnotations[AuditAnnotationPrefix + k] = annotations[k] as string
  return { allowed: true, warnings: [], ...extra, auditAnnotations }
}

/** defaultPodSpecResources: the pod controllers whose template the plugin evaluates (audit and warn only). */
const podSpecResources = new Set([
  '/replicationcontrollers',
  '/podtemplates',
  'apps/replicasets',
  'apps/deployments',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
])

/** Whether the plugin looks at a request of this resource at all (the in-tree Validate's filter). */
export function podSecurityApplies(group: string, resource: string): boolean {
  return (
    (group === '' && (resource === 'pods' || resource === 'namespaces')) || podSpecResources.has(`${group}/${resource}`)
  )
}

/** ignoredPodSubresources. */
const ignoredPodSubresources = new Set([
  'exec',
  'attach',
  'binding',
  'eviction',
  'log',
  'portforward',
  'proxy',
  'status',
])

export class PodSecurityAdmission {
  private readonly evaluator: Evaluator

  /** emulationMinor: the target release's minor (kube-apiserver's emulation version). */
  constructor(
    readonly configuration: PodSecurityConfiguration = DefaultPodSecurityConfiguration,
    emulationMinor?: number,
  ) {
    this.evaluator = NewEvaluator(DefaultChecks(), emulationMinor)
  }

  /** Validate: CREATE and UPDATE of pods, namespaces and pod controllers (the plugin's handler). */
  Validate(a: PodSecurityRequest): PodSecurityResponse {
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return allowed
    if (!podSecurityApplies(a.group, a.resource)) return allowed
    if (a.group === '' && a.resource === 'namespaces') return this.ValidateNamespace(a)
    if (a.group === '' && a.resource === 'pods') return this.ValidatePod(a)
    return this.ValidatePodController(a)
  }

  PolicyToEvaluate(labels: unknown): { policy: Policy; errs: FieldError[] } {
    return policyToEvaluate(isObject(labels) ? (labels as JSONObject) : undefined, this.configuration.defaults)
  }

  ValidateNamespace(a: PodSecurityRequest): PodSecurityResponse {
    if (a.subresource !== '') return allowed
    const labels = obj(obj(a.object, 'metadata'), 'labels')
    const name = str(obj(a.object, 'metadata'), 'name')
    const { policy: newPolicy, errs: newErrs } = this.PolicyToEvaluate(labels)
    const exemptWarning = (): PodSecurityResponse | undefined => {
      if (!this.exemptNamespace(a.namespace)) return undefined
      const warning = this.exemptNamespaceWarning(name, newPolicy, labels ?? {})
      return warning === '' ? undefined : { allowed: true, warnings: [warning], auditAnnotations: {} }
    }
    if (a.operation === 'CREATE') {
      if (newErrs.length > 0) return { allowed: false, invalid: newErrs, warnings: [], auditAnnotations: {} }
      return exemptWarning() ?? allowed
    }
    const { policy: oldPolicy, errs: oldErrs } = this.PolicyToEvaluate(obj(obj(a.oldObject, 'metadata'), 'labels'))
    // invalid labels are refused on update only when they changed
    if (newErrs.length > 0 && (oldErrs.length === 0 || !sameErrors(newErrs, oldErrs)))
      return { allowed: false, invalid: newErrs, warnings: [], auditAnnotations: {} }
    if (sameLevelVersion(newPolicy.enforce, oldPolicy.enforce)) return allowed
    if (newPolicy.enforce.level === 'privileged') return allowed
    if (
      newPolicy.enforce.version.text === oldPolicy.enforce.version.text &&
      compareLevels(newPolicy.enforce.level, oldPolicy.enforce.level) < 1
    )
      return allowed
    if (this.exemptNamespace(a.namespace)) return exemptWarning() ?? allowed
    // EvaluatePodsInNamespace: the namespace's existing pods, which kelp does not see
    return allowed
  }

  ValidatePod(a: PodSecurityRequest): PodSecurityResponse {
    if (ignoredPodSubresources.has(a.subresource)) return allowed
    if (this.exemptNamespace(a.namespace)) return annotated({ [ExemptionReasonAnnotationKey]: 'namespace' })
    if (this.exemptUser(a.userName)) return annotated({ [ExemptionReasonAnnotationKey]: 'user' })
    const ns = a.namespaceObject
    if (ns === undefined) return { allowed: true, warnings: [], auditAnnotations: {} }
    const { policy, errs } = this.PolicyToEvaluate(obj(obj(ns, 'metadata'), 'labels'))
    if (errs.length === 0 && fullyPrivileged(policy))
      return annotated(
        { [EnforcedPolicyAnnotationKey]: levelVersionString({ level: 'privileged', version: LatestVersion }) },
        { privileged: true },
      )
    if (a.operation === 'UPDATE' && a.oldObject !== undefined && !isSignificantPodUpdate(a.object, a.oldObject))
      return allowed
    return this.EvaluatePod(policy, errs, obj(a.object, 'metadata') ?? {}, obj(a.object, 'spec') ?? {}, true)
  }

  ValidatePodController(a: PodSecurityRequest): PodSecurityResponse {
    if (a.subresource !== '') return allowed
    if (this.exemptNamespace(a.namespace)) return annotated({ [ExemptionReasonAnnotationKey]: 'namespace' })
    if (this.exemptUser(a.userName)) return annotated({ [ExemptionReasonAnnotationKey]: 'user' })
    const ns = a.namespaceObject
    if (ns === undefined) return { allowed: true, warnings: [], auditAnnotations: {} }
    const { policy, errs } = this.PolicyToEvaluate(obj(obj(ns, 'metadata'), 'labels'))
    if (errs.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return allowed
    const template = podTemplateOf(a.object, a.group, a.resource)
    if (template === undefined) return allowed
    return this.EvaluatePod(policy, errs, obj(template, 'metadata') ?? {}, obj(template, 'spec') ?? {}, false)
  }

  /** EvaluatePod: enforce (pods only), then audit and warn, each level:version evaluated once. */
  EvaluatePod(
    nsPolicy: Policy,
    nsPolicyErrs: readonly FieldError[],
    podMetadata: JSONObject,
    podSpec: JSONObject,
    enforce: boolean,
  ): PodSecurityResponse {
    const runtimeClassName = own(podSpec, 'runtimeClassName')
    if (this.exemptRuntimeClass(typeof runtimeClassName === 'string' ? runtimeClassName : ''))
      return annotated({ [ExemptionReasonAnnotationKey]: 'runtimeClass' })
    const annotations: Record<string, string> = {}
    if (nsPolicyErrs.length > 0) annotations.error = `Failed to parse policy: ${aggregate(nsPolicyErrs)}`
    const cached = new Map<string, AggregateCheckResult>()
    const evaluate = (lv: LevelVersion): AggregateCheckResult => {
      const key = levelVersionString(lv)
      let r = cached.get(key)
      if (r === undefined)
        cached.set(key, (r = aggregateCheckResults(this.evaluator.EvaluatePod(lv, podMetadata, podSpec))))
      return r
    }
    let forbidden: string | undefined
    if (enforce) {
      annotations[EnforcedPolicyAnnotationKey] = levelVersionString(nsPolicy.enforce)
      const result = evaluate(nsPolicy.enforce)
      if (!result.allowed)
        forbidden = `violates PodSecurity ${goQuote(levelVersionString(nsPolicy.enforce))}: ${forbiddenDetail(result)}`
    }
    const auditResult = evaluate(nsPolicy.audit)
    if (!auditResult.allowed)
      annotations[AuditViolationsAnnotationKey] =
        `would violate PodSecurity ${goQuote(levelVersionString(nsPolicy.audit))}: ${forbiddenDetail(auditResult)}`
    const warnings: string[] = []
    // no warnings on a request refused anyway
    if (forbidden === undefined) {
      const warnResult = evaluate(nsPolicy.warn)
      if (!warnResult.allowed)
        warnings.push(
          `would violate PodSecurity ${goQuote(levelVersionString(nsPolicy.warn))}: ${forbiddenDetail(warnResult)}`,
        )
    }
    return forbidden === undefined
      ? annotated(annotations, { warnings })
      : { ...annotated(annotations), allowed: false, forbidden }
  }

  private exemptNamespace(namespace: string): boolean {
    return namespace !== '' && this.configuration.exemptions.namespaces.includes(namespace)
  }

  private exemptUser(username: string): boolean {
    return username !== '' && this.configuration.exemptions.usernames.includes(username)
  }

  private exemptRuntimeClass(runtimeClass: string): boolean {
    return runtimeClass !== '' && this.configuration.exemptions.runtimeClasses.includes(runtimeClass)
  }

  /** exemptNamespaceWarning: the explicitly set, non-privileged modes of an exempt namespace's policy. */
  private exemptNamespaceWarning(exemptNamespace: string, policy: Policy, nsLabels: JSONObject): string {
    if (fullyPrivileged(policy) || equivalentPolicy(policy, this.configuration.defaults)) return ''
    const has = (k: string) => own(nsLabels, k) !== undefined
    const parts: string[] = []
    if (policy.enforce.level !== 'privileged' && (has(EnforceLevelLabel) || has(EnforceVersionLabel)))
      parts.push(`enforce=${levelVersionString(policy.enforce)}`)
    if (policy.audit.level !== 'privileged' && (has(AuditLevelLabel) || has(AuditVersionLabel)))
      parts.push(`audit=${levelVersionString(policy.audit)}`)
    if (policy.warn.level !== 'privileged' && (has(WarnLevelLabel) || has(WarnVersionLabel)))
      parts.push(`warn=${levelVersionString(policy.warn)}`)
    return `namespace ${goQuote(exemptNamespace)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`
  }
}

/** reflect.DeepEqual of two label error lists (same errors, same order). */
function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return a.length === b.length && a.every((e, i) => errorString(e) === errorString(b[i] as FieldError))
}

/** ErrorList.ToAggregate().Error(): one error alone, several as `[e1, e2]`. */
function aggregate(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(errorString))]
  return msgs.length === 1 ? (msgs[0] as string) : `[${msgs.join(', ')}]`
}

/**
 * DefaultPodSpecExtractor.ExtractPodSpec: a controller's pod template (undefined: a ReplicationController without
 * one, whose template is a pointer; the other kinds' templates are values, evaluated even when empty).
 */
export function podTemplateOf(o: JSONObject, group: string, resource: string): JSONObject | undefined {
  switch (`${group}/${resource}`) {
    case '/podtemplates':
      return obj(o, 'template') ?? {}
    case '/replicationcontrollers':
      return obj(obj(o, 'spec'), 'template')
    case 'batch/cronjobs':
      return obj(obj(obj(obj(o, 'spec'), 'jobTemplate'), 'spec'), 'template') ?? {}
    default:
      return obj(obj(o, 'spec'), 'template') ?? {}
  }
}

/** isSignificantPodUpdate: only a change of the containers (their number, an image) or a new ephemeral container. */
export function isSignificantPodUpdate(pod: JSONObject, oldPod: JSONObject): boolean {
  const spec = obj(pod, 'spec')
  const oldSpec = obj(oldPod, 'spec')
  for (const key of ['containers', 'initContainers']) {
    const cs = items(spec, key)
    const old = items(oldSpec, key)
    if (cs.length !== old.length) return true
    for (let i = 0; i < cs.length; i++) if (str(cs[i], 'image') !== str(old[i], 'image')) return true
  }
  const oldEphemeral = items(oldSpec, 'ephemeralContainers')
  for (const c of items(spec, 'ephemeralContainers')) {
    const oldC = oldEphemeral.find((o) => str(o, 'name') === str(c, 'name'))
    if (oldC === undefined || str(c, 'image') !== str(oldC, 'image')) return true
  }
  return false
}
