import { isObject, type JSONObject } from '../../kube/values/json.js'

// DefaultStorageClass (kubernetes plugin/pkg/admission/storage/storageclass/setdefault/admission.go) and
// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go), both on by default:
// a PersistentVolumeClaim / Ingress that names no class gets the cluster's default one (marked by an
// annotation); among several defaults the newest by creationTimestamp, then the first by name
// (pkg/volume/util/storageclass.go GetDefaultClass, defaultingressclass getDefaultClass).

const IsDefaultStorageClassAnnotation = 'storageclass.kubernetes.io/is-default-class'
const BetaIsDefaultStorageClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class'
const BetaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class'
const IsDefaultIngressClassAnnotation = 'ingressclass.kubernetes.io/is-default-class'
const IngressClassAnnotation = 'kubernetes.io/ingress.class'

const annotationsOf = (o: JSONObject): JSONObject => {
  const m = isObject(o.metadata) ? o.metadata : {}
  return isObject(m.annotations) ? m.annotations : {}
}
const nameOf = (o: JSONObject): string => {
  const m = isObject(o.metadata) ? o.metadata : {}
  return typeof m.name === 'string' ? m.name : ''
}
/**
 * creationTimestamp in nanoseconds (CreationTimestamp.UnixNano()); a class written without one has the zero
 * time, before any other.
 */
const createdAt = (o: JSONObject): bigint => {
  const m = isObject(o.metadata) ? o.metadata : {}
  const t = typeof m.creationTimestamp === 'string' ? m.creationTimestamp : ''
  const parts = /^([^.]*?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(t)
  const ms = parts === null ? Number.NaN : Date.parse(`${parts[1]}${parts[3]}`)
  if (parts === null || Number.isNaN(ms)) return ZERO_TIME
  return BigInt(ms) * 1_000_000n + BigInt((parts[2] ?? '').padEnd(9, '0'))
}
/** time.Time{}.UnixNano(): year 1, out of int64's range, which Go's UnixNano leaves undefined; below any real time. */
const ZERO_TIME = -(2n ** 63n)
/** Go's `<` on strings: byte order (code points for these names). */
const goLess = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The newest default, ties by name (sort.Slice with the plugins' less function). */
function newestDefault(classes: readonly JSONObject[], isDefault: (c: JSONObject) => boolean): string | undefined {
  const defaults = classes.filter(isDefault)
  defaults.sort((a, b) => {
    const ta = createdAt(a)
    const tb = createdAt(b)
    return ta === tb ? goLess(nameOf(a), nameOf(b)) : tb > ta ? 1 : -1
  })
  return defaults[0] === undefined ? undefined : nameOf(defaults[0])
}

/** DefaultStorageClass Admit (no subresource): in place. */
export function admitDefaultStorageClass(pvc: JSONObject, classes: readonly JSONObject[]): void {
  if (!isObject(pvc.spec)) return
  // helper.PersistentVolumeClaimHasClass: the beta annotation, or spec.storageClassName set (even to "")
  if (Object.hasOwn(annotationsOf(pvc), BetaStorageClassAnnotation) || typeof pvc.spec.storageClassName === 'string')
    return
  const name = newestDefault(classes, (c) => {
    const a = annotationsOf(c)
    return a[IsDefaultStorageClassAnnotation] === 'true' || a[BetaIsDefaultStorageClassAnnotation] === 'true'
  })
  if (name !== undefined) pvc.spec.storageClassName = name
}

/** DefaultIngressClass Admit (no subresource): in place. */
export function admitDefaultIngressClass(ingress: JSONObject, classes: readonly JSONObject[]): void {
  if (!isObject(ingress.spec)) return
  if (typeof ingress.spec.ingressClassName === 'string') return
  if (Object.hasOwn(annotationsOf(ingress), IngressClassAnnotation)) return
  const name = newestDefault(classes, (c) => annotationsOf(c)[IsDefaultIngressClassAnnotation] === 'true')
  if (name !== undefined) ingress.spec.ingressClassName = name
}
