import type { FunctionDecl, Impl, OverloadDecl } from '../functions.js'
import type { Type } from '../types/types.js'
import { noSuchOverloadFor } from '../values/traits.js'
import { CelMap, type CelValue, Kind, kindOf, MapValue, OpaqueValue, Optional } from '../values/values.js'

// Run-time overload selection for calls whose argument types the checker did not pin down.
// As cel-go's dispatcher: overloads are tried in declaration order; a parameterised list or map
// parameter is matched by its first element (an empty list matches), so `dyn([1.0]).sum()` picks
// the double overload and `dyn([]).sum()` the first one.

type Guard = ((v: CelValue) => boolean) | null

const kindGuards: Partial<Record<string, (v: CelValue) => boolean>> = {
  bool: (v) => typeof v === 'boolean',
  int: (v) => (typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'bigint'),
  uint: (v) => kindOf(v) === Kind.Uint,
  double: (v) => kindOf(v) === Kind.Double,
  string: (v) => typeof v === 'string',
  bytes: (v) => v instanceof Uint8Array,
  null_type: (v) => v === null,
  timestamp: (v) => kindOf(v) === Kind.Timestamp,
  duration: (v) => kindOf(v) === Kind.Duration,
  type: (v) => kindOf(v) === Kind.Type,
}

function isMap(v: CelValue): boolean {
  return kindOf(v) === Kind.Map
}

/** A predicate that tells whether a runtime value can be passed for a parameter of type `t` (null: anything). */
export function guardFor(t: Type): Guard {
  switch (t.typeKind) {
    case 'dyn':
    case 'any':
    case 'type_param':
      return null
    case 'list': {
      const elem = t.params[0] ? guardFor(t.params[0]) : null
      if (!elem) return Array.isArray
      return (v) => Array.isArray(v) && (v.length === 0 || elem(v[0] as CelValue))
    }
    case 'map': {
      const kg = t.params[0] ? guardFor(t.params[0]) : null
      const vg = t.params[1] ? guardFor(t.params[1]) : null
      if (!kg && !vg) return isMap
      return (v) => {
        if (!isMap(v)) return false
        const first = firstEntry(v)
        return first === undefined || ((!kg || kg(first[0])) && (!vg || vg(first[1])))
      }
    }
    case 'opaque':
    case 'struct':
      if (t.name === 'optional_type') return (v) => v instanceof Optional
      return (v) => v instanceof OpaqueValue && v.typeName === t.name
    default: {
      const g = kindGuards[t.typeKind]
      if (!g) throw new Error(`no runtime guard for type ${t.toString()}`)
      return g
    }
  }
}

function firstEntry(m: CelValue): [CelValue, CelValue] | undefined {
  if (m instanceof CelMap) {
    for (const e of m.entries.values()) return e
    return undefined
  }
  if (m instanceof MapValue) {
    for (const k of m.keys()) return [k, m.find(k) as CelValue]
    return undefined
  }
  for (const k in m as object) {
    if (Object.hasOwn(m as object, k)) return [k, (m as Record<string, CelValue>)[k] as CelValue]
  }
  return undefined
}

function guardsOf(o: OverloadDecl): Guard[] {
  // cel-go's DisableTypeGuards: the implementation checks its own arguments (flatten, sort).
  if (o.disableTypeGuards) return o.params.map(() => null)
  return o.params.map(guardFor)
}

/**
 * Builds the run-time implementation of a call with `argc` arguments (receiver included) over the
 * candidate overloads. Throws `no such overload` when no overload accepts the arguments.
 */
export function makeDispatcher(fn: FunctionDecl, member: boolean, argc: number): Impl | undefined {
  const cands = fn.overloads.filter((o) => o.member === member && o.params.length === argc)
  if (cands.length === 0) return undefined
  const table = cands.map((o) => ({ impl: o.impl, guards: guardsOf(o) }))
  const name = fn.name
  if (table.length === 1) {
    const { impl, guards } = table[0]!
    if (argc === 1) {
      const g0 = guards[0]
      if (!g0) return impl
      return (a) => (g0(a) ? impl(a) : fail(name, [a]))
    }
    if (argc === 2) {
      const [g0, g1] = guards
      if (!g0 && !g1) return impl
      return (a, b) => ((!g0 || g0(a)) && (!g1 || g1(b)) ? impl(a, b) : fail(name, [a, b]))
    }
    return (...args: CelValue[]) => (matchAll(guards, args) ? impl(...args) : fail(name, args))
  }
  return (...args: CelValue[]) => {
    for (const row of table) if (matchAll(row.guards, args)) return row.impl(...args)
    return fail(name, args)
  }
}

function matchAll(guards: Guard[], args: CelValue[]): boolean {
  for (let i = 0; i < guards.length; i++) {
    const g = guards[i]
    if (g && !g(args[i] as CelValue)) return false
  }
  return true
}

function fail(fn: string, args: readonly CelValue[]): never {
  throw noSuchOverloadFor(fn, args)
}
