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
  visitContainers,
} from './check.js'

// policy/check_runAsUser.go: restricted, no runAsUser=0, 1.23+; any value in a user namespace from 1.35.

export const CheckRunAsUser: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [
    { minimumVersion: 23, checkPod: runAsUser1_23 },
    { minimumVersion: 35, checkPod: runAsUser1_35 },
  ],
}

function runAsUser1_35(m: JSONObject, podSpec: JSONObject): CheckResult {
  if (relaxPolicyForUserNamespacePod(podSpec)) return ALLOWED
  return runAsUser1_23(m, podSpec)
}

function runAsUser1_23(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badSetters: string[] = []
  if (ptr(obj(podSpec, 'securityContext'), 'runAsUser') === 0) badSetters.push('pod')
  const explicitlyBadContainers: string[] = []
  visitContainers(podSpec, (c) => {
    if (ptr(obj(c, 'securityContext'), 'runAsUser') === 0) explicitlyBadContainers.push(nameOf(c))
  })
  if (explicitlyBadContainers.length > 0)
    badSetters.push(
      `${pluralize('container', 'containers', explicitlyBadContainers.length)} ${joinQuote(explicitlyBadContainers)}`,
    )
  if (badSetters.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'runAsUser=0',
    forbiddenDetail: `${badSetters.join(' and ')} must not set runAsUser=0`,
  }
}
