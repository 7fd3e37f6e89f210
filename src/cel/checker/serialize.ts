import type { Expr, LiteralValue, SourceInfo } from '../common/ast.js'
import { Source } from '../common/source.js'
import * as node from '../syntax/nodes.js'
import { PositionMap } from '../syntax/positions.js'
import { AnyType, DynType, ErrorType, STANDARD_TYPE_VALUES, Type, type TypeKind } from '../types/types.js'
import type { Reference } from './decls.js'
import type { CheckedAst } from './index.js'
import { NodeMap } from './node-map.js'

// A checked expression as JSON, and back: what a build step stores so that a later process can plan
// the expression without parsing and checking it again (kelp check's cold start compiles the bundled
// pack's 148 expressions; parsing and checking them is most of that). The decoded AST is the one
// check() returned, node for node: ids, positions, types and references. Not its macro calls: the
// original calls the macros expanded from serve unparsing only (syntax/debug.ts), not planning or
// evaluation, and they were half of the bytes; a decoded AST has none.
//
// Only the caller knows which environment an AST was checked in: it must key what it stores by
// everything the check depends on (the expression, the declarations, the library versions).

/** The JSON form (arrays, numbers and strings only). */
export interface EncodedChecked {
  /** the expression text */
  readonly s: string
  /** the root (encodeExpr) */
  readonly e: unknown
  /** offsets by node id (-1: none) */
  readonly p: readonly number[]
  /** the distinct types: [kind, name, parameter indexes] */
  readonly t: readonly (readonly [TypeKind, string, readonly number[]])[]
  /** node types: [id, type index, id, type index, …] */
  readonly y: readonly number[]
  /** references: [id, name] (ident) or [id, name, overload ids] (function) */
  readonly r: readonly (readonly [number, string] | readonly [number, string, readonly string[]])[]
  /** the output type's index */
  readonly o: number
}

/** A literal in JSON terms: `int` / `uint` as decimal strings, `bytes` as base64, a double JSON lacks as a string. */
function encodeLiteral(v: LiteralValue): unknown {
  switch (v.type) {
    case 'int':
    case 'uint':
      return [v.type, v.value.toString()]
    case 'bytes':
      return ['bytes', Buffer.from(v.value.buffer, v.value.byteOffset, v.value.byteLength).toString('base64')]
    case 'double':
      // JSON has no -0 (nor NaN, ±Infinity): those as strings
      if (Object.is(v.value, -0)) return ['double', '-0'] // String(-0) is '0'
      return ['double', Number.isFinite(v.value) ? v.value : String(v.value)]
    default:
      return [v.type, v.value]
  }
}

function decodeLiteral([type, value]: [LiteralValue['type'], unknown]): LiteralValue {
  switch (type) {
    case 'int':
    case 'uint':
      return { type, value: BigInt(value as string) }
    case 'bytes':
      return { type, value: new Uint8Array(Buffer.from(value as string, 'base64')) }
    case 'double':
      return { type, value: typeof value === 'string' ? Number(value) : (value as number) }
    default:
      return { type, value } as LiteralValue
  }
}

// Nodes as arrays, [tag, id, …fields] (a third of the bytes of objects with their keys; the parser
// nests only as deep as its recursion limit allows, so recursion is safe here).
const TAGS = ['literal', 'ident', 'select', 'call', 'list', 'map', 'struct', 'comprehension'] as const

function encodeExpr(e: Expr): unknown[] {
  switch (e.kind) {
    case 'literal':
      return [0, e.id, encodeLiteral(e.value)]
    case 'ident':
      return [1, e.id, e.name]
    case 'select':
      return [2, e.id, encodeExpr(e.operand), e.field, e.testOnly ? 1 : 0]
    case 'call':
      return [3, e.id, e.fn, e.target === undefined ? 0 : encodeExpr(e.target), e.args.map(encodeExpr)]
    case 'list':
      return [4, e.id, e.elements.map(encodeExpr), e.optionalIndices]
    case 'map':
      return [5, e.id, e.entries.map((x) => [x.id, encodeExpr(x.key), encodeExpr(x.value), x.optional ? 1 : 0])]
    case 'struct':
      return [6, e.id, e.typeName, e.fields.map((f) => [f.id, f.field, encodeExpr(f.value), f.optional ? 1 : 0])]
    case 'comprehension':
      return [
        7,
        e.id,
        encodeExpr(e.iterRange),
        e.iterVar,
        e.iterVar2 ?? 0,
        e.accuVar,
        encodeExpr(e.accuInit),
        encodeExpr(e.loopCondition),
        encodeExpr(e.loopStep),
        encodeExpr(e.result),
      ]
  }
}

/** The node back, built by the parser's own constructors (the same shapes). */
function decodeExpr(a: any[]): Expr {
  const id = a[1] as number
  switch (TAGS[a[0] as number]) {
    case 'literal':
      return node.literal(id, decodeLiteral(a[2]))
    case 'ident':
      return node.ident(id, a[2])
    case 'select':
      return node.select(id, decodeExpr(a[2]), a[3], a[4] === 1)
    case 'call':
      return node.call(id, a[2], a[3] === 0 ? undefined : decodeExpr(a[3]), a[4].map(decodeExpr))
    case 'list':
      return node.list(id, a[2].map(decodeExpr), a[3])
    case 'map':
      return node.map(
        id,
        a[2].map((x: any[]) => node.mapEntry(x[0], decodeExpr(x[1]), decodeExpr(x[2]), x[3] === 1)),
      )
    case 'struct':
      return node.struct(
        id,
        a[2],
        a[3].map((f: any[]) => node.structField(f[0], f[1], decodeExpr(f[2]), f[3] === 1)),
      )
    case 'comprehension':
      return node.comprehension(
        id,
        decodeExpr(a[2]),
        a[3],
        a[4] === 0 ? undefined : a[4],
        a[5],
        decodeExpr(a[6]),
        decodeExpr(a[7]),
        decodeExpr(a[8]),
        decodeExpr(a[9]),
      )
    default:
      throw new Error(`not an encoded CEL node: ${JSON.stringify(a).slice(0, 80)}`)
  }
}

export function encodeChecked(ast: CheckedAst): EncodedChecked {
  const table: [TypeKind, string, number[]][] = []
  const index = new Map<Type, number>()
  const byShape = new Map<string, number>()
  const typeIndex = (t: Type): number => {
    let i = index.get(t)
    if (i !== undefined) return i
    const params = t.params.map(typeIndex)
    const shape = `${t.typeKind}\u0000${t.name}\u0000${params.join(',')}`
    i = byShape.get(shape)
    if (i === undefined) {
      i = table.length
      table.push([t.typeKind, t.name, params])
      byShape.set(shape, i)
    }
    index.set(t, i)
    return i
  }
  const positions: number[] = []
  for (const [id, off] of ast.sourceInfo.positions) {
    while (positions.length <= id) positions.push(-1)
    positions[id] = off
  }
  const types: number[] = []
  for (const [id, t] of ast.types) types.push(id, typeIndex(t))
  const refs: EncodedChecked['r'][number][] = []
  for (const [id, r] of ast.refs) refs.push(r.kind === 'ident' ? [id, r.name] : [id, r.name, [...r.overloadIds]])
  return {
    s: ast.source.text,
    e: encodeExpr(ast.expr),
    p: positions,
    t: table,
    y: types,
    r: refs,
    o: typeIndex(ast.outputType),
  }
}

/** The shared instances of the unparameterised standard types, by name. */
const SHARED = new Map<string, Type>([
  ...STANDARD_TYPE_VALUES,
  [DynType.name, DynType],
  [AnyType.name, AnyType],
  [ErrorType.name, ErrorType],
])

class Decoded implements CheckedAst {
  #source: Source | undefined
  constructor(
    readonly expr: Expr,
    readonly sourceInfo: SourceInfo,
    readonly types: Map<number, Type>,
    readonly refs: Map<number, Reference>,
    readonly outputType: Type,
    private readonly text: string,
  ) {}
  get source(): Source {
    this.#source ??= new Source(this.text)
    return this.#source
  }
}

/**
 * The checked AST of an encoding. `resolve` gives back the types the environment declared by name
 * (struct types from its provider); the standard ones are the shared instances, the rest are rebuilt
 * from their kind, name and parameters (types compare by those).
 */
export function decodeChecked(enc: EncodedChecked, resolve?: (name: string) => Type | undefined): CheckedAst {
  const types: Type[] = []
  const typeAt = (i: number): Type => {
    let t = types[i]
    if (t !== undefined) return t
    const [kind, name, params] = enc.t[i] as EncodedChecked['t'][number]
    const ps = params.map(typeAt)
    const standard = ps.length === 0 ? SHARED.get(name) : undefined
    if (standard !== undefined && standard.typeKind === kind && standard.params.length === 0) t = standard
    else if (kind === 'struct' && ps.length === 0) t = resolve?.(name) ?? new Type(kind, name)
    else t = new Type(kind, name, ps)
    types[i] = t
    return t
  }
  const nodeTypes = new NodeMap<Type>()
  for (let i = 0; i < enc.y.length; i += 2) nodeTypes.set(enc.y[i] as number, typeAt(enc.y[i + 1] as number))
  const refs = new NodeMap<Reference>()
  for (const r of enc.r) {
    const ref: Reference =
      r.length === 2
        ? Object.freeze({ kind: 'ident', name: r[1] })
        : Object.freeze({ kind: 'function', name: r[1], overloadIds: Object.freeze([...r[2]]) })
    refs.set(r[0], ref)
  }
  const sourceInfo: SourceInfo = { positions: new PositionMap([...enc.p]), macroCalls: new Map() }
  return new Decoded(decodeExpr(enc.e as any[]), sourceInfo, nodeTypes, refs, typeAt(enc.o), enc.s)
}
