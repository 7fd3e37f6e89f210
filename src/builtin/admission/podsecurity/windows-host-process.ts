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

// policy/check_windowsHostProcess.go: baseline, no windowsOptions.hostProcess=true on the pod or a container, 1.0+.

export const CheckWindowsHostProcess: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: windowsHostProcess_1_0 }],
}

const hostProcess = (o: unknown): boolean =>
  ptr(obj(obj(o, 'securityContext'), 'windowsOptions'), 'hostProcess') === true

function windowsHostProcess_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers: string[] = []
  visitContainers(podSpec, (c) => {
    if (hostProcess(c)) badContainers.push(nameOf(c))
  })
  const forbiddenSetters: string[] = []
  if (hostProcess(podSpec)) forbiddenSetters.push('pod')
  if (badContainers.length > 0)
    forbiddenSetters.push(`${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`)
  if (forbiddenSetters.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'hostProcess',
    forbiddenDetail: `${forbiddenSetters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
  }
}
