import { describe, expect, it } from 'vitest'
import type { CelEvalError } from '../../src/cel/common/errors.js'
import { compile, withoutGeneratedCode } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'

// An evaluation error says the node that raised it (CelEvalError exprId, line, column): the position cel-go's
// parser gives that node (a select at its `.`, a call at its `(`, an operator at its token). The closure tree
// raises errors without their node and the program evaluates again on the locating tree to find it
// (program.ts failure()); every way to evaluate, on either tier, must report the same place and cost.

interface Case {
  readonly expr: string
  readonly act: Record<string, CelValue>
  readonly message: string
  readonly line: number
  readonly column: number
}

const CASES: readonly Case[] = [
  { expr: 'x.a + x.b', act: { x: { a: 1 } }, message: 'no such key: b', line: 1, column: 8 },
  {
    expr: 'x.a +\n  int(x.s)',
    act: { x: { a: 1, s: 'q' } },
    message: "type conversion error from 'string' to 'int'",
    line: 2,
    column: 6,
  },
  { expr: '[1, 2].all(i, i / x.z > 0)', act: { x: { z: 0 } }, message: 'division by zero', line: 1, column: 17 },
  // the right operand's error once the left decides nothing; an error absorbed earlier leaves no trace
  { expr: 'x.a > 5 || x.a / x.z > 0', act: { x: { a: 1, z: 0 } }, message: 'division by zero', line: 1, column: 16 },
  {
    expr: '(x.missing || true) && x.a / x.z > 0',
    act: { x: { a: 1, z: 0 } },
    message: 'division by zero',
    line: 1,
    column: 28,
  },
]

const where = (e: unknown) => {
  const err = e as CelEvalError
  return { message: err.message, line: err.line, column: err.column, located: (err.exprId ?? 0) > 0 }
}

describe('evaluation errors say their node', () => {
  for (const c of CASES) {
    const want = { message: c.message, line: c.line, column: c.column, located: true }
    it(`${JSON.stringify(c.expr)}: every entry point, closures and generated code`, () => {
      for (const tier of ['closures', 'auto'] as const) {
        const p = compile(c.expr, { declarations: { x: DynType }, costLimit: 1_000_000 })
        const run = () => {
          expect(() => p.evaluate(c.act)).toThrow(c.message)
          try {
            p.evaluate(c.act)
          } catch (e) {
            expect(where(e)).toEqual(want)
          }
          const r = p.tryRun(c.act)
          expect('error' in r && where(r.error)).toEqual(want)
          const out = { cost: 0, error: undefined as unknown }
          expect(p.tryRunInto(c.act, out as { cost: number; error: undefined })).toBeUndefined()
          expect(where(out.error)).toEqual(want)
          expect(out.cost).toBe(r.cost)
          try {
            p.run(c.act)
            expect.fail('run did not throw')
          } catch (e) {
            expect(where(e)).toEqual(want)
          }
        }
        // past the switch to generated code (which leaves a failing evaluation to the closures) or kept off it
        for (let i = 0; i < 20; i++) tier === 'closures' ? withoutGeneratedCode(run) : run()
      }
    })
  }
})
