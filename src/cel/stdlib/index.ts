import { standardRuntimeCosts } from '../cost/runtime.js'
import { twoVarComprehensions } from '../ext/comprehensions.js'
import { listsExtFunctions } from '../ext/lists.js'
import { optionalFunctions } from '../ext/optionals.js'
import { setsExtFunctions, setsRuntimeCosts } from '../ext/sets.js'
import { stringsExtFunctions } from '../ext/strings.js'
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
  macros: ['has', 'all:2', 'exists:2', 'exists_one:2', 'existsOne:2', 'map:2', 'map:3', 'filter:2'],
}

/** ext.Strings(ext.StringsVersion(2)). */
export const stringsExtension: Library = { name: 'cel.lib.ext.strings', functions: stringsExtFunctions }

/** ext.Lists(ext.ListsVersion(3)): functions and the `sortBy` macro. */
export const listsExtension: Library = { name: 'cel.lib.ext.lists', functions: listsExtFunctions, macros: ['sortBy'] }

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
