import { describe, expect, it } from 'vitest'
import { compile, standardEnv } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { regexCosts, regexLibrary, regexOptimizations } from '../../src/kube/library/regex.js'

const env = standardEnv().extend({ libraries: [regexLibrary] })

function run(expr: string): CelValue {
  return compile(expr, { env, declarations: { self: DynType } }).evaluate({
    self: { str: 'this is a 123 string 456' },
  })
}

describe('apiextensions-apiserver validation_test.go TestValidationExpressions "stdlib regex functions"', () => {
  const valid = [
    "self.str.find('[0-9]+') == '123'",
    "self.str.find('[0-9]+') != '456'",
    "self.str.find('xyz') == ''",
    "self.str.findAll('[0-9]+') == ['123', '456']",
    "self.str.findAll('[0-9]+', 0) == []",
    "self.str.findAll('[0-9]+', 1) == ['123']",
    "self.str.findAll('[0-9]+', 2) == ['123', '456']",
    "self.str.findAll('[0-9]+', 3) == ['123', '456']",
    "self.str.findAll('[0-9]+', -1) == ['123', '456']",
    "self.str.findAll('xyz') == []",
    "self.str.findAll('xyz', 1) == []",
  ]
  for (const expr of valid) it(expr, () => expect(run(expr)).toBe(true))

  it('invalid patterns report Go regexp errors', () => {
    // With a constant pattern Kubernetes fails at program creation with Go's bare text
    // ("error parsing regexp: unexpected ): `)`"); a pattern computed at run time fails with
    // regex.go's `Illegal regex: %v` (types.NewErr).
    expect(() => run("self.str.find(')') == ''")).toThrow('Illegal regex: error parsing regexp: unexpected ): `)`')
    expect(() => run("self.str.findAll(')') == []")).toThrow('error parsing regexp: unexpected ): `)`')
    expect(() => run("self.str.findAll(')', 1) == []")).toThrow('error parsing regexp: unexpected ): `)`')
    expect(regexOptimizations.map((o) => ({ function: o.function, regexIndex: o.regexIndex }))).toEqual([
      { function: 'find', regexIndex: 1 },
      { function: 'findAll', regexIndex: 1 },
    ])
  })
})

describe('apiserver pkg/cel/library/regex.go documented examples (with Go FindString / FindAllString semantics)', () => {
  it('find', () => {
    expect(run("'abc 123'.find('xyz')")).toBe('')
    // `[0-9]*` matches the empty string at offset 0 (Go regexp: leftmost-first), not '123' as the doc says
    expect(run("'abc 123'.find('[0-9]*')")).toBe('')
    expect(run("'abc 123'.find('[0-9]+')")).toBe('123')
  })
  it('findAll', () => {
    expect(run("'123 abc 456'.findAll('[0-9]*', 1)")).toEqual(['123'])
    expect(run("'123 abc 456'.findAll('xyz')")).toEqual([])
    // Go's allMatches skips an empty match right after a match: the doc's ['123', '456'] is not what Go gives
    expect(run("'123 abc 456'.findAll('[0-9]*')")).toEqual(['123', '', '', '', '', '456'])
  })
})

describe('apiserver pkg/cel/library/cost_test.go TestStringLibrary (find / findAll)', () => {
  it("'abc 123 def 123'.find('123') and findAll cost 2", () => {
    for (const id of ['string_find_string', 'string_find_all_string', 'string_find_all_string_int']) {
      expect(regexCosts[id]!.actual!(['abc 123 def 123', '123'], null)).toBe(2)
      const est = regexCosts[id]!.estimate!({ size: { min: 15n, max: 15n } }, [{ size: { min: 3n, max: 3n } }])!
      expect(est.cost).toEqual({ min: 2n, max: 2n })
      expect(est.resultSize).toEqual({ min: 0n, max: 15n })
    }
  })
  it('sizes are code points (cel-go String.Size)', () => {
    expect(regexCosts.string_find_string!.actual!(['😀'.repeat(19), 'x'.repeat(5)], null)).toBe(2 * 2)
  })
})
