import {
  standardOverloadKeyedCosts,
  standardOverloadKeyedCostsV029,
  standardRuntimeCosts,
  standardRuntimeCostsV029,
} from '../cost/runtime.js'
import { twoVarComprehensions } from '../ext/comprehensions.js'
import { listsExtFunctions, listsExtFunctionsV026, listsExtOverloadKeyedCosts } from '../ext/lists.js'
import { optionalFunctions } from '../ext/optionals.js'
import { setsExtFunctions, setsRuntimeCosts } from '../ext/sets.js'
import { stringsExtFunctions, stringsExtFunctionsV029 } from '../ext/strings.js'
import type { Library } from '../functions.js'
import { conversionFunctions } from './conversions.js'
import { operatorFunctions } from './operators.js'
import { stringFunctions } from './strings.js'
import { timeFunctions } from './time.js'

// The libraries of the CEL environment Kubernetes builds on (cel-go v0.26 standard library and
// the extensions Kubernetes enables; see ../shared/spec/kubernetes-cel-semantics.md §A.1).

export const standardLibrary: Library = {
  name: 'cel.lib.std',
  functions: [...operatorFunctions, ...conversionFunctions, ...stringFunctions, ...timeFunctions],
  runtimeCosts: standardRuntimeCosts,
  overloadKeyedCosts: standardOverloadKeyedCosts,
  // cel.StandardMacros (cel/macro.go, v0.26 and v0.29): the parser's AllMacros less `existsOne` with one
  // variable (ExistsOneMacroNew), which a cel.StdLib environment does not expand: only the two-variable
  // `existsOne` of ext.TwoVarComprehensions is there.
  macros: ['has', 'all:2', 'exists:2', 'exists_one:2', 'map:2', 'map:3', 'filter:2'],
}

/**
 * The standard library of cel-go v0.29 (Kubernetes 1.37): `duration(int)` (int64_to_duration) is gone
 * from common/stdlib/standard.go, so a call of it no longer type-checks; startsWith / endsWith and the
 * global matches are charged as interpreter/runtimecost.go v0.29 charges them.
 */
export const standardLibraryV029: Library = {
  ...standardLibrary,
  runtimeCosts: standardRuntimeCostsV029,
  overloadKeyedCosts: standardOverloadKeyedCostsV029,
  functions: standardLibrary.functions.map((f) =>
    f.name === 'duration' ? { ...f, overloads: f.overloads.filter((o) => o.id !== 'int64_to_duration') } : f,
  ),
}

/** ext.Strings(ext.StringsVersion(2)). */
export const stringsExtension: Library = { name: 'cel.lib.ext.strings', functions: stringsExtFunctions }

/** ext.Strings(ext.StringsVersion(2)) of cel-go v0.29 (Kubernetes 1.37): indexOf('', n) clamped. */
export const stringsExtensionV029: Library = { name: 'cel.lib.ext.strings', functions: stringsExtFunctionsV029 }

/** ext.Lists(ext.ListsVersion(3)): functions and the `sortBy` macro. */
export const listsExtension: Library = {
  name: 'cel.lib.ext.lists',
  functions: listsExtFunctions,
  macros: ['sortBy'],
  overloadKeyedCosts: listsExtOverloadKeyedCosts,
}

/** ext.Lists(ext.ListsVersion(3)) of cel-go v0.26 (Kubernetes 1.34–1.36): lists.range(-1) is []. */
export const listsExtensionV026: Library = { ...listsExtension, functions: listsExtFunctionsV026 }

/** ext.Sets(). */
export const setsExtension: Library = {
  name: 'cel.lib.ext.sets',
  functions: setsExtFunctions,
  runtimeCosts: setsRuntimeCosts,
}

/** cel.OptionalTypes(): functions and the optMap / optFlatMap macros. */
export const optionalLibrary: Library = {
  name: 'cel.lib.optional',
  functions: optionalFunctions,
  macros: ['optMap', 'optFlatMap'],
}

export { twoVarComprehensions }

/** Everything above: the language Kubernetes expressions are written in (without Kubernetes' own libraries). */
export const celLibraries: readonly Library[] = [
  standardLibrary,
  stringsExtension,
  listsExtension,
  setsExtension,
  optionalLibrary,
  twoVarComprehensions,
]
