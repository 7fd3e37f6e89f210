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
  relaxPolicyForUserNamespacePod,
  sortedSet,
  visitContainers,
} from './check.js'

// policy/check_procMount_baseline.go (baseline: procMount Default only, 1.0+; any value in a user namespace from
// 1.35) and policy/check_procMount_restricted.go (restricted from 1.35: the unconditional 1.0 check, overriding
// the baseline one).

export const CheckProcMountBaseline: Check = {
  id: 'procMount',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: procMount_1_0 },
    { minimumVersion: 35, checkPod: procMount1_35baseline },
  ],
}

export const CheckProcMountRestricted: Check = {
  id: 'procMount_restricted',
  level: 'restricted',
  versions: [{ minimumVersion: 35, checkPod: procMount_1_0, overrideCheckIDs: ['procMount'] }],
}

function procMount_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers: string[] = []
  const forbiddenProcMountTypes = new Set<string>()
  visitContainers(podSpec, (c) => {
    const procMount = ptr(obj(c, 'securityContext'), 'procMount')
    if (procMount === undefined) return
    const t = typeof procMount === 'string' ? procMount : ''
    if (t !== 'Default') {
      badContainers.push(nameOf(c))
      forbiddenProcMountTypes.add(t)
    }
  })
  if (badContainers.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'procMount',
    forbiddenDetail: `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(forbiddenProcMountTypes))}`,
  }
}

function procMount1_35baseline(m: JSONObject, podSpec: JSONObject): CheckResult {
  if (relaxPolicyForUserNamespacePod(podSpec)) return ALLOWED
  return procMount_1_0(m, podSpec)
}
