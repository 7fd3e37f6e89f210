import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type EnvCheckOptions, envCheck } from '../../src/cel/check.js'
import { formatType } from '../../src/cel/checker/index.js'
import { CelCompileError } from '../../src/cel/common/errors.js'
import { Env } from '../../src/cel/env.js'
import { celLibraries } from '../../src/cel/stdlib/index.js'
import { parse } from '../../src/cel/syntax/index.js'
import { BoolType } from '../../src/cel/types/types.js'
import { exprArb } from './gen/exprs.js'
import { VARIABLE_TYPES } from './gen/values.js'

// The checker remembers the resolution of a call of a many-overload function on plain argument types, per
// environment (checker.ts `resolutions`). Remembered or not, a check must give the same types, references
// and error texts (`_varN` numbering included): an environment that has checked everything before (its
// resolutions remembered) against a new one per expression (nothing remembered).

const variables = VARIABLE_TYPES
const warm = new Env({ libraries: celLibraries, variables })

const OPTION_SETS: EnvCheckOptions[] = [
  {},
  { homogeneousAggregateLiterals: false, crossTypeNumericComparisons: false },
  { expectedType: BoolType },
]

function outcome(text: string, env: Env, options: EnvCheckOptions): string | undefined {
  let ast: ReturnType<typeof parse>
  try {
    ast = parse(text, { macros: env.macros })
  } catch (e) {
    if (e instanceof CelCompileError) return undefined
    throw e
  }
  try {
    const c = envCheck(ast, env, options)
    const refs = [...c.refs].map(([id, r]) => `${id}:${JSON.stringify(r)}`)
    return `${[...c.types].map(([id, t]) => `${id}:${formatType(t)}`).join(' ')} | ${refs.join(' ')}`
  } catch (e) {
    if (!(e instanceof CelCompileError)) throw e
    return e.message
  }
}

describe('remembered call resolutions (checker.ts)', () => {
  it('a check gives the same types, references and errors with and without them', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 4 }), fc.constantFrom(...OPTION_SETS), (text, options) => {
        // twice in the warm environment: the second check finds what the first remembered
        const first = outcome(text, warm, options)
        const second = outcome(text, warm, options)
        const cold = outcome(text, new Env({ libraries: celLibraries, variables }), options)
        expect(second).toBe(cold)
        expect(first).toBe(cold)
      }),
      { numRuns: 400 },
    )
  })

  it('a call remembered with the cross-type comparisons on is not reused with them off, nor the reverse', () => {
    // cel.CrossTypeNumericComparisons: `1 < 2.0` checks with them (less_int64_double), fails without
    // (cel-go checker/env.go crossTypeNumericComparisonOverloads)
    const off = { crossTypeNumericComparisons: false }
    expect(outcome('i < d', warm, {})).toMatch(/^\S/)
    expect(outcome('i < d', warm, off)).toMatch(/found no matching overload for '_<_' applied to '\(int, double\)'/)
    expect(outcome('i < d', warm, {})).toBe(outcome('i < d', new Env({ libraries: celLibraries, variables }), {}))
  })
})
