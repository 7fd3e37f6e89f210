import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// Run-time costs of calls that fail, as Kubernetes charges them (cel-go's EvalDetails.ActualCost, charged to
// the budgets also for a failed rule), for the shapes the 100,000-expression CEL differential (test/e2e/cel,
// seed 1) found kelp charging otherwise. Every figure is the oracle's answer (test/e2e/cel/oracle:
// k8s.io/apiserver v0.37.2 on cel-go v0.29.2, the admission environment with `object`, `oldObject` and
// `params` declared dyn, the per-call limit) on the bindings below; each group names the source that explains it.

const object = {
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: {} },
  spec: { image: 'nginx:1.25', replicas: 3, empty: '', tags: ['a'], unicode: '😀𝄞' },
}
const params = { strict: false, limit: 3, prefix: 'pre' }

type Figure = readonly [expr: string, cost: number, error: string]

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
          it(`${version} ${backend}: ${expr} costs ${cost} and fails`, () => {
            const r = run(version, expr, backend)
            expect('error' in r ? r.error.message : undefined).toBe(error)
            expect(r.cost).toBe(cost)
          })
  })
}

// k8s.io/apiserver pkg/cel/library/cost.go CallCost switches on the function name: `quantity`, `isQuantity`,
// `semver`, `isSemver` charge ceil(actualSize(args[0]) × 0.1) whatever the argument is, so a dyn argument of
// another type, which the overload's type guard then rejects, is charged by its size (a map its entries,
// bytes their length), not cel-go's default 1. The same in apiserver v0.36 (Kubernetes 1.36, cel-go v0.26).
figures(
  'a library parsing function given a dyn argument of another type',
  ['1.36', '1.37'],
  [
    ['quantity(dyn(object.metadata.labels))', 5, 'no such overload: quantity(map)'],
    ["quantity(dyn(b''))", 0, 'no such overload: quantity(bytes)'],
    ['isQuantity(dyn([1,2,3,4,5,6,7,8,9,10,11]))', 2, 'no such overload: isQuantity(list)'],
    ["semver(dyn(b'abcdefghijkl'))", 2, 'no such overload: semver(bytes)'],
    ["isSemver(dyn(b''), true)", 0, 'no such overload: isSemver(bytes, bool)'],
    ['semver(dyn(object.spec))', 4, 'no such overload: semver(map)'],
  ],
)

const PANIC = 'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add'

// A key that panics (ext/lists.go's cost tracker asserting a list on an error: cel/program.go recovers it as
// an internal error) unwinds the attribute's resolution: cel-go observes an attribute's root (an identifier,
// or a relative attribute's own 1) only after all its qualifiers (interpreter/interpretable.go evalWatchAttr,
// runtimecost.go Observe), so the root is never charged; the qualifiers already applied and the key's own
// nodes are. A conditional's branch root is not observed in any case (planCallConditional).
figures(
  'an index whose key panics',
  ['1.37'],
  [
    ['params[?[1].map(x, x / 0).distinct()]', 15, PANIC],
    ['params[[1].map(x, x / 0).distinct()]', 15, PANIC],
    ['object.spec[?[1].map(x, x / 0).distinct()]', 16, PANIC],
    ['object.metadata.labels[[1].map(x, x / 0).distinct()].size()', 17, PANIC],
    ['[object][0][[1].map(x, x / 0).distinct()]', 27, PANIC],
    ['dyn(object).spec[[1].map(x, x / 0).distinct()]', 18, PANIC],
    ['(true ? object : params).spec[[1].map(x, x / 0).distinct()]', 16, PANIC],
    ['[object].map(y, y[[1].map(x, x / 0).distinct()])', 27, PANIC],
    [
      'params[?(lists.range(-1).distinct() + [].slice(0, 5).slice(1, 2)).filter(x, x / 0 == 1).map(x, string(x)).join()]',
      12,
      PANIC,
    ],
  ],
)

// interpreter/runtimecost.go costCall keys `+`'s formula by call.OverloadID(): when the checker resolved the
// call to add_string / add_bytes alone (one operand a string or bytes, the other dyn) and the dyn operand
// is of another kind, the failed call still costs ceil((size(a) + size(b)) × 0.1), an operand that is no
// Sizer (an int, a map of Go's JSON) counting 1. The same switch in cel-go v0.26.1.
figures(
  'a string or bytes concatenation whose dyn operand is of another kind',
  ['1.36', '1.37'],
  [
    [
      '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + optional.of(0).orValue(object.metadata.name)',
      8,
      'no such overload',
    ],
    ["dyn(1) + 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'", 7, 'no such overload'],
    ["b'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' + dyn(object.spec.tags)", 8, 'no such overload'],
    ["'a' + dyn(object.spec.replicas)", 5, 'no such overload'],
    ["dyn(object.metadata.labels) + 'aaaaaaaaaaaaaaaaaaaaaa'", 7, 'no such overload: _+_'],
  ],
)

// cost.go CallCost keys containsIP / containsCIDR by function name: the comparison's cost from the CIDR
// receiver's size (4 or 16 bytes), the string's parse only when the call resolved to the string overload
// (a dyn argument leaves it to both: overload id ""). A dyn argument of another kind is charged so too.
figures(
  'containsIP / containsCIDR given a dyn argument of another kind',
  ['1.36', '1.37'],
  [
    [
      'cidr("10.0.0.0/8").masked().containsCIDR(optional.of(1).orValue(object.spec.empty))',
      6,
      'no such overload: containsCIDR(net.CIDR, int)',
    ],
    ['cidr("10.0.0.0/8").containsCIDR(dyn(object.spec.tags))', 8, 'no such overload: containsCIDR(net.CIDR, list)'],
    ['cidr("::1/128").containsCIDR(dyn(object.spec.tags))', 12, 'no such overload: containsCIDR(net.CIDR, list)'],
    ['cidr("10.0.0.0/8").containsIP(dyn(object.spec.replicas))', 6, 'no such overload: containsIP(net.CIDR, int)'],
    [
      'cidr("::1/128").containsIP(dyn(b\'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\'))',
      5,
      'no such overload: containsIP(net.CIDR, bytes)',
    ],
  ],
)

// cost.go CallCost `validate`: whenever the receiver is a format, ceil((1 + actualSize(args[1])) × 0.1) ×
// ceil(MaxRegexSize × 0.25), whatever the argument is (a list's or a map's size is its entries, an int 1).
figures(
  'a format validate given a dyn argument of another kind',
  ['1.36', '1.37'],
  [
    [
      'format.labelValue().validate(format.dns1123Label().validate("tab\\tnew\\nline").orValue(object.spec.image))',
      28,
      'no such overload: validate(kubernetes.NamedFormat, list)',
    ],
    [
      'format.labelValue().validate(dyn(object.spec.tags))',
      15,
      'no such overload: validate(kubernetes.NamedFormat, list)',
    ],
    [
      'format.dns1123Label().validate(dyn(object.metadata.labels))',
      13,
      'no such overload: validate(kubernetes.NamedFormat, map)',
    ],
    ['format.uri().validate(dyn(1))', 277, 'no such overload: validate(kubernetes.NamedFormat, int)'],
    [
      "format.named('uuid').value().validate(dyn(b'aaaaaaaaaaaaaaaaaaaaaaaaaaa'))",
      56,
      'no such overload: validate(kubernetes.NamedFormat, bytes)',
    ],
  ],
)

const LIMIT = 'operation cancelled: actual cost limit exceeded'

// The same when the key crosses the per-call cost limit: cel-go's tracker panics at the crossing
// observation (runtimecost.go), before the attribute's root is observed, and reports the cost so far.
figures(
  'an index whose key crosses the cost limit',
  ['1.37'],
  [
    [
      "object.metadata.labels[?object.spec[?'😀'].orValue(lists.range(1000).sort().map(x, string(x) + 'x')[-42])]",
      2001026,
      LIMIT,
    ],
    ["params[?lists.range(1000).sort().map(x, string(x) + 'x')[-42]]", 2001022, LIMIT],
    ["[object][0][lists.range(1000).sort().map(x, string(x) + 'x')[-42]]", 2001034, LIMIT],
  ],
)

// map / filter step `@result + [t]`: cel-go observes the accumulator (1), the element (the transform's nodes,
// or the iteration variable: 1), the list (10) and the `+` (1) one by one, and the cost limit stops at the
// first observation past it (runtimecost.go), which the reported cost then includes.
figures(
  'a map or filter whose step crosses the cost limit',
  ['1.36', '1.37'],
  [
    ['lists.range(1000).map(x, lists.range(1000).map(y, y))', 1000001, LIMIT],
    ['lists.range(1000).map(x, lists.range(999).map(y, y))', 1000007, LIMIT],
    ['lists.range(1000).map(x, lists.range(1000).filter(y, true))', 1000001, LIMIT],
    ["lists.range(1000).map(x, lists.range(997).map(y, 'c'))", 1000001, LIMIT],
    ['lists.range(1000).map(x, lists.range(998).filter(y, y > 2))', 1000007, LIMIT],
    ['object.spec[?string(lists.range(1000).map(x, lists.range(1000).map(y, y)).size())]', 1000002, LIMIT],
  ],
)

// The same for a comprehension whose step appends to its own accumulator (ext/comprehensions.go
// transformList: `@result + [t]`): the list (10) and the `+` (1) are two observations.
figures(
  'a transformList whose step crosses the cost limit',
  ['1.37'],
  [
    ['lists.range(1000).map(x, lists.range(1000).transformList(i, y, i))', 1000001, LIMIT],
    ['lists.range(1000).map(x, lists.range(999).transformList(i, y, y))', 1000007, LIMIT],
    ['lists.range(1000).map(x, lists.range(997).transformList(i, y, y))', 1000006, LIMIT],
  ],
)
