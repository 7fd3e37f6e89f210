import type { CheckedAst, TypeProvider } from '../checker/index.js'
import type { CallExpr, ComprehensionExpr, Expr, LiteralValue, ParsedAst } from '../common/ast.js'
import { ErrorValue } from '../common/errors.js'
import { ListCreateBaseCost, MapCreateBaseCost, type RuntimeCost, StructCreateBaseCost } from '../cost/costs.js'
import { setMembershipCost } from '../cost/runtime.js'
import type { Env } from '../env.js'
import type { Impl } from '../functions.js'
import { STANDARD_TYPE_VALUES } from '../types/types.js'
import { buildMap } from '../values/maps.js'
import { qualifierGoType } from '../values/typeof.js'
import { CelMap, type CelValue, Kind, kindOf, mkDouble, mkInt, Optional, Uint } from '../values/values.js'
import { makeDispatcher } from './dispatch.js'
import { freeRoot, isAttribute, type OpName, type Plan } from './plan.js'

/** Functions with a binary singleton binding (common/stdlib/standard.go, ext/lists.go). */
const binarySingletons = new Set([
  '_+_',
  '_-_',
  '_*_',
  '_/_',
  '_%_',
  '_<_',
  '_<=_',
  '_>_',
  '_>=_',
  '_==_',
  '_!=_',
  '@in',
  'matches',
  '@sortByAssociatedKeys',
])

/** Names that denote type values when no variable of that name is declared. */
const typeNames = STANDARD_TYPE_VALUES

/** cel-go overloads.IsTypeConversionFunction. */
const conversionFunctions = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'string',
  'timestamp',
  'type',
  'uint',
])

const fastOps: Readonly<Record<string, OpName>> = {
  '_==_': 'eq',
  '_!=_': 'ne',
  '_<_': 'lt',
  '_<=_': 'le',
  '_>_': 'gt',
  '_>=_': 'ge',
  '_+_': 'add',
  '_-_': 'sub',
  '_[_]': 'index',
  '@in': 'in',
  '!_': 'not',
}

/** A failure creating the program (cel-go env.Program): reported without a position, in cel-go's words. */
export class ProgramError extends Error {}

/** A problem found while planning (unknown function, ...): reported as a check-stage error. */
export class PlanError extends Error {
  constructor(
    message: string,
    readonly exprId: number,
  ) {
    super(message)
  }
}

export function literal(l: LiteralValue): CelValue {
  switch (l.type) {
    case 'int':
      return mkInt(l.value)
    case 'uint':
      return new Uint(l.value)
    case 'double':
      return mkDouble(l.value)
    default:
      return l.value
  }
}

interface Scope {
  readonly parent: Scope | undefined
  readonly name: string
  readonly slot: number
  readonly accu: boolean
  /** The accumulator starts as a fresh list built in place by `accu + [x]` steps. */
  readonly appendable: boolean
}

export class Planner {
  slots = 0

  constructor(
    private readonly env: Env,
    private readonly ast: ParsedAst,
    /** cel-go without the checker: unknown names and functions fail at run time, not at compile time. */
    private readonly disableCheck = false,
    /** cel-go's OptOptimize (Kubernetes sets it): constant calls and literals are folded at compile time. */
    private readonly optimize = true,
    /** Builds message values (`T{...}`) when it implements newValue. */
    private readonly provider?: TypeProvider,
  ) {}

  /**
   * cel-go's OptOptimize (interpreter decOptimize) folds type conversions of a constant
   * (`double(5)`, `duration('1h')`) and literals of constants; other calls stay calls (so
   * `double(5) < 10.0` still costs 1). A conversion that fails fails the program's creation with its
   * error (decorators.go maybeOptimizeConstUnary: `int('')` is refused when the expression compiles).
   */
  private fold(p: Plan): Plan {
    if (!this.optimize || p.op !== 'call' || !conversionFunctions.has(p.fn) || p.args.length !== 1) return p
    const arg = p.args[0]!
    if (arg.op !== 'const' || arg.cost !== undefined) return p
    try {
      return { op: 'const', value: p.impl(arg.value) }
    } catch (err) {
      if (err instanceof ErrorValue) throw new ProgramError(err.message)
      return p
    }
  }

  plan(): Plan {
    return this.expr(this.ast.expr, undefined)
  }

  private lookup(scope: Scope | undefined, name: string): Scope | undefined {
    for (let s = scope; s; s = s.parent) if (s.name === name) return s
    return undefined
  }

  private expr(e: Expr, scope: Scope | undefined): Plan {
    switch (e.kind) {
      case 'literal':
        return { op: 'const', value: literal(e.value) }
      case 'ident': {
        const local = this.lookup(scope, e.name)
        if (local) return local.accu ? { op: 'accu', slot: local.slot } : { op: 'local', slot: local.slot }
        return (
          this.qualified([e.name], scope) ??
          this.fail(e.id, `undeclared reference to '${e.name}' (in container '${this.env.container}')`)
        )
      }
      case 'select': {
        if (!e.testOnly) {
          const ids: number[] = []
          const path = this.path(e, scope, ids)
          if (path) {
            const q = this.qualified(path, scope, ids)
            if (q) return q
          }
        }
        const operand = this.expr(e.operand, scope)
        const rel = isAttribute(operand) ? {} : { rel: true as const }
        return e.testOnly
          ? { op: 'has', operand, field: e.field, id: e.id, ...rel }
          : { op: 'select', operand, field: e.field, id: e.id, ...rel }
      }
      case 'call':
        return this.call(e, scope)
      case 'list': {
        const elems = e.elements.map((x) => this.expr(x, scope))
        const optional = e.elements.map((_, i) => e.optionalIndices.includes(i))
        if (!optional.includes(true) && elems.every((p) => p.op === 'const' && p.cost === undefined)) {
          const value = Object.freeze(elems.map((p) => (p as { value: CelValue }).value))
          return this.optimize ? { op: 'const', value } : { op: 'const', value, cost: ListCreateBaseCost }
        }
        return { op: 'list', elems, optional, id: e.id }
      }
      case 'map': {
        const keys = e.entries.map((x) => this.expr(x.key, scope))
        const values = e.entries.map((x) => this.expr(x.value, scope))
        const optional = e.entries.map((x) => x.optional)
        if (!optional.includes(true) && [...keys, ...values].every((p) => p.op === 'const' && p.cost === undefined)) {
          try {
            const value = buildMap(
              keys.map((p) => (p as { value: CelValue }).value),
              values.map((p) => (p as { value: CelValue }).value),
            )
            // Constants are shared by every evaluation: freeze what can be frozen (results are read-only).
            if (typeof value === 'object' && value !== null && !(value instanceof CelMap)) Object.freeze(value)
            return this.optimize ? { op: 'const', value } : { op: 'const', value, cost: MapCreateBaseCost }
          } catch (err) {
            if (err instanceof ErrorValue) return { op: 'fail', message: err.message, id: e.id }
            throw err
          }
        }
        return { op: 'map', keys, values, optional, id: e.id }
      }
      case 'struct': {
        const provider = this.provider
        if (provider?.newValue !== undefined) {
          // cel-go evalObj: the fields evaluated in order, then types.Provider.NewValue; an optional
          // field (`?f: opt`) is set only when the optional has a value; StructCreateBaseCost (40)
          const names = e.fields.map((f) => f.field)
          const optional = e.fields.map((f) => f.optional)
          const typeName = e.typeName.startsWith('.') ? e.typeName.slice(1) : e.typeName
          const newValue = provider.newValue.bind(provider)
          const impl = (...values: CelValue[]): CelValue => {
            const fields: Record<string, CelValue> = {}
            for (let i = 0; i < names.length; i++) {
              const v = values[i] as CelValue
              if (optional[i]) {
                if (!(v instanceof Optional))
                  throw new ErrorValue(
                    `cannot initialize optional entry '${names[i]}' from non-optional value ${String(v)}`,
                  )
                if (v.value === undefined) continue
                defineField(fields, names[i] as string, v.value)
              } else defineField(fields, names[i] as string, v)
            }
            return newValue(typeName, fields)
          }
          return {
            op: 'call',
            impl: impl as Impl,
            args: e.fields.map((f) => this.expr(f.value, scope)),
            id: e.id,
            fn: `${typeName}{}`,
            cost: () => StructCreateBaseCost,
          }
        }
        const message = `unknown type '${e.typeName}': message construction needs protobuf types`
        if (this.disableCheck) return { op: 'fail', message, id: e.id }
        throw new PlanError(message, e.id)
      }
      case 'comprehension':
        return this.comprehension(e, scope)
    }
  }

  /** The dotted path of an ident/select chain (`a.b.c`), unless its root is a comprehension variable. */
  private path(e: Expr, scope: Scope | undefined, ids?: number[]): string[] | undefined {
    // Find the root first: most chains that are not qualified names start at a comprehension variable.
    let cur: Expr = e
    while (cur.kind === 'select' && !cur.testOnly) cur = cur.operand
    if (cur.kind !== 'ident' || this.lookup(scope, cur.name)) return undefined
    const parts: string[] = []
    for (let x: Expr = e; x.kind === 'select'; x = x.operand) {
      parts.push(x.field)
      ids?.push(x.id)
    }
    parts.push(cur.name)
    ids?.push(cur.id)
    ids?.reverse()
    return parts.reverse()
  }

  /** Container-qualified candidates of a name, most qualified first (cel-go's ResolveCandidateNames). */
  private candidateNames(name: string): string[] {
    if (name.startsWith('.')) return [name.slice(1)]
    const out: string[] = []
    let c = this.env.container
    while (c !== '') {
      out.push(`${c}.${name}`)
      const i = c.lastIndexOf('.')
      c = i < 0 ? '' : c.slice(0, i)
    }
    out.push(name)
    return out
  }

  /**
   * Resolves a dotted path: the longest prefix that names a declared variable wins, then the
   * remaining parts are field selections. Without declarations, resolution waits for the activation.
   */
  private qualified(path: string[], _scope: Scope | undefined, ids: readonly number[] = []): Plan | undefined {
    const env = this.env
    if (env.container === '' && !env.hasDottedVariables && env.variables.has(path[0]!)) {
      // The common case (declared `self`, `object`, ...): no other candidate can win.
      let p: Plan = { op: 'var', name: path[0]! }
      for (let i = 1; i < path.length; i++) p = { op: 'select', operand: p, field: path[i]!, id: ids[i] ?? 0 }
      return p
    }
    const candidates: { name: string; fields: string[] }[] = []
    for (let k = path.length; k >= 1; k--) {
      const head = path.slice(0, k).join('.')
      for (const name of this.candidateNames(head)) {
        const fields = path.slice(k)
        if (this.env.variables.has(name)) {
          let p: Plan = { op: 'var', name }
          fields.forEach((f, i) => {
            p = { op: 'select', operand: p, field: f, id: ids[k + i] ?? 0 }
          })
          return p
        }
        candidates.push({ name, fields })
      }
    }
    // A type name (int, list, google.protobuf.Timestamp, ...).
    const full = path.join('.')
    const t = typeNames.get(full) ?? this.env.types.get(full)
    if (t) return { op: 'const', value: t }
    // With declared variables, an undeclared name is an error (as the checker reports it);
    // without declarations, the name is looked up in the activation at run time.
    if (this.env.variables.size > 0 && !this.disableCheck) return undefined
    return { op: 'attr', candidates }
  }

  private fail(id: number, message: string): never {
    throw new PlanError(message, id)
  }

  private call(e: CallExpr, scope: Scope | undefined): Plan {
    const args = e.args
    switch (e.fn) {
      case '_&&_':
      case '_||_':
        if (!e.target && args.length === 2)
          return {
            op: e.fn === '_&&_' ? 'and' : 'or',
            left: this.expr(args[0]!, scope),
            right: this.expr(args[1]!, scope),
            id: e.id,
          }
        break
      case '_?_:_':
        if (!e.target && args.length === 3) {
          // cel-go planCallConditional: a branch that is an attribute is resolved without observing its root.
          return {
            op: 'cond',
            test: this.expr(args[0]!, scope),
            ifTrue: freeRoot(this.expr(args[1]!, scope)),
            ifFalse: freeRoot(this.expr(args[2]!, scope)),
            id: e.id,
          }
        }
        break
      case '@not_strictly_false':
        if (!e.target && args.length === 1) return { op: 'nsf', arg: this.expr(args[0]!, scope) }
        break
      case '_?._': {
        const f = args[1]
        if (!e.target && args.length === 2 && f?.kind === 'literal' && f.value.type === 'string') {
          const operand = this.expr(args[0]!, scope)
          const rel = isAttribute(operand) ? {} : { rel: true as const }
          return { op: 'optSelect', operand, field: f.value.value, id: e.id, ...rel }
        }
        break
      }
      case '_[?_]':
        if (!e.target && args.length === 2) {
          const operand = this.expr(args[0]!, scope)
          const key = constQualifier(this.expr(args[1]!, scope))
          const extra = indexExtra(operand, key)
          return { op: 'optIndex', operand, key, id: e.id, ...(extra ? { extra } : {}) }
        }
        break
      case '_+_': {
        // `accu + [x]` inside a fold that owns a fresh list accumulator: append in place.
        const a0 = args[0]
        const a1 = args[1]
        if (!e.target && a0?.kind === 'ident' && a1?.kind === 'list' && a1.optionalIndices.length === 0) {
          const s = this.lookup(scope, a0.name)
          if (s?.accu && s.appendable) {
            const elems = a1.elements.map((x) => this.expr(x, scope))
            // OptOptimize builds a list of constants once (decorators.go maybeBuildListLiteral): `[1]` in
            // `map(x, 1)` costs nothing per step, only the accumulator and the `+`
            const constant = this.optimize && elems.every((x) => x.op === 'const' && x.cost === undefined)
            return { op: 'accuAppend', accu: s.slot, elems, constant }
          }
        }
        break
      }
    }
    if ((e.fn === 'or' || e.fn === 'orValue') && e.target && args.length === 1 && this.env.functions.has(e.fn))
      return {
        op: 'optOr',
        kind: e.fn,
        left: this.expr(e.target, scope),
        right: this.expr(args[0]!, scope),
        id: e.id,
        // cel-go v0.29 refuses a receiver that is not an optional
        v029: this.env.features.celGo >= 29,
      }
    const fast = fastOps[e.fn]
    if (fast && !e.target) {
      const planArgs = args.map((a) => this.expr(a, scope))
      if (fast === 'index' && planArgs.length === 2) {
        constQualifier(planArgs[1]!)
        const extra = indexExtra(planArgs[0]!, planArgs[1]!)
        return { op: 'opt', name: fast, args: planArgs, id: e.id, ...this.costOf(e.fn, e), ...(extra ? { extra } : {}) }
      }
      if (fast === 'in') {
        const member = this.setMembership(e, planArgs)
        if (member) return member
      }
      return this.fold({
        op: 'opt',
        name: fast,
        args: planArgs,
        id: e.id,
        ...this.costOf(e.fn, e),
        ...this.overloadId(e),
      })
    }
    if (e.fn === 'size' && ((e.target && args.length === 0) || (!e.target && args.length === 1))) {
      const a = e.target ?? args[0]!
      return this.fold({ op: 'opt', name: 'size', args: [this.expr(a, scope)], id: e.id, ...this.costOf('size', e) })
    }
    // `ns.fn(x)` where `ns.fn` is a qualified global function (strings.quote, optional.of, sets.contains, ...).
    if (e.target) {
      const path = this.path(e.target, scope)
      if (path) {
        const qualified = `${path.join('.')}.${e.fn}`
        for (const name of this.candidateNames(qualified)) {
          if (this.env.functions.has(name) && !this.env.variables.has(path[0]!))
            return this.global(name, args, e, scope)
        }
      }
      const d = this.staticImpl(e, e.fn, true, args.length + 1) ?? this.env.dispatcher(e.fn, true, args.length + 1)
      if (!d) return this.unknown(e)
      const planArgs = [this.expr(e.target, scope), ...args.map((a) => this.expr(a, scope))]
      const optimized = this.prepareConstants(e.fn, planArgs)
      return this.fold({
        op: 'call',
        impl: optimized ?? d,
        args: planArgs,
        id: e.id,
        fn: e.fn,
        ...this.costOf(e.fn, e),
        ...this.varArgs(e.fn, e, planArgs),
        ...this.overloadId(e),
      })
    }
    for (const name of this.candidateNames(e.fn)) {
      if (this.env.functions.has(name)) return this.global(name, args, e, scope)
    }
    return this.unknown(e)
  }

  /**
   * The overload the checker chose, when its reference names exactly one: bound directly (no
   * overload search), still behind its run-time argument guards, as cel-go guards every overload
   * (common/decls matchRuntimeArgType): a dyn value, or a null the checker lets through, may not
   * have the declared type at run time.
   */
  private staticImpl(e: CallExpr, name: string, member: boolean, argc: number): Impl | undefined {
    const ref = (this.ast as Partial<CheckedAst>).refs?.get(e.id)
    if (ref?.kind !== 'function' || ref.overloadIds.length !== 1) return undefined
    const fn = this.env.functions.get(name)
    const o = fn?.overloads.find((x) => x.id === ref.overloadIds[0])
    if (!fn || !o || o.member !== member || o.params.length !== argc) return undefined
    return makeDispatcher({ name, overloads: [o] }, member, argc)
  }

  /**
   * Library preparations of constant arguments (regex patterns compiled when the program is created);
   * the implementation that replaces the call when a preparation has one.
   */
  private prepareConstants(fn: string, args: readonly Plan[]): Impl | undefined {
    const preps = this.env.constantArgs.get(fn)
    if (!preps) return
    let impl: Impl | undefined
    for (const p of preps) {
      const a = args[p.argIndex]
      if (a?.op !== 'const') continue
      try {
        p.prepare(a.value)
      } catch (err) {
        if (err instanceof ErrorValue) throw new ProgramError(err.message)
        throw err
      }
      impl ??= p.impl
    }
    return impl
  }

  private global(name: string, args: readonly Expr[], e: CallExpr, scope: Scope | undefined): Plan {
    const d = this.staticImpl(e, name, false, args.length) ?? this.env.dispatcher(name, false, args.length)
    if (!d) return this.unknown(e)
    const planArgs = args.map((a) => this.expr(a, scope))
    return this.fold({
      op: 'call',
      impl: d,
      args: planArgs,
      id: e.id,
      fn: name,
      ...this.costOf(name, e),
      ...this.varArgs(name, e, planArgs),
      ...this.overloadId(e),
    })
  }

  /**
   * planner.go planCall: three or more arguments are evalVarArgs; so are two when the function the
   * checker left unresolved dispatches through its function-level binding (decls.go Bindings: several
   * overloads, no singleton), i.e. any function but the standard singletons.
   */
  private varArgs(fn: string, e: CallExpr, args: readonly Plan[]): { varArgs?: true } {
    const argc = args.length
    // string_format has only a function binding (ext/strings.go)
    if (argc >= 3 || (argc === 2 && fn === 'format')) return { varArgs: true }
    if (this.regexOptimized(fn, args)) return { varArgs: true }
    if (argc !== 2 || binarySingletons.has(fn)) return {}
    const ref = (this.ast as Partial<CheckedAst>).refs?.get(e.id)
    return ref?.kind === 'function' && ref.overloadIds.length > 1 ? { varArgs: true } : {}
  }

  /**
   * cel-go's regex optimizations (interpreter/decorators.go decRegexOptimizer): a call whose pattern is a
   * constant string is replaced by the optimization's Factory, which builds it with interpreter.NewCall, an
   * evalVarArgs, whatever its arity. `matches` (interpreter/optimizations.go MatchesRegexOptimization) under
   * OptOptimize; the library optimizations (Kubernetes' find and findAll, cel.OptimizeRegex) always.
   */
  private regexOptimized(fn: string, args: readonly Plan[]): boolean {
    const pattern = (index: number) => {
      const a = args[index]
      return a?.op === 'const' && a.cost === undefined && typeof a.value === 'string'
    }
    if (fn === 'matches') return this.optimize && pattern(1)
    return this.env.constantArgs.get(fn)?.some((c) => pattern(c.argIndex)) ?? false
  }

  /**
   * cel-go's OptOptimize decorator maybeOptimizeSetMembership (interpreter/decorators.go): `x in L`,
   * checked as `in_list` with L a constant list of primitives other than bytes, becomes
   * evalSetMembership, which the cost observer does not charge (it is not a call); an empty L makes
   * the whole `in` the constant false (x is not evaluated).
   */
  private setMembership(e: CallExpr, args: readonly Plan[]): Plan | undefined {
    const list = args[1]
    if (!this.optimize || list?.op !== 'const' || list.cost !== undefined || !Array.isArray(list.value)) return
    const ref = (this.ast as Partial<CheckedAst>).refs?.get(e.id)
    if (ref?.kind !== 'function' || ref.overloadIds.length !== 1 || ref.overloadIds[0] !== 'in_list') return
    if (list.value.length === 0) return { op: 'const', value: false }
    if (!list.value.every(isSetPrimitive)) return
    return { op: 'opt', name: 'in', args, id: e.id, cost: setMembershipCost }
  }

  /**
   * The call's run-time cost. A function cel-go charges by overload id costs 1 unless the checker
   * resolved the call to one of its charged overloads (interpreter/runtimecost.go costCall with
   * call.OverloadID(), "" when the reference holds several); an unchecked AST keeps the cost the
   * arguments select.
   */
  private costOf(fn: string, e: CallExpr): { cost?: RuntimeCost } {
    const ref = (this.ast as Partial<CheckedAst>).refs?.get(e.id)
    const keyed = this.env.overloadKeyedCosts.get(fn)
    if (keyed && ref?.kind === 'function' && (ref.overloadIds.length !== 1 || !keyed.has(ref.overloadIds[0]!)))
      return {}
    const cost = this.env.costs.get(fn)
    // several candidates: a cost that reads the overload id sees '' as cel-go's does
    if (cost && ref?.kind === 'function' && ref.overloadIds.length > 1) return { cost: (a, r) => cost(a, r, '') }
    return cost ? { cost } : {}
  }

  /** The overload the checker resolved the call to, when it is one (cel-go's call.OverloadID()). */
  private overloadId(e: CallExpr): { overloadId?: string } {
    const ref = (this.ast as Partial<CheckedAst>).refs?.get(e.id)
    return ref?.kind === 'function' && ref.overloadIds.length === 1 ? { overloadId: ref.overloadIds[0]! } : {}
  }

  private unknown(e: CallExpr): Plan {
    if (this.disableCheck) return { op: 'fail', message: `no such overload: ${e.fn}`, id: e.id }
    if (!this.env.functions.has(e.fn))
      this.fail(e.id, `undeclared reference to '${e.fn}' (in container '${this.env.container}')`)
    const n = e.args.length + (e.target ? 1 : 0)
    this.fail(e.id, `found no matching overload for '${e.fn}' with ${n} argument${n === 1 ? '' : 's'}`)
  }

  private comprehension(e: ComprehensionExpr, scope: Scope | undefined): Plan {
    const range = this.expr(e.iterRange, scope)
    const iterSlot = this.slots++
    const inner: Scope = { parent: scope, name: e.iterVar, slot: iterSlot, accu: false, appendable: false }
    const special = e.iterVar2 === undefined ? this.macroShape(e, range, inner, iterSlot) : undefined
    if (special) return special
    let s2: Scope = inner
    let iter2: number | undefined
    if (e.iterVar2 !== undefined) {
      iter2 = this.slots++
      s2 = { parent: inner, name: e.iterVar2, slot: iter2, accu: false, appendable: false }
    }
    const accuSlot = this.slots++
    const init0 = this.expr(e.accuInit, scope)
    const emptyList = init0.op === 'const' && Array.isArray(init0.value) && init0.value.length === 0
    const init: Plan = emptyList
      ? { op: 'fresh', kind: 'list', ...(init0.cost !== undefined ? { cost: init0.cost } : {}) }
      : init0
    const accuScope: Scope = { parent: s2, name: e.accuVar, slot: accuSlot, accu: true, appendable: emptyList }
    return {
      op: 'fold',
      range,
      iter: iterSlot,
      ...(iter2 !== undefined ? { iter2 } : {}),
      accu: accuSlot,
      init,
      cond: this.expr(e.loopCondition, accuScope),
      step: this.expr(e.loopStep, accuScope),
      result: this.expr(e.result, { parent: scope, name: e.accuVar, slot: accuSlot, accu: true, appendable: false }),
      id: e.id,
    }
  }

  /**
   * Recognises the standard macro expansions (cel-go parser/macro.go) and gives them dedicated
   * loops with the same results: all, exists, exists_one, map (2 and 3 args) and filter.
   */
  private macroShape(e: ComprehensionExpr, range: Plan, inner: Scope, iter: number): Plan | undefined {
    const accu = e.accuVar
    const isAccu = (x: Expr | undefined) => x?.kind === 'ident' && x.name === accu
    const call = (x: Expr | undefined, fn: string, n: number): CallExpr | undefined =>
      x?.kind === 'call' && x.fn === fn && !x.target && x.args.length === n ? x : undefined
    const lit = (x: Expr | undefined) => (x?.kind === 'literal' ? x.value : undefined)
    // The predicate must not refer to the accumulator (it cannot in macro expansions).
    const refersToAccu = (x: Expr): boolean => {
      switch (x.kind) {
        case 'ident':
          return x.name === accu
        case 'select':
          return refersToAccu(x.operand)
        case 'call':
          return (x.target !== undefined && refersToAccu(x.target)) || x.args.some(refersToAccu)
        case 'list':
          return x.elements.some(refersToAccu)
        case 'map':
          return x.entries.some((en) => refersToAccu(en.key) || refersToAccu(en.value))
        case 'struct':
          return x.fields.some((f) => refersToAccu(f.value))
        case 'comprehension':
          return [x.iterRange, x.accuInit, x.loopCondition, x.loopStep, x.result].some(refersToAccu)
        default:
          return false
      }
    }
    const init = lit(e.accuInit)
    const result = e.result
    // all: init true, cond @not_strictly_false(accu), step accu && P, result accu
    const and = call(e.loopStep, '_&&_', 2)
    if (init?.type === 'bool' && init.value === true && and && isAccu(and.args[0]) && isAccu(result)) {
      const c = call(e.loopCondition, '@not_strictly_false', 1)
      if (c && isAccu(c.args[0]) && !refersToAccu(and.args[1]!))
        return { op: 'all', range, iter, pred: this.expr(and.args[1]!, inner), id: e.id }
    }
    // exists: init false, cond @not_strictly_false(!accu), step accu || P, result accu
    const or = call(e.loopStep, '_||_', 2)
    if (init?.type === 'bool' && init.value === false && or && isAccu(or.args[0]) && isAccu(result)) {
      const c = call(e.loopCondition, '@not_strictly_false', 1)
      const not = call(c?.args[0], '!_', 1)
      if (not && isAccu(not.args[0]) && !refersToAccu(or.args[1]!))
        return { op: 'exists', range, iter, pred: this.expr(or.args[1]!, inner), id: e.id }
    }
    const condTrue = lit(e.loopCondition)?.type === 'bool' && lit(e.loopCondition)?.value === true
    if (!condTrue) return undefined
    const tern = call(e.loopStep, '_?_:_', 3)
    // exists_one: init 0, step P ? accu + 1 : accu, result accu == 1
    if (init?.type === 'int' && init.value === 0n && tern && isAccu(tern.args[2])) {
      const plus = call(tern.args[1], '_+_', 2)
      const one = lit(plus?.args[1])
      const eq = call(result, '_==_', 2)
      const eqOne = lit(eq?.args[1])
      if (
        plus &&
        isAccu(plus.args[0]) &&
        one?.type === 'int' &&
        one.value === 1n &&
        eq &&
        isAccu(eq.args[0]) &&
        eqOne?.type === 'int' &&
        eqOne.value === 1n &&
        !refersToAccu(tern.args[0]!)
      )
        return { op: 'existsOne', range, iter, pred: this.expr(tern.args[0]!, inner), id: e.id }
    }
    const emptyList = e.accuInit.kind === 'list' && e.accuInit.elements.length === 0
    if (!emptyList || !isAccu(result)) return undefined
    // Without OptOptimize the `[]` accumulator literal is a list construction (cel-go charges it).
    const initCost = this.optimize ? {} : { initCost: ListCreateBaseCost }
    const appendOf = (x: Expr | undefined): Expr | undefined => {
      const p = call(x, '_+_', 2)
      const l = p?.args[1]
      if (p && isAccu(p.args[0]) && l?.kind === 'list' && l.elements.length === 1 && l.optionalIndices.length === 0)
        return refersToAccu(l.elements[0]!) ? undefined : l.elements[0]
      return undefined
    }
    // map(x, t): step accu + [t]
    const t = appendOf(e.loopStep)
    const constStep = (x: Plan) =>
      this.optimize && x.op === 'const' && x.cost === undefined ? { constStep: true } : {}
    if (t) {
      const transform = this.expr(t, inner)
      return { op: 'mapList', range, iter, transform, id: e.id, ...initCost, ...constStep(transform) }
    }
    // filter(x, p): step p ? accu + [x] : accu ; map(x, p, t): step p ? accu + [t] : accu
    if (tern && isAccu(tern.args[2]) && !refersToAccu(tern.args[0]!)) {
      const el = appendOf(tern.args[1])
      if (el) {
        const pred = this.expr(tern.args[0]!, inner)
        if (el.kind === 'ident' && el.name === e.iterVar)
          return { op: 'filter', range, iter, pred, id: e.id, ...initCost }
        const transform = this.expr(el, inner)
        return { op: 'mapList', range, iter, pred, transform, id: e.id, ...initCost, ...constStep(transform) }
      }
    }
    return undefined
  }
}

/**
 * An index that is a constant (a literal, or with OptOptimize a folded list, map or conversion) becomes
 * a qualifier when cel-go plans the program (planner.go planCallIndex, attributes.go newQualifier):
 * a constant it does not take fails the program's creation (`{'a': 1}[dyn(['a'])]`, `object[null]`).
 */
function constQualifier(key: Plan): Plan {
  if (key.op !== 'const' || key.cost !== undefined) return key
  const goType = qualifierGoType(key.value)
  if (goType !== undefined) throw new ProgramError(`invalid qualifier type: ${goType}`)
  return key
}

/** cel-go types.IsPrimitiveType without bytes: the element kinds maybeOptimizeSetMembership hashes. */
function isSetPrimitive(v: CelValue): boolean {
  switch (kindOf(v)) {
    case Kind.Bool:
    case Kind.Int:
    case Kind.Uint:
    case Kind.Double:
    case Kind.String:
      return true
    default:
      return false
  }
}

/**
 * `extra` of an index (see Plan `opt`): +1 for a relative operand, -1 for an attribute key (cel-go resolves
 * it without observing its root; the qualification's observation stands for it). A conditional key has no
 * root cost to take back (planner.go planCallConditional: its attrQualifier is still observed once).
 */
function indexExtra(operand: Plan, key: Plan): number {
  return (isAttribute(operand) ? 0 : 1) - (isAttribute(key) && key.op !== 'cond' ? 1 : 0)
}

/** A struct field set as an own data property: a field named `__proto__` is a field, not the prototype. */
function defineField(fields: Record<string, CelValue>, name: string, v: CelValue): void {
  Object.defineProperty(fields, name, { value: v, writable: true, enumerable: true, configurable: true })
}
