import { ErrorValue } from '../common/errors.js'
import { typeNameOf } from './typeof.js'
import { type CelValue, Kind, kindOf } from './values.js'

// The text of a call no overload accepts at run time, as cel-go words it. Three cases
// (interpreter/interpretable.go evalUnary / evalBinary, common/decls/decls.go):
// - a standard function bound once for all overloads with an operand trait (`_+_` needs an Adder,
//   `size` a Sizer, ...): an operand without the trait is `no such overload: <fn>`, unless its type
//   receives calls (strings, durations, timestamps), which answer `no such overload`; an operand with
//   the trait that refuses the other one also answers `no such overload`;
// - a standard function whose binding itself refuses (`!_`, `in`, contains / startsWith / endsWith,
//   which disable the type guards): `no such overload`;
// - every other function (conversions, time accessors, extensions, the Kubernetes libraries): the
//   guarded overloads' MaybeNoSuchOverload, `no such overload: <fn>(<arg types>)`.

enum Trait {
  Adder = 1,
  Comparer = 2,
  Divider = 4,
  Modder = 8,
  Multiplier = 16,
  Negator = 32,
  Receiver = 64,
  Subtractor = 128,
  Sizer = 256,
  Lister = 512,
}

/** common/types/types.go: each type's traitMask. */
function traitsOf(v: CelValue): number {
  switch (kindOf(v)) {
    case Kind.Bool:
      return Trait.Comparer | Trait.Negator
    case Kind.Bytes:
      return Trait.Adder | Trait.Comparer | Trait.Sizer
    case Kind.Double:
      return Trait.Adder | Trait.Comparer | Trait.Divider | Trait.Multiplier | Trait.Negator | Trait.Subtractor
    case Kind.Duration:
      return Trait.Adder | Trait.Comparer | Trait.Negator | Trait.Receiver | Trait.Subtractor
    case Kind.Int:
      return (
        Trait.Adder |
        Trait.Comparer |
        Trait.Divider |
        Trait.Modder |
        Trait.Multiplier |
        Trait.Negator |
        Trait.Subtractor
      )
    case Kind.Uint:
      return Trait.Adder | Trait.Comparer | Trait.Divider | Trait.Modder | Trait.Multiplier | Trait.Subtractor
    case Kind.String:
      return Trait.Adder | Trait.Comparer | Trait.Receiver | Trait.Sizer
    case Kind.Timestamp:
      return Trait.Adder | Trait.Comparer | Trait.Receiver | Trait.Subtractor
    case Kind.List:
      return Trait.Adder | Trait.Sizer | Trait.Lister
    case Kind.Map:
      return Trait.Sizer
    default:
      return 0
  }
}

/** common/stdlib/standard.go and ext/lists.go: the singleton bindings and their operand traits. */
const singletonTraits: Readonly<Record<string, Trait>> = {
  '_+_': Trait.Adder,
  '_-_': Trait.Subtractor,
  '_*_': Trait.Multiplier,
  '_/_': Trait.Divider,
  '_%_': Trait.Modder,
  '-_': Trait.Negator,
  '_<_': Trait.Comparer,
  '_<=_': Trait.Comparer,
  '_>_': Trait.Comparer,
  '_>=_': Trait.Comparer,
  size: Trait.Sizer,
  sort: Trait.Lister,
  '@sortByAssociatedKeys': Trait.Lister,
}

/**
 * Standard functions whose own binding answers `no such overload`; `matches` too, as cel-go's regex
 * optimisation (OptOptimize, a constant pattern: interpreter MatchesRegexOptimization) words it.
 */
const plain = new Set(['!_', '@in', 'contains', 'startsWith', 'endsWith', 'matches', '_&&_', '_||_', '_?_:_'])

/** The error of a call to `fn` that no overload accepts, with its arguments (receiver first). */
export function noSuchOverloadFor(fn: string, args: readonly CelValue[]): ErrorValue {
  const trait = singletonTraits[fn]
  if (trait !== undefined) {
    const t = args.length > 0 ? traitsOf(args[0] as CelValue) : 0
    return new ErrorValue(t & (trait | Trait.Receiver) ? 'no such overload' : `no such overload: ${fn}`)
  }
  if (plain.has(fn)) return new ErrorValue('no such overload')
  return new ErrorValue(`no such overload: ${fn}(${args.map((a) => typeNameOf(a)).join(', ')})`)
}
