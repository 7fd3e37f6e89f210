import type { Env } from '../../cel/env.js'
import { Program } from '../../cel/program.js'
import { BoolType, listOf, NullType, StringType, type Type } from '../../cel/types/types.js'
import type { CRD } from '../../crd/crd.js'
import type { Validator } from '../../crd/validator.js'
import { materialKind } from '../../engine/policy-set.js'
import { estimateKubeCost } from '../../kube/cost.js'
import { type KubeVersion, PerCallLimit } from '../../kube/environment.js'
import { isObject, type JSONObject } from '../../kube/values/json.js'
import {
  type CompilationResult,
  CompositedCompiler,
  type OptionalVariableDeclarations,
} from '../../policy/cel/compile.js'
import { JSONPatchType, ObjectType } from '../../policy/cel/mutation-types.js'
import { checkedCache } from './checked-cache.js'
import type { CostRow } from './types.js'

// Each expression's cost: its static estimate (cel-go's estimator with Kubernetes' cost tables, kube/cost.ts) and
// the most one evaluation of it cost in this write, against the per-call limit every admission and CRD program
// is compiled with (celconfig.PerCallLimit). The engine keeps its compiled programs to itself, so a policy's
// expressions are compiled here once more for their estimates (the policy's compile steps, policy/validating
// validator.ts compilePolicy and mutating/mutator.ts), and the run-time costs are read off the programs as they
// run (recordCosts). A CRD rule's estimate is the compiled rule's own (crd/compilation.ts).

/** The most one run of each expression text cost while `f` ran (every Program run reports its cost). */
export function recordCosts<T>(f: () => T): { result: T; costs: Map<string, number> } {
  const costs = new Map<string, number>()
  const proto = Program.prototype
  const { tryRun, tryRunInto, run } = proto
  const note = (p: Program, cost: number) => {
    const text = p.ast.source.text
    costs.set(text, Math.max(costs.get(text) ?? 0, cost))
  }
  // the programs' public entry points with a cost, wrapped for this synchronous call only
  proto.tryRun = function (this: Program, ...args: Parameters<typeof tryRun>) {
    const r = tryRun.apply(this, args)
    note(this, r.cost)
    return r
  }
  proto.tryRunInto = function (this: Program, ...args: Parameters<typeof tryRunInto>) {
    const r = tryRunInto.apply(this, args)
    note(this, args[1].cost)
    return r
  }
  proto.run = function (this: Program, ...args: Parameters<typeof run>) {
    const r = run.apply(this, args)
    note(this, r.cost)
    return r
  }
  try {
    return { result: f(), costs }
  } finally {
    proto.tryRun = tryRun
    proto.tryRunInto = tryRunInto
    proto.run = run
  }
}

// uint64 figures as numbers (cel-go's unbounded estimate, MaxUint64, is 1.8e19)
const clamp = (n: bigint): number => Number(n)

function estimate(r: CompilationResult, env: Env): [number, number] | null {
  if (r.program === undefined) return null
  try {
    const e = estimateKubeCost(r.program, env)
    return [clamp(e.min), clamp(e.max)]
  } catch {
    return null
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const obj = (v: unknown): JSONObject => (isObject(v) ? v : {})

/** The rows of one ValidatingAdmissionPolicy or MutatingAdmissionPolicy, in the order of its spec. */
function policyRows(
  o: JSONObject,
  kind: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy',
  version: KubeVersion,
  actual: ReadonlyMap<string, number>,
): CostRow[] {
  const spec = obj(o.spec)
  const policy = `${kind}/${text(obj(o.metadata).name)}`
  const decls: OptionalVariableDeclarations = {
    hasParams: spec.paramKind !== undefined && spec.paramKind !== null,
    hasAuthorizer: true,
  }
  const compiler = new CompositedCompiler({ version, checkedCache })
  const variables = list(spec.variables).map((v) => ({ name: text(obj(v).name), expression: text(obj(v).expression) }))
  compiler.compileAndStoreVariables(variables, decls)
  const rows: CostRow[] = []
  const row = (expression: string, field: string, types: readonly Type[], d: OptionalVariableDeclarations) => {
    if (expression === '') return
    const r = compiler.compile(expression, types, d)
    rows.push({
      policy,
      expression,
      field,
      estimated: estimate(r, compiler.env(d)),
      actual: actual.get(expression) ?? null,
      limit: PerCallLimit,
    })
  }
  variables.forEach((v, i) => {
    const r = compiler.variables.get(v.name)
    if (r === undefined || v.expression === '') return
    rows.push({
      policy,
      expression: v.expression,
      field: `spec.variables[${i}].expression`,
      estimated: estimate(r, compiler.env(decls)),
      actual: actual.get(v.expression) ?? null,
      limit: PerCallLimit,
    })
  })
  list(spec.matchConditions).forEach((c, i) => {
    row(text(obj(c).expression), `spec.matchConditions[${i}].expression`, [BoolType], decls)
  })
  if (kind === 'ValidatingAdmissionPolicy') {
    const messages = { hasParams: decls.hasParams, hasAuthorizer: false }
    list(spec.validations).forEach((v, i) => {
      row(text(obj(v).expression), `spec.validations[${i}].expression`, [BoolType], decls)
      row(text(obj(v).messageExpression), `spec.validations[${i}].messageExpression`, [StringType], messages)
    })
    list(spec.auditAnnotations).forEach((a, i) => {
      row(text(obj(a).valueExpression), `spec.auditAnnotations[${i}].valueExpression`, [StringType, NullType], decls)
    })
  } else {
    const patch = { ...decls, hasPatchTypes: true }
    list(spec.mutations).forEach((m, i) => {
      const json = obj(obj(m).jsonPatch)
      const apply = obj(obj(m).applyConfiguration)
      if (obj(m).patchType === 'JSONPatch')
        row(text(json.expression), `spec.mutations[${i}].jsonPatch.expression`, [listOf(JSONPatchType)], patch)
      else if (obj(m).patchType === 'ApplyConfiguration')
        row(text(apply.expression), `spec.mutations[${i}].applyConfiguration.expression`, [ObjectType], patch)
    })
  }
  return rows
}

/** A CRD version's rules with their paths in the CRD, walked in the validator's order (crd/validator.ts rules()). */
function* crdRules(v: Validator, path: string): Generator<[CompilationResultOfCRD, string]> {
  const own = (v.schema['x-kubernetes-validations'] ?? []).length
  const it = v.rules()
  for (let i = 0; i < own; i++) {
    const n = it.next()
    if (n.done === true) return
    yield [n.value, `${path}.x-kubernetes-validations[${i}].rule`]
  }
  if (v.items !== undefined) yield* crdRules(v.items, `${path}.items`)
  for (const [k, p] of v.properties ?? []) yield* crdRules(p, `${path}.properties[${k}]`)
  if (v.additionalProperties !== undefined) yield* crdRules(v.additionalProperties, `${path}.additionalProperties`)
  for (let i = 0; i < v.allOf.length; i++) yield* crdRules(v.allOf[i] as Validator, `${path}.allOf[${i}]`)
}
type CompilationResultOfCRD = ReturnType<Validator['rules']> extends Generator<infer R> ? R : never

function crdRows(crd: CRD, actual: ReadonlyMap<string, number>): CostRow[] {
  const rows: CostRow[] = []
  const versions = crd.object.spec.versions
  for (let i = 0; i < versions.length; i++) {
    const v = crd.versions.get((versions[i] as { name: string }).name)?.celValidator()
    if (v === undefined) continue
    for (const [r, field] of crdRules(v, `spec.versions[${i}].schema.openAPIV3Schema`)) {
      const expression = r.rule.rule ?? ''
      rows.push({
        policy: `CustomResourceDefinition/${crd.name}`,
        expression,
        field,
        // the rule's estimated maximum (what × its cardinality the apiserver holds to StaticEstimatedCostLimit)
        estimated: r.program === undefined ? null : [clamp(r.maxCost), clamp(r.maxCost)],
        actual: actual.get(expression) ?? null,
        limit: PerCallLimit,
      })
    }
  }
  return rows
}

/** The policies' rows (without run-time figures) by release and policy; the most recent ESTIMATES kept. */
const ESTIMATES = 64
const estimates = new Map<string, readonly CostRow[]>()

/** The cost rows of the material's policies and CRDs. */
export function costRows(
  material: readonly JSONObject[],
  crds: Iterable<CRD>,
  version: KubeVersion,
  actual: ReadonlyMap<string, number>,
): CostRow[] {
  const rows: CostRow[] = []
  for (const o of material) {
    const k = materialKind(o)
    if (k !== 'ValidatingAdmissionPolicy' && k !== 'MutatingAdmissionPolicy') continue
    // a policy's estimates depend on it and the release only: an edit of another document compiles nothing again
    const key = `${version} ${JSON.stringify(o)}`
    let estimated = estimates.get(key)
    if (estimated === undefined) {
      estimated = policyRows(o, k, version, new Map())
      estimates.set(key, estimated)
      if (estimates.size > ESTIMATES) estimates.delete(estimates.keys().next().value as string)
    }
    for (const row of estimated) rows.push({ ...row, actual: actual.get(row.expression) ?? null })
  }
  for (const crd of crds) rows.push(...crdRows(crd, actual))
  return rows
}
