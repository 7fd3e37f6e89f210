import { describe, expect, it } from 'vitest'
import { compile, DynType } from '../../src/cel/index.js'
import { DEFAULT_KUBE_VERSION, kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// The versioned base environment of k8s.io/apiserver pkg/cel/environment/base.go: an option introduced
// at version X is usable in new expressions from apiservers of version X+1 (compatibility version =
// binary − 1 minor, environment.go / component-base compatibility), and always in stored expressions.
// Function names per version: pkg/cel/library/library_compatibility_test.go.

function compiles(expr: string, version: string, expressions: 'new' | 'stored' = 'new'): boolean {
  try {
    compile(expr, { env: kubeEnv({ version, expressions, variables: { x: DynType } }) })
    return true
  } catch {
    return false
  }
}

describe('Kubernetes base environment versions (apiserver pkg/cel/environment/base.go)', () => {
  const gated: [string, string, number][] = [
    // expression, what, IntroducedVersion
    ["ip('10.0.0.1').family() == 4", 'library.IP (1.30)', 30],
    ["cidr('10.0.0.0/8').containsIP('10.1.2.3')", 'library.CIDR (1.30)', 30],
    ["format.dns1123Label().validate('a').hasValue()", 'library.Format (1.31)', 31],
    ['[1, 2].all(i, v, v > i)', 'ext.TwoVarComprehensions (1.32)', 32],
    ["isSemver('1.2.3')", 'library.SemverLib (1.33)', 33],
    ['[3, 1, 2].sort() == [1, 2, 3]', 'ext.Lists(ListsVersion(3)) (1.34)', 34],
  ]
  for (const [expr, what, introduced] of gated) {
    it(`${what}: new expressions from ${introduced + 1}, stored from ${introduced}`, () => {
      expect(compiles(expr, `1.${introduced}`, 'new')).toBe(false)
      expect(compiles(expr, `1.${introduced}`, 'stored')).toBe(true)
      expect(compiles(expr, `1.${introduced + 1}`, 'new')).toBe(true)
    })
  }
  it('library.Lists version 1 (`includes`) exists only in a 1.37 apiserver, for stored expressions', () => {
    expect(compiles('[1, 2].includes(2)', '1.36', 'stored')).toBe(false)
    expect(compiles('[1, 2].includes(2)', '1.37', 'stored')).toBe(true)
    expect(compiles('[1, 2].includes(2)', '1.37', 'new')).toBe(false)
  })
  it('1.0 options are everywhere: URLs, regex, lists, quantity, optionals, strings v2, sets', () => {
    for (const expr of [
      "url('https://a.b/c').getHost() == 'a.b'",
      "'abc'.find('b') == 'b'",
      '[1, 2, 3].isSorted()',
      "quantity('1Gi').isGreaterThan(quantity('1M'))",
      'optional.of(1).hasValue()',
      "'a,b'.split(',').join('-') == 'a-b'",
      'sets.contains([1, 2], [1])',
    ])
      expect(compiles(expr, '1.30')).toBe(true)
  })
  it('homogeneous aggregate literals are enforced (base.go entry 1; cel-go v0.26 cel/validator.go)', () => {
    expect(() => compile("[1, 'a']", { env: kubeEnv() })).toThrow("expected type 'int' but found 'string'")
    // The validator compares element types with Type.IsEquivalentType: every element must be dyn to mix.
    expect(() => compile("[1, dyn('a')]", { env: kubeEnv() })).toThrow("expected type 'int' but found 'dyn'")
    expect(compile("[dyn(1), dyn('a')].size()", { env: kubeEnv() }).evaluate()).toBe(2)
  })
  it('literal validators (1.29): invalid duration / timestamp / regex literals are compile errors', () => {
    // apiextensions-apiserver validation_test.go: "self.val1.matches(')')" → ERROR: <input>:1:19: invalid matches argument
    const env = kubeEnv({ variables: { self: DynType } })
    expect(() => compile("self.val1.matches(')')", { env })).toThrow('ERROR: <input>:1:19: invalid matches argument')
    expect(() => compile("duration('1x')", { env })).toThrow('invalid duration argument')
    expect(() => compile("timestamp('yesterday')", { env })).toThrow('invalid timestamp argument')
  })
  it('constant find/findAll patterns compile with the program (regex.go ProgramOptions, OptOptimize)', () => {
    // A bad constant pattern fails program creation with Go's bare regexp error; a pattern computed
    // at run time fails the evaluation with regex.go's `Illegal regex: %v`.
    const env = kubeEnv({ variables: { x: DynType } })
    expect(() => compile("x.find(')')", { env })).toThrow(/^error parsing regexp: unexpected \): `\)`$/)
    const p = compile("x.find(')' + '')", { env })
    expect(() => p.evaluate({ x: 'a' })).toThrow('Illegal regex: error parsing regexp: unexpected ): `)`')
  })
  it('cross-type numeric comparisons (1.28) compile; equality across types does not', () => {
    expect(compile('1 < 1.5', { env: kubeEnv() }).evaluate()).toBe(true)
    expect(() => compile('1 == 1.0', { env: kubeEnv() })).toThrow(
      "found no matching overload for '_==_' applied to '(int, double)'",
    )
  })
  it('the per-call cost limit is 1,000,000 (apiserver pkg/apis/cel/config.go)', () => {
    expect(PerCallLimit).toBe(1_000_000)
    const p = compile('lists.range(2000).all(i, lists.range(2000).all(j, true))', {
      env: kubeEnv(),
      costLimit: PerCallLimit,
    })
    expect(() => p.evaluate()).toThrow('operation cancelled: actual cost limit exceeded')
  })
})

describe('library function names by version (apiserver pkg/cel/library/library_compatibility_test.go)', () => {
  // The names each Kubernetes version added to the libraries, as the compatibility test pins them.
  const byVersion: [number, string[]][] = [
    [
      24,
      'isSorted sum max min indexOf lastIndexOf find findAll url getScheme getHost getHostname getPort getEscapedPath getQuery isURL'.split(
        ' ',
      ),
    ],
    [27, 'path group serviceAccount resource subresource namespace name check allowed reason'.split(' ')],
    [28, ['errored', 'error']],
    [
      29,
      'add asApproximateFloat asInteger compareTo isGreaterThan isInteger isLessThan isQuantity quantity sign sub'.split(
        ' ',
      ),
    ],
    [
      30,
      'ip family isUnspecified isLoopback isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast ip.isCanonical isIP cidr containsIP containsCIDR masked prefixLength isCIDR string'.split(
        ' ',
      ),
    ],
    [31, ['fieldSelector', 'labelSelector', 'validate', 'format.named']],
    [33, ['semver', 'isSemver', 'major', 'minor', 'patch']],
    [37, ['includes']],
  ]
  const names = (version: string, expressions: 'new' | 'stored') =>
    new Set(kubeEnv({ version, expressions }).functions.keys())
  for (const [minor, fns] of byVersion) {
    it(`1.${minor}: ${fns.length} functions exist in the stored environment of that version and later`, () => {
      const stored = names(`1.${Math.max(minor, 30)}`, 'stored')
      const missing = fns.filter((f) => !stored.has(f))
      expect(missing).toEqual([])
    })
  }
  it('the newest names are not offered to new expressions before their version + 1', () => {
    expect(names('1.30', 'new').has('ip')).toBe(false)
    expect(names('1.31', 'new').has('ip')).toBe(true)
    expect(names('1.33', 'new').has('isSemver')).toBe(false)
    expect(names('1.34', 'new').has('isSemver')).toBe(true)
    expect(names('1.37', 'new').has('includes')).toBe(false)
  })
})

// The default release is the newest stable Kubernetes minor (1.37: kubernetes v1.37.0 and patch
// releases are out; docs/kubernetes-cel.md "Default version"). A 1.37 binary evaluates stored uses of
// the lists library's `includes` (base.go: library.Lists(library.ListsVersion(1)), IntroducedVersion
// 1.37) that a 1.36 binary does not have, and still refuses it in new expressions (compatibility 1.36).
describe('the default Kubernetes version', () => {
  it('is 1.37', () => {
    expect(DEFAULT_KUBE_VERSION).toBe('1.37')
  })
  it('kubeEnv() without a version is the 1.37 environment', () => {
    const stored = (env: ReturnType<typeof kubeEnv>) => env.functions.has('includes')
    expect(stored(kubeEnv({ expressions: 'stored' }))).toBe(true)
    expect(stored(kubeEnv({ version: '1.36', expressions: 'stored' }))).toBe(false)
    expect(kubeEnv().functions.has('includes')).toBe(false)
  })
})
