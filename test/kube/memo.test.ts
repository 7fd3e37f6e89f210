import { describe, expect, it } from 'vitest'
import { BoundedMemo } from '../../src/kube/memo.js'

describe('BoundedMemo', () => {
  it('computes each key once, an undefined answer too', () => {
    const calls: string[] = []
    const m = new BoundedMemo<string, string | undefined>(8)
    const f = (k: string) => {
      calls.push(k)
      return k === 'none' ? undefined : k.toUpperCase()
    }
    expect([m.answer('a', f), m.answer('a', f), m.answer('none', f), m.answer('none', f)]).toEqual([
      'A',
      'A',
      undefined,
      undefined,
    ])
    expect(calls).toEqual(['a', 'none'])
  })

  it('holds at most its limit: a hostile stream of distinct keys cannot grow it', () => {
    const m = new BoundedMemo<number, number>(4)
    let calls = 0
    const f = (k: number) => {
      calls++
      return k * 2
    }
    for (let i = 0; i < 10_000; i++) expect(m.answer(i, f)).toBe(i * 2)
    expect(calls).toBe(10_000)
    // emptied when full: the last keys are still answered, the first ones were dropped
    expect(m.get(9_999)).toBe(19_998)
    expect(m.get(0)).toBeUndefined()
    expect((m as unknown as { answers: Map<number, number> }).answers.size).toBeLessThanOrEqual(4)
  })
})
