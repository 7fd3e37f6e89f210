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
  DurationType,
  DynType,
  ErrorType,
  IntType,
  listOf,
  mapOf,
  NullType,
  OptionalTypeName,
  optionalOf,
  StringType,
  TimestampType,
  type Type,
  typeParam,
  UintType,
} from '../types/types.js'
import type { CheckFunction, CheckOverload, Reference } from './decls.js'
import * as msg from './errors.js'
import { qualifiedName } from './names.js'
import { NodeMap } from './node-map.js'
import type { TypeProvider } from './provider.js'
import { Resolver } from './resolver.js'
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

/**
 * A call's resolution, the same in every check of an environment when its argument types are plain (no
 * type parameters, nothing inside them): the overload loop's outcome depends only on those, the call
 * style and the cross-type filter. Fresh type variables the loop would have numbered are counted all
 * the same (`vars`), so later `_varN` names in messages do not move; a result that is not ground
 * (unbound variables) is never remembered, nor a failure (its error text is the loop's).
 */
interface Resolution {
  readonly result: Type
  readonly ref: Reference
  readonly vars: number
}
/** Per function of an environment's table (gone with the environment). */
const resolutions = new WeakMap<CheckFunction, Map<string, Resolution>>()
/** Fewer overloads than this are resolved as fast as a key is built. */
const MEMO_MIN_OVERLOADS = 4
/** Distinct argument-type keys kept per function (struct names from schemas could otherwise grow it). */
const MEMO_MAX_KEYS = 256

/**
 * The types a remembered call may take: the checker's own singletons (a provider's types are left out: a
 * result the loop takes from an argument would otherwise be another check's object).
 */
const PLAIN_TYPES: ReadonlyMap<Type, string> = new Map(
  [
    BoolType,
    BytesType,
    DoubleType,
    DynType,
    ErrorType,
    IntType,
    NullType,
    StringType,
    UintType,
    DurationType,
    TimestampType,
  ].map((t, i) => [t, String.fromCharCode(65 + i)]),
)

/** The key of a call whose argument types are all PLAIN_TYPES, else undefined. */
function resolutionKey(argTypes: readonly Type[], n: number, member: boolean, filter: boolean): string | undefined {
  let key = member ? (filter ? 'mf' : 'm') : filter ? 'gf' : 'g'
  for (let i = 0; i < n; i++) {
    const k = PLAIN_TYPES.get(argTypes[i]!)
    if (k === undefined) return undefined
    key += k
  }
  return key
}

function remember(fn: CheckFunction, key: string, r: Resolution): void {
  let m = resolutions.get(fn)
  if (m === undefined) {
    m = new Map()
    resolutions.set(fn, m)
  }
  if (m.size < MEMO_MAX_KEYS)
    m.set(key, Object.freeze({ ...r, ref: Object.isFrozen(r.ref) ? r.ref : Object.freeze(r.ref) }))
}

const OPT_SELECT_REF: Reference = Object.freeze({
  kind: 'function',
  name: '_?._',
  overloadIds: Object.freeze(['select_optional_field']),
})

/** Working storage reused across checks (checks are synchronous; a nested check gets its own). */
class Scratch {
  readonly mapping = new Mapping()
  readonly scopeNames: string[] = []
  readonly scopeTypes: Type[] = []
  readonly argTypes: Type[] = []
  readonly instParams: Type[] = []
  busy = false
}
let pooled: Scratch | undefined

export type { Reference }

export class Checker {
  readonly types = new NodeMap<Type>()
  readonly refs = new NodeMap<Reference>()
  readonly issues: CelIssue[] = []
  private readonly scratch: Scratch
  private readonly mapping: Mapping
  private freeTypeVars = 0
  /** Whether some node type contains a type parameter (then run() substitutes the final bindings). */
  private nonGround = false
  private readonly names: Resolver
  private readonly container: string
  /**
   * cel-go filters the cross-type comparison overloads through a field of its checker Env that
   * enterScope / exitScope do not copy: once the first comprehension is entered, the filter is
   * gone for the rest of the check. Reproduced for parity (it only matters with the option off).
   */
  private crossTypeFilter: boolean

  constructor(
    private readonly ast: ParsedAst,
    env: Env,
    private readonly config: CheckerConfig,
  ) {
    let scratch = pooled
    if (scratch === undefined || scratch.busy) scratch = new Scratch()
    pooled = scratch
    scratch.busy = true
    this.scratch = scratch
    this.mapping = scratch.mapping
    this.names = new Resolver(env, config.provider, scratch.scopeNames, scratch.scopeTypes)
    this.container = env.container
    this.crossTypeFilter = !config.crossTypeNumericComparisons
  }

  /** Checks the whole expression; returns the output type (issues, if any, are in `issues`). */
  run(): Type {
    const root = this.ast.expr
    try {
      this.check(root)
      // Replace type parameters by their final substitution, or dyn when unbound.
      if (this.nonGround) this.types.transform((t) => (isGround(t) ? t : substitute(this.mapping, t, true)))
    } finally {
      this.mapping.reset()
      this.scratch.busy = false
    }
    return this.types.get(root.id) ?? ErrorType
  }

  private setType(id: number, t: Type): void {
    if ((t.params.length > 0 || t.typeKind === 'type_param') && !isGround(t)) this.nonGround = true
    this.types.set(id, t)
  }

  private check(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        this.setType(e.id, LITERAL_TYPES[e.value.type])
        break
      case 'ident':
        this.checkIdent(e)
        break
      case 'select':
        this.checkSelect(e)
        break
      case 'call':
        this.checkCall(e)
        break
      case 'list':
        this.checkList(e)
        break
      case 'map':
        this.checkMap(e)
        break
      case 'struct':
        this.checkStruct(e)
        break
      case 'comprehension':
        this.checkComprehension(e)
        break
    }
  }

  private checkIdent(e: IdentExpr): void {
    const t = this.names.lookupIdent(e.name)
    if (t !== undefined) {
      this.setType(e.id, t)
      this.refs.set(e.id, this.names.identRef())
      return
    }
    this.setType(e.id, ErrorType)
    this.error(e.id, msg.undeclaredReference(this.container, e.name))
  }

  private checkSelect(e: SelectExpr): void {
    // Before descending, try the whole chain as a qualified name (`a.b.c` declared as a variable).
    if (!e.testOnly && this.names.mayBeQualified(e)) {
      const qname = qualifiedName(e)
      if (qname !== undefined) {
        const t = this.names.lookupIdent(qname)
        if (t !== undefined) {
          this.setType(e.id, t)
          this.refs.set(e.id, this.names.identRef())
          return
        }
      }
    }
    let result = this.checkSelectField(e.id, e.operand, e.field, false)
    if (e.testOnly) result = BoolType
    this.setType(e.id, substitute(this.mapping, result, false))
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
      this.setType(e.id, ErrorType)
      return
    }
    if (field.kind !== 'literal' || field.value.type !== 'string') {
      this.error(field.id, msg.notAnOptionalFieldSelectionCall(`field ${field.kind}`))
      this.setType(e.id, ErrorType)
      return
    }
    const result = this.checkSelectField(e.id, e.args[0]!, field.value.value, true)
    this.setType(e.id, substitute(this.mapping, result, false))
    this.refs.set(e.id, OPT_SELECT_REF)
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
    if (name === '_?._') {
      this.checkOptSelect(e)
      return
    }
    const args = e.args
    for (let i = 0; i < args.length; i++) this.check(args[i]!)
    const target = e.target
    if (target === undefined) {
      const fn = this.names.lookupFunction(name)
      if (fn === undefined) {
        this.error(e.id, msg.undeclaredReference(this.container, name))
        this.setType(e.id, ErrorType)
        return
      }
      this.resolveOverload(e, fn, undefined)
      return
    }
    // `a.b.f()` is either the namespaced function `a.b.f` or `f` with receiver `a.b`, namespaced first.
    if (this.names.mayBeNamespaced(target)) {
      const prefix = qualifiedName(target)
      if (prefix !== undefined) {
        const fn = this.names.lookupFunction(`${prefix}.${name}`)
        if (fn !== undefined) {
          this.resolveOverload(e, fn, undefined)
          return
        }
      }
    }
    this.check(target)
    const fn = this.names.lookupFunction(name)
    if (fn === undefined) {
      this.setType(e.id, ErrorType)
      this.error(e.id, msg.undeclaredReference(this.container, name))
      return
    }
    this.resolveOverload(e, fn, target)
  }

  private resolveOverload(e: CallExpr, fn: CheckFunction, target: Expr | undefined): void {
    const args = e.args
    const argTypes = this.scratch.argTypes
    let n = 0
    if (target !== undefined) argTypes[n++] = this.typeOf(target)
    for (let i = 0; i < args.length; i++) argTypes[n++] = this.typeOf(args[i]!)
    const member = target !== undefined
    const filterCrossType = this.crossTypeFilter
    const overloads = member ? fn.member : fn.global
    // A call of a many-overload function on plain types is resolved once per environment (resolutions)
    let key: string | undefined
    if (overloads.length >= MEMO_MIN_OVERLOADS && !fn.logical) {
      key = resolutionKey(argTypes, n, member, filterCrossType)
      const hit = key === undefined ? undefined : resolutions.get(fn)?.get(key)
      if (hit !== undefined) {
        this.freeTypeVars += hit.vars
        this.setType(e.id, hit.result)
        this.refs.set(e.id, hit.ref)
        return
      }
    }
    const varsBefore = this.freeTypeVars
    let result: Type | undefined
    let first: CheckOverload | undefined
    let ids: string[] | undefined
    for (const o of overloads) {
      if (o.crossType && filterCrossType) continue
      if (fn.logical) {
        this.resolveLogical(e, o.ref, target, argTypes, n)
        return
      }
      const tps = o.typeParams
      let params = o.params
      let resultDecl = o.result
      // cel-go instantiates the type parameters of every overload of the right call style with
      // fresh variables before comparing arity, so `_varN` numbering (seen in messages) matches.
      const base = this.freeTypeVars
      this.freeTypeVars += tps.length
      if (params.length !== n) continue
      if (tps.length > 0) {
        const inst = this.scratch.instParams
        for (let i = 0; i < n; i++) {
          // A dyn argument accepts a composite parameter without looking inside (no bindings),
          // so that parameter need not be instantiated: saves allocations on dyn-heavy rules.
          const p = params[i]!
          inst[i] = p.params.length > 0 && isDynOrError(argTypes[i]!) ? p : instantiate(p, tps, base, typeVar)
        }
        params = inst
      }
      if (!isAssignableList(this.mapping, argTypes, params, n)) continue
      if (first === undefined) first = o
      else if (ids === undefined) ids = [first.id, o.id]
      else ids.push(o.id)
      // Once the result is dyn, later matches cannot change it.
      if (result !== undefined && isDyn(result)) continue
      if (tps.length > 0) resultDecl = instantiate(resultDecl, tps, base, typeVar)
      const fnResult = substitute(this.mapping, resultDecl, false)
      if (result === undefined) result = fnResult
      else if (!isExactType(fnResult, result)) result = DynType
    }
    if (result === undefined) {
      const shown: Type[] = []
      for (let i = 0; i < n; i++) shown.push(substitute(this.mapping, argTypes[i]!, true))
      this.error(e.id, msg.noMatchingOverload(fn.name, shown, member))
      this.setType(e.id, ErrorType)
      return
    }
    const ref: Reference = ids === undefined ? first!.ref : { kind: 'function', name: fn.name, overloadIds: ids }
    this.setType(e.id, result)
    this.refs.set(e.id, ref)
    if (key !== undefined && isGround(result)) remember(fn, key, { result, ref, vars: this.freeTypeVars - varsBefore })
  }

  /** `&&` / `||`: each argument must be a bool; mismatches are reported per argument. */
  private resolveLogical(e: CallExpr, ref: Reference, target: Expr | undefined, argTypes: Type[], n: number): void {
    let ok = true
    for (let i = 0; i < n; i++) {
      if (!isAssignable(this.mapping, argTypes[i]!, BoolType)) {
        const at = target === undefined ? e.args[i]! : i === 0 ? target : e.args[i - 1]!
        this.error(at.id, msg.typeMismatch(BoolType, argTypes[i]!))
        ok = false
      }
    }
    if (!ok) {
      this.setType(e.id, ErrorType)
      return
    }
    this.setType(e.id, BoolType)
    this.refs.set(e.id, ref)
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
    this.setType(e.id, listOf(elems ?? typeVar(this.freeTypeVars++)))
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
    this.setType(e.id, mapOf(keys, values))
  }

  private checkStruct(e: StructExpr): void {
    const t = this.names.lookupIdent(e.typeName)
    if (t === undefined) {
      this.error(e.id, msg.undeclaredReference(this.container, e.typeName))
      this.setType(e.id, ErrorType)
      return
    }
    let typeName = this.names.resolvedName
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
    this.setType(e.id, result)
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
    const outer = this.names.depth
    this.crossTypeFilter = false
    this.names.declare(e.accuVar, accuType)
    this.names.declare(e.iterVar, varType)
    if (two) this.names.declare(e.iterVar2!, var2Type)
    this.check(e.loopCondition)
    this.assertType(e.loopCondition, BoolType)
    this.check(e.loopStep)
    this.assertType(e.loopStep, accuType)
    // The result sees the accumulator but not the iteration variables.
    this.names.exitTo(outer + 1)
    this.check(e.result)
    this.names.exitTo(outer)
    this.setType(e.id, substitute(this.mapping, this.typeOf(e.result), false))
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

  private typeOf(e: Expr): Type {
    return this.types.get(e.id) ?? ErrorType
  }

  /** Every issue reported, including those past the display limit (cel-go Errors.numErrors). */
  errorCount = 0

  private error(id: number, message: string): void {
    this.errorCount++
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
