import { describe, expect, it } from 'vitest'
import { DynType } from '../../src/cel/index.js'
import { compile } from '../../src/cel/program.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// cel-go prints a value's Go type (`%T`) in some errors: a map or list index that is no string, int,
// uint, bool or double (interpreter/attributes.go newQualifier: `invalid qualifier type: %T`), a
// comprehension over a value that is not iterable (interpreter/interpretable.go evalFold: `got '%T',
// expected iterable type`, `unsupported comprehension range type: %T`). Kubernetes' library values are
// apiservercel.Quantity (a pointer after add / sub), IP, CIDR, URL, Semver, Format: Go names them
// `cel.Quantity`, `*cel.Quantity`, `cel.IP`, …
//
// Expected: the CEL differential's oracle (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2 on cel-go
// v0.29.2), `object` bound to {"spec": {"a": 1}}.

const object = { spec: { a: 1 } }

/** [expression, cel-go's error, cel-go's cost] */
const cases: readonly (readonly [string, string, number])[] = [
  ['object.spec[dyn(quantity("1"))]', 'invalid qualifier type: cel.Quantity', 5],
  ['object.spec[?dyn(quantity("1"))]', 'invalid qualifier type: cel.Quantity', 4],
  ['object.spec[dyn(quantity("1").add(1))]', 'invalid qualifier type: *cel.Quantity', 6],
  ['[1][dyn(ip("1.2.3.4"))]', 'invalid qualifier type: cel.IP', 4],
  ['object.spec[dyn(cidr("1.2.3.0/24"))]', 'invalid qualifier type: cel.CIDR', 5],
  ['object.spec[dyn(url("https://a"))]', 'invalid qualifier type: cel.URL', 5],
  ['object.spec[dyn(semver("1.0.0"))]', 'invalid qualifier type: cel.Semver', 5],
  ['object.spec[dyn(format.dns1123Label())]', 'invalid qualifier type: cel.Format', 5],
  ['dyn(quantity("1")).all(x, true)', "got 'cel.Quantity', expected iterable type", 2],
  ['dyn(ip("1.2.3.4")).exists(x, true)', "got 'cel.IP', expected iterable type", 2],
  ['dyn(url("https://a")).map(x, x)', "got 'cel.URL', expected iterable type", 2],
  ['dyn(quantity("1")).all(x, y, true)', 'unsupported comprehension range type: cel.Quantity', 2],
  ['dyn(semver("1.0.0")).transformList(x, y, y)', 'unsupported comprehension range type: cel.Semver', 2],
]

describe("Kubernetes library values' Go type names in cel-go's errors", () => {
  for (const backend of ['closures', 'js'] as const)
    for (const [expr, error, cost] of cases)
      it(`1.37 ${backend}: ${expr}`, () => {
        const env = kubeEnv({ version: '1.37', variables: { object: DynType } })
        const r = compile(expr, { env, backend, costLimit: PerCallLimit }).tryRun({ object })
        expect('error' in r ? r.error.message : r.value).toBe(error)
        expect(r.cost).toBe(cost)
      })
})
