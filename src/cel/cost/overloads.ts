import { ErrorValue } from '../common/errors.js'
import { guardFor } from '../compiler/dispatch.js'
import type { Library } from '../functions.js'
import type { CelValue } from '../values/values.js'
import type { RuntimeCost } from './costs.js'

/** A library's cost of one overload (cel-go's per-overload-id CallCost switch). */
export interface OverloadRuntimeCost {
  readonly actual?: (args: readonly CelValue[], result: CelValue, overloadId?: string) => number | undefined
}

/**
 * Turns per-overload-id run-time costs (as Kubernetes' cost.go keys them) into the per-function
 * costs the evaluator charges: the overload that the arguments select decides, others cost 1.
 */
export function withOverloadCosts(
  lib: Library,
  table: Readonly<Record<string, OverloadRuntimeCost>>,
  functions = lib.functions,
  /**
   * Kubernetes' CallCost keys these by function name (cost.go: sum, min, indexOf, ... charge a traversal
   * of the first argument whatever it is): a call no row's guards accept (a dyn receiver of the wrong
   * type, which then fails) is still charged by the function's first row. A set: only the functions it names.
   */
  byName: boolean | ReadonlySet<string> = false,
): Library {
  const runtimeCosts: Record<string, RuntimeCost> = { ...lib.runtimeCosts }
  // A library may declare one function name in several declarations (semver's version 0 and 1
  // overloads): their rows are gathered under the one name.
  const rowsByName = new Map<string, Row[]>()
  for (const f of functions) {
    const rows = f.overloads
      .filter((o) => table[o.id]?.actual)
      .map((o) => ({
        id: o.id,
        arity: o.params.length,
        guards: o.params.map(guardFor),
        actual: table[o.id]!.actual!,
      }))
    if (rows.length === 0) continue
    rowsByName.set(f.name, [...(rowsByName.get(f.name) ?? []), ...rows])
  }
  for (const [name, rows] of rowsByName) {
    runtimeCosts[name] = (args, result, id) => {
      for (const r of rows) if (r.arity === args.length && accepts(r.guards, args)) return r.actual(args, result, id)
      // A failed argument: Kubernetes' CallCost and cel-go's costCall still charge the call, by the
      // overload the checker chose (`id`, which the evaluator passes then), with the error's size (1):
      // the formulas read sizes through actualSize. Without it, the row the other arguments select.
      if (args.some(isError)) {
        const chosen = id ? rows.find((r) => r.id === id) : undefined
        if (chosen) return chosen.actual(args, result, id)
        for (const r of rows) {
          if (r.arity !== args.length) continue
          if (r.guards.every((g, i) => !g || isError(args[i]) || g(args[i] as CelValue)))
            return r.actual(args, result, id)
        }
      }
      return byName === true || (byName !== false && byName.has(name)) ? rows[0]!.actual(args, result, id) : undefined
    }
  }
  return { ...lib, runtimeCosts }
}

const isError = (v: unknown): boolean => v instanceof ErrorValue

/** Whether each argument passes its parameter's guard (null: any); a loop, as it runs on every such call. */
function accepts(guards: readonly ReturnType<typeof guardFor>[], args: readonly CelValue[]): boolean {
  for (let i = 0; i < guards.length; i++) {
    const g = guards[i]
    if (g && !g(args[i] as CelValue)) return false
  }
  return true
}

interface Row {
  readonly id: string
  readonly arity: number
  readonly guards: readonly ReturnType<typeof guardFor>[]
  readonly actual: (args: readonly CelValue[], result: CelValue, overloadId?: string) => number | undefined
}
