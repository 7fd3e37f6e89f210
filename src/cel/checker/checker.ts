import type {
  CallExpr,
  ComprehensionExpr,
  Expr,
  IdentExpr,
  ListExpr,
  MapExpr,
  ParsedAst,
  SelectExpr,
  StructExpr,
} from '../common/ast.js'
import type { CelIssue } from '../common/source.js'
import type { Env } from '../env.js'
import {
  BoolType,
  BytesType,
  DoubleType,
  DynType,
  ErrorType,
  IntType,
  listOf,
  mapOf,
  NullType,
  OptionalTypeName,
  optionalOf,
  StringType,
  type Type,
  typeOf,
  typeParam,
  UintType,
} from '../types/types.js'
import {
  type CheckFunction,
  type FunctionTable,
  functionTable,
  OPTIONAL_TYPE_IDENT,
  STANDARD_TYPE_IDENTS,
  type VariableTable,
  variableTable,
} from './decls.js'
import * as msg from './errors.js'
import { candidateNames, qualifiedName, rootIdent } from './names.js'
import type { TypeProvider } from './provider.js'
import {
  instantiate,
  isAssignable,
  isAssignableList,
  isDyn,
  isDynOrError,
  isExactType,
  isGround,
  Mapping,
  mostGeneral,
  substitute,
} from './unify.js'

// The type checker: a port of cel-go v0.26 checker/checker.go. It walks the parsed AST once,
// gives every node a type and every identifier / call a reference, and collects all issues
// (cel-go reports several) instead of stopping at the first.

/** What a name or call resolved to (cel-go's ast.ReferenceInfo). */
export type Reference =
  | { readonly kind: 'ident'; readonly name: string }
  | { readonly kind: 'function'; readonly overloadIds: readonly string[] }

export interface CheckerConfig {
  readonly homogeneousAggregateLiterals: boolean
  readonly crossTypeNumericComparisons: boolean
  readonly provider: TypeProvider | undefined
}

/** Fresh type variables `_var0`, `_var1`, ... are shared across checks (types are immutable). */
const TYPE_VARS: Type[] = []
function typeVar(n: number): Type {
  let t = TYPE_VARS[n]
  if (t === undefined) {
    t = typeParam(`_var${n}`)
    TYPE_VARS[n] = t
  }
  return t
}

const MAX_ISSUES = 100

export class Checker {
  readonly types = new Map<number, Type>()
  readonly refs = new Map<number, Reference>()
  readonly issues: CelIssue[] = []
  private readonly mapping = new Mapping()
  private freeTypeVars = 0
  private readonly fns: FunctionTable
  private readonly vars: VariableTable
  private readonly variables: ReadonlyMap<string, Type>
  private readonly container: string
  // Comprehension scopes, innermost last; `scopeMarks` holds the scope starts (cel-go's Scopes).
  private readonly scopeNames: string[] = []
  private readonly scopeTypes: Type[] = []
  /**
   * cel-go filters the cross-type comparison overloads through a field of its checker Env that
   * enterScope / exitScope do not copy: once the first comprehension is entered, the filter is
   * gone for the rest of the check. Reproduced for parity (it only matters with the option off).
   */
  private crossTypeFilter: boolean
  /** Name resolved by the last successful lookupIdent. */
  private foundName = ''
  private readonly argTypes: Type[] = []

  constructor(
    private readonly ast: ParsedAst,
    env: Env,
    private readonly config: CheckerConfig,
  ) {
    this.fns = functionTable(env.functions)
    this.vars = variableTable(env.variables)
    this.variables = env.variables
    this.container = env.container
    this.crossTypeFilter = !config.crossTypeNumericComparisons
  }

  /** Checks the whole expression; returns the output type (issues, if any, are in `issues`). */
  run(): Type {
    const root = this.ast.expr
    this.check(root)
    // Replace type parameters by their final substitution, or dyn when unbound.
    for (const [id, t] of this.types) {
      if (!isGround(t)) this.types.set(id, substitute(this.mapping, t, true))
    }
    return this.types.get(root.id) ?? ErrorType
  }

  private check(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        this.types.set(e.id, LITERAL_TYPES[e.value.type])
        return
      case 'ident':
        return this.checkIdent(e)
      case 'select':
        return this.checkSelect(e)
      case 'call':
        return this.checkCall(e)
      case 'list':
        return this.checkList(e)
      case 'map':
        return this.checkMap(e)
      case 'struct':
        return this.checkStruct(e)
      case 'comprehension':
        return this.checkComprehension(e)
    }
  }

  private checkIdent(e: IdentExpr): void {
    const t = this.lookupIdent(e.name)
    if (t !== undefined) {
      this.types.set(e.id, t)
      this.refs.set(e.id, { kind: 'ident', name: this.foundName })
      return
    }
    this.types.set(e.id, ErrorType)
    this.error(e.id, msg.undeclaredReference(this.container, e.name))
  }

  private checkSelect(e: SelectExpr): void {
    // Before descending, try the whole chain as a qualified name (`a.b.c` declared as a variable).
    if (!e.testOnly && this.mayBeQualified(e)) {
      const qname = qualifiedName(e)
      if (qname !== undefined) {
        const t = this.lookupIdent(qname)
        if (t !== undefined) {
          this.types.set(e.id, t)
          this.refs.set(e.id, { kind: 'ident', name: this.foundName })
          return
        }
      }
    }
    let result = this.checkSelectField(e.id, e.operand, e.field, false)
    if (e.testOnly) result = BoolType
    this.types.set(e.id, substitute(this.mapping, result, false))
  }

  /** `a.?b`: the field selection rules, with an optional result. */
  private checkOptSelect(e: CallExpr): void {
    const field = e.args[1]
    if (e.args.length !== 2 || e.target !== undefined || field === undefined) {
      const member = e.target !== undefined ? ' member call with' : ''
      this.error(
        e.id,
        msg.notAnOptionalFieldSelectionCall(`incorrect signature.${member} argument count: ${e.args.length}`),
      )
      this.types.set(e.id, ErrorType)
      return
    }
    if (field.kind !== 'literal' || field.value.type !== 'string') {
      this.error(field.id, msg.notAnOptionalFieldSelectionCall(`field ${field.kind}`))
      this.types.set(e.id, ErrorType)
      return
    }
    const result = this.checkSelectField(e.id, e.args[0]!, field.value.value, true)
    this.types.set(e.id, substitute(this.mapping, result, false))
    this.refs.set(e.id, { kind: 'function', overloadIds: ['select_optional_field'] })
  }

  private checkSelectField(id: number, operand: Expr, field: string, optional: boolean): Type {
    this.check(operand)
    let target = substitute(this.mapping, this.typeOf(operand), false)
    // Selecting on an optional selects on its value and yields an optional.
    const isOpt = isOptional(target)
    if (isOpt) target = target.params[0]!
    let result: Type
    switch (target.typeKind) {
      case 'map':
        result = target.params[1]!
        break
      case 'struct':
        result = this.lookupFieldType(id, target.name, field) ?? ErrorType
        break
      case 'type_param':
        // Bind the parameter to dyn so it cannot later unify with a type that lacks the field.
        isAssignable(this.mapping, DynType, target)
        result = DynType
        break
      default:
        if (!isDynOrError(target)) this.error(id, msg.typeDoesNotSupportFieldSelection(target))
        result = DynType
    }
    return isOpt || optional ? optionalOf(result) : result
  }

  private checkCall(e: CallExpr): void {
    const name = e.fn
    if (name === '_?._') return this.checkOptSelect(e)
    const args = e.args
    for (let i = 0; i < args.length; i++) this.check(args[i]!)
    const target = e.target
    if (target === undefined) {
      const fn = this.lookupFunction(name)
      if (fn === undefined) {
        this.error(e.id, msg.undeclaredReference(this.container, name))
        this.types.set(e.id, ErrorType)
        return
      }
      this.resolveOverload(e, fn, undefined)
      return
    }
    // `a.b.f()` is either the namespaced function `a.b.f` or `f` with receiver `a.b`, namespaced first.
    if (this.mayBeNamespaced(target)) {
      const prefix = qualifiedName(target)
      if (prefix !== undefined) {
        const fn = this.lookupFunction(`${prefix}.${name}`)
        if (fn !== undefined) {
          this.resolveOverload(e, fn, undefined)
          return
        }
      }
    }
    this.check(target)
    const fn = this.lookupFunction(name)
    if (fn === undefined) {
      this.types.set(e.id, ErrorType)
      this.error(e.id, msg.undeclaredReference(this.container, name))
      return
    }
    this.resolveOverload(e, fn, target)
  }

  private resolveOverload(e: CallExpr, fn: CheckFunction, target: Expr | undefined): void {
    const args = e.args
    const argTypes = this.argTypes
    argTypes.length = 0
    if (target !== undefined) argTypes.push(this.typeOf(target))
    for (let i = 0; i < args.length; i++) argTypes.push(this.typeOf(args[i]!))
    const member = target !== undefined
    const filterCrossType = this.crossTypeFilter
    let result: Type | undefined
    let ids: string[] | undefined
    for (const o of fn.overloads) {
      if (o.crossType && filterCrossType) continue
      if (o.member !== member) continue
      if (fn.logical) {
        // `&&` / `||`: each argument must be a bool; mismatches are reported per argument.
        let ok = true
        for (let i = 0; i < argTypes.length; i++) {
          if (!isAssignable(this.mapping, argTypes[i]!, BoolType)) {
            const at = member ? (i === 0 ? target! : args[i - 1]!) : args[i]!
            this.error(at.id, msg.typeMismatch(BoolType, argTypes[i]!))
            ok = false
          }
        }
        if (!ok) {
          this.types.set(e.id, ErrorType)
          return
        }
        this.types.set(e.id, BoolType)
        this.refs.set(e.id, { kind: 'function', overloadIds: [o.id] })
        return
      }
      let params = o.params
      let resultDecl = o.result
      const tps = o.typeParams
      if (tps.length > 0) {
        // Instantiate the overload's type parameters with fresh type variables.
        const vars: Type[] = []
        for (let i = 0; i < tps.length; i++) vars.push(typeVar(this.freeTypeVars++))
        const inst: Type[] = []
        for (const p of params) inst.push(instantiate(p, tps, vars))
        params = inst
        resultDecl = instantiate(resultDecl, tps, vars)
      }
      if (!isAssignableList(this.mapping, argTypes, params)) continue
      if (ids === undefined) ids = [o.id]
      else ids.push(o.id)
      const fnResult = substitute(this.mapping, resultDecl, false)
      if (result === undefined) result = fnResult
      else if (!isDyn(result) && !isExactType(fnResult, result)) result = DynType
    }
    if (result === undefined) {
      const shown = argTypes.map((t) => substitute(this.mapping, t, true))
      this.error(e.id, msg.noMatchingOverload(fn.name, shown, member))
      this.types.set(e.id, ErrorType)
      return
    }
    this.types.set(e.id, result)
    this.refs.set(e.id, { kind: 'function', overloadIds: ids! })
  }

  private checkList(e: ListExpr): void {
    const opt = e.optionalIndices
    let elems: Type | undefined
    for (let i = 0; i < e.elements.length; i++) {
      const el = e.elements[i]!
      this.check(el)
      let t = this.typeOf(el)
      if (opt.length > 0 && opt.includes(i)) {
        if (isOptional(t)) t = t.params[0]!
        else if (!isDyn(t)) this.error(el.id, msg.typeMismatch(optionalOf(t), t))
      }
      elems = this.joinTypes(el, elems, t)
    }
    this.types.set(e.id, listOf(elems ?? typeVar(this.freeTypeVars++)))
  }

  private checkMap(e: MapExpr): void {
    let keys: Type | undefined
    let values: Type | undefined
    for (const entry of e.entries) {
      this.check(entry.key)
      keys = this.joinTypes(entry.key, keys, this.typeOf(entry.key))
      this.check(entry.value)
      let t = this.typeOf(entry.value)
      if (entry.optional) {
        if (isOptional(t)) t = t.params[0]!
        else if (!isDyn(t)) this.error(entry.value.id, msg.typeMismatch(optionalOf(t), t))
      }
      values = this.joinTypes(entry.value, values, t)
    }
    if (keys === undefined || values === undefined) {
      keys = typeVar(this.freeTypeVars++)
      values = typeVar(this.freeTypeVars++)
    }
    this.types.set(e.id, mapOf(keys, values))
  }

  private checkStruct(e: StructExpr): void {
    const t = this.lookupIdent(e.typeName)
    if (t === undefined) {
      this.error(e.id, msg.undeclaredReference(this.container, e.typeName))
      this.types.set(e.id, ErrorType)
      return
    }
    let typeName = this.foundName
    this.refs.set(e.id, { kind: 'ident', name: typeName })
    let result: Type = ErrorType
    if (t.typeKind !== 'error') {
      if (t.typeKind !== 'type') this.error(e.id, msg.notAType(t.name))
      else {
        const target = t.params[0] ?? DynType
        const wkt = WELL_KNOWN_NAMES[target.typeKind]
        if (wkt !== undefined && isWellKnown(target)) {
          // Timestamp / Duration (and friends) built by their protobuf name.
          result = target
          typeName = wkt
        } else if (target.typeKind === 'struct') {
          result = target
          typeName = target.name
        } else this.error(e.id, msg.notAMessageType(target.name))
      }
    }
    this.types.set(e.id, result)
    for (const f of e.fields) {
      this.check(f.value)
      const fieldType = this.lookupFieldType(f.id, typeName, f.field) ?? ErrorType
      let t = this.typeOf(f.value)
      if (f.optional) {
        if (isOptional(t)) t = t.params[0]!
        else if (!isDyn(t)) this.error(f.value.id, msg.typeMismatch(optionalOf(t), t))
      }
      if (!isAssignable(this.mapping, fieldType, t)) this.error(f.id, msg.fieldTypeMismatch(f.field, fieldType, t))
    }
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange)
    this.check(e.accuInit)
    const range = substitute(this.mapping, this.typeOf(e.iterRange), false)
    const accuType = this.typeOf(e.accuInit)
    const two = e.iterVar2 !== undefined
    let varType: Type
    let var2Type: Type = ErrorType
    switch (range.typeKind) {
      case 'list':
        // One variable: the element; two variables: the index, then the element.
        varType = two ? IntType : range.params[0]!
        var2Type = range.params[0]!
        break
      case 'map':
        // The key, then (two variables) the value.
        varType = range.params[0]!
        var2Type = range.params[1]!
        break
      case 'dyn':
      case 'any':
      case 'error':
      case 'type_param':
        // Bind a type parameter to dyn so it cannot later become an incompatible type.
        isAssignable(this.mapping, DynType, range)
        varType = DynType
        var2Type = DynType
        break
      default:
        this.error(e.iterRange.id, msg.notAComprehensionRange(range))
        varType = ErrorType
    }
    const outer = this.scopeNames.length
    this.crossTypeFilter = false
    this.declare(e.accuVar, accuType)
    this.declare(e.iterVar, varType)
    if (two) this.declare(e.iterVar2!, var2Type)
    this.check(e.loopCondition)
    this.assertType(e.loopCondition, BoolType)
    this.check(e.loopStep)
    this.assertType(e.loopStep, accuType)
    // The result sees the accumulator but not the iteration variables.
    this.scopeNames.length = this.scopeTypes.length = outer + 1
    this.check(e.result)
    this.scopeNames.length = this.scopeTypes.length = outer
    this.types.set(e.id, substitute(this.mapping, this.typeOf(e.result), false))
  }

  /** The most general type of two aggregate elements, or dyn / an error when they differ. */
  private joinTypes(e: Expr, previous: Type | undefined, current: Type): Type {
    if (previous === undefined) return current
    if (isAssignable(this.mapping, previous, current)) return mostGeneral(previous, current)
    if (!this.config.homogeneousAggregateLiterals) return DynType
    this.error(e.id, msg.typeMismatch(previous, current))
    return ErrorType
  }

  private assertType(e: Expr, t: Type): void {
    const actual = this.typeOf(e)
    if (!isAssignable(this.mapping, t, actual)) this.error(e.id, msg.typeMismatch(t, actual))
  }

  private lookupFieldType(id: number, structName: string, field: string): Type | undefined {
    const provider = this.config.provider
    const st = provider?.findStructType(structName)
    if (st === undefined) {
      this.error(id, msg.unexpectedFailedResolution(structName))
      return undefined
    }
    const ft = provider!.findFieldType(st, field)
    if (ft === undefined) this.error(id, msg.undefinedField(field))
    return ft
  }

  // ---- name resolution (cel-go checker/env.go and common/containers) ----

  private declare(name: string, t: Type): void {
    this.scopeNames.push(name)
    this.scopeTypes.push(t)
  }

  /** The type of an identifier (comprehension variable, declared variable, type name), setting foundName. */
  private lookupIdent(name: string): Type | undefined {
    if (this.container === '' && name.charCodeAt(0) !== 46 /* . */) return this.findIdent(name)
    for (const candidate of candidateNames(this.container, name)) {
      const t = this.findIdent(candidate)
      if (t !== undefined) return t
    }
    return undefined
  }

  private findIdent(name: string): Type | undefined {
    const names = this.scopeNames
    for (let i = names.length - 1; i >= 0; i--) {
      if (names[i] === name) {
        this.foundName = name
        return this.scopeTypes[i]
      }
    }
    let t = this.variables.get(name) ?? STANDARD_TYPE_IDENTS.get(name)
    if (t === undefined && name === OptionalTypeName && this.fns.optionalTypes) t = OPTIONAL_TYPE_IDENT
    if (t === undefined) {
      const st = this.config.provider?.findStructType(name)
      if (st !== undefined) t = typeOf(st)
    }
    if (t !== undefined) this.foundName = name
    return t
  }

  private lookupFunction(name: string): CheckFunction | undefined {
    const fns = this.fns.functions
    if (this.container === '' && name.charCodeAt(0) !== 46) return fns.get(name)
    for (const candidate of candidateNames(this.container, name)) {
      const fn = fns.get(candidate)
      if (fn !== undefined) return fn
    }
    return undefined
  }

  /** Whether a select chain could name a dotted identifier (cheap pre-test before building the name). */
  private mayBeQualified(e: SelectExpr): boolean {
    if (this.container !== '' || this.config.provider !== undefined) return true
    const root = rootIdent(e)
    return root !== undefined && (root.charCodeAt(0) === 46 || this.vars.dottedRoots.has(root))
  }

  /** Whether a receiver could be a namespace of a function (`optional.of`, `sets.contains`, ...). */
  private mayBeNamespaced(target: Expr): boolean {
    if (this.container !== '') return true
    const root = rootIdent(target)
    return root !== undefined && (root.charCodeAt(0) === 46 || this.fns.dottedRoots.has(root))
  }

  private typeOf(e: Expr): Type {
    return this.types.get(e.id) ?? ErrorType
  }

  private error(id: number, message: string): void {
    if (this.issues.length >= MAX_ISSUES) return
    const offset = this.ast.sourceInfo.positions.get(id)
    this.issues.push({ message, offset: offset ?? -1 })
  }
}

const LITERAL_TYPES: Record<string, Type> = {
  null: NullType,
  bool: BoolType,
  int: IntType,
  uint: UintType,
  double: DoubleType,
  string: StringType,
  bytes: BytesType,
}

function isOptional(t: Type): boolean {
  return t.typeKind === 'opaque' && t.name === OptionalTypeName && t.params.length === 1
}

/** Protobuf names of the types message construction accepts besides messages (cel-go's wellKnownTypes). */
const WELL_KNOWN_NAMES: Partial<Record<Type['typeKind'], string>> = {
  any: 'google.protobuf.Any',
  duration: 'google.protobuf.Duration',
  dyn: 'google.protobuf.Value',
  list: 'google.protobuf.ListValue',
  null_type: 'google.protobuf.NullValue',
  map: 'google.protobuf.Struct',
  timestamp: 'google.protobuf.Timestamp',
}

function isWellKnown(t: Type): boolean {
  switch (t.typeKind) {
    case 'any':
    case 'timestamp':
    case 'duration':
    case 'dyn':
    case 'null_type':
      return true
    case 'list':
      return t.params[0] === DynType
    case 'map':
      return t.params[0] === StringType && t.params[1] === DynType
    default:
      return false
  }
}
