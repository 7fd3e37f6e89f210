import { describe, expect, it } from 'vitest'
import { evaluatePlayground, examples } from '../../src/playground/evaluate/index.js'
import type { PlaygroundState } from '../../src/playground/evaluate/types.js'

// Whatever a link or a paste puts in the panes, an evaluation answers (YAML errors as markers, refusals as
// kubectl's lines) without throwing, hanging or running out of memory; a state that is not one is refused.

const base: PlaygroundState = examples.find((e) => e.name.startsWith('Warn'))!.state
const laughs = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...Array.from({ length: 9 }, (_, i) => {
    const p = String.fromCharCode(97 + i)
    const n = String.fromCharCode(98 + i)
    return `${n}: &${n} [*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p}]`
  }),
].join('\n')

describe('hostile panes', () => {
  const cases: [string, Partial<PlaygroundState>][] = [
    ['a flow nesting 100,000 deep', { object: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }],
    [
      'a block nesting 5,000 deep',
      { material: Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') },
    ],
    ['a billion laughs', { object: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n${laughs}\n` }],
    [
      '__proto__ keys everywhere',
      {
        object:
          'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, labels: {__proto__: y}}\ndata: {__proto__: a, constructor: b}\n',
      },
    ],
    ['a material of __proto__ documents', { material: '__proto__: {polluted: true}\n---\nconstructor: 1\n' }],
    [
      'an expression of 100,000 characters',
      { material: base.material.replace(/expression: .*/, `expression: "${'a + '.repeat(25_000)}a"`) },
    ],
    ['binary noise', { object: '\u0000\u0001\ufffe\ud800 apiVersion: v1' }],
    ['an unknown release', { release: '1.99' }],
    ['an UPDATE with no old object', { operation: 'UPDATE', oldObject: '' }],
  ]
  for (const [name, change] of cases)
    it(name, async () => {
      const t = performance.now()
      const r = await evaluatePlayground({ ...base, ...change })
      expect(Array.isArray(r.kubectl)).toBe(true)
      expect(performance.now() - t).toBeLessThan(20_000)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

  it('refuses a state that is not one', async () => {
    await expect(evaluatePlayground({ ...base, v: 2 } as unknown as PlaygroundState)).rejects.toThrow(
      'playground link: unknown version 2',
    )
    await expect(evaluatePlayground(null as unknown as PlaygroundState)).rejects.toThrow(
      'playground link: not an object',
    )
  })
})
