import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { envCheck as check } from '../../src/cel/check.js'
import type { CheckedAst } from '../../src/cel/checker/index.js'
import { decodeChecked, encodeChecked } from '../../src/cel/checker/serialize.js'
import { type CompileOptions, compile, standardEnv } from '../../src/cel/program.js'
import { parse } from '../../src/cel/syntax/index.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { exprArb } from './gen/exprs.js'
import { evalOutcome, type Outcome, sameOutcome, show } from './gen/outcome.js'
import { activationArb, VARIABLES } from './gen/values.js'

// A checked AST through its JSON form (checker/serialize.ts, what `kelp check` keeps of the bundled
// pack) must plan into the same program as the AST check() gave: every node, position, type and
// reference kept, so that the two programs give the same value or the same error (its text and its
// position) on every activation. The oracle is the freshly checked program, not stored output.

const declarations = Object.fromEntries(Object.keys(VARIABLES).map((k) => [k, DynType]))
const env = standardEnv().extend({ variables: declarations })

function checked(expr: string): CheckedAst {
  return check(parse(expr, { macros: env.macros, enableOptionalSyntax: true }), env)
}

/** Through JSON text, as the file is read back. */
const roundTrip = (ast: CheckedAst) => decodeChecked(JSON.parse(JSON.stringify(encodeChecked(ast))))

function outcomes(expr: string, act: Record<string, CelValue>): [Outcome, Outcome] | undefined {
  let ast: CheckedAst
  try {
    ast = checked(expr)
  } catch {
    return undefined // not checkable: nothing to store
  }
  const options: CompileOptions = { env, backend: 'closures' }
  let fresh: ReturnType<typeof compile>
  try {
    fresh = compile(expr, { ...options, checked: ast })
  } catch (e) {
    // the program's creation refused (OptOptimize folds a failing conversion of a constant, `int('')`):
    // the decoded AST must be refused alike
    expect(() => compile(expr, { ...options, checked: roundTrip(ast) })).toThrow((e as Error).message)
    return undefined
  }
  const decoded = compile(expr, { ...options, checked: roundTrip(ast) })
  return [evalOutcome(fresh, act), evalOutcome(decoded, act)]
}

describe('encodeChecked / decodeChecked', () => {
  it('keeps every node, position, type, reference and the output type', () => {
    const exprs = [
      "[dyn(1), dyn(-2), dyn(3u), dyn(2.5), dyn('a'), dyn(b'\\xff\\x00'), dyn(true), dyn(null), x.a, dyn(has(x.b))].size()",
      "{'k': x, ?'o': optional.none()}",
      '[?optional.of(1), 2]',
      'x.?a.orValue(y)',
      'x.all(v, v > 0) && x.exists_one(v, v == y) || x.map(v, v * 2).filter(v, v < 3).size() > 0',
      'x.transformList(i, v, [i, v])',
      'x.all(i, v, v != y)',
      'int(x) / 0',
      '[-0.0, 0.0, 1e300 * 1e300].map(d, string(d))', // -0.0: JSON has no negative zero (a random case found it)
      "string(x).matches('^[a-z]+$') ? 'yes' : 'no'",
      'type(x) == int && duration("1s") < duration("2s") && timestamp("2024-01-01T00:00:00Z").getFullYear() == 2024',
    ]
    for (const expr of exprs) {
      const ast = checked(expr)
      const back = roundTrip(ast)
      expect(back.expr, expr).toStrictEqual(ast.expr)
      expect(back.source.text).toBe(expr)
      for (let id = 0; id < 400; id++) {
        expect(back.sourceInfo.positions.get(id), `${expr} #${id}`).toBe(ast.sourceInfo.positions.get(id))
        expect(back.types.get(id)?.toString(), `${expr} #${id}`).toBe(ast.types.get(id)?.toString())
        expect(back.refs.get(id), `${expr} #${id}`).toStrictEqual(ast.refs.get(id))
      }
      expect(back.outputType.toString()).toBe(ast.outputType.toString())
      // bigint and bytes literals come back as such (JSON has neither)
      expect(JSON.stringify(encodeChecked(back))).toBe(JSON.stringify(encodeChecked(ast)))
    }
  })

  it('gives the same program: same values and errors (with their positions) on random expressions', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 5 }), activationArb, (expr, act) => {
        const o = outcomes(expr, act)
        if (o === undefined) return
        if (!sameOutcome(o[0], o[1])) expect.fail(`${expr}: fresh ${show(o[0])}, decoded ${show(o[1])}`)
      }),
      { numRuns: 400 },
    )
  })

  it('reports a run-time error at the same line and column', () => {
    const o = outcomes("x.a +\n  (1 / (y - y))\n  + 'b'.size()", { x: { a: 1n }, y: 2n })
    expect(o?.[0]).toMatchObject({ ok: false })
    expect(o?.[1]).toStrictEqual(o?.[0])
  })
})
