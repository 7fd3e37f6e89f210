// apiequality.Semantic.DeepEqual over the decoded internal types: since decoding leaves Go zero values
// out, structural equality of plain data is Go's reflect.DeepEqual (nil and empty still differ, as an
// absent key and an empty list or object). The Semantic overrides (quantities, times, selectors) do
// not occur in a CustomResourceDefinition spec.

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    if (a.length !== bb.length) return false
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false
    return true
  }
  const ka = definedKeys(a as Record<string, unknown>)
  const kb = definedKeys(b as Record<string, unknown>)
  if (ka.length !== kb.length) return false
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false
  }
  return true
}

function definedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined)
}
