import { describe, expect, it } from 'vitest'
import {
  type AstNode,
  AuthorizerType,
  compile,
  estimateCost,
  estimateKubeCost,
  kubeEnv,
  type SizeEstimator,
  StringType,
  standardEnv,
  UNBOUNDED_COST,
} from '../../src/index.js'

// The static cost estimate through the package API (src/index.ts): a Program from compile() and
// the environment it was compiled in; sizes of variables through a SizeEstimator.

/** cel-go checker/cost_test.go's testCostEstimator: a hint is the size range [0, hint] of a path. */
const hints = (h: Record<string, number>): SizeEstimator => ({
  estimateSize: (node: AstNode) => {
    const max = node.path === undefined ? undefined : h[node.path.join('.')]
    return max === undefined ? undefined : { min: 0n, max: BigInt(max) }
  },
})

describe('estimateCost (cel-go v0.26.0 checker/cost_test.go TestCost)', () => {
  it("variable cost function: input.matches('[0-9]') with input at most 500 long costs [3, 103]", () => {
    const program = compile("input.matches('[0-9]')", { declarations: { input: StringType } })
    expect(estimateCost(program, standardEnv(), { sizeEstimator: hints({ input: 500 }) })).toEqual({
      min: 3n,
      max: 103n,
    })
  })
  it('UNBOUNDED_COST: cel-go v0.26.0 ext/lists_test.go TestListsCosts list_range_computed', () => {
    // lists.range of a computed size: the estimator cannot bound the list (FixedCostEstimate(MaxUint64)).
    const program = compile('lists.range(4 / 2) == [0, 1]')
    expect(estimateCost(program, standardEnv())).toEqual({ min: UNBOUNDED_COST, max: UNBOUNDED_COST })
    expect(UNBOUNDED_COST).toBe(18446744073709551615n)
  })
  it('a program compiled without the checker cannot be estimated', () => {
    const program = compile('1 + 1', { disableCheck: true })
    expect(() => estimateCost(program, standardEnv())).toThrow('type-checked')
  })
})

describe('estimateKubeCost (apiserver pkg/cel/library/cost_test.go)', () => {
  it('TestStringLibrary lowerAsciiEquals: [7, 9]', () => {
    const env = kubeEnv()
    const program = compile("'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", { env })
    expect(estimateKubeCost(program, env)).toEqual({ min: 7n, max: 9n })
  })
  it('TestAuthzLibrary path check allowed: 350003', () => {
    const env = kubeEnv({ variables: { authorizer: AuthorizerType } })
    const program = compile("authorizer.path('/healthz').check('get').allowed()", { env })
    expect(estimateKubeCost(program, env)).toEqual({ min: 350003n, max: 350003n })
  })
  it('TestStringLibrary join: the size estimator bounds strings at 12, as testCostEstimator does', () => {
    // cost_test.go's testCostEstimator answers [0, 12] for every string node; the list literal's
    // strings have computed sizes, so the figure is [10, 22] with or without it.
    const env = kubeEnv()
    const twelve: SizeEstimator = {
      estimateSize: (n) => (n.type.typeKind === 'string' ? { min: 0n, max: 12n } : undefined),
    }
    const program = compile("['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", { env })
    expect(estimateKubeCost(program, env, twelve)).toEqual({ min: 10n, max: 22n })
  })
})
