import { type NameGenerator, SimpleNameGenerator } from '../../kube/names.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import { structInfo } from '../gotypes.js'

// The ServiceAccount admission plugin's mutation of a Pod on create (kubernetes
// plugin/pkg/admission/serviceaccount/admission.go Admit), one of the in-tree mutating plugins a
// default kube-apiserver runs before MutatingAdmissionPolicies, the store's validation and the
// validating policies, which therefore all see its result:
// - no serviceAccountName: `default` (and the deprecated serviceAccount alias);
// - unless automountServiceAccountToken is false: every init and regular container without a mount at
//   /var/run/secrets/kubernetes.io/serviceaccount mounts the API access volume, a projected volume
//   `kube-api-access-<5 random characters>` (token, the cluster CA, the namespace) added when some
//   container needed it and no `kube-api-access-*` volume exists.
// - with the ServiceAccount known (given among the inputs): its automountServiceAccountToken when the Pod
//   does not say, and its imagePullSecrets when the Pod has none.
// Mirror pods are left as they are. Whether the ServiceAccount exists (the plugin's refusal) is the
// engine's question (src/engine/admission/in-tree.ts, from the ServiceAccounts of the inputs):
// `serviceAccountNotFound` words it; without the object, the named one is taken as existing with neither
// automount nor image pull secrets set.

export const DefaultServiceAccountName = 'default'
export const ServiceAccountVolumeName = 'kube-api-access'
export const DefaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount'
const MirrorPodAnnotationKey = 'kubernetes.io/config.mirror'

/** TokenVolumeSource, as a decoded v1 object writes it. */
function tokenVolumeSource(): JSONObject {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  }
}

/** The object's keys in the Go struct's field order (as the decoder writes them), set ones added. */
export function inGoOrder(o: JSONObject, id: string): JSONObject {
  const out: JSONObject = {}
  for (const [name] of structInfo(id).fields) if (Object.hasOwn(o, name)) out[name] = o[name]
  for (const k of Object.keys(o)) if (!Object.hasOwn(out, k)) out[k] = o[k]
  return out
}

/** The plugin's refusal of a Pod whose ServiceAccount does not exist (Admit: `%w` of the lister's NotFound). */
export const serviceAccountNotFound = (namespace: string, name: string): string =>
  `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`

/** The Pod's service account name as Admit leaves it (`default` when unset). */
export function podServiceAccountName(pod: JSONObject): string {
  const spec = isObject(pod.spec) ? pod.spec : {}
  return typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== ''
    ? spec.serviceAccountName
    : DefaultServiceAccountName
}

/** Whether the Pod is a mirror pod (the kubelet's copy of a static pod). */
export function isMirrorPod(pod: JSONObject): boolean {
  const metadata = isObject(pod.metadata) ? pod.metadata : {}
  return isObject(metadata.annotations) && Object.hasOwn(metadata.annotations, MirrorPodAnnotationKey)
}

/**
 * Admit on a Pod CREATE: mutates the decoded (and defaulted) Pod in place. `serviceAccount`: the named
 * ServiceAccount when known.
 */
export function admitServiceAccount(
  pod: JSONObject,
  generateName: NameGenerator = SimpleNameGenerator,
  serviceAccount?: JSONObject,
): void {
  const metadata = isObject(pod.metadata) ? pod.metadata : {}
  if (isObject(metadata.annotations) && Object.hasOwn(metadata.annotations, MirrorPodAnnotationKey)) return
  if (!isObject(pod.spec)) return
  const spec = pod.spec
  if (typeof spec.serviceAccountName !== 'string' || spec.serviceAccountName === '') {
    spec.serviceAccountName = DefaultServiceAccountName
    spec.serviceAccount = DefaultServiceAccountName
  }
  // shouldAutomount: the pod's setting, else the ServiceAccount's, else true
  const automount =
    typeof spec.automountServiceAccountToken === 'boolean'
      ? spec.automountServiceAccountToken
      : serviceAccount?.automountServiceAccountToken !== false
  if (automount) mountServiceAccountToken(spec, generateName, pod)
  const pullSecrets = serviceAccount?.imagePullSecrets
  if ((!Array.isArray(spec.imagePullSecrets) || spec.imagePullSecrets.length === 0) && Array.isArray(pullSecrets)) {
    const names = pullSecrets.map((r) => ({ name: isObject(r) && typeof r.name === 'string' ? r.name : '' }))
    if (names.length > 0) spec.imagePullSecrets = names
  }
  pod.spec = inGoOrder(spec, 'core/v1.PodSpec')
}

/** mountServiceAccountToken. */
function mountServiceAccountToken(spec: JSONObject, generateName: NameGenerator, pod: JSONObject): void {
  const volumes = Array.isArray(spec.volumes) ? (spec.volumes as unknown[]) : []
  const existing = volumes.find(
    (v): v is JSONObject =>
      isObject(v) && typeof v.name === 'string' && v.name.startsWith(`${ServiceAccountVolumeName}-`),
  )
  const name = existing !== undefined ? (existing.name as string) : generateName(`${ServiceAccountVolumeName}-`, pod)
  let needsTokenVolume = false
  for (const list of [spec.initContainers, spec.containers]) {
    if (!Array.isArray(list)) continue
    for (let i = 0; i < list.length; i++) {
      const c = list[i]
      if (!isObject(c)) continue
      const mounts = Array.isArray(c.volumeMounts) ? (c.volumeMounts as unknown[]) : []
      if (mounts.some((m) => isObject(m) && m.mountPath === DefaultAPITokenMountPath)) continue
      c.volumeMounts = [...mounts, { name, readOnly: true, mountPath: DefaultAPITokenMountPath }]
      list[i] = inGoOrder(c, 'core/v1.Container')
      needsTokenVolume = true
    }
  }
  if (existing === undefined && needsTokenVolume) spec.volumes = [...volumes, { name, projected: tokenVolumeSource() }]
}
