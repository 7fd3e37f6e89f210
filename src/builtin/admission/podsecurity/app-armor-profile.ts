import { goQuote } from '../../../cel/ext/quote.js'
import type { JSONObject } from '../../../kube/values/json.js'
import {
  ALLOWED,
  annotationsOf,
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

// policy/check_appArmorProfile.go: baseline, AppArmor profiles limited to RuntimeDefault / Localhost (fields) and
// runtime/default, localhost/*, empty (the deprecated annotations), 1.0+.

export const CheckAppArmorProfile: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: appArmorProfile_1_0 }],
}

const DeprecatedAppArmorBetaContainerAnnotationKeyPrefix = 'container.apparmor.security.beta.kubernetes.io/'

const allowedAnnotationValue = (profile: string): boolean =>
  profile.length === 0 || profile === 'runtime/default' || profile.startsWith('localhost/')

const allowedProfileType = (t: string): boolean => t === 'RuntimeDefault' || t === 'Localhost'

function appArmorProfile_1_0(podMetadata: JSONObject, podSpec: JSONObject): CheckResult {
  const badSetters: string[] = []
  const badValues = new Set<string>()
  const podProfile = obj(obj(podSpec, 'securityContext'), 'appArmorProfile')
  if (podProfile !== undefined && !allowedProfileType(str(podProfile, 'type'))) {
    badSetters.push('pod')
    badValues.add(str(podProfile, 'type'))
  }
  const badContainers: string[] = []
  visitContainers(podSpec, (c) => {
    const profile = obj(obj(c, 'securityContext'), 'appArmorProfile')
    if (profile !== undefined && !allowedProfileType(str(profile, 'type'))) {
      badContainers.push(nameOf(c))
      badValues.add(str(profile, 'type'))
    }
  })
  if (badContainers.length > 0)
    badSetters.push(`${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`)
  const forbiddenAnnotations: string[] = []
  const annotations = annotationsOf(podMetadata)
  for (const k of Object.keys(annotations)) {
    const v = annotations[k]
    const value = typeof v === 'string' ? v : ''
    if (k.startsWith(DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) && !allowedAnnotationValue(value))
      forbiddenAnnotations.push(`${k}=${goQuote(value)}`)
  }
  const badValueList = sortedSet(badValues)
  if (forbiddenAnnotations.length > 0) {
    badValueList.push(...sortedSet(new Set(forbiddenAnnotations)))
    badSetters.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length))
  }
  if (badSetters.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    forbiddenDetail: `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
  }
}
