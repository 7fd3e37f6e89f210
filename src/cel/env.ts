import { makeDispatcher } from './compiler/dispatch.js'
import { makeOps, type Ops } from './compiler/runtime.js'
import type { RuntimeCost } from './cost/costs.js'
import type { FunctionDecl, Impl, Library } from './functions.js'
import { greaterEquals, greaterThan, index, inValue, lessEquals, lessThan, size } from './stdlib/operators.js'
import type { Type } from './types/types.js'
import type { CelValue } from './values/values.js'

// An environment: the functions, macros and variables expressions are compiled against.
// Built once and reused; compiling in a prepared environment only parses and plans.

export interface EnvOptions {
  /** Libraries in declaration order; overloads of the same function name are merged. */
  readonly libraries?: readonly Library[]
  /** Declared variables (name → type). Undeclared identifiers are looked up in the activation at run time. */
  readonly variables?: Readonly<Record<string, Type>>
  /** cel-go's container: qualified names are resolved relative to it (`a.b` in container `x` tries `x.a.b`, then `a.b`). */
  readonly container?: string
  /** Language options the checker applies (cel-go env options). */
  readonly features?: Partial<Features>
}

/** cel-go environment options that change what compiles. */
export interface Features {
  /** cel.HomogeneousAggregateLiterals: list and map literals must have one element / key / value type. */
  readonly homogeneousAggregateLiterals: boolean
  /** cel.CrossTypeNumericComparisons: `<` etc. between int, uint and double type-check. */
  readonly crossTypeNumericComparisons: boolean
  /** cel.ASTValidators(ValidateDurationLiterals, ValidateTimestampLiterals, ValidateRegexLiterals, ...). */
  readonly literalValidators: boolean
  /**
   * The cel-go minor version whose behaviour applies where releases differ: 26 (v0.26, Kubernetes
   * 1.34–1.36) or 29 (v0.29.2, Kubernetes 1.37): `orValue` on a non-optional, run-time costs of
   * startsWith / endsWith / global matches, the global matches estimate.
   */
  readonly celGo: number
}

const defaultFeatures: Features = {
  homogeneousAggregateLiterals: false,
  crossTypeNumericComparisons: true,
  literalValidators: false,
  celGo: 26,
}

export class Env {
  readonly functions: ReadonlyMap<string, FunctionDecl>
  readonly variables: ReadonlyMap<string, Type>
  /** Whether a declared variable has a dotted name (`a.b`), which makes name resolution search prefixes. */
  readonly hasDottedVariables: boolean
  readonly macros: ReadonlySet<string>
  readonly container: string
  readonly features: Features
  readonly libraries: readonly Library[]
  readonly ops: Ops
  /** Constant-argument preparations of the libraries, by function name (see Library.constantArgs). */
  readonly constantArgs: ReadonlyMap<
    string,
    readonly { argIndex: number; prepare: (v: CelValue) => void; impl?: Impl | undefined }[]
  >
  /** Types declared by the libraries, by name. */
  readonly types: ReadonlyMap<string, Type>
  /** Run-time call costs by function name (merged from the libraries). */
  readonly costs: ReadonlyMap<string, RuntimeCost>
  /** The functions whose cost cel-go keys by overload id, with those ids (Library.overloadKeyedCosts). */
  readonly overloadKeyedCosts: ReadonlyMap<string, ReadonlySet<string>>
  private readonly dispatchers = new Map<string, Impl | undefined>()

  constructor(options: EnvOptions = {}) {
    this.libraries = options.libraries ?? []
    const fns = new Map<string, FunctionDecl>()
    const macros = new Set<string>()
    const costs = new Map<string, RuntimeCost>()
    const types = new Map<string, Type>()
    const keyed = new Map<string, ReadonlySet<string>>()
    const constantArgs = new Map<string, { argIndex: number; prepare: (v: CelValue) => void; impl?: Impl }[]>()
    for (const lib of this.libraries) {
      for (const c of lib.constantArgs ?? []) {
        const list = constantArgs.get(c.function) ?? []
        list.push({ argIndex: c.argIndex, prepare: c.prepare, ...(c.impl ? { impl: c.impl } : {}) })
        constantArgs.set(c.function, list)
      }
      for (const t of lib.types ?? []) types.set(t.name, t)
      for (const [name, ids] of Object.entries(lib.overloadKeyedCosts ?? {})) keyed.set(name, new Set(ids))
      for (const [name, cost] of Object.entries(lib.runtimeCosts ?? {})) {
        // A later library's figure wins; where it has none (undefined), the earlier one applies.
        const prev = costs.get(name)
        costs.set(name, prev ? (args, result, id) => cost(args, result, id) ?? prev(args, result, id) : cost)
      }
      for (const f of lib.functions) {
        const prev = fns.get(f.name)
        fns.set(f.name, prev ? { name: f.name, overloads: [...prev.overloads, ...f.overloads] } : f)
      }
      for (const m of lib.macros ?? []) macros.add(m)
    }
    this.functions = fns
    this.macros = macros
    this.costs = costs
    this.overloadKeyedCosts = keyed
    this.types = types
    this.constantArgs = constantArgs
    this.variables = new Map(Object.entries(options.variables ?? {}))
    this.hasDottedVariables = hasDotted(this.variables)
    this.container = options.container ?? ''
    this.features = { ...defaultFeatures, ...options.features }
    const need = (name: string, member: boolean, argc: number): Impl => {
      const d = this.dispatcher(name, member, argc)
      if (d) return d
      return () => {
        throw new Error(`environment lacks ${name}`)
      }
    }
    // Ordering, indexing, membership and size are generic over every kind at run time (cel-go's
    // traits: e.g. a list indexed by dyn(0.0) or dyn(0u) works); + and - dispatch on the overloads,
    // which libraries extend (timestamps, durations).
    this.ops = makeOps({
      lt: lessThan,
      le: lessEquals,
      gt: greaterThan,
      ge: greaterEquals,
      add: need('_+_', false, 2),
      sub: need('_-_', false, 2),
      index,
      in: inValue,
      size,
    })
  }

  /** The run-time implementation of `name` called with `argc` arguments (receiver included), cached. */
  dispatcher(name: string, member: boolean, argc: number): Impl | undefined {
    const key = `${member ? '.' : ''}${name}/${argc}`
    if (this.dispatchers.has(key)) return this.dispatchers.get(key)
    const fn = this.functions.get(name)
    const d = fn ? makeDispatcher(fn, member, argc) : undefined
    this.dispatchers.set(key, d)
    return d
  }

  /** A new environment with more libraries, variables or another container. */
  extend(options: EnvOptions): Env {
    if (!options.libraries?.length) {
      // Same functions: share the merged declarations, dispatchers and operator helpers (cheap per compile).
      const child: Env = Object.create(Env.prototype)
      const variables = new Map([...this.variables, ...Object.entries(options.variables ?? {})])
      Object.assign(child, this, {
        variables,
        hasDottedVariables: hasDotted(variables),
        container: options.container ?? this.container,
        features: { ...this.features, ...options.features },
      })
      return child
    }
    return new Env({
      libraries: [...this.libraries, ...(options.libraries ?? [])],
      variables: { ...Object.fromEntries(this.variables), ...options.variables },
      container: options.container ?? this.container,
      features: { ...this.features, ...options.features },
    })
  }
}

function hasDotted(variables: ReadonlyMap<string, Type>): boolean {
  for (const k of variables.keys()) if (k.includes('.')) return true
  return false
}
