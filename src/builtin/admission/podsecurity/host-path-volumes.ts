import type { JSONObject } from '../../../kube/values/json.js'
import { ALLOWED, type Check, type CheckResult, items, joinQuote, nameOf, obj, pluralize } from './check.js'

// policy/check_hostPathVolumes.go: baseline, no hostPath volume, 1.0+.

export const checkHostPathVolumesID = 'hostPathVolumes'

export const CheckHostPathVolumes: Check = {
  id: checkHostPathVolumesID,
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPathVolumes_1_0 }],
}

function hostPathVolumes_1_0(_m: JSONObject, podSpec: JSONObject): CheckResult {
  const hostVolumes = items(podSpec, 'volumes')
    .filter((v) => obj(v, 'hostPath') !== undefined)
    .map(nameOf)
  if (hostVolumes.length === 0) return ALLOWED
  return {
    allowed: false,
    forbiddenReason: 'hostPath volumes',
    forbiddenDetail: `${pluralize('volume', 'volumes', hostVolumes.length)} ${joinQuote(hostVolumes)}`,
  }
}
