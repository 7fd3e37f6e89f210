// The reviewed list of the classes of difference between kelp's CEL and Kubernetes 1.37's (k8s.io/apiserver
// v0.37.2 on cel-go v0.29.2) that the CEL differential (cel.e2e.test.ts) finds. Each entry is narrow: the aspects,
// the functions or operators at the root of the smallest differing subexpression, and a test on the two outcomes
// that says what the difference looks like; each says why. kelp implements cel-go v0.29 for 1.37 and v0.26 for
// 1.34–1.36 (src/kube/environment.ts celGoVersion).
//
// Runs: seed 1, 100,000 expressions, main at 2ecc942 (before the cel-go v0.29 port; 2,355 s on 2 shared cores at
// load ~16): compile verdict 97.871 %, value 99.929 %, error text 87.985 %, cost 93.169 %, estimate 99.636 %, 5 kelp
// hangs (a quadratic transformMap). Seed 1, 10,000 expressions, after the port (cel-v029) and the linear transformMap
// (2026-12-06, 59 s): compile 100 %, value 99.974 %, error 95.627 %, cost 97.125 %, estimate 99.961 %, no crash or
// hang, 35 classes, every one explained below. The entries the port made obsolete (duration(int), orValue, indexOf
// clamping, format's "bytes", the costs of `in` / sort / startsWith on dyn and of constant macro bodies, the matches
// estimate, compile-time constant conversions, cel-go's no-such-overload texts, comprehensions over a non-list, the
// quadratic transformMap) are removed: a difference of theirs now fails the test.
import type { Aspect, Found } from './compare.js'

export interface KnownCelDifference {
  readonly id: string
  readonly aspects: readonly Aspect[]
  /** The productions (generate.ts Node.fn: a function, operator or macro name) at the difference's root; '*': any. */
  readonly fn: readonly string[]
  /** What the two outcomes (at the root) look like. */
  readonly when: (f: Found) => boolean
  readonly cause: string
  /** Among the differences the cel-go v0.29 port (branch cel-v029) is fixing. */
  readonly celV029?: boolean
}

const err = (o: Found['kelp']) => o.error ?? ''
const bothFail = (f: Found) => f.kelp.error !== undefined && f.go.error !== undefined

export const KNOWN_CEL_DIFFERENCES: readonly KnownCelDifference[] = [
  {
    id: 'lists-functions-on-an-error-receiver',
    aspects: ['error', 'value', 'cost'],
    fn: ['*'],
    when: (f) => /interface conversion: \*types\.Err is not traits\.Lister/.test(err(f.go)),
    cause:
      'cel-go v0.29.2 ext/lists.go: sort, @sortByAssociatedKeys (sortBy), reverse and distinct assert their ' +
      'receiver to traits.Lister (`arg.(traits.Lister)`) without checking for an error value; the panic is ' +
      'recovered by the interpreter as `internal ' +
      "error: interface conversion: *types.Err is not traits.Lister`; kelp passes the receiver's own error on",
  },
  {
    id: 'cost-of-comprehensions-over-json-maps',
    aspects: ['cost'],
    fn: [
      'exists',
      'all',
      'exists_one',
      'existsOne',
      'transformMap',
      'transformMapEntry',
      'map',
      'filter',
      '_&&_',
      '_||_',
      '!_',
      '_?_:_',
      '_==_',
      '_!=_',
      '@in',
      'type',
      '{}',
    ],
    // a macro over a JSON object (its key variable is `k`) that stops early or fails on some entries
    when: (f) =>
      f.kelp.cost !== f.go.cost &&
      /\.(all|exists|exists_one|existsOne|transformMap|transformMapEntry|map|filter)\(k,/.test(f.text),
    cause:
      "Go's random map order: cel-go ranges over a map value (a JSON object) in Go's randomised order, so where " +
      '`exists` / `all` stop, and on which entry a `transformMap` body first fails (after which each entry costs ' +
      "only the accumulator's read), change from run to run, and so does the cost; kelp ranges in the object's " +
      "key order, and its cost is one of those cel-go gives (measured: `object.all(k, k.startsWith('a'))` costs 9 " +
      'or 14 in cel-go, 14 in kelp; `object.spec.transformMap(k, v, string(v))` 21 to 41 over 60 cel-go runs, 41 ' +
      'in kelp). The cel-go v0.29 cost rules themselves agree (src/cel/compiler/closures.ts)',
  },
  {
    id: 'quantity-arithmetic-overflow',
    aspects: ['value', 'error'],
    fn: ['asApproximateFloat', 'asInteger', 'add', 'sub', 'quantity.compareTo', 'sign'],
    when: () => true,
    cause:
      'Quantity add / sub with an int near int64 bounds: apimachinery resource.Quantity wraps (int64 scaled ' +
      'arithmetic), kelp keeps the exact sum',
  },
  {
    id: 'map-iteration-order-decides-the-error',
    aspects: ['error', 'cost'],
    fn: ['transformMap', 'transformMapEntry', 'map', 'filter', 'all', 'exists', 'existsOne', 'exists_one'],
    when: (f) => {
      // the same failing call on two different entries of the map: `string(list)` against `string(null_type)`
      const call = (e: string) => /^no such overload: ([\w.]+)\(/.exec(e)?.[1]
      return bothFail(f) && call(err(f.kelp)) !== undefined && call(err(f.kelp)) === call(err(f.go))
    },
    cause:
      'a macro over a map (a JSON object) whose body fails on more than one entry: cel-go ranges over the Go map ' +
      "in Go's randomised map order, so the first failing entry (and the cost up to it) changes from run to run; " +
      "kelp ranges in the object's key order",
  },
  {
    id: 'opaque-heterogeneous-equality',
    aspects: ['value', 'error'],
    fn: ['_==_', '_!=_', '_?_:_', 'substring', '@in'],
    when: (f) => f.kelp.error === 'no such overload' && f.go.value !== undefined,
    cause:
      'dyn(quantity(…)) != dyn(1.5): cel-go compares values of different types as unequal; kelp has no `_==_` ' +
      'between a Kubernetes library value and another type',
  },
  {
    id: 'list-as-map-key-text',
    aspects: ['error'],
    fn: ['_[_]'],
    when: (f) => /^invalid qualifier type: /.test(err(f.go)),
    cause:
      'a list used as a map index: cel-go v0.29 (interpreter/attributes.go) says `invalid qualifier type: ' +
      '*types.baseList`, kelp `no such key: [...]`',
  },
  {
    id: 'cost-where-the-outcome-differs',
    aspects: ['cost'],
    fn: ['*'],
    when: (f) => (f.kelp.error === undefined) !== (f.go.error === undefined),
    cause:
      'one side fails where the other returns a value (a value difference listed above, e.g. ' +
      'opaque-heterogeneous-equality): the two evaluations take different paths after it, so their costs are ' +
      'not comparable',
  },
]

/** The entry explaining a difference, if any. */
export function knownCelDifference(f: Found): KnownCelDifference | undefined {
  return KNOWN_CEL_DIFFERENCES.find(
    (k) => k.aspects.includes(f.aspect) && (k.fn.includes(f.fn) || k.fn[0] === '*') && k.when(f),
  )
}
