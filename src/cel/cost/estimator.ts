import type { CheckedAst, Reference } from '../checker/index.js'
import type {
  CallExpr,
  ComprehensionExpr,
  Expr,
  ListExpr,
  MapExpr,
  ParsedAst,
  SelectExpr,
  StructExpr,
} from '../common/ast.js'
import type { Env } from '../env.js'
import { ACCUMULATOR_NAME, HIDDEN_ACCUMULATOR_NAME } from '../syntax/index.js'
import { DynType, type Type } from '../types/types.js'
import { codePointLength } from '../values/strings.js'
import {
  type AstNode,
  type CallEstimate,
  type CallEstimator,
  ConstCost,
  type CostEstimate,
  type EstimateContext,
  ListCreateBaseCost,
  MapCreateBaseCost,
  SelectAndIdentCost,
  type SizeEstimate,
  type SizeEstimator,
} from './costs.js'
import { extCallEstimators } from './estimate-ext.js'
import { add, fixed, MAX_UINT64, multiply, ONE, UNKNOWN_SIZE, union, ZERO } from './estimate-size.js'
import { type EntrySize, type EntrySizes, standardCallCost } from './estimate-std.js'

// The static cost estimator: a port of cel-go v0.26 checker/cost.go. It walks the checked AST once
// and returns the [min, max] cost of an evaluation: identifiers and selections 1, literals 0, list /
// map / message literals 10 / 30 / 40, calls 1 plus their arguments unless a size-dependent rule
// applies (string traversal, regex, `in`, ...), comprehensions multiply their loop by the size of the
// range. Sizes come from literals, from what calls report, and from a SizeEstimator hook that is
// asked with the node's path from its root variable (`self`, `spec`, `@items`, `@keys`, ...), the
// way Kubernetes bounds sizes with maxLength / maxItems / maxProperties. Figures are uint64
// saturating at MaxUint64, held as bigints so that they stay exact.

// the public names (src/index.ts) of the shared types
export type { AstNode, CallEstimate, CallEstimator, CostEstimate, EstimateContext, SizeEstimate, SizeEstimator }

export interface EstimateOptions {
  /** Sizes of variables and of what is reached from them (Kubernetes: schema maxLength, maxItems, ...). */
  readonly sizeEstimator?: SizeEstimator
  /**
   * Estimates by overload id (cel-go checker.OverloadCostEstimate). The environment's extension
   * estimators (ext.Sets, ext.Lists v3) take precedence for their own ids, as cel-go appends the
   * environment's cost options after the caller's.
   */
  readonly callEstimators?: Readonly<Record<string, CallEstimator>>
  /** Consulted after callEstimators, before cel-go's rules (cel-go's CostEstimator.EstimateCallCost). */
  readonly estimateCallCost?: (
    fn: string,
    overloadId: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
    ctx: EstimateContext,
  ) => CallEstimate | undefined
  /** cel-go PresenceTestHasCost: whether `has()` costs 1 (default) or 0 (Kubernetes). */
  readonly presenceTestHasCost?: boolean
}

/** What an estimate is made of: a compiled Program (checked), or a checked AST. */
export type Estimable = CheckedAst | { readonly ast: ParsedAst }

/** cel-go's math.MaxUint64: an estimate bound at this figure is unbounded. */
export const UNBOUNDED_COST: bigint = MAX_UINT64

function checkedOf(compiled: Estimable): CheckedAst {
  const ast = 'ast' in compiled ? compiled.ast : compiled
  if (!('types' in ast))
    throw new Error('cost estimation needs a type-checked expression (compiled without disableCheck)')
  return ast as CheckedAst
}

/**
 * The static cost estimate of an expression, as cel-go's `env.EstimateCost` (checker.Cost) computes
 * it: the [min, max] cost of one evaluation, before any input is known. Kubernetes compares the max
 * with its limits when an expression is written (for Kubernetes' own figures use `estimateKubeCost`).
 *
 * `compiled` is a Program from `compile()` (not compiled with `disableCheck`) or a checked AST;
 * `env` is the environment it was compiled in (its extensions add their estimates). The bounds are
 * exact uint64 figures as bigints, saturating at `UNBOUNDED_COST` (MaxUint64). Without a
 * `sizeEstimator`, the sizes of variables (strings, lists, maps) are unbounded, [0, MaxUint64].
 *
 * @example
 * const program = compile("input.matches('[0-9]')", { declarations: { input: StringType } })
 * estimateCost(program, standardEnv(), {
 *   sizeEstimator: { estimateSize: (n) => (n.path?.join('.') === 'input' ? { min: 0n, max: 500n } : undefined) },
 * }) // { min: 3n, max: 103n }
 */
export function estimateCost(compiled: Estimable, env: Env, options: EstimateOptions = {}): CostEstimate {
  const checked = checkedOf(compiled)
  const estimators = { ...options.callEstimators, ...extCallEstimators(env) }
  const presence = options.presenceTestHasCost === false ? ZERO : fixed(BigInt(SelectAndIdentCost))
  const celGo = env.features.celGo
  return new Coster(checked, options.sizeEstimator, estimators, options.estimateCallCost, presence, celGo).cost(
    checked.expr,
  )
}

const CONST_COST = fixed(BigInt(ConstCost))
const SELECT_COST = fixed(BigInt(SelectAndIdentCost))
const LIST_COST = fixed(BigInt(ListCreateBaseCost))
const MAP_COST = fixed(BigInt(MapCreateBaseCost))
/** common.StructCreateBaseCost (message literals); runtime.ts has no message construction. */
const STRUCT_COST = fixed(40n)
/** The fold start of cel-go's overload union: [MaxUint64, 0]. */
const EMPTY_UNION: CostEstimate = { min: MAX_UINT64, max: 0n }

type Container = EntrySize['kind']

interface LocalVar {
  readonly path: readonly string[] | undefined
  readonly size: SizeEstimate | undefined
  readonly entrySize: EntrySize | undefined
}

/** Go's `append(path, s)`: a nil path yields `[s]`. */
function append(path: readonly string[] | undefined, s: string): readonly string[] {
  return path === undefined ? [s] : [...path, s]
}

function containerOf(t: Type): Container {
  return t.typeKind === 'list' ? 'list' : t.typeKind === 'map' ? 'map' : 'other'
}

/** isScalar: types of a constant size (strings, bytes, containers and dyn vary). */
function isScalar(t: Type): boolean {
  switch (t.typeKind) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true
    case 'opaque':
      return t.name === 'optional_type' && isScalar(t.params[0] ?? DynType)
  }
  return false
}

/** computeExprSize: the exact size of literals and aggregate literals. */
function exprSize(e: Expr): SizeEstimate | undefined {
  switch (e.kind) {
    case 'literal': {
      const v = e.value
      if (v.type === 'string') return fixed(BigInt(codePointLength(v.value)))
      if (v.type === 'bytes') return fixed(BigInt(v.value.length))
      return ONE
    }
    case 'list':
      return fixed(BigInt(e.elements.length))
    case 'map':
      return fixed(BigInt(e.entries.length))
  }
  return undefined
}

const isAccumulator = (name: string) => name === ACCUMULATOR_NAME || name === HIDDEN_ACCUMULATOR_NAME

class Coster implements EstimateContext, EntrySizes {
  private readonly paths = new Map<number, readonly string[] | undefined>()
  private readonly locals = new Map<string, LocalVar[]>()
  private readonly sizes = new Map<number, SizeEstimate>()
  private readonly entries = new Map<number, EntrySize>()
  private readonly refs: ReadonlyMap<number, Reference>
  private readonly types: ReadonlyMap<number, Type>
  // EstimateContext state of the call being estimated.
  function = ''
  overloadId = ''

  constructor(
    checked: CheckedAst,
    private readonly sizeEstimator: SizeEstimator | undefined,
    private readonly estimators: Readonly<Record<string, CallEstimator | undefined>>,
    private readonly fallback: EstimateOptions['estimateCallCost'],
    private readonly presenceCost: CostEstimate,
    /** The cel-go minor version (Features.celGo) whose estimates apply. */
    private readonly celGo: number,
  ) {
    this.refs = checked.refs
    this.types = checked.types
  }

  estimateSize(node: AstNode): SizeEstimate | undefined {
    return this.sizeEstimator?.estimateSize(node)
  }

  sizeOf(node: AstNode): SizeEstimate {
    return node.computedSize ?? this.estimateSize(node) ?? UNKNOWN_SIZE
  }

  cost(e: Expr): CostEstimate {
    switch (e.kind) {
      case 'literal':
        return CONST_COST
      case 'ident':
        return this.costIdent(e, this.identName(e)!)
      case 'select': {
        // A select chain the checker resolved to a qualified variable (`a.b` declared) is an ident.
        const name = this.identName(e)
        return name !== undefined ? this.costIdent(e, name) : this.costSelect(e)
      }
      case 'call':
        return this.costCall(e)
      case 'list':
        return this.costCreateList(e)
      case 'map':
        return this.costCreateMap(e)
      case 'struct':
        return this.costCreateStruct(e)
      case 'comprehension':
        return this.isBind(e) ? this.costBind(e) : this.costComprehension(e)
    }
  }

  /** The identifier an ident (or a select resolved as a qualified name) denotes, as cel-go rewrites it. */
  private identName(e: Expr): string | undefined {
    if (e.kind === 'ident') {
      const r = this.refs.get(e.id)
      return r?.kind === 'ident' ? r.name : e.name
    }
    if (e.kind === 'select') {
      const r = this.refs.get(e.id)
      if (r?.kind === 'ident') return r.name
    }
    return undefined
  }

  private typeOf(e: Expr): Type {
    return this.types.get(e.id) ?? DynType
  }

  // ---- local variables (comprehension, bind) ----

  private peek(name: string): LocalVar | undefined {
    const stack = this.locals.get(name)
    return stack === undefined ? undefined : stack[stack.length - 1]
  }

  private push(name: string, v: LocalVar): void {
    const stack = this.locals.get(name)
    if (stack === undefined) this.locals.set(name, [v])
    else stack.push(v)
  }

  private pop(name: string): void {
    this.locals.get(name)?.pop()
  }

  private pushLocalVar(name: string, e: Expr): void {
    const path = this.getPath(e)
    // A binding of a list or map carries its entry sizes to the variable.
    const entrySize = this.computeEntrySize(e)
    this.push(name, { path, size: this.computeSize(e), entrySize })
  }

  private pushIterKey(name: string, range: Expr): void {
    const entry = this.computeEntrySize(range)
    const path = this.getPath(range)
    const container = entry?.kind ?? containerOf(this.typeOf(range))
    const sub = container === 'list' ? '@indices' : '@keys'
    this.push(name, { path: append(path, sub), size: entry?.key, entrySize: undefined })
  }

  private pushIterValue(name: string, range: Expr): void {
    const entry = this.computeEntrySize(range)
    const path = this.getPath(range)
    const container = entry?.kind ?? containerOf(this.typeOf(range))
    const sub = container === 'list' ? '@items' : '@values'
    this.push(name, { path: append(path, sub), size: entry?.val, entrySize: undefined })
  }

  private pushIterSingle(name: string, range: Expr): void {
    const entry = this.computeEntrySize(range)
    let size = entry?.key
    let sub = '@keys'
    const container = entry?.kind ?? containerOf(this.typeOf(range))
    if (container === 'list') {
      size = entry?.val
      sub = '@items'
    }
    this.push(name, { path: append(this.getPath(range), sub), size, entrySize: undefined })
  }

  // ---- paths and sizes ----

  private getPath(e: Expr): readonly string[] | undefined {
    const name = this.identName(e)
    if (name !== undefined) {
      const v = this.peek(name)
      if (v !== undefined) return v.path
    }
    return this.paths.get(e.id)
  }

  private newAstNode(e: Expr): AstNode {
    let path = this.getPath(e)
    // Only paths from root variables: accumulators are not inputs.
    if (path !== undefined && path.length > 0 && isAccumulator(path[0]!)) path = undefined
    return { path, type: this.typeOf(e), expr: e, computedSize: this.computeSize(e) }
  }

  private setSize(e: Expr, size: SizeEstimate | undefined): void {
    if (size !== undefined) this.sizes.set(e.id, size)
  }

  private sizeOrUnknown(e: Expr): SizeEstimate {
    return this.computeSize(e) ?? UNKNOWN_SIZE
  }

  private computeSize(e: Expr): SizeEstimate | undefined {
    const known = this.sizes.get(e.id)
    if (known !== undefined) return known
    const literal = exprSize(e)
    if (literal !== undefined) return literal
    // The caller's estimate comes before the type's, so that it can override what CEL would ascribe.
    const se = this.sizeEstimator
    if (se !== undefined) {
      const size = se.estimateSize({ path: this.getPath(e), type: this.typeOf(e), expr: e, computedSize: undefined })
      if (size !== undefined) {
        this.sizes.set(e.id, size)
        return size
      }
    }
    if (isScalar(this.typeOf(e))) return ONE
    const name = this.identName(e)
    if (name !== undefined) {
      const v = this.peek(name)
      if (v?.size !== undefined) return v.size
    }
    return undefined
  }

  setEntrySize(e: Expr, size: EntrySize | undefined): void {
    if (size !== undefined) this.entries.set(e.id, size)
  }

  computeEntrySize(e: Expr): EntrySize | undefined {
    const known = this.entries.get(e.id)
    if (known !== undefined) return known
    const name = this.identName(e)
    if (name !== undefined) return this.peek(name)?.entrySize
    return undefined
  }

  private copySizeEstimates(dst: Expr, src: Expr): void {
    this.setSize(dst, this.computeSize(src))
    this.setEntrySize(dst, this.computeEntrySize(src))
  }

  // ---- nodes ----

  private costIdent(e: Expr, name: string): CostEstimate {
    const v = this.peek(name)
    this.paths.set(e.id, v !== undefined ? v.path : [name])
    return SELECT_COST
  }

  private costSelect(e: SelectExpr): CostEstimate {
    if (e.testOnly) {
      // has(): the operand is evaluated, the presence test itself costs 0 or 1.
      return add(this.presenceCost, this.cost(e.operand))
    }
    let sum = this.cost(e.operand)
    const k = this.typeOf(e.operand).typeKind
    if (k === 'map' || k === 'struct' || k === 'type_param') sum = add(sum, SELECT_COST)
    this.paths.set(e.id, append(this.getPath(e.operand), e.field))
    return sum
  }

  private costCall(e: CallExpr): CostEstimate {
    const ref = this.refs.get(e.id)
    const fn = ref?.kind === 'function' ? ref.name : e.fn
    // dyn() only disables type checking: 1 plus its argument, which keeps its sizes.
    if (fn === 'dyn' && e.args.length > 0) {
      const arg = e.args[0]!
      const argCost = this.cost(arg)
      this.copySizeEstimates(e, arg)
      return add(ONE, argCost)
    }
    const args = e.args
    const n = args.length
    const argNodes: AstNode[] = new Array(n)
    const argCosts: CostEstimate[] = new Array(n)
    for (let i = 0; i < n; i++) {
      argCosts[i] = this.cost(args[i]!)
      argNodes[i] = this.newAstNode(args[i]!)
    }
    const ids = ref?.kind === 'function' ? ref.overloadIds : undefined
    if (ids === undefined || ids.length === 0) return ZERO
    let sum = ZERO
    let target: AstNode | undefined
    // A receiver the checker read as a namespace (`sets.contains(...)`) makes a global call.
    if (e.target !== undefined && fn === e.fn) {
      sum = this.cost(e.target)
      target = this.newAstNode(e.target)
    }
    // The estimate covers every overload the checker left possible.
    let fnCost = EMPTY_UNION
    let resultSize: SizeEstimate | undefined
    for (const id of ids) {
      const oc = this.functionCost(e, fn, id, target, argNodes, argCosts)
      fnCost = union(fnCost, oc.cost)
      if (oc.resultSize !== undefined)
        resultSize = resultSize === undefined ? oc.resultSize : union(resultSize, oc.resultSize)
      // Index operations extend the field path.
      if (id === 'index_list' && n > 0) {
        resultSize = this.computeEntrySize(args[0]!)?.val
        this.paths.set(e.id, append(this.getPath(args[0]!), '@items'))
      } else if (id === 'index_map' && n > 0) {
        resultSize = this.computeEntrySize(args[0]!)?.val
        this.paths.set(e.id, append(this.getPath(args[0]!), '@values'))
      }
      if (resultSize === undefined) resultSize = this.computeSize(e)
    }
    this.setSize(e, resultSize)
    return add(sum, fnCost)
  }

  private functionCost(
    e: CallExpr,
    fn: string,
    id: string,
    target: AstNode | undefined,
    args: readonly AstNode[],
    argCosts: readonly CostEstimate[],
  ): CallEstimate {
    let argSum = ZERO
    for (const c of argCosts) argSum = add(argSum, c)
    this.function = fn
    this.overloadId = id
    const custom = this.estimators[id]
    let est = custom !== undefined ? custom(target, args, this) : undefined
    if (est === undefined && this.fallback !== undefined) est = this.fallback(fn, id, target, args, this)
    if (est !== undefined) return { cost: add(est.cost, argSum), resultSize: est.resultSize }
    return standardCallCost(id, e, target, args, argCosts, argSum, this, this.celGo)
  }

  private costCreateList(e: ListExpr): CostEstimate {
    let sum = ZERO
    let itemSize: SizeEstimate = { min: e.elements.length === 0 ? 0n : MAX_UINT64, max: 0n }
    for (const el of e.elements) {
      sum = add(sum, this.cost(el))
      itemSize = union(itemSize, this.sizeOrUnknown(el))
    }
    this.setEntrySize(e, { kind: 'list', key: ONE, val: itemSize })
    return add(sum, LIST_COST)
  }

  private costCreateMap(e: MapExpr): CostEstimate {
    let sum = ZERO
    const empty = e.entries.length === 0
    let keySize: SizeEstimate = { min: empty ? 0n : MAX_UINT64, max: 0n }
    let valSize: SizeEstimate = { min: empty ? 0n : MAX_UINT64, max: 0n }
    for (const entry of e.entries) {
      sum = add(sum, this.cost(entry.key))
      sum = add(sum, this.cost(entry.value))
      keySize = union(keySize, this.sizeOrUnknown(entry.key))
      valSize = union(valSize, this.sizeOrUnknown(entry.value))
    }
    this.setEntrySize(e, { kind: 'map', key: keySize, val: valSize })
    return add(sum, MAP_COST)
  }

  private costCreateStruct(e: StructExpr): CostEstimate {
    let sum = ZERO
    for (const f of e.fields) sum = add(sum, this.cost(f.value))
    return add(sum, STRUCT_COST)
  }

  private costComprehension(e: ComprehensionExpr): CostEstimate {
    let sum = add(this.cost(e.iterRange), this.cost(e.accuInit))
    this.pushLocalVar(e.accuVar, e.accuInit)
    const two = e.iterVar2 !== undefined && e.iterVar2 !== ''
    if (two) {
      this.pushIterKey(e.iterVar, e.iterRange)
      this.pushIterValue(e.iterVar2!, e.iterRange)
    } else this.pushIterSingle(e.iterVar, e.iterRange)
    // The cost of one iteration.
    const loopCost = this.cost(e.loopCondition)
    const stepCost = this.cost(e.loopStep)
    this.pop(e.iterVar)
    if (two) this.pop(e.iterVar2!)
    sum = add(sum, this.cost(e.result))
    this.pop(e.accuVar)
    const rangeCnt = this.sizeOrUnknown(e.iterRange)
    sum = add(sum, multiply(rangeCnt, add(stepCost, loopCost)))
    switch (e.accuInit.kind) {
      case 'literal':
        this.setSize(e, this.computeSize(e.accuInit))
        break
      case 'list':
      case 'map':
        this.setSize(e, rangeCnt)
        // A step that builds a container records the entry sizes of what it builds.
        this.setEntrySize(e, this.computeEntrySize(e.loopStep))
        break
    }
    return sum
  }

  /** cel.bind and the macros built like it: an empty range, a false condition, a named accumulator. */
  private isBind(e: ComprehensionExpr): boolean {
    const c = e.loopCondition
    return (
      e.iterRange.kind === 'list' &&
      e.iterRange.elements.length === 0 &&
      c.kind === 'literal' &&
      c.value.type === 'bool' &&
      c.value.value === false &&
      e.accuVar !== ACCUMULATOR_NAME
    )
  }

  private costBind(e: ComprehensionExpr): CostEstimate {
    // Bindings are lazy; the cost of the empty range is kept.
    let sum = add(this.cost(e.iterRange), this.cost(e.accuInit))
    this.pushLocalVar(e.accuVar, e.accuInit)
    sum = add(sum, this.cost(e.result))
    this.pop(e.accuVar)
    this.copySizeEstimates(e, e.result)
    return sum
  }
}
