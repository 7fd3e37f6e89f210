import type {
  CallExpr,
  ComprehensionExpr,
  Expr,
  IdentExpr,
  ListExpr,
  LiteralExpr,
  LiteralValue,
  MapEntry,
  MapExpr,
  SelectExpr,
  StructExpr,
  StructField,
} from '../common/ast.js'

// AST node constructors. Every node of a kind is built with the same property order (optional
// properties present as undefined) so that V8 sees one shape per kind.

export const TRUE_VALUE: LiteralValue = { type: 'bool', value: true }
export const FALSE_VALUE: LiteralValue = { type: 'bool', value: false }
export const NULL_VALUE: LiteralValue = { type: 'null', value: null }
export const INT_ZERO: LiteralValue = { type: 'int', value: 0n }
export const INT_ONE: LiteralValue = { type: 'int', value: 1n }

export function literal(id: number, value: LiteralValue): LiteralExpr {
  return { kind: 'literal', id, value }
}

export function ident(id: number, name: string): IdentExpr {
  return { kind: 'ident', id, name }
}

export function select(id: number, operand: Expr, field: string, testOnly: boolean): SelectExpr {
  return { kind: 'select', id, operand, field, testOnly }
}

export function call(id: number, fn: string, target: Expr | undefined, args: readonly Expr[]): CallExpr {
  return { kind: 'call', id, fn, target, args }
}

export function list(id: number, elements: readonly Expr[], optionalIndices: readonly number[]): ListExpr {
  return { kind: 'list', id, elements, optionalIndices }
}

export function map(id: number, entries: readonly MapEntry[]): MapExpr {
  return { kind: 'map', id, entries }
}

export function mapEntry(id: number, key: Expr, value: Expr, optional: boolean): MapEntry {
  return { id, key, value, optional }
}

export function struct(id: number, typeName: string, fields: readonly StructField[]): StructExpr {
  return { kind: 'struct', id, typeName, fields }
}

export function structField(id: number, field: string, value: Expr, optional: boolean): StructField {
  return { id, field, value, optional }
}

export function comprehension(
  id: number,
  iterRange: Expr,
  iterVar: string,
  iterVar2: string | undefined,
  accuVar: string,
  accuInit: Expr,
  loopCondition: Expr,
  loopStep: Expr,
  result: Expr,
): ComprehensionExpr {
  return { kind: 'comprehension', id, iterRange, iterVar, iterVar2, accuVar, accuInit, loopCondition, loopStep, result }
}

export const EMPTY: readonly never[] = Object.freeze([])
