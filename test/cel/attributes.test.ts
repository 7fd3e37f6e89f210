import { describe, expect, it } from 'vitest'
import { type CelValue, compile, DynType, evaluate } from '../../src/cel/index.js'

// Field selection and presence tests as cel-go's attribute qualification does them
// (interpreter/attributes.go refQualify, without EnableErrorOnBadPresenceTest, as Kubernetes runs it),
// on both back ends.
const run = (expr: string, act: Record<string, CelValue>, backend: 'js' | 'closures') =>
  compile(expr, { declarations: Object.fromEntries(Object.keys(act).map((k) => [k, DynType])), backend }).evaluate(act)

describe('field selection and has() (cel-go interpreter/attributes.go refQualify)', () => {
  for (const backend of ['js', 'closures'] as const) {
    it(`${backend}: has() on a value that is not a container is false`, () => {
      for (const x of [1, 's', null, true]) expect(run('has(x.a)', { x }, backend)).toBe(false)
    })
    it(`${backend}: has() on a list rejects the string index`, () => {
      expect(() => run('has(x.a)', { x: [1] }, backend)).toThrow("unsupported index type 'string' in list")
    })
    it(`${backend}: selecting from a non-container is no such key`, () => {
      expect(() => run('x.a', { x: 1 }, backend)).toThrow('no such key: a')
      expect(() => run('x.a', { x: null }, backend)).toThrow('no such key: a')
      expect(() => run('x.a', { x: [1] }, backend)).toThrow("unsupported index type 'string' in list")
    })
    it(`${backend}: a property holding undefined is absent (not a JSON value)`, () => {
      expect(run('has(x.a)', { x: { a: undefined as unknown as CelValue } }, backend)).toBe(false)
      expect(() => run('x.a', { x: { a: undefined as unknown as CelValue } }, backend)).toThrow('no such key: a')
    })
    it(`${backend}: a list holding NaN is not equal to itself (no identity shortcut; cel-go baseList.Equal)`, () => {
      const x = [Number.NaN]
      expect(run('x == x', { x }, backend)).toBe(false)
    })
  }
  it('an undeclared dotted name reports the most qualified attribute once (cel-go maybeAttribute)', () => {
    // Only unchecked programs resolve an undeclared name at run time (cel-go's unchecked ASTs).
    for (const backend of ['js', 'closures'] as const)
      expect(() => compile('nope.x', { disableCheck: true, backend }).evaluate({})).toThrow(
        /^no such attribute\(s\): nope\.x$/,
      )
    // Checked, the root identifier is an undeclared reference (cel-go checker/checker.go checkSelect,
    // then checkIdent; checker/errors.go undeclaredReference).
    expect(() => evaluate('nope.x', {})).toThrow(
      "ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope.x\n | ^",
    )
  })
  it('constant map results are frozen: mutating one result cannot change the next', () => {
    const p = compile('{"a": 1}')
    const r = p.evaluate() as Record<string, CelValue>
    expect(Object.isFrozen(r)).toBe(true)
    expect(p.evaluate()).toEqual({ a: 1 })
  })
})
