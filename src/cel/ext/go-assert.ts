import { ErrorValue, GoPanic } from '../common/errors.js'
import { goTypeName } from '../values/typeof.js'
import { type CelValue, Kind, kindOf } from '../values/values.js'

// Go's type assertions as cel-go's extensions make them without the comma-ok form, and the runtime
// panic text a failed one gives (runtime/iface.go: TypeAssertionError.Error). cel-go's program
// recovers the panic as `internal error: <text>`. The cost trackers of ext/lists.go (v0.26 and v0.29
// alike) assert their argument to traits.Lister or types.Int; the cost observer calls them even when
// the call failed (interpreter/runtimecost.go Observe), so an error receiver reaches the assertion.

/** The Go dynamic type (`%T`) of the value cel-go holds: `types.Int`, `*types.Err`, `cel.Quantity`, … */
function goType(v: CelValue | ErrorValue): string {
  if (v instanceof ErrorValue) return '*types.Err'
  return goTypeName(v) ?? (v as { typeName?: string }).typeName ?? 'unknown'
}

/**
 * The first method of traits.Lister (Add, Contains, ConvertToNative, …, in Go's sorted method order)
 * the value's Go type lacks: the types that are traits.Adder (numbers, strings, bytes, durations,
 * timestamps) lack Contains first, every other Add.
 */
function missingListerMethod(v: CelValue | ErrorValue): string {
  if (v instanceof ErrorValue) return 'Add'
  switch (kindOf(v)) {
    case Kind.Int:
    case Kind.Uint:
    case Kind.Double:
    case Kind.String:
    case Kind.Bytes:
    case Kind.Duration:
    case Kind.Timestamp:
      return 'Contains'
    default:
      return 'Add'
  }
}

/** `v.(traits.Lister)`: the list, or Go's panic for an interface the value's type does not implement. */
export function assertLister(v: CelValue | ErrorValue): readonly CelValue[] {
  if (Array.isArray(v)) return v
  throw new GoPanic(`interface conversion: ${goType(v)} is not traits.Lister: missing method ${missingListerMethod(v)}`)
}

/** `v.(types.Int)` on a ref.Val: the int, or Go's panic for a concrete type that is not the asserted one. */
export function assertInt(v: CelValue | ErrorValue): number | bigint {
  if (!(v instanceof ErrorValue) && kindOf(v) === Kind.Int) return v as number | bigint
  throw new GoPanic(`interface conversion: ref.Val is ${goType(v)}, not types.Int`)
}
