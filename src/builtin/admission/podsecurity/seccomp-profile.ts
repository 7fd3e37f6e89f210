import { goQuote } from '../../../cel/ext/quote.js'
import { own } from '../../../kube/own-keys.js'
import type { JSONObject } from '../../../kube/values/json.js'
import {
  ALLOWED,
  annotationsOf,
  type Check,
  type CheckResult,
  isWindowsPod,
  joinQuote,
  nameOf,
  obj,
  pluralize,
  sortedSet,
  str,
  visitContainers,
} from './check.js'

// policy/check_seccompProfile_baseline.go (baseline: the alpha annotations before 1.19, the seccompProfile fields
// after: RuntimeDefault or Localhost when set) and policy/check_seccompProfile_restricted.go (restricted, 1.19+:
// set for the pod or every container; windows pods exempt from 1.25; overrides the baseline check).

const checkSeccompBaselineID = 'seccompProfile_baseline'

export const CheckSeccompBaseline: Check = {
  id: checkSeccompBaselineID,
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: seccompProfileBaseline_1_0 },
    { minimumVersion: 19, checkPod: seccompProfileBaseline_1_19 },
  ],
}

export const CheckSeccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 19, checkPod: seccompProfileRestricted_1_19, overrideCheckIDs: [checkSeccompBaselineID] },
    { minimumVersion: 25, checkPod: seccompProfileRestricted_1_25, overrideCheckIDs: [checkSeccompBaselineID] },
  ],
}

const annotationKeyPod = 'seccomp.security.alpha.kubernetes.io/pod'
const annotationKeyContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/'

const validSeccomp = (t: string): boolean => t === 'Localhost' || t === 'RuntimeDefault'

const validSeccompAnnotationValue = (v: string): boolean =>
  v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/')

function seccompProfileBaseline_1_0(podMetadata: JSONObject, podSpec: JSONObject): CheckResult {
  const forbidden = new Set<string>()
  const annotations = annotationsOf(podMetadata)
  const check = (key: string) => {
    const v = own(annotations, key)
    if (v === undefined) return
    const value = typeof v === 'string' ? v : ''
    if (!validSeccompAnnotationValue(value)) forbidden.add(`${key}=${goQuote(value)}`)
  }
  check(annotationKeyPod)
  visitContainers(podSpec, (c) => check(annotationKeyContainerPrefix + nameOf(c)))
  if (forbidden.size === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'seccompProfile',
    forbiddenDetail: `forbidden ${pluralize('annotation', 'annotations', forbidden.size)} ${sortedSet(forbidden).join(', ')}`,
  }
}

/** The pod's and containers' seccompProfile types: the bad setters and values, the containers that set none. */
function seccompSetters(podSpec: JSONObject) {
  const badSetters: string[] = []
  const badValues = new Set<string>()
  let podSeccompSet = false
  const podProfile = obj(obj(podSpec, 'securityContext'), 'seccompProfile')
  if (podProfile !== undefined) {
    if (!validSeccomp(str(podProfile, 'type'))) {
      badSetters.push('pod')
      badValues.add(str(podProfile, 'type'))
    } else podSeccompSet = true
  }
  const explicitlyBadContainers: string[] = []
  const implicitlyBadContainers: string[] = []
  visitContainers(podSpec, (c) => {
    const profile = obj(obj(c, 'securityContext'), 'seccompProfile')
    if (profile !== undefined) {
      if (!validSeccomp(str(profile, 'type'))) {
        explicitlyBadContainers.push(nameOf(c))
        badValues.add(str(profile, 'type'))
      }
    } else if (!podSeccompSet) implicitlyBadContainers.push(nameOf(c))
  })
  if (explicitlyBadContainers.length > 0)
    badSetters.push(
      `${pluralize('container', 'containers', explicitlyBadContainers.length)} ${joinQuote(explicitlyBadContainers)}`,
    )
  return { badSetters, badValues, implicitlyBadContainers }
}

function badSettersResult(badSetters: string[], badValues: Set<string>): CheckResult {
  return {
    allowed: false,
    forbiddenReason: 'seccompProfile',
    forbiddenDetail: `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
  }
}

function seccompProfileBaseline_1_19(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const { badSetters, badValues } = seccompSetters(podSpec)
  return badSetters.length > 0 ? badSettersResult(badSetters, badValues) : ALLOWED
}

function seccompProfileRestricted_1_19(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const { badSetters, badValues, implicitlyBadContainers } = seccompSetters(podSpec)
  if (badSetters.length > 0) return badSettersResult(badSetters, badValues)
  if (implicitlyBadContainers.length > 0)
    return {
      allowed: false,
      forbiddenReason: 'seccompProfile',
      forbiddenDetail: `pod or ${pluralize('container', 'containers', implicitlyBadContainers.length)} ${joinQuote(implicitlyBadContainers)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    }
  return ALLOWED
}

function seccompProfileRestricted_1_25(m: JSONObject, podSpec: JSONObject): CheckResult {
  // pod validation refuses seccompProfile on a windows pod: it may leave it unset
  if (isWindowsPod(podSpec)) return ALLOWED
  return seccompProfileRestricted_1_19(m, podSpec)
}
