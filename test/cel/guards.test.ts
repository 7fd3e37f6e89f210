import { describe, expect, it } from 'vitest'
import { compile, DynType } from '../../src/cel/index.js'

describe('run-time argument guards on checker-resolved overloads (cel-go common/decls matchRuntimeArgType)', () => {
  for (const backend of ['js', 'closures'] as const) {
    it(`${backend}: a null the checker accepts (legacy nullable) is no such overload at run time`, () => {
      expect(() => compile('duration(null)', { backend }).evaluate()).toThrow('no such overload')
      expect(() => compile('timestamp(null)', { backend }).evaluate()).toThrow('no such overload')
    })
    it(`${backend}: a dyn value of another kind than the resolved overload's is no such overload`, () => {
      const p = compile('l.flatten().map(v, v.startsWith("a"))', { backend, declarations: { l: DynType } })
      expect(() => p.evaluate({ l: [[1]] })).toThrow('no such overload')
    })
  }
})

describe('error order in accumulated list steps (cel-go evalBinary: left-hand error first)', () => {
  for (const backend of ['js', 'closures'] as const) {
    it(`${backend}: transformList reports the first failing element, as map does`, () => {
      // `@result + [t]`: once @result holds division by zero, later elements' errors do not replace it.
      expect(() => compile('[0, dyn("a")].transformList(i, v, 1 / v)', { backend }).evaluate()).toThrow(
        'division by zero',
      )
      expect(() => compile('[0, dyn("a")].map(v, 1 / v)', { backend }).evaluate()).toThrow('division by zero')
    })
  }
})
