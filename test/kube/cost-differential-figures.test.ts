import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { estimateKubeCost } from '../../src/kube/cost.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// Run-time costs (cel-go's EvalDetails.ActualCost, which the apiserver charges to its budgets, also for a
// failed rule) as Kubernetes computes them, for the shapes the CEL differential (test/e2e/cel) found kelp
// charging otherwise. Every figure is the oracle's answer (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2 on
// cel-go v0.29.2, the admission environment with `object`, `oldObject` and `params` declared dyn, the per-call
// limit), measured on the bindings below; each group names the cel-go / apiserver source that explains it.
// Where the source is the same in cel-go v0.26.1 (Kubernetes 1.34-1.36), the figure is checked there too.

const object = {
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: {} },
  spec: { image: 'nginx:1.25', replicas: 3, empty: '', tags: ['a'], unicode: '😀𝄞' },
}
const params = { strict: false, limit: 3, prefix: 'pre' }

/** The text of a failed cidr() conversion. */
const CIDR = (s: string, why: string) =>
  `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("${s}"): ${why}`

type Figure = readonly [expr: string, cost: number, error?: string]

function run(version: '1.36' | '1.37', expr: string, backend: 'js' | 'closures') {
  const env = kubeEnv({ version, variables: { object: DynType, oldObject: DynType, params: DynType } })
  const program = compile(expr, { env, costLimit: PerCallLimit, backend })
  const act = { object, oldObject: null, params } as unknown as Record<string, CelValue>
  // twice: the second run of the js back end takes the generated code's path
  program.tryRun(act)
  return program.tryRun(act)
}

function figures(title: string, versions: readonly ('1.36' | '1.37')[], cases: readonly Figure[]): void {
  describe(title, () => {
    for (const version of versions)
      for (const backend of ['js', 'closures'] as const)
        for (const [expr, cost, error] of cases)
          it(`${version} ${backend}: ${expr} costs ${cost}${error ? ' and fails' : ''}`, () => {
            const r = run(version, expr, backend)
            expect('error' in r ? r.error.message : undefined).toBe(error)
            expect(r.cost).toBe(cost)
          })
  })
}

// interpreter/planner.go planCallIndex: a key that is an attribute becomes an attrQualifier, observed once
// when it qualifies (runtimecost.go Observe, `case Qualifier`); a conditional key has no root observation
// that this one stands for, unlike an identifier's (planCallConditional builds a conditionalAttribute).
figures(
  'an index whose key is a conditional',
  ['1.36', '1.37'],
  [
    ["object.metadata.labels[?(true ? 'NaN' : object.metadata.labels['app'])]", 3],
    ["['1e3'][(params.strict ? params.limit : 10)]", 4, 'index out of bounds: 10'],
    ["object.spec[(params.strict ? oldObject.metadata.name : 'x')]", 5, 'no such key: x'],
    ['object[object.spec.image == "x" ? "spec" : "metadata"].name', 7],
    ["object.spec[true ? 'replicas' : 'x']", 3],
  ],
)

// interpreter/decorators.go decRegexOptimizer: a constant pattern makes matches (MatchesRegexOptimization,
// under OptOptimize) and Kubernetes' find / findAll (library/regex.go FindRegexOptimization,
// FindAllRegexOptimization) an interpreter.NewCall, i.e. an evalVarArgs: a failed receiver stops the call
// before the pattern is evaluated, and the observer charges no call whose arguments it did not all see
// (runtimecost.go dropArgs). A pattern that is not a constant keeps the strict call, charged with the error.
figures(
  'a regex call with a constant pattern on a failed receiver',
  ['1.36', '1.37'],
  [
    ['object.spec.x.findAll("(a|b)*c")', 3, 'no such key: x'],
    ['object.spec.x.find("(a|b)*c")', 3, 'no such key: x'],
    ['object.spec.x.findAll("(a|b)*c", 2)', 3, 'no such key: x'],
    ['object.spec.x.matches("(a|b)*c")', 3, 'no such key: x'],
    ['matches(object.spec.x, "(a|b)*c")', 3, 'no such key: x'],
    ['object.spec.image.matches(object.spec.x)', 8, 'no such key: x'],
    ['object.spec.x.matches(object.spec.image)', 9, 'no such key: x'],
    ['object.spec.image.find("n")', 5],
  ],
)

// runtimecost.go costCall keys a call's formula by call.OverloadID(), the overload the checker chose, and
// Kubernetes' CallCost (library/cost.go) by function name: a failed argument does not change the formula, it
// is sized 1 there (actualSize: an error is no traits.Sizer). So `"héllo wörld" + <error>` is add_string's
// ceil((11 + 1) * 0.1) = 2, containsCIDR on a failed argument keeps cidr_contains_cidr (no parse of a string),
// and validate on a failed string is ceil((1 + 1) * 0.1) * ceil(maxRegexSize * 0.25).
figures(
  'a call charged by its formula when an argument failed',
  ['1.36', '1.37'],
  [
    [
      'cidr("1.2.3.4/33").masked().containsCIDR(cidr("héllo wörld"))',
      7,
      CIDR('1.2.3.4/33', 'prefix length out of range'),
    ],
    ['cidr("10.0.0.0/8").masked().containsCIDR(cidr("x"))', 6, CIDR('x', "no '/'")],
    ['cidr("10.0.0.0/8").containsCIDR(object.spec.x)', 7, 'no such key: x'],
    ['cidr("::1").masked().containsIP("1" + object.spec.image)', 10, CIDR('::1', "no '/'")],
    ['format.labelValue().validate(object.metadata.annotations["a"])', 15, 'no such key: a'],
    ['format.dns1035LabelPrefix().validate(string(cidr("a,b,c")))', 11, CIDR('a,b,c', "no '/'")],
    ['"héllo wörld" + object.metadata.labels["x"]', 6, 'no such key: x'],
    ['object.spec.x + "héllo wörld"', 5, 'no such key: x'],
    ['object.spec.x.findAll(object.spec.image)', 9, 'no such key: x'],
    ['object.spec.x < ""', 3, 'no such key: x'],
    ['"abcdefghijklmnopqrstuvwxyz".contains(object.spec.x)', 6, 'no such key: x'],
    ['object.spec.x.contains("abcdefghijklmnopqrstuvwxyz")', 6, 'no such key: x'],
    ['ip(object.spec.x)', 4, 'no such key: x'],
    ['url(object.spec.x)', 4, 'no such key: x'],
    // an optional's size is its value's (actualSize, v0.26 and v0.29 alike)
    ['optional.of("abcdefghijklmnopqrstuvwxyz") == optional.of("abcdefghijklmnopqrstuvwxyz")', 5],
  ],
)

// A conditional resolves its branch attribute without the branch's watcher (attributes.go
// conditionalAttribute.Resolve): a relative root (`f(x)[0]`) is not observed, whether it fails or not.
figures(
  "a conditional branch's relative root that fails",
  ['1.36', '1.37'],
  [
    ['false ? "a" : ["a"].slice(2,3)[0]', 12, 'cannot slice(2, 3), list is length 1'],
    ['true ? ["a"].slice(2,3)[0] : "b"', 12, 'cannot slice(2, 3), list is length 1'],
    ['false ? "a" : ["a"].slice(2,3)[?0].orValue("b")', 13, 'cannot slice(2, 3), list is length 1'],
    ['["a"].slice(2,3)[0]', 13, 'cannot slice(2, 3), list is length 1'],
  ],
)

const limit = 'operation cancelled: actual cost limit exceeded'

// The cost limit: cel-go builds a call's result, then its observer adds the call's cost and stops the
// evaluation (runtimecost.go Observe, EvalCancelledError); ActualCost is that sum. kelp refuses before it
// builds (src/cel/cost/budget.ts reserve) and reports the same figure: lists.range(n) costs n + 11 (ext/lists.go
// trackListOutputSize). In map(), `@result` is observed before the transform, the list and `+` after it.
figures(
  'the cost reached when the limit stops a call',
  ['1.37'],
  [
    ['lists.range(1000000).size()', 1_000_011, limit],
    ['lists.range(999990).size()', 1_000_001, limit],
    ['lists.range(2000).map(x, lists.range(2000)).size()', 1_001_362, limit],
    ['[1, 2].map(x, lists.range(999990)).size()', 1_000_002, limit],
    ['[1, 2].map(x, x > 1, lists.range(999990)).size()', 1_000_006, limit],
    ['[1, 2].filter(x, lists.range(999990).size() > 0).size()', 1_000_001, limit],
    ["lists.range(1000000).map(x, 'abcdefgh').join().size()", 1_000_011, limit],
  ],
)

// cost.go EstimateCallCost `replace`: the replacement count is uint64(math.Ceil(size / len(old))), and an
// unbounded (dyn) receiver's size is MaxUint64, so the float is 2^64: out of uint64's range. Go 1.26 on
// amd64 (the toolchain of Kubernetes 1.37 and of the oracle) converts it to 2^63 (ssagen floatToUint ORs
// 2^63 into the overflowed conversion), so the result size saturates at MaxUint64 and what is computed from
// it (another replace, indexOf, lastIndexOf) is estimated from that. The estimates are the oracle's.
describe('estimates of calls on the result of replace() on an unbounded string', () => {
  const cases: readonly [expr: string, min: bigint, max: bigint][] = [
    [
      "object.spec.empty.replace('ǅ', ' padded ', -2147483648).replace(object.metadata.namespace, object.metadata.namespace, object.spec.negative)",
      4n,
      7378697629483821060n,
    ],
    ["object.spec.image.replace('a', 'bb').size()", 2n, 3689348814741910530n],
    ["object.metadata.name.replace('ǅ', object.spec.name, 0).indexOf('x')", 2n, 5534023222112865794n],
    ["object.spec.image.replace('abc', 'x')", 1n, 3689348814741910529n],
  ]
  const env = kubeEnv({ version: '1.37', variables: { object: DynType, oldObject: DynType, params: DynType } })
  for (const [expr, min, max] of cases)
    it(`1.37: ${expr} is estimated [${min}, ${max}]`, () => {
      expect(estimateKubeCost(compile(expr, { env }), env)).toEqual({ min, max })
    })
})
