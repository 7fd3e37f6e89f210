import type { ComprehensionExpr, Expr } from '../common/ast.js'
import type { RuntimeCost } from '../cost/costs.js'
import type { Impl } from '../functions.js'
import type { CelValue } from '../values/values.js'

// The plan: the AST with every name resolved, every call bound to its implementation and the
// macro shapes recognised. Both back ends (codegen.ts, closures.ts) translate this tree one
// node at a time, so the plan is where semantics are decided.

export type Plan =
  /** A constant; `cost` is charged when it stands for an unfolded list or map literal (optimize off). */
  | { op: 'const'; value: CelValue; cost?: number }
  /**
   * A fresh empty list / map per evaluation (accumulators are built in place); `cost` as for `const`
   * (an unfolded `[]` accumulator without OptOptimize: ListCreateBaseCost).
   */
  | { op: 'fresh'; kind: 'list' | 'map'; cost?: number }
  /**
   * `free`: the root of an attribute that is a branch of a conditional. cel-go plans `c ? t : f` as a
   * conditionalAttribute that resolves an attribute branch with Attribute.Resolve, so the cost
   * observer never sees the branch's root (interpreter/planner.go planCallConditional,
   * runtimecost.go): only its qualifiers are charged.
   */
  | { op: 'var'; name: string; free?: true }
  /** An identifier not declared: resolved against the activation at run time, longest dotted name first. */
  | { op: 'attr'; candidates: readonly { name: string; fields: readonly string[] }[]; free?: true }
  | { op: 'local'; slot: number; free?: true }
  | { op: 'accu'; slot: number; free?: true }
  /**
   * `rel`: the operand is not an attribute, so cel-go wraps it in a relative attribute whose own
   * observation costs 1 more (interpreter/planner.go relativeAttr); `free` clears it (see `var`).
   */
  | { op: 'select'; operand: Plan; field: string; id: number; rel?: true }
  | { op: 'optSelect'; operand: Plan; field: string; id: number; rel?: true }
  | { op: 'has'; operand: Plan; field: string; id: number; rel?: true }
  /**
   * `extra`: cost added to (or, negative, taken from) the operator's 1. For an index (`a[k]`,
   * planCallIndex in cel-go's planner): +1 when the operand is not an attribute (the relative
   * attribute's observation), -1 when the key is an attribute (the key is observed once, as the
   * qualifier, instead of as an attribute and a qualifier).
   */
  | {
      op: 'opt'
      name: OpName
      args: readonly Plan[]
      id: number
      cost?: RuntimeCost
      extra?: number
      /** An index whose relative operand is a conditional branch's root: not observed, failed or not. */
      rootFree?: true
      /** The one overload the checker resolved the call to (see `call`); a failed call's cost reads it. */
      overloadId?: string
    }
  /**
   * `varArgs`: cel-go evaluates the call as evalVarArgs (three or more arguments, or two when the checker
   * left several overloads of a function without a binary binding): the arguments stop at the first
   * error, and the call is charged only when that error was the last argument. `overloadId`: the one
   * overload the checker resolved the call to (cel-go's call.OverloadID()), which a failed argument's
   * cost is charged by.
   */
  | {
      op: 'call'
      impl: Impl
      args: readonly Plan[]
      id: number
      fn: string
      cost?: RuntimeCost
      varArgs?: true
      overloadId?: string
    }
  /** `rel` / `extra` as for `select` and the `index` operator. */
  | { op: 'optIndex'; operand: Plan; key: Plan; id: number; extra?: number; rootFree?: true }
  | { op: 'and' | 'or'; left: Plan; right: Plan; id: number }
  /**
   * `a.or(b)` / `a.orValue(b)`: lazy in b; free (cel-go's decorateOptionalOr, cel/library.go, replaces
   * the call by evalOptionalOr / evalOptionalOrValue, which are not calls for the cost observer).
   */
  | { op: 'optOr'; kind: 'or' | 'orValue'; left: Plan; right: Plan; id: number; v029: boolean }
  /** A branch that is an attribute has a `free` root (see `var`). */
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
      /** filter / map without OptOptimize: the `[]` accumulator literal, charged once (ListCreateBaseCost). */
      initCost?: number
      /**
       * map with OptOptimize and a constant transform: the step's `[t]` is a constant list (decorators.go
       * maybeBuildListLiteral), not a list construction; each step costs ListCreateBaseCost less.
       */
      constStep?: boolean
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
  | { op: 'accuAppend'; accu: number; elems: readonly Plan[]; constant: boolean }

export type { ComprehensionExpr, Expr }

/**
 * A plan that cel-go plans as an attribute (an InterpretableAttribute: identifiers, field selections,
 * indexes, optional selections and indexes, conditionals; interpreter/planner.go planIdent,
 * planSelect, planCallIndex, planCallConditional).
 */
export function isAttribute(p: Plan): boolean {
  switch (p.op) {
    case 'var':
    case 'attr':
    case 'local':
    case 'accu':
    case 'select':
    case 'optSelect':
    case 'optIndex':
    case 'cond':
      return true
    case 'opt':
      return p.name === 'index'
    default:
      return false
  }
}

/**
 * The attribute `p` as a conditional branch: its root is not charged (cel-go conditionalAttribute
 * resolves the branch attribute without observing it; its qualifiers are still observed). A plain
 * root (identifier) becomes `free`; a relative root (`f(x).y`, `[1, 2][0]`) loses its extra 1; a
 * conditional has no root cost. Anything else is returned as it is.
 */
export function freeRoot(p: Plan): Plan {
  switch (p.op) {
    case 'var':
    case 'attr':
    case 'local':
    case 'accu':
      return { ...p, free: true }
    case 'select':
    case 'optSelect': {
      if (p.rel) {
        const { rel: _, ...rest } = p
        return rest
      }
      return { ...p, operand: freeRoot(p.operand) }
    }
    // a relative root is not observed at all: neither its value nor its error (the conditional resolves
    // the branch's relativeAttribute without its watcher)
    case 'optIndex':
      return isAttribute(p.operand)
        ? { ...p, operand: freeRoot(p.operand) }
        : { ...p, extra: (p.extra ?? 0) - 1, rootFree: true }
    case 'opt':
      if (p.name !== 'index') return p
      return isAttribute(p.args[0]!)
        ? { ...p, args: [freeRoot(p.args[0]!), p.args[1]!] }
        : { ...p, extra: (p.extra ?? 0) - 1, rootFree: true }
    default:
      return p
  }
}
