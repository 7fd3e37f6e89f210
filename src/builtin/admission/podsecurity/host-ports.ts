import type { JSONObject } from '../../../kube/values/json.js'
import {
  ALLOWED,
  type Check,
  type CheckResult,
  items,
  joinQuote,
  nameOf,
  pluralize,
  ptr,
  sortedSet,
  visitContainers,
} from './check.js'

// policy/check_hostPorts.go: baseline, no container port with a hostPort, 1.0+.

export const CheckHostPorts: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPorts_1_0 }],
}

function hostPorts_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers: string[] = []
  const forbiddenHostPorts = new Set<string>()
  visitContainers(podSpec, (c) => {
    let valid = true
    for (const p of items(c, 'ports')) {
      const hostPort = ptr(p, 'hostPort')
      if (typeof hostPort === 'number' && hostPort !== 0) {
        valid = false
        forbiddenHostPorts.add(String(hostPort))
      }
    }
    if (!valid) badContainers.push(nameOf(c))
  })
  if (badContainers.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'hostPort',
    forbiddenDetail: `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', forbiddenHostPorts.size)} ${sortedSet(forbiddenHostPorts).join(', ')}`,
  }
}
