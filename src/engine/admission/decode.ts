// Stage 3: the body decoded into the kind's type and defaulted, before any admission.

import { decodeBuiltin } from '../../builtin/index.js'
import type { CustomResourceDefinitions } from '../../crd/registry.js'
import { decodeCustomResource } from '../../crd/structural/decode.js'
import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import type { AdmitResult } from '../answer.js'
import { releaseMinor } from '../objects.js'
import { builtinRefusal } from './answers.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * The handler decodes the body into the kind's Go type and the codec defaults it before any admission
 * (endpoints/handlers create.go / update.go; the stored old object is defaulted too). A built-in that does
 * not decode is a 400 BadRequest no plugin sees. A custom resource is decoded (schema coercer: pruned;
 * unstructuredDefaulter: defaulted) for the mutating policies only: the validating path reads it from the
 * CRD's validation (custom-resource.ts), so without mutating policies it is not decoded twice.
 */
export function decodeAndDefault(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  const a = s.request
  if (
    ctx.options.builtins !== false &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    a.subResource === '' &&
    isObject(s.attrs.object)
  ) {
    const minor = ctx.minor
    // the given-empty lists kept, as the strategy validates them (dropped there, before the policies)
    const builtin = decodeBuiltin(s.attrs.object, { minor, keepEmpty: true })
    if (builtin !== undefined) {
      s.builtin = builtin
      if (!builtin.allowed) return builtinRefusal(builtin, s.named)
      const old = isObject(a.oldObject) ? decodeBuiltin(a.oldObject, { minor, fieldValidation: 'Ignore' }) : undefined
      s.oldBuiltin = old?.object as JSONObject | undefined
      // Object.assign, not spreads, on this path: on Node 20's V8 a spread followed by a new key costs
      // ~1 µs per object (docs/benchmarks.md, "Object spreads")
      s.attrs =
        old?.object !== undefined
          ? Object.assign({}, s.attrs, { object: builtin.object as JSONObject, oldObject: old.object })
          : Object.assign({}, s.attrs, { object: builtin.object as JSONObject })
    }
  }
  s.requestObject = s.attrs.object
  if (s.mutating && ctx.hasCRDs && s.builtin === undefined && isObject(s.attrs.object)) {
    const d = decodeForMutation(ctx.crds, s.attrs.object)
    if (d === null) s.crDecoded = false
    else if (d !== undefined) s.attrs = { ...s.attrs, object: d }
  }
  return undefined
}

/**
 * The custom resource as the CRD handler decodes it (pruned, defaulted), undefined when no loaded CRD
 * serves its kind and version, null when it does not decode (a 400 before admission; strict unknown
 * fields included: kubectl's Strict is kelp's default).
 */
function decodeForMutation(crds: CustomResourceDefinitions, object: JSONObject): JSONObject | null | undefined {
  const crd = crds.forObject(object)
  if (crd === undefined) return undefined
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const v = crd.versions.get(apiVersion.slice(apiVersion.indexOf('/') + 1))
  if (v === undefined || !v.served) return undefined
  const d = decodeCustomResource(object, v.schema as JSONSchemaProps | undefined, {
    returnUnknownFieldPaths: true,
    nullCreationTimestamp: releaseMinor(crd.kubeVersion) < 34,
  })
  if (d.error !== undefined || d.object === undefined || d.unknownFields.length > 0) return null
  return d.object as JSONObject
}
