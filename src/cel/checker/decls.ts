import type { FunctionDecl } from '../functions.js'
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  IntType,
  listOf,
  mapOf,
  NullType,
  OptionalTypeName,
  opaque,
  StringType,
  TimestampType,
  type Type,
  TypeType,
  typeOf,
  typeParam,
  UintType,
} from '../types/types.js'

// What the checker needs from an Env's declarations, computed once per function table and
// cached (environments are built once and reused; Env.extend without libraries shares the
// function table, so extended environments share this too).

/**
 * What a name or call resolved to (cel-go's ast.ReferenceInfo). Shared and frozen: never mutate.
 * `name` is the resolved, fully qualified name: of the variable (`a.b.c` for a select chain that
 * names a dotted variable, `container.x` through the container), or of the function. cel-go
 * rewrites the AST to these names; kelp's AST stays as parsed, so a call whose reference name
 * differs from its `fn` was resolved as a namespaced function (`base64.encode(x)`: the target is
 * part of the name, not a receiver, and was not type-checked) or through the container.
 */
export type Reference =
  | { readonly kind: 'ident'; readonly name: string }
  | { readonly kind: 'function'; readonly name: string; readonly overloadIds: readonly string[] }

/** One overload as the checker resolves it. */
export interface CheckOverload {
  readonly id: string
  readonly member: boolean
  /** Receiver first for member overloads. */
  readonly params: readonly Type[]
  readonly result: Type
  /** Type parameter names found in the signature (cel-go collects them; declarations may omit some). */
  readonly typeParams: readonly string[]
  /** A cross-type numeric comparison, disabled when CrossTypeNumericComparisons is off. */
  readonly crossType: boolean
  /** The reference of a call resolved to this overload alone (shared). */
  readonly ref: Reference
}

export interface CheckFunction {
  readonly name: string
  /** Global overloads, in declaration order. */
  readonly global: readonly CheckOverload[]
  /** Receiver-style overloads, in declaration order. */
  readonly member: readonly CheckOverload[]
  /** `_&&_` / `_||_`: checked argument by argument (cel-go's special case). */
  readonly logical: boolean
}

export interface FunctionTable {
  readonly functions: ReadonlyMap<string, CheckFunction>
  /** First segments of dotted function names (`optional`, `sets`, ...): a receiver call can only be namespaced under these. */
  readonly dottedRoots: ReadonlySet<string>
  /** cel.OptionalTypes() is present (declares the `optional_type` type identifier). */
  readonly optionalTypes: boolean
}

// checker/env.go crossTypeNumericComparisonOverloads.
const CROSS_TYPE = new Set<string>()
for (const op of ['less', 'less_equals', 'greater', 'greater_equals'])
  for (const pair of ['double_int64', 'double_uint64', 'int64_double', 'int64_uint64', 'uint64_double', 'uint64_int64'])
    CROSS_TYPE.add(`${op}_${pair}`)

const tables = new WeakMap<ReadonlyMap<string, FunctionDecl>, FunctionTable>()

export function functionTable(fns: ReadonlyMap<string, FunctionDecl>): FunctionTable {
  let t = tables.get(fns)
  if (t === undefined) {
    t = buildTable(fns)
    tables.set(fns, t)
  }
  return t
}

function buildTable(fns: ReadonlyMap<string, FunctionDecl>): FunctionTable {
  const functions = new Map<string, CheckFunction>()
  const dottedRoots = new Set<string>()
  for (const [name, decl] of fns) {
    // Libraries may declare the same overload twice (e.g. `_?._` by the operators and the optional library).
    const seen = new Set<string>()
    const overloads: CheckOverload[] = []
    for (const o of decl.overloads) {
      if (seen.has(o.id)) continue
      seen.add(o.id)
      const names: string[] = []
      for (const p of o.params) collectTypeParams(p, names)
      collectTypeParams(o.result, names)
      overloads.push({
        id: o.id,
        member: o.member,
        params: o.params,
        result: o.result,
        typeParams: names,
        crossType: CROSS_TYPE.has(o.id),
        ref: Object.freeze({ kind: 'function', name, overloadIds: Object.freeze([o.id]) }),
      })
    }
    functions.set(name, {
      name,
      global: overloads.filter((o) => !o.member),
      member: overloads.filter((o) => o.member),
      logical: name === '_&&_' || name === '_||_',
    })
    const dot = name.indexOf('.')
    if (dot > 0) dottedRoots.add(name.slice(0, dot))
  }
  return { functions, dottedRoots, optionalTypes: fns.has('optional.of') }
}

function collectTypeParams(t: Type, out: string[]): void {
  if (t.typeKind === 'type_param') {
    if (!out.includes(t.name)) out.push(t.name)
    return
  }
  for (const p of t.params) collectTypeParams(p, out)
}

/**
 * The type identifiers of the standard library (cel-go common/stdlib Types(): each name has
 * type `type(T)`; `list` and `map` keep their declared parameters, which print as dyn).
 */
export const STANDARD_TYPE_IDENTS: ReadonlyMap<string, Type> = new Map(
  [
    BoolType,
    BytesType,
    DoubleType,
    DurationType,
    IntType,
    listOf(typeParam('A')),
    mapOf(typeParam('A'), typeParam('B')),
    NullType,
    StringType,
    TimestampType,
    TypeType,
    UintType,
  ].map((t) => [t.name, typeOf(t)]),
)

/** `optional_type`, declared by cel.OptionalTypes() (prints as `type(optional_type)`). */
export const OPTIONAL_TYPE_IDENT: Type = typeOf(opaque(OptionalTypeName))

/** Variable-table facts, cached per variables map (Env.extend makes a new one). */
export interface VariableTable {
  /** First segments of dotted variable names: a select chain can only name a variable under these. */
  readonly dottedRoots: ReadonlySet<string>
  /** Shared ident references of the declared names (filled on use). */
  readonly refs: Map<string, Reference>
}

const varTables = new WeakMap<ReadonlyMap<string, Type>, VariableTable>()

export function variableTable(vars: ReadonlyMap<string, Type>): VariableTable {
  let t = varTables.get(vars)
  if (t === undefined) {
    const dottedRoots = new Set<string>(['google']) // google.protobuf.Timestamp / Duration
    for (const name of vars.keys()) {
      const dot = name.indexOf('.')
      if (dot > 0) dottedRoots.add(name.slice(0, dot))
    }
    t = { dottedRoots, refs: new Map() }
    varTables.set(vars, t)
  }
  return t
}
