import { ErrorValue } from '../../cel/common/errors.js'
import { fn, type Library, memberOverload, overload } from '../../cel/functions.js'
import { BoolType, listOf, mapOf, opaque, StringType } from '../../cel/types/types.js'
import type { CelValue } from '../../cel/values/values.js'
import { parseRequestURI, parseURL, URLError, URLValue } from '../values/url.js'
import { ceilFactor, type KubeCost, one, StringTraversalCostFactor, stringSize } from './lists.js'

// Library `kubernetes.urls` (k8s.io/apiserver pkg/cel/library/urls.go, value type pkg/cel/url.go).
// Kubernetes declares the type with cel.ObjectType("kubernetes.URL"); here it is an opaque type of the
// same name (runtime dispatch matches values by type name).

export const URLType = opaque('kubernetes.URL')

/**
 * `url(string)`: the string must pass ParseRequestURI (absolute URI or absolute path); the value is then
 * parsed again with Parse, because ParseRequestURI folds a `#fragment` into the path or query.
 */
function stringToURL(s: string): URLValue {
  const checked = parseRequestURI(s)
  if (checked instanceof URLError) {
    throw new ErrorValue(`URL parse error during conversion from string: ${checked.message}`)
  }
  const u = parseURL(s)
  // Parse is more lenient than ParseRequestURI, so this is not expected to fail
  if (u instanceof URLError) throw new ErrorValue(`URL parse error during conversion from string: ${u.message}`)
  return new URLValue(u)
}

function isURL(s: string): boolean {
  return !(parseRequestURI(s) instanceof URLError)
}

/** getQuery: a fresh map of string → list(string) (keys in order of first appearance). */
function getQuery(u: URLValue): CelValue {
  const out: Record<string, CelValue> = Object.create(null)
  for (const [k, v] of u.url.query()) out[k] = v
  return out
}

export const urlsLibrary: Library = {
  name: 'kubernetes.urls',
  functions: [
    fn('url', overload('string_to_url', [StringType], URLType, stringToURL)),
    fn(
      'getScheme',
      memberOverload('url_get_scheme', [URLType], StringType, (u: URLValue) => u.url.scheme),
    ),
    fn(
      'getHost',
      memberOverload('url_get_host', [URLType], StringType, (u: URLValue) => u.url.host),
    ),
    fn(
      'getHostname',
      memberOverload('url_get_hostname', [URLType], StringType, (u: URLValue) => u.url.hostname()),
    ),
    fn(
      'getPort',
      memberOverload('url_get_port', [URLType], StringType, (u: URLValue) => u.url.port()),
    ),
    fn(
      'getEscapedPath',
      memberOverload('url_get_escaped_path', [URLType], StringType, (u: URLValue) => u.url.escapedPath()),
    ),
    fn('getQuery', memberOverload('url_get_query', [URLType], mapOf(StringType, listOf(StringType)), getQuery)),
    fn('isURL', overload('is_url_string', [StringType], BoolType, isURL)),
  ],
}

/**
 * cost.go figures for these functions. `url`: ceil(size(arg) * 0.1) at run time and in the estimate,
 * whose result size is the argument's; the accessors cost 1. `isURL` has no entry in cost.go (default 1).
 */
export const urlsCosts: Readonly<Record<string, KubeCost>> = {
  string_to_url: {
    estimate: (_target, [s]) => ({ cost: ceilFactor(s!.size, StringTraversalCostFactor), resultSize: s!.size }),
    actual: ([s]) => Math.ceil(stringSize(s as string) * StringTraversalCostFactor),
  },
  url_get_scheme: one,
  url_get_host: one,
  url_get_hostname: one,
  url_get_port: one,
  url_get_escaped_path: one,
  url_get_query: one,
}

/**
 * cost.go for `_==_` with kubernetes.URL operands: 1 at run time; estimated as the traversal of a string
 * of at most the right operand's computed size, or 1 without one (cost.go reads both sizes from the right
 * operand).
 */
export const urlEqualsCost: KubeCost = {
  estimate: (_target, [, rhs]) => ({
    cost: ceilFactor({ min: 1n, max: rhs?.computedSize?.max ?? 1n }, StringTraversalCostFactor),
  }),
  actual: () => 1,
}
