import { type RuntimeCost, StringTraversalCostFactor } from '../cel/cost/costs.js'
import { withOverloadCosts } from '../cel/cost/overloads.js'
import { actualSize, traversalCost } from '../cel/cost/runtime.js'
import { Env, type Features } from '../cel/env.js'
import { twoVarComprehensions } from '../cel/ext/comprehensions.js'
import { listsExtRuntimeCosts } from '../cel/ext/lists.js'
import type { Library } from '../cel/functions.js'
import {
  listsExtension,
  listsExtensionV026,
  optionalLibrary,
  setsExtension,
  standardLibrary,
  standardLibraryV029,
  stringsExtension,
  stringsExtensionV029,
} from '../cel/stdlib/index.js'
import { compileRegex } from '../cel/stdlib/regex.js'
import type { Type } from '../cel/types/types.js'
import type { CelValue } from '../cel/values/values.js'
import { defaultAuthorize } from './authz/authorizer.js'
import { authzLibrary, authzSelectorsLibrary } from './authz/library.js'
import { kubeCostLibrary } from './cost.js'
import { cidrCosts, cidrLibrary } from './library/cidr.js'
import { formatCosts, formatLibrary, formatLibraryV135 } from './library/format.js'
import { ipCosts, ipLibrary } from './library/ip.js'
import { listsCosts, listsLibrary, listsLibraryV1 } from './library/lists.js'
import { quantityCosts, quantityLibrary } from './library/quantity.js'
import { regexCosts, regexLibrary, regexOptimizations } from './library/regex.js'
import { semverCosts, semverLibrary } from './library/semver.js'
import { urlsCosts, urlsLibrary } from './library/urls.js'

// The Kubernetes CEL base environment, as k8s.io/apiserver pkg/cel/environment/base.go builds it:
// versioned options, each introduced (and possibly removed) at a Kubernetes minor version, and the
// two environments an apiserver keeps: NewExpressions (options introduced at or before the
// compatibility version = binary version − 1 minor) and StoredExpressions (every option the binary
// has that is not removed). See ../shared/spec/kubernetes-cel-semantics.md §A.

/** Kubernetes minor versions kelp knows (the 1.x line). */
export const SUPPORTED_VERSIONS = ['1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37'] as const
export type KubeVersion = (typeof SUPPORTED_VERSIONS)[number]
export const DEFAULT_KUBE_VERSION: KubeVersion = '1.37'

/** apiserver pkg/apis/cel/config.go. */
export const PerCallLimit = 1_000_000
export const RuntimeCELCostBudget = 10_000_000
export const RuntimeCELCostBudgetMatchConditions = 2_500_000

interface VersionedOption {
  readonly introduced: number
  readonly removed?: number
  readonly libraries?: readonly Library[]
  readonly features?: Partial<Features>
  /** Only present in binaries of these minor versions or later (the code did not exist before). */
  readonly since?: number
}

/** ext.Strings(StringsVersion(0)): format / strings.quote arrive in version 1, join in version 2. */
const stringsV0: Library = {
  name: 'cel.lib.ext.strings.v0',
  functions: stringsExtension.functions.filter((f) => !['format', 'strings.quote', 'join'].includes(f.name)),
}

/** `ceil(size(v) * 2 * 0.1)`: the functions cost.go charges twice a traversal of their string. */
const doubleTraversal = (v: CelValue) => Math.ceil(actualSize(v) * 2 * StringTraversalCostFactor)

/** apiserver pkg/cel/library/cost.go CallCost for the cel-go string extension functions. */
/**
 * cost.go CallCost charges containsIP / containsCIDR by function name from the CIDR receiver's size, also
 * when a dyn argument of another kind fails the call (the parse only for the string overload's id). Not
 * `ip`, which this library shares with the IP library's ip(string).
 */
const CIDR_COSTS_BY_NAME: ReadonlySet<string> = new Set(['containsIP', 'containsCIDR'])

const stringExtCosts: Readonly<Record<string, RuntimeCost>> = {
  lowerAscii: ([s]) => traversalCost(s as CelValue),
  upperAscii: ([s]) => traversalCost(s as CelValue),
  substring: ([s]) => traversalCost(s as CelValue),
  trim: ([s]) => traversalCost(s as CelValue),
  replace: ([s]) => doubleTraversal(s as CelValue),
  split: ([s]) => doubleTraversal(s as CelValue),
  join: (_args, result) => doubleTraversal(result),
}

/**
 * The strings extension with cost.go's figures: the table above, and `indexOf` / `lastIndexOf`, which
 * cost.go charges by function name as the list functions of the same names (a traversal of the
 * receiver, listsCosts' string_index_of_* rows).
 */
function withStringExtCosts(lib: Library): Library {
  return withOverloadCosts({ ...lib, runtimeCosts: stringExtCosts }, listsCosts, lib.functions, true)
}

/**
 * The cel-go minor version a Kubernetes binary vendors: v0.29.2 in 1.37, v0.26 in 1.34–1.36 (kelp keeps
 * v0.26's behaviour for the older releases too: the language differences before it are not modelled).
 */
export function celGoVersion(binary: number): number {
  return binary >= 37 ? 29 : 26
}

/** base.go baseOpts in declaration order (1.36 code, plus the 1.37 additions for a 1.37 binary). */
function baseOptions(binary: number): VersionedOption[] {
  return [
    {
      introduced: 0,
      libraries: [
        celGoVersion(binary) >= 29 ? standardLibraryV029 : standardLibrary,
        kubeCostLibrary,
        withOverloadCosts(urlsLibrary, urlsCosts),
        {
          ...withOverloadCosts(regexLibrary, regexCosts),
          // regex.go ProgramOptions: constant patterns of find / findAll compile when the program is created.
          constantArgs: regexOptimizations.map((o) => ({
            function: o.function,
            argIndex: o.regexIndex,
            prepare: (v: CelValue) => {
              if (typeof v === 'string') compileRegex(v)
            },
            impl: o.impl,
          })),
        },
      ],
      features: { homogeneousAggregateLiterals: true, crossTypeNumericComparisons: false, literalValidators: false },
    },
    // Lists version 0 (inside the 1.0 entry in 1.36; removed at 1.37 in favour of version 1)
    binary >= 37
      ? { introduced: 0, removed: 37, libraries: [withOverloadCosts(listsLibrary, listsCosts, undefined, true)] }
      : { introduced: 0, libraries: [withOverloadCosts(listsLibrary, listsCosts, undefined, true)] },
    { introduced: 27, libraries: [authzLibrary] },
    {
      introduced: 28,
      libraries: [optionalLibrary, withOverloadCosts(quantityLibrary, quantityCosts, undefined, true)],
      features: { crossTypeNumericComparisons: true },
    },
    { introduced: 29, features: { literalValidators: true } },
    { introduced: 0, removed: 29, libraries: [withStringExtCosts(stringsV0)] },
    {
      introduced: 29,
      libraries: [withStringExtCosts(celGoVersion(binary) >= 29 ? stringsExtensionV029 : stringsExtension)],
    },
    { introduced: 29, libraries: [setsExtension] },
    {
      introduced: 30,
      libraries: [
        withOverloadCosts(ipLibrary, ipCosts),
        withOverloadCosts(cidrLibrary, cidrCosts, undefined, CIDR_COSTS_BY_NAME),
      ],
    },
    // the apimachinery of 1.35 on words qualifiedName's and labelValue's lengths in bytes
    {
      introduced: 31,
      libraries: [withOverloadCosts(binary >= 35 ? formatLibraryV135 : formatLibrary, formatCosts, undefined, true)],
    },
    { introduced: 31, libraries: [authzSelectorsLibrary] },
    { introduced: 32, libraries: [twoVarComprehensions] },
    { introduced: 33, libraries: [withOverloadCosts(semverLibrary, semverCosts, undefined, true)] },
    {
      introduced: 34,
      libraries: [
        { ...(celGoVersion(binary) >= 29 ? listsExtension : listsExtensionV026), runtimeCosts: listsExtRuntimeCosts },
      ],
    },
    { introduced: 37, since: 37, libraries: [withOverloadCosts(listsLibraryV1, listsCosts, undefined, true)] },
  ].filter((o) => o.since === undefined || binary >= o.since)
}

function minorOf(v: string): number {
  const m = /^1\.(\d+)$/.exec(v)
  if (!m)
    throw new Error(
      `unsupported Kubernetes version '${v}' (expected 1.<minor>, one of ${SUPPORTED_VERSIONS.join(', ')})`,
    )
  return Number(m[1])
}

export interface KubeEnvOptions {
  /** The Kubernetes version of the apiserver (default DEFAULT_KUBE_VERSION, the newest stable release). */
  readonly version?: string
  /**
   * `new`: what a write of a new or changed expression may use (compatibility version = version − 1);
   * `stored`: what the apiserver evaluates for persisted expressions (every option not removed).
   */
  readonly expressions?: 'new' | 'stored'
  /** Variables the feature declares (`self`, `object`, `params`, ...). */
  readonly variables?: Readonly<Record<string, Type>>
}

const cache = new Map<string, Env>()

/** The Kubernetes base environment for a version and expression kind (built once, then cached). */
export function kubeEnv(options: KubeEnvOptions = {}): Env {
  const version = options.version ?? DEFAULT_KUBE_VERSION
  const binary = minorOf(version)
  const kind = options.expressions ?? 'new'
  const key = `${binary}/${kind}`
  let base = cache.get(key)
  if (!base) {
    const compat = kind === 'new' ? binary - 1 : Number.POSITIVE_INFINITY
    const libraries: Library[] = []
    let features: Partial<Features> = {}
    for (const o of baseOptions(binary)) {
      const active =
        kind === 'new'
          ? o.introduced <= compat && (o.removed === undefined || compat < o.removed)
          : o.removed === undefined
      if (!active) continue
      libraries.push(...(o.libraries ?? []))
      features = { ...features, ...o.features }
    }
    // the cel-go the binary is built with, whatever the compatibility version
    base = new Env({ libraries, features: { ...features, celGo: celGoVersion(binary) } })
    cache.set(key, base)
  }
  return options.variables ? base.extend({ variables: options.variables }) : base
}

export { defaultAuthorize }
