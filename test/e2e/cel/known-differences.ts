// The reviewed list of the classes of difference between kelp's CEL and Kubernetes 1.37's (k8s.io/apiserver
// v0.37.2 on cel-go v0.29.2) that the CEL differential (cel.e2e.test.ts) finds. Each entry is narrow: the aspects,
// the functions or operators at the root of the smallest differing subexpression, and a test on the two outcomes
// that says what the difference looks like; each says why. kelp implements cel-go v0.26 (Kubernetes 1.34–1.36)
// today. `celV029`: in the list of what the port of cel-go v0.29 (branch cel-v029, issue 28) is fixing; the
// entries without it are differences that list does not name yet.
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
const costLimit = /^operation cancelled: actual cost limit exceeded$/

/** The conversions and functions cel-go v0.29 folds when their arguments are constants. */
const FOLDED = [
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'timestamp',
  'duration',
  'quantity',
  'ip',
  'cidr',
  'url',
  'semver',
  'lists.range',
  '_/_',
  '_%_',
  '_+_',
  '_-_',
  '_*_',
  '-_',
  '_[_]',
  'charAt',
  'substring',
  'indexOf',
  'lastIndexOf',
  'replace',
  'split',
  'format',
  'find',
  'findAll',
  'matches',
  'slice',
  'flatten',
  'sum',
  'min',
  'max',
  'list.indexOf',
  'list.lastIndexOf',
  'validate',
  'add',
  'sub',
  'asInteger',
  'getFullYear',
  'getMonth',
  'getDayOfYear',
  'getDate',
  'getDayOfMonth',
  'getDayOfWeek',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
  'strings.quote',
  'join',
  'masked',
  'containsIP',
  'containsCIDR',
  'isGreaterThan',
  'isLessThan',
  'quantity.compareTo',
  'semver.compareTo',
  'quantity.isGreaterThan',
  'quantity.isLessThan',
  'semver.isGreaterThan',
  'semver.isLessThan',
]

export const KNOWN_CEL_DIFFERENCES: readonly KnownCelDifference[] = [
  {
    id: 'transformMap-quadratic',
    aspects: ['crash'],
    // a crash is not reduced to a subexpression: the expression's own root, the macro somewhere inside
    fn: ['*'],
    when: (f) => /^hang/.test(f.kelp.panic ?? '') && /\.transformMap(Entry)?\(/.test(f.text),
    cause:
      'kelp builds a new map for each entry transformMap / transformMapEntry insert (src/cel/ext/comprehensions.ts ' +
      'insert: quadratic); over lists.range(10000) it runs past the 20 s limit where cel-go, whose comprehension ' +
      'accumulator is mutable, takes milliseconds at a cost of 60,013 (far under the per-call limit)',
  },
  {
    id: 'duration-of-int',
    aspects: ['compile', 'value', 'error'],
    fn: ['duration'],
    when: (f) =>
      /found no matching overload for 'duration' applied to '\(int\)'|^no such overload: duration\(int\)$/.test(
        f.go.compile + err(f.go),
      ),
    cause:
      'cel-go v0.29 has no duration(int) overload (a policy using it is refused by 1.37); kelp, on v0.26, declares ' +
      'it and fails at run time (src/cel/values/time.ts intToDuration)',
    celV029: true,
  },
  {
    id: 'constant-evaluation-error-at-compile',
    aspects: ['compile'],
    fn: FOLDED,
    // cel-go's program creation (OptOptimize folds constant calls) fails with the error kelp gives at run time
    when: (f) => f.kelp.compile === '' && f.kelp.error !== undefined && f.go.compile === f.kelp.error,
    cause:
      'cel-go v0.29 (interpreter/optimizations, OptOptimize as base.go sets it) evaluates constant calls when the ' +
      "program is made and refuses the expression when one fails (`int('')`, `uint(1.8e19)`, `lists.range(-1)`); " +
      'kelp folds fewer constants and fails at run time with the same text',
    celV029: true,
  },
  {
    id: 'no-such-overload-names-the-overload',
    aspects: ['error'],
    fn: [
      'int',
      'uint',
      'double',
      'string',
      'bytes',
      'bool',
      'quantity',
      'ip',
      'cidr',
      'url',
      'semver',
      'strings.quote',
      'format.named',
      'transformMap',
      'transformList',
      'map',
      'filter',
      '_<_',
      '_<=_',
      '_>_',
      '_>=_',
      '_+_',
      '_-_',
      '_*_',
      '_/_',
      '_%_',
      'add',
      'sub',
      'timestamp',
      'duration',
      'size',
      'dyn',
      '_?_:_',
      'optMap',
      'exists',
      'all',
      'validate',
    ],
    when: (f) => f.kelp.error === 'no such overload' && /^no such overload: \S/.test(err(f.go)),
    cause:
      'cel-go v0.29 names the function and the argument types in a run-time overload failure (common/decls/' +
      'decls.go: `no such overload: %s(%s)`; interpreter/interpretable.go for operators: `no such overload: _<_`); ' +
      'kelp says `no such overload` (types.NoSuchOverloadErr)',
  },
  {
    id: 'lists-functions-on-an-error-receiver',
    aspects: ['error', 'value', 'cost'],
    fn: ['sort', 'sortBy', 'distinct', 'reverse', 'flatten', 'slice', 'first', 'last', 'sets.contains', 'isSorted'],
    when: (f) => /interface conversion: \*types\.Err is not traits\.Lister/.test(err(f.go)),
    cause:
      'cel-go v0.29.2 ext/lists.go: sort, @sortByAssociatedKeys (sortBy), reverse and distinct assert their ' +
      'receiver to traits.Lister (`arg.(traits.Lister)`) without checking for an error value; the panic is ' +
      'recovered by the interpreter as `internal ' +
      "error: interface conversion: *types.Err is not traits.Lister`; kelp passes the receiver's own error on",
  },
  {
    id: 'cost-limit-reserved-before-allocation',
    aspects: ['cost'],
    fn: ['lists.range', 'map', 'all', 'join', 'sort', 'filter', 'sortBy', 'transformList', 'size', '_[_]', 'exists'],
    when: (f) => f.kelp.cost === '0' && costLimit.test(err(f.kelp)) && costLimit.test(err(f.go)),
    cause:
      'kelp refuses a value that cannot fit the remaining budget before building it (src/cel/cost/budget.ts ' +
      'reserve) and reports cost 0; cel-go builds it and reports the cost reached at the interrupt',
  },
  {
    id: 'cost-of-a-failed-evaluation',
    aspects: ['cost'],
    fn: [...FOLDED, 'has', '@in', '_==_', '_!=_', '_&&_', '_||_', '_?_:_', '!_', '_[?_]', '_?._', 'or', 'orValue'],
    when: (f) => bothFail(f) && f.kelp.cost !== f.go.cost,
    cause:
      'what a failed evaluation costs: cel-go v0.29 (interpreter/runtimecost.go) charges a call only when its ' +
      'arguments evaluated, and folds constant arguments (cost 0); kelp charges by v0.26 rules (the call after a ' +
      'failed argument, constant subexpressions at run time). The apiserver charges this cost to its budgets',
  },
  {
    id: 'cost-of-constant-subexpressions',
    aspects: ['cost', 'value', 'error'],
    fn: ['map', 'filter', 'transformList', 'transformMap', 'sortBy', 'join', 'lists.range', 'size', '_+_', 'bytes'],
    when: (f) => Number(f.kelp.cost) > Number(f.go.cost) || (costLimit.test(err(f.kelp)) && f.go.error === undefined),
    cause:
      'cel-go v0.29 folds constant subexpressions when the program is made (dyn(), conversions, macros over ' +
      'constant lists with constant bodies: `[1, 2].map(x, 1)` costs 5, kelp 25), so they cost nothing at run time; ' +
      'a large constant one can even fit the limit there and not in kelp',
  },
  {
    id: 'cost-of-in-on-dyn',
    aspects: ['cost'],
    fn: ['@in'],
    when: (f) => f.kelp.cost !== f.go.cost,
    cause: "`in` on an operand typed dyn (object.spec.tags): cel-go v0.29's cost of the list or map search",
    celV029: true,
  },
  {
    id: 'cost-of-sort-on-dyn',
    aspects: ['cost'],
    fn: ['sort'],
    when: (f) => f.kelp.cost !== f.go.cost,
    cause: "sort() on a dyn receiver: cel-go v0.29's cost (ext/lists.go)",
    celV029: true,
  },
  {
    id: 'cost-of-startsWith-endsWith',
    aspects: ['cost'],
    fn: ['startsWith', 'endsWith'],
    when: (f) => f.kelp.cost !== f.go.cost,
    cause: 'startsWith / endsWith: cel-go v0.29 charges by the argument size, kelp by the receiver',
    celV029: true,
  },
  {
    id: 'estimate-of-matches',
    aspects: ['estimate'],
    fn: ['matches'],
    when: () => true,
    cause: "matches(s, re): cel-go v0.29's estimate (regex size × string size) against kelp's",
    celV029: true,
  },
  {
    id: 'indexOf-past-the-end-clamped',
    aspects: ['value', 'error'],
    fn: ['indexOf', 'lastIndexOf'],
    when: (f) => f.go.value !== undefined,
    cause: 'cel-go v0.29 ext/strings.go clamps the offset of indexOf("", n) / lastIndexOf("", n) to the length',
    celV029: true,
  },
  {
    id: 'labelValue-says-bytes',
    aspects: ['value'],
    fn: ['validate'],
    when: (f) => /must be no more than \d+ bytes/.test(JSON.stringify(f.go.value)),
    cause: 'format.labelValue(): apimachinery 0.37 says "must be no more than 63 bytes", kelp "characters"',
    celV029: true,
  },
  {
    id: 'cost-of-bytes-conversion',
    aspects: ['cost'],
    fn: ['bytes'],
    when: (f) => f.kelp.cost !== f.go.cost,
    cause: 'bytes(string) on a dyn string: cel-go v0.29 charges 1 per call, kelp a traversal of the string',
  },
  {
    id: 'cost-of-comprehensions-over-json-maps',
    aspects: ['cost'],
    fn: ['exists', 'all', 'exists_one', 'transformMap', '_&&_', '_||_', '!_', '_?_:_'],
    when: (f) => f.kelp.cost !== f.go.cost,
    cause:
      'a macro over a JSON object (object.exists(k, …)): the cost of iterating a map value and of the accumulator ' +
      'in cel-go v0.29 against kelp',
  },
  {
    id: 'estimate-of-replace-result',
    aspects: ['estimate'],
    fn: ['replace', 'indexOf', 'lastIndexOf', 'split', 'matches', 'contains', 'startsWith', 'endsWith', 'size'],
    when: () => true,
    cause: "the size estimated for replace()'s result (and what is computed from it): cel-go v0.29's rule",
  },
  {
    id: 'quantity-arithmetic-overflow',
    aspects: ['value'],
    fn: ['asApproximateFloat', 'asInteger', 'add', 'sub', 'quantity.compareTo', 'sign'],
    when: () => true,
    cause:
      'Quantity add / sub with an int near int64 bounds: apimachinery resource.Quantity wraps (int64 scaled ' +
      'arithmetic), kelp keeps the exact sum',
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
]

/** The entry explaining a difference, if any. */
export function knownCelDifference(f: Found): KnownCelDifference | undefined {
  return KNOWN_CEL_DIFFERENCES.find(
    (k) => k.aspects.includes(f.aspect) && (k.fn.includes(f.fn) || k.fn[0] === '*') && k.when(f),
  )
}
