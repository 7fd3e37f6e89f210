import { describe, expect, it } from 'vitest'
import { DynType } from '../../src/cel/index.js'
import { compile } from '../../src/cel/program.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// Equality of Kubernetes library values (Quantity, IP, CIDR, URL, Semver, Format) with other types.
// Their Equal methods (k8s.io/apiserver pkg/cel/{quantity,ip,cidr,url,semver,format}.go) answer
// `no such overload` (MaybeNoSuchOverloadErr / ValOrErr) for any other type, so `==` fails; but cel-go's
// `!=` is `Bool(Equal(l, r) != True)` (interpreter/interpretable.go evalNe, v0.26 and v0.29), so it is
// true; a list or map holding such a pair compares element by element and stops only at False
// (common/types/list.go baseList.Equal, map.go baseMap.Equal), so the error counts as equal there;
// membership (baseList.Contains) counts only True. A pointer `*cel.Quantity` (the result of add / sub)
// is not a `cel.Quantity` to the left operand's Equal.
//
// Expected: the CEL differential's oracle (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2 on cel-go
// v0.29.2), `object` bound to {"n": 0, "s": "abc"}.

const object = { n: 0, s: 'abc' }

/** [expression, cel-go's outcome, cel-go's cost] */
const cases: readonly (readonly [string, { value: boolean } | { error: string }, number])[] = [
  ['dyn(quantity("1E")) != dyn(1.5)', { value: true }, 3],
  ['dyn(quantity("1E")) == dyn(1.5)', { error: 'no such overload' }, 3],
  ['dyn(quantity("1.5Gi")) != dyn(optional.of(1))', { value: true }, 5],
  ['dyn(quantity("1")) != dyn(quantity("1").add(0))', { value: true }, 6],
  ['dyn(quantity("1").add(0)) != dyn(quantity("1"))', { value: false }, 6],
  ['dyn(quantity("1")) != quantity("1")', { value: false }, 4],
  ['dyn(ip("1.2.3.4")) != dyn(cidr("1.2.3.0/24"))', { value: true }, 5],
  ['dyn(ip("1.2.3.4")) == dyn(cidr("1.2.3.0/24"))', { error: 'no such overload' }, 5],
  ['dyn(cidr("1.2.3.0/24")) != dyn("1.2.3.0/24")', { value: true }, 3],
  ['dyn(url("https://a")) != dyn("https://a")', { value: true }, 3],
  ['dyn(semver("1.0.0")) != dyn(1)', { value: true }, 3],
  ['dyn(format.dns1123Label()) != dyn(1u)', { value: true }, 3],
  ['dyn(quantity("1")) != null', { value: true }, 3],
  ['dyn(1.5) != dyn(quantity("1"))', { value: true }, 3],
  ['[dyn(quantity("1"))] != [dyn(1)]', { value: false }, 13],
  ['{"a": dyn(quantity("1"))} != {"a": dyn(1)}', { value: false }, 33],
  ['dyn(quantity("1")) != dyn(object.n / 0)', { error: 'division by zero' }, 7],
  ['dyn(quantity("1")) in [dyn(1), dyn(quantity("1"))]', { value: true }, 16],
  ['dyn(1) in [dyn(quantity("1"))]', { value: false }, 13],
  ['object.s != dyn(semver("1.0.0"))', { value: true }, 5],
  ['dyn(ip("1.2.3.4")) != dyn(ip("1.2.3.4"))', { value: false }, 5],
  ['[dyn(quantity("1")), dyn(2)] == [dyn(1), dyn(3)]', { value: false }, 13],
  ['[dyn(quantity("1"))] == [dyn(1)]', { value: true }, 13],
  ['{"a": dyn(ip("1.2.3.4"))} == {"a": dyn("x")}', { value: true }, 33],
  ['[[dyn(url("https://a"))]] != [[dyn(1)]]', { value: false }, 23],
]

describe('equality of Kubernetes library values with other types (cel-go evalNe, baseList / baseMap Equal)', () => {
  for (const version of ['1.37', '1.36'])
    for (const backend of ['closures', 'js'] as const)
      for (const [expr, want, cost] of cases)
        it(`${version} ${backend}: ${expr}`, () => {
          const env = kubeEnv({ version, variables: { object: DynType } })
          const r = compile(expr, { env, backend, costLimit: PerCallLimit }).tryRun({ object })
          expect('error' in r ? { error: r.error.message } : { value: r.value }).toEqual(want)
          if (version === '1.37') expect(r.cost).toBe(cost)
        })
})
