import { goQuote } from '../../../cel/ext/quote.js'
import { type FieldError, type FieldPath, field, GoStruct } from '../../../kube/field.js'
import { isDNS1123Subdomain } from '../../../kube/validation/names.js'
import { utf8Length } from '../../../kube/validation/utf8.js'
import { arr, isObj, type JSONObject, keys, obj, optNum, str } from '../common.js'
import { TOLERATIONS_ANNOTATION, validateTolerationsInPodAnnotation } from './pod-tolerations.js'

// The security settings of a PodSpec (kubernetes v1.37.2 pkg/apis/core/validation/validation.go):
// validatePodSpecSecurityContext (with validateSysctls, ValidateHostSysctl, validateSELinuxChangePolicy),
// ValidateSecurityContext of each container, validateSeccompProfileField, ValidateAppArmorProfileField,
// validateWindowsSecurityContextOptions, validateWindowsHostProcessPod, validateHostUsers,
// validateShareProcessNamespace, validateOS / validateLinux / validateWindows, and the annotation
// checks of ValidatePodSpecificAnnotations (seccomp, AppArmor, deletion cost) and of
// validateSeccompAnnotationsAndFields / validateAppArmorAnnotationsAndFieldsMatchOnCreate. The cluster
// is assumed to run with --allow-privileged=true (every common installer sets it), so `privileged`
// and hostProcess containers are not "disallowed by cluster policy".

const MAX_ID = 2147483647
const ID_RANGE = `must be between 0 and ${MAX_ID}, inclusive`

/** validation.IsValidUserID / IsValidGroupID (both 0 … MaxInt32). */
function validateID(v: unknown, p: FieldPath): FieldError[] {
  const n = optNum(v)
  if (n === undefined) return []
  return n >= 0 && n <= MAX_ID ? [] : [field.invalid(p, n, ID_RANGE)]
}

/** Go's path.IsAbs and the `..` element check of validateLocalDescendingPath. */
export function validateLocalDescendingPath(target: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (target.startsWith('/')) errs.push(field.invalid(p, target, 'must be a relative path'))
  errs.push(...validatePathNoBacksteps(target, p))
  return errs
}

/** validatePathNoBacksteps (the apiserver runs on Linux: filepath.ToSlash changes nothing). */
export function validatePathNoBacksteps(target: string, p: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [field.invalid(p, target, "must not contain '..'")] : []
}

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined']
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined']

/** The internal *core.SeccompProfile as json.Marshal prints it (Go field names, no tags). */
const seccompValue = (sp: JSONObject) =>
  new GoStruct([
    ['Type', str(sp.type)],
    ['LocalhostProfile', typeof sp.localhostProfile === 'string' ? sp.localhostProfile : null],
  ])

/** validateSeccompProfileField. */
function validateSeccompProfileField(v: unknown, p: FieldPath): FieldError[] {
  const sp = obj(v)
  if (sp === undefined) return []
  const errs: FieldError[] = []
  const type = str(sp.type)
  if (type === '') errs.push(field.required(p.child('type'), 'type is required when seccompProfile is set'))
  else if (!SECCOMP_TYPES.includes(type)) errs.push(field.notSupported(p.child('type'), type, SECCOMP_TYPES))
  const lp = p.child('localhostProfile')
  const local = sp.localhostProfile
  if (type === 'Localhost') {
    if (typeof local !== 'string') errs.push(field.required(lp, 'must be set when seccomp type is Localhost'))
    else errs.push(...validateLocalDescendingPath(local, lp))
  } else if (typeof local === 'string')
    errs.push(field.invalid(lp, seccompValue(sp), 'can only be set when seccomp type is Localhost'))
  return errs
}

/** ValidateAppArmorProfileField. */
function validateAppArmorProfileField(v: unknown, p: FieldPath): FieldError[] {
  const ap = obj(v)
  if (ap === undefined) return []
  const errs: FieldError[] = []
  const type = str(ap.type)
  const lp = p.child('localhostProfile')
  const local = ap.localhostProfile
  switch (type) {
    case 'Localhost':
      if (typeof local !== 'string') errs.push(field.required(lp, 'must be set when AppArmor type is Localhost'))
      else {
        const trimmed = goTrimSpace(local)
        if (trimmed !== local) errs.push(field.invalid(lp, local, 'must not be padded with whitespace'))
        else if (trimmed === '') errs.push(field.required(lp, 'must be set when AppArmor type is Localhost'))
        if (utf8Length(local) > 4095) errs.push(field.tooLong(lp, 4095))
      }
      break
    case 'RuntimeDefault':
    case 'Unconfined':
      if (typeof local === 'string')
        errs.push(field.invalid(lp, local, 'can only be set when AppArmor type is Localhost'))
      break
    case '':
      errs.push(field.required(p.child('type'), 'type is required when appArmorProfile is set'))
      break
    default:
      errs.push(field.notSupported(p.child('type'), type, APPARMOR_TYPES))
  }
  return errs
}

/** strings.TrimSpace (Unicode White_Space, as Go's unicode.IsSpace). */
const goTrimSpace = (s: string) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '')

const MAX_GMSA_SPEC = 64 * 1024
// [[:cntrl:]] of Go's RE2: ASCII 0-31 and 127
const CTRL = /[\x00-\x1f\x7f]/
const NETBIOS = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?'
const WINDOWS_DOMAIN_DNS = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`)
const BAD_USER_CHARS = /["/\\:;|=,+*?<>@[\]]/
const DOTS_SPACES = /^[. ]+$/

/** validateWindowsSecurityContextOptions. */
function validateWindowsOptions(v: unknown, p: FieldPath): FieldError[] {
  const w = obj(v)
  if (w === undefined) return []
  const errs: FieldError[] = []
  if (typeof w.gmsaCredentialSpecName === 'string') {
    const name = w.gmsaCredentialSpecName
    for (const m of isDNS1123Subdomain(name)) errs.push(field.invalid(p.child('gmsaCredentialSpecName'), name, m))
  }
  if (typeof w.gmsaCredentialSpec === 'string') {
    const spec = w.gmsaCredentialSpec
    const l = utf8Length(spec)
    if (l === 0)
      errs.push(field.invalid(p.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec cannot be an empty string'))
    else if (l > MAX_GMSA_SPEC)
      errs.push(field.invalid(p.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec size must be under 64 KiB'))
  }
  if (typeof w.runAsUserName === 'string') {
    const name = w.runAsUserName
    const np = p.child('runAsUserName')
    const bad = (m: string) => errs.push(field.invalid(np, name, m))
    const parts = name.split('\\')
    if (name.length === 0) bad('runAsUserName cannot be an empty string')
    else if (CTRL.test(name)) bad('runAsUserName cannot contain control characters')
    else if (parts.length > 2) bad('runAsUserName cannot contain more than one backslash')
    else {
      const hasDomain = parts.length === 2
      const domain = hasDomain ? (parts[0] as string) : ''
      const user = hasDomain ? (parts[1] as string) : (parts[0] as string)
      if (utf8Length(domain) >= 256) bad("runAsUserName's Domain length must be under 256 characters")
      if (hasDomain && !(NETBIOS.test(domain) || WINDOWS_DOMAIN_DNS.test(domain)))
        bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
      const ul = utf8Length(user)
      if (ul === 0) bad("runAsUserName's User cannot be empty")
      else if (ul > 104) bad("runAsUserName's User length must not be longer than 104 characters")
      if (DOTS_SPACES.test(user)) bad("runAsUserName's User cannot contain only periods or spaces")
      if (BAD_USER_CHARS.test(user))
        bad(`runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`)
    }
  }
  return errs
}

const PROC_MOUNT_TYPES = ['Default', 'Unmasked']

/** The internal *core.SecurityContext as json.Marshal prints it (Go field names, declaration order). */
function securityContextValue(sc: JSONObject): GoStruct {
  const opt = (v: unknown) => (v === undefined ? null : v)
  const caps = obj(sc.capabilities)
  const se = obj(sc.seLinuxOptions)
  const w = obj(sc.windowsOptions)
  const ap = obj(sc.appArmorProfile)
  const sp = obj(sc.seccompProfile)
  return new GoStruct([
    [
      'Capabilities',
      caps
        ? new GoStruct([
            ['Add', opt(caps.add)],
            ['Drop', opt(caps.drop)],
          ])
        : null,
    ],
    ['Privileged', opt(sc.privileged)],
    [
      'SELinuxOptions',
      se
        ? new GoStruct([
            ['User', str(se.user)],
            ['Role', str(se.role)],
            ['Type', str(se.type)],
            ['Level', str(se.level)],
          ])
        : null,
    ],
    [
      'WindowsOptions',
      w
        ? new GoStruct([
            ['GMSACredentialSpecName', opt(w.gmsaCredentialSpecName)],
            ['GMSACredentialSpec', opt(w.gmsaCredentialSpec)],
            ['RunAsUserName', opt(w.runAsUserName)],
            ['HostProcess', opt(w.hostProcess)],
          ])
        : null,
    ],
    ['RunAsUser', opt(sc.runAsUser)],
    ['RunAsGroup', opt(sc.runAsGroup)],
    ['RunAsNonRoot', opt(sc.runAsNonRoot)],
    ['ReadOnlyRootFilesystem', opt(sc.readOnlyRootFilesystem)],
    ['AllowPrivilegeEscalation', opt(sc.allowPrivilegeEscalation)],
    ['ProcMount', opt(sc.procMount)],
    ['SeccompProfile', sp ? seccompValue(sp) : null],
    [
      'AppArmorProfile',
      ap
        ? new GoStruct([
            ['Type', str(ap.type)],
            ['LocalhostProfile', opt(ap.localhostProfile)],
          ])
        : null,
    ],
  ])
}

/** ValidateSecurityContext (a container's; AllowSysAdminWhenPrivilegeEscalationFalse is off on create). */
export function validateSecurityContext(v: unknown, p: FieldPath, hostUsers: boolean): FieldError[] {
  const sc = obj(v)
  if (sc === undefined) return []
  const errs: FieldError[] = []
  errs.push(...validateID(sc.runAsUser, p.child('runAsUser')))
  errs.push(...validateID(sc.runAsGroup, p.child('runAsGroup')))
  if (typeof sc.procMount === 'string') {
    const pm = sc.procMount
    if (!PROC_MOUNT_TYPES.includes(pm)) errs.push(field.notSupported(p.child('procMount'), pm, PROC_MOUNT_TYPES))
    if (hostUsers && pm === 'Unmasked')
      errs.push(field.invalid(p.child('procMount'), pm, '`hostUsers` must be false to use `Unmasked`'))
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, p.child('seccompProfile')))
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true)
      errs.push(
        field.invalid(
          p,
          securityContextValue(sc),
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        ),
      )
    for (const cap of arr(obj(sc.capabilities)?.add))
      if (cap === 'CAP_SYS_ADMIN')
        errs.push(
          field.invalid(
            p,
            securityContextValue(sc),
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
          ),
        )
  }
  errs.push(...validateWindowsOptions(sc.windowsOptions, p.child('windowsOptions')))
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, p.child('appArmorProfile')))
  return errs
}

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?'
const SYSCTL_FMT = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`
const SYSCTL = new RegExp(SYSCTL_FMT)

/** IsValidSysctlName. */
export const isValidSysctlName = (name: string): boolean => utf8Length(name) <= 253 && SYSCTL.test(name)

const IPC_SYSCTLS = new Set([
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
  'kernel.shm_rmid_forced',
  'kernel.shm',
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
  'kernel.msg',
])

/** utilsysctl.GetNamespace (only Net and IPC matter here). */
function sysctlNamespace(sysctl: string): 'Net' | 'IPC' | '' {
  let name = sysctl
  const sep = name.search(/[./]/)
  if (sep >= 0 && name[sep] === '/') name = name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'))
  const star = name.indexOf('*')
  if (star >= 0) name = name.slice(0, star)
  if (IPC_SYSCTLS.has(name)) return 'IPC'
  if (name === 'kernel.domainname') return ''
  if (name.startsWith('net.')) return 'Net'
  if (name.startsWith('fs.mqueue.')) return 'IPC'
  return ''
}

/** ValidateHostSysctl. */
function validateHostSysctl(sysctl: string, spec: JSONObject, p: FieldPath): FieldError[] {
  const ns = sysctlNamespace(sysctl)
  if (spec.hostNetwork === true && ns === 'Net')
    return [field.invalid(p, sysctl, "may not be specified when 'hostNetwork' is true")]
  if (spec.hostIPC === true && ns === 'IPC')
    return [field.invalid(p, sysctl, "may not be specified when 'hostIPC' is true")]
  return []
}

/** validateSysctls (AllowNamespacedSysctlsForHostNetAndHostIPC is off on create). */
function validateSysctls(sysctls: unknown[], spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set<string>()
  sysctls.forEach((x, i) => {
    const name = str(obj(x)?.name)
    const np = p.index(i).child('name')
    if (name.length === 0) errs.push(field.required(np, ''))
    else if (!isValidSysctlName(name))
      errs.push(field.invalid(np, name, `must have at most 253 characters and match regex ${SYSCTL_FMT}`))
    else if (names.has(name)) errs.push(field.duplicate(np, name))
    errs.push(...validateHostSysctl(name, spec, np))
    names.add(name)
  })
  return errs
}

const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch']
const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict']
const SELINUX_CHANGE_POLICIES = ['MountOption', 'Recursive']

/** validatePodSpecSecurityContext. SELinuxMount (GA, on from 1.37) allows MountOption; before, only Recursive on create. */
export function validatePodSecurityContext(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const sc = obj(spec.securityContext)
  if (sc === undefined) return []
  const errs: FieldError[] = []
  errs.push(...validateID(sc.fsGroup, p.child('fsGroup')))
  errs.push(...validateID(sc.runAsUser, p.child('runAsUser')))
  errs.push(...validateID(sc.runAsGroup, p.child('runAsGroup')))
  arr(sc.supplementalGroups).forEach((g, i) => {
    errs.push(...validateID(g, p.child('supplementalGroups').index(i)))
  })
  if (arr(sc.sysctls).length > 0) errs.push(...validateSysctls(arr(sc.sysctls), spec, p.child('sysctls')))
  if (typeof sc.fsGroupChangePolicy === 'string' && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy))
    errs.push(field.notSupported(p.child('fsGroupChangePolicy'), sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES))
  errs.push(...validateSeccompProfileField(sc.seccompProfile, p.child('seccompProfile')))
  errs.push(...validateWindowsOptions(sc.windowsOptions, p.child('windowsOptions')))
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, p.child('appArmorProfile')))
  const sgp = sc.supplementalGroupsPolicy
  if (typeof sgp === 'string' && !SUPPLEMENTAL_GROUPS_POLICIES.includes(sgp))
    errs.push(field.notSupported(p.child('supplementalGroupsPolicy'), sgp, SUPPLEMENTAL_GROUPS_POLICIES))
  const slp = sc.seLinuxChangePolicy
  if (typeof slp === 'string') {
    const allowed = minor >= 37 ? SELINUX_CHANGE_POLICIES : ['Recursive']
    if (!allowed.includes(slp)) errs.push(field.notSupported(p.child('seLinuxChangePolicy'), slp, allowed))
  }
  return errs
}

/** validateShareProcessNamespace. */
export function validateShareProcessNamespace(spec: JSONObject, p: FieldPath): FieldError[] {
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    return [
      field.invalid(p.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'),
    ]
  return []
}

type Visit = (c: JSONObject, p: FieldPath) => void

/** podshelper.VisitContainersWithPath: init containers, containers, then ephemeral containers. */
export function visitContainers(spec: JSONObject, p: FieldPath, f: Visit): void {
  for (const k of CONTAINER_LISTS) {
    const list = spec[k]
    if (!Array.isArray(list) || list.length === 0) continue
    const kp = p.child(k)
    for (let i = 0; i < list.length; i++) f(obj(list[i]) ?? {}, kp.index(i))
  }
}
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const

/** validateWindowsHostProcessPod. */
export function validateWindowsHostProcessPod(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let count = 0
  let hostProcessCount = 0
  const podHP = obj(obj(spec.securityContext)?.windowsOptions)?.hostProcess
  const podHostProcess = typeof podHP === 'boolean' ? podHP : undefined
  visitContainers(spec, p, (c, cp) => {
    count++
    const hp = obj(obj(c.securityContext)?.windowsOptions)?.hostProcess
    const hostProcess = typeof hp === 'boolean' ? hp : undefined
    if (podHostProcess !== undefined && hostProcess !== undefined && podHostProcess !== hostProcess)
      errs.push(
        field.invalid(
          cp.child('securityContext', 'windowsOptions', 'hostProcess'),
          hostProcess,
          `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
        ),
      )
    if (hostProcess === true || (hostProcess === undefined && podHostProcess === true)) hostProcessCount++
  })
  if (hostProcessCount > 0) {
    if (hostProcessCount !== count)
      errs.push(
        field.invalid(
          p,
          '',
          'If pod contains any hostProcess containers then all containers must be HostProcess containers',
        ),
      )
    if (spec.hostNetwork !== true)
      errs.push(
        field.invalid(
          p.child('hostNetwork'),
          false,
          'hostNetwork must be true if pod contains any hostProcess containers',
        ),
      )
  }
  return errs
}

/** validateHostUsers (UserNamespacesHostNetworkSupport is alpha, off: hostNetwork is forbidden). */
export function validateHostUsers(spec: JSONObject, p: FieldPath): FieldError[] {
  if (spec.hostUsers !== false) return []
  const errs: FieldError[] = []
  if (spec.hostNetwork === true) errs.push(field.forbidden(p.child('hostNetwork'), 'when `hostUsers` is false'))
  if (spec.hostPID === true) errs.push(field.forbidden(p.child('HostPID'), 'when `hostUsers` is false'))
  if (spec.hostIPC === true) errs.push(field.forbidden(p.child('HostIPC'), 'when `hostUsers` is false'))
  visitContainers(spec, p, (c, cp) => {
    if (arr(c.volumeDevices).length > 0)
      errs.push(field.forbidden(cp.child('volumeDevices'), 'when `hostUsers` is false'))
  })
  return errs
}

const VALID_OS = ['linux', 'windows']

/** validateOS, then validateLinux / validateWindows when the name is valid. */
export function validateOS(spec: JSONObject, p: FieldPath): FieldError[] {
  const os = obj(spec.os)
  if (os === undefined) return []
  const name = str(os.name)
  if (name.length === 0) return [field.required(p.child('os', 'name'), '')]
  if (!VALID_OS.includes(name)) return [field.notSupported(p.child('os'), name, VALID_OS)]
  return name === 'linux' ? validateLinux(spec, p) : validateWindows(spec, p)
}

function validateLinux(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const msg = 'windows options cannot be set for a linux pod'
  if (isObj(obj(spec.securityContext)?.windowsOptions))
    errs.push(field.forbidden(p.child('securityContext', 'windowsOptions'), msg))
  visitContainers(spec, p, (c, cp) => {
    if (isObj(obj(c.securityContext)?.windowsOptions))
      errs.push(field.forbidden(cp.child('securityContext', 'windowsOptions'), msg))
  })
  return errs
}

const set = (v: unknown) => v !== undefined && v !== null

function validateWindows(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const msg = 'cannot be set for a windows pod'
  const sc = obj(spec.securityContext)
  if (sc !== undefined) {
    const sp = p.child('securityContext')
    for (const k of [
      'appArmorProfile',
      'seLinuxOptions',
      'seccompProfile',
      'fsGroup',
      'fsGroupChangePolicy',
      'sysctls',
      'runAsUser',
      'runAsGroup',
      'supplementalGroups',
      'supplementalGroupsPolicy',
      'seLinuxChangePolicy',
    ]) {
      const present = k === 'sysctls' ? arr(sc[k]).length > 0 : set(sc[k])
      if (present) errs.push(field.forbidden(sp.child(k), msg))
    }
  }
  if (set(spec.hostUsers)) errs.push(field.forbidden(p.child('hostUsers'), msg))
  if (spec.hostPID === true) errs.push(field.forbidden(p.child('hostPID'), msg))
  if (spec.hostIPC === true) errs.push(field.forbidden(p.child('hostIPC'), msg))
  if (set(spec.shareProcessNamespace)) errs.push(field.forbidden(p.child('shareProcessNamespace'), msg))
  visitContainers(spec, p, (c, cp) => {
    const csc = obj(c.securityContext)
    if (csc === undefined) return
    const sp = cp.child('securityContext')
    for (const k of [
      'appArmorProfile',
      'seLinuxOptions',
      'seccompProfile',
      'capabilities',
      'readOnlyRootFilesystem',
      'privileged',
      'allowPrivilegeEscalation',
      'procMount',
      'runAsUser',
      'runAsGroup',
    ])
      if (set(csc[k])) errs.push(field.forbidden(sp.child(k), msg))
  })
  return errs
}

// ---------------------------------------------------------------------------------------------
// Annotations (ValidatePodSpecificAnnotations; the pod's or the template's metadata.annotations)

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod'
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/'
const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/'
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost'
const MIRROR = 'kubernetes.io/config.mirror'

/** ValidateSeccompProfile (an annotation's value). */
function validateSeccompAnnotation(v: string, p: FieldPath): FieldError[] {
  if (v === 'runtime/default' || v === 'docker/default' || v === 'unconfined') return []
  if (v.startsWith('localhost/')) return validateLocalDescendingPath(v.slice('localhost/'.length), p)
  return [field.invalid(p, v, 'must be a valid seccomp profile')]
}

/** podSpecHasContainer. */
const hasContainer = (spec: JSONObject, name: string): boolean =>
  ['initContainers', 'containers', 'ephemeralContainers'].some((k) =>
    arr(spec[k]).some((c) => str(obj(c)?.name) === name),
  )

/** GetDeletionCostFromPodAnnotations's error or not: an int32 with no `+` and no leading zeros. */
function isValidDeletionCost(v: string): boolean {
  if (!/^(-|0$|[1-9])/.test(v)) return false
  if (!/^[-+]?[0-9]+$/.test(v)) return false
  const n = BigInt(v)
  return n >= -2147483648n && n <= 2147483647n
}

/**
 * ValidatePodSpecificAnnotations without the tolerations annotation (its JSON is not parsed here):
 * the mirror-pod rule, pod-deletion-cost (PodDeletionCost is on in every supported release), the
 * seccomp annotations and the AppArmor container annotations.
 */
export function validatePodSpecificAnnotations(
  annotations: Record<string, string> | undefined,
  spec: JSONObject,
  p: FieldPath,
  minor: number,
): FieldError[] {
  const a = annotations ?? {}
  const errs: FieldError[] = []
  if (Object.hasOwn(a, MIRROR) && str(spec.nodeName).length === 0)
    errs.push(field.invalid(p.key(MIRROR), a[MIRROR], 'must set spec.nodeName if mirror pod annotation is set'))
  if (Object.hasOwn(a, TOLERATIONS_ANNOTATION) && a[TOLERATIONS_ANNOTATION] !== '')
    errs.push(...validateTolerationsInPodAnnotation(a[TOLERATIONS_ANNOTATION] as string, p, minor))
  if (Object.hasOwn(a, DELETION_COST) && !isValidDeletionCost(a[DELETION_COST] as string))
    errs.push(field.invalid(p.key(DELETION_COST), a[DELETION_COST], 'must be a 32bit integer'))
  if (Object.hasOwn(a, SECCOMP_POD))
    errs.push(...validateSeccompAnnotation(a[SECCOMP_POD] as string, p.child(SECCOMP_POD)))
  for (const k of keys(a))
    if (k.startsWith(SECCOMP_CONTAINER)) errs.push(...validateSeccompAnnotation(a[k] as string, p.child(k)))
  for (const k of keys(a)) {
    if (!k.startsWith(APPARMOR_CONTAINER)) continue
    const name = k.slice(APPARMOR_CONTAINER.length)
    if (!hasContainer(spec, name)) errs.push(field.invalid(p.key(k), name, 'container not found'))
    const v = a[k] as string
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/'))
      errs.push(field.invalid(p.key(k), v, `invalid AppArmor profile name: ${goQuote(v)}`))
  }
  return errs
}

/** validateSeccompAnnotationsAndFieldsMatch. */
function seccompMatch(annotation: string, sp: JSONObject, p: FieldPath): FieldError[] {
  const type = str(sp.type)
  const typeErr = [field.forbidden(p.child('type'), 'seccomp type in annotation and field must match')]
  if (type === 'Unconfined') return annotation === 'unconfined' ? [] : typeErr
  if (type === 'RuntimeDefault')
    return annotation === 'runtime/default' || annotation === 'docker/default' ? [] : typeErr
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return typeErr
    if (sp.localhostProfile !== annotation.slice('localhost/'.length))
      return [field.forbidden(p.child('localhostProfile'), 'seccomp profile in annotation and field must match')]
  }
  return []
}

/** Whether `annotations` holds the pod seccomp annotation or a container's seccomp or AppArmor one (own keys). */
function hasSecurityAnnotation(annotations: Record<string, string> | undefined): boolean {
  if (annotations === undefined) return false
  for (const k in annotations)
    if (
      Object.hasOwn(annotations, k) &&
      (k === SECCOMP_POD || k.startsWith(SECCOMP_CONTAINER) || k.startsWith(APPARMOR_CONTAINER))
    )
      return true
  return false
}

/** validateSeccompAnnotationsAndFields and validateAppArmorAnnotationsAndFieldsMatchOnCreate. */
export function validateAnnotationsAndFieldsMatch(
  annotations: Record<string, string> | undefined,
  spec: JSONObject,
  p: FieldPath,
): FieldError[] {
  // every error below needs one of these annotations: without any (the common pod) there is nothing to match
  if (!hasSecurityAnnotation(annotations)) return []
  const a = annotations as Record<string, string>
  const errs: FieldError[] = []
  const podSC = obj(spec.securityContext)
  const podSeccomp = obj(podSC?.seccompProfile)
  if (podSeccomp !== undefined && Object.hasOwn(a, SECCOMP_POD))
    errs.push(...seccompMatch(a[SECCOMP_POD] as string, podSeccomp, p.child('securityContext', 'seccompProfile')))
  visitContainers(spec, p, (c, cp) => {
    const sp = obj(obj(c.securityContext)?.seccompProfile)
    const k = SECCOMP_CONTAINER + str(c.name)
    if (sp !== undefined && Object.hasOwn(a, k))
      errs.push(...seccompMatch(a[k] as string, sp, cp.child('securityContext', 'seccompProfile')))
  })
  if (str(obj(spec.os)?.name) === 'windows') return errs
  const podProfile = obj(podSC?.appArmorProfile)
  visitContainers(spec, p, (c, cp) => {
    const profile = obj(obj(c.securityContext)?.appArmorProfile) ?? podProfile
    if (profile === undefined) return
    const k = APPARMOR_CONTAINER + str(c.name)
    if (!Object.hasOwn(a, k)) return
    const annotation = a[k] as string
    const ap = cp.child('securityContext', 'appArmorProfile')
    const typeErr = field.forbidden(ap.child('type'), 'apparmor type in annotation and field must match')
    switch (str(profile.type)) {
      case 'Unconfined':
        if (annotation !== 'unconfined') errs.push(typeErr)
        break
      case 'RuntimeDefault':
        if (annotation !== 'runtime/default') errs.push(typeErr)
        break
      case 'Localhost':
        if (!annotation.startsWith('localhost/')) errs.push(typeErr)
        else if (profile.localhostProfile !== annotation.slice('localhost/'.length))
          errs.push(
            field.forbidden(ap.child('localhostProfile'), 'apparmor profile in annotation and field must match'),
          )
    }
  })
  return errs
}
