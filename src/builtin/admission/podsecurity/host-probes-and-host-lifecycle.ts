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

// policy/check_hostProbesAndhostLifecycle.go: baseline, no host in the probes' and lifecycle handlers' httpGet
// and tcpSocket, 1.34+.

export const CheckHostProbesAndHostLifecycle: Check = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  versions: [{ minimumVersion: 34, checkPod: hostProbesAndHostLifecycleV1Dot34 }],
}

/** getForbiddenHostProbes / getForbiddenHostLifecycle: the same two actions are read of both. */
function forbiddenHosts(handler: JSONObject | undefined): string[] {
  if (handler === undefined) return []
  const bad: string[] = []
  const httpGet = str(obj(handler, 'httpGet'), 'host')
  if (httpGet !== '') bad.push(httpGet)
  const tcpSocket = str(obj(handler, 'tcpSocket'), 'host')
  if (tcpSocket !== '') bad.push(tcpSocket)
  return bad
}

function hostProbesAndHostLifecycleV1Dot34(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers = new Set<string>()
  const forbidden = new Set<string>()
  visitContainers(podSpec, (c) => {
    const lifecycle = obj(c, 'lifecycle')
    const handlers = [
      obj(c, 'livenessProbe'),
      obj(c, 'readinessProbe'),
      obj(c, 'startupProbe'),
      obj(lifecycle, 'postStart'),
      obj(lifecycle, 'preStop'),
    ]
    for (const h of handlers) {
      const bad = forbiddenHosts(h)
      if (bad.length === 0) continue
      badContainers.add(nameOf(c))
      for (const b of bad) forbidden.add(b)
    }
  })
  if (badContainers.size === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'probe or lifecycle host',
    forbiddenDetail: `${pluralize('container', 'containers', badContainers.size)} ${joinQuote(sortedSet(badContainers))} ${pluralize('uses', 'use', badContainers.size)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', forbidden.size)} ${joinQuote(sortedSet(forbidden))}`,
  }
}
