import type { FeatureGates } from '../../../kube/feature-gates.js'
import { setOwn } from '../../../kube/own-keys.js'
import type { RequestUser } from '../../strategies.js'
import { type JSONObject, obj } from '../common.js'

// The CertificateSigningRequest strategy's PrepareForCreate / PrepareForUpdate (kubernetes v1.37.2
// pkg/registry/certificates/certificates/strategy.go), in place on the decoded v1 object: on create the
// requester's identity is what the spec says, whatever the manifest held (username, uid, groups, extra copied
// from the request's user; a field the user lacks stays out, as the Go fields' omitempty drops it), and the
// status is empty (no pre-approved request); on update the spec and status are the stored ones.

export function prepareCertificateSigningRequest(
  o: JSONObject,
  old: JSONObject | undefined,
  _on: FeatureGates,
  user?: RequestUser,
): void {
  if (old !== undefined) {
    o.spec = structuredClone(obj(old.spec) ?? {})
    o.status = structuredClone(obj(old.status) ?? {})
    return
  }
  const spec: JSONObject = obj(o.spec) ?? {}
  o.spec = spec
  delete spec.username
  delete spec.uid
  delete spec.groups
  delete spec.extra
  if (user !== undefined) {
    if (user.username !== undefined && user.username !== '') spec.username = user.username
    if (user.uid !== undefined && user.uid !== '') spec.uid = user.uid
    if (user.groups !== undefined && user.groups.length > 0) spec.groups = [...user.groups]
    const extra = user.extra === undefined ? [] : Object.entries(user.extra)
    if (extra.length > 0) {
      // a map built from input: any key, `__proto__` included, is data
      const out: JSONObject = {}
      for (const [k, v] of extra) setOwn(out, k, [...v])
      spec.extra = out
    }
  }
  o.status = {}
}
