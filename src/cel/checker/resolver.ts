import type { Expr, SelectExpr } from '../common/ast.js'
import type { Env } from '../env.js'
import { OptionalTypeName, type Type, typeOf } from '../types/types.js'
import {
  type CheckFunction,
  type FunctionTable,
  functionTable,
  OPTIONAL_TYPE_IDENT,
  type Reference,
  STANDARD_TYPE_IDENTS,
  type VariableTable,
  variableTable,
} from './decls.js'
import { candidateNames, rootIdent } from './names.js'
import type { TypeProvider } from './provider.js'

// Name resolution for the checker (cel-go checker/env.go LookupIdent / LookupFunction with
// common/containers): comprehension variables (innermost first), declared variables, the
// standard type names and the provider's types, each name tried under the container's
// candidate prefixes.

export class Resolver {
  private readonly fns: FunctionTable
  private readonly vars: VariableTable
  private readonly variables: ReadonlyMap<string, Type>
  readonly container: string
  // Comprehension variables, innermost last (cel-go's Scopes); `top` is the live length (the
  // arrays are reused across checks and never shrunk).
  private top = 0
  /** Name resolved by the last successful lookupIdent, and whether it is a declared (cacheable) name. */
  private foundName = ''
  private foundDeclared = false

  constructor(
    env: Env,
    private readonly provider: TypeProvider | undefined,
    private readonly scopeNames: string[],
    private readonly scopeTypes: Type[],
  ) {
    this.fns = functionTable(env.functions)
    this.vars = variableTable(env.variables)
    this.variables = env.variables
    this.container = env.container
    this.libraryTypes = env.types
  }

  /** Types the environment's libraries declare (cel.Types): `net.IP` names the type as a value. */
  private readonly libraryTypes: ReadonlyMap<string, Type>

  /** The current scope depth, to restore with `exitTo`. */
  get depth(): number {
    return this.top
  }

  declare(name: string, t: Type): void {
    const i = this.top++
    this.scopeNames[i] = name
    this.scopeTypes[i] = t
  }

  exitTo(depth: number): void {
    this.top = depth
  }

  /** The type of an identifier (comprehension variable, declared variable, type name); see identRef. */
  lookupIdent(name: string): Type | undefined {
    if (this.container === '' && name.charCodeAt(0) !== 46 /* . */) return this.findIdent(name)
    for (const candidate of candidateNames(this.container, name)) {
      const t = this.findIdent(candidate)
      if (t !== undefined) return t
    }
    return undefined
  }

  private findIdent(name: string): Type | undefined {
    const names = this.scopeNames
    for (let i = this.top - 1; i >= 0; i--) {
      if (names[i] === name) {
        this.foundName = name
        this.foundDeclared = false
        return this.scopeTypes[i]
      }
    }
    let t = this.variables.get(name) ?? STANDARD_TYPE_IDENTS.get(name)
    if (t === undefined && name === OptionalTypeName && this.fns.optionalTypes) t = OPTIONAL_TYPE_IDENT
    this.foundDeclared = t !== undefined
    if (t === undefined) {
      // A type name known to the libraries or the provider denotes the type as a value: type(T).
      const st = this.libraryTypes.get(name) ?? this.provider?.findStructType(name)
      if (st !== undefined) t = typeOf(st)
    }
    if (t !== undefined) this.foundName = name
    return t
  }

  /** The qualified name the last successful lookupIdent resolved to. */
  get resolvedName(): string {
    return this.foundName
  }

  /** The reference for the last lookupIdent; declared names share one frozen object per environment. */
  identRef(): Reference {
    const name = this.foundName
    if (!this.foundDeclared) return { kind: 'ident', name }
    const cache = this.vars.refs
    let r = cache.get(name)
    if (r === undefined) {
      r = Object.freeze({ kind: 'ident', name })
      cache.set(name, r)
    }
    return r
  }

  lookupFunction(name: string): CheckFunction | undefined {
    const fns = this.fns.functions
    if (this.container === '' && name.charCodeAt(0) !== 46) return fns.get(name)
    for (const candidate of candidateNames(this.container, name)) {
      const fn = fns.get(candidate)
      if (fn !== undefined) return fn
    }
    return undefined
  }

  /** Whether a select chain could name a dotted identifier (cheap pre-test before building the name). */
  mayBeQualified(e: SelectExpr): boolean {
    if (this.container !== '' || this.provider !== undefined || this.libraryTypes.size > 0) return true
    const root = rootIdent(e)
    return root !== undefined && (root.charCodeAt(0) === 46 || this.vars.dottedRoots.has(root))
  }

  /** Whether a receiver could be a namespace of a function (`optional.of`, `sets.contains`, ...). */
  mayBeNamespaced(target: Expr): boolean {
    if (this.container !== '') return true
    const root = rootIdent(target)
    return root !== undefined && (root.charCodeAt(0) === 46 || this.fns.dottedRoots.has(root))
  }
}
