import type { JSONObject } from '../common.js'
import { arr, obj } from './common.js'

// The ResourceClaim and ResourceClaimTemplate strategies' PrepareForCreate / PrepareForUpdate
// (kubernetes v1.37.2 pkg/api/resourceclaimspec/util.go DropDisabledFields) for the claim's one DRA gate
// that is off by default in 1.37: DRADerivedAttributes (alpha in 1.37) drops the requests'
// derivedAttributes unless the old spec has some. (DRAPrioritizedList, DRADeviceTaints, DRAAdminAccess
// and DRAConsumableCapacity are on; the status is reset by src/builtin/stored.ts.)

function requests(spec: JSONObject | undefined): JSONObject[] {
  const out: JSONObject[] = []
  for (const r of arr(obj(spec?.devices)?.requests)) {
    const req = obj(r)
    if (req === undefined) continue
    const exactly = obj(req.exactly)
    if (exactly !== undefined) out.push(exactly)
    for (const s of arr(req.firstAvailable)) {
      const sub = obj(s)
      if (sub !== undefined) out.push(sub)
    }
  }
  return out
}

/** draDerivedAttributesInUse. */
const derivedAttributesInUse = (spec: JSONObject | undefined): boolean =>
  spec !== undefined && requests(spec).some((r) => arr(r.derivedAttributes).length > 0)

/** resourceclaimspec.DropDisabledFields. */
function dropDisabledFields(spec: JSONObject | undefined, old: JSONObject | undefined): void {
  if (spec === undefined || derivedAttributesInUse(old)) return
  for (const r of requests(spec)) delete r.derivedAttributes
}

/** The ResourceClaim strategy's dropDisabledSpecFields. */
export function dropResourceClaimDisabledFields(o: JSONObject, old: JSONObject | undefined): void {
  dropDisabledFields(obj(o.spec), old === undefined ? undefined : obj(old.spec))
}

/** The ResourceClaimTemplate strategy's dropDisabledFields (the template's claim spec). */
export function dropResourceClaimTemplateDisabledFields(o: JSONObject, old: JSONObject | undefined): void {
  dropDisabledFields(obj(obj(o.spec)?.spec), old === undefined ? undefined : obj(obj(old.spec)?.spec))
}

const devices = (spec: JSONObject | undefined): JSONObject[] =>
  arr(spec?.devices)
    .map(obj)
    .filter((d): d is JSONObject => d !== undefined)
const LIST_ATTRIBUTES = ['bools', 'ints', 'strings', 'versions']
const attributes = (d: JSONObject): JSONObject[] =>
  Object.values(obj(d.attributes) ?? {})
    .map(obj)
    .filter((a): a is JSONObject => a !== undefined)

/**
 * The ResourceSlice strategy's dropDisabledFields (pkg/registry/resource/resourceslice/strategy.go) for
 * the gates off in 1.37: DRAListTypeAttributes (the list values of attributes), DRAPartitionableDevicesType
 * (partitionTypeAttribute), DRADeviceCompatibilityGroups, DRANodeAllocatableResources and
 * DRAOptionalNodeOperations (skipNodeOperations); each kept when the old slice uses it.
 */
export function dropResourceSliceDisabledFields(o: JSONObject, old: JSONObject | undefined): void {
  const spec = obj(o.spec)
  if (spec === undefined) return
  const oldSpec = old === undefined ? undefined : obj(old.spec)
  const inUse = (f: (d: JSONObject) => boolean) => devices(oldSpec).some(f)
  if (!inUse((d) => attributes(d).some((a) => LIST_ATTRIBUTES.some((k) => a[k] != null))))
    for (const d of devices(spec)) for (const a of attributes(d)) for (const k of LIST_ATTRIBUTES) delete a[k]
  if (oldSpec?.partitionTypeAttribute == null) delete spec.partitionTypeAttribute
  const consumptions = (d: JSONObject) =>
    arr(d.consumesCounters)
      .map(obj)
      .filter((c) => c !== undefined) as JSONObject[]
  if (!inUse((d) => consumptions(d).some((c) => arr(c.compatibilityGroups).length > 0)))
    for (const d of devices(spec)) for (const c of consumptions(d)) delete c.compatibilityGroups
  if (!inUse((d) => Object.keys(obj(d.nodeAllocatableResources) ?? {}).length > 0))
    for (const d of devices(spec)) delete d.nodeAllocatableResources
  if (arr(oldSpec?.skipNodeOperations).length === 0) delete spec.skipNodeOperations
}
