// Stage 8: the PodSecurity admission plugin, the in-tree validating plugin kube-apiserver runs before
// ValidatingAdmissionPolicy (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins), over the Namespaces kelp
// was given (src/builtin/admission/podsecurity).

import {
  DefaultPodSecurityConfiguration,
  PodSecurityAdmission,
  type PodSecurityConfiguration,
  type PodSecurityResponse,
  podSecurityApplies,
} from '../../builtin/admission/podsecurity/admission.js'
import { fullyPrivileged } from '../../builtin/admission/podsecurity/api.js'
import { newInvalid } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'
import { forbiddenStatus } from '../../policy/generic/status.js'
import type { AdmitResult } from '../answer.js'
import { assumedNamespace } from '../namespaces.js'
import type { AdmissionContext, AdmissionState } from './state.js'
import { validatingAdmission } from './validating.js'

/**
 * One plugin per target minor and configuration (its checks' table is built once: the emulated release's); the
 * default configuration's plugins are kept for the process, a given one's with its configuration object.
 */
const plugins = new WeakMap<PodSecurityConfiguration, Map<number, PodSecurityAdmission>>()
function pluginFor(minor: number, configuration: PodSecurityConfiguration): PodSecurityAdmission {
  let byMinor = plugins.get(configuration)
  if (byMinor === undefined) plugins.set(configuration, (byMinor = new Map()))
  let p = byMinor.get(minor)
  if (p === undefined) byMinor.set(minor, (p = new PodSecurityAdmission(configuration, minor)))
  return p
}

/**
 * The text kelp adds when the plugin could not run: a Pod or pod controller whose Namespace is neither given nor
 * assumed (`namespaces: 'strict'`). A namespace kelp assumes is one without labels, whose policy is the default
 * (privileged everywhere): the plugin runs and allows, as the cluster's would.
 */
export const podSecurityNotRun = (namespace: string): string =>
  `PodSecurity admission did not run: the Namespace ${JSON.stringify(namespace)} is not among the inputs`

/**
 * PodSecurity (k8s.io/pod-security-admission admission/admission.go Validate) on a built-in's CREATE or UPDATE
 * after the store's validation: a Pod its Namespace's enforce level refuses is a 403 Forbidden no validating policy
 * sees; a Namespace with invalid pod-security labels a 422 Invalid; otherwise its warnings come first among the
 * warnings of validating admission (they are the builtin's, after its own), and its audit annotations first.
 */
export function podSecurity(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  const a = s.attrs
  if (s.builtin === undefined || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return undefined
  if (!podSecurityApplies(a.resource.group, a.resource.resource)) return undefined
  const object = (s.builtin.object ?? a.object) as JSONObject | undefined
  if (object === undefined || object === null) return undefined
  const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces'
  // --admission-control-config-file's PodSecurity configuration (PolicySetOptions.podSecurity)
  const configuration = ctx.options.podSecurity ?? DefaultPodSecurityConfiguration
  let namespaceObject: JSONObject | undefined
  if (!isNamespace && a.namespace !== '') {
    namespaceObject = ctx.dispatch.namespaceObject(a.namespace)
    if (namespaceObject === undefined) {
      addWarnings(s, [podSecurityNotRun(a.namespace)])
      return undefined
    }
    // an assumed namespace has no labels: the configuration's default policy; privileged (kube-apiserver's
    // default), nothing is evaluated, nothing said
    if (namespaceObject === assumedNamespace(a.namespace) && fullyPrivileged(configuration.defaults)) return undefined
  }
  const old = s.oldBuiltin ?? (a.oldObject as JSONObject | null | undefined) ?? undefined
  const r = pluginFor(ctx.minor, configuration).Validate({
    operation: a.operation,
    group: a.resource.group,
    resource: a.resource.resource,
    subresource: a.subResource,
    // a Namespace's request names itself as its namespace (the apiserver's RequestInfo of /namespaces/<name>)
    namespace: isNamespace && a.namespace === '' ? a.name || nameOf(object) : a.namespace,
    userName: a.userInfo.username ?? '',
    object,
    ...(old !== undefined ? { oldObject: old } : {}),
    ...(namespaceObject !== undefined ? { namespaceObject } : {}),
  })
  if (!r.allowed) return refusal(s, object, r)
  if (r.warnings.length > 0) addWarnings(s, r.warnings)
  // the privileged default's enforce-policy annotation is on every pod of an unlabelled namespace: not reported
  if (r.privileged === true || Object.keys(r.auditAnnotations).length === 0) return undefined
  const answer = validatingAdmission(ctx, s)
  return { ...answer, auditAnnotations: { ...r.auditAnnotations, ...answer.auditAnnotations } }
}

const nameOf = (o: JSONObject): string => {
  const name = (o.metadata as JSONObject | undefined)?.name
  return typeof name === 'string' ? name : ''
}

/** The plugin's warnings after the builtin's own (decoding, the strategy), before the policies'. */
function addWarnings(s: AdmissionState, warnings: readonly string[]): void {
  const b = s.builtin
  if (b !== undefined) s.builtin = { ...b, warnings: [...b.warnings, ...warnings] }
}

function refusal(s: AdmissionState, object: JSONObject, r: PodSecurityResponse): AdmitResult {
  const b = s.builtin
  const base = {
    warnings: b?.warnings ?? [],
    auditAnnotations: r.auditAnnotations,
    violations: [],
    ...s.named,
    ...s.mutated,
  }
  if (r.invalid !== undefined) {
    // invalidResponse: apierrors.NewInvalid(Namespace, name, errs)
    const status = newInvalid('', 'Namespace', nameOf(object), r.invalid)
    const builtin = b !== undefined ? { ...b, allowed: false, errors: r.invalid, status } : undefined
    return { allowed: false, status, ...base, ...(builtin !== undefined ? { builtin } : {}) }
  }
  // the in-tree plugin's Forbidden: admission.NewForbidden's Status with the delegate's message
  const status = forbiddenStatus(s.attrs, r.forbidden ?? 'Not allowed by PodSecurity', 'Forbidden')
  return { allowed: false, status, ...base, ...(b !== undefined ? { builtin: b } : {}) }
}
