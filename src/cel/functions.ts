import type { RuntimeCost } from './cost/costs.js'
import type { Type } from './types/types.js'
import type { CelValue } from './values/values.js'

// Function declarations, shared by the checker (signatures) and the compiler (implementations).
// Names and overload ids are cel-go's (`_+_` / `add_int64`, `startsWith` / `starts_with_string`),
// so a reader can find each rule in cel-go's sources.

export type Impl = (...args: any[]) => CelValue

export interface OverloadDecl {
  /** cel-go's overload id, e.g. `add_int64`, `string_to_timestamp`. */
  readonly id: string
  /** Parameter types; for a member (receiver-style) overload the receiver comes first. */
  readonly params: readonly Type[]
  readonly result: Type
  /** Receiver style: `x.f(y)` rather than `f(x, y)`. */
  readonly member: boolean
  /** Names of the type parameters used in params / result (`A`, `K`, `V`). */
  readonly typeParams?: readonly string[]
  /**
   * The implementation. Arguments are never errors (CEL functions are strict; the evaluator
   * propagates errors before calling) and have already been matched to `params` at run time
   * (or statically by the checker). Failures are reported by throwing an ErrorValue.
   */
  readonly impl: Impl
  /** cel-go's OverloadOperandTrait-free binding: run-time dispatch skips argument checks (the impl checks). */
  readonly disableTypeGuards?: boolean
}

export interface FunctionDecl {
  readonly name: string
  readonly overloads: readonly OverloadDecl[]
}

export interface Library {
  readonly name: string
  readonly functions: readonly FunctionDecl[]
  /**
   * Run-time cost of calls, by function name (cel-go's ActualCostEstimator): given the arguments
   * (receiver first) and the result. A later library's entry replaces an earlier one; functions
   * without an entry cost 1.
   */
  readonly runtimeCosts?: Readonly<Record<string, RuntimeCost>>
  /**
   * The functions of `runtimeCosts` whose cost cel-go keys by overload id (its CostTracker default
   * switch, OverloadCostTracker): charged only when the checker resolved the call to exactly one of
   * these overloads. A call it left with several candidates (an operand typed `dyn`: `"a" in
   * object.tags`, `object.list.sort()`) has overload id "" in the interpreter (planner.go
   * resolveFunction) and costs 1.
   */
  readonly overloadKeyedCosts?: Readonly<Record<string, readonly string[]>>
  /**
   * Constant arguments prepared when the program is created (cel-go program options such as
   * Kubernetes' regex optimizations): `prepare` throws for an invalid constant, which then fails the
   * compile with that error's text, as cel-go's env.Program does. `impl`, when given, replaces the
   * call's implementation (and its overload guards) when that argument is a constant, as cel-go's
   * regex optimisations replace the call.
   */
  readonly constantArgs?: readonly {
    readonly function: string
    readonly argIndex: number
    readonly prepare: (v: CelValue) => void
    readonly impl?: Impl
  }[]
  /** Types the library declares (cel.Types): resolvable by name as type identifiers, e.g. `net.IP`. */
  readonly types?: readonly Type[]
  /** Names of parser macros this library enables (`has`, `all`, `transformList`, ...). */
  readonly macros?: readonly string[]
}

function declare(
  member: boolean,
  id: string,
  params: readonly Type[],
  result: Type,
  impl: Impl,
  typeParams?: string[],
): OverloadDecl {
  return typeParams ? { id, params, result, member, impl, typeParams } : { id, params, result, member, impl }
}

/** Declares a global overload. */
export function overload(id: string, params: readonly Type[], result: Type, impl: Impl, typeParams?: string[]) {
  return declare(false, id, params, result, impl, typeParams)
}

/** Declares a receiver-style overload; `params[0]` is the receiver type. */
export function memberOverload(id: string, params: readonly Type[], result: Type, impl: Impl, typeParams?: string[]) {
  return declare(true, id, params, result, impl, typeParams)
}

export function fn(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return { name, overloads }
}
