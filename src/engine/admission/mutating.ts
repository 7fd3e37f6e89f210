// Stage 5: mutating admission (MutatingAdmissionPolicies).

import { decodeBuiltin } from '../../builtin/index.js'
import type { CustomResourceDefinitions } from '../../crd/registry.js'
import { hasBuiltinSchemas, resolvedSchemaFor } from '../../kube/builtin-schemas/index.js'
import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes } from '../../policy/attributes.js'
import type { DispatchContext } from '../../policy/generic/hooks.js'
import { jsonDiff } from '../../policy/mutating/diff.js'
import { dispatchMutating, type MutatingDispatchContext } from '../../policy/mutating/dispatcher.js'
import type { AdmitResult } from '../answer.js'
import { metaOf } from '../objects.js'
import { marshalled, marshalledResult } from './answers.js'
import type { AdmissionContext, AdmissionState, Mutated } from './state.js'

/**
 * Mutating admission runs in the handler (endpoints/handlers create.go / update.go, the admit wrapper),
 * after decoding and before the store: the strategy validates the object the policies left. The policies
 * see the object as marshalled (a built-in's given-empty lists gone); one they leave alone is validated as
 * decoded. A custom resource whose body did not decode never reaches them.
 */
export function mutatingAdmission(ctx: AdmissionContext, s: AdmissionState): AdmitResult | undefined {
  if (!s.mutating || !s.crDecoded) return undefined
  const builtin = s.builtin
  const seen = builtin?.keptEmpty === true ? { ...s.attrs, object: marshalled(s.attrs.object as JSONObject) } : s.attrs
  const m = mutate(ctx, s.request, seen, s.generatedName)
  if ('denied' in m)
    return { ...m.denied, ...s.named, ...(builtin !== undefined ? { builtin: marshalledResult(builtin) } : {}) }
  if (m.mutated.mutatedObject !== undefined) s.attrs = m.attrs
  s.mutated = m.mutated
  if (builtin !== undefined && m.mutated.mutatedObject !== undefined)
    s.builtin = { ...builtin, object: s.attrs.object as JSONObject }
  return undefined
}

/**
 * The policies' run (the handler runs them before the store's Create names the object, so they see the
 * request without the generated name): the mutated object, or the denial.
 */
function mutate(
  ctx: AdmissionContext,
  a: AdmissionAttributes,
  attrs: AdmissionAttributes,
  generatedName: string | undefined,
): { attrs: AdmissionAttributes; mutated: Mutated } | { denied: AdmitResult } {
  const unnamed = (o: JSONObject | null | undefined): JSONObject | null | undefined => {
    if (generatedName === undefined || !isObject(o)) return o
    const { name: _name, ...metadata } = metaOf(o)
    return { ...o, metadata }
  }
  const input: AdmissionAttributes = { ...attrs, name: a.name, object: unnamed(attrs.object) }
  const m = dispatchMutating(input, ctx.mutatingHooks, ctx.mutatingDispatch)
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

/**
 * What dispatchMutating needs of the set, built once per set: the validating dispatch's matching, plus the
 * type converter's schemas (built-in schemas, CRDs) and the decoding of the object after each mutation.
 */
export function mutatingDispatchContext(
  base: DispatchContext,
  crds: CustomResourceDefinitions,
  release: string,
  minor: number,
  builtins: boolean,
): MutatingDispatchContext {
  // a literal of one shape (no spreads): read on every request
  const ctx: { -readonly [K in keyof MutatingDispatchContext]: MutatingDispatchContext[K] } = {
    matcher: base.matcher,
    mapper: base.mapper,
    namespaceObject: base.namespaceObject,
    authorize: base.authorize,
    convert: base.convert,
    schemaFor: (kind) => {
      const crd = crds.get(kind.group, kind.kind)
      if (crd !== undefined) {
        const s = crd.versions.get(kind.version)?.schema as JSONSchemaProps | undefined
        return s === undefined ? undefined : (customResourceTypeSchema(s, release) as never)
      }
      return hasBuiltinSchemas(release) ? (resolvedSchemaFor(release, kind) as never) : undefined
    },
  }
  if (builtins)
    ctx.normalize = (o: JSONObject) => {
      const r = decodeBuiltin(o, { minor })
      if (r === undefined || r.object === undefined)
        // the mutating plugin decodes the patched object itself (the strict converter):
        // its error is the decoder's, without the request decoding's prefix
        return r?.allowed === false ? { error: r.decodeError ?? r.message ?? '' } : { object: o }
      return { object: r.object }
    }
  return ctx
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
