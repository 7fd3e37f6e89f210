// What admission reads of a policy set, built once when the set is built (no request builds any of it).

import { type AdmissionInputs, NO_ADMISSION_INPUTS } from '../../builtin/admission/inputs.js'
import type { CustomResourceDefinitions } from '../../crd/registry.js'
import { defaultAuthorize } from '../../kube/authz/authorizer.js'
import type { RESTMapper } from '../../kube/resources.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes, GroupVersionKind } from '../../policy/attributes.js'
import type { DispatchContext } from '../../policy/generic/hooks.js'
import type { Matcher } from '../../policy/matching/matching.js'
import type { MutatingPolicyHook } from '../../policy/mutating/dispatcher.js'
import type { PolicyHook } from '../../policy/validating/dispatcher.js'
import type { NoMatch } from '../answer.js'
import { namespaceObjectOf } from '../namespaces.js'
import { releaseMinor } from '../objects.js'
import type { PolicySetOptions } from '../options.js'
import { mutatingDispatchContext } from './mutating.js'
import type { AdmissionContext } from './state.js'

export interface AdmissionParts {
  readonly options: PolicySetOptions
  readonly release: string
  readonly crds: CustomResourceDefinitions
  readonly mapper: RESTMapper
  readonly matcher: Matcher
  readonly namespaces: ReadonlyMap<string, JSONObject>
  readonly hooks: readonly PolicyHook[]
  readonly mutatingHooks: readonly MutatingPolicyHook[]
  readonly noMatch: (kind: GroupVersionKind) => NoMatch
  readonly inputs?: AdmissionInputs
}

export function admissionContext(p: AdmissionParts): AdmissionContext {
  const minor = releaseMinor(p.release)
  const dispatch: DispatchContext = {
    matcher: p.matcher,
    mapper: p.mapper,
    namespaceObject: namespaceObjectOf(p.namespaces, p.options.namespaces === 'strict'),
    authorize: p.options.authorize ?? defaultAuthorize,
    convert: convertByApiVersion,
  }
  return {
    options: p.options,
    release: p.release,
    minor,
    crds: p.crds,
    hasCRDs: p.crds.size > 0 || p.crds.problems.length > 0,
    mapper: p.mapper,
    hooks: p.hooks,
    mutatingHooks: p.mutatingHooks,
    dispatch,
    mutatingDispatch: mutatingDispatchContext(dispatch, p.crds, p.release, minor, p.options.builtins !== false),
    noMatch: p.noMatch,
    inputs: p.inputs ?? NO_ADMISSION_INPUTS,
  }
}

/**
 * Conversion to the version a policy matched (matchPolicy Equivalent): kelp has no conversion
 * functions, so the object keeps its fields and takes the other apiVersion, as a CRD with
 * `conversion: None` converts.
 */
function convertByApiVersion(a: AdmissionAttributes, to: GroupVersionKind): AdmissionAttributes {
  const apiVersion = to.group === '' ? to.version : `${to.group}/${to.version}`
  const conv = (o: JSONObject | null | undefined) => (o ? { ...o, apiVersion, kind: to.kind } : o)
  return { ...a, kind: to, object: conv(a.object), oldObject: conv(a.oldObject) }
}
