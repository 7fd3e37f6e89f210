// Stage 6: the kind's strategy in the store (built-in kinds): rest.BeforeCreate / BeforeUpdate, which the
// builtin layer runs from its table of strategies (src/builtin/strategy.ts). Its warnings (the strategy's
// WarningsOnCreate / WarningsOnUpdate, a Pod's AppArmor skew) follow the decoding's in builtin.warnings, which
// the validating stage puts before the policies' (store.go Create: rest.BeforeCreate, then createValidation).

import { preparedForCreate, preparedForUpdate } from '../../builtin/prepared.js'
import { beforeCreate, beforeUpdate } from '../../builtin/strategy.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmitResult } from '../answer.js'
import { gvkOf } from '../objects.js'
import { builtinRefusal } from './answers.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * rest.BeforeCreate / BeforeUpdate (registry/rest/create.go, update.go): PrepareForCreate / PrepareForUpdate
 * after mutating admission, then the strategy's validation inside the store, before validating admission
 * (an object it refuses is a 422 Invalid no validating policy sees), then the object marshalled for the
 * validating policies and storage.
 */
export function strategy(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  if (s.builtin === undefined) return undefined
  const a = s.request
  // the request's scope as the REST mapping states it (a kind unknown to the mapper: as the request says)
  const namespaced =
    ctx.mapper.resourcesForKind(gvkOf(s.builtin.object as JSONObject))[0]?.namespaced ?? a.namespace !== ''
  // the request's user: the strategies that read it (a CertificateSigningRequest's requester) see who sends it
  const request = { namespaced, namespace: a.namespace, minor: ctx.minor, user: a.userInfo }
  const builtin =
    a.operation === 'UPDATE' ? beforeUpdate(s.builtin, s.oldBuiltin, request) : beforeCreate(s.builtin, request)
  s.builtin = builtin
  if (!builtin.allowed) return builtinRefusal(builtin, s.named, s.mutated)
  // validating admission sees the object as the store prepared it (src/builtin/prepared.ts): its status
  // reset, generation, uid and creationTimestamp; what is stored is made from builtin.object (stored.ts)
  if (a.subResource === '') {
    const object = builtin.object as JSONObject
    const prepared =
      a.operation === 'CREATE'
        ? preparedForCreate(object, request)
        : a.operation === 'UPDATE' && s.oldBuiltin !== undefined
          ? preparedForUpdate(object, s.oldBuiltin)
          : object
    if (prepared !== object) s.attrs = Object.assign({}, s.attrs, { object: prepared })
  }
  return undefined
}
