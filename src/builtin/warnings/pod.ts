import type { FieldPath } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'
import { isNonInteger, quantity } from '../validation/core/resources.js'
import { apparmorFieldForAnnotation, sameAppArmorProfile } from './apparmor.js'
import { child, get, goQuote, has, mapKeys, num, obj, objs, str, strs } from './common.js'
import { getWarningsForIP } from './ip.js'
import { getNodeLabelDeprecatedMessage, getWarningsForNodeSelectorTerm } from './node.js'
import { getWarningsForPersistentVolumeClaimSpec } from './storage.js'

// A pod's and a pod template's warnings (k8s.io/kubernetes v1.37.2 pkg/api/pod/warnings.go
// GetWarningsForPod, GetWarningsForPodTemplate, warningsForPodSpecAndMeta), in Go's order. `root` is the
// template's path (undefined for a Pod: Go's nil path, so `spec.…` and `metadata.…`). Go visits the
// nodeSelector map in random order; kelp in the object's. Older targets (`minor`) lack what came later (the
// releases' warnings.go: overlapping paths from 1.32; duplicate port names, IP formats, invalid preferred
// label values from 1.33).

const DEPRECATED_ANNOTATIONS: readonly [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
]

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod'
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/'
export const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/'
const NULL_SELECTOR = 'a null labelSelector results in matching no pod'
const FRACTIONAL = (p: FieldPath, value: string) =>
  `${p}: fractional byte value ${goQuote(value)} is invalid, must be an integer`

/** GetWarningsForPod: a Pod (its own AppArmor annotations are warned about by applyAppArmorVersionSkew). */
export function getWarningsForPod(pod: JSONObject, minor: number): string[] {
  return warningsForPodSpecAndMeta(undefined, obj(pod.spec) ?? {}, obj(pod.metadata) ?? {}, minor)
}

/**
 * GetWarningsForPodTemplate: a template at `p` (spec.template, template, spec.jobTemplate.spec.template; Go's
 * tests pass a nil path, undefined here, which also leaves out the template-only AppArmor warning).
 */
export function getWarningsForPodTemplate(p: FieldPath | undefined, template: unknown, minor: number): string[] {
  const t = obj(template)
  if (t === undefined) return []
  return warningsForPodSpecAndMeta(p, obj(t.spec) ?? {}, obj(t.metadata) ?? {}, minor)
}

/** A quantity's String() when MilliValue()%1000 != 0 (a fractional byte count), else undefined. */
export function fractional(v: unknown): string | undefined {
  // digits with a whole suffix (or none) are a whole number of bytes, or no quantity: the usual text
  // (`512Mi`) needs no canonical form
  if (typeof v === 'string' && WHOLE_QUANTITY.test(v)) return undefined
  const q = quantity(v)
  return q !== undefined && isNonInteger(q) ? q.toString() : undefined
}

/** Whether an own key of the map `m` starts with `prefix`. */
function hasKeyWithPrefix(m: unknown, prefix: string): boolean {
  const o = obj(m)
  if (o === undefined) return false
  for (const k in o) if (Object.hasOwn(o, k) && k.startsWith(prefix)) return true
  return false
}

/** The byte-counted resources a container's fractional values are warned about, in Go's order. */
const BYTE_RESOURCES = [
  ['memory', 'limits'],
  ['memory', 'requests'],
  ['ephemeral-storage', 'limits'],
  ['ephemeral-storage', 'requests'],
] as const

const WHOLE_QUANTITY = /^[0-9]+(?:Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/

/** pods.VisitContainersWithPath: init containers, containers, ephemeral containers, with their paths. */
function visitContainersWithPath(spec: JSONObject, specPath: FieldPath, f: (c: JSONObject, p: FieldPath) => void) {
  for (const list of CONTAINER_LISTS) {
    const cs = spec[list]
    // the list itself, not a copy (a non-object entry is visited as an empty container, as objs() gives it)
    if (!Array.isArray(cs) || cs.length === 0) continue
    const at = specPath.child(list)
    cs.forEach((c, i) => {
      f(obj(c) ?? {}, at.index(i))
    })
  }
}
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const

function warningsForPodSpecAndMeta(root: FieldPath | undefined, spec: JSONObject, meta: JSONObject, minor: number) {
  const warnings: string[] = []
  const annotations = meta.annotations
  const specPath = child(root, 'spec')

  // use of deprecated node labels in selectors/affinity/topology
  for (const k of mapKeys(spec.nodeSelector)) {
    const msg = getNodeLabelDeprecatedMessage(k)
    if (msg !== undefined) warnings.push(`${specPath.child('nodeSelector').key(k)}: ${msg}`)
  }
  const affinity = obj(spec.affinity)
  const nodeAffinity = obj(affinity?.nodeAffinity)
  if (nodeAffinity !== undefined) {
    const required = obj(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution)
    if (required !== undefined) {
      const terms = specPath.child('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution')
      warnings.push(
        ...objs(required.nodeSelectorTerms).flatMap((t, i) =>
          getWarningsForNodeSelectorTerm(t, false, terms.child('nodeSelectorTerms').index(i)),
        ),
      )
    }
    const preferred = specPath.child('affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution')
    warnings.push(
      ...objs(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).flatMap((t, i) =>
        getWarningsForNodeSelectorTerm(t.preference, minor >= 33, preferred.index(i).child('preference')),
      ),
    )
  }
  objs(spec.topologySpreadConstraints).forEach((t, i) => {
    const at = specPath.child('topologySpreadConstraints').index(i)
    const key = str(t.topologyKey)
    const msg = getNodeLabelDeprecatedMessage(key)
    if (msg !== undefined) warnings.push(`${at.child('topologyKey')}: ${key} is ${msg}`)
    // an empty labelSelector matches no pod
    if (obj(t.labelSelector) === undefined) warnings.push(`${at.child('labelSelector')}: ${NULL_SELECTOR}`)
  })

  // use of deprecated annotations
  const annotationsPath = child(root, 'metadata', 'annotations')
  for (const [key, message] of DEPRECATED_ANNOTATIONS)
    if (has(annotations, key)) warnings.push(`${annotationsPath.key(key)}: ${message}`)

  // deprecated and removed volume plugins
  const volumes = objs(spec.volumes)
  volumes.forEach((v, i) => {
    const at = specPath.child('volumes').index(i)
    // `json`: the field's JSON name where it differs from the Go field name the warning prints (StorageOS: storageos)
    const plugin = (name: string, message: string, json = name) => {
      if (obj(v[json]) !== undefined) warnings.push(`${at.child(name)}: ${message}`)
    }
    plugin('photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+')
    // GitRepoVolumeDriver: off by default from 1.33
    plugin('gitRepo', minor >= 33 ? 'deprecated in v1.11, and disabled by default in v1.33+' : 'deprecated in v1.11')
    plugin('scaleIO', 'deprecated in v1.16, non-functional in v1.22+')
    plugin('flocker', 'deprecated in v1.22, non-functional in v1.25+')
    plugin('storageOS', 'deprecated in v1.22, non-functional in v1.25+', 'storageos')
    plugin('quobyte', 'deprecated in v1.22, non-functional in v1.25+')
    plugin('glusterfs', 'deprecated in v1.25, non-functional in v1.26+')
    const claim = obj(obj(v.ephemeral)?.volumeClaimTemplate)
    if (claim !== undefined)
      warnings.push(
        ...getWarningsForPersistentVolumeClaimSpec(
          at.child('ephemeral').child('volumeClaimTemplate').child('spec'),
          obj(claim.spec) ?? {},
        ),
      )
    plugin('cephfs', 'deprecated in v1.28, non-functional in v1.31+')
    plugin('rbd', 'deprecated in v1.28, non-functional in v1.31+')
  })

  // (the overlapping paths from 1.32)
  if (minor >= 32) warnings.push(...warningsForOverlappingVirtualPaths(volumes))

  // duplicate hostAliases (#91670, #58477)
  const hostAliases = objs(spec.hostAliases)
  if (hostAliases.length > 1) {
    const seen = new Set<string>()
    hostAliases.forEach((h, i) => {
      const ip = str(h.ip)
      if (seen.has(ip))
        warnings.push(`${specPath.child('hostAliases').index(i).child('ip')}: duplicate ip ${goQuote(ip)}`)
      else seen.add(ip)
    })
  }

  // duplicate imagePullSecrets (#91629, #58477), then the empty names (#99454)
  const pullSecrets = objs(spec.imagePullSecrets)
  const secretName = (i: number) => specPath.child('imagePullSecrets').index(i).child('name')
  if (pullSecrets.length > 1) {
    const seen = new Set<string>()
    pullSecrets.forEach((s, i) => {
      const name = str(s.name)
      if (seen.has(name)) warnings.push(`${secretName(i)}: duplicate name ${goQuote(name)}`)
      else seen.add(name)
    })
  }
  pullSecrets.forEach((s, i) => {
    if (str(s.name) === '') warnings.push(`${secretName(i)}: invalid empty name ""`)
  })

  // fractional memory/ephemeral-storage requests/limits (#79950, #49442, #18538)
  for (const resource of ['memory', 'ephemeral-storage']) {
    const value = has(spec.overhead, resource) ? fractional(get(spec.overhead, resource)) : undefined
    if (value !== undefined) warnings.push(FRACTIONAL(specPath.child('overhead').key(resource), value))
  }

  // use of pod seccomp annotation without accompanying field
  const podSecurity = obj(spec.securityContext)
  if (obj(podSecurity?.seccompProfile) === undefined && has(annotations, SECCOMP_POD))
    warnings.push(
      `${annotationsPath.key(SECCOMP_POD)}: non-functional in v1.27+; use the "seccompProfile" field instead`,
    )
  const podAppArmor = obj(podSecurity?.appArmorProfile)
  // most pods carry neither container annotation: then no container's key is built and looked up
  const seccompAnnotations = hasKeyWithPrefix(annotations, SECCOMP_CONTAINER)
  const appArmorAnnotations = root !== undefined && hasKeyWithPrefix(annotations, APPARMOR_CONTAINER)

  visitContainersWithPath(spec, specPath, (c, p) => {
    const name = str(c.name)
    const security = obj(c.securityContext)
    // use of container seccomp annotation without accompanying field
    if (seccompAnnotations && obj(security?.seccompProfile) === undefined && has(annotations, SECCOMP_CONTAINER + name))
      warnings.push(
        `${annotationsPath.key(SECCOMP_CONTAINER + name)}: non-functional in v1.27+; use the "seccompProfile" field instead`,
      )
    // use of container AppArmor annotation without accompanying field (a Pod's: applyAppArmorVersionSkew)
    const key = appArmorAnnotations ? APPARMOR_CONTAINER + name : ''
    if (appArmorAnnotations && obj(security?.appArmorProfile) === undefined && has(annotations, key)) {
      // only when the annotation does not match the pod's profile
      const profile = apparmorFieldForAnnotation(str(get(annotations, key)))
      if (podAppArmor === undefined || !sameAppArmorProfile(podAppArmor, profile))
        warnings.push(`${annotationsPath.key(key)}: deprecated since v1.30; use the "appArmorProfile" field instead`)
    }

    // fractional memory/ephemeral-storage requests/limits
    const resources = obj(c.resources)
    for (const [resource, list] of BYTE_RESOURCES) {
      const m = resources?.[list]
      const value = has(m, resource) ? fractional(get(m, resource)) : undefined
      if (value !== undefined) warnings.push(FRACTIONAL(p.child('resources', list).key(resource), value))
    }

    // duplicate containers[*].env (#86163, #93266, #58477)
    const env = objs(c.env)
    if (env.length > 1) {
      const seen = new Set<string>()
      env.forEach((item, i) => {
        const envName = str(item.name)
        if (!seen.has(envName)) {
          seen.add(envName)
          return
        }
        // a previous value exists, but it might be OK: X="$(X)…" refers to it
        const ref = `$(${envName})`
        const value = str(item.value)
        if (obj(item.valueFrom) !== undefined || value === ref || !value.includes(ref))
          warnings.push(
            `${p.child('env').index(i)}: hides previous definition of ${goQuote(envName)}, which may be dropped when using apply`,
          )
      })
    }
  })

  warnings.push(...portWarnings(spec, specPath, minor))

  // warn if the terminationGracePeriodSeconds is negative
  const grace = num(spec.terminationGracePeriodSeconds)
  if (grace !== undefined && grace < 0)
    warnings.push(
      `${specPath.child('terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`,
    )

  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = obj(affinity?.[kind])
    if (a === undefined) continue
    const required = specPath.child('affinity', kind, 'requiredDuringSchedulingIgnoredDuringExecution')
    objs(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (obj(t.labelSelector) === undefined)
        warnings.push(`${required.index(i).child('labelSelector')}: ${NULL_SELECTOR}`)
    })
    const preferred = specPath.child('affinity', kind, 'preferredDuringSchedulingIgnoredDuringExecution')
    objs(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (obj(obj(t.podAffinityTerm)?.labelSelector) === undefined)
        warnings.push(`${preferred.index(i).child('podAffinityTerm', 'labelSelector')}: ${NULL_SELECTOR}`)
    })
  }

  // deprecated IP address formats (from 1.33)
  if (minor < 33) return warnings
  warnings.push(
    ...strs(obj(spec.dnsConfig)?.nameservers).flatMap((ns, i) =>
      getWarningsForIP(specPath.child('dnsConfig', 'nameservers').index(i), ns),
    ),
  )
  warnings.push(
    ...hostAliases.flatMap((h, i) => getWarningsForIP(specPath.child('hostAliases').index(i).child('ip'), str(h.ip))),
  )
  return warnings
}

interface PortBlock {
  readonly field: FieldPath
  readonly hostIP: string
  readonly hostPort: number
}

/** The ports of all containers: hostIP without hostPort, duplicate and overlapping definitions, duplicate names. */
function portWarnings(spec: JSONObject, specPath: FieldPath, minor: number): string[] {
  const warnings: string[] = []
  const all = new Map<string, PortBlock[]>()
  visitContainersWithPath(spec, specPath, (c, p) => {
    objs(c.ports).forEach((port, i) => {
      const at = p.child('ports').index(i)
      const hostIP = str(port.hostIP)
      const hostPort = num(port.hostPort) ?? 0
      const containerPort = num(port.containerPort) ?? 0
      const protocol = str(port.protocol)
      if (hostIP !== '' && hostPort === 0)
        // %+v of the internal core.ContainerPort
        warnings.push(
          `${at}: hostIP set without hostPort: {Name:${str(port.name)} HostPort:${hostPort} ContainerPort:${containerPort} Protocol:${protocol} HostIP:${hostIP}}`,
        )
      const k = `${containerPort}/${protocol}`
      const others = all.get(k)
      const block = { field: at, hostIP, hostPort }
      if (others === undefined) {
        all.set(k, [block])
        return
      }
      // someone else has this protocol and port, but it still might not be a conflict
      for (const other of others) {
        if (hostIP === other.hostIP && hostPort === other.hostPort)
          warnings.push(`${at}: duplicate port definition with ${other.field}`)
        else if (hostPort === 0 || other.hostPort === 0)
          warnings.push(`${at}: overlapping port definition with ${other.field}`)
        else if (hostPort === other.hostPort && (hostIP === '') !== (other.hostIP === ''))
          warnings.push(`${at}: dangerously ambiguous port definition with ${other.field}`)
      }
      others.push(block)
    })
  })
  // the duplicate port names from 1.33
  if (minor < 33) return warnings
  const names = new Map<string, FieldPath>()
  visitContainersWithPath(spec, specPath, (c, p) => {
    objs(c.ports).forEach((port, i) => {
      const name = str(port.name)
      if (name === '') return
      const other = names.get(name)
      const at = p.child('ports').index(i)
      if (other !== undefined)
        warnings.push(
          `${at}: duplicate port name ${goQuote(name)} with ${other}, services and probes that select ports by name will use ${other}`,
        )
      else names.set(name, at)
    })
  })
  return warnings
}

/** A path and where it came from (pathAndSource). */
interface PathAndSource {
  path: string
  readonly source: string
}

const psString = (ps: PathAndSource): string =>
  ps.source !== '' ? `${goQuote(ps.path)} (${ps.source})` : goQuote(ps.path)

const extractPaths = (items: unknown, source: string): PathAndSource[] =>
  objs(items).map((i) => ({ path: str(i.path), source }))

/** checkForOverlap: the earlier paths equal to the needle, or one a directory of the other. */
function checkForOverlap(haystack: readonly PathAndSource[], needle: PathAndSource): PathAndSource[] {
  if (needle.path === '') return []
  return haystack.filter(
    (item) =>
      item.path !== '' &&
      ((item.path === needle.path && item.source === needle.source) ||
        `${item.path}/`.startsWith(`${needle.path}/`) ||
        `${needle.path}/`.startsWith(`${item.path}/`)),
  )
}

const trimSlashes = (s: string): string => s.replace(/\/+$/, '')

function checkVolumeMappingForOverlap(paths: PathAndSource[]): string[] {
  const warnings: string[] = []
  const seen: PathAndSource[] = []
  for (const ps of paths) {
    ps.path = trimSlashes(ps.path)
    for (const c of checkForOverlap(seen, ps)) warnings.push(`${psString(ps)} with ${psString(c)}`)
    seen.push(ps)
  }
  return warnings
}

const PROJECTIONS = [
  'secret',
  'downwardAPI',
  'configMap',
  'serviceAccountToken',
  'clusterTrustBundle',
  'podCertificate',
]

/** warningsForOverlappingVirtualPaths: configMap, secret, downwardAPI items and projected sources. */
function warningsForOverlappingVirtualPaths(volumes: readonly JSONObject[]): string[] {
  const warnings: string[] = []
  for (const v of volumes) {
    const name = str(v.name)
    const mkWarn = (desc: string, body: string) => `volume ${goQuote(name)} (${desc}): overlapping paths: ${body}`
    const configMap = obj(v.configMap)
    if (Array.isArray(configMap?.items))
      for (const ol of checkVolumeMappingForOverlap(extractPaths(configMap.items, '')))
        warnings.push(mkWarn(`ConfigMap ${goQuote(str(configMap.name))}`, ol))
    const secret = obj(v.secret)
    if (Array.isArray(secret?.items))
      for (const ol of checkVolumeMappingForOverlap(extractPaths(secret.items, '')))
        warnings.push(mkWarn(`Secret ${goQuote(str(secret.secretName))}`, ol))
    const downward = obj(v.downwardAPI)
    if (Array.isArray(downward?.items))
      for (const ol of checkVolumeMappingForOverlap(extractPaths(downward.items, '')))
        warnings.push(mkWarn('DownwardAPI', ol))
    const projected = obj(v.projected)
    if (projected === undefined) continue
    const all: PathAndSource[] = []
    for (const source of objs(projected.sources)) {
      if (PROJECTIONS.every((k) => obj(source[k]) === undefined)) {
        warnings.push(`volume ${goQuote(name)} (Projected) has no sources provided`)
        continue
      }
      for (const ps of projectedPaths(source)) {
        ps.path = trimSlashes(ps.path)
        for (const c of checkForOverlap(all, ps))
          warnings.push(mkWarn('Projected', `${psString(ps)} with ${psString(c)}`))
        all.push(ps)
      }
    }
  }
  return warnings
}

/** The paths one projected source writes (the first kind set, in Go's switch order). */
function projectedPaths(source: JSONObject): PathAndSource[] {
  const configMap = obj(source.configMap)
  if (Array.isArray(configMap?.items)) return extractPaths(configMap.items, `ConfigMap ${goQuote(str(configMap.name))}`)
  const secret = obj(source.secret)
  if (Array.isArray(secret?.items)) return extractPaths(secret.items, `Secret ${goQuote(str(secret.name))}`)
  const downward = obj(source.downwardAPI)
  if (Array.isArray(downward?.items)) return extractPaths(downward.items, 'DownwardAPI')
  const token = obj(source.serviceAccountToken)
  if (token !== undefined) return [{ path: str(token.path), source: 'ServiceAccountToken' }]
  const bundle = obj(source.clusterTrustBundle)
  if (bundle !== undefined) {
    const name = typeof bundle.name === 'string' ? bundle.name : str(bundle.signerName)
    return [{ path: str(bundle.path), source: `ClusterTrustBundle ${goQuote(name)}` }]
  }
  const cert = obj(source.podCertificate)
  if (cert === undefined) return []
  const paths: PathAndSource[] = []
  for (const [key, what] of [
    ['certificateChainPath', 'PodCertificate chain'],
    ['keyPath', 'PodCertificate key'],
    ['credentialBundlePath', 'PodCertificate credential bundle'],
  ] as const)
    if (str(cert[key]) !== '') paths.push({ path: str(cert[key]), source: what })
  return paths
}
