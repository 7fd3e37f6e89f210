import { ErrorValue } from '../../cel/common/errors.js'
import { type RuntimeCost, StringTraversalCostFactor } from '../../cel/cost/costs.js'
import { actualSize } from '../../cel/cost/runtime.js'
import { fn, type Library, memberOverload, overload } from '../../cel/functions.js'
import { BoolType, DoubleType, IntType, StringType } from '../../cel/types/types.js'
import { type CelValue, mkDouble, mkInt } from '../../cel/values/values.js'
import { newQuantity, parseQuantity, type Quantity, QuantityType } from '../values/quantity.js'

// Library `kubernetes.quantity` (k8s.io/apiserver pkg/cel/library/quantity.go, Kubernetes 1.29+):
// declarations, overload ids and error texts as Kubernetes has them. Results of add / sub are new
// values (master deep-copies the receiver; 1.36's shallow copy could alter an inf.Dec receiver),
// marked `computed` because Kubernetes returns them as pointers: see Quantity.equals.

const Q = QuantityType

function toQuantity(s: string): Quantity {
  const q = parseQuantity(s)
  if (typeof q === 'string') throw new ErrorValue(q)
  return q
}

function computed(q: Quantity): Quantity {
  q.computed = true
  return q
}

/** NewQuantity(i, DecimalExponent): the int operand of add / sub. */
function fromInt(i: number | bigint): Quantity {
  return newQuantity(BigInt(i), 'DecimalExponent')
}

const CANNOT_CONVERT = 'cannot convert value to integer'

export const quantityLibrary: Library = {
  name: 'kubernetes.quantity',
  functions: [
    fn('quantity', overload('string_to_quantity', [StringType], Q, toQuantity)),
    fn(
      'isQuantity',
      overload('is_quantity_string', [StringType], BoolType, (s: string) => typeof parseQuantity(s) !== 'string'),
    ),
    // A global overload only (cel.Overload, not MemberOverload): `sign(q)`, not `q.sign()`.
    fn(
      'sign',
      overload('quantity_sign', [Q], IntType, (q: Quantity) => q.sign()),
    ),
    fn(
      'isGreaterThan',
      memberOverload('quantity_is_greater_than', [Q, Q], BoolType, (q: Quantity, y: Quantity) => q.cmp(y) === 1),
    ),
    fn(
      'isLessThan',
      memberOverload('quantity_is_less_than', [Q, Q], BoolType, (q: Quantity, y: Quantity) => q.cmp(y) === -1),
    ),
    fn(
      'compareTo',
      memberOverload('quantity_compare_to', [Q, Q], IntType, (q: Quantity, y: Quantity) => q.cmp(y)),
    ),
    fn(
      'asApproximateFloat',
      memberOverload('quantity_get_float', [Q], DoubleType, (q: Quantity) => mkDouble(q.asApproximateFloat64())),
    ),
    fn(
      'asInteger',
      memberOverload('quantity_get_int', [Q], IntType, (q: Quantity) => {
        const v = q.asInt64()
        if (v === undefined) throw new ErrorValue(CANNOT_CONVERT)
        return mkInt(v)
      }),
    ),
    fn(
      'isInteger',
      memberOverload('quantity_is_integer', [Q], BoolType, (q: Quantity) => q.asInt64() !== undefined),
    ),
    fn(
      'add',
      memberOverload('quantity_add', [Q, Q], Q, (q: Quantity, y: Quantity) => computed(q.add(y))),
      memberOverload('quantity_add_int', [Q, IntType], Q, (q: Quantity, i: number | bigint) =>
        computed(q.add(fromInt(i))),
      ),
    ),
    fn(
      'sub',
      memberOverload('quantity_sub', [Q, Q], Q, (q: Quantity, y: Quantity) => computed(q.sub(y))),
      memberOverload('quantity_sub_int', [Q, IntType], Q, (q: Quantity, i: number | bigint) =>
        computed(q.sub(fromInt(i))),
      ),
    ),
  ],
}

// ---- costs (pkg/cel/library/cost.go), by overload id

/** A checker cost estimate (cel-go checker.CostEstimate). */
export interface CostEstimate {
  readonly min: number
  readonly max: number
}

export interface LibraryCallCost {
  /**
   * The estimated cost of the call itself (argument costs are added by the estimator), from the size
   * estimates of the arguments (receiver first). Absent: Kubernetes' EstimateCallCost returns nil
   * and cel-go's default applies (1).
   */
  readonly estimate?: (argSizes: readonly CostEstimate[]) => CostEstimate
  /** The actual cost from the arguments (receiver first) and the result (CallCost). */
  readonly actual?: RuntimeCost
}

const one: CostEstimate = { min: 1, max: 1 }
const nominal: LibraryCallCost = { estimate: () => one, actual: () => 1 }

/**
 * `quantity` / `isQuantity`: CallCost charges ceil(size × 0.1), size = the string's code points.
 * EstimateCallCost only handles them when `target != nil`, which a global call never has, so the
 * estimate is cel-go's default (cost_test.go TestQuantityCost: `quantity("12Mi")` estimates 1..1).
 */
const parsing: LibraryCallCost = {
  actual: ([s]) => Math.ceil(actualSize(s as CelValue) * StringTraversalCostFactor),
}

export const quantityCosts: Readonly<Record<string, LibraryCallCost>> = {
  string_to_quantity: parsing,
  is_quantity_string: parsing,
  quantity_sign: nominal,
  quantity_is_greater_than: nominal,
  quantity_is_less_than: nominal,
  quantity_compare_to: nominal,
  quantity_get_float: nominal,
  quantity_get_int: nominal,
  quantity_is_integer: nominal,
  quantity_add: nominal,
  quantity_add_int: nominal,
  quantity_sub: nominal,
  quantity_sub_int: nominal,
}
