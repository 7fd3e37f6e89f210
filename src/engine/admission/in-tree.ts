// Stages 4 and 7½: the in-tree admission plugins a default kube-apiserver runs (kubernetes
// pkg/kubeapiserver/options/plugins.go AllOrderedPlugins, those DefaultOffAdmissionPlugins leaves on): their
// mutating halves before the policies, their validating halves after the store's validation, each reading
// what the inputs give of the cluster (src/builtin/admission/inputs.ts) and running only when they give it.

import { admitDefaultIngressClass, admitDefaultStorageClass } from '../../builtin/admission/default-class.js'
import type { AdmissionInputs } from '../../builtin/admission/inputs.js'
import { admitLimitRanger, validateLimitRanger } from '../../builtin/admission/limitranger.js'
import { namespaceLifecycle } from '../../builtin/admission/namespace-lifecycle.js'
import { admitPriority, admitPriorityUpdate } from '../../builtin/admission/priority.js'
import { admitRuntimeClass, runtimeClassNotFound, validateRuntimeClass } from '../../builtin/admission/runtimeclass.js'
import {
  admitServiceAccount,
  DefaultServiceAccountName,
  inGoOrder,
  isMirrorPod,
  podServiceAccountName,
  serviceAccountNotFound,
} from '../../builtin/admission/serviceaccount.js'
import { admitDefaultTolerationSeconds } from '../../builtin/admission/toleration-seconds.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import { forbiddenStatus } from '../../policy/generic/status.js'
import type { AdmitResult } from '../answer.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * What a plugin that could not run for lack of input says (AdmitResult.pluginsNotRun; a report prints each
 * once per run, as `Info:`): the plugin's name first, then what the inputs lack and what kelp took instead.
 */
export const NOT_RUN = {
  LimitRanger:
    'LimitRanger did not run: no LimitRange among the inputs (Pods and PersistentVolumeClaims were admitted as in a namespace without one: no default requests or limits, no minimum or maximum)',
  ServiceAccount:
    "ServiceAccount did not check that a Pod's ServiceAccount exists: none of its namespace among the inputs (taken as existing, without automountServiceAccountToken or imagePullSecrets)",
  Priority:
    'Priority did not run: no PriorityClass among the inputs (a Pod naming a class other than system-node-critical and system-cluster-critical got no priority)',
  RuntimeClass:
    'RuntimeClass did not run: no RuntimeClass among the inputs (a Pod naming one was taken as naming an existing class without overhead or scheduling)',
  DefaultStorageClass:
    "DefaultStorageClass did not run: no StorageClass among the inputs (a PersistentVolumeClaim without storageClassName did not get the cluster's default class)",
  DefaultIngressClass:
    "DefaultIngressClass did not run: no IngressClass among the inputs (an Ingress without ingressClassName did not get the cluster's default class)",
} as const

function notRun(s: AdmissionState, plugin: keyof typeof NOT_RUN): void {
  ;(s.notRun ??= []).push(NOT_RUN[plugin])
}

/** The Forbidden answer of an in-tree plugin (admission.NewForbidden): no policy saw the object. */
function pluginRefusal(s: AdmissionState, plugin: string, message: string): AdmitResult {
  return Object.assign(
    {
      allowed: false,
      status: forbiddenStatus(s.attrs, message, 'Forbidden'),
      warnings: s.builtin?.warnings ?? [],
      auditAnnotations: {},
      violations: [],
      admissionPlugin: plugin,
    },
    s.builtin !== undefined ? { builtin: s.builtin } : {},
    s.named,
    s.mutated,
  )
}

/** NamespaceLifecycle's NotFound (errors.NewNotFound of the namespace). */
function namespaceNotFound(s: AdmissionState, message: string): AdmitResult {
  return Object.assign(
    {
      allowed: false,
      status: {
        kind: 'Status' as const,
        apiVersion: 'v1' as const,
        status: 'Failure' as const,
        message,
        reason: 'NotFound',
        code: 404,
        details: { name: s.request.namespace, kind: 'namespaces', causes: [] },
      },
      warnings: s.builtin?.warnings ?? [],
      auditAnnotations: {},
      violations: [],
      admissionPlugin: 'NamespaceLifecycle',
    },
    s.named,
  )
}

/** The ServiceAccount a Pod names, as the plugin finds it: the object, `missing`, or `unknown` (none given). */
function lookupServiceAccount(
  inputs: AdmissionInputs,
  namespace: string,
  name: string,
): JSONObject | 'missing' | 'unknown' {
  const given = inputs.serviceAccounts.get(namespace)
  if (given === undefined) return 'unknown'
  const sa = given.get(name)
  if (sa !== undefined) return sa
  // the controller-manager's serviceaccounts-controller creates `default` in every namespace: a cluster has it
  return name === DefaultServiceAccountName ? 'unknown' : 'missing'
}

/**
 * The mutating halves, in AllOrderedPlugins order: NamespaceLifecycle, LimitRanger, ServiceAccount, Priority,
 * DefaultTolerationSeconds, DefaultStorageClass, RuntimeClass, DefaultIngressClass (all before
 * MutatingAdmissionPolicy). Pods, PersistentVolumeClaims and Ingresses are changed in place.
 */
export function inTreeMutatingPlugins(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  const a = s.request
  const gone = namespaceLifecycle({ operation: a.operation, namespace: a.namespace, kind: a.kind })
  if (gone !== undefined) return namespaceNotFound(s, gone)
  if (s.builtin === undefined || a.subResource !== '') return undefined
  const o = s.builtin.object as JSONObject
  const inputs = ctx.inputs
  const create = a.operation === 'CREATE'
  const { group, resource } = a.resource
  if (group === '' && resource === 'pods') {
    if (create) {
      if (inputs.limitRanges === undefined) notRun(s, 'LimitRanger')
      const limitRanges = inputs.limitRanges?.get(a.namespace)
      if (limitRanges !== undefined) admitLimitRanger(o, limitRanges)
      if (!isMirrorPod(o)) {
        const name = podServiceAccountName(o)
        const sa = lookupServiceAccount(inputs, a.namespace, name)
        if (sa === 'missing') return pluginRefusal(s, 'ServiceAccount', serviceAccountNotFound(a.namespace, name))
        if (sa === 'unknown' && name !== DefaultServiceAccountName) notRun(s, 'ServiceAccount')
        admitServiceAccount(o, ctx.options.generateName, sa === 'unknown' ? undefined : sa)
      }
      const priority = admitPriority(o, inputs.priorityClasses)
      if (priority !== undefined && 'error' in priority) return pluginRefusal(s, 'Priority', priority.error)
      if (priority !== undefined) notRun(s, 'Priority')
    } else if (a.operation === 'UPDATE') admitPriorityUpdate(o, s.oldBuiltin)
    if (create || a.operation === 'UPDATE') admitDefaultTolerationSeconds(o)
    if (create) {
      const rc = runtimeClassOf(inputs, o)
      if (typeof rc === 'string') return pluginRefusal(s, 'RuntimeClass', rc)
      if (
        inputs.runtimeClasses === undefined &&
        typeof (o.spec as JSONObject | undefined)?.runtimeClassName === 'string'
      )
        notRun(s, 'RuntimeClass')
      if (rc !== undefined) {
        const refused = admitRuntimeClass(o, rc)
        if (refused !== undefined) return pluginRefusal(s, 'RuntimeClass', refused)
      }
    }
    if (isObject(o.spec)) o.spec = inGoOrder(o.spec, 'core/v1.PodSpec')
    return undefined
  }
  if (group === '' && resource === 'persistentvolumeclaims') {
    // LimitRanger validates claims on create and update
    if (inputs.limitRanges === undefined) notRun(s, 'LimitRanger')
    if (!create) return undefined
    if (inputs.storageClasses !== undefined) admitDefaultStorageClass(o, inputs.storageClasses)
    else if (!hasClass(o, 'storageClassName', 'volume.beta.kubernetes.io/storage-class'))
      notRun(s, 'DefaultStorageClass')
  }
  if (create && group === 'networking.k8s.io' && resource === 'ingresses') {
    if (inputs.ingressClasses !== undefined) admitDefaultIngressClass(o, inputs.ingressClasses)
    else if (!hasClass(o, 'ingressClassName', 'kubernetes.io/ingress.class')) notRun(s, 'DefaultIngressClass')
  }
  return undefined
}

/** Whether a claim or Ingress names its class (the field, or the annotation the plugins also accept). */
function hasClass(o: JSONObject, field: string, annotation: string): boolean {
  const spec = isObject(o.spec) ? o.spec : {}
  const meta = isObject(o.metadata) ? o.metadata : {}
  return typeof spec[field] === 'string' || (isObject(meta.annotations) && Object.hasOwn(meta.annotations, annotation))
}

/**
 * The Pod's RuntimeClass as prepareObjects finds it: the object, undefined (none named, or none given: the
 * class is taken as existing with neither overhead nor scheduling), or the refusal of a class not given.
 */
function runtimeClassOf(inputs: AdmissionInputs, pod: JSONObject): JSONObject | string | undefined {
  const spec = isObject(pod.spec) ? pod.spec : {}
  if (typeof spec.runtimeClassName !== 'string' || inputs.runtimeClasses === undefined) return undefined
  return inputs.runtimeClasses.get(spec.runtimeClassName) ?? runtimeClassNotFound(spec.runtimeClassName)
}

// The validating halves run after the store's validation and before the admission policies, in AllOrderedPlugins
// order: LimitRanger (Pods on create, PersistentVolumeClaims) and ServiceAccount (a mirror pod's references, the
// ServiceAccount's existence once more: a mutating policy may have changed the name), then PodSecurity (its own
// stage, pod-security.ts), then RuntimeClass (the overhead): pipeline.ts calls the two halves around it.

/** Whether the validating halves look at the request: a create or update of a built-in, no subresource. */
const validates = (s: AdmissionState): boolean =>
  s.builtin?.object !== undefined &&
  s.request.subResource === '' &&
  s.request.resource.group === '' &&
  (s.request.operation === 'CREATE' || s.request.operation === 'UPDATE')

/** LimitRanger's and ServiceAccount's Validate (before PodSecurity in AllOrderedPlugins). */
export function validatingBeforePodSecurity(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  if (!validates(s)) return undefined
  const a = s.request
  const o = s.builtin?.object as JSONObject
  const inputs = ctx.inputs
  const resource = a.resource.resource
  const isPod = resource === 'pods'
  if ((isPod && a.operation === 'CREATE') || resource === 'persistentvolumeclaims') {
    const limitRanges = inputs.limitRanges?.get(a.namespace)
    const refused = limitRanges === undefined ? undefined : validateLimitRanger(resource, o, limitRanges, ctx.minor)
    if (refused !== undefined) return pluginRefusal(s, 'LimitRanger', refused)
  }
  if (!isPod || a.operation !== 'CREATE') return undefined
  const spec = isObject(o.spec) ? o.spec : {}
  if (isMirrorPod(o)) {
    if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '')
      return pluginRefusal(s, 'ServiceAccount', 'a mirror pod may not reference service accounts')
  } else {
    const name = podServiceAccountName(o)
    if (lookupServiceAccount(inputs, a.namespace, name) === 'missing')
      return pluginRefusal(s, 'ServiceAccount', serviceAccountNotFound(a.namespace, name))
  }
  return undefined
}

/** RuntimeClass's Validate (after PodSecurity in AllOrderedPlugins). */
export function validatingAfterPodSecurity(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  if (!validates(s) || s.request.operation !== 'CREATE' || s.request.resource.resource !== 'pods') return undefined
  const o = s.builtin?.object as JSONObject
  const spec = isObject(o.spec) ? o.spec : {}
  const rc = runtimeClassOf(ctx.inputs, o)
  if (typeof rc === 'string') return pluginRefusal(s, 'RuntimeClass', rc)
  // without RuntimeClasses among the inputs, a named class's overhead is unknown: only a Pod naming none is checked
  if (rc !== undefined || typeof spec.runtimeClassName !== 'string') {
    const refused = validateRuntimeClass(o, rc)
    if (refused !== undefined) return pluginRefusal(s, 'RuntimeClass', refused)
  }
  return undefined
}
