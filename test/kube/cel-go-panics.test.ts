import { describe, expect, it } from 'vitest'
import { DynType } from '../../src/cel/index.js'
import { compile } from '../../src/cel/program.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// cel-go's cost trackers for the lists extension (ext/lists.go trackListSort, trackListSortBy,
// trackListDistinct, trackListFlatten; the same in v0.26.1 and v0.29.2) assert their argument with
// `args[0].(traits.Lister)` / `args[1].(types.Int)`. The cost observer (interpreter/runtimecost.go
// Observe) calls them even when the call failed, so a receiver that is an error, or no list at all
// (a `dyn` one), panics; cel/program.go recovers the panic as `internal error: <Go's runtime text>`,
// which nothing absorbs, and the call's cost is never added. A call the checker left with several
// overloads (`dyn(x).sort()`) has no overload id, no tracker, and fails as usual.
//
// Expected: the CEL differential's oracle (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2 on cel-go
// v0.29.2, NewExpressions with `object` dyn, CostTracking with library.CostEstimator), with `object`
// bound to {"n": 0, "s": "abc", "d": 1.5, "b": true}. The texts are Go's runtime/iface.go
// TypeAssertionError: "X is not I: missing method M" (M the first method of I, in sorted order, that
// X lacks) for an interface, "ref.Val is X, not T" for a concrete type. 1.36 (cel-go v0.26.1) gives the
// same texts (a program on cel-go v0.26.1 with ext.Lists(ListsVersion(3)) and CostTracking).

const object = { n: 0, s: 'abc', d: 1.5, b: true }

/** [expression, cel-go's error, cel-go's cost] */
const cases: readonly (readonly [string, string, number])[] = [
  [
    '(object.n / 0 > 0 ? [1] : [2]).sort()',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    4,
  ],
  [
    '(object.n / 0 > 0 ? [1] : [2]).distinct()',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    4,
  ],
  [
    '(object.n / 0 > 0 ? ["a"] : ["b"]).sort()',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    4,
  ],
  [
    '[1, 2].sortBy(x, x / object.n)',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    35,
  ],
  ['[[1]].flatten(object.n / 0)', 'internal error: interface conversion: ref.Val is *types.Err, not types.Int', 3],
  ['[[1]].flatten(object.d)', 'internal error: interface conversion: ref.Val is types.Double, not types.Int', 2],
  [
    'dyn(object.n / 0).distinct()',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    4,
  ],
  [
    'object.distinct()',
    'internal error: interface conversion: *types.baseMap is not traits.Lister: missing method Add',
    1,
  ],
  [
    'object.s.distinct()',
    'internal error: interface conversion: types.String is not traits.Lister: missing method Contains',
    2,
  ],
  [
    'object.n.distinct()',
    'internal error: interface conversion: types.Int is not traits.Lister: missing method Contains',
    2,
  ],
  [
    'object.d.distinct()',
    'internal error: interface conversion: types.Double is not traits.Lister: missing method Contains',
    2,
  ],
  [
    'object.b.distinct()',
    'internal error: interface conversion: types.Bool is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(null).distinct()',
    'internal error: interface conversion: types.Null is not traits.Lister: missing method Add',
    0,
  ],
  [
    'dyn(quantity("1")).distinct()',
    'internal error: interface conversion: cel.Quantity is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(quantity("1").add(1)).distinct()',
    'internal error: interface conversion: *cel.Quantity is not traits.Lister: missing method Add',
    3,
  ],
  [
    'dyn(quantity("1").sub(quantity("2"))).distinct()',
    'internal error: interface conversion: *cel.Quantity is not traits.Lister: missing method Add',
    4,
  ],
  [
    'dyn(ip("1.2.3.4")).distinct()',
    'internal error: interface conversion: cel.IP is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(cidr("1.2.3.0/24")).distinct()',
    'internal error: interface conversion: cel.CIDR is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(url("https://a")).distinct()',
    'internal error: interface conversion: cel.URL is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(semver("1.0.0")).distinct()',
    'internal error: interface conversion: cel.Semver is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(format.dns1123Label()).distinct()',
    'internal error: interface conversion: cel.Format is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(duration("1s")).distinct()',
    'internal error: interface conversion: types.Duration is not traits.Lister: missing method Contains',
    0,
  ],
  [
    'dyn(timestamp("2020-01-01T00:00:00Z")).distinct()',
    'internal error: interface conversion: types.Timestamp is not traits.Lister: missing method Contains',
    0,
  ],
  [
    'dyn(optional.none()).distinct()',
    'internal error: interface conversion: *types.Optional is not traits.Lister: missing method Add',
    2,
  ],
  [
    'dyn(int).distinct()',
    'internal error: interface conversion: *types.Type is not traits.Lister: missing method Add',
    0,
  ],
  [
    'dyn(b"a").distinct()',
    'internal error: interface conversion: types.Bytes is not traits.Lister: missing method Contains',
    0,
  ],
  [
    'dyn(5u).distinct()',
    'internal error: interface conversion: types.Uint is not traits.Lister: missing method Contains',
    0,
  ],
  ['dyn(object.n / 0).sort()', 'division by zero', 5],
  ['dyn(object.n / 0).reverse()', 'division by zero', 16],
  [
    'size(dyn(object.n / 0).distinct()) == 0 || true',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    4,
  ],
  [
    '[1, 2].all(x, dyn(x / object.n).distinct() == [])',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    8,
  ],
  ['dyn(object.n / 0).flatten(1)', 'division by zero', 16],
  [
    'lists.range(-1).sortBy(x, x % 3)',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    14,
  ],
  [
    '[].slice(2, 0).sortBy(x, x % 3)',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    14,
  ],
  [
    '[1, -42].transformList(i, v, v + 1).slice(-1, 5).sortBy(x, 1)',
    'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add',
    43,
  ],
  ['dyn(lists.range(-1)).sortBy(x, x)', 'lists.range: size must be non-negative, got -1', 16],
]

describe('cel-go panics in the lists cost trackers (error or non-list receivers)', () => {
  for (const backend of ['closures', 'js'] as const)
    for (const [expr, error, cost] of cases)
      it(`1.37 ${backend}: ${expr}`, () => {
        const env = kubeEnv({ version: '1.37', variables: { object: DynType } })
        const r = compile(expr, { env, backend, costLimit: PerCallLimit }).tryRun({ object })
        expect('error' in r ? r.error.message : r.value).toBe(error)
        expect(r.cost).toBe(cost)
      })
  // cel-go v0.26's lists.range(-1) is [] (no error to sort)
  for (const [expr, error] of cases.filter(([e]) => !e.includes('lists.range(-1)')))
    it(`1.36: ${expr}`, () => {
      const env = kubeEnv({ version: '1.36', variables: { object: DynType } })
      const r = compile(expr, { env, costLimit: PerCallLimit }).tryRun({ object })
      expect('error' in r ? r.error.message : r.value).toBe(error)
    })
})
