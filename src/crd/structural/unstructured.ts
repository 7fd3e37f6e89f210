import { formatDouble } from '../../cel/values/format.js'
import { compareGoStrings, isObject, kindOf } from '../../kube/values/json.js'

// apimachinery unstructured helpers (NestedFieldNoCopy and the `%v accessor error` texts) and Go's
// `%v` rendering of unstructured values.

/** `fmt.Sprintf("%v", v)` of an unstructured value (maps print with sorted keys). */
export function goSprintV(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>'
    case 'string':
      return v as string
    case 'float64':
      return formatDouble(v as number)
    case 'slice':
      return `[${(v as unknown[]).map(goSprintV).join(' ')}]`
    case 'map': {
      const o = v as Record<string, unknown>
      return `map[${Object.keys(o)
        .sort(compareGoStrings)
        .map((k) => `${k}:${goSprintV(o[k])}`)
        .join(' ')}]`
    }
    default:
      return String(v)
  }
}

/** `%T` of an unstructured value. */
export function goTypeOf(v: unknown): string {
  return {
    string: 'string',
    bool: 'bool',
    int64: 'int64',
    float64: 'float64',
    slice: '[]interface {}',
    map: 'map[string]interface {}',
    null: '<nil>',
  }[kindOf(v)]
}

/** unstructured.NestedFieldNoCopy: the value at the path, whether it was found, or the accessor error. */
export function nestedField(
  obj: Record<string, unknown>,
  fields: readonly string[],
): { value?: unknown; found: boolean; error?: string } {
  let val: unknown = obj
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { found: false }
    if (!isObject(val)) {
      return {
        found: false,
        error: `.${fields.slice(0, i + 1).join('.')} accessor error: ${goSprintV(val)} is of the type ${goTypeOf(val)}, expected map[string]interface{}`,
      }
    }
    const f = fields[i] as string
    if (!Object.hasOwn(val, f)) return { found: false }
    val = val[f]
  }
  return { value: val, found: true }
}
