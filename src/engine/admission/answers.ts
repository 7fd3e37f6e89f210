// The answers that end a request before validating admission, and the built-in object as Go marshals it.

import { type BuiltinResult, marshalBuiltin } from '../../builtin/index.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmitResult } from '../answer.js'

/** The answer when decoding or the kind's own validation refuses a built-in object: no policy saw it. */
export function builtinRefusal(builtin: BuiltinResult, ...extra: object[]): AdmitResult {
  return Object.assign(
    {
      allowed: false,
      ...(builtin.status !== undefined ? { status: builtin.status } : {}),
      warnings: builtin.warnings,
      auditAnnotations: {},
      violations: [],
      builtin,
    },
    ...extra,
  )
}

/** A copy of a built-in decoded with keepEmpty, as Go marshals it. */
export function marshalled(o: JSONObject): JSONObject {
  const c = structuredClone(o)
  marshalBuiltin(c)
  return c
}

/** A built-in result whose object is marshalled. */
export function marshalledResult(b: BuiltinResult): BuiltinResult {
  if (b.keptEmpty !== true || b.object === undefined) return b
  const { keptEmpty: _k, ...rest } = b
  return { ...rest, object: marshalled(b.object) }
}
