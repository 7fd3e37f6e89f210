import type { JSONObject } from '../../../kube/values/json.js'
import {
  ALLOWED,
  type Check,
  type CheckResult,
  joinQuote,
  nameOf,
  obj,
  pluralize,
  sortedSet,
  str,
  visitContainers,
} from './check.js'

// policy/check_seLinuxOptions.go: baseline, seLinuxOptions type limited to a set (container_engine_t added in
// 1.31), no user or role, 1.0+.

export const CheckSELinuxOptions: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: (m, s) => seLinuxOptions(m, s, selinuxAllowedTypes1_0) },
    { minimumVersion: 31, checkPod: (m, s) => seLinuxOptions(m, s, selinuxAllowedTypes1_31) },
  ],
}

const selinuxAllowedTypes1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t'])
const selinuxAllowedTypes1_31 = new Set([...selinuxAllowedTypes1_0, 'container_engine_t'])

function seLinuxOptions(_m: JSONObject, podSpec: JSONObject, allowedTypes: ReadonlySet<string>): CheckResult {
  const badSetters: string[] = []
  const badTypes = new Set<string>()
  let setUser = false
  let setRole = false
  const valid = (opts: JSONObject): boolean => {
    let ok = true
    const type = str(opts, 'type')
    if (!allowedTypes.has(type)) {
      ok = false
      badTypes.add(type)
    }
    if (str(opts, 'user').length > 0) {
      ok = false
      setUser = true
    }
    if (str(opts, 'role').length > 0) {
      ok = false
      setRole = true
    }
    return ok
  }
  const podOpts = obj(obj(podSpec, 'securityContext'), 'seLinuxOptions')
  if (podOpts !== undefined && !valid(podOpts)) badSetters.push('pod')
  const badContainers: string[] = []
  visitContainers(podSpec, (c) => {
    const opts = obj(obj(c, 'securityContext'), 'seLinuxOptions')
    if (opts !== undefined && !valid(opts)) badContainers.push(nameOf(c))
  })
  if (badContainers.length > 0)
    badSetters.push(`${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`)
  if (badSetters.length === 0) return ALLOWED
  const badData: string[] = []
  if (badTypes.size > 0) badData.push(`${pluralize('type', 'types', badTypes.size)} ${joinQuote(sortedSet(badTypes))}`)
  if (setUser) badData.push('user may not be set')
  if (setRole) badData.push('role may not be set')
  return {
    allowed: false,
    forbiddenReason: 'seLinuxOptions',
    forbiddenDetail: `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`,
  }
}
