import { isObject, type JSONObject } from '../../kube/values/json.js'
import { decodeBuiltin } from '../index.js'
import { beforeCreate } from '../strategy.js'

// What the default admission plugins read of the cluster (their informers' listers), taken from the objects
// given beside the manifests: LimitRanges and ServiceAccounts by namespace, RuntimeClasses, StorageClasses,
// IngressClasses and PriorityClasses. Each is decoded, defaulted and validated as the apiserver stored it (a
// LimitRange's defaults come from SetDefaults_LimitRangeItem; one the apiserver refuses is left out). A kind none of whose objects was given is `undefined`: its
// plugin cannot tell what the cluster holds (the engine then takes the object as the plugin would find it
// acceptable, and the report says the plugin did not run). Every map is a Map: any name is a key.

export interface AdmissionInputs {
  /** LimitRanges by namespace (undefined: none given anywhere). */
  readonly limitRanges: ReadonlyMap<string, readonly JSONObject[]> | undefined
  /** ServiceAccounts by namespace, then name (a namespace absent: none of it given). */
  readonly serviceAccounts: ReadonlyMap<string, ReadonlyMap<string, JSONObject>>
  readonly runtimeClasses: ReadonlyMap<string, JSONObject> | undefined
  readonly storageClasses: readonly JSONObject[] | undefined
  readonly ingressClasses: readonly JSONObject[] | undefined
  readonly priorityClasses: ReadonlyMap<string, JSONObject> | undefined
}

export const NO_ADMISSION_INPUTS: AdmissionInputs = {
  limitRanges: undefined,
  serviceAccounts: new Map(),
  runtimeClasses: undefined,
  storageClasses: undefined,
  ingressClasses: undefined,
  priorityClasses: undefined,
}

/** `group/Kind` of the objects the plugins read. */
const INPUT_KINDS: ReadonlySet<string> = new Set([
  '/LimitRange',
  '/ServiceAccount',
  'node.k8s.io/RuntimeClass',
  'storage.k8s.io/StorageClass',
  'networking.k8s.io/IngressClass',
  'scheduling.k8s.io/PriorityClass',
])

/** The kinds of the objects the plugins read, without their groups. */
export const INPUT_KIND_NAMES: readonly string[] = [...INPUT_KINDS].map((gk) => gk.slice(gk.indexOf('/') + 1))

const groupKind = (o: JSONObject): string => {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const slash = av.indexOf('/')
  return `${slash < 0 ? '' : av.slice(0, slash)}/${typeof o.kind === 'string' ? o.kind : ''}`
}

/** Whether an object is one the default admission plugins read (kept by the check's first pass). */
export const isAdmissionInput = (o: unknown): boolean => isObject(o) && INPUT_KINDS.has(groupKind(o))

/**
 * The plugins' view of the cluster from `objects` (others are ignored). A namespaced object without a
 * namespace is in `defaultNamespace`, where `kubectl apply` creates it. An object that does not decode is
 * left out (the cluster refuses to create it).
 */
export function admissionInputs(
  objects: Iterable<unknown>,
  options: { readonly minor?: number; readonly defaultNamespace?: string } = {},
): AdmissionInputs {
  const minor = options.minor ?? 37
  const defaultNamespace = options.defaultNamespace ?? 'default'
  let limitRanges: Map<string, JSONObject[]> | undefined
  const serviceAccounts = new Map<string, Map<string, JSONObject>>()
  let runtimeClasses: Map<string, JSONObject> | undefined
  let storageClasses: JSONObject[] | undefined
  let ingressClasses: JSONObject[] | undefined
  let priorityClasses: Map<string, JSONObject> | undefined
  for (const given of objects) {
    if (!isAdmissionInput(given)) continue
    const decoded = decodeBuiltin(given, { minor, fieldValidation: 'Ignore', keepEmpty: true })
    if (decoded?.object === undefined || !decoded.allowed) continue
    const gk = groupKind(decoded.object)
    const namespaced = gk === '/LimitRange' || gk === '/ServiceAccount'
    const m = isObject(decoded.object.metadata) ? decoded.object.metadata : {}
    const ns = typeof m.namespace === 'string' && m.namespace !== '' ? m.namespace : defaultNamespace
    // as the cluster stored it: validated as on create (an object it refuses does not exist), marshalled
    const stored = beforeCreate(decoded, { namespaced, namespace: namespaced ? ns : '', minor })
    if (!stored.allowed || stored.object === undefined) continue
    const o = stored.object
    const meta = isObject(o.metadata) ? o.metadata : {}
    const name = typeof meta.name === 'string' ? meta.name : ''
    switch (gk) {
      case '/LimitRange': {
        limitRanges ??= new Map()
        const list = limitRanges.get(ns)
        if (list === undefined) limitRanges.set(ns, [o])
        else list.push(o)
        break
      }
      case '/ServiceAccount': {
        let byName = serviceAccounts.get(ns)
        if (byName === undefined) serviceAccounts.set(ns, (byName = new Map()))
        byName.set(name, o)
        break
      }
      case 'node.k8s.io/RuntimeClass':
        ;(runtimeClasses ??= new Map()).set(name, o)
        break
      case 'storage.k8s.io/StorageClass':
        ;(storageClasses ??= []).push(o)
        break
      case 'networking.k8s.io/IngressClass':
        ;(ingressClasses ??= []).push(o)
        break
      case 'scheduling.k8s.io/PriorityClass':
        ;(priorityClasses ??= new Map()).set(name, o)
        break
    }
  }
  return { limitRanges, serviceAccounts, runtimeClasses, storageClasses, ingressClasses, priorityClasses }
}
