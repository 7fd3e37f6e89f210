import type { JSONObject } from '../../../kube/values/json.js'
import {
  ALLOWED,
  type Check,
  type CheckResult,
  isWindowsPod,
  joinQuote,
  nameOf,
  obj,
  pluralize,
  ptr,
  visitContainers,
} from './check.js'

// policy/check_allowPrivilegeEscalation.go: restricted, every container must set allowPrivilegeEscalation=false
// (1.8+); windows pods exempt from 1.25.

export const CheckAllowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: 8, checkPod: allowPrivilegeEscalation_1_8 },
    { minimumVersion: 25, checkPod: allowPrivilegeEscalation_1_25 },
  ],
}

function allowPrivilegeEscalation_1_8(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers: string[] = []
  visitContainers(podSpec, (c) => {
    if (ptr(obj(c, 'securityContext'), 'allowPrivilegeEscalation') !== false) badContainers.push(nameOf(c))
  })
  if (badContainers.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'allowPrivilegeEscalation != false',
    forbiddenDetail: `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)} must set securityContext.allowPrivilegeEscalation=false`,
  }
}

function allowPrivilegeEscalation_1_25(m: JSONObject, podSpec: JSONObject): CheckResult {
  // pod validation refuses the field on a windows pod: it may leave it unset
  if (isWindowsPod(podSpec)) return ALLOWED
  return allowPrivilegeEscalation_1_8(m, podSpec)
}
