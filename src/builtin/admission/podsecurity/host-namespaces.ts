import type { JSONObject } from '../../../kube/values/json.js'
import { ALLOWED, type Check, type CheckResult, ptr } from './check.js'

// policy/check_hostNamespaces.go: baseline, no hostNetwork, hostPID or hostIPC, 1.0+.

export const CheckHostNamespaces: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostNamespaces_1_0 }],
}

function hostNamespaces_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const hostNamespaces: string[] = []
  if (ptr(podSpec, 'hostNetwork') === true) hostNamespaces.push('hostNetwork=true')
  if (ptr(podSpec, 'hostPID') === true) hostNamespaces.push('hostPID=true')
  if (ptr(podSpec, 'hostIPC') === true) hostNamespaces.push('hostIPC=true')
  if (hostNamespaces.length === 0) return ALLOWED
  return { allowed: false, forbiddenReason: 'host namespaces', forbiddenDetail: hostNamespaces.join(', ') }
}
