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

// policy/check_runAsNonRoot.go: restricted, runAsNonRoot=true for the pod or every container, 1.0+; any value in a
// user namespace from 1.35.

export const CheckRunAsNonRoot: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [
    { minimumVersion: 0, checkPod: runAsNonRoot1_0 },
    { minimumVersion: 35, checkPod: runAsNonRoot1_35 },
  ],
}

function runAsNonRoot1_35(m: JSONObject, podSpec: JSONObject): CheckResult {
  if (relaxPolicyForUserNamespacePod(podSpec)) return ALLOWED
  return runAsNonRoot1_0(m, podSpec)
}

function runAsNonRoot1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badSetters: string[] = []
  let podRunAsNonRoot = false
  const pod = ptr(obj(podSpec, 'securityContext'), 'runAsNonRoot')
  if (pod !== undefined) {
    if (pod !== true) badSetters.push('pod')
    else podRunAsNonRoot = true
  }
  const explicitlyBadContainers: string[] = []
  const implicitlyBadContainers: string[] = []
  visitContainers(podSpec, (c) => {
    const v = ptr(obj(c, 'securityContext'), 'runAsNonRoot')
    if (v !== undefined) {
      if (v !== true) explicitlyBadContainers.push(nameOf(c))
    } else if (!podRunAsNonRoot) implicitlyBadContainers.push(nameOf(c))
  })
  if (explicitlyBadContainers.length > 0)
    badSetters.push(
      `${pluralize('container', 'containers', explicitlyBadContainers.length)} ${joinQuote(explicitlyBadContainers)}`,
    )
  if (badSetters.length > 0)
    return {
      allowed: false,
      forbiddenReason: 'runAsNonRoot != true',
      forbiddenDetail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
    }
  if (implicitlyBadContainers.length > 0)
    return {
      allowed: false,
      forbiddenReason: 'runAsNonRoot != true',
      forbiddenDetail: `pod or ${pluralize('container', 'containers', implicitlyBadContainers.length)} ${joinQuote(implicitlyBadContainers)} must set securityContext.runAsNonRoot=true`,
    }
  return ALLOWED
}
