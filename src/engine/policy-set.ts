import { dropDisabledFields } from '../builtin/drop-disabled.js'
import { type BuiltinResult, decodeBuiltin, marshalBuiltin } from '../builtin/index.js'
import { apiVersionStatus } from './api-versions.js'
import '../builtin/validation/apps.js'
import '../builtin/validation/batch.js'
import '../builtin/validation/core.js'
import { validateBuiltin } from '../builtin/validation/meta.js'
import '../builtin/validation/others.js'
// the webhook configurations' match conditions compile in the admission CEL environment
import './admission-validation.js'
import { admitServiceAccount } from '../builtin/admission/serviceaccount.js'
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from '../builtin/validation/admissionregistration/index.js'
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
} from '../builtin/validation/admissionregistration/mutating-policy.js'
import type { CustomResourceResult, ValidateOptions } from '../crd/custom-resource.js'
import { CustomResourceDefinitions } from '../crd/registry.js'
import { decodeCustomResource } from '../crd/structural/decode.js'
import {
  applyMutatingAdmissionPolicyBindingDefaults,
  applyMutatingAdmissionPolicyDefaults,
  applyValidatingAdmissionPolicyBindingDefaults,
  applyValidatingAdmissionPolicyDefaults,
} from '../kube/admissionregistration/defaults.js'
import type {
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../kube/admissionregistration/types.js'
import type { Authorize } from '../kube/authz/authorizer.js'
import { defaultAuthorize } from '../kube/authz/authorizer.js'
import { hasBuiltinSchemas, resolvedSchemaFor } from '../kube/builtin-schemas/index.js'
import type { RequestStatus } from '../kube/decoding.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../kube/environment.js'
import { defaultFeatureGates } from '../kube/feature-gates.js'
import {
  errorString,
  type FieldError,
  type InvalidStatus,
  kubectlInvalidText,
  newInvalid,
  withReleaseValues,
} from '../kube/field.js'
import { type NameGenerator, needsNameGeneration, SimpleNameGenerator } from '../kube/names.js'
import { OpenAPISchemaResolver, type OpenAPIV3Document } from '../kube/openapi.js'
import { crdMappingFromObject, RESTMapper } from '../kube/resources.js'
import type { JSONSchemaProps } from '../kube/schema/structural.js'
import {
  type AdmissionAttributes,
  type AdmissionAttributesInput,
  type GroupVersionKind,
  type Operation,
  type UserInfo,
  withAttributeDefaults,
} from '../policy/attributes.js'
import type { CheckedCache } from '../policy/cel/compile.js'
import { policyCompileHook } from '../policy/cel/validation-hook.js'
import { type ParamSource, paramKindGVK } from '../policy/generic/params.js'
import type { AdmissionStatus } from '../policy/generic/status.js'
import { Matcher } from '../policy/matching/matching.js'
import type { NamespaceInfo } from '../policy/matching/namespace.js'
import { jsonDiff } from '../policy/mutating/diff.js'
import {
  dispatchMutating,
  type MutatingDispatchContext,
  type MutatingPolicyHook,
  type MutationError,
  type PolicyMutation,
} from '../policy/mutating/dispatcher.js'
import type { PatchOperation } from '../policy/mutating/jsonpatch.js'
import { PolicyMutator } from '../policy/mutating/mutator.js'
import {
  type DispatchResult,
  dispatch,
  type PolicyHook,
  type PolicyViolation,
} from '../policy/validating/dispatcher.js'
import { typeCheck } from '../policy/validating/typechecking.js'
import { PolicyValidator } from '../policy/validating/validator.js'

// The one evaluation core the CLI and the webhook share: a policy set built from Kubernetes objects
// (ValidatingAdmissionPolicies, their bindings, param objects, Namespaces, CRDs) that answers
// admit(request) as kube-apiserver would: for a custom resource, the CRD's validation first (the
// registry strategy runs before validating admission), then the ValidatingAdmissionPolicies.
// Immutable once built; every expression is compiled once; admit() keeps no state between calls.

type JSONObject = Record<string, unknown>

/** An input object the apiserver would refuse (a policy, binding or CRD), reported, not thrown. */
export interface Problem {
  /** Index of the object in the input. */
  readonly index: number
  readonly kind: string
  readonly name: string
  readonly errors: readonly FieldError[]
  /** As kubectl would print the refusal. */
  readonly message: string
}

/**
 * Something about the policy material that is legal but likely a mistake, or what the apiserver's
 * status.typeChecking would report: never an error, the set works as a cluster would.
 */
export interface Diagnostic {
  /** Index of the object in the input. */
  readonly index: number
  readonly kind: string
  readonly name: string
  readonly level: 'warn' | 'info'
  readonly message: string
  /** A field path in the object (type checking: `spec.validations[0].expression`). */
  readonly field?: string
}

export interface PolicySetOptions {
  /** The Kubernetes version to behave as (default DEFAULT_KUBE_VERSION): the CEL environment. */
  readonly version?: KubeVersion
  /**
   * The target release for the REST mapping (`1.16` … `1.37`): which built-in kinds and versions are
   * served (default: `version`). The CEL environment is the nearest kelp has; API versions follow this.
   */
  readonly release?: string
  /** Decisions for `authorizer` checks (default: no opinion on everything). */
  readonly authorize?: Authorize
  /**
   * A namespace the objects do not include: `assume` (default) takes it as existing with only the
   * label every namespace carries (`kubernetes.io/metadata.name`); `strict` answers NotFound, as a
   * cluster without it would.
   */
  readonly namespaces?: 'assume' | 'strict'
  /**
   * Skip validating the policies, bindings and CRDs themselves (they were accepted by a cluster):
   * `true` for all; a predicate for the policies and bindings it accepts (the CLI's bundled pack,
   * validated for every release by kelp's tests, so a run does not compile it twice). The policies a
   * predicate accepts are not type checked either (diagnostics).
   */
  readonly trusted?: boolean | ((object: object) => boolean)
  /**
   * OpenAPI v3 documents of group-versions (`kubectl get --raw /openapi/v3/apis/apps/v1`), for
   * type checking policy expressions as status.typeChecking does (diagnostics). Not needed for the
   * built-in kinds of 1.30 … 1.37: the target release's published schemas are shipped and used for
   * every group-version no document is given for; CRDs in the inputs are used too.
   */
  readonly openapi?: readonly OpenAPIV3Document[]
  /**
   * The name a CREATE with metadata.generateName and no name gets before validation (default:
   * kube-apiserver's SimpleNameGenerator: the prefix cut to 58 characters plus 5 random ones).
   * `derivedNameGenerator` (what kelp check uses) derives the 5 characters from the object, for
   * reproducible output. Also names a Pod's service account token volume (`kube-api-access-xxxxx`).
   */
  readonly generateName?: NameGenerator
  /**
   * Built-in objects decoded and defaulted as the apiserver does before admission (src/builtin):
   * a body that does not decode is a 400 BadRequest (`builtin` in the result), policies see the
   * defaulted object. Default true.
   */
  readonly builtins?: boolean
  /**
   * Checked ASTs kept from an earlier process (the CLI's bundled pack, dist/cli/pack-checked.json):
   * the validating policies' expressions found there are planned without parsing and checking.
   */
  readonly checkedCache?: CheckedCache
  /**
   * Which versions of policy material are read: those the target release serves (`release`, the
   * default: a cluster of it refuses the others), or every version kelp reads (`any`: `kelp serve`,
   * which stands in for clusters that do not serve the kinds, e.g. MutatingAdmissionPolicies before 1.36).
   */
  readonly materialVersions?: 'release' | 'any'
}

/**
 * Why a request got 404 `no matches for kind "X" in version "g/v"` (kubectl apply fails on it):
 * - `not-served`: a built-in group (no dot: the apiserver refuses CRD groups without one, so no CRD
 *   can ever define it) whose kind/version the target release does not serve (a typo, a removed or
 *   future version);
 * - `version-not-served`: a loaded CRD defines the group/kind, but not this version as served;
 * - `crd-refused`: the CRD for the group/kind was refused (it is in `problems`);
 * - `no-crd`: a dotted group no loaded CRD defines; a CRD the inputs do not have may serve it.
 */
export type NoMatchReason = 'not-served' | 'version-not-served' | 'crd-refused' | 'no-crd'

export interface NoMatch {
  readonly reason: NoMatchReason
  /** metadata.name of the CRD (version-not-served, crd-refused). */
  readonly crd?: string
}

/**
 * The Status of a refused request, whichever step refused it: the admission plugins' (`AdmissionStatus`,
 * `kind: 'Status'`: a validating policy's Deny, a mutating policy's error, validate()'s 404 `no matches for
 * kind`), or the one the handler and registry answer before them (`RequestStatus`: 400 BadRequest of a body
 * that does not decode, 404, 504 Timeout; `InvalidStatus`: 422 Invalid of a built-in's native validation or a
 * custom resource's schema and rules).
 */
export type AnswerStatus = AdmissionStatus | InvalidStatus | RequestStatus

/** Whether a Status is the admission plugins' (its message is `<resource> "<name>" is forbidden: …`). */
export const isAdmissionStatus = (s: AnswerStatus | undefined): s is AdmissionStatus => s !== undefined && 'kind' in s

export interface AdmitResult extends Omit<DispatchResult, 'status'> {
  /**
   * The answer's Status when refused (`allowed: false`), whichever step refused: the one place for it.
   * `builtin.status` and `customResource.status` hold the same for their steps.
   */
  readonly status?: AnswerStatus
  /** The custom resource validation, when the object's kind is defined by a loaded CRD. */
  readonly customResource?: CustomResourceResult
  /** Set when the answer is 404 `no matches for kind`: why. */
  readonly noMatch?: NoMatch
  /** The name generated from metadata.generateName on CREATE (what the cluster would have stored). */
  readonly generatedName?: string
  /**
   * The decoding and defaulting of a built-in object (CREATE / UPDATE): when not allowed, the 400
   * BadRequest (`status`, `message`) and no policy ran; else `object` is the object as the policies
   * saw it (decoded, defaulted) and `warnings` the unknown fields under fieldValidation Warn.
   */
  readonly builtin?: BuiltinResult
  /**
   * Set when a MutatingAdmissionPolicy matched the request: the object after the mutating policies
   * (what schema validation and the validating policies saw), each invocation's change, and the RFC
   * 6902 patch from the object the mutating policies received (decoded and defaulted) to it.
   */
  readonly mutatedObject?: JSONObject
  readonly patch?: readonly PatchOperation[]
  readonly mutations?: readonly PolicyMutation[]
  /** The errors of the mutating policies that denied the request (the first one is `status.message`). */
  readonly mutationErrors?: readonly MutationError[]
}

export interface ValidateRequestOptions {
  readonly oldObject?: JSONObject
  readonly operation?: Operation
  readonly userInfo?: UserInfo
  /** The namespace of a namespaced object without metadata.namespace (kubectl's context: `default`). */
  readonly namespace?: string
  readonly subResource?: string
  readonly dryRun?: boolean
}

/** The user a request is attributed to when none is given (documented in docs/library.md). */
export const DEFAULT_USER: UserInfo = { username: 'kelp', groups: ['system:authenticated'] }

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const metaOf = (o: JSONObject): JSONObject => (isObject(o.metadata) ? o.metadata : {})

function gvkOf(o: JSONObject): GroupVersionKind {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const i = av.indexOf('/')
  return {
    group: i < 0 ? '' : av.slice(0, i),
    version: i < 0 ? av : av.slice(i + 1),
    kind: typeof o.kind === 'string' ? o.kind : '',
  }
}

/** The versions kelp reads policy material in (whether the target serves them: materialNotServed). */
const isAdmissionRegistration = (g: GroupVersionKind) =>
  g.group === 'admissionregistration.k8s.io' &&
  (g.version === 'v1' || g.version === 'v1beta1' || g.version === 'v1alpha1')

/** What a set is built from and never admits: policies, bindings, CRDs (the faces classify with this too). */
export type MaterialKind =
  | 'ValidatingAdmissionPolicy'
  | 'ValidatingAdmissionPolicyBinding'
  | 'MutatingAdmissionPolicy'
  | 'MutatingAdmissionPolicyBinding'
  | 'CustomResourceDefinition'

/**
 * Why a default kube-apiserver of `release` does not serve this policy material's apiVersion
 * (undefined: it does), from the API lifecycle table: ValidatingAdmissionPolicy v1alpha1 (1.26-1.31,
 * off by default), v1beta1 (1.28-1.33, off by default), v1 (1.30); MutatingAdmissionPolicy v1alpha1
 * (1.32, off by default), v1beta1 (1.34, off by default), v1 (1.36); CustomResourceDefinition v1beta1
 * (removed in 1.22). A cluster that does not serve the kind refuses the object (`no matches for kind …`):
 * it is no material, and no policy of it runs.
 */
export function materialNotServed(o: JSONObject, release: string): string | undefined {
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const kind = typeof o.kind === 'string' ? o.kind : ''
  let st: ReturnType<typeof apiVersionStatus>
  try {
    st = apiVersionStatus(apiVersion, kind, release)
  } catch {
    return undefined // a release outside the lifecycle table (the default environment serves all)
  }
  if (st.status === 'removed') return `${st.message} (removed in v${st.removedIn})`
  if (st.status === 'unknown' && st.message !== undefined)
    return `${st.message}${st.introducedIn ? ` (introduced in v${st.introducedIn})` : ''}`
  if (st.offByDefault !== undefined)
    return `${st.offByDefault.message} (not served by default: ${st.offByDefault.runtimeConfig})`
  return undefined
}

/**
 * Which inputs are the last write of their object: a cluster holds one object per group, kind,
 * namespace and name (the version is only how it is written: a v1 and a v1beta1 copy of a policy are
 * one policy), so `kubectl apply` of both leaves the later one. `false` at an index another input
 * replaces; objects without a name (generateName) are each their own.
 */
export function latestWrites(objects: readonly unknown[]): (number | true)[] {
  const last = new Map<string, number>()
  const out: (number | true)[] = new Array(objects.length).fill(true)
  objects.forEach((o, index) => {
    if (!isObject(o)) return
    const name = metaOf(o).name
    if (typeof name !== 'string' || name === '') return
    const g = gvkOf(o)
    const ns = metaOf(o).namespace
    const key = `${g.group}\u0000${g.kind}\u0000${typeof ns === 'string' ? ns : ''}\u0000${name}`
    const before = last.get(key)
    if (before !== undefined) out[before] = index
    last.set(key, index)
  })
  return out
}

export function materialKind(o: unknown): MaterialKind | undefined {
  if (!isObject(o)) return undefined
  const g = gvkOf(o)
  if (
    isAdmissionRegistration(g) &&
    (g.kind === 'ValidatingAdmissionPolicy' ||
      g.kind === 'ValidatingAdmissionPolicyBinding' ||
      g.kind === 'MutatingAdmissionPolicy' ||
      g.kind === 'MutatingAdmissionPolicyBinding')
  )
    return g.kind
  if (g.group === 'apiextensions.k8s.io' && g.kind === 'CustomResourceDefinition') return g.kind
  return undefined
}

/** The answer when decoding or the kind's own validation refuses a built-in object: no policy saw it. */
function builtinRefusal(builtin: BuiltinResult, ...extra: object[]): AdmitResult {
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

export class PolicySet {
  private constructor(
    private readonly hooks: readonly PolicyHook[],
    readonly crds: CustomResourceDefinitions,
    readonly mapper: RESTMapper,
    private readonly matcher: Matcher,
    private readonly namespaceObjects: ReadonlyMap<string, JSONObject>,
    private readonly options: PolicySetOptions,
    readonly problems: readonly Problem[],
    private readonly computeDiagnostics: () => Diagnostic[],
    /** `<kind>.<group>` of refused CRDs → the CRD's name. */
    private readonly refusedCRDs: ReadonlyMap<string, string>,
    /** The mutating admission policies with bindings, in the order they run. */
    private readonly mutatingHooks: readonly MutatingPolicyHook[] = [],
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
    const problems: Problem[] = []
    const policies: { index: number; obj: ValidatingAdmissionPolicy }[] = []
    const bindings: { index: number; obj: ValidatingAdmissionPolicyBinding }[] = []
    const crdObjects: { index: number; obj: JSONObject }[] = []
    const mutatingPolicies: { index: number; obj: MutatingAdmissionPolicy }[] = []
    const mutatingBindings: { index: number; obj: MutatingAdmissionPolicyBinding }[] = []
    const namespaces = new Map<string, JSONObject>()
    const others: JSONObject[] = []
    const release = options.release ?? version
    const latest = latestWrites(objects)
    objects.forEach((o, index) => {
      if (!isObject(o) || latest[index] !== true) return
      const material = materialKind(o)
      if (material !== undefined && options.materialVersions !== 'any') {
        const notServed = materialNotServed(o, release)
        if (notServed !== undefined) {
          problems.push({ index, kind: material, name: String(metaOf(o).name ?? ''), errors: [], message: notServed })
          return
        }
      }
      switch (material) {
        case 'ValidatingAdmissionPolicy':
          policies.push({ index, obj: o })
          return
        case 'ValidatingAdmissionPolicyBinding':
          bindings.push({ index, obj: o })
          return
        case 'CustomResourceDefinition':
          crdObjects.push({ index, obj: o })
          return
        case 'MutatingAdmissionPolicy':
          mutatingPolicies.push({ index, obj: o })
          return
        case 'MutatingAdmissionPolicyBinding':
          mutatingBindings.push({ index, obj: o })
          return
      }
      const g = gvkOf(o)
      if (g.group === '' && g.version === 'v1' && g.kind === 'Namespace') {
        const name = metaOf(o).name
        if (typeof name === 'string') namespaces.set(name, o)
      }
      others.push(o)
    })

    const crds = CustomResourceDefinitions.load(
      crdObjects.map((c) => c.obj),
      { version, ...(options.trusted === true ? { trusted: true } : {}) },
    )
    const refusedCRDs = new Map<string, string>()
    for (const p of crds.problems) {
      const spec = crdObjects[p.index]?.obj.spec as { group?: unknown; names?: { kind?: unknown } } | undefined
      refusedCRDs.set(`${String(spec?.names?.kind)}.${String(spec?.group)}`, p.name)
      problems.push({
        index: crdObjects[p.index]?.index ?? -1,
        kind: 'CustomResourceDefinition',
        name: p.name,
        errors: p.errors,
        message: p.status.message,
      })
    }
    const mapper = new RESTMapper({ release: options.release ?? version })
    for (const crd of crds) mapper.addCRD(crdMappingFromObject(crd.object as unknown as JSONObject))

    const reject = (index: number, kind: string, obj: { metadata?: { name?: string } }, errors: FieldError[]) => {
      const name = obj.metadata?.name ?? ''
      const status = newInvalid('admissionregistration.k8s.io', kind, name, errors)
      problems.push({ index, kind, name, errors, message: status.message })
    }
    const compile = policyCompileHook({ version })
    const trusted = (o: object) =>
      options.trusted === true || (typeof options.trusted === 'function' && options.trusted(o))
    const validPolicies = new Map<string, ValidatingAdmissionPolicy>()
    for (const { index, obj } of policies) {
      const p = applyValidatingAdmissionPolicyDefaults(obj)
      const errors = trusted(obj) ? [] : validateValidatingAdmissionPolicy(p, { compile })
      if (errors.length > 0) reject(index, 'ValidatingAdmissionPolicy', p, errors)
      else validPolicies.set(p.metadata?.name ?? '', p)
    }
    const bindingsByPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>()
    for (const { index, obj } of bindings) {
      const b = applyValidatingAdmissionPolicyBindingDefaults(obj)
      const errors = trusted(obj) ? [] : validateValidatingAdmissionPolicyBinding(b)
      if (errors.length > 0) {
        reject(index, 'ValidatingAdmissionPolicyBinding', b, errors)
        continue
      }
      const name = b.spec?.policyName ?? ''
      bindingsByPolicy.set(name, [...(bindingsByPolicy.get(name) ?? []), b])
    }

    // a policy without bindings does nothing; a binding without its policy is ignored (as in a cluster)
    const hooks: PolicyHook[] = []
    for (const [name, policy] of validPolicies) {
      const bs = bindingsByPolicy.get(name)
      if (bs === undefined) continue
      const validator = new PolicyValidator(policy, {
        version,
        ...(options.checkedCache !== undefined ? { checkedCache: options.checkedCache } : {}),
      })
      const pk = policy.spec?.paramKind
      let params: ParamSource | undefined
      let configurationError: string | undefined
      if (pk !== undefined && pk !== null) {
        const gvk = paramKindGVK(pk)
        const resource = mapper.resourcesForKind(gvk)[0]
        if (resource === undefined) {
          configurationError = `failed to find resource referenced by paramKind: '${gvk.group}/${gvk.version}, Kind=${gvk.kind}'`
        } else {
          params = {
            namespaced: resource.namespaced,
            objects: others.filter((o) => {
              const g = gvkOf(o)
              return g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind
            }),
          }
        }
      }
      hooks.push({
        policy,
        bindings: bs,
        validator,
        ...(params !== undefined ? { params } : {}),
        ...(configurationError !== undefined ? { configurationError } : {}),
      })
    }

    const mutatingHooks = buildMutatingHooks(mutatingPolicies, mutatingBindings, {
      version,
      trusted,
      compile,
      reject,
      mapper,
      others,
    })

    const computeDiagnostics = (): Diagnostic[] => {
      const diagnostics = materialDiagnostics(policies, bindings, validPolicies, bindingsByPolicy, hooks, problems)
      latest.forEach((by, index) => {
        const o = objects[index] as JSONObject
        if (by === true || materialKind(o) === undefined) return
        diagnostics.push({
          index,
          kind: String(o.kind),
          name: String(metaOf(o).name),
          level: 'warn',
          message: `replaced by a later ${String(o.kind)} "${String(metaOf(o).name)}" of the inputs (input ${by + 1}): a cluster holds one, the last applied`,
        })
      })
      // the built-in kinds' schemas of the target release (1.30 … 1.37; none before), the documents
      // given (`openapi`, which win for their group-versions) and the CRDs: as the apiserver's status
      // controller resolves them (DefinitionsSchemaResolver, then discovery)
      const release = options.release ?? version
      if (options.openapi === undefined && crds.size === 0 && !hasBuiltinSchemas(release)) return diagnostics
      let resolver: OpenAPISchemaResolver | undefined
      for (const { index, obj } of policies) {
        const policy = validPolicies.get(obj.metadata?.name ?? '')
        if (policy === undefined) continue
        // the policies a trusted predicate accepts (the bundled pack) are type checked by kelp's tests
        if (typeof options.trusted === 'function' && options.trusted(obj)) continue
        if (resolver === undefined) {
          resolver = new OpenAPISchemaResolver(options.openapi ?? [], { release })
          for (const crd of crds) resolver.addCRD(crd.object as unknown as JSONObject)
        }
        const r = resolver
        for (const w of typeCheck(policy, { schemas: (gvk) => r.schemaFor(gvk), mapper, version })) {
          diagnostics.push({
            index,
            kind: 'ValidatingAdmissionPolicy',
            name: policy.metadata?.name ?? '',
            level: 'warn',
            field: w.fieldRef,
            message: `type checking: ${w.fieldRef}: ${w.warning.trimEnd()}`,
          })
        }
      }
      return diagnostics
    }
    const strict = options.namespaces === 'strict'
    // every binding's namespaceSelector of a request asks for the same namespace: the last answer is kept
    // (the set's namespaces never change, and an assumed one is the same for a name)
    let last: { name: string; info: NamespaceInfo | undefined } | undefined
    const lookup = (name: string) => {
      if (last?.name === name) return last.info
      const ns = namespaces.get(name) ?? (strict ? undefined : assumedNamespace(name))
      last = { name, info: ns === undefined ? undefined : namespaceInfo(ns) }
      return last.info
    }
    return new PolicySet(
      hooks,
      crds,
      mapper,
      new Matcher(lookup),
      namespaces,
      options,
      problems,
      computeDiagnostics,
      refusedCRDs,
      mutatingHooks,
    )
  }

  /** The target release's minor (feature-gated defaults and validation), once. */
  private get minor(): number {
    this.minorCache ??= releaseMinor(this.options.release ?? this.options.version ?? DEFAULT_KUBE_VERSION)
    return this.minorCache
  }
  private minorCache: number | undefined

  /** What dispatch() needs of the set: the same for every request, built once. */
  private get dispatchContext(): Parameters<typeof dispatch>[2] {
    if (this.dispatchContextCache === undefined) {
      const strict = this.options.namespaces === 'strict'
      this.dispatchContextCache = {
        matcher: this.matcher,
        mapper: this.mapper,
        namespaceObject: (name) => this.namespaceObjects.get(name) ?? (strict ? undefined : assumedNamespace(name)),
        authorize: this.options.authorize ?? defaultAuthorize,
        convert: convertByApiVersion,
      }
    }
    return this.dispatchContextCache
  }
  private dispatchContextCache: Parameters<typeof dispatch>[2] | undefined

  /** Whether any CRD was loaded, accepted or refused (objects of a refused one get its NotFound). */
  private get hasCRDs(): boolean {
    return this.crds.size > 0 || this.crds.problems.length > 0
  }

  /** Every compiled policy's compile errors (reported by `problems` when validated; kept for trusted sets). */
  get policies(): readonly PolicyHook[] {
    return this.hooks
  }

  /**
   * Admission of one request: CRD validation for custom resources, then the policies. `mutating:
   * false` runs no MutatingAdmissionPolicy (a validating webhook judges the object as the apiserver
   * sends it, after its own mutating admission: mutating it again would judge what the cluster never stores).
   */
  admit(given: AdmissionAttributesInput, options: { readonly mutating?: boolean } = {}): AdmitResult {
    const a = withAttributeDefaults(given)
    const mutating = options.mutating !== false && this.mutatingHooks.length > 0
    // generic/plugin.go Dispatch: requests for excluded resources never reach the policies
    if (isExcludedResource(a.resource.group, a.resource.resource)) {
      return { allowed: true, warnings: [], auditAnnotations: {}, violations: [] }
    }
    let attrs = a
    // The store's Create names the object before the strategy's validation and validating admission
    // (registry/store.go create: SetName(GenerateName(...)) ahead of BeforeCreate and createValidation;
    // rest.AdmissionToValidateObjectFunc then takes the request's name from the object).
    let generatedName: string | undefined
    if (
      a.operation === 'CREATE' &&
      a.subResource === '' &&
      isObject(a.object) &&
      needsNameGeneration(a.object.metadata)
    ) {
      const metadata = a.object.metadata
      generatedName = (this.options.generateName ?? SimpleNameGenerator)(metadata.generateName, a.object)
      attrs = {
        ...a,
        name: a.name === '' ? generatedName : a.name,
        object: { ...a.object, metadata: { ...metadata, name: generatedName } },
      }
    }
    const named = generatedName === undefined ? {} : { generatedName }
    // The handler decodes the body into the kind's Go type and the codec defaults it before any
    // admission (endpoints/handlers create.go / update.go; the stored old object is defaulted too).
    let builtin: BuiltinResult | undefined
    let oldBuiltin: JSONObject | undefined
    if (
      this.options.builtins !== false &&
      (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
      a.subResource === '' &&
      isObject(attrs.object)
    ) {
      const minor = this.minor
      // the given-empty lists kept, as the strategy validates them (dropped below, before the policies)
      builtin = decodeBuiltin(attrs.object, { minor, keepEmpty: true })
      if (builtin !== undefined) {
        if (!builtin.allowed) return builtinRefusal(builtin, named)
        // the in-tree mutating admission plugins a default apiserver runs before the policies and the store
        if (a.operation === 'CREATE' && a.resource.group === '' && a.resource.resource === 'pods')
          admitServiceAccount(builtin.object as JSONObject, this.options.generateName)
        const old = isObject(a.oldObject) ? decodeBuiltin(a.oldObject, { minor, fieldValidation: 'Ignore' }) : undefined
        oldBuiltin = old?.object as JSONObject | undefined
        attrs =
          old?.object !== undefined
            ? Object.assign({}, attrs, { object: builtin.object as JSONObject, oldObject: old.object })
            : Object.assign({}, attrs, { object: builtin.object as JSONObject })
      }
    }
    // mutating admission runs in the handler (endpoints/handlers create.go / update.go, the admit
    // wrapper), before the store: the strategy validates the object the policies left
    let mutated: Pick<AdmitResult, 'mutatedObject' | 'patch' | 'mutations'> = {}
    // a custom resource is decoded (schema coercer: pruned; unstructuredDefaulter: defaulted) before any
    // admission: the mutating policies see it so; a body that does not decode never reaches them
    let crDecoded = true
    const requestObject = attrs.object
    if (mutating && this.hasCRDs && builtin === undefined && isObject(attrs.object)) {
      const d = this.decodeCustomResource(attrs.object)
      if (d === null) crDecoded = false
      else if (d !== undefined) attrs = { ...attrs, object: d }
    }
    if (mutating && crDecoded) {
      // the policies see the object as marshalled; one they leave alone is validated as decoded
      const seen = builtin?.keptEmpty === true ? { ...attrs, object: marshalled(attrs.object as JSONObject) } : attrs
      const m = this.mutate(a, seen, generatedName)
      if ('denied' in m)
        return { ...m.denied, ...named, ...(builtin !== undefined ? { builtin: marshalledResult(builtin) } : {}) }
      if (m.mutated.mutatedObject !== undefined) attrs = m.attrs
      mutated = m.mutated
      if (builtin !== undefined && mutated.mutatedObject !== undefined)
        builtin = { ...builtin, object: attrs.object as JSONObject }
    }
    if (builtin !== undefined) {
      // rest.BeforeCreate / BeforeUpdate: the strategy's PrepareForCreate / PrepareForUpdate drops the
      // fields whose feature gate is off (after mutating admission, before validation and the policies)
      dropDisabledFields(
        attrs.object as JSONObject,
        a.operation === 'UPDATE' ? oldBuiltin : undefined,
        defaultFeatureGates(this.minor),
      )
      // the strategy's validation runs inside the store, before validating admission: an object it
      // refuses is a 422 Invalid no validating policy sees
      builtin = this.validateBuiltin(builtin, attrs, oldBuiltin, this.minor)
      // marshalled for the validating policies and storage: the given-empty lists go (omitempty)
      if (builtin.keptEmpty === true) {
        marshalBuiltin(attrs.object as JSONObject)
        const { keptEmpty: _k, ...rest } = builtin
        builtin = rest
      }
      if (!builtin.allowed) return builtinRefusal(builtin, named, mutated)
    }
    // Object.assign, not spreads, on this path: on Node 20's V8 a spread followed by a new key costs
    // ~1 µs per object (docs/benchmarks.md, "Object spreads")
    const withBuiltin =
      builtin === undefined ? Object.assign({}, named, mutated) : Object.assign({ builtin }, named, mutated)
    let customResource: CustomResourceResult | undefined
    if (
      this.hasCRDs &&
      a.object !== undefined &&
      a.object !== null &&
      (a.operation === 'CREATE' || a.operation === 'UPDATE')
    ) {
      const crOptions: { -readonly [K in keyof ValidateOptions]: ValidateOptions[K] } = {}
      // the request's own unknown fields were decided when it was decoded; fields a policy added are
      // pruned without a word (the conversion after the mutating plugin coerces the object again)
      if (mutated.mutatedObject !== undefined) crOptions.fieldValidation = 'Ignore'
      if (this.options.generateName !== undefined) crOptions.generateName = this.options.generateName
      if (a.oldObject) crOptions.oldObject = a.oldObject
      if (a.namespace !== '') crOptions.namespace = a.namespace
      if (a.subResource === 'status') crOptions.subresource = 'status'
      customResource = this.crds.validate(mutated.mutatedObject !== undefined ? attrs.object : requestObject, crOptions)
      if (customResource !== undefined) {
        if (!customResource.allowed) {
          return {
            allowed: false,
            ...(customResource.status !== undefined ? { status: customResource.status } : {}),
            warnings: customResource.warnings,
            auditAnnotations: {},
            violations: [],
            customResource,
            ...(customResource.status?.code === 404 ? { noMatch: this.noMatch(a.kind) } : {}),
            ...named,
          }
        }
        attrs = { ...attrs, object: customResource.object as JSONObject }
      }
    }
    const result = dispatch(attrs, this.hooks, this.dispatchContext)
    if (customResource === undefined) {
      if (builtin === undefined)
        return generatedName === undefined && mutated.mutatedObject === undefined
          ? result
          : Object.assign({}, result, named, mutated)
      const warnings = builtin.warnings.length > 0 ? [...builtin.warnings, ...result.warnings] : result.warnings
      return Object.assign({}, result, { warnings }, withBuiltin)
    }
    return {
      ...result,
      warnings: [...customResource.warnings, ...result.warnings],
      customResource,
      ...named,
      ...mutated,
    }
  }

  /**
   * The custom resource as the CRD handler decodes it (pruned, defaulted), undefined when no loaded CRD
   * serves its kind and version, null when it does not decode (a 400 before admission; strict unknown
   * fields included: kubectl's Strict is kelp's default).
   */
  private decodeCustomResource(object: JSONObject): JSONObject | null | undefined {
    const crd = this.crds.forObject(object)
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

  /**
   * Mutating admission (the handler runs it before the store's Create names the object, so the
   * policies see the request without the generated name): the mutated object, or the denial.
   */
  private mutate(
    a: AdmissionAttributes,
    attrs: AdmissionAttributes,
    generatedName: string | undefined,
  ):
    | { attrs: AdmissionAttributes; mutated: Pick<AdmitResult, 'mutatedObject' | 'patch' | 'mutations'> }
    | { denied: AdmitResult } {
    const strict = this.options.namespaces === 'strict'
    const release = this.options.release ?? this.options.version ?? DEFAULT_KUBE_VERSION
    const minor = releaseMinor(release)
    const unnamed = (o: JSONObject | null | undefined): JSONObject | null | undefined => {
      if (generatedName === undefined || !isObject(o)) return o
      const { name: _name, ...metadata } = metaOf(o)
      return { ...o, metadata }
    }
    const input: AdmissionAttributes = { ...attrs, name: a.name, object: unnamed(attrs.object) }
    const ctx: MutatingDispatchContext = {
      matcher: this.matcher,
      mapper: this.mapper,
      namespaceObject: (name) => this.namespaceObjects.get(name) ?? (strict ? undefined : assumedNamespace(name)),
      authorize: this.options.authorize ?? defaultAuthorize,
      convert: convertByApiVersion,
      schemaFor: (kind) => {
        const crd = this.crds.get(kind.group, kind.kind)
        if (crd !== undefined) {
          const s = crd.versions.get(kind.version)?.schema as JSONSchemaProps | undefined
          return s === undefined ? undefined : (customResourceTypeSchema(s, release) as never)
        }
        return hasBuiltinSchemas(release) ? (resolvedSchemaFor(release, kind) as never) : undefined
      },
      ...(this.options.builtins !== false
        ? {
            normalize: (o: JSONObject) => {
              const r = decodeBuiltin(o, { minor })
              if (r === undefined || r.object === undefined)
                // the mutating plugin decodes the patched object itself (the strict converter):
                // its error is the decoder's, without the request decoding's prefix
                return r?.allowed === false ? { error: r.decodeError ?? r.message ?? '' } : { object: o }
              return { object: r.object }
            },
          }
        : {}),
    }
    const m = dispatchMutating(input, this.mutatingHooks, ctx)
    if (!m.allowed)
      return {
        denied: {
          allowed: false,
          warnings: [],
          auditAnnotations: {},
          violations: [],
          ...(m.status !== undefined ? { status: m.status } : {}),
          mutations: m.mutations,
          mutationErrors: m.errors,
        },
      }
    if (m.mutations.length === 0 || !isObject(m.object)) return { attrs, mutated: {} }
    const mutatedObject = m.object
    const named =
      generatedName === undefined
        ? mutatedObject
        : { ...mutatedObject, metadata: { ...metaOf(mutatedObject), name: generatedName } }
    return {
      attrs: { ...attrs, object: named },
      mutated: { mutatedObject, patch: jsonDiff(input.object, mutatedObject), mutations: m.mutations },
    }
  }

  /** The native validation of a decoded built-in (src/builtin/validation): errors as a 422 Invalid. */
  private validateBuiltin(
    b: BuiltinResult,
    a: AdmissionAttributes,
    oldObject: JSONObject | undefined,
    minor: number,
  ): BuiltinResult {
    const object = b.object as JSONObject
    const kind = gvkOf(object)
    const namespaced = this.mapper.resourcesForKind(kind)[0]?.namespaced ?? a.namespace !== ''
    // literals, not spreads: on Node 20's V8 a spread followed by a new key costs ~1 µs (docs/benchmarks.md)
    const v = validateBuiltin(object, {
      group: kind.group,
      version: kind.version,
      kind: kind.kind,
      namespaced,
      namespace: namespaced ? a.namespace : '',
      minor,
      oldObject: a.operation === 'UPDATE' ? oldObject : undefined,
    })
    const nativeValidation = v.covered ? ('validated' as const) : ('not-covered' as const)
    if (v.errors.length === 0) return Object.assign({}, b, { nativeValidation })
    const errors = withReleaseValues(v.errors, minor)
    const m = isObject(object.metadata) ? object.metadata : {}
    const status = newInvalid(kind.group, kind.kind, typeof m.name === 'string' ? m.name : '', errors)
    return {
      ...b,
      allowed: false,
      errors,
      status,
      message: kubectlInvalidText(status).trimEnd(),
      nativeValidation,
    }
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
    const resource = this.mapper.resourcesForKind(kind)[0]
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
      userInfo: options.userInfo ?? DEFAULT_USER,
      dryRun: options.dryRun ?? false,
    }
  }

  /** Convenience: builds the request for `object` and admits it. */
  validate(object: JSONObject, options: ValidateRequestOptions = {}): AdmitResult {
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

const crTypeSchemas = new WeakMap<object, Map<string, JSONSchemaProps>>()

/**
 * The type converter's schema of a custom resource (apiextensions-apiserver builder.BuildOpenAPIV3, which
 * the CRD handler's TypeConverter reads): the structural schema with apiVersion and kind strings and
 * metadata the ObjectMeta of the built-in schemas (granular labels and annotations, finalizers a set,
 * ownerReferences a map keyed by uid); without built-in schemas, metadata is a granular untyped map.
 */
function customResourceTypeSchema(s: JSONSchemaProps, release: string): JSONSchemaProps {
  let byRelease = crTypeSchemas.get(s)
  if (byRelease === undefined) crTypeSchemas.set(s, (byRelease = new Map()))
  const hit = byRelease.get(release)
  if (hit !== undefined) return hit
  const objectMeta = hasBuiltinSchemas(release)
    ? resolvedSchemaFor(release, { group: '', version: 'v1', kind: 'ConfigMap' })?.properties?.metadata
    : undefined
  const out: JSONSchemaProps = {
    ...s,
    properties: {
      ...(s.properties ?? {}),
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: objectMeta ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  }
  byRelease.set(release, out)
  return out
}

/** `1.37` → 37 (the target release's minor, for feature-gated defaults). */
function releaseMinor(release: string): number {
  const m = /^v?1\.(\d+)/.exec(release)
  return m ? Number(m[1]) : 37
}

/**
 * Resources no ValidatingAdmissionPolicy sees (apiserver pkg/admission/plugin/policy/generic/plugin.go
 * Dispatch): the admission policy resources themselves (`admissionResources`, excluded from API-based
 * policies to avoid circular dependencies) and the non-persisted review resources kube-apiserver
 * passes to SetExcludedAdmissionResources (kubernetes pkg/kubeapiserver/admission/exclusion/resources.go).
 */
const EXCLUDED_RESOURCES = new Set([
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'admissionregistration.k8s.io/mutatingadmissionpolicies',
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
  'authentication.k8s.io/selfsubjectreviews',
  'authentication.k8s.io/tokenreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authorization.k8s.io/subjectaccessreviews',
])

const EXCLUDED_GROUPS = new Set([...EXCLUDED_RESOURCES].map((r) => r.slice(0, r.indexOf('/'))))

// the group first: most requests are of other groups, and then no key string is built
const isExcludedResource = (group: string, resource: string) =>
  EXCLUDED_GROUPS.has(group) && EXCLUDED_RESOURCES.has(`${group}/${resource}`)

const assumed = new Map<string, JSONObject>()

/** What the namespaceSelector reads of a Namespace object, one per object (the objects are not changed). */
const namespaceInfos = new WeakMap<JSONObject, NamespaceInfo>()
function namespaceInfo(ns: JSONObject): NamespaceInfo {
  let info = namespaceInfos.get(ns)
  if (info === undefined)
    namespaceInfos.set(ns, (info = { labels: (metaOf(ns).labels ?? {}) as Record<string, string> }))
  return info
}

/** Bindings without policies, policies without bindings, params that are not there. */
function materialDiagnostics(
  policies: readonly { index: number; obj: ValidatingAdmissionPolicy }[],
  bindings: readonly { index: number; obj: ValidatingAdmissionPolicyBinding }[],
  valid: ReadonlyMap<string, ValidatingAdmissionPolicy>,
  bindingsByPolicy: ReadonlyMap<string, readonly ValidatingAdmissionPolicyBinding[]>,
  hooks: readonly PolicyHook[],
  problems: readonly Problem[],
): Diagnostic[] {
  const out: Diagnostic[] = []
  const refused = new Set(problems.filter((p) => p.kind === 'ValidatingAdmissionPolicy').map((p) => p.name))
  const named = new Set(policies.map((p) => p.obj.metadata?.name ?? ''))
  for (const { index, obj } of bindings) {
    const name = obj.metadata?.name ?? ''
    const policy = obj.spec?.policyName ?? ''
    if (refused.has(policy)) {
      out.push({
        index,
        kind: 'ValidatingAdmissionPolicyBinding',
        name,
        level: 'warn',
        message: `binds ValidatingAdmissionPolicy "${policy}", which the apiserver would refuse: the binding does nothing`,
      })
    } else if (!named.has(policy)) {
      out.push({
        index,
        kind: 'ValidatingAdmissionPolicyBinding',
        name,
        level: 'warn',
        message: `binds ValidatingAdmissionPolicy "${policy}", which is not among the inputs: the binding does nothing`,
      })
    }
    const hook = hooks.find((h) => h.policy.metadata?.name === policy)
    const ref = obj.spec?.paramRef
    if (hook?.params !== undefined && ref?.name) {
      const found = hook.params.objects.some((o) => (o.metadata as JSONObject | undefined)?.name === ref.name)
      if (!found) {
        const action =
          ref.parameterNotFoundAction === 'Deny' ? 'every request it matches is denied' : 'it evaluates nothing'
        out.push({
          index,
          kind: 'ValidatingAdmissionPolicyBinding',
          name,
          level: 'warn',
          message: `paramRef.name "${ref.name}": no such ${hook.policy.spec?.paramKind?.kind ?? 'param'} among the inputs, so ${action} (parameterNotFoundAction ${ref.parameterNotFoundAction ?? 'unset'})`,
        })
      }
    }
  }
  for (const { index, obj } of policies) {
    const name = obj.metadata?.name ?? ''
    if (!valid.has(name)) continue
    if (!bindingsByPolicy.has(name)) {
      out.push({
        index,
        kind: 'ValidatingAdmissionPolicy',
        name,
        level: 'info',
        message: 'no binding among the inputs: the policy is never evaluated',
      })
    }
    const hook = hooks.find((h) => h.policy === valid.get(name))
    if (hook?.configurationError !== undefined) {
      out.push({
        index,
        kind: 'ValidatingAdmissionPolicy',
        name,
        level: 'warn',
        message: `${hook.configurationError}: every request it matches fails under failurePolicy ${obj.spec?.failurePolicy ?? 'Fail'}`,
        field: 'spec.paramKind',
      })
    }
  }
  return out
}

/** A namespace not given: existing, with the label the apiserver puts on every namespace (one object per name). */
function assumedNamespace(name: string): JSONObject {
  let ns = assumed.get(name)
  if (ns === undefined) {
    if (assumed.size > 10_000) assumed.clear()
    assumed.set(name, (ns = assumedNamespaceObject(name)))
  }
  return ns
}

function assumedNamespaceObject(name: string): JSONObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
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

export type { PolicyViolation }
export { errorString }

/**
 * The MutatingAdmissionPolicies and their bindings: defaulted, validated (refused ones through
 * `reject`, as for ValidatingAdmissionPolicies), compiled, with their params. Policies run in name
 * order and each policy's bindings in name order (the apiserver's order is its informers' listing,
 * which no manifest can fix; names are what a reader can predict).
 */
function buildMutatingHooks(
  policies: readonly { index: number; obj: MutatingAdmissionPolicy }[],
  bindings: readonly { index: number; obj: MutatingAdmissionPolicyBinding }[],
  ctx: {
    version: KubeVersion
    trusted: (o: object) => boolean
    compile: ReturnType<typeof policyCompileHook>
    reject: (index: number, kind: string, obj: { metadata?: { name?: string } }, errors: FieldError[]) => void
    mapper: RESTMapper
    others: readonly JSONObject[]
  },
): MutatingPolicyHook[] {
  const valid = new Map<string, MutatingAdmissionPolicy>()
  for (const { index, obj } of policies) {
    const p = applyMutatingAdmissionPolicyDefaults(obj)
    const errors = ctx.trusted(obj) ? [] : validateMutatingAdmissionPolicy(p, { compile: ctx.compile })
    if (errors.length > 0) ctx.reject(index, 'MutatingAdmissionPolicy', p, errors)
    else valid.set(p.metadata?.name ?? '', p)
  }
  const byPolicy = new Map<string, MutatingAdmissionPolicyBinding[]>()
  for (const { index, obj } of bindings) {
    const b = applyMutatingAdmissionPolicyBindingDefaults(obj)
    const errors = ctx.trusted(obj) ? [] : validateMutatingAdmissionPolicyBinding(b)
    if (errors.length > 0) {
      ctx.reject(index, 'MutatingAdmissionPolicyBinding', b, errors)
      continue
    }
    const name = b.spec?.policyName ?? ''
    byPolicy.set(name, [...(byPolicy.get(name) ?? []), b])
  }
  const byName = (x: { metadata?: { name?: string } }, y: { metadata?: { name?: string } }) => {
    const a = x.metadata?.name ?? ''
    const b = y.metadata?.name ?? ''
    return a < b ? -1 : a > b ? 1 : 0
  }
  const hooks: MutatingPolicyHook[] = []
  for (const policy of [...valid.values()].sort(byName)) {
    const bs = byPolicy.get(policy.metadata?.name ?? '')
    if (bs === undefined) continue
    const pk = policy.spec?.paramKind
    let params: ParamSource | undefined
    let configurationError: string | undefined
    if (pk !== undefined && pk !== null) {
      const gvk = paramKindGVK(pk)
      const resource = ctx.mapper.resourcesForKind(gvk)[0]
      if (resource === undefined)
        configurationError = `failed to find resource referenced by paramKind: '${gvk.group}/${gvk.version}, Kind=${gvk.kind}'`
      else
        params = {
          namespaced: resource.namespaced,
          objects: ctx.others.filter((o) => {
            const g = gvkOf(o)
            return g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind
          }),
        }
    }
    hooks.push({
      policy,
      bindings: [...bs].sort(byName),
      mutator: new PolicyMutator(policy, { version: ctx.version }),
      ...(params !== undefined ? { params } : {}),
      ...(configurationError !== undefined ? { configurationError } : {}),
    })
  }
  return hooks
}

/** A copy of a built-in decoded with keepEmpty, as Go marshals it. */
function marshalled(o: JSONObject): JSONObject {
  const c = structuredClone(o)
  marshalBuiltin(c)
  return c
}

/** A built-in result whose object is marshalled. */
function marshalledResult(b: BuiltinResult): BuiltinResult {
  if (b.keptEmpty !== true || b.object === undefined) return b
  const { keptEmpty: _k, ...rest } = b
  return { ...rest, object: marshalled(b.object) }
}
