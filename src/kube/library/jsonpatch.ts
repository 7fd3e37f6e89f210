import { withOverloadCosts } from '../../cel/cost/overloads.js'
import { fn, type Library, overload } from '../../cel/functions.js'
import { StringType } from '../../cel/types/types.js'
import { ceilFactor, type KubeCost, StringTraversalCostFactor, stringSize } from './lists.js'

// Library `kubernetes.jsonpatch` (k8s.io/apiserver pkg/cel/library/jsonpatch.go). Kubernetes does not
// put it in the base environment: the mutating admission policy compiler adds it for JSONPatch
// expressions. `jsonpatch.escapeKey(s)` escapes a string for use as a JSON Pointer path segment
// (RFC 6901): `~` becomes `~0`, `/` becomes `~1` (Go strings.NewReplacer("/", "~1", "~", "~0")).

/** `jsonpatch.escapeKey('k8s.io/my~label') == 'k8s.io~1my~0label'`. */
export function escapeKey(s: string): string {
  if (s.indexOf('~') < 0 && s.indexOf('/') < 0) return s
  return s.replace(/[~/]/g, (c) => (c === '~' ? '~0' : '~1'))
}

/**
 * cost.go: `jsonpatch.escapeKey` is charged as `url` is, ceil(size(s) * 0.1) at run time and in the
 * estimate, whose result size is the argument's.
 */
export const jsonPatchCosts: Readonly<Record<string, KubeCost>> = {
  string_jsonpatch_escapeKey_string: {
    estimate: (_target, [s]) => ({ cost: ceilFactor(s!.size, StringTraversalCostFactor), resultSize: s!.size }),
    actual: ([s]) => Math.ceil(stringSize(s as string) * StringTraversalCostFactor),
  },
}

/** The library, with its run-time costs (add it to an environment: `env.extend({ libraries: [jsonPatchLibrary] })`). */
export const jsonPatchLibrary: Library = withOverloadCosts(
  {
    name: 'kubernetes.jsonpatch',
    functions: [
      fn('jsonpatch.escapeKey', overload('string_jsonpatch_escapeKey_string', [StringType], StringType, escapeKey)),
    ],
  },
  jsonPatchCosts,
)
