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
  sortedSet,
  visitContainers,
} from './check.js'

// policy/check_capabilities_baseline.go (baseline: only the default set may be added, 1.0+) and
// policy/check_capabilities_restricted.go (restricted: drop ALL, add NET_BIND_SERVICE at most, 1.22+; windows pods
// exempt from 1.25; overrides the baseline check).

const checkCapabilitiesBaselineID = 'capabilities_baseline'

export const CheckCapabilitiesBaseline: Check = {
  id: checkCapabilitiesBaselineID,
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: capabilitiesBaseline_1_0 }],
}

export const CheckCapabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 22, checkPod: capabilitiesRestricted_1_22, overrideCheckIDs: [checkCapabilitiesBaselineID] },
    { minimumVersion: 25, checkPod: capabilitiesRestricted_1_25, overrideCheckIDs: [checkCapabilitiesBaselineID] },
  ],
}

const capabilities_allowed_1_0 = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
])

/** A capabilities list's entries (Capability is a string type). */
function caps(capabilities: JSONObject | undefined, key: 'add' | 'drop'): string[] {
  const v = capabilities?.[key]
  return Array.isArray(v) ? v.map((c) => (typeof c === 'string' ? c : '')) : []
}

function capabilitiesBaseline_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const badContainers: string[] = []
  const nonDefaultCapabilities = new Set<string>()
  visitContainers(podSpec, (c) => {
    const capabilities = obj(obj(c, 'securityContext'), 'capabilities')
    if (capabilities === undefined) return
    let valid = true
    for (const cap of caps(capabilities, 'add'))
      if (!capabilities_allowed_1_0.has(cap)) {
        valid = false
        nonDefaultCapabilities.add(cap)
      }
    if (!valid) badContainers.push(nameOf(c))
  })
  if (badContainers.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'non-default capabilities',
    forbiddenDetail: `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)} must not include ${joinQuote(sortedSet(nonDefaultCapabilities))} in securityContext.capabilities.add`,
  }
}

const capabilityAll = 'ALL'
const capabilityNetBindService = 'NET_BIND_SERVICE'

function capabilitiesRestricted_1_22(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const containersMissingDropAll: string[] = []
  const containersAddingForbidden: string[] = []
  const forbiddenCapabilities = new Set<string>()
  visitContainers(podSpec, (c) => {
    const capabilities = obj(obj(c, 'securityContext'), 'capabilities')
    if (capabilities === undefined) {
      containersMissingDropAll.push(nameOf(c))
      return
    }
    if (!caps(capabilities, 'drop').includes(capabilityAll)) containersMissingDropAll.push(nameOf(c))
    let addedForbidden = false
    for (const cap of caps(capabilities, 'add'))
      if (cap !== capabilityNetBindService) {
        addedForbidden = true
        forbiddenCapabilities.add(cap)
      }
    if (addedForbidden) containersAddingForbidden.push(nameOf(c))
  })
  const forbiddenDetails: string[] = []
  if (containersMissingDropAll.length > 0)
    forbiddenDetails.push(
      `${pluralize('container', 'containers', containersMissingDropAll.length)} ${joinQuote(containersMissingDropAll)} must set securityContext.capabilities.drop=["ALL"]`,
    )
  if (containersAddingForbidden.length > 0)
    forbiddenDetails.push(
      `${pluralize('container', 'containers', containersAddingForbidden.length)} ${joinQuote(containersAddingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`,
    )
  if (forbiddenDetails.length === 0) return ALLOWED
  return { allowed: false, forbiddenReason: 'unrestricted capabilities', forbiddenDetail: forbiddenDetails.join('; ') }
}

function capabilitiesRestricted_1_25(m: JSONObject, podSpec: JSONObject): CheckResult {
  // pod validation refuses capabilities on a windows pod: it may leave them unset
  if (isWindowsPod(podSpec)) return ALLOWED
  return capabilitiesRestricted_1_22(m, podSpec)
}
