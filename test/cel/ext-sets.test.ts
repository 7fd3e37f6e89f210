import { describe, expect, it } from 'vitest'
import { setsExtFunctions } from '../../src/cel/ext/sets.js'
import type { OverloadDecl } from '../../src/cel/functions.js'
import { type CelValue, Double, Uint } from '../../src/cel/values/values.js'

// Expected values come from cel-go v0.26.0 ext/sets_test.go (TestSets: every expression there
// evaluates to true) and the ext/sets.go doc comments.

function find(id: string): OverloadDecl {
  for (const f of setsExtFunctions) for (const o of f.overloads) if (o.id === id) return o
  throw new Error(`no overload ${id}`)
}

const contains = (a: CelValue[], b: CelValue[]) => find('sets_contains_list_list').impl(a, b)
const equivalent = (a: CelValue[], b: CelValue[]) => find('sets_equivalent_list_list').impl(a, b)
const intersects = (a: CelValue[], b: CelValue[]) => find('sets_intersects_list_list').impl(a, b)

const d = (x: number) => new Double(x)
const u = (x: bigint) => new Uint(x)

describe('declarations', () => {
  it('match ext/sets.go', () => {
    expect(setsExtFunctions.map((f) => f.name)).toEqual(['sets.contains', 'sets.equivalent', 'sets.intersects'])
    for (const f of setsExtFunctions) {
      expect(f.overloads.length).toBe(1)
      const o = f.overloads[0]!
      expect(o.member).toBe(false)
      expect(o.params.map(String)).toEqual(['list(T)', 'list(T)'])
      expect(String(o.result)).toBe('bool')
      expect(o.typeParams).toEqual(['T'])
    }
    expect(setsExtFunctions.map((f) => f.overloads[0]!.id)).toEqual([
      'sets_contains_list_list',
      'sets_equivalent_list_list',
      'sets_intersects_list_list',
    ])
  })
})

describe('sets.contains', () => {
  it('is true when every element of the second list is in the first', () => {
    expect(contains([5, 4, 3, 2, 1], [1, 2, 3])).toBe(true)
    expect(contains([5, 4, 3, 2, 1], [1, 1, 1, 1, 1])).toBe(true)
    expect(contains([], [])).toBe(true)
    expect(contains([1], [])).toBe(true)
    expect(contains([1], [1])).toBe(true)
    expect(contains([1], [1, 1])).toBe(true)
    expect(contains([1, 1], [1])).toBe(true)
    expect(contains([2, 1], [1])).toBe(true)
    expect(contains([1, 2, 3, 4], [2, 3])).toBe(true)
    expect(contains([1], [d(1), 1])).toBe(true)
    expect(contains([1, 2], [u(2n), d(2)])).toBe(true)
    expect(contains([1, u(2n)], [2, d(2)])).toBe(true)
    expect(contains([1, d(2), u(3n)], [d(1), u(2n), 3])).toBe(true)
    expect(contains([[1], [2, 3]], [[2, d(3)]])).toBe(true)
  })
  it('is false otherwise', () => {
    expect(contains([], [1])).toBe(false)
    expect(contains([1], [2])).toBe(false)
    expect(contains([1], [1, 2])).toBe(false)
    expect(contains([1], ['1', 1])).toBe(false)
    expect(contains([1], [1.1, u(1n)])).toBe(false)
  })
})

describe('sets.equivalent', () => {
  it('ignores sizes and duplicates', () => {
    expect(equivalent([], [])).toBe(true)
    expect(equivalent([1], [1])).toBe(true)
    expect(equivalent([1], [1, 1])).toBe(true)
    expect(equivalent([1, 1], [1])).toBe(true)
    expect(equivalent([1], [u(1n), d(1)])).toBe(true)
    expect(equivalent([1, 2, 3], [u(3n), d(2), 1])).toBe(true)
    expect(equivalent([[d(1)], [2, 3]], [[1], [2, d(3)]])).toBe(true)
  })
  it('is false when either side has an extra element', () => {
    expect(equivalent([2, 1], [1])).toBe(false)
    expect(equivalent([1], [1, 2])).toBe(false)
    expect(equivalent([1, 2], [u(2n), 2, d(2)])).toBe(false)
    expect(equivalent([1, 2], [u(1n), 2, 2.3])).toBe(false)
  })
})

describe('sets.intersects', () => {
  it('is true when some element is shared', () => {
    expect(intersects([1], [1])).toBe(true)
    expect(intersects([1], [1, 1])).toBe(true)
    expect(intersects([1, 1], [1])).toBe(true)
    expect(intersects([2, 1], [1])).toBe(true)
    expect(intersects([1], [1, 2])).toBe(true)
    expect(intersects([1], [d(1), 2])).toBe(true)
    expect(intersects([1, 2], [u(2n), 2, d(2)])).toBe(true)
    expect(intersects([1, 2], [u(1n), 2, 2.3])).toBe(true)
    expect(
      intersects(
        [[1], [2, 3]],
        [
          [1, 2],
          [2, d(3)],
        ],
      ),
    ).toBe(true)
  })
  it('is false for empty lists or disjoint ones', () => {
    expect(intersects([], [])).toBe(false)
    expect(intersects([1], [])).toBe(false)
    expect(intersects([1], [2])).toBe(false)
    expect(intersects([1], ['1', 2])).toBe(false)
    expect(intersects([1], [1.1, u(2n)])).toBe(false)
  })
})
