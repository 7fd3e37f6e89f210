import type { JSONObject } from '../../../kube/values/json.js'
import {
  ALLOWED,
  type Check,
  type CheckResult,
  joinQuote,
  nameOf,
  obj,
  pluralize,
  ptr,
  visitContainers,
} from './check.js'

// policy/check_privileged.go: baseline, no privileged container, 1.0+.

export const CheckPrivileged: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: privileged_1_0 }],
}

function privileged_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers: string[] = []
  visitContainers(podSpec, (c) => {
    if (ptr(obj(c, 'securityContext'), 'privileged') === true) badContainers.push(nameOf(c))
  })
  if (badContainers.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'privileged',
    forbiddenDetail: `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)} must not set securityContext.privileged=true`,
  }
}
