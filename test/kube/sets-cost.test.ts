import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { kubeEnv } from '../../src/kube/environment.js'

// apiserver pkg/cel/library/cost_test.go TestSetsCost: expected run-time costs. Its environment (testCost)
// has neither OptOptimize (every list literal costs 10) nor homogeneous aggregate literals.
const env = kubeEnv().extend({ features: { homogeneousAggregateLiterals: false } })
const cases: [string, number][] = [
  ['sets.contains([], [])', 21],
  ['sets.contains([1], [])', 21],
  ['sets.contains([1], [1])', 22],
  ['sets.contains([1], [1, 1])', 23],
  ['sets.contains([1, 1], [1])', 23],
  ['sets.contains([1, 2, 3, 4], [2, 3])', 29],
  ['sets.contains([[1], [2, 3]], [[2, 3.0]])', 53],
  ['!sets.contains([1], [1, 2])', 24],
  ['sets.equivalent([], [])', 21],
  ['sets.equivalent([1], [1])', 23],
  ['sets.equivalent([1], [1, 1])', 25],
  ['sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])', 69],
  ['!sets.equivalent([2, 1], [1])', 26],
  ['sets.intersects([1], [1])', 22],
  ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', 65],
  ['!sets.intersects([], [])', 22],
  ['!sets.intersects([1], [2])', 23],
]

describe('sets run-time cost (apiserver cost_test.go TestSetsCost)', () => {
  for (const backend of ['js', 'closures'] as const)
    for (const [expr, want] of cases)
      it(`${backend}: ${expr} costs ${want}`, () => {
        expect(compile(expr, { env, optimize: false, backend }).run().cost).toBe(want)
      })
})
