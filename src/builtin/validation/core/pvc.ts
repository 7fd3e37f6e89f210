import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field, MarshaledJSON } from '../../../kube/field.js'
import type { LabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { isDNS1123Subdomain } from '../../../kube/validation/names.js'
import { nameIsDNSLabel, nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { annotations, clone, deepEqual, isObj, type JSONObject, keys, obj, str, strs } from '../common.js'
import { type GoValue, goDiff } from '../go-diff.js'
import { quantity, validatePositiveQuantityValue, validateResourceQuantityValue } from './resources.js'

// core/v1 PersistentVolumeClaim: kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// ValidatePersistentVolumeClaim / ValidatePersistentVolumeClaimUpdate with
// ValidationOptionsForPersistentVolumeClaim, after the strategy's PrepareForCreate / PrepareForUpdate
// data-source steps (pkg/api/persistentvolumeclaim: DropDisabledFields, EnforceDataSourceBackwardsCompatibility,
// NormalizeDataSources) and, on update, the old status kept. Gates at the target release's defaults:
// VolumeAttributesClass (on from 1.34), RecoverVolumeExpansionFailure (on from 1.32),
// CrossNamespaceVolumeDataSource (alpha, off). The declarative rules of the kind cover ObjectMeta and
// status only. The spec-immutable error's diff: from 1.34 apimachinery's diff.Diff of the internal
// specs, reproduced (go-diff.ts); before 1.34 go-cmp's, which is not (kelp appends a line per changed
// field instead: docs/known-differences.md).

const SPEC = FieldPath.of('spec')
const META = FieldPath.of('metadata')
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']
const VOLUME_MODES = ['Block', 'Filesystem']
const BETA_SC = 'volume.beta.kubernetes.io/storage-class'

interface Opts {
  recoverFromExpansionFailure: boolean
  allowInvalidLabelValueInSelector: boolean
  allowInvalidAPIGroup: boolean
  volumeAttributesClass: boolean
  /** The target release (label-selector messages); the newest when absent. */
  minor?: number
}

const hasGroup = (r: unknown): boolean => isObj(r) && typeof r.apiGroup === 'string'
const vacGate = (minor: number) => minor >= 34

function validateRef(r: JSONObject, p: FieldPath, allowInvalidGroup: boolean, withNamespace: boolean): FieldError[] {
  const errs: FieldError[] = []
  if (str(r.name) === '') errs.push(field.required(p.child('name'), ''))
  if (str(r.kind) === '') errs.push(field.required(p.child('kind'), ''))
  const group = str(r.apiGroup)
  if (group === '' && str(r.kind) !== 'PersistentVolumeClaim')
    errs.push(field.invalid(p, str(r.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
  if (group !== '' && !allowInvalidGroup)
    for (const m of isDNS1123Subdomain(group)) errs.push(field.invalid(p.child('apiGroup'), group, m))
  const ns = str(r.namespace)
  if (withNamespace && ns !== '')
    for (const m of nameIsDNSLabel(ns, false)) errs.push(field.invalid(p.child('namespace'), ns, m))
  return errs
}

/** ValidatePersistentVolumeClaimSpec. */
export function validatePVCSpec(spec: JSONObject, p: FieldPath, o: Opts): FieldError[] {
  const errs: FieldError[] = []
  const modes = strs(spec.accessModes)
  if (modes.length === 0) errs.push(field.required(p.child('accessModes'), 'at least 1 access mode is required'))
  if (isObj(spec.selector))
    errs.push(
      ...validateLabelSelector(
        spec.selector as LabelSelector,
        { allowInvalidLabelValueInSelector: o.allowInvalidLabelValueInSelector },
        p.child('selector'),
        o.minor,
      ),
    )
  let rwop = false
  let other = false
  for (const m of modes) {
    if (!ACCESS_MODES.includes(m)) errs.push(field.notSupported(p.child('accessModes'), m, ACCESS_MODES))
    if (m === 'ReadWriteOncePod') rwop = true
    else if (ACCESS_MODES.includes(m)) other = true
  }
  if (rwop && other)
    errs.push(field.forbidden(p.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'))
  const requests = obj(obj(spec.resources)?.requests) ?? {}
  const sp = p.child('resources').key('storage')
  if (!Object.hasOwn(requests, 'storage')) errs.push(field.required(sp, ''))
  else {
    const q = quantity(requests.storage)
    if (q !== undefined) {
      const pos = validatePositiveQuantityValue(q, sp)
      errs.push(...(pos.length > 0 ? pos : validateResourceQuantityValue('storage', q, sp)))
    }
  }
  const sc = str(spec.storageClassName)
  if (sc !== '')
    for (const m of nameIsDNSSubdomain(sc, false)) errs.push(field.invalid(p.child('storageClassName'), sc, m))
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode))
    errs.push(field.notSupported(p.child('volumeMode'), spec.volumeMode, VOLUME_MODES))
  const ds = obj(spec.dataSource)
  const dsr = obj(spec.dataSourceRef)
  if (ds !== undefined) errs.push(...validateRef(ds, p.child('dataSource'), o.allowInvalidAPIGroup, false))
  if (dsr !== undefined) errs.push(...validateRef(dsr, p.child('dataSourceRef'), o.allowInvalidAPIGroup, true))
  // field.Invalid(fldPath, fldPath.Child("dataSource"), …): a *field.Path marshals as {}
  if (dsr !== undefined && str(dsr.namespace) !== '') {
    if (ds !== undefined)
      errs.push(
        field.invalid(p, new MarshaledJSON('{}'), 'may not be specified when dataSourceRef.namespace is specified'),
      )
  } else if (ds !== undefined && dsr !== undefined) {
    const same =
      (ds.apiGroup ?? null) === (dsr.apiGroup ?? null) &&
      str(ds.kind) === str(dsr.kind) &&
      str(ds.name) === str(dsr.name)
    if (!same) errs.push(field.invalid(p, new MarshaledJSON('{}'), 'must match dataSourceRef'))
  }
  const vac = str(spec.volumeAttributesClassName)
  if (vac !== '' && o.volumeAttributesClass)
    for (const m of nameIsDNSSubdomain(vac, false))
      errs.push(field.invalid(p.child('volumeAttributesClassName'), vac, m))
  return errs
}

const isPvcOrSnapshot = (ds: JSONObject | undefined): boolean =>
  ds !== undefined &&
  ((str(ds.kind) === 'PersistentVolumeClaim' && str(ds.apiGroup) === '') ||
    (str(ds.kind) === 'VolumeSnapshot' && str(ds.apiGroup) === 'snapshot.storage.k8s.io'))

/** The strategy's data-source steps (PrepareForCreate / PrepareForUpdate) on a copy of the spec. */
function prepareSpec(spec: JSONObject, old: JSONObject | undefined, minor: number): JSONObject {
  const s = clone(spec)
  if (!vacGate(minor) && (old === undefined || old.volumeAttributesClassName === undefined))
    delete s.volumeAttributesClassName
  const dsr = obj(s.dataSourceRef)
  if (dsr !== undefined && str(dsr.namespace) !== '' && !(old !== undefined && isObj(old.dataSourceRef)))
    delete s.dataSourceRef
  if (!(old !== undefined && isObj(old.dataSource)) && !isObj(s.dataSourceRef) && !isPvcOrSnapshot(obj(s.dataSource)))
    delete s.dataSource
  return normalizeDataSources(s)
}

function normalizeDataSources(s: JSONObject): JSONObject {
  const ds = obj(s.dataSource)
  const dsr = obj(s.dataSourceRef)
  const copy = (r: JSONObject): JSONObject => ({
    ...(r.apiGroup !== undefined ? { apiGroup: r.apiGroup } : {}),
    kind: str(r.kind),
    name: str(r.name),
  })
  if (ds !== undefined && dsr === undefined) s.dataSourceRef = copy(ds)
  else if (dsr !== undefined && ds === undefined && str(dsr.namespace) === '') s.dataSource = copy(dsr)
  return s
}

function options(old: JSONObject | undefined, minor: number): Opts {
  const o: Opts = {
    recoverFromExpansionFailure: minor >= 32,
    allowInvalidLabelValueInSelector: false,
    allowInvalidAPIGroup: false,
    volumeAttributesClass: vacGate(minor),
    minor,
  }
  if (old === undefined) return o
  const spec = obj(old.spec) ?? {}
  o.allowInvalidAPIGroup = hasGroup(spec.dataSource) || hasGroup(spec.dataSourceRef)
  if (typeof spec.volumeAttributesClassName === 'string') o.volumeAttributesClass = true
  if (
    isObj(spec.selector) &&
    validateLabelSelector(spec.selector as LabelSelector, {}, FieldPath.of('selector')).length > 0
  )
    o.allowInvalidLabelValueInSelector = true
  const status = obj(old.status) ?? {}
  if (isObj(status.allocatedResources) || isObj(status.allocatedResourceStatuses)) o.recoverFromExpansionFailure = true
  return o
}

/** Semantic.DeepEqual of two specs: quantities compared by value. */
function specEqual(a: JSONObject, b: JSONObject): boolean {
  const ra = obj(a.resources)
  const rb = obj(b.resources)
  const qEqual = (x: unknown, y: unknown): boolean => {
    const mx = obj(x)
    const my = obj(y)
    if (mx === undefined || my === undefined) return mx === my
    const kx = keys(mx)
    if (!deepEqual(kx, keys(my))) return false
    return kx.every((k) => {
      const qa = quantity(mx[k])
      const qb = quantity(my[k])
      return qa !== undefined && qb !== undefined ? qa.cmp(qb) === 0 : deepEqual(mx[k], my[k])
    })
  }
  const { resources: _a, ...restA } = a
  const { resources: _b, ...restB } = b
  if (!deepEqual(restA, restB)) return false
  if (ra === undefined || rb === undefined) return deepEqual(ra ?? null, rb ?? null)
  const { requests: qa, limits: la, ...oa } = ra
  const { requests: qb, limits: lb, ...ob } = rb
  return deepEqual(oa, ob) && qEqual(qa, qb) && qEqual(la, lb)
}

const optString = (v: unknown): GoValue => (typeof v === 'string' ? v : null)
const strings = (v: unknown): GoValue => (Array.isArray(v) ? v.map((x) => String(x)) : null)
const resourceList = (v: unknown): GoValue =>
  isObj(v) ? { map: Object.fromEntries(Object.entries(v).map(([k, q]) => [k, String(q)])) } : null

/** metav1.LabelSelector as encoding/json marshals it (JSON tags, omitempty). */
function labelSelectorValue(v: unknown): GoValue {
  if (!isObj(v)) return null
  const fields: [string, GoValue][] = []
  if (isObj(v.matchLabels) && Object.keys(v.matchLabels).length > 0)
    fields.push(['matchLabels', resourceList(v.matchLabels)])
  const exprs = Array.isArray(v.matchExpressions) ? v.matchExpressions : []
  if (exprs.length > 0)
    fields.push([
      'matchExpressions',
      exprs.map((e): GoValue => {
        const r = obj(e) ?? {}
        const f: [string, GoValue][] = [
          ['key', str(r.key)],
          ['operator', str(r.operator)],
        ]
        if (Array.isArray(r.values) && r.values.length > 0) f.push(['values', strings(r.values)])
        return { struct: f }
      }),
    ])
  return { struct: fields }
}

/** The internal core.PersistentVolumeClaimSpec (1.34-1.37) of a decoded v1 spec, as diff.Diff marshals it. */
function internalSpec(spec: JSONObject): GoValue {
  const res = obj(spec.resources)
  const ds = obj(spec.dataSource)
  const dsr = obj(spec.dataSourceRef)
  return {
    struct: [
      ['AccessModes', strings(spec.accessModes)],
      ['Selector', labelSelectorValue(spec.selector)],
      [
        'Resources',
        {
          struct: [
            ['Limits', resourceList(res?.limits)],
            ['Requests', resourceList(res?.requests)],
          ],
        },
      ],
      ['VolumeName', str(spec.volumeName)],
      ['StorageClassName', optString(spec.storageClassName)],
      ['VolumeMode', optString(spec.volumeMode)],
      [
        'DataSource',
        ds === undefined
          ? null
          : {
              struct: [
                ['APIGroup', optString(ds.apiGroup)],
                ['Kind', str(ds.kind)],
                ['Name', str(ds.name)],
              ],
            },
      ],
      [
        'DataSourceRef',
        dsr === undefined
          ? null
          : {
              struct: [
                ['APIGroup', optString(dsr.apiGroup)],
                ['Kind', str(dsr.kind)],
                ['Name', str(dsr.name)],
                ['Namespace', optString(dsr.namespace)],
              ],
            },
      ],
      ['VolumeAttributesClassName', optString(spec.volumeAttributesClassName)],
    ],
  }
}

/** The diff the apiserver appends: diff.Diff from 1.34, kelp's line per changed field before. */
function specDiff(oldSpec: JSONObject, newSpec: JSONObject, minor: number): string {
  return minor >= 34 ? goDiff(internalSpec(oldSpec), internalSpec(newSpec)) : lineDiff(oldSpec, newSpec)
}

/** A line per changed top-level spec field (kelp's rendering of go-cmp's diff, before 1.34). */
function lineDiff(oldSpec: JSONObject, newSpec: JSONObject): string {
  const lines: string[] = []
  for (const k of [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])].sort(compareStrings)) {
    if (deepEqual(oldSpec[k] ?? null, newSpec[k] ?? null)) continue
    if (oldSpec[k] !== undefined) lines.push(`-  ${k}: ${JSON.stringify(oldSpec[k])}`)
    if (newSpec[k] !== undefined) lines.push(`+  ${k}: ${JSON.stringify(newSpec[k])}`)
  }
  return lines.join('\n')
}

function validateCreate(pvc: JSONObject, spec: JSONObject, o: Opts, minor: number): FieldError[] {
  return [
    ...validateObjectMetaFor(pvc, { namespaced: true, nameFn: nameIsDNSSubdomain, minor }),
    ...validatePVCSpec(spec, SPEC, o),
  ]
}

/**
 * A StatefulSet's volumeClaimTemplates on create (apps validation validateVolumeClaimTemplates): each
 * template's spec with ValidationOptionsForPersistentVolumeClaimCreate.
 */
export function validateClaimTemplates(templates: unknown[], p: FieldPath, minor: number): FieldError[] {
  const o = options(undefined, minor)
  return templates.flatMap((t, i) => validatePVCSpec(obj(obj(t)?.spec) ?? {}, p.index(i).child('spec'), o))
}

/** ValidatePersistentVolumeClaim. */
export function validatePersistentVolumeClaim(pvc: JSONObject, minor: number): FieldError[] {
  const o = options(undefined, minor)
  return validateCreate(pvc, prepareSpec(obj(pvc.spec) ?? {}, undefined, minor), o, minor)
}

/** ValidatePersistentVolumeClaimUpdate. */
export function validatePersistentVolumeClaimUpdate(pvc: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const o = options(old, minor)
  const oldSpec = normalizeDataSources(clone(obj(old.spec) ?? {}))
  const newSpec = prepareSpec(obj(pvc.spec) ?? {}, oldSpec, minor)
  const errs = [
    ...validateObjectMetaFor(pvc, { namespaced: true, nameFn: nameIsDNSSubdomain, minor: minor, oldObject: old }),
    ...validateCreate(pvc, newSpec, o, minor),
  ]
  const status = obj(old.status) ?? {}
  const bound = status.phase === 'Bound'
  const nc = clone(newSpec)
  const oc = clone(oldSpec)
  if (str(oldSpec.volumeName) === '') {
    if (nc.volumeName === undefined) delete oc.volumeName
    else oc.volumeName = nc.volumeName
  }
  const oldAnn = annotations(old)
  const newAnn = annotations(pvc)
  const upgradeFromAnnotation =
    Object.hasOwn(oldAnn, BETA_SC) &&
    oldSpec.storageClassName === undefined &&
    typeof newSpec.storageClassName === 'string' &&
    newSpec.storageClassName === oldAnn[BETA_SC] &&
    (!Object.hasOwn(newAnn, BETA_SC) || newAnn[BETA_SC] === oldAnn[BETA_SC])
  if (upgradeFromAnnotation) delete nc.storageClassName
  else {
    if ((newAnn[BETA_SC] ?? '') !== (oldAnn[BETA_SC] ?? ''))
      errs.push(field.invalid(META.child('annotations', BETA_SC), newAnn[BETA_SC] ?? '', 'field is immutable'))
    const fromNil =
      typeof newSpec.storageClassName === 'string' &&
      oldSpec.storageClassName === undefined &&
      (!Object.hasOwn(oldAnn, BETA_SC) || newSpec.storageClassName === oldAnn[BETA_SC])
    if (fromNil) delete nc.storageClassName
  }
  const newReq = obj(obj(nc.resources)?.requests)
  if (bound && newReq !== undefined) {
    const oldStorage = obj(obj(oldSpec.resources)?.requests)?.storage
    nc.resources = { ...obj(nc.resources), requests: { ...newReq, storage: oldStorage ?? '0' } }
  }
  // the volumeAttributesClassName munged before the spec comparison: always in 1.30, for a bound claim
  // with a new value set in 1.31-1.33, for any bound claim from 1.34
  if (minor <= 30 || (bound && (minor >= 34 || nc.volumeAttributesClassName !== undefined))) {
    if (oc.volumeAttributesClassName === undefined) delete nc.volumeAttributesClassName
    else nc.volumeAttributesClassName = oc.volumeAttributesClassName
  }
  if (!specEqual(nc, oc))
    errs.push(
      field.forbidden(
        SPEC,
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(oc, nc, minor)}`,
      ),
    )
  const oldSize = quantity(obj(obj(oldSpec.resources)?.requests)?.storage) ?? quantity('0')
  const newSize = quantity(obj(obj(newSpec.resources)?.requests)?.storage) ?? quantity('0')
  const statusSize = quantity(obj(status.capacity)?.storage) ?? quantity('0')
  const rsp = FieldPath.of('spec', 'resources', 'requests', 'storage')
  if (newSize !== undefined && oldSize !== undefined && newSize.cmp(oldSize) < 0) {
    if (!o.recoverFromExpansionFailure) errs.push(field.forbidden(rsp, 'field can not be less than previous value'))
    else if (statusSize !== undefined && newSize.cmp(statusSize) <= 0)
      errs.push(field.forbidden(rsp, 'field can not be less than status.capacity'))
  }
  if (!deepEqual(newSpec.volumeMode ?? null, oldSpec.volumeMode ?? null))
    errs.push(field.invalid(FieldPath.of('volumeMode'), newSpec.volumeMode ?? null, 'field is immutable'))
  if (!deepEqual(oldSpec.volumeAttributesClassName ?? null, newSpec.volumeAttributesClassName ?? null)) {
    const vp = FieldPath.of('spec', 'volumeAttributesClassName')
    if (!vacGate(minor))
      errs.push(field.forbidden(vp, 'update is forbidden when the VolumeAttributesClass feature gate is disabled'))
    if (minor <= 33) {
      // before 1.34: a class set in the old spec may not be removed
      if (o.volumeAttributesClass && typeof oldSpec.volumeAttributesClassName === 'string') {
        if (newSpec.volumeAttributesClassName === undefined)
          errs.push(field.forbidden(vp, 'update from non-nil value to nil is forbidden'))
        else if (newSpec.volumeAttributesClassName === '')
          errs.push(field.forbidden(vp, 'update from non-nil value to an empty string is forbidden'))
      }
    } else if (o.volumeAttributesClass && typeof status.currentVolumeAttributesClassName === 'string') {
      if (newSpec.volumeAttributesClassName === undefined)
        errs.push(
          field.forbidden(vp, 'update to nil is forbidden when status.currentVolumeAttributesClassName is not nil'),
        )
      else if (newSpec.volumeAttributesClassName === '')
        errs.push(
          field.forbidden(
            vp,
            'update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil',
          ),
        )
    }
  }
  return errs
}
