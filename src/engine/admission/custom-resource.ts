// Stage 7: a custom resource's validation by its CRD (schema, CEL rules), in the store before validating
// admission.

import type { ValidateOptions } from '../../crd/custom-resource.js'
import { copyOwn } from '../../kube/own-keys.js'
import { filledOnCreate, keptOnUpdate } from '../../kube/system-fields.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import type { AdmitResult } from '../answer.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * The CRD's registry strategy (apiextensions-apiserver pkg/registry/customresource/strategy.go Validate:
 * the schema and x-kubernetes-validations, ratcheting on UPDATE) runs inside the store, before validating
 * admission: an object it refuses is a 422 Invalid (or the 404 of a version no CRD serves) no validating
 * policy sees. A valid one goes on as the CRD handler decoded it (pruned, defaulted).
 */
export function customResourceValidation(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  const a = s.request
  if (
    !ctx.hasCRDs ||
    a.object === undefined ||
    a.object === null ||
    (a.operation !== 'CREATE' && a.operation !== 'UPDATE')
  )
    return undefined
  const crOptions: { -readonly [K in keyof ValidateOptions]: ValidateOptions[K] } = {}
  const mutated = s.mutated.mutatedObject !== undefined
  // the request's own unknown fields were decided when it was decoded; fields a policy added are
  // pruned without a word (the conversion after the mutating plugin coerces the object again)
  if (mutated) crOptions.fieldValidation = 'Ignore'
  if (ctx.options.generateName !== undefined) crOptions.generateName = ctx.options.generateName
  if (a.oldObject) crOptions.oldObject = a.oldObject
  if (a.namespace !== '') crOptions.namespace = a.namespace
  if (a.subResource === 'status') crOptions.subresource = 'status'
  const customResource = ctx.crds.validate(mutated ? s.attrs.object : s.requestObject, crOptions)
  if (customResource === undefined) return undefined
  s.customResource = customResource
  if (!customResource.allowed) {
    return {
      allowed: false,
      ...(customResource.status !== undefined ? { status: customResource.status } : {}),
      warnings: customResource.warnings,
      auditAnnotations: {},
      violations: [],
      customResource,
      ...(customResource.status?.code === 404 ? { noMatch: ctx.noMatch(a.kind) } : {}),
      ...s.named,
    }
  }
  s.attrs = { ...s.attrs, object: withSystemFields(customResource.object as JSONObject, a.operation, a.oldObject) }
  return undefined
}

/**
 * The object validating admission sees: the server's uid and creationTimestamp set as the store sets them
 * (src/kube/system-fields.ts), on a copy; what is stored (customResource.object) prints neither.
 */
function withSystemFields(object: JSONObject, operation: string, old: unknown): JSONObject {
  const meta: JSONObject = isObject(object.metadata) ? object.metadata : {}
  // copyOwn: any key of the custom resource (`__proto__` too) stays an own one
  const out = copyOwn(object) as JSONObject
  out.metadata = operation === 'CREATE' ? filledOnCreate(meta) : keptOnUpdate(meta, old)
  return out
}
