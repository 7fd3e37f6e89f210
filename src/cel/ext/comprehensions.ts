import { evalError } from '../common/errors.js'
import { fn, type Library, overload } from '../functions.js'
import { mapOf, typeParam } from '../types/types.js'
import type { CelMapValue } from '../values/maps.js'
import { buildMap, literalKey, mapGet, mapHas, mapKeys } from '../values/maps.js'
import type { CelValue } from '../values/values.js'
import { CelMap, isPlainMap } from '../values/values.js'

// ext.TwoVarComprehensions (cel-go ext/comprehensions.go): the two-variable macros (expanded by the
// parser) and `cel.@mapInsert`, the function transformMap / transformMapEntry expand to.

const K = typeParam('K')
const V = typeParam('V')
const MapKV = mapOf(K, V)

/** Go's %v of a map key as cel-go's InsertMapKeyValue error prints it. */
function keyText(k: CelValue): string {
  if (typeof k === 'object' && k !== null && 'value' in k) return String((k as { value: unknown }).value)
  return String(k)
}

/**
 * The maps `cel.@mapInsert` built: only a comprehension's accumulator is ever its first argument (the name cannot
 * be written in an expression; transformMap and transformMapEntry start the accumulator from a fresh `{}` and
 * nothing else sees it until the loop ends), so a map it built is extended in place, as cel-go's mutable map
 * accumulator is: linear, where a copy per insert was quadratic (a 10,000-entry transformMap took seconds).
 */
const built = new WeakSet<object>()

function insert(m: CelMapValue, k: CelValue, v: CelValue): CelValue {
  if (mapHas(m, k)) throw evalError(`insert failed: key ${keyText(k)} already exists`)
  if (built.has(m)) {
    if (m instanceof CelMap) {
      m.entries.set(literalKey(k), [k, v])
      return m
    }
    // a null-prototype object: any key, `__proto__` included, is an own property
    if (typeof k === 'string' && isPlainMap(m)) {
      ;(m as { [key: string]: CelValue })[k] = v
      return m
    }
  }
  const keys = mapKeys(m)
  const out = buildMap([...keys, k], [...keys.map((x) => mapGet(m, x) as CelValue), v])
  built.add(out)
  return out
}

function insertAll(m: CelMapValue, update: CelMapValue): CelValue {
  let out: CelMapValue = m
  for (const k of mapKeys(update)) out = insert(out, k, mapGet(update, k) as CelValue) as CelMapValue
  return out
}

export const twoVarComprehensions: Library = {
  name: 'cel.lib.ext.comprev2',
  functions: [
    fn(
      'cel.@mapInsert',
      overload('@mapInsert_map_key_value', [MapKV, K, V], MapKV, insert, ['K', 'V']),
      overload('@mapInsert_map_map', [MapKV, MapKV], MapKV, insertAll, ['K', 'V']),
    ),
  ],
  macros: ['all:3', 'exists:3', 'existsOne:3', 'exists_one:3', 'transformList', 'transformMap', 'transformMapEntry'],
}
