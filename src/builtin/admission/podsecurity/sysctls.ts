import type { JSONObject } from '../../../kube/values/json.js'
import { ALLOWED, type Check, type CheckResult, items, obj, str } from './check.js'

// policy/check_sysctls.go: baseline, only the safe sysctls, the set growing at 1.27, 1.29, 1.32 and 1.37.

const sysctlsAllowedV1Dot0 = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
])
const sysctlsAllowedV1Dot27 = new Set([...sysctlsAllowedV1Dot0, 'net.ipv4.ip_local_reserved_ports'])
const sysctlsAllowedV1Dot29 = new Set([
  ...sysctlsAllowedV1Dot27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
])
const sysctlsAllowedV1Dot32 = new Set([...sysctlsAllowedV1Dot29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'])
const sysctlsAllowedV1Dot37 = new Set([
  ...sysctlsAllowedV1Dot32,
  'net.ipv4.tcp_slow_start_after_idle',
  'net.ipv4.tcp_notsent_lowat',
])

export const CheckSysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: (m, s) => sysctls(m, s, sysctlsAllowedV1Dot0) },
    { minimumVersion: 27, checkPod: (m, s) => sysctls(m, s, sysctlsAllowedV1Dot27) },
    { minimumVersion: 29, checkPod: (m, s) => sysctls(m, s, sysctlsAllowedV1Dot29) },
    { minimumVersion: 32, checkPod: (m, s) => sysctls(m, s, sysctlsAllowedV1Dot32) },
    { minimumVersion: 37, checkPod: (m, s) => sysctls(m, s, sysctlsAllowedV1Dot37) },
  ],
}

function sysctls(_m: JSONObject, podSpec: JSONObject, allowed: ReadonlySet<string>): CheckResult {
  const forbiddenSysctls = items(obj(podSpec, 'securityContext'), 'sysctls')
    .map((s) => str(s, 'name'))
    .filter((name) => !allowed.has(name))
  if (forbiddenSysctls.length === 0) return ALLOWED
  return { allowed: false, forbiddenReason: 'forbidden sysctls', forbiddenDetail: forbiddenSysctls.join(', ') }
}
