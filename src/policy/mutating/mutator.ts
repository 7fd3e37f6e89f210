import { BoolType, listOf } from '../../cel/types/types.js'
import { compareStrings } from '../../cel/values/strings.js'
import type { MutatingAdmissionPolicy } from '../../kube/admissionregistration/types.js'
import type { Authorize } from '../../kube/authz/authorizer.js'
import { RuntimeCELCostBudget, RuntimeCELCostBudgetMatchConditions } from '../../kube/environment.js'
import { setOwn } from '../../kube/own-keys.js'
import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes, GroupVersionResource } from '../attributes.js'
import { type CompilationResult, type CompilerOptions, CompositedCompiler } from '../cel/compile.js'
import { type ActivationInput, forInput } from '../cel/condition.js'
import {
  checkTypeNamesMatchFieldPathNames,
  JSONPatchType,
  mutationTypeName,
  ObjectType,
} from '../cel/mutation-types.js'
import { createAdmissionRequest, createNamespaceObject } from '../cel/request.js'
import { type FailurePolicy, type MatchResult, matchResult } from '../generic/matchconditions.js'
import { applyPatch, celToJSON, type JSONValue, PatchError, type PatchOperation } from './jsonpatch.js'
import { applyConfiguration, SmdError, Unconverted } from './smd.js'

// A MutatingAdmissionPolicy compiled once (mutating/compilation.go compilePolicy): variables,
// matchConditions, one patcher per mutation (JSONPatch: patch/json_patch.go; ApplyConfiguration:
// patch/smd.go), each evaluated with its own RuntimeCELCostBudget on the object as the mutations
// before it left it.

/** One evaluation's inputs (per invocation: binding and param). */
export interface MutateInput {
  readonly matchedResource: GroupVersionResource
  /** The request with `object` the object as mutated so far (in the matched version). */
  readonly attributes: AdmissionAttributes
  readonly params: unknown
  readonly namespace?: JSONObject
  readonly authorize: Authorize
  /** The schema ApplyConfiguration types its patch with (the type converter of the kind). */
  readonly schema?: JSONSchemaProps
}

/** A mutation's outcome: the new object, or the error the policy reports (under its failurePolicy). */
export type MutateOutcome = { readonly object: JSONObject } | { readonly error: string }

interface CompiledMutation {
  readonly patchType: 'JSONPatch' | 'ApplyConfiguration'
  readonly result: CompilationResult
}

interface Compiled {
  readonly variables: ReadonlyMap<string, CompilationResult>
  readonly matchConditions: readonly CompilationResult[]
  readonly matchConditionNames: readonly string[]
  readonly mutations: readonly (CompiledMutation | undefined)[]
}

export class PolicyMutator {
  readonly failurePolicy: FailurePolicy
  private compiled: Compiled | undefined

  constructor(
    readonly policy: MutatingAdmissionPolicy,
    private readonly options: CompilerOptions = {},
  ) {
    this.failurePolicy = policy.spec?.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail'
  }

  private get c(): Compiled {
    if (this.compiled === undefined) {
      const spec = this.policy.spec ?? {}
      const decls = { hasParams: spec.paramKind !== undefined && spec.paramKind !== null, hasAuthorizer: true }
      const compiler = new CompositedCompiler(this.options)
      compiler.compileAndStoreVariables(
        (spec.variables ?? []).map((v) => ({ name: v.name ?? '', expression: v.expression ?? '' })),
        decls,
      )
      const conditions = spec.matchConditions ?? []
      const patchDecls = { ...decls, hasPatchTypes: true }
      this.compiled = {
        variables: compiler.variables,
        matchConditions: conditions.map((c) => compiler.compile(c.expression ?? '', [BoolType], decls)),
        matchConditionNames: conditions.map((c) => c.name ?? ''),
        mutations: (spec.mutations ?? []).map((m): CompiledMutation | undefined => {
          if (m.patchType === 'JSONPatch' && m.jsonPatch)
            return {
              patchType: 'JSONPatch',
              result: compiler.compile(m.jsonPatch.expression ?? '', [listOf(JSONPatchType)], patchDecls),
            }
          if (m.patchType === 'ApplyConfiguration' && m.applyConfiguration)
            return {
              patchType: 'ApplyConfiguration',
              result: compiler.compile(m.applyConfiguration.expression ?? '', [ObjectType], patchDecls),
            }
          return undefined
        }),
      }
    }
    return this.compiled
  }

  /** The number of mutations (the dispatcher loops over them). */
  get mutationCount(): number {
    return (this.policy.spec?.mutations ?? []).length
  }

  /** Whether the mutation at `index` is an ApplyConfiguration (it needs the kind's schema). */
  needsSchema(index: number): boolean {
    return this.c.mutations[index]?.patchType === 'ApplyConfiguration'
  }

  private activation(input: MutateInput, withNamespace: boolean): ActivationInput {
    const a = input.attributes
    return {
      attributes: a,
      request: withNamespace
        ? createAdmissionRequest(a, input.matchedResource, a.kind)
        : createAdmissionRequest(a, a.resource, a.kind),
      namespace: withNamespace ? createNamespaceObject(input.namespace) : null,
      bindings: { params: input.params, authorize: input.authorize },
      variables: this.c.variables,
    }
  }

  /** matchconditions.Matcher.Match (no match conditions: matches). */
  match(input: MutateInput): MatchResult {
    if (this.c.matchConditions.length === 0) return { matches: true }
    const out = forInput(this.c.matchConditions, this.activation(input, false), RuntimeCELCostBudgetMatchConditions)
    return matchResult(out, this.c.matchConditionNames, this.failurePolicy)
  }

  /** Patcher.Patch of mutation `index` on `input.attributes.object`. */
  mutate(index: number, input: MutateInput): MutateOutcome {
    const m = this.c.mutations[index]
    const object = input.attributes.object as JSONObject
    if (m === undefined) return { object }
    if (m.result.error !== undefined) return { error: m.result.error.detail }
    const out = forInput([m.result], this.activation(input, true), RuntimeCELCostBudget)
    if ('batchError' in out) return { error: out.batchError }
    const r = out.results[0]
    if (r === undefined) return { object }
    if (r.error !== undefined) return { error: r.error }
    return m.patchType === 'JSONPatch' ? jsonPatch(r.value, object) : apply(r.value, object, input.schema, input)
  }
}

/** json_patch.go: the JSONPatch values as RFC 6902 operations, applied; a failed `test` leaves the object. */
function jsonPatch(value: unknown, object: JSONObject): MutateOutcome {
  if (!Array.isArray(value)) return { error: 'type mismatch: JSONPatchType.expression should evaluate to array' }
  const ops: PatchOperation[] = []
  for (const v of value as unknown[]) {
    if (mutationTypeName(v) !== 'JSONPatch')
      return { error: 'type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch' }
    const p = v as { op?: string; path?: string; from?: string; value?: unknown }
    if (p.value !== undefined && mutationTypeName(p.value) !== undefined) {
      const mismatch = checkTypeNamesMatchFieldPathNames(p.value)
      if (mismatch !== undefined) return { error: `type mismatch: ${mismatch}` }
    }
    let jv: JSONValue | undefined
    if (p.value !== undefined) {
      try {
        jv = celToJSON(p.value as never)
      } catch (e) {
        return {
          error: `JSONPath valueExpression evaluated to a type that could not marshal to JSON: ${(e as Error).message}`,
        }
      }
    }
    ops.push({
      op: p.op ?? '',
      path: p.path ?? '',
      ...(p.from ? { from: p.from } : {}),
      ...(jv !== undefined ? { value: jv } : {}),
    })
  }
  try {
    return { object: applyPatch(object as JSONValue, ops) as JSONObject }
  } catch (e) {
    if (e instanceof PatchError) {
      if (e.testFailed) return { object }
      return { error: `JSON Patch: ${e.message}` }
    }
    throw e
  }
}

/** smd.go applyConfigPatcher: the Object value type checked by field path, merged by the schema. */
function apply(
  value: unknown,
  object: JSONObject,
  schema: JSONSchemaProps | undefined,
  input?: MutateInput,
): MutateOutcome {
  const tn = mutationTypeName(value)
  if (tn === undefined) return { error: 'unsupported return type from ApplyConfiguration expression' }
  const mismatch = checkTypeNamesMatchFieldPathNames(value)
  if (mismatch !== undefined) return { error: `type mismatch: ${mismatch}` }
  let patch: JSONValue
  try {
    patch = objectToNative(value, dataNodes(input))
  } catch (e) {
    return { error: `invalid return type: ${(e as Error).message}` }
  }
  if (schema === undefined) return { error: 'error applying patch: type converter must not be nil' }
  try {
    return {
      object: applyConfiguration(object as never, patch as never, schema) as JSONObject,
    }
  } catch (e) {
    if (e instanceof SmdError) return { error: `error applying patch: ${e.message}` }
    throw e
  }
}

/**
 * The composite values of the request's data (object, oldObject, params, namespace), found lazily: a map
 * or list among them is data (unstructured-backed in the apiserver), any other one the expression built.
 */
function dataNodes(input: MutateInput | undefined): () => WeakSet<object> {
  let set: WeakSet<object> | undefined
  return () => {
    if (set !== undefined) return set
    const s = new WeakSet<object>()
    const walk = (v: unknown) => {
      if (typeof v !== 'object' || v === null || s.has(v)) return
      s.add(v)
      for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x)
    }
    if (input !== undefined) {
      walk(input.attributes.object)
      walk(input.attributes.oldObject)
      walk(input.params)
      walk(input.namespace)
    }
    set = s
    return s
  }
}

/**
 * ObjectVal.ConvertToNative as the ApplyConfiguration patcher gets it (apiserver pkg/cel/mutation/dynamic
 * objects.go): an Object's fields converted, Objects within converted again, a map or list the
 * expression built converted one level (its entries are `Value()`s). So a map or list built inside
 * another built one stays a CEL value (an `Unconverted`), which the typed conversion refuses (`expected
 * map, got &{map[z:3]}`, as a 1.37.2 apiserver answers); maps and lists of the request's data convert.
 */
function objectToNative(value: unknown, data: () => WeakSet<object>): JSONValue {
  const fields: { [key: string]: JSONValue } = {}
  for (const [k, v] of Object.entries(value as JSONObject)) setOwn(fields, k, fieldToNative(v, data))
  return fields
}

function fieldToNative(v: unknown, data: () => WeakSet<object>): JSONValue {
  if (mutationTypeName(v) !== undefined) return objectToNative(v, data)
  const composite = typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && isCollection(v)
  if (!composite) return celToJSON(v as never, 'exact')
  // only a map or list holding maps or lists can tell: the request's data is looked up then
  const entries = Array.isArray(v) ? v : Object.values(v as JSONObject)
  const nested = entries.some(
    (x) => typeof x === 'object' && x !== null && isCollection(x) && mutationTypeName(x) === undefined,
  )
  if (!nested && !entries.some((x) => mutationTypeName(x) !== undefined)) return celToJSON(v as never, 'exact')
  if (data().has(v as object)) return celToJSON(v as never, 'exact')
  const entry = (x: unknown): JSONValue => {
    if (mutationTypeName(x) !== undefined) return objectToNative(x, data)
    if (typeof x === 'object' && x !== null && isCollection(x) && !data().has(x))
      return new Unconverted(x, goValue(x)) as unknown as JSONValue
    return celToJSON(x as never, 'exact')
  }
  if (Array.isArray(v)) return v.map(entry)
  const out: { [key: string]: JSONValue } = {}
  for (const [k, x] of Object.entries(v as JSONObject)) setOwn(out, k, entry(x))
  return out
}

const isCollection = (v: object): boolean => {
  if (Array.isArray(v)) return true
  const p = Object.getPrototypeOf(v)
  return p === null || p === Object.prototype
}

/** Go's %v of a CEL map ([ref.Val]ref.Val, keys sorted) or list ([]ref.Val); entries print as CEL's String(). */
function goValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(celString).join(' ')}]`
  const o = v as JSONObject
  return `map[${Object.keys(o)
    .sort(compareStrings)
    .map((k) => `${k}:${celString(o[k])}`)
    .join(' ')}]`
}

function celString(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(celString).join(', ')}]`
  if (typeof v === 'object' && v !== null) {
    const o = v as JSONObject
    return `{${Object.keys(o)
      .sort(compareStrings)
      .map((k) => `${k}: ${celString(o[k])}`)
      .join(', ')}}`
  }
  return String(v)
}
