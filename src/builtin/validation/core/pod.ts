import { goQuote } from '../../../cel/ext/quote.js'
import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isValidPortName } from '../../../kube/library/format.js'
import {
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
  validateObjectMetaFor,
} from '../../../kube/validation/objectmeta.js'
import { isObject as isObj, type JSONObject, sortedKeys } from '../../../kube/values/json.js'
import { parseQuantity, Quantity } from '../../../kube/values/quantity.js'
import { aggregateContainerResources, resourceList } from '../../resource-helpers.js'
import { validateDNS1123Label, validateNonnegativeField } from '../common.js'
import { isConfigMapKey } from './config.js'
import { validateAffinity, validateTopologySpreadConstraints } from './pod-affinity.js'
import { validateHostAliases, validatePodDNSConfig } from './pod-dns.js'
import {
  checkHostPortConflicts,
  resizePolicyValue,
  validateEphemeralAllowList,
  validateInitContainerRestartPolicy,
  validateLifecycle,
  validateProbes,
  validateRegularContainerRestartPolicy,
  validateResizePolicy,
} from './pod-lifecycle.js'
import {
  validatePodHostName,
  validatePodHostNetworkDeps,
  validatePodResourceClaims,
  validatePreemptionPolicy,
  validateReadinessGates,
  validateRuntimeClassName,
  validateSchedulingGates,
} from './pod-misc.js'
import {
  validateAnnotationsAndFieldsMatch,
  validateHostUsers,
  validateLocalDescendingPath,
  validateOS,
  validatePathNoBacksteps,
  validatePodSecurityContext,
  validatePodSpecificAnnotations,
  validateSecurityContext,
  validateShareProcessNamespace,
  validateWindowsHostProcessPod,
  visitContainers,
} from './pod-security.js'
import { validateTolerations } from './pod-tolerations.js'
import { validatePodUpdateRules } from './pod-update.js'
import { validateContainerResourceFieldSelector, validateObjectFieldSelector, validateVolumes } from './pod-volumes.js'
import {
  isHugePageResourceName,
  isOvercommitAllowed,
  isValidContainerResourceName,
  quantity,
  validateContainerResourceName,
  validateResourceName,
  validateResourceQuantityValue,
} from './resources.js'

// core/v1 Pod, PodTemplate and the PodSpec every workload template carries (kubernetes v1.37.2
// pkg/apis/core/validation/validation.go: ValidatePodCreate, ValidatePodTemplate,
// ValidatePodTemplateSpec, ValidatePodSpec in Go's order). The apiserver validates the internal types
// after conversion; the field paths are the v1 JSON names, as the Go code writes them. Here: the
// containers (validateContainerCommon: name, image, terminationMessagePolicy, ports, env names,
// envFrom, volumeMounts, imagePullPolicy, resources and quantities, resizePolicy, securityContext;
// regular, init / sidecar and ephemeral containers), restartPolicy, dnsPolicy, nodeSelector,
// tolerations, serviceAccountName, nodeName, activeDeadlineSeconds, hostname / subdomain,
// priorityClassName, overhead, and the Pod-only rules of validatePodMetadataAndSpec and
// ValidatePodCreate. The rest lives beside this file: pod-volumes.ts (volume sources), pod-security.ts
// (security contexts, OS rules, seccomp / AppArmor annotations), pod-affinity.ts (affinity, topology
// spread), pod-dns.ts (dnsConfig, hostAliases), pod-lifecycle.ts (probes, lifecycle hooks, restart and
// resize policies), pod-misc.ts (resource claims, gates, hostNetwork ports, hostnameOverride).
// The Pod update rules are in pod-update.ts (the spec diff of their refusal: pod-spec-internal.ts), the
// tolerations (and their deprecated annotation) in pod-tolerations.ts. Not ported: bindMountOptions (its
// gate, alpha in 1.37, is off: the strategy drops the field before validation).
// The strategy's mutations before validation (dropping disabled fields, merging matchLabelKeys into
// selectors, the AppArmor annotation skew) are not applied.

const obj = (v: unknown): JSONObject => (isObj(v) ? v : {})
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined
const strMap = (v: unknown): Record<string, string> | undefined =>
  isObj(v) ? (v as Record<string, string>) : undefined

export { validateDNS1123Label, validateTolerations }
/** ValidateNonnegativeField. */
export const validateNonnegative = validateNonnegativeField

/** The options the apiserver passes to ValidatePodSpec, by the target release's feature-gate defaults. */
export interface PodOptions {
  readonly minor: number
  /** Set when the PodSpec is a Pod's (opts.ResourceIsPod): its name and whether it is a mirror pod. */
  readonly pod?: { readonly name: string; readonly mirror: boolean }
}

const SUPPORTED_PROTOCOLS = ['SCTP', 'TCP', 'UDP']

/** validateContainerPorts. */
function validateContainerPorts(ports: unknown, p: FieldPath): FieldError[] {
  if (arr(ports).length === 0) return []
  const errs: FieldError[] = []
  const names = new Set<string>()
  arr(ports).forEach((x, i) => {
    const port = obj(x)
    const ip = p.index(i)
    const name = str(port.name)
    if (name.length > 0) {
      const msgs = isValidPortName(name)
      if (msgs.length > 0) for (const m of msgs) errs.push(field.invalid(ip.child('name'), name, m))
      else if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
      else names.add(name)
    }
    const cp = num(port.containerPort) ?? 0
    if (cp === 0) errs.push(field.required(ip.child('containerPort'), ''))
    else if (cp < 1 || cp > 65535)
      errs.push(field.invalid(ip.child('containerPort'), cp, 'must be between 1 and 65535, inclusive'))
    const hp = num(port.hostPort) ?? 0
    if (hp !== 0 && (hp < 1 || hp > 65535))
      errs.push(field.invalid(ip.child('hostPort'), hp, 'must be between 1 and 65535, inclusive'))
    const protocol = str(port.protocol)
    if (protocol.length === 0) errs.push(field.required(ip.child('protocol'), ''))
    else if (!SUPPORTED_PROTOCOLS.includes(protocol))
      errs.push(field.notSupported(ip.child('protocol'), protocol, SUPPORTED_PROTOCOLS))
  })
  return errs
}

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*'
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/

/** hasChDirPrefix. */
function hasChDirPrefix(value: string): string[] {
  if (value.startsWith('..')) return [`must not start with '..'`]
  if (value.startsWith('.')) return [`must not start with '.'`]
  return []
}

/** IsEnvVarName, or IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation: beta, on, from 1.32). */
function envVarNameErrors(name: string, minor: number): string[] {
  if (minor >= 32) {
    for (const ch of name) {
      const c = ch.codePointAt(0) as number
      if (c > 0x7e || c < 0x20 || ch === '=')
        return ["a valid environment variable name must consist only of printable ASCII characters other than '='"]
    }
    return []
  }
  const errs: string[] = []
  if (!ENV_VAR_NAME.test(name))
    errs.push(
      `a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '${ENV_VAR_NAME_FMT}')`,
    )
  errs.push(...hasChDirPrefix(name))
  return errs
}

/** ValidateEnv: names and validateEnvVarValueFrom. */
function validateEnv(vars: unknown, p: FieldPath, o: PodOptions): FieldError[] {
  const errs: FieldError[] = []
  arr(vars).forEach((x, i) => {
    const ev = obj(x)
    const ip = p.index(i)
    const name = str(ev.name)
    if (name.length === 0) errs.push(field.required(ip.child('name'), ''))
    else for (const m of envVarNameErrors(name, o.minor)) errs.push(field.invalid(ip.child('name'), name, m))
    errs.push(...validateEnvVarValueFrom(ev, ip.child('valueFrom'), o.minor))
  })
  return errs
}

const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]

/** validateConfigMapKeySelector / validateSecretKeySelector (names as secret names). */
function validateKeySelector(s: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const name = str(s.name)
  for (const m of nameIsDNSSubdomain(name, false)) errs.push(field.invalid(p.child('name'), name, m))
  const key = str(s.key)
  if (key.length === 0) errs.push(field.required(p.child('key'), ''))
  else for (const m of isConfigMapKey(key)) errs.push(field.invalid(p.child('key'), key, m))
  return errs
}

/** validateFileKeySelector. */
function validateFileKeySelector(s: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const key = str(s.key)
  if (key.length === 0) errs.push(field.required(p.child('key'), ''))
  else for (const m of envVarNameErrors(key, 37)) errs.push(field.invalid(p.child('key'), key, m))
  const vol = str(s.volumeName)
  if (vol.length === 0) errs.push(field.required(p.child('volumeName'), ''))
  else errs.push(...validateDNS1123Label(vol, p.child('volumeName')))
  const path = str(s.path)
  if (path.length === 0) errs.push(field.required(p.child('path'), ''))
  else errs.push(...validatePathNoBacksteps(path, p.child('path')))
  return errs
}

/** validateEnvVarValueFrom (EnvFiles, beta on from 1.35, adds fileKeyRef to the message). */
function validateEnvVarValueFrom(ev: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const vf = ev.valueFrom
  if (!isObj(vf)) return []
  const errs: FieldError[] = []
  let n = 0
  if (isObj(vf.fieldRef)) {
    n++
    errs.push(...validateObjectFieldSelector(vf.fieldRef, ENV_FIELD_PATHS, p.child('fieldRef')))
  }
  if (isObj(vf.resourceFieldRef)) {
    n++
    errs.push(...validateContainerResourceFieldSelector(vf.resourceFieldRef, p.child('resourceFieldRef'), false))
  }
  if (isObj(vf.configMapKeyRef)) {
    n++
    errs.push(...validateKeySelector(vf.configMapKeyRef, p.child('configMapKeyRef')))
  }
  if (isObj(vf.secretKeyRef)) {
    n++
    errs.push(...validateKeySelector(vf.secretKeyRef, p.child('secretKeyRef')))
  }
  if (isObj(vf.fileKeyRef)) {
    n++
    errs.push(...validateFileKeySelector(vf.fileKeyRef, p.child('fileKeyRef')))
  }
  if (n === 0)
    errs.push(
      field.invalid(
        p,
        '',
        minor >= 35
          ? 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'
          : 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    )
  else if (str(ev.value).length !== 0) errs.push(field.invalid(p, '', 'may not be specified when `value` is not empty'))
  else if (n > 1) errs.push(field.invalid(p, '', 'may not have more than one field specified at a time'))
  return errs
}

/** ValidateEnvFrom: one of configMapRef / secretRef, their names, the prefix. */
function validateEnvFrom(vars: unknown, p: FieldPath, o: PodOptions): FieldError[] {
  const errs: FieldError[] = []
  arr(vars).forEach((x, i) => {
    const ev = obj(x)
    const ip = p.index(i)
    const prefix = str(ev.prefix)
    if (prefix.length > 0)
      for (const m of envVarNameErrors(prefix, o.minor)) errs.push(field.invalid(ip.child('prefix'), prefix, m))
    let n = 0
    for (const ref of ['configMapRef', 'secretRef'] as const) {
      if (!isObj(ev[ref])) continue
      n++
      const name = str(ev[ref].name)
      const rp = ip.child(ref, 'name')
      if (name.length === 0) errs.push(field.required(rp, ''))
      else for (const m of nameIsDNSSubdomain(name, false)) errs.push(field.invalid(rp, name, m))
    }
    // Go reports these two at the list (fldPath), not at the entry
    if (n === 0) errs.push(field.invalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'))
    else if (n > 1) errs.push(field.invalid(p, '', 'may not have more than one field specified at a time'))
  })
  return errs
}

const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None']
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible']

/**
 * ValidateVolumeMounts: names, mount paths, subPath / subPathExpr, mountPropagation, recursiveReadOnly
 * (Go reports the last four at volumeMounts.<field>, without the index), no overlap with volumeDevices.
 */
function validateVolumeMounts(c: JSONObject, volumes: Map<string, JSONObject>, p: FieldPath): FieldError[] {
  if (arr(c.volumeMounts).length === 0) return []
  const errs: FieldError[] = []
  const points = new Set<string>()
  const devices = pathMap(c.volumeDevices, 'devicePath')
  arr(c.volumeMounts).forEach((x, i) => {
    const m = obj(x)
    const ip = p.index(i)
    const name = str(m.name)
    const mountPath = str(m.mountPath)
    if (name.length === 0) errs.push(field.required(ip.child('name'), ''))
    if (!volumes.has(name)) errs.push(field.notFound(ip.child('name'), name))
    if (mountPath.length === 0) errs.push(field.required(ip.child('mountPath'), ''))
    if (points.has(mountPath)) errs.push(field.invalid(ip.child('mountPath'), mountPath, 'must be unique'))
    points.add(mountPath)
    if (devices.has(name)) errs.push(field.invalid(ip.child('name'), name, 'must not already exist in volumeDevices'))
    if ([...devices.values()].includes(mountPath))
      errs.push(field.invalid(ip.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'))
    const subPath = str(m.subPath)
    if (subPath.length > 0) errs.push(...validateLocalDescendingPath(subPath, p.child('subPath')))
    const subPathExpr = str(m.subPathExpr)
    if (subPathExpr.length > 0) {
      if (subPath.length > 0)
        errs.push(field.invalid(ip.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'))
      errs.push(...validateLocalDescendingPath(subPathExpr, p.child('subPathExpr')))
    }
    const mp = m.mountPropagation
    if (typeof mp === 'string') {
      if (!MOUNT_PROPAGATIONS.includes(mp))
        errs.push(field.notSupported(p.child('mountPropagation'), mp, MOUNT_PROPAGATIONS))
      if (mp === 'Bidirectional' && obj(c.securityContext).privileged !== true)
        errs.push(
          field.forbidden(
            p.child('mountPropagation'),
            'Bidirectional mount propagation is available only to privileged containers',
          ),
        )
    }
    const rro = m.recursiveReadOnly
    if (typeof rro === 'string') {
      const rp = p.child('recursiveReadOnly')
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (m.readOnly !== true) errs.push(field.forbidden(rp, 'may only be specified when readOnly is true'))
        if (typeof mp === 'string' && mp !== 'None')
          errs.push(field.forbidden(rp, 'may only be specified when mountPropagation is None or not specified'))
      } else if (rro !== 'Disabled') errs.push(field.notSupported(rp, rro, RECURSIVE_READ_ONLY))
    }
  })
  return errs
}

/** GetVolumeMountMap / GetVolumeDeviceMap: name to path (a later entry of the same name wins). */
function pathMap(list: unknown, key: 'mountPath' | 'devicePath'): Map<string, string> {
  return new Map(arr(list).map((x) => [str(obj(x).name), str(obj(x)[key])] as const))
}

/** ValidateVolumeDevices: block devices come from PVC or ephemeral volumes, no overlap with volumeMounts. */
function validateVolumeDevices(c: JSONObject, volumes: Map<string, JSONObject>, p: FieldPath): FieldError[] {
  // every rule is about a device: none, nothing to build the lookups for
  if (arr(c.volumeDevices).length === 0) return []
  const errs: FieldError[] = []
  const mounts = pathMap(c.volumeMounts, 'mountPath')
  const paths = new Set<string>()
  const names = new Set<string>()
  arr(c.volumeDevices).forEach((x, i) => {
    const d = obj(x)
    const ip = p.index(i)
    const name = str(d.name)
    const devPath = str(d.devicePath)
    const source = volumes.get(name)
    if (name.length === 0) errs.push(field.required(ip.child('name'), ''))
    if (names.has(name)) errs.push(field.invalid(ip.child('name'), name, 'must be unique'))
    if (source !== undefined && !isObj(source.persistentVolumeClaim) && !isObj(source.ephemeral))
      errs.push(
        field.invalid(
          ip.child('name'),
          name,
          'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
        ),
      )
    if (source === undefined) errs.push(field.notFound(ip.child('name'), name))
    if (devPath.length === 0) errs.push(field.required(ip.child('devicePath'), ''))
    if (paths.has(devPath)) errs.push(field.invalid(ip.child('devicePath'), devPath, 'must be unique'))
    if (devPath.length > 0 && devPath.split('/').includes('..'))
      errs.push(field.invalid(ip.child('devicePath'), devPath, "can not contain backsteps ('..')"))
    else paths.add(devPath)
    if (mounts.has(name)) errs.push(field.invalid(ip.child('name'), name, 'must not already exist in volumeMounts'))
    if ([...mounts.values()].includes(devPath))
      errs.push(field.invalid(ip.child('devicePath'), devPath, 'must not already exist as a path in volumeMounts'))
    if (name.length > 0) names.add(name)
  })
  return errs
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never']
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError']

/** validateResourceQuantityHugePageValue: a positive integer multiple of the page size (IsHugePageResourceValueDivisible). */
function validateHugePageValue(name: string, q: Quantity, p: FieldPath): FieldError[] {
  const page = parseQuantity(name.slice('hugepages-'.length))
  let ok = false
  if (page instanceof Quantity && page.sign() > 0) {
    const size = page.asInt64()
    const v = q.asInt64() ?? BigInt(Math.ceil(q.asApproximateFloat64()))
    ok = size !== undefined && size > 0n && v % size === 0n
  }
  return ok ? [] : [field.invalid(p, q.toString(), `${q.toString()} is not positive integer multiple of ${name}`)]
}

/**
 * validateResourceClaimNames (container resources.claims; DynamicResourceAllocation, on from 1.34 —
 * before, the field is dropped).
 */
function validateResourceClaimNames(claims: unknown, podClaims: ReadonlySet<string>, p: FieldPath): FieldError[] {
  if (arr(claims).length === 0) return []
  const errs: FieldError[] = []
  const names = new Set<string>()
  arr(claims).forEach((x, i) => {
    const c = obj(x)
    const ip = p.index(i)
    const name = str(c.name)
    if (name === '') {
      errs.push(field.required(ip, ''))
      return
    }
    const request = str(c.request)
    if (names.has(name)) errs.push(field.duplicate(ip, name))
    else {
      let key = name
      if (request !== '') {
        errs.push(...validateDNS1123Label(request, ip.child('request')))
        key += `/${request}`
      }
      if (names.has(key)) errs.push(field.duplicate(ip, key))
      else if (request === '')
        // Go ranges over a set (random order): one Duplicate per earlier request of this claim
        for (const k of [...names].sort(compareStrings))
          if (k.split('/')[0] === name && k.includes('/')) errs.push(field.duplicate(ip, name))
      names.add(key)
    }
    if (!podClaims.has(name)) {
      const list = [...podClaims].sort(compareStrings)
      errs.push({
        ...field.notFound(ip, name),
        detail: `must be one of the names in pod.spec.resourceClaims${list.length === 0 ? ' which is empty' : `: ${list.join(', ')}`}`,
      })
    }
  })
  return errs
}

/** Whether `name` is known to pass `nameFn` (remembered for validateContainerResourceName only). */
const knownGoodName = (name: string, nameFn: (name: string, p: FieldPath) => FieldError[]): boolean =>
  nameFn === validateContainerResourceName && isValidContainerResourceName(name)

/** validateResourceRequirements (containers; podClaims: the pod's resource claim names, undefined before DRA). */
export function validateResources(
  resources: unknown,
  p: FieldPath,
  podClaims?: ReadonlySet<string>,
  nameFn: (name: string, p: FieldPath) => FieldError[] = validateContainerResourceName,
): FieldError[] {
  const errs: FieldError[] = []
  const r = obj(resources)
  const limits = obj(r.limits)
  const requests = obj(r.requests)
  const limPath = p.child('limits')
  const reqPath = p.child('requests')
  let limCPUOrMemory = false
  let reqCPUOrMemory = false
  let hugePages = false
  for (const name of sortedKeys(limits)) {
    const kp = limPath.key(name)
    if (!knownGoodName(name, nameFn)) errs.push(...nameFn(name, kp))
    const q = quantity(limits[name])
    if (q !== undefined) errs.push(...validateResourceQuantityValue(name, q, kp))
    if (isHugePageResourceName(name)) {
      hugePages = true
      if (q !== undefined) errs.push(...validateHugePageValue(name, q, kp))
    }
    if (name === 'cpu' || name === 'memory') limCPUOrMemory = true
  }
  for (const name of sortedKeys(requests)) {
    const kp = reqPath.key(name)
    if (!knownGoodName(name, nameFn)) errs.push(...nameFn(name, kp))
    const q = quantity(requests[name])
    if (q !== undefined) {
      errs.push(...validateResourceQuantityValue(name, q, kp))
      const lim = Object.hasOwn(limits, name) ? quantity(limits[name]) : undefined
      if (lim !== undefined) {
        if (q.cmp(lim) !== 0 && !isOvercommitAllowed(name))
          errs.push(field.invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${lim.toString()}`))
        else if (q.cmp(lim) > 0)
          errs.push(
            field.invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${lim.toString()}`),
          )
      } else if (!isOvercommitAllowed(name)) {
        errs.push(field.required(limPath, 'Limit must be set for non overcommitable resources'))
      }
    }
    if (isHugePageResourceName(name)) {
      hugePages = true
      if (q !== undefined) errs.push(...validateHugePageValue(name, q, kp))
    }
    if (name === 'cpu' || name === 'memory') reqCPUOrMemory = true
  }
  if (!limCPUOrMemory && !reqCPUOrMemory && hugePages) errs.push(field.forbidden(p, 'HugePages require cpu or memory'))
  if (podClaims !== undefined) errs.push(...validateResourceClaimNames(r.claims, podClaims, p.child('claims')))
  return errs
}

/** validateContainerCommon. */
function validateContainerCommon(c: JSONObject, ctx: SpecContext, p: FieldPath) {
  const errs: FieldError[] = []
  const name = str(c.name)
  if (name.length === 0) errs.push(field.required(p.child('name'), ''))
  else errs.push(...validateDNS1123Label(name, p.child('name')))
  if (str(c.image).length === 0) errs.push(field.required(p.child('image'), ''))
  const tmp = str(c.terminationMessagePolicy)
  if (tmp === '') errs.push(field.required(p.child('terminationMessagePolicy'), ''))
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp))
    errs.push(field.notSupported(p.child('terminationMessagePolicy'), tmp, TERMINATION_MESSAGE_POLICIES))
  errs.push(...validateContainerPorts(c.ports, p.child('ports')))
  errs.push(...validateEnv(c.env, p.child('env'), ctx.o))
  errs.push(...validateEnvFrom(c.envFrom, p.child('envFrom'), ctx.o))
  errs.push(...validateVolumeMounts(c, ctx.volumes, p.child('volumeMounts')))
  errs.push(...validateVolumeDevices(c, ctx.volumes, p.child('volumeDevices')))
  const pull = str(c.imagePullPolicy)
  if (pull === '') errs.push(field.required(p.child('imagePullPolicy'), ''))
  else if (!PULL_POLICIES.includes(pull)) errs.push(field.notSupported(p.child('imagePullPolicy'), pull, PULL_POLICIES))
  errs.push(...validateResources(c.resources, p.child('resources'), ctx.podClaims))
  errs.push(...validateResizePolicy(c.resizePolicy, p.child('resizePolicy'), ctx.restartPolicy))
  errs.push(...validateSecurityContext(c.securityContext, p.child('securityContext'), ctx.hostUsers))
  return errs
}

/** validateContainers. */
function validateContainers(spec: JSONObject, ctx: SpecContext, p: FieldPath) {
  const list = arr(spec.containers)
  if (list.length === 0) return [field.required(p, '')]
  const errs: FieldError[] = []
  const names = new Set<string>()
  list.forEach((x, i) => {
    const c = obj(x)
    const ip = p.index(i)
    errs.push(...validateContainerCommon(c, ctx, ip))
    const name = str(c.name)
    if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else names.add(name)
    if (isObj(c.lifecycle))
      errs.push(...validateLifecycle(c.lifecycle, ctx.gracePeriod, ip.child('lifecycle'), ctx.o.minor))
    errs.push(...validateProbes(c, ip, ctx.o.minor))
    errs.push(...validateRegularContainerRestartPolicy(c, ip, ctx.o.minor))
  })
  errs.push(...checkHostPortConflicts(list, p))
  return errs
}

const NOT_SIDECAR = 'may not be set for init containers without restartPolicy=Always'

/** validateInitContainers: names unique across init and regular containers; sidecars (restartPolicy Always) may carry probes and lifecycle. */
function validateInitContainers(spec: JSONObject, ctx: SpecContext, p: FieldPath) {
  const errs: FieldError[] = []
  const minor = ctx.o.minor
  const names = new Set(arr(spec.containers).map((c) => str(obj(c).name)))
  arr(spec.initContainers).forEach((x, i) => {
    const c = obj(x)
    const ip = p.index(i)
    errs.push(...validateContainerCommon(c, ctx, ip))
    errs.push(...validateInitContainerRestartPolicy(c, ip, minor))
    const restartAlways = c.restartPolicy === 'Always'
    const name = str(c.name)
    if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else if (name.length > 0) names.add(name)
    // Go checks each init container alone, its path indexed 0 from initContainers
    errs.push(...checkHostPortConflicts([c], p))
    if (restartAlways) {
      if (isObj(c.lifecycle))
        errs.push(...validateLifecycle(c.lifecycle, ctx.gracePeriod, ip.child('lifecycle'), minor))
      errs.push(...validateProbes(c, ip, minor))
    } else
      for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'])
        if (isObj(c[k])) errs.push(field.forbidden(ip.child(k), NOT_SIDECAR))
    // InPlacePodVerticalScaling (on from 1.33) allows a sidecar's resizePolicy
    if (minor < 33 && arr(c.resizePolicy).length > 0)
      errs.push({
        ...field.invalid(
          ip.child('resizePolicy'),
          resizePolicyValue(c.resizePolicy),
          'must not be set for init containers',
        ),
        // before 1.34 ErrorBody prints the slice with %#v
        printedValue: `[]core.ContainerResizePolicy{${arr(c.resizePolicy)
          .map(
            (x) =>
              `core.ContainerResizePolicy{ResourceName:${goQuote(str(obj(x).resourceName))}, RestartPolicy:${goQuote(str(obj(x).restartPolicy))}}`,
          )
          .join(', ')}}`,
      })
    if (!restartAlways)
      arr(c.resizePolicy).forEach((rp, j) => {
        if (obj(rp).restartPolicy === 'RestartContainer')
          errs.push(
            field.invalid(
              ip.child('resizePolicy').index(j).child('restartPolicy'),
              'RestartContainer',
              "must not be set to 'RestartContainer' for non-sidecar initContainers",
            ),
          )
      })
  })
  return errs
}

/** validateEphemeralContainers (only Pods reach it with any: templates and creates forbid them). */
function validateEphemeralContainers(spec: JSONObject, ctx: SpecContext, p: FieldPath) {
  const list = arr(spec.ephemeralContainers)
  if (list.length === 0) return []
  const errs: FieldError[] = []
  const others = new Set<string>()
  for (const k of ['containers', 'initContainers']) for (const c of arr(spec[k])) others.add(str(obj(c).name))
  const all = new Set(others)
  list.forEach((x, i) => {
    const c = obj(x)
    const ip = p.index(i)
    errs.push(...validateContainerCommon(c, ctx, ip))
    errs.push(...validateContainerOnlyForPod(c, ip))
    const name = str(c.name)
    if (all.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else all.add(name)
    const target = str(c.targetContainerName)
    if (target !== '' && !others.has(target)) errs.push(field.notFound(ip.child('targetContainerName'), target))
    errs.push(...validateEphemeralAllowList(c, ip))
    arr(c.volumeMounts).forEach((m, j) => {
      for (const k of ['subPath', 'subPathExpr'])
        if (str(obj(m)[k]) !== '')
          errs.push(
            field.forbidden(ip.child('volumeMounts').index(j).child(k), 'cannot be set for an Ephemeral Container'),
          )
    })
  })
  return errs
}

/** validateContainerOnlyForPod. */
function validateContainerOnlyForPod(c: JSONObject, p: FieldPath): FieldError[] {
  const image = str(c.image)
  return image.length !== image.trim().length
    ? [field.invalid(p.child('image'), image, 'must not have leading or trailing whitespace')]
    : []
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never']
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
const POD_LEVEL_RESOURCES = ['cpu', 'hugepages-', 'memory']

/** validatePodResourceName: a valid resource name, and one pod-level resources support (cpu, memory, hugepages-*). */
function validatePodResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(name, p)
  if (errs.length > 0) return errs
  if (name !== 'cpu' && name !== 'memory' && !isHugePageResourceName(name))
    return [field.notSupported(p, name, POD_LEVEL_RESOURCES)]
  return []
}

/**
 * validatePodResources (PodLevelResources, beta on from 1.34): pod-level requests and limits, and
 * validatePodResourceConsistency against the containers. The pod-level defaulting of
 * PrepareForCreate (PodLevelResourcesFixDefaulting) is not applied before.
 */
function validatePodResources(spec: JSONObject, podClaims: ReadonlySet<string>, p: FieldPath): FieldError[] {
  if (!isObj(spec.resources)) return []
  const rp = p.child('resources')
  if (str(obj(spec.os).name) === 'windows') return [field.forbidden(rp, 'may not be set for a windows pod')]
  const res = spec.resources
  const errs: FieldError[] = []
  if (res.claims !== undefined && res.claims !== null)
    errs.push(field.forbidden(rp.child('claims'), 'claims may not be set for Resources at pod-level'))
  errs.push(...validateResources(res, rp, podClaims, validatePodResourceName))
  const podRequests = resourceList(res.requests)
  const podLimits = resourceList(res.limits)
  // Go ranges over maps (random order): kelp visits resource names sorted
  const reqs = aggregateContainerResources(spec, 'requests')
  for (const name of [...reqs.keys()].sort(compareStrings)) {
    const pq = podRequests.get(name)
    const cq = reqs.get(name) as Quantity
    if (pq !== undefined && cq.cmp(pq) > 0)
      errs.push(
        field.invalid(
          rp.child('requests').key(name),
          pq.toString(),
          `must be greater than or equal to aggregate container requests of ${cq.toString()}`,
        ),
      )
  }
  const lims = aggregateContainerResources(spec, 'limits')
  for (const name of [...lims.keys()].sort(compareStrings)) {
    if (!isHugePageResourceName(name)) continue
    const pq = podLimits.get(name)
    const cq = lims.get(name) as Quantity
    if (pq !== undefined && cq.cmp(pq) > 0)
      errs.push(
        field.invalid(
          rp.child('limits').key(name),
          pq.toString(),
          `must be greater than or equal to aggregate container limits of ${cq.toString()}`,
        ),
      )
  }
  arr(spec.containers).forEach((c, i) => {
    const cl = resourceList(obj(obj(c).resources).limits)
    for (const name of [...cl.keys()].sort(compareStrings)) {
      const pq = podLimits.get(name)
      const cq = cl.get(name) as Quantity
      // Go's path: resources.containers[i][<name>].limits
      if (pq !== undefined && cq.cmp(pq) > 0)
        errs.push(
          field.invalid(
            rp.child('containers').index(i).key(name).child('limits'),
            cq.toString(),
            `must be less than or equal to pod limits of ${pq.toString()}`,
          ),
        )
    }
  })
  return errs
}

/** What the spec-level validators share (ValidatePodSpec's locals and options). */
interface SpecContext {
  readonly o: PodOptions
  readonly volumes: Map<string, JSONObject>
  readonly gracePeriod: number | undefined
  readonly restartPolicy: string
  readonly hostUsers: boolean
  /** gatherPodResourceClaimNames (undefined before DynamicResourceAllocation, 1.34). */
  readonly podClaims: ReadonlySet<string> | undefined
}

/** ValidatePodSpec, in Go's order. */
/** The claim names of a pod without resource claims (the usual pod): shared, only read. */
const NO_CLAIMS: ReadonlySet<string> = new Set()

export function validatePodSpec(spec: JSONObject, p: FieldPath, o: PodOptions): FieldError[] {
  const minor = o.minor
  const errs: FieldError[] = []
  const gracePeriod = num(spec.terminationGracePeriodSeconds)
  if (gracePeriod === undefined) errs.push(field.required(p.child('terminationGracePeriodSeconds'), ''))
  const [volumes, vErrs] = validateVolumes(spec.volumes, p.child('volumes'), minor, o.pod?.name)
  errs.push(...vErrs)
  if (minor >= 34)
    errs.push(...validatePodResourceClaims(spec.resourceClaims, p.child('resourceClaims'), o.pod?.mirror === true))
  const ctx: SpecContext = {
    o,
    volumes,
    gracePeriod,
    restartPolicy: str(spec.restartPolicy),
    hostUsers: spec.hostUsers !== false,
    podClaims:
      minor < 34
        ? undefined
        : arr(spec.resourceClaims).length === 0
          ? NO_CLAIMS
          : new Set(
              arr(spec.resourceClaims)
                .map((c) => str(obj(c).name))
                .filter((n) => n !== ''),
            ),
  }
  errs.push(...validateContainers(spec, ctx, p.child('containers')))
  errs.push(...validateInitContainers(spec, ctx, p.child('initContainers')))
  errs.push(...validateEphemeralContainers(spec, ctx, p.child('ephemeralContainers')))
  if (minor >= 34) errs.push(...validatePodResources(spec, ctx.podClaims ?? new Set(), p))
  errs.push(...validatePodHostNetworkDeps(spec, p, o.pod !== undefined))
  const rp = str(spec.restartPolicy)
  if (rp === '') errs.push(field.required(p.child('restartPolicy'), ''))
  else if (!RESTART_POLICIES.includes(rp)) errs.push(field.notSupported(p.child('restartPolicy'), rp, RESTART_POLICIES))
  const dns = str(spec.dnsPolicy)
  if (dns === '') errs.push(field.required(p.child('dnsPolicy'), ''))
  else if (!DNS_POLICIES.includes(dns)) errs.push(field.notSupported(p.child('dnsPolicy'), dns, DNS_POLICIES))
  errs.push(...validateLabels(strMap(spec.nodeSelector), p.child('nodeSelector'), minor))
  errs.push(...validatePodSecurityContext(spec, p.child('securityContext'), minor))
  errs.push(...validateShareProcessNamespace(spec, p))
  errs.push(...validateAffinity(spec.affinity, p.child('affinity'), minor))
  errs.push(...validatePodDNSConfig(spec, p.child('dnsConfig'), minor))
  errs.push(...validateReadinessGates(spec.readinessGates, p.child('readinessGates'), o.minor))
  errs.push(...validateSchedulingGates(spec.schedulingGates, p.child('schedulingGates'), o.minor))
  errs.push(
    ...validateTopologySpreadConstraints(spec.topologySpreadConstraints, p.child('topologySpreadConstraints'), minor),
  )
  errs.push(...validateWindowsHostProcessPod(spec, p))
  errs.push(...validateHostUsers(spec, p))
  errs.push(...validatePodHostName(spec, p))
  const sa = str(spec.serviceAccountName)
  if (sa.length > 0)
    for (const m of nameIsDNSSubdomain(sa, false)) errs.push(field.invalid(p.child('serviceAccountName'), sa, m))
  const node = str(spec.nodeName)
  if (node.length > 0)
    for (const m of nameIsDNSSubdomain(node, false)) errs.push(field.invalid(p.child('nodeName'), node, m))
  const ads = num(spec.activeDeadlineSeconds)
  if (ads !== undefined && (ads < 1 || ads > 2147483647))
    errs.push(field.invalid(p.child('activeDeadlineSeconds'), ads, 'must be between 1 and 2147483647, inclusive'))
  if (str(spec.hostname).length > 0) errs.push(...validateDNS1123Label(str(spec.hostname), p.child('hostname')))
  if (str(spec.subdomain).length > 0) errs.push(...validateDNS1123Label(str(spec.subdomain), p.child('subdomain')))
  if (arr(spec.tolerations).length > 0)
    errs.push(...validateTolerations(spec.tolerations, p.child('tolerations'), minor))
  if (arr(spec.hostAliases).length > 0)
    errs.push(...validateHostAliases(spec.hostAliases, p.child('hostAliases'), minor))
  const pc = str(spec.priorityClassName)
  if (pc.length > 0)
    for (const m of nameIsDNSSubdomain(pc, false)) errs.push(field.invalid(p.child('priorityClassName'), pc, m))
  errs.push(...validateRuntimeClassName(spec.runtimeClassName, p.child('runtimeClassName')))
  errs.push(...validatePreemptionPolicy(spec.preemptionPolicy, p.child('preemptionPolicy')))
  if (isObj(spec.overhead)) errs.push(...validateResources({ limits: spec.overhead }, p.child('overhead')))
  errs.push(...validateOS(spec, p))
  errs.push(...validateFileKeyRefVolumes(spec, p))
  return errs
}

/** validateFileKeyRefVolumes: a fileKeyRef names an emptyDir volume of the pod. */
function validateFileKeyRefVolumes(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const sources = new Map(arr(spec.volumes).map((v) => [str(obj(v).name), obj(v)] as const))
  visitContainers(spec, p, (c, cp) => {
    arr(c.env).forEach((e, j) => {
      const fk = obj(obj(obj(e).valueFrom).fileKeyRef)
      if (!isObj(obj(obj(e).valueFrom).fileKeyRef)) return
      const name = str(fk.volumeName)
      const vp = cp.child('env').index(j).child('valueFrom', 'fileKeyRef', 'volumeName')
      const source = sources.get(name)
      if (source === undefined) errs.push(field.notFound(vp, name))
      else if (!isObj(source.emptyDir)) errs.push(field.invalid(vp, name, 'referenced volume must be of type emptyDir'))
    })
  })
  return errs
}

/** ValidatePodTemplateSpec. */
export function validatePodTemplateSpec(template: JSONObject, p: FieldPath, o: PodOptions): FieldError[] {
  const meta = obj(template.metadata)
  const spec = obj(template.spec)
  const annotations = strMap(meta.annotations)
  const errs: FieldError[] = []
  errs.push(...validateLabels(strMap(meta.labels), p.child('labels'), o.minor))
  errs.push(...validateAnnotations(annotations, p.child('annotations'), o.minor))
  errs.push(...validatePodSpecificAnnotations(annotations, spec, p.child('annotations'), o.minor))
  errs.push(...validatePodSpec(spec, p.child('spec'), o))
  errs.push(...validateAnnotationsAndFieldsMatch(annotations, spec, p.child('spec')))
  if (arr(spec.ephemeralContainers).length > 0)
    errs.push(
      field.forbidden(p.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'),
    )
  return errs
}

const META = FieldPath.of('metadata')

const SPEC = FieldPath.of('spec')

/** validatePodMetadataAndSpec without ValidateObjectMeta (the callers run it): what Pod create and update share. */
function validatePodSpecAndAnnotations(pod: JSONObject, minor: number): FieldError[] {
  const meta = obj(pod.metadata)
  const spec = obj(pod.spec)
  const annotations = strMap(meta.annotations)
  const o: PodOptions = {
    minor,
    pod: { name: str(meta.name), mirror: annotations?.['kubernetes.io/config.mirror'] !== undefined },
  }
  const errs = validatePodSpecificAnnotations(annotations, spec, META.child('annotations'), minor)
  errs.push(...validatePodSpec(spec, SPEC, o))
  if (str(spec.serviceAccountName) === '')
    arr(spec.volumes).forEach((v, vi) => {
      const projected = obj(v).projected
      if (!isObj(projected)) return
      arr(projected.sources).forEach((src, si) => {
        if (isObj(obj(src).serviceAccountToken))
          errs.push(
            field.forbidden(
              SPEC.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken'),
              'must not be specified when serviceAccountName is not set',
            ),
          )
      })
    })
  const tgps = num(spec.terminationGracePeriodSeconds)
  if (tgps !== undefined) errs.push(...validateNonnegative(tgps, SPEC.child('terminationGracePeriodSeconds')))
  for (const k of ['containers', 'initContainers'])
    arr(spec[k]).forEach((c, i) => {
      errs.push(...validateContainerOnlyForPod(obj(c), SPEC.child(k).index(i)))
    })
  return errs
}

/** ValidatePodCreate: validatePodMetadataAndSpec, then the create-only rules. */
export function validatePodCreate(pod: JSONObject, minor: number): FieldError[] {
  const createMeta = () =>
    validateObjectMetaFor(pod, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor, path: META })
  const spec = obj(pod.spec)
  const annotations = strMap(obj(pod.metadata).annotations)
  const errs = createMeta()
  errs.push(...validatePodSpecAndAnnotations(pod, minor))
  if (arr(spec.ephemeralContainers).length > 0)
    errs.push(field.forbidden(SPEC.child('ephemeralContainers'), 'cannot be set on create'))
  if (str(spec.nodeName) !== '' && arr(spec.schedulingGates).length > 0)
    errs.push(field.forbidden(SPEC.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'))
  errs.push(...validateAnnotationsAndFieldsMatch(annotations, spec, SPEC))
  return errs
}

/** ValidatePodUpdate: ValidateObjectMetaUpdate, validatePodMetadataAndSpec, then pod-update.ts's rules. */
export function validatePodUpdate(pod: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const createMeta = () =>
    validateObjectMetaFor(pod, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor, path: META })
  const spec = obj(pod.spec)
  const annotations = strMap(obj(pod.metadata).annotations)
  const errs = validateObjectMetaFor(pod, {
    namespaced: true,
    nameFn: nameIsDNSSubdomain,
    minor: minor,
    oldObject: old,
    path: META,
  })
  errs.push(...createMeta(), ...validatePodSpecAndAnnotations(pod, minor))
  errs.push(
    ...validatePodUpdateRules(pod, old, minor, {
      annotations: () => validatePodSpecificAnnotations(annotations, spec, META.child('annotations'), minor),
      tolerations: () => validateTolerations(spec.tolerations, SPEC.child('tolerations'), minor),
    }),
  )
  return errs
}

/** ValidatePodTemplate / ValidatePodTemplateUpdate. */
function validatePodTemplateCreateOrUpdate(t: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const o = { minor: minor }
  const errs =
    old !== undefined
      ? validateObjectMetaFor(t, {
          namespaced: true,
          nameFn: nameIsDNSSubdomain,
          minor: minor,
          oldObject: old,
        })
      : validateObjectMetaFor(t, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor })
  errs.push(...validatePodTemplateSpec(obj(t.template), FieldPath.of('template'), o))
  return errs
}

/** ValidatePodTemplate. */
export function validatePodTemplate(t: JSONObject, minor: number): FieldError[] {
  return validatePodTemplateCreateOrUpdate(t, undefined, minor)
}

/** ValidatePodTemplateUpdate. */
export function validatePodTemplateUpdate(t: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validatePodTemplateCreateOrUpdate(t, old, minor)
}
