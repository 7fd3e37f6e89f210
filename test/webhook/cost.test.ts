import { describe, expect, it } from 'vitest'
import { jsonShape, jsonSizeWithin } from '../../src/webhook/json.js'

// The two measures behind issue 25's bounds: a body's containers counted from its bytes before it is
// parsed (body.ts parsedCost), and a mutated object's size as JSON measured without writing it
// (handler.ts mutationResponse). Expected values from JSON.parse / JSON.stringify themselves.

/** Objects and arrays, values past the first of each, and the deepest nesting, as JSON.parse makes them. */
const counted = (v: unknown): { containers: number; commas: number; nesting: number } => {
  if (typeof v !== 'object' || v === null) return { containers: 0, commas: 0, nesting: 0 }
  const items = Object.values(v)
  let containers = 1
  let commas = Math.max(0, items.length - 1)
  let nesting = 1
  for (const x of items) {
    const c = counted(x)
    containers += c.containers
    commas += c.commas
    nesting = Math.max(nesting, c.nesting + 1)
  }
  return { containers, commas, nesting }
}

describe('jsonShape', () => {
  it('counts the containers and commas JSON.parse finds, not the braces and commas in strings', () => {
    const texts = [
      '{}',
      '[{},{},[]]',
      '{"a":[1,2,{"b":"{[,]}"}],"c":"\\"{,","d":"\\\\","e":{"f":"\\\\\\"[,"}}',
      ' [ { "k" : [ ] } , "x,y" , "é{" , "\\u0022[" ] ',
      JSON.stringify({
        metadata: { annotations: { json: JSON.stringify({ a: [1, { b: [2, 3] }] }) } },
        spec: [[], [[]], {}],
      }),
      // long strings (past 32 bytes: skipped by indexOf) with escaped quotes and backslashes
      JSON.stringify({
        a: `${'x'.repeat(40)}"{[,${'y'.repeat(40)}\\`,
        b: [{ c: `${'z'.repeat(33)}\\"],` }],
        d: 'w'.repeat(32),
      }),
      `["${'\\'.repeat(40)}",{},"${'q'.repeat(31)}\\"{"]`,
    ]
    for (const t of texts) expect(jsonShape(Buffer.from(t)), t).toEqual(counted(JSON.parse(t)))
  })

  it('a million empty objects in 3 MiB', () => {
    const n = 1_048_575
    expect(jsonShape(Buffer.from(`[${'{},'.repeat(n - 1)}{}]`))).toEqual({
      containers: n + 1,
      commas: n - 1,
      nesting: 2,
    })
  })
})

describe('jsonSizeWithin', () => {
  it('is the UTF-8 length of JSON.stringify for values without escapes', () => {
    const values: unknown[] = [
      null,
      true,
      false,
      0,
      -1.5e-7,
      1e21,
      'héllo',
      '',
      [],
      {},
      [1, 'a', null, [{}], { b: [true] }],
      { a: 1, b: undefined, c: [undefined, Number.NaN], 'ü-key': { d: 'x' } },
    ]
    for (const v of values) expect(jsonSizeWithin(v, 1e6), JSON.stringify(v)).toBe(Buffer.byteLength(JSON.stringify(v)))
    expect(jsonSizeWithin({ n: 9007199254740993n }, 100)).toBe('{"n":9007199254740993}'.length)
  })

  it('stops past the limit: 100 references to one 2 MB string cost a few steps, not 200 MB', () => {
    const big = 'x'.repeat(2_000_000)
    const list = Array.from({ length: 100 }, () => big)
    expect(jsonSizeWithin({ list }, 3 * 1024 * 1024)).toBe(Number.POSITIVE_INFINITY)
    expect(jsonSizeWithin(new Array(10_000_000).fill(0), 3 * 1024 * 1024)).toBe(Number.POSITIVE_INFINITY)
    expect(jsonSizeWithin({ list: [big] }, 3 * 1024 * 1024)).toBe(2_000_000 + '{"list":[""]}'.length)
  })

  it('any depth (no recursion)', () => {
    let v: unknown = {}
    for (let i = 0; i < 100_000; i++) v = { a: v }
    expect(jsonSizeWithin(v, 1e7)).toBe(100_000 * '{"a":}'.length + 2)
  })
})
