import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type EnvCheckOptions as CheckOptions, envCheck as check } from '../../src/cel/check.js'
import { type CheckedAst, formatType } from '../../src/cel/checker/index.js'
import type { ParsedAst } from '../../src/cel/common/ast.js'
import { CelCompileError } from '../../src/cel/common/errors.js'
import { Env } from '../../src/cel/env.js'
import { celLibraries } from '../../src/cel/stdlib/index.js'
import { parse } from '../../src/cel/syntax/index.js'
import { BoolType } from '../../src/cel/types/types.js'
import { exprArb } from './gen/exprs.js'
import { VARIABLE_TYPES } from './gen/values.js'

// Robustness of the checker: whatever the input, check() returns a typed AST or throws
// CelCompileError('check') (never a JavaScript exception), its result has no type parameter
// left (cel-go substitutes them, unbound ones by dyn), and checking is deterministic.

// The variables of test/cel/gen/values.ts VARIABLES, declared with the types of their values.
const env = new Env({
  libraries: celLibraries,
  variables: VARIABLE_TYPES,
})

const OPTION_SETS: CheckOptions[] = [
  {},
  { homogeneousAggregateLiterals: false, crossTypeNumericComparisons: false },
  { expectedType: BoolType },
]

function tryParse(text: string): ParsedAst | undefined {
  try {
    return parse(text, { macros: env.macros })
  } catch (e) {
    if (e instanceof CelCompileError) return undefined
    throw e
  }
}

/** The outcome of a check as comparable text; asserts the invariants of a successful check. */
function outcome(ast: ParsedAst, options: CheckOptions): string {
  let c: CheckedAst
  try {
    c = check(ast, env, options)
  } catch (e) {
    if (!(e instanceof CelCompileError)) throw e
    expect(e.stage).toBe('check')
    expect(e.issues.length).toBeGreaterThan(0)
    return e.message
  }
  const shown: string[] = []
  for (const [id, t] of c.types) {
    const text = formatType(t)
    // No type variable survives the final substitution.
    expect(text).not.toMatch(/\b_var\d+\b/)
    shown.push(`${id}:${text}`)
  }
  expect(c.types.get(c.expr.id)).toBe(c.outputType)
  return shown.join(' ')
}

describe('checker robustness (fast-check)', () => {
  it('generated expressions check or fail with CelCompileError, deterministically', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 4 }), fc.constantFrom(...OPTION_SETS), (text, options) => {
        const ast = tryParse(text)
        if (!ast) return
        expect(outcome(ast, options)).toBe(outcome(ast, options))
      }),
      { numRuns: 1500 },
    )
  })

  it('random strings never raise anything but CelCompileError', () => {
    const tokens = fc.constantFrom(
      ...'()[]{}.,?:!-+*/%<>'.split(''),
      ...['==', '!=', '&&', '||', ' in ', '.?', '[?', '{?', 'true', 'null', '1', '1u', '2.5', '"s"', "b'x'"],
      ...[
        'i',
        'd',
        'u',
        's',
        'l',
        'm',
        'x',
        'int',
        'type',
        'dyn',
        'list',
        'optional_type',
        'google.protobuf.Timestamp',
      ],
      ...['has', 'all', 'exists', 'map', 'filter', 'size', 'optional.of', 'transformMap', 'sortBy', 'Foo', '.a', 'a.b'],
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.array(tokens, { maxLength: 24 }).map((t) => t.join('')),
        ),
        fc.constantFrom(...OPTION_SETS),
        (text, options) => {
          const ast = tryParse(text)
          if (ast) outcome(ast, options)
        },
      ),
      { numRuns: 4000 },
    )
  })
})
