import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { isValidPortName } from '../../kube/library/format.js'
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../kube/validation/names.js'
import {
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
  validateObjectMetaFor,
} from '../../kube/validation/objectmeta.js'
import { parseQuantity, Quantity } from '../../kube/values/quantity.js'
import { type JSONObject, register, type ValidationContext } from './registry.js'

// core/v1 Pod, PodTemplate and the PodSpec every workload template carries (kubernetes v1.37.2
// pkg/apis/core/validation/validation.go: ValidatePodCreate / ValidatePodUpdate, ValidatePodTemplate,
// ValidatePodTemplateSpec, ValidatePodSpec and the container, volume, port, env, resources checks
// below). The apiserver validates the internal types after conversion; the field paths are the v1
// JSON names, as the Go code writes them (including its `downwarAPI` and `cephFS` for volume sources).
// Covered: volumes (names, one source, duplicates), containers / init containers (name, image,
// terminationMessagePolicy, ports, env names, envFrom, volumeMounts, imagePullPolicy, resources and
// quantities, duplicate names), restartPolicy, dnsPolicy, nodeSelector, serviceAccountName,
// activeDeadlineSeconds, hostname / subdomain, terminationGracePeriodSeconds, tolerations (operator,
// effect, key), ephemeral containers in templates, probes of regular containers. Not yet: init
// container probes and sidecars, lifecycle, securityContext,
// affinity, topology spread, DNS config, host aliases, readiness gates, overhead, volume source
// details, the Pod update rules beyond metadata (spec immutability and its diff message).

const isObj = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const obj = (v: unknown): JSONObject => (isObj(v) ? v : {})
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined
const strMap = (v: unknown): Record<string, string> | undefined =>
  isObj(v) ? (v as Record<string, string>) : undefined

/** ValidateDNS1123Label. */
export function validateDNS1123Label(value: string, p: FieldPath): FieldError[] {
  return isDNS1123Label(value).map((m) => field.invalid(p, value, m))
}

/** ValidateNonnegativeField. */
export function validateNonnegative(value: number, p: FieldPath): FieldError[] {
  return value < 0 ? [field.invalid(p, value, 'must be greater than or equal to 0')] : []
}

/** The options the apiserver passes to ValidatePodSpec, by the target release's feature-gate defaults. */
export interface PodOptions {
  readonly minor: number
}

const VOLUME_SOURCES: readonly (readonly [json: string, path: string])[] = [
  ['emptyDir', 'emptyDir'],
  ['hostPath', 'hostPath'],
  ['gitRepo', 'gitRepo'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['secret', 'secret'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['persistentVolumeClaim', 'persistentVolumeClaim'],
  ['rbd', 'rbd'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'],
  ['downwardAPI', 'downwarAPI'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['configMap', 'configMap'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'],
  ['projected', 'projected'],
  ['scaleIO', 'scaleIO'],
  ['csi', 'csi'],
  ['ephemeral', 'ephemeral'],
  ['image', 'image'],
]

/** validateVolumeSource: the one-source rule (the sources' own fields are not checked yet). */
function validateVolumeSource(source: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  for (const [json, path] of VOLUME_SOURCES) {
    if (!isObj(source[json])) continue
    if (n > 0) errs.push(field.forbidden(p.child(path), 'may not specify more than 1 volume type'))
    else n++
  }
  if (n === 0) errs.push(field.required(p, 'must specify a volume type'))
  return errs
}

/** ValidateVolumes: the valid volumes by name, and the errors. */
export function validateVolumes(volumes: unknown, p: FieldPath): [Map<string, JSONObject>, FieldError[]] {
  const errs: FieldError[] = []
  const vols = new Map<string, JSONObject>()
  arr(volumes).forEach((v, i) => {
    const vol = obj(v)
    const ip = p.index(i)
    const np = ip.child('name')
    const name = str(vol.name)
    const el = validateVolumeSource(vol, ip)
    if (name.length === 0) el.push(field.required(np, ''))
    else el.push(...validateDNS1123Label(name, np))
    if (vols.has(name)) el.push(field.duplicate(np, name))
    if (el.length === 0) vols.set(name, vol)
    else errs.push(...el)
  })
  return [vols, errs]
}

const SUPPORTED_PROTOCOLS = ['SCTP', 'TCP', 'UDP']

/** validateContainerPorts. */
function validateContainerPorts(ports: unknown, p: FieldPath): FieldError[] {
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

/** ValidateEnv: names (the valueFrom sources are not checked yet). */
function validateEnv(vars: unknown, p: FieldPath, o: PodOptions): FieldError[] {
  const errs: FieldError[] = []
  arr(vars).forEach((x, i) => {
    const ev = obj(x)
    const ip = p.index(i)
    const name = str(ev.name)
    if (name.length === 0) errs.push(field.required(ip.child('name'), ''))
    else for (const m of envVarNameErrors(name, o.minor)) errs.push(field.invalid(ip.child('name'), name, m))
  })
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
    if (n === 0) errs.push(field.invalid(ip, '', 'must specify one of: `configMapRef` or `secretRef`'))
    else if (n > 1) errs.push(field.invalid(ip, '', 'may not have more than one field specified at a time'))
  })
  return errs
}

/** ValidateVolumeMounts: names, mount paths, subPath / subPathExpr exclusivity. */
function validateVolumeMounts(mounts: unknown, volumes: Map<string, JSONObject>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const points = new Set<string>()
  arr(mounts).forEach((x, i) => {
    const m = obj(x)
    const ip = p.index(i)
    const name = str(m.name)
    const mountPath = str(m.mountPath)
    if (name.length === 0) errs.push(field.required(ip.child('name'), ''))
    if (!volumes.has(name)) errs.push(field.notFound(ip.child('name'), name))
    if (mountPath.length === 0) errs.push(field.required(ip.child('mountPath'), ''))
    if (points.has(mountPath)) errs.push(field.invalid(ip.child('mountPath'), mountPath, 'must be unique'))
    points.add(mountPath)
    const subPathExpr = str(m.subPathExpr)
    if (subPathExpr.length > 0 && str(m.subPath).length > 0)
      errs.push(field.invalid(ip.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'))
  })
  return errs
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never']
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError']

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage'])
const isHugePages = (n: string) => n.startsWith('hugepages-')
const isNative = (n: string) => !n.includes('/') || n.includes('kubernetes.io/')
const isOvercommitAllowed = (n: string) => isNative(n) && !isHugePages(n)
/** helper.IsExtendedResourceName: not native, not `requests.`-prefixed (integer-valued for containers). */
const isExtended = (n: string) => !isNative(n) && !n.startsWith('requests.')

/** A quantity as the decoder wrote it (Quantity.String()); undefined when it does not parse. */
function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined
  const q = parseQuantity(String(v))
  return q instanceof Quantity ? q : undefined
}

const ZERO = quantity('0') as Quantity

/** ValidateContainerResourceName (the names of the standard and extended resources). */
function validateContainerResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => field.invalid(p, name, m))
  if (errs.length > 0) return errs
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name))
      return [field.invalid(p, name, 'must be a standard resource type or fully qualified')]
  } else if (!isNative(name) && !isExtended(name)) {
    return [field.invalid(p, name, "doesn't follow extended resource name standard")]
  }
  return errs
}

/** ValidateResourceQuantityValue. */
function validateQuantity(name: string, q: Quantity, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (q.cmp(ZERO) < 0) errs.push(field.invalid(p, q.toString(), 'must be greater than or equal to 0'))
  // IsIntegerResourceName: MilliValue() % 1000 != 0 (a canonical non-integer ends in m, u or n, or has e-)
  if (isExtended(name) && /\d[mun]$|e-/.test(q.toString()))
    errs.push(field.invalid(p, q.toString(), 'must be an integer'))
  return errs
}

/** validateResourceRequirements (containers). */
function validateResources(resources: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const r = obj(resources)
  const limits = obj(r.limits)
  const requests = obj(r.requests)
  const limPath = p.child('limits')
  const reqPath = p.child('requests')
  let limCPUOrMemory = false
  let reqCPUOrMemory = false
  let hugePages = false
  for (const name of Object.keys(limits).sort()) {
    const kp = limPath.key(name)
    errs.push(...validateContainerResourceName(name, kp))
    const q = quantity(limits[name])
    if (q !== undefined) errs.push(...validateQuantity(name, q, kp))
    if (isHugePages(name)) hugePages = true
    if (name === 'cpu' || name === 'memory') limCPUOrMemory = true
  }
  for (const name of Object.keys(requests).sort()) {
    const kp = reqPath.key(name)
    errs.push(...validateContainerResourceName(name, kp))
    const q = quantity(requests[name])
    if (q !== undefined) {
      errs.push(...validateQuantity(name, q, kp))
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
    if (isHugePages(name)) hugePages = true
    if (name === 'cpu' || name === 'memory') reqCPUOrMemory = true
  }
  if (!limCPUOrMemory && !reqCPUOrMemory && hugePages) errs.push(field.forbidden(p, 'HugePages require cpu or memory'))
  return errs
}

/** validateContainerCommon. */
function validateContainerCommon(c: JSONObject, volumes: Map<string, JSONObject>, p: FieldPath, o: PodOptions) {
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
  errs.push(...validateEnv(c.env, p.child('env'), o))
  errs.push(...validateEnvFrom(c.envFrom, p.child('envFrom'), o))
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, p.child('volumeMounts')))
  const pull = str(c.imagePullPolicy)
  if (pull === '') errs.push(field.required(p.child('imagePullPolicy'), ''))
  else if (!PULL_POLICIES.includes(pull)) errs.push(field.notSupported(p.child('imagePullPolicy'), pull, PULL_POLICIES))
  errs.push(...validateResources(c.resources, p.child('resources')))
  return errs
}

const HTTP_SCHEMES = ['HTTP', 'HTTPS']
const GRPC_MODES = ['Plaintext', 'TLS']
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/

/** ValidatePortNumOrName (an IntOrString as decoded). */
function validatePortNumOrName(port: unknown, p: FieldPath): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => field.invalid(p, port, m))
  const n = num(port) ?? 0
  return n >= 1 && n <= 65535 ? [] : [field.invalid(p, n, 'must be between 1 and 65535, inclusive')]
}

/** validateHandler of a probe (exec, httpGet, tcpSocket, grpc: exactly one). */
function validateProbeHandler(h: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  const one = (k: string, f: (x: JSONObject, q: FieldPath) => FieldError[]) => {
    if (!isObj(h[k])) return
    if (n > 0) errs.push(field.forbidden(p.child(k), 'may not specify more than 1 handler type'))
    else {
      n++
      errs.push(...f(h[k] as JSONObject, p.child(k)))
    }
  }
  one('exec', (x, q) => (arr(x.command).length === 0 ? [field.required(q.child('command'), '')] : []))
  one('httpGet', (x, q) => {
    const e: FieldError[] = []
    if (str(x.path).length === 0) e.push(field.required(q.child('path'), ''))
    e.push(...validatePortNumOrName(x.port, q.child('port')))
    const scheme = str(x.scheme)
    if (!HTTP_SCHEMES.includes(scheme)) e.push(field.notSupported(q.child('scheme'), scheme, HTTP_SCHEMES))
    for (const hd of arr(x.httpHeaders)) {
      const name = str(obj(hd).name)
      if (!HTTP_HEADER_NAME.test(name))
        e.push(
          field.invalid(
            q.child('httpHeaders'),
            name,
            "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
          ),
        )
    }
    return e
  })
  one('tcpSocket', (x, q) => validatePortNumOrName(x.port, q.child('port')))
  one('grpc', (x, q) => {
    const e = validatePortNumOrName(num(x.port) ?? 0, q.child('port'))
    if (typeof x.mode === 'string' && !GRPC_MODES.includes(x.mode))
      e.push(field.notSupported(q.child('mode'), x.mode, GRPC_MODES))
    return e
  })
  if (n === 0) errs.push(field.required(p, 'must specify a handler type'))
  return errs
}

/** validateProbe and the liveness / readiness / startup rules. */
function validateProbe(probe: unknown, kind: 'liveness' | 'readiness' | 'startup', p: FieldPath): FieldError[] {
  if (!isObj(probe)) return []
  const errs = validateProbeHandler(probe, p)
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
    errs.push(...validateNonnegative(num(probe[k]) ?? 0, p.child(k)))
  const tgps = num(probe.terminationGracePeriodSeconds)
  if (tgps !== undefined && tgps <= 0)
    errs.push(field.invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'))
  if (kind !== 'readiness') {
    const st = num(probe.successThreshold) ?? 0
    if (st !== 1) errs.push(field.invalid(p.child('successThreshold'), st, 'must be 1'))
  } else if (tgps !== undefined)
    errs.push(field.invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'))
  return errs
}

/** validateContainers. */
function validateContainers(containers: unknown, volumes: Map<string, JSONObject>, p: FieldPath, o: PodOptions) {
  const list = arr(containers)
  if (list.length === 0) return [field.required(p, '')]
  const errs: FieldError[] = []
  const names = new Set<string>()
  list.forEach((x, i) => {
    const c = obj(x)
    const ip = p.index(i)
    errs.push(...validateContainerCommon(c, volumes, ip, o))
    const name = str(c.name)
    if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else names.add(name)
    errs.push(...validateProbe(c.livenessProbe, 'liveness', ip.child('livenessProbe')))
    errs.push(...validateProbe(c.readinessProbe, 'readiness', ip.child('readinessProbe')))
    errs.push(...validateProbe(c.startupProbe, 'startup', ip.child('startupProbe')))
  })
  return errs
}

/** validateInitContainers: the common rules, names unique across init and regular containers. */
function validateInitContainers(
  inits: unknown,
  containers: unknown,
  volumes: Map<string, JSONObject>,
  p: FieldPath,
  o: PodOptions,
) {
  const errs: FieldError[] = []
  const names = new Set(arr(containers).map((c) => str(obj(c).name)))
  arr(inits).forEach((x, i) => {
    const c = obj(x)
    const ip = p.index(i)
    errs.push(...validateContainerCommon(c, volumes, ip, o))
    const name = str(c.name)
    if (names.has(name)) errs.push(field.duplicate(ip.child('name'), name))
    else names.add(name)
  })
  return errs
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never']
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
const TOLERATION_OPERATORS = ['Equal', 'Exists']
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']

/** ValidateTolerations (TaintTolerationComparisonOperators off: Lt / Gt are NotSupported). */
function validateTolerations(tolerations: unknown, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  arr(tolerations).forEach((x, i) => {
    const t = obj(x)
    const ip = p.index(i)
    const key = str(t.key)
    const op = str(t.operator)
    const effect = str(t.effect)
    if (key.length > 0) for (const m of isQualifiedName(key, minor)) errs.push(field.invalid(ip.child('key'), key, m))
    if (key.length === 0 && op !== 'Exists')
      errs.push(
        field.invalid(
          ip.child('operator'),
          op,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      )
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute')
      errs.push(field.invalid(ip.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
    const value = str(t.value)
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(value, minor)
      if (msgs.length > 0) errs.push(field.invalid(ip.child('operator'), value, msgs.join(';')))
    } else if (op === 'Exists') {
      if (value.length > 0)
        errs.push(field.invalid(ip.child('operator'), value, "value must be empty when `operator` is 'Exists'"))
    } else if (op === 'Lt' || op === 'Gt') {
      errs.push(field.notSupported(ip.child('operator'), op, ['Equal', 'Exists', 'Lt', 'Gt']))
    } else errs.push(field.notSupported(ip.child('operator'), op, TOLERATION_OPERATORS))
    if (effect.length > 0 && !TAINT_EFFECTS.includes(effect))
      errs.push(field.notSupported(ip.child('effect'), effect, TAINT_EFFECTS))
  })
  return errs
}

/** ValidatePodSpec (the parts listed at the top of this file). */
export function validatePodSpec(spec: JSONObject, p: FieldPath, o: PodOptions): FieldError[] {
  const errs: FieldError[] = []
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null)
    errs.push(field.required(p.child('terminationGracePeriodSeconds'), ''))
  const [vols, vErrs] = validateVolumes(spec.volumes, p.child('volumes'))
  errs.push(...vErrs)
  errs.push(...validateContainers(spec.containers, vols, p.child('containers'), o))
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, vols, p.child('initContainers'), o))
  const rp = str(spec.restartPolicy)
  if (rp === '') errs.push(field.required(p.child('restartPolicy'), ''))
  else if (!RESTART_POLICIES.includes(rp)) errs.push(field.notSupported(p.child('restartPolicy'), rp, RESTART_POLICIES))
  const dns = str(spec.dnsPolicy)
  if (dns === '') errs.push(field.required(p.child('dnsPolicy'), ''))
  else if (!DNS_POLICIES.includes(dns)) errs.push(field.notSupported(p.child('dnsPolicy'), dns, DNS_POLICIES))
  errs.push(...validateLabels(strMap(spec.nodeSelector), p.child('nodeSelector'), o.minor))
  const sa = str(spec.serviceAccountName)
  if (sa.length > 0)
    for (const m of nameIsDNSSubdomain(sa, false)) errs.push(field.invalid(p.child('serviceAccountName'), sa, m))
  const ads = num(spec.activeDeadlineSeconds)
  if (ads !== undefined && (ads < 1 || ads > 2147483647))
    errs.push(field.invalid(p.child('activeDeadlineSeconds'), ads, 'must be between 1 and 2147483647, inclusive'))
  if (str(spec.hostname).length > 0) errs.push(...validateDNS1123Label(str(spec.hostname), p.child('hostname')))
  if (str(spec.subdomain).length > 0) errs.push(...validateDNS1123Label(str(spec.subdomain), p.child('subdomain')))
  if (arr(spec.tolerations).length > 0)
    errs.push(...validateTolerations(spec.tolerations, p.child('tolerations'), o.minor))
  const pc = str(spec.priorityClassName)
  if (pc.length > 0)
    for (const m of nameIsDNSSubdomain(pc, false)) errs.push(field.invalid(p.child('priorityClassName'), pc, m))
  return errs
}

/** ValidatePodTemplateSpec. */
export function validatePodTemplateSpec(template: JSONObject, p: FieldPath, o: PodOptions): FieldError[] {
  const meta = obj(template.metadata)
  const spec = obj(template.spec)
  const errs: FieldError[] = []
  errs.push(...validateLabels(strMap(meta.labels), p.child('labels'), o.minor))
  errs.push(...validateAnnotations(strMap(meta.annotations), p.child('annotations'), o.minor))
  errs.push(...validatePodSpec(spec, p.child('spec'), o))
  if (arr(spec.ephemeralContainers).length > 0)
    errs.push(
      field.forbidden(p.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'),
    )
  return errs
}

const META = FieldPath.of('metadata')

/** ValidatePodCreate (ValidatePod: ObjectMeta with DNS-subdomain names, then the spec). */
function validatePod(pod: JSONObject, ctx: ValidationContext): FieldError[] {
  const o = { minor: ctx.minor }
  if (ctx.oldObject !== undefined) {
    return validateObjectMetaFor(pod, {
      namespaced: true,
      nameFn: nameIsDNSSubdomain,
      minor: ctx.minor,
      oldObject: ctx.oldObject,
      path: META,
    })
  }
  const errs = validateObjectMetaFor(pod, {
    namespaced: true,
    nameFn: nameIsDNSSubdomain,
    minor: ctx.minor,
    path: META,
  })
  errs.push(...validatePodSpec(obj(pod.spec), FieldPath.of('spec'), o))
  return errs
}

/** ValidatePodTemplate / ValidatePodTemplateUpdate. */
function validatePodTemplate(t: JSONObject, ctx: ValidationContext): FieldError[] {
  const o = { minor: ctx.minor }
  const errs =
    ctx.oldObject !== undefined
      ? validateObjectMetaFor(t, {
          namespaced: true,
          nameFn: nameIsDNSSubdomain,
          minor: ctx.minor,
          oldObject: ctx.oldObject,
        })
      : validateObjectMetaFor(t, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: ctx.minor })
  errs.push(...validatePodTemplateSpec(obj(t.template), FieldPath.of('template'), o))
  return errs
}

register('', 'v1', 'Pod', validatePod)
register('', 'v1', 'PodTemplate', validatePodTemplate)
