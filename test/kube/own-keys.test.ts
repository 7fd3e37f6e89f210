import { describe, expect, it } from 'vitest'
import { copyOwn, own, setOwn } from '../../src/kube/own-keys.js'

// Maps built from input hold any key (a label or annotation may be named `__proto__` or `constructor`: the
// apiserver stores each as given); the helpers keep such keys data.

describe('own-keys', () => {
  it('copyOwn keeps a __proto__ key as an own data key and leaves the prototype alone', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": "c", "a": "b"}')
    const copy = copyOwn(input)
    expect(Object.keys(copy)).toEqual(['__proto__', 'constructor', 'a'])
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: 'yes' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    copy.a = 'changed'
    expect(input.a).toBe('b')
  })

  it('own reads own keys only; setOwn writes __proto__ as data', () => {
    const o: Record<string, unknown> = {}
    expect(own(o, 'toString')).toBeUndefined()
    setOwn(o, '__proto__', 'x')
    expect(Object.keys(o)).toEqual(['__proto__'])
    expect(own(o, '__proto__')).toBe('x')
  })
})
