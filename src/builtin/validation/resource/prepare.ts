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
