import type { ComprehensionExpr, Expr, LiteralValue } from '../common/ast.js'
import type { Impl } from '../functions.js'
import type { CelValue } from '../values/values.js'

// The plan: the AST with every name resolved, every call bound to its implementation and the
// macro shapes recognised. Both back ends (codegen.ts, closures.ts) translate this tree one
// node at a time, so the plan is where semantics are decided.

export type Plan =
  | { op: 'const'; value: CelValue }
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
  | { op: 'opt'; name: OpName; args: readonly Plan[]; id: number }
  | { op: 'call'; impl: Impl; args: readonly Plan[]; id: number; fn: string }
  | { op: 'optIndex'; operand: Plan; key: Plan; id: number }
  | { op: 'and' | 'or'; left: Plan; right: Plan; id: number }
  /** `a.or(b)` / `a.orValue(b)`: lazy in b. */
  | { op: 'optOr'; kind: 'or' | 'orValue'; left: Plan; right: Plan; id: number }
  | { op: 'cond'; test: Plan; ifTrue: Plan; ifFalse: Plan; id: number }
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

export function literalValue(l: LiteralValue, mk: (l: LiteralValue) => CelValue): CelValue {
  return mk(l)
}

export type { ComprehensionExpr, Expr }
