// The one evaluation core the CLI and the webhook share: a policy set built from Kubernetes objects
// (ValidatingAdmissionPolicies, MutatingAdmissionPolicies, their bindings, param objects, Namespaces,
// CRDs) that answers admit(request) as kube-apiserver would (admission/pipeline.ts: its stages in the
// apiserver's order). Immutable once built; every expression is compiled once; admit() keeps no state
// between calls. Its parts: material.ts (what the inputs are), hooks.ts (policies × bindings × params),
// diagnostics.ts, admission/ (one request), lifecycle.ts (an apiVersion's deprecation or removal).

import { admissionInputs } from '../builtin/admission/inputs.js'
import { CustomResourceDefinitions } from '../crd/registry.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { errorString } from '../kube/field.js'
import { crdMappingFromObject, RESTMapper } from '../kube/resources.js'
import type { JSONObject } from '../kube/values/json.js'
import type { AdmissionAttributes, AdmissionAttributesInput, GroupVersionKind } from '../policy/attributes.js'
import { policyCompileHook } from '../policy/cel/validation-hook.js'
import { Matcher } from '../policy/matching/matching.js'
import type { MutatingPolicyHook } from '../policy/mutating/dispatcher.js'
import { PolicyMutator } from '../policy/mutating/mutator.js'
import type { PolicyHook, PolicyViolation } from '../policy/validating/dispatcher.js'
import { PolicyValidator } from '../policy/validating/validator.js'
// the webhook configurations' match conditions compile in the admission CEL environment
import './admission-validation.js'
import { admissionContext } from './admission/context.js'
import { admit } from './admission/pipeline.js'
import type { AdmissionContext } from './admission/state.js'
import type { AdmitResult, NoMatch } from './answer.js'
import { type Diagnostic, diagnose } from './diagnostics.js'
import { admitMaterial, type HookContext, MUTATING, pairHooks, VALIDATING } from './hooks.js'
import { apiLifecycle } from './lifecycle.js'
import { classifyMaterial, type Problem } from './material.js'
import { namespaceLookup } from './namespaces.js'
import { gvkOf, metaOf, releaseMinor } from './objects.js'
import { DEFAULT_USER, type PolicySetOptions, type ValidateRequestOptions } from './options.js'

// the names this module exported before its parts moved out: importers keep importing them from here
export { type AdmitResult, type AnswerStatus, isAdmissionStatus, type NoMatch, type NoMatchReason } from './answer.js'
export type { Diagnostic } from './diagnostics.js'
export { type ApiLifecycle, apiLifecycle } from './lifecycle.js'
export {
  latestWrites,
  MATERIAL_KINDS,
  type MaterialKind,
  materialKind,
  materialNotServed,
  type Problem,
} from './material.js'
export { materialProblems } from './material-problems.js'
export { DEFAULT_USER, type PolicySetOptions, type ValidateRequestOptions } from './options.js'
export type { PolicyViolation }
export { errorString }

export class PolicySet {
  private constructor(
    private readonly admission: AdmissionContext,
    readonly crds: CustomResourceDefinitions,
    readonly mapper: RESTMapper,
    readonly problems: readonly Problem[],
    private readonly computeDiagnostics: () => Diagnostic[],
    /** `<kind>.<group>` of refused CRDs → the CRD's name. */
    private readonly refusedCRDs: ReadonlyMap<string, string>,
  ) {}

  private diagnosticsCache: readonly Diagnostic[] | undefined

  /**
   * Legal but likely mistaken material, and type checking (status.typeChecking). Computed on first
   * use: admission does not need it, so a webhook's start-up and reloads do not pay for it.
   */
  get diagnostics(): readonly Diagnostic[] {
    this.diagnosticsCache ??= this.computeDiagnostics()
    return this.diagnosticsCache
  }

  /** Builds a policy set from Kubernetes objects (any order; other kinds become param candidates). */
  static build(objects: readonly unknown[], options: PolicySetOptions = {}): PolicySet {
    const version = options.version ?? DEFAULT_KUBE_VERSION
    const release = options.release ?? version
    const material = classifyMaterial(objects, release, options.materialVersions)
    const problems = material.problems

    const crds = CustomResourceDefinitions.load(
      material.crds.map((c) => c.obj),
      { version, ...(options.trusted === true ? { trusted: true } : {}) },
    )
    const refusedCRDs = new Map<string, string>()
    for (const p of crds.problems) {
      const spec = material.crds[p.index]?.obj.spec as { group?: unknown; names?: { kind?: unknown } } | undefined
      refusedCRDs.set(`${String(spec?.names?.kind)}.${String(spec?.group)}`, p.name)
      problems.push({
        index: material.crds[p.index]?.index ?? -1,
        kind: 'CustomResourceDefinition',
        name: p.name,
        errors: p.errors,
        message: p.status.message,
      })
    }
    const mapper = new RESTMapper({ release })
    for (const crd of crds) mapper.addCRD(crdMappingFromObject(crd.object as unknown as JSONObject))

    const ctx: HookContext = {
      compile: policyCompileHook({ version }),
      trusted: (o: object) => options.trusted === true || (typeof options.trusted === 'function' && options.trusted(o)),
      problems,
      mapper,
      others: material.others,
      namespace: options.defaultNamespace || 'default',
      minor: Number(release.split('.')[1]),
    }
    const validating = admitMaterial(VALIDATING, material.policies, material.bindings, ctx)
    const validator = options.checkedCache !== undefined ? { version, checkedCache: options.checkedCache } : { version }
    const hooks = pairHooks(
      VALIDATING,
      validating,
      ctx,
      (policy, bindings, params): PolicyHook => ({
        policy,
        bindings,
        validator: new PolicyValidator(policy, validator),
        ...params,
      }),
    )
    const mutating = admitMaterial(MUTATING, material.mutatingPolicies, material.mutatingBindings, ctx)
    const mutatingHooks = pairHooks(
      MUTATING,
      mutating,
      ctx,
      (policy, bindings, params): MutatingPolicyHook => ({
        policy,
        bindings,
        mutator: new PolicyMutator(policy, { version }),
        ...params,
      }),
    )

    const strict = options.namespaces === 'strict'
    const noMatch = (kind: GroupVersionKind) => set.noMatch(kind)
    const admission = admissionContext({
      options,
      release,
      crds,
      mapper,
      matcher: new Matcher(namespaceLookup(material.namespaces, strict)),
      namespaces: material.namespaces,
      hooks,
      mutatingHooks,
      noMatch,
      // the objects the default admission plugins read (LimitRanges, ServiceAccounts, classes)
      inputs: admissionInputs(material.others, {
        minor: releaseMinor(release),
        ...(options.defaultNamespace !== undefined ? { defaultNamespace: options.defaultNamespace } : {}),
      }),
    })
    const diagnostics = () =>
      diagnose({ objects, material, validating, hooks, problems, crds, mapper, options, version })
    const set = new PolicySet(admission, crds, mapper, problems, diagnostics, refusedCRDs)
    return set
  }

  /** Every compiled policy's compile errors (reported by `problems` when validated; kept for trusted sets). */
  get policies(): readonly PolicyHook[] {
    return this.admission.hooks
  }

  /**
   * Admission of one request: CRD validation for custom resources, then the policies. `mutating:
   * false` runs no MutatingAdmissionPolicy (a validating webhook judges the object as the apiserver
   * sends it, after its own mutating admission: mutating it again would judge what the cluster never stores).
   */
  admit(given: AdmissionAttributesInput, options: { readonly mutating?: boolean } = {}): AdmitResult {
    return admit(this.admission, given, options)
  }

  /** Why no resource serves this group/version/kind (the mapper has none). */
  noMatch(kind: GroupVersionKind): NoMatch {
    const crd = this.crds.get(kind.group, kind.kind)
    if (crd !== undefined) return { reason: 'version-not-served', crd: crd.name }
    const refused = this.refusedCRDs.get(`${kind.kind}.${kind.group}`)
    if (refused !== undefined) return { reason: 'crd-refused', crd: refused }
    // apiextensions validation: spec.group "should be a domain with at least one dot"
    return { reason: kind.group.includes('.') ? 'no-crd' : 'not-served' }
  }
  /** The admission request kubectl would send for `object` (a CREATE, or an UPDATE with oldObject). */
  request(
    object: JSONObject,
    options: ValidateRequestOptions = {},
  ): AdmissionAttributes | { error: string; noMatch: NoMatch } {
    const kind = gvkOf(object)
    // a kind in lower case: kubectl's discovery mapper finds its resource and sends it (decode refuses it)
    const resource = this.mapper.resourcesForKind(kind)[0] ?? this.mapper.resourceForLowercaseKind(kind)
    if (resource === undefined) {
      const av = typeof object.apiVersion === 'string' ? object.apiVersion : ''
      return { error: `no matches for kind "${kind.kind}" in version "${av}"`, noMatch: this.noMatch(kind) }
    }
    const m = metaOf(object)
    const name = typeof m.name === 'string' ? m.name : ''
    // A Namespace's requests carry its own name as their namespace: the request path
    // /api/v1/namespaces/<name> sets it (endpoints/request/requestinfo.go), and a create sets it from
    // the object's name (endpoints/handlers/create.go: `if len(namespace) == 0 && scope.Resource ==
    // namespaceGVR { namespace = name }`).
    const isNamespace = resource.group === '' && resource.version === 'v1' && resource.resource === 'namespaces'
    const ns = resource.namespaced ? String(m.namespace ?? options.namespace ?? 'default') : isNamespace ? name : ''
    const operation = options.operation ?? (options.oldObject === undefined ? 'CREATE' : 'UPDATE')
    const sub = options.subResource ?? ''
    return {
      kind,
      resource: { group: resource.group, version: resource.version, resource: resource.resource },
      subResource: sub,
      name,
      namespace: ns,
      operation,
      object: operation === 'DELETE' ? null : object,
      // the previous revision as the cluster stored it: in the request's namespace when its manifest names none
      // (rest.EnsureObjectNamespaceMatchesRequestNamespace filled it on its own write)
      oldObject:
        options.oldObject !== undefined && resource.namespaced && metaOf(options.oldObject).namespace === undefined
          ? { ...options.oldObject, metadata: { ...metaOf(options.oldObject), namespace: ns } }
          : (options.oldObject ?? null),
      options: null,
      userInfo: options.userInfo ?? this.admission.options.userInfo ?? DEFAULT_USER,
      dryRun: options.dryRun ?? false,
    }
  }

  /**
   * Convenience: builds the request for `object` and admits it, as `kubectl create` would send it: the answer
   * carries the apiVersion's lifecycle at the target release (`apiLifecycle`; a deprecated version's warning
   * first among `warnings`, as kube-apiserver adds it before the handler runs).
   */
  validate(object: JSONObject, options: ValidateRequestOptions = {}): AdmitResult {
    const answer = this.answer(object, options)
    const lifecycle = apiLifecycle(object, this.admission.release)
    if (lifecycle === undefined) return answer
    return lifecycle.status === 'deprecated'
      ? Object.assign({}, answer, { warnings: [lifecycle.message, ...answer.warnings], apiLifecycle: lifecycle })
      : Object.assign({}, answer, { apiLifecycle: lifecycle })
  }

  private answer(object: JSONObject, options: ValidateRequestOptions): AdmitResult {
    const req = this.request(object, options)
    if ('error' in req) {
      return {
        allowed: false,
        warnings: [],
        auditAnnotations: {},
        violations: [],
        noMatch: req.noMatch,
        status: {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: req.error,
          reason: 'NotFound',
          code: 404,
          details: { kind: String(object.kind ?? ''), name: String(metaOf(object).name ?? ''), causes: [] },
        },
      }
    }
    return this.admit(req)
  }
}
