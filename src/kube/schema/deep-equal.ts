// equality.Semantic.DeepEqual on decoded JSON (apimachinery pkg/api/equality): structural equality
// of maps, arrays and scalars. Used where the apiserver compares raw data rather than CEL values
// (preserved unknown fields, ratcheting).

export function deepEqualJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b) {
    // an int beyond 2^53 may be a bigint on one side only
    if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number'))
      return Number.isInteger(Number(a)) && Number.isInteger(Number(b)) && BigInt(a as number) === BigInt(b as number)
    return false
  }
  if (typeof a !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!deepEqualJSON(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ka = Object.keys(a)
  const bo = b as Record<string, unknown>
  if (ka.length !== Object.keys(bo).length) return false
  for (const k of ka)
    if (!Object.hasOwn(bo, k) || !deepEqualJSON((a as Record<string, unknown>)[k], bo[k])) return false
  return true
}
