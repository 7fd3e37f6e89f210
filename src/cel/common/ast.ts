// The CEL abstract syntax tree, shaped like cel-go's common/ast (and the cel.expr protobuf):
// every node has a numeric id, macros are expanded to comprehensions and the original
// call is kept in SourceInfo.macroCalls, so parser, checker, cost estimator and compiler
// all walk the same tree.

export type LiteralValue =
  | { type: 'null'; value: null }
  | { type: 'bool'; value: boolean }
  | { type: 'int'; value: bigint }
  | { type: 'uint'; value: bigint }
  | { type: 'double'; value: number }
  | { type: 'string'; value: string }
  | { type: 'bytes'; value: Uint8Array }

export interface LiteralExpr {
  readonly kind: 'literal'
  readonly id: number
  readonly value: LiteralValue
}

export interface IdentExpr {
  readonly kind: 'ident'
  readonly id: number
  readonly name: string
}

/** `operand.field`, or `has(operand.field)` when testOnly is set. */
export interface SelectExpr {
  readonly kind: 'select'
  readonly id: number
  readonly operand: Expr
  readonly field: string
  readonly testOnly: boolean
}

/**
 * A function call. Operators use cel-go's function names (`_+_`, `_&&_`, `_?_:_`, `_[_]`, `@in`,
 * `!_`, `-_`, `_?._` for `a.?b`, `_[?_]` for `m[?k]`, `@not_strictly_false` inside macros).
 * `target` is set for receiver-style calls (`s.startsWith(x)`).
 */
export interface CallExpr {
  readonly kind: 'call'
  readonly id: number
  readonly fn: string
  readonly target?: Expr
  readonly args: readonly Expr[]
}

/** `[a, ?b]`: optionalIndices lists the positions written with `?`. */
export interface ListExpr {
  readonly kind: 'list'
  readonly id: number
  readonly elements: readonly Expr[]
  readonly optionalIndices: readonly number[]
}

export interface MapEntry {
  readonly id: number
  readonly key: Expr
  readonly value: Expr
  readonly optional: boolean
}

export interface MapExpr {
  readonly kind: 'map'
  readonly id: number
  readonly entries: readonly MapEntry[]
}

export interface StructField {
  readonly id: number
  readonly field: string
  readonly value: Expr
  readonly optional: boolean
}

/** Message construction `pkg.Type{f: v}`: parsed for fidelity, not evaluable without types. */
export interface StructExpr {
  readonly kind: 'struct'
  readonly id: number
  readonly typeName: string
  readonly fields: readonly StructField[]
}

/**
 * A fold, as cel-go's ComprehensionExpr:
 *   accuVar = accuInit
 *   for (iterVar[, iterVar2]) in iterRange { if !loopCondition break; accuVar = loopStep }
 *   return result
 * iterVar2 is set by the two-variable macros (index/key first, value second).
 */
export interface ComprehensionExpr {
  readonly kind: 'comprehension'
  readonly id: number
  readonly iterRange: Expr
  readonly iterVar: string
  readonly iterVar2?: string
  readonly accuVar: string
  readonly accuInit: Expr
  readonly loopCondition: Expr
  readonly loopStep: Expr
  readonly result: Expr
}

export type Expr = LiteralExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr

export interface SourceInfo {
  /** Node id → UTF-16 offset of the node's start in the source text. */
  readonly positions: Map<number, number>
  /** Comprehension id → the macro call as written (`has`, `all`, `map`, ...), for unparsing and cost. */
  readonly macroCalls: Map<number, Expr>
}

export interface ParsedAst {
  readonly expr: Expr
  readonly sourceInfo: SourceInfo
  readonly source: import('./source.js').Source
}
