import { describe, expect, it } from 'vitest'
import { compile, type Program, withoutGeneratedCode } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'

// `auto` programs start on the closure evaluator and generate JavaScript once hot (program.ts HOT_AFTER);
// withoutGeneratedCode keeps them on closures for a run that evaluates each too few times for that to pay
// (`kelp check` of fewer than GENERATE_FROM_OBJECTS objects, src/check/admit.ts). The answers must not change.

/** Whether the program has generated its JavaScript (the private tier the evaluations take once hot). */
const generated = (p: Program): boolean => (p as unknown as { fast?: unknown }).fast !== undefined

const EXPR = 'has(obj.spec) ? obj.spec.replicas * 2 : -1'
const program = () => compile(EXPR, { declarations: { obj: DynType }, costLimit: 1_000_000 })
const ACT = { obj: { spec: { replicas: 3 } } }

/** Well past HOT_AFTER (16). */
const MANY = 100

describe('withoutGeneratedCode', () => {
  it('an auto program generates its JavaScript once hot (the default)', () => {
    const p = program()
    for (let i = 0; i < MANY; i++) expect(p.evaluate(ACT)).toBe(6)
    expect(generated(p)).toBe(true)
  })

  it('keeps auto programs on closures however often they run, with the same answers and costs', () => {
    const p = program()
    const q = program()
    for (let i = 0; i < MANY; i++) q.run(ACT)
    expect(generated(q)).toBe(true)
    withoutGeneratedCode(() => {
      for (let i = 0; i < MANY; i++) {
        expect(p.evaluate(ACT)).toBe(6)
        expect(p.run(ACT)).toEqual(q.run(ACT))
        expect(p.tryRun({ obj: { spec: {} } })).toEqual(q.tryRun({ obj: { spec: {} } }))
        const out = { cost: 0, error: undefined }
        expect(p.tryRunInto(ACT, out)).toBe(6)
      }
    })
    expect(generated(p)).toBe(false)
  })

  it('is restored when the run returns, throws, or an inner run ends', () => {
    const p = program()
    withoutGeneratedCode(() => {
      withoutGeneratedCode(() => undefined)
      for (let i = 0; i < MANY; i++) p.evaluate(ACT)
    })
    expect(generated(p)).toBe(false)
    expect(() =>
      withoutGeneratedCode(() => {
        throw new Error('stop')
      }),
    ).toThrow('stop')
    // hot already: the next evaluation after the run generates
    p.evaluate(ACT)
    expect(generated(p)).toBe(true)
  })

  it('leaves programs compiled for generated code (backend js) as they are', () => {
    const p = compile(EXPR, { declarations: { obj: DynType }, backend: 'js' })
    withoutGeneratedCode(() => expect(p.evaluate(ACT)).toBe(6))
    expect(generated(p)).toBe(true)
  })
})
