// Diagnostics of a policy set: what is legal but likely a mistake in its material (bindings of nothing,
// policies never bound, params that are not there, writes a later input replaces), and the type checking
// the apiserver's status controller reports in a ValidatingAdmissionPolicy's status.typeChecking.
// Never an error: the set works as a cluster would. Computed on first use (admission does not need it).

import type { CustomResourceDefinitions } from '../crd/registry.js'
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../kube/admissionregistration/types.js'
import { hasBuiltinSchemas } from '../kube/builtin-schemas/index.js'
import type { KubeVersion } from '../kube/environment.js'
import { OpenAPISchemaResolver } from '../kube/openapi.js'
import type { RESTMapper } from '../kube/resources.js'
import type { JSONObject } from '../kube/values/json.js'
import type { PolicyHook } from '../policy/validating/dispatcher.js'
import { type TypeCheckWarning, typeCheck } from '../policy/validating/typechecking.js'
import type { AdmittedMaterial } from './hooks.js'
import { type Indexed, type Material, materialKind, type Problem } from './material.js'
import { metaOf } from './objects.js'
import type { PolicySetOptions } from './options.js'

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

/** Bindings without policies, policies without bindings, params that are not there. */
export function materialDiagnostics(
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

/** What the diagnostics of a set read: its inputs as classified and built. */
export interface DiagnosticsInput {
  readonly objects: readonly unknown[]
  readonly material: Material
  readonly validating: AdmittedMaterial<ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding>
  readonly hooks: readonly PolicyHook[]
  readonly problems: readonly Problem[]
  readonly crds: CustomResourceDefinitions
  readonly mapper: RESTMapper
  readonly options: PolicySetOptions
  readonly version: KubeVersion
}

/** Every diagnostic of a set: its material's, the replaced writes', then type checking's. */
export function diagnose(d: DiagnosticsInput): Diagnostic[] {
  const { objects, material } = d
  const diagnostics = materialDiagnostics(
    material.policies,
    material.bindings,
    d.validating.valid,
    d.validating.bindingsByPolicy,
    d.hooks,
    d.problems,
  )
  material.latest.forEach((by, index) => {
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
  for (const t of typeCheckDiagnostics(material.policies, d)) diagnostics.push(t)
  return diagnostics
}

/**
 * Type checking's warnings by what decides them (the release, the environment, the CRDs, the policy): a set built
 * again from mostly unchanged material (the playground's keystrokes, kelp serve's reloads) checks again only the
 * policies that changed. The most recent TYPE_CHECK_MEMO entries are kept.
 */
const TYPE_CHECK_MEMO = 256
const typeCheckMemo = new Map<string, readonly TypeCheckWarning[]>()
/** The schema resolvers by release, environment and CRDs (the same key's first part), the most recent RESOLVERS. */
const RESOLVERS = 8
const resolvers = new Map<string, OpenAPISchemaResolver>()
function remember(key: string, warnings: readonly TypeCheckWarning[]): void {
  typeCheckMemo.set(key, warnings)
  if (typeCheckMemo.size > TYPE_CHECK_MEMO) typeCheckMemo.delete(typeCheckMemo.keys().next().value as string)
}

/**
 * status.typeChecking of each valid policy (the validating policy's status controller): against the
 * built-in kinds' schemas of the target release (1.30 … 1.37; none before), the documents given (`openapi`,
 * which win for their group-versions) and the CRDs, as the controller resolves them (DefinitionsSchemaResolver,
 * then discovery).
 */
function typeCheckDiagnostics(
  policies: readonly Indexed<ValidatingAdmissionPolicy>[],
  d: DiagnosticsInput,
): Diagnostic[] {
  const { options, crds, version } = d
  const out: Diagnostic[] = []
  const release = options.release ?? version
  if (options.openapi === undefined && crds.size === 0 && !hasBuiltinSchemas(release)) return out
  let resolver: OpenAPISchemaResolver | undefined
  // what decides a policy's warnings besides itself: the release, the environment, the CRDs (their kinds and schemas)
  let context: string | undefined
  for (const { index, obj } of policies) {
    const policy = d.validating.valid.get(obj.metadata?.name ?? '')
    if (policy === undefined) continue
    // the policies a trusted predicate accepts (the bundled pack) are type checked by kelp's tests
    if (typeof options.trusted === 'function' && options.trusted(obj)) continue
    context ??= `${version} ${release} ${crds.size === 0 ? '' : JSON.stringify([...crds].map((c) => c.object))}`
    if (resolver === undefined) {
      // the resolver of the same release and CRDs is kept too (it keeps the schemas it resolved); documents given
      // are objects, not text: neither is kept then
      resolver = options.openapi === undefined ? resolvers.get(context) : undefined
      if (resolver === undefined) {
        resolver = new OpenAPISchemaResolver(options.openapi ?? [], { release })
        for (const crd of crds) resolver.addCRD(crd.object as unknown as JSONObject)
        if (options.openapi === undefined) {
          resolvers.set(context, resolver)
          if (resolvers.size > RESOLVERS) resolvers.delete(resolvers.keys().next().value as string)
        }
      }
    }
    const r = resolver
    const key = options.openapi === undefined ? `${context} ${JSON.stringify(policy)}` : undefined
    let warnings = key === undefined ? undefined : typeCheckMemo.get(key)
    if (warnings === undefined) {
      warnings = typeCheck(policy, { schemas: (gvk) => r.schemaFor(gvk), mapper: d.mapper, version })
      if (key !== undefined) remember(key, warnings)
    }
    for (const w of warnings) {
      out.push({
        index,
        kind: 'ValidatingAdmissionPolicy',
        name: policy.metadata?.name ?? '',
        level: 'warn',
        field: w.fieldRef,
        message: `type checking: ${w.fieldRef}: ${w.warning.trimEnd()}`,
      })
    }
  }
  return out
}
