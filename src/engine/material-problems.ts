// The problems of one material document, without building a set: what a cluster of the target release
// answers to creating it alone (not served, or refused by its kind's validation). A set built from the
// document alone reports the same problems (PolicySet.build([object], options).problems); this builds no
// hooks, mapper or matcher, for faces that judge documents one by one.

import { CustomResourceDefinitions } from '../crd/registry.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { isObject } from '../kube/values/json.js'
import { policyCompileHook } from '../policy/cel/validation-hook.js'
import { MUTATING, policyProblem, VALIDATING } from './hooks.js'
import { materialKind, materialNotServed, type Problem } from './material.js'
import { metaOf } from './objects.js'
import type { PolicySetOptions } from './options.js'

/** The options of PolicySet.build that decide a document's problems. */
export type MaterialProblemsOptions = Pick<PolicySetOptions, 'version' | 'release' | 'trusted' | 'materialVersions'>

/**
 * The problems of one document as material of a set (`index`: its index among the inputs, for `Problem.index`):
 * none when it is no material (materialKind) or when a cluster of the release would accept it.
 */
export function materialProblems(object: unknown, options: MaterialProblemsOptions = {}, index = 0): Problem[] {
  if (!isObject(object)) return []
  const kind = materialKind(object)
  if (kind === undefined) return []
  const version = options.version ?? DEFAULT_KUBE_VERSION
  if (options.materialVersions !== 'any') {
    const notServed = materialNotServed(object, options.release ?? version)
    if (notServed !== undefined)
      return [{ index, kind, name: String(metaOf(object).name ?? ''), errors: [], message: notServed }]
  }
  if (kind === 'CustomResourceDefinition') {
    const crds = CustomResourceDefinitions.load([object], {
      version,
      ...(options.trusted === true ? { trusted: true } : {}),
    })
    return crds.problems.map((p) => ({ index, kind, name: p.name, errors: p.errors, message: p.status.message }))
  }
  const trusted = options.trusted === true || (typeof options.trusted === 'function' && options.trusted(object))
  if (trusted) return []
  const compile = policyCompileHook({ version })
  switch (kind) {
    case 'ValidatingAdmissionPolicy': {
      const p = VALIDATING.defaultPolicy(object)
      const errors = VALIDATING.validatePolicy(p, { compile })
      return errors.length > 0 ? [policyProblem(index, kind, p, errors)] : []
    }
    case 'ValidatingAdmissionPolicyBinding': {
      const b = VALIDATING.defaultBinding(object)
      const errors = VALIDATING.validateBinding(b)
      return errors.length > 0 ? [policyProblem(index, kind, b, errors)] : []
    }
    case 'MutatingAdmissionPolicy': {
      const p = MUTATING.defaultPolicy(object)
      const errors = MUTATING.validatePolicy(p, { compile })
      return errors.length > 0 ? [policyProblem(index, kind, p, errors)] : []
    }
    case 'MutatingAdmissionPolicyBinding': {
      const b = MUTATING.defaultBinding(object)
      const errors = MUTATING.validateBinding(b)
      return errors.length > 0 ? [policyProblem(index, kind, b, errors)] : []
    }
  }
}
