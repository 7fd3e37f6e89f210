import type { Expr } from '../common/ast.js'
import {
  call,
  comprehension,
  EMPTY,
  FALSE_VALUE,
  INT_ONE,
  INT_ZERO,
  ident,
  list,
  literal as lit,
  map,
  select,
  TRUE_VALUE,
} from './nodes.js'

// Parser macros, expanded exactly as cel-go v0.26 expands them (parser/macro.go,
// ext/comprehensions.go, ext/lists.go sortBy, cel/library.go optMap/optFlatMap,
// ext/bindings.go cel.bind): same node shapes, same accumulator, and the same order of id
// allocation (cel-go allocates a node's id after its children, in Go argument order).

/** What an expander may ask of the parser. */
export interface MacroHelper {
  /** A fresh id located at the macro call (cel-go's exprHelper.nextMacroID). */
  id(): number
  /** The accumulator variable name (`@result`, or `__result__` when the hidden name is off). */
  readonly accuName: string
  /** A copy of `e` with fresh ids that keep the original offsets (cel-go's ExprHelper.Copy). */
  copy(e: Expr): Expr
}

/** A macro whose arguments are malformed: reported at the expression `exprId`. */
export class MacroError {
  constructor(
    readonly exprId: number,
    readonly message: string,
  ) {}
}

/** Returns the expansion, a MacroError, or undefined when the call is not a macro after all. */
export type MacroExpander = (
  h: MacroHelper,
  target: Expr | undefined,
  args: readonly Expr[],
) => Expr | MacroError | undefined

export interface MacroDef {
  /** Option name: the function name, or `cel.bind` for the namespaced bind macro. */
  readonly name: string
  readonly fn: string
  readonly argc: number
  readonly receiver: boolean
  readonly expand: MacroExpander
}

/** The legacy accumulator name; cel-go rejects it as an iteration variable even when hidden names are on. */
export const ACCUMULATOR_NAME = '__result__'
export const HIDDEN_ACCUMULATOR_NAME = '@result'

const NOT_STRICTLY_FALSE = '@not_strictly_false'
const MAP_INSERT = 'cel.@mapInsert'
const UNUSED_ITER_VAR = '#unused'

const accu = (h: MacroHelper) => ident(h.id(), h.accuName)
const gcall = (h: MacroHelper, fn: string, ...args: Expr[]) => call(h.id(), fn, undefined, args)
const mcall = (h: MacroHelper, fn: string, target: Expr, ...args: Expr[]) => call(h.id(), fn, target, args)
const boolLit = (h: MacroHelper, v: boolean) => lit(h.id(), v ? TRUE_VALUE : FALSE_VALUE)
const newList = (h: MacroHelper, ...elems: Expr[]) => list(h.id(), elems, EMPTY)
// The id is taken after the children, as Go evaluates NewComprehension's arguments first.
const compr = (
  h: MacroHelper,
  range: Expr,
  v1: string,
  v2: string | undefined,
  accuVar: string,
  init: Expr,
  cond: Expr,
  step: Expr,
  result: Expr,
) => comprehension(h.id(), range, v1, v2, accuVar, init, cond, step, result)

function isAccu(h: MacroHelper, name: string): boolean {
  return name === h.accuName || name === ACCUMULATOR_NAME
}

// ---- parser/macro.go ----

function makeHas(h: MacroHelper, _t: Expr | undefined, args: readonly Expr[]): Expr | MacroError {
  const a = args[0]!
  if (a.kind === 'select') return select(h.id(), a.operand, a.field, true)
  return new MacroError(a.id, 'invalid argument to has() macro')
}

const ALL = 0
const EXISTS = 1
const EXISTS_ONE = 2

function makeQuantifier(kind: number) {
  return (h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError => {
    const a0 = args[0]!
    if (a0.kind !== 'ident') return new MacroError(a0.id, 'argument must be a simple name')
    if (isAccu(h, a0.name)) return new MacroError(a0.id, 'iteration variable overwrites accumulator variable')
    return quantifier(h, kind, target!, a0.name, undefined, args[1]!)
  }
}

function quantifier(h: MacroHelper, kind: number, target: Expr, v1: string, v2: string | undefined, pred: Expr): Expr {
  let init: Expr
  let cond: Expr
  let step: Expr
  let result: Expr
  if (kind === ALL) {
    init = boolLit(h, true)
    cond = gcall(h, NOT_STRICTLY_FALSE, accu(h))
    step = gcall(h, '_&&_', accu(h), pred)
    result = accu(h)
  } else if (kind === EXISTS) {
    init = boolLit(h, false)
    cond = gcall(h, NOT_STRICTLY_FALSE, gcall(h, '!_', accu(h)))
    step = gcall(h, '_||_', accu(h), pred)
    result = accu(h)
  } else {
    init = lit(h.id(), INT_ZERO)
    cond = boolLit(h, true)
    step = gcall(h, '_?_:_', pred, gcall(h, '_+_', accu(h), lit(h.id(), INT_ONE)), accu(h))
    result = gcall(h, '_==_', accu(h), lit(h.id(), INT_ONE))
  }
  return compr(h, target, v1, v2, h.accuName, init, cond, step, result)
}

function makeMap(h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError {
  const a0 = args[0]!
  if (a0.kind !== 'ident') return new MacroError(a0.id, 'argument is not an identifier')
  if (isAccu(h, a0.name)) return new MacroError(a0.id, 'iteration variable overwrites accumulator variable')
  const filter = args.length === 3 ? args[1] : undefined
  const fn = args.length === 3 ? args[2]! : args[1]!
  const init = newList(h)
  const cond = boolLit(h, true)
  let step: Expr = gcall(h, '_+_', accu(h), newList(h, fn))
  if (filter) step = gcall(h, '_?_:_', filter, step, accu(h))
  return compr(h, target!, a0.name, undefined, h.accuName, init, cond, step, accu(h))
}

function makeFilter(h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError {
  const a0 = args[0]!
  if (a0.kind !== 'ident') return new MacroError(a0.id, 'argument is not an identifier')
  if (isAccu(h, a0.name)) return new MacroError(a0.id, 'iteration variable overwrites accumulator variable')
  const init = newList(h)
  const cond = boolLit(h, true)
  let step: Expr = gcall(h, '_+_', accu(h), newList(h, a0))
  step = gcall(h, '_?_:_', args[1]!, step, accu(h))
  return compr(h, target!, a0.name, undefined, h.accuName, init, cond, step, accu(h))
}

// ---- ext/comprehensions.go (two-variable comprehensions) ----

function iterVars(h: MacroHelper, a0: Expr, a1: Expr): [string, string] | MacroError {
  if (a0.kind !== 'ident') return new MacroError(a0.id, 'argument must be a simple name')
  if (a1.kind !== 'ident') return new MacroError(a1.id, 'argument must be a simple name')
  if (a0.name === a1.name) return new MacroError(a1.id, `duplicate variable name: ${a0.name}`)
  if (isAccu(h, a0.name)) return new MacroError(a0.id, 'iteration variable overwrites accumulator variable')
  if (isAccu(h, a1.name)) return new MacroError(a1.id, 'iteration variable overwrites accumulator variable')
  return [a0.name, a1.name]
}

function twoVarQuantifier(kind: number) {
  return (h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError => {
    const vs = iterVars(h, args[0]!, args[1]!)
    if (vs instanceof MacroError) return vs
    return quantifier(h, kind, target!, vs[0], vs[1], args[2]!)
  }
}

function transformList(h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError {
  const vs = iterVars(h, args[0]!, args[1]!)
  if (vs instanceof MacroError) return vs
  const filter = args.length === 4 ? args[2] : undefined
  const transform = args.length === 4 ? args[3]! : args[2]!
  let step: Expr = gcall(h, '_+_', accu(h), newList(h, transform))
  if (filter) step = gcall(h, '_?_:_', filter, step, accu(h))
  const init = newList(h)
  const cond = boolLit(h, true)
  return compr(h, target!, vs[0], vs[1], h.accuName, init, cond, step, accu(h))
}

function transformMap(entry: boolean) {
  return (h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError => {
    const vs = iterVars(h, args[0]!, args[1]!)
    if (vs instanceof MacroError) return vs
    const filter = args.length === 4 ? args[2] : undefined
    const transform = args.length === 4 ? args[3]! : args[2]!
    let step: Expr = entry
      ? gcall(h, MAP_INSERT, accu(h), transform)
      : gcall(h, MAP_INSERT, accu(h), ident(h.id(), vs[0]), transform)
    if (filter) step = gcall(h, '_?_:_', filter, step, accu(h))
    const init = map(h.id(), EMPTY)
    const cond = boolLit(h, true)
    return compr(h, target!, vs[0], vs[1], h.accuName, init, cond, step, accu(h))
  }
}

// ---- cel/library.go (optional types) ----

function optMap(flat: boolean) {
  return (h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError => {
    const v = args[0]!
    if (v.kind !== 'ident') {
      return new MacroError(v.id, `${flat ? 'optFlatMap' : 'optMap'}() variable name must be a simple identifier`)
    }
    // cel-go uses the same target node twice (not a copy).
    const t = target!
    const hasValue = mcall(h, 'hasValue', t)
    const range = newList(h)
    const init = mcall(h, 'value', t)
    const cond = boolLit(h, false)
    const step = ident(h.id(), v.name)
    let mapped: Expr = compr(h, range, UNUSED_ITER_VAR, undefined, v.name, init, cond, step, args[1]!)
    if (!flat) mapped = gcall(h, 'optional.of', mapped)
    const none = gcall(h, 'optional.none')
    return gcall(h, '_?_:_', hasValue, mapped, none)
  }
}

// ---- ext/bindings.go ----

function celBind(h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError | undefined {
  // Only `cel.bind(...)`: any other receiver leaves the call as it is.
  if (target?.kind !== 'ident' || target.name !== 'cel') return undefined
  const v = args[0]!
  if (v.kind !== 'ident') return new MacroError(v.id, 'cel.bind() variable names must be simple identifiers')
  const range = newList(h)
  const cond = boolLit(h, false)
  return compr(h, range, UNUSED_ITER_VAR, undefined, v.name, args[1]!, cond, v, args[2]!)
}

// ---- ext/lists.go ----

const SORT_BY_VAR = '@__sortBy_input__'

function sortBy(h: MacroHelper, target: Expr | undefined, args: readonly Expr[]): Expr | MacroError {
  const varIdent = ident(h.id(), SORT_BY_VAR)
  const t = target!
  if (
    t.kind !== 'list' &&
    t.kind !== 'select' &&
    t.kind !== 'ident' &&
    t.kind !== 'comprehension' &&
    t.kind !== 'call'
  ) {
    return new MacroError(
      t.id,
      'sortBy can only be applied to a list, identifier, comprehension, call or select expression',
    )
  }
  const mapped = makeMap(h, h.copy(varIdent), args)
  if (mapped instanceof MacroError) return mapped
  const keyed = mcall(h, '@sortByAssociatedKeys', h.copy(varIdent), mapped)
  const range = newList(h)
  const cond = boolLit(h, false)
  return compr(h, range, UNUSED_ITER_VAR, undefined, SORT_BY_VAR, t, cond, varIdent, keyed)
}

// ---- registry ----

const def = (name: string, fn: string, argc: number, receiver: boolean, expand: MacroExpander): MacroDef => ({
  name,
  fn,
  argc,
  receiver,
  expand,
})

/** Every macro this parser knows, with cel-go's function names and argument counts. */
export const MACRO_DEFS: readonly MacroDef[] = [
  def('has', 'has', 1, false, makeHas),
  def('all', 'all', 2, true, makeQuantifier(ALL)),
  def('exists', 'exists', 2, true, makeQuantifier(EXISTS)),
  def('exists_one', 'exists_one', 2, true, makeQuantifier(EXISTS_ONE)),
  def('existsOne', 'existsOne', 2, true, makeQuantifier(EXISTS_ONE)),
  def('map', 'map', 2, true, makeMap),
  def('map', 'map', 3, true, makeMap),
  def('filter', 'filter', 2, true, makeFilter),
  def('all', 'all', 3, true, twoVarQuantifier(ALL)),
  def('exists', 'exists', 3, true, twoVarQuantifier(EXISTS)),
  def('existsOne', 'existsOne', 3, true, twoVarQuantifier(EXISTS_ONE)),
  def('exists_one', 'exists_one', 3, true, twoVarQuantifier(EXISTS_ONE)),
  def('transformList', 'transformList', 3, true, transformList),
  def('transformList', 'transformList', 4, true, transformList),
  def('transformMap', 'transformMap', 3, true, transformMap(false)),
  def('transformMap', 'transformMap', 4, true, transformMap(false)),
  def('transformMapEntry', 'transformMapEntry', 3, true, transformMap(true)),
  def('transformMapEntry', 'transformMapEntry', 4, true, transformMap(true)),
  def('optMap', 'optMap', 2, true, optMap(false)),
  def('optFlatMap', 'optFlatMap', 2, true, optMap(true)),
  def('sortBy', 'sortBy', 2, true, sortBy),
  def('cel.bind', 'bind', 3, true, celBind),
]

/** cel-go's standard macros (parser.AllMacros): has, all, exists, exists_one, existsOne, map, filter. */
export const STANDARD_MACROS: ReadonlySet<string> = new Set([
  'has',
  'all:2',
  'exists:2',
  'exists_one:2',
  'existsOne:2',
  'map:2',
  'map:3',
  'filter:2',
])

/**
 * The macros of a Kubernetes CEL environment: the standard ones, two-variable comprehensions,
 * optMap / optFlatMap and sortBy. `cel.bind` is not enabled by Kubernetes.
 */
export const KUBERNETES_MACROS: ReadonlySet<string> = new Set([
  'has',
  'all',
  'exists',
  'exists_one',
  'existsOne',
  'map',
  'filter',
  'transformList',
  'transformMap',
  'transformMapEntry',
  'optMap',
  'optFlatMap',
  'sortBy',
])

/** Macro table for one option set: key `fn:argc:r|g` → expander, plus the function names. */
export interface MacroTable {
  readonly names: ReadonlySet<string>
  readonly byKey: ReadonlyMap<string, MacroExpander>
}

const tables = new WeakMap<ReadonlySet<string>, MacroTable>()

/**
 * Builds (once per set object) the table for a set naming enabled macros: an entry is either a
 * name (`all`: every arity) or `name:argc` (`all:2`: the one-variable form only).
 */
export function macroTable(enabled: ReadonlySet<string>): MacroTable {
  let t = tables.get(enabled)
  if (!t) {
    const names = new Set<string>()
    const byKey = new Map<string, MacroExpander>()
    for (const d of MACRO_DEFS) {
      if (!enabled.has(d.name) && !enabled.has(`${d.name}:${d.argc}`)) continue
      names.add(d.fn)
      byKey.set(macroKey(d.fn, d.argc, d.receiver), d.expand)
    }
    t = { names, byKey }
    tables.set(enabled, t)
  }
  return t
}

export function macroKey(fn: string, argc: number, receiver: boolean): string {
  return `${fn}:${argc}:${receiver ? 'r' : 'g'}`
}
