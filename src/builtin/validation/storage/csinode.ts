import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import {
  arr,
  deepEqual,
  type JSONObject,
  obj,
  optNum,
  str,
  utf8Len,
  validateNonnegativeField,
  validateQualifiedName,
} from '../common.js'
import { validateCSIDriverName } from './csi-driver-name.js'

// storage.k8s.io/v1 CSINode: kubernetes v1.37.2 pkg/apis/storage/validation/validation.go ValidateCSINode
// (ValidateNodeName: NameIsDNSSubdomain), validateCSINodeDrivers, ValidateCSINodeUpdate (an existing
// driver's entry immutable but for allocatable: MutableCSINodeAllocatableCount is GA from 1.36, on from
// 1.35). The status is reset on create and kept on update (strategy.go), so it is not validated here.

const NODE_ID_MAX = 256

function validateCSINodeDriver(d: JSONObject, names: Set<string>, p: FieldPath, minor: number): FieldError[] {
  const errs = validateCSIDriverName(str(d.name), p.child('name'))
  const nodeID = str(d.nodeID)
  if (nodeID.length === 0) errs.push(field.required(p.child('nodeID'), nodeID))
  if (utf8Len(nodeID) > NODE_ID_MAX)
    errs.push(field.invalid(p.child('nodeID'), nodeID, `must be ${NODE_ID_MAX} characters or less`))
  const count = optNum(obj(d.allocatable)?.count)
  if (count !== undefined) errs.push(...validateNonnegativeField(count, p.child('allocatable', 'count')))
  if (names.has(str(d.name))) errs.push(field.duplicate(p.child('name'), str(d.name)))
  names.add(str(d.name))
  const keys = new Set<string>()
  for (const k of arr(d.topologyKeys).map(str)) {
    if (k.length === 0) errs.push(field.required(p, k))
    if (keys.has(k)) errs.push(field.duplicate(p, k))
    keys.add(k)
    errs.push(...validateQualifiedName(k, p, minor))
  }
  return errs
}

const DRIVERS = FieldPath.of('spec', 'drivers')

/** ValidateCSINode. */
export function validateCSINode(n: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(n, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  const names = new Set<string>()
  arr(obj(n.spec)?.drivers).forEach((d, i) => {
    errs.push(...validateCSINodeDriver(obj(d) ?? {}, names, DRIVERS.index(i), minor))
  })
  return errs
}

/**
 * The internal storage.CSINodeDriver the immutable error prints (json.Marshal of a struct without json tags:
 * Go's field names, in declaration order; allocatable cleared while MutableCSINodeAllocatableCount is on).
 */
function internalDriver(d: JSONObject, minor: number): GoStruct {
  const keys = Array.isArray(d.topologyKeys) ? d.topologyKeys : null
  const count = optNum(obj(d.allocatable)?.count)
  const allocatable = minor < 35 && obj(d.allocatable) !== undefined ? new GoStruct([['Count', count ?? null]]) : null
  return new GoStruct([
    ['Name', str(d.name)],
    ['NodeID', str(d.nodeID)],
    ['TopologyKeys', keys],
    ['Allocatable', allocatable],
  ])
}

/** ValidateCSINodeUpdate: ValidateCSINode, then each driver kept by name unchanged but for allocatable. */
export function validateCSINodeUpdate(n: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateCSINode(n, minor)
  for (const od of arr(obj(old.spec)?.drivers))
    for (const nd of arr(obj(n.spec)?.drivers)) {
      const a = obj(nd) ?? {}
      const b = obj(od) ?? {}
      if (str(a.name) !== str(b.name)) continue
      const same = (k: string) => deepEqual(a[k] ?? null, b[k] ?? null)
      if (!same('nodeID') || !same('topologyKeys') || (minor < 35 && !same('allocatable')))
        errs.push(field.invalid(DRIVERS, internalDriver(a, minor), 'field is immutable'))
    }
  return errs
}
