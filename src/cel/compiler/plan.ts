import type { ComprehensionExpr, Expr } from '../common/ast.js'
import type { RuntimeCost } from '../cost/runtime.js'
import type { Impl } from '../functions.js'
import type { CelValue } from '../values/values.js'

// The plan: the AST with every name resolved, every call bound to its implementation and the
// macro shapes recognised. Both back ends (codegen.ts, closures.ts) translate this tree one
// node at a time, so the plan is where semantics are decided.

export type Plan =
  /** A constant; `cost` is charged when it stands for an unfolded list or map literal (optimize off). */
  | { op: 'const'; value: CelValue; cost?: number }
  /** A fresh empty list / map per evaluation (accumulators are built in place). */
  | { op: 'fresh'; kind: 'list' | 'map' }
  | { op: 'var'; name: string }
  /** An identifier not declared: resolved against the activation at run time, longest dotted name first. */
  | { op: 'attr'; candidates: readonly { name: string; fields: readonly string[] }[] }
  | { op: 'local'; slot: number }
  | { op: 'accu'; slot: number }
  | { op: 'select'; operand: Plan; field: string; id: number }
  | { op: 'optSelect'; operand: Plan; field: string; id: number }
  | { op: 'has'; operand: Plan; field: string; id: number }
  /**
   * `refund`: cost not charged by cel-go — an index whose key is an attribute (`m[k]`) resolves the key
   * as part of the qualifier (runtimecost.go observes attributes, not their qualifier attributes).
   */
  | { op: 'opt'; name: OpName; args: readonly Plan[]; id: number; cost?: RuntimeCost; refund?: number }
  | { op: 'call'; impl: Impl; args: readonly Plan[]; id: number; fn: string; cost?: RuntimeCost }
  | { op: 'optIndex'; operand: Plan; key: Plan; id: number }
  | { op: 'and' | 'or'; left: Plan; right: Plan; id: number }
  /** `a.or(b)` / `a.orValue(b)`: lazy in b. */
  | { op: 'optOr'; kind: 'or' | 'orValue'; left: Plan; right: Plan; id: number }
  /**
   * `attr`: both branches are attributes, which cel-go plans as one conditional attribute whose
   * branch resolution is not charged; the chosen branch's (static) cost is refunded.
   */
  | { op: 'cond'; test: Plan; ifTrue: Plan; ifFalse: Plan; id: number; attr?: boolean }
  | { op: 'nsf'; arg: Plan }
  | { op: 'list'; elems: readonly Plan[]; optional: readonly boolean[]; id: number }
  | { op: 'map'; keys: readonly Plan[]; values: readonly Plan[]; optional: readonly boolean[]; id: number }
  | { op: 'fail'; message: string; id: number }
  | FoldPlan

/** Operators with an inline fast path (see runtime.ts Ops). */
export type OpName = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'add' | 'sub' | 'index' | 'in' | 'size' | 'not'

export type FoldPlan =
  /** list.all / exists / exists_one / map / filter over one variable: dedicated loops. */
  | {
      op: 'all' | 'exists' | 'existsOne' | 'filter' | 'mapList'
      range: Plan
      iter: number
      pred?: Plan
      transform?: Plan
      id: number
    }
  /** Any other comprehension, evaluated as cel-go's fold. */
  | {
      op: 'fold'
      range: Plan
      iter: number
      iter2?: number
      accu: number
      init: Plan
      cond: Plan
      step: Plan
      result: Plan
      id: number
    }
  /** `accu + [elems]` on the fold's own accumulator: appended in place. */
  | { op: 'accuAppend'; accu: number; elems: readonly Plan[] }

export type { ComprehensionExpr, Expr }

/** A plan that cel-go would plan as an attribute (identifier, field and constant-index chains). */
export function isAttribute(p: Plan): boolean {
  switch (p.op) {
    case 'var':
    case 'local':
    case 'accu':
      return true
    case 'select':
      return isAttribute(p.operand)
    case 'opt':
      return p.name === 'index' && isAttribute(p.args[0]!) && (p.args[1]!.op === 'const' || isAttribute(p.args[1]!))
    default:
      return false
  }
}

/** The cost of an attribute plan: 1 for the root and 1 per qualifier (keys that are attributes are free). */
export function attributeCost(p: Plan): number {
  switch (p.op) {
    case 'select':
      return attributeCost(p.operand) + 1
    case 'opt':
      return attributeCost(p.args[0]!) + 1
    default:
      return 1
  }
}
