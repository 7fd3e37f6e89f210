import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { examples } from '../../src/playground/evaluate/index.js'

// The examples' texts are the files they come from (scripts/generate-playground-examples.js copies them): a
// change of policies/, examples/ or docs/crd.md's Widget shows here until the copy is made again.

const root = join(import.meta.dirname, '../..')

describe('the playground examples', () => {
  it('are copied from their sources as they are now', () => {
    expect(() =>
      execFileSync('node', [join(root, 'scripts/generate-playground-examples.js'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow()
  })

  it('cover a deny, a warn, a mutation, a CRD transition rule and a type error, with distinct names', () => {
    const names = examples.map((e) => e.name)
    for (const p of ['Deny', 'Warn', 'Mutation', 'CRD transition rule', 'Type error'])
      expect(names.some((n) => n.startsWith(p))).toBe(true)
    expect(new Set(names).size).toBe(names.length)
  })
})
