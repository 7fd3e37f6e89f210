import { actualSize } from '../cost/runtime.js'
import { type FunctionDecl, fn, type Impl, overload } from '../functions.js'
import { BoolType, listOf, typeParam } from '../types/types.js'
import { elementEquals } from '../values/equality.js'
import type { CelValue } from '../values/values.js'

// ext.Sets() of cel-go v0.26.0 (ext/sets.go): set relations over lists, by CEL heterogeneous
// equality (`sets.contains([1, 2.0, 3u], [1.0, 2u, 3])` is true). Sizes and duplicates do not matter.

type List = readonly CelValue[]

/** cel-go's Lister.Contains: some element equals `v`. */
function listContains(list: List, v: CelValue): boolean {
  // A string equals only an identical string: `includes` is exact and fast.
  if (typeof v === 'string') return list.includes(v)
  for (let i = 0; i < list.length; i++) {
    if (elementEquals(v, list[i] as CelValue)) return true
  }
  return false
}

/** Every element of `sub` is in `list` (true when `sub` is empty). */
function contains(list: List, sub: List): boolean {
  for (let i = 0; i < sub.length; i++) {
    if (!listContains(list, sub[i] as CelValue)) return false
  }
  return true
}

function equivalent(a: List, b: List): boolean {
  return contains(a, b) && contains(b, a)
}

/** Some element of `a` is in `b` (false when either is empty). */
function intersects(a: List, b: List): boolean {
  for (let i = 0; i < a.length; i++) {
    if (listContains(b, a[i] as CelValue)) return true
  }
  return false
}

const listT = listOf(typeParam('T'))
const tp = ['T']

export const setsExtFunctions: FunctionDecl[] = [
  fn('sets.contains', overload('sets_contains_list_list', [listT, listT], BoolType, contains as Impl, tp)),
  fn('sets.equivalent', overload('sets_equivalent_list_list', [listT, listT], BoolType, equivalent as Impl, tp)),
  fn('sets.intersects', overload('sets_intersects_list_list', [listT, listT], BoolType, intersects as Impl, tp)),
]

/**
 * Run-time costs of the sets functions (cel-go ext/sets.go cost tracking, as Kubernetes' cost_test.go
 * TestSetsCost pins them): 1 plus the product of the two list sizes; equivalence checks both ways.
 */
// runtimecost.go actualSize: a dyn argument of another type is sized too (a string its code points, 1 for a scalar)
const size = (v: unknown) => actualSize(v as CelValue)
export const setsRuntimeCosts: Readonly<Record<string, (args: readonly unknown[]) => number>> = {
  'sets.contains': ([a, b]) => 1 + size(a) * size(b),
  'sets.intersects': ([a, b]) => 1 + size(a) * size(b),
  'sets.equivalent': ([a, b]) => 1 + 2 * size(a) * size(b),
}
