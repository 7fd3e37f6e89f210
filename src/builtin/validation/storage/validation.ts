import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { validateLabelName } from '../../../kube/validation/label-selector.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { arr, deepEqual, type JSONObject, keys, obj, str, strs } from '../common.js'

// storage.k8s.io/v1 StorageClass: kubernetes v1.37.2 pkg/apis/storage/validation/validation.go
// ValidateStorageClass (create; on update too, before) ValidateStorageClassUpdate. From 1.37 the beta
// declarative rules of k8s.io/api storage/v1 (provisioner required; provisioner, parameters,
// reclaimPolicy, volumeBindingMode immutable) replace the handwritten errors they cover and come last,
// in field order, the immutable ones with a null value (validate.Immutable); unchanged fields are not
// validated declaratively on update.

const MAX_PARAMS = 512
const MAX_PARAMS_SIZE = 256 * (1 << 10)
// supportedReclaimPolicy (pkg/apis/storage/validation): Recycle is a PersistentVolume's, not a StorageClass's
const RECLAIM = ['Delete', 'Retain']
const BINDING = ['Immediate', 'WaitForFirstConsumer']

type Hw = { e: FieldError; covered: boolean }

function validateTopologies(terms: unknown[], p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const seen: Record<string, string[]>[] = []
  terms.forEach((t, i) => {
    const ip = p.index(i)
    const ep = ip.child('matchLabelExpressions')
    const map: Record<string, string[]> = {}
    arr(obj(t)?.matchLabelExpressions).forEach((r, j) => {
      const rq = obj(r) ?? {}
      const jp = ep.index(j)
      const values = strs(rq.values)
      if (values.length === 0) errs.push(field.required(jp.child('values'), ''))
      const set = new Set<string>()
      values.forEach((v, k) => {
        if (set.has(v)) errs.push(field.duplicate(jp.child('values').index(k), v))
        set.add(v)
      })
      errs.push(...validateLabelName(str(rq.key), jp.child('key'), minor))
      if (Object.hasOwn(map, str(rq.key))) errs.push(field.duplicate(jp.child('key'), str(rq.key)))
      map[str(rq.key)] = [...set].sort(compareStrings)
    })
    if (seen.some((m) => deepEqual(m, map))) errs.push(field.duplicate(ep, ''))
    seen.push(map)
  })
  return errs
}

function validateStorageClassFields(sc: JSONObject, minor: number): Hw[] {
  const out: Hw[] = validateObjectMetaFor(sc, { namespaced: false, nameFn: nameIsDNSSubdomain, minor }).map((e) => ({
    e,
    covered: false,
  }))
  const prov = str(sc.provisioner)
  const pp = FieldPath.of('provisioner')
  if (prov === '') out.push({ e: field.required(pp, ''), covered: true })
  else
    for (const m of isQualifiedName(prov.toLowerCase(), minor))
      out.push({ e: field.invalid(pp, prov.toLowerCase(), m), covered: false })
  const params = obj(sc.parameters) ?? {}
  const parp = FieldPath.of('parameters')
  const ks = keys(params)
  if (ks.length > MAX_PARAMS) out.push({ e: field.tooLong(parp, MAX_PARAMS), covered: false })
  else {
    let total = 0
    for (const k of ks) {
      if (k.length < 1) out.push({ e: field.invalid(parp, k, 'field can not be empty.'), covered: false })
      total += Buffer.byteLength(k) + Buffer.byteLength(str(params[k]))
    }
    if (total > MAX_PARAMS_SIZE) out.push({ e: field.tooLong(parp, MAX_PARAMS_SIZE), covered: false })
  }
  if (typeof sc.reclaimPolicy === 'string' && sc.reclaimPolicy !== '' && !RECLAIM.includes(sc.reclaimPolicy))
    out.push({ e: field.notSupported(FieldPath.of('reclaimPolicy'), sc.reclaimPolicy, RECLAIM), covered: false })
  const bp = FieldPath.of('volumeBindingMode')
  if (typeof sc.volumeBindingMode !== 'string') out.push({ e: field.required(bp, ''), covered: false })
  else if (!BINDING.includes(sc.volumeBindingMode))
    out.push({ e: field.notSupported(bp, sc.volumeBindingMode, BINDING), covered: false })
  for (const e of validateTopologies(arr(sc.allowedTopologies), FieldPath.of('allowedTopologies'), minor))
    out.push({ e, covered: false })
  return out
}

const IMMUTABLE = ['provisioner', 'parameters', 'reclaimPolicy', 'volumeBindingMode'] as const

function validateStorageClassCreateOrUpdate(sc: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const hand = validateStorageClassFields(sc, minor)
  if (old !== undefined) {
    hand.push(
      ...validateObjectMetaFor(sc, {
        namespaced: false,
        nameFn: nameIsDNSSubdomain,
        minor: minor,
        oldObject: old,
      }).map((e) => ({ e, covered: false })),
    )
    // handwritten order: parameters, provisioner, reclaimPolicy, volumeBindingMode
    for (const k of ['parameters', 'provisioner', 'reclaimPolicy', 'volumeBindingMode'] as const)
      if (!deepEqual(sc[k] ?? null, old[k] ?? null))
        hand.push({ e: field.invalid(FieldPath.of(k), sc[k] ?? null, 'field is immutable'), covered: true })
  }
  if (minor < 37) return hand.map((h) => h.e)
  const dec: FieldError[] = []
  const changed = (k: string) => old === undefined || !deepEqual(sc[k] ?? null, old[k] ?? null)
  if (str(sc.provisioner) === '' && changed('provisioner')) dec.push(field.required(FieldPath.of('provisioner'), ''))
  else if (old !== undefined && changed('provisioner'))
    dec.push(field.invalid(FieldPath.of('provisioner'), null, 'field is immutable'))
  if (old !== undefined)
    for (const k of IMMUTABLE.slice(1))
      if (changed(k)) dec.push(field.invalid(FieldPath.of(k), null, 'field is immutable'))
  const matched = (e: FieldError) => dec.some((d) => d.type === e.type && d.field === e.field)
  return [...hand.filter((h) => !(h.covered && matched(h.e))).map((h) => h.e), ...dec]
}

/** ValidateStorageClass. */
export function validateStorageClass(sc: JSONObject, minor: number): FieldError[] {
  return validateStorageClassCreateOrUpdate(sc, undefined, minor)
}

/** ValidateStorageClassUpdate. */
export function validateStorageClassUpdate(sc: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateStorageClassCreateOrUpdate(sc, old, minor)
}
