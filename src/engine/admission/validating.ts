// Stage 8: validating admission (ValidatingAdmissionPolicies), and the answer merged from every stage.

import { dispatch } from '../../policy/validating/dispatcher.js'
import type { AdmitResult } from '../answer.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * The store calls validating admission last (registry/store.go Create / Update: createValidation after the
 * strategy's validation; generic/plugin.go Dispatch). The answer carries the policies' outcome with what the
 * stages before said: the built-in's decoding (its warnings first), the custom resource's validation (its
 * warnings first), the generated name and the mutation; only the keys of what happened are present.
 */
export function validatingAdmission(ctx: AdmissionContext, s: AdmissionState): AdmitResult {
  const result = dispatch(s.attrs, ctx.hooks, ctx.dispatch)
  const { builtin, customResource, named, mutated } = s
  if (customResource === undefined) {
    // Object.assign, not spreads, on this path: on Node 20's V8 a spread followed by a new key costs
    // ~1 µs per object (docs/benchmarks.md, "Object spreads"); the plain answer is dispatch's own
    if (builtin === undefined)
      return s.generatedName === undefined && mutated.mutatedObject === undefined
        ? result
        : Object.assign({}, result, named, mutated)
    const warnings = builtin.warnings.length > 0 ? [...builtin.warnings, ...result.warnings] : result.warnings
    return Object.assign({}, result, { warnings, builtin }, named, mutated)
  }
  return {
    ...result,
    warnings: [...customResource.warnings, ...result.warnings],
    customResource,
    ...named,
    ...mutated,
  }
}
