// Stage 4: the in-tree mutating admission plugins a default kube-apiserver runs before the policies.

import { admitServiceAccount } from '../../builtin/admission/serviceaccount.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * The default plugin order (kubernetes pkg/kubeapiserver/options/plugins.go AllOrderedPlugins) puts
 * ServiceAccount (plugin/pkg/admission/serviceaccount/admission.go Admit: a Pod's service account, its
 * token volume and mounts) before MutatingAdmissionPolicy: the in-tree mutating plugin kelp models.
 */
export function inTreeMutatingPlugins(ctx: AdmissionContext, s: AdmissionState): undefined {
  const a = s.request
  if (s.builtin !== undefined && a.operation === 'CREATE' && a.resource.group === '' && a.resource.resource === 'pods')
    admitServiceAccount(s.builtin.object as JSONObject, ctx.options.generateName)
}
