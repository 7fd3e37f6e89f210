import { describe, expect, it } from 'vitest'
import { BoolType, StringType } from '../../../src/cel/types/types.js'
import { CompositedCompiler } from '../../../src/policy/cel/compile.js'
import {
  type ActivationInput,
  type ForInputOutcome,
  forInput,
  VariableMemo,
} from '../../../src/policy/cel/condition.js'
import { createAdmissionRequest } from '../../../src/policy/cel/request.js'
import { endpointCreateAttributes } from '../helpers.js'

// A Validate's messages batch takes the variables its validations batch evaluated (VariableMemo)
// instead of evaluating them again, as the apiserver does in the messages' new activation
// (validating/validator.go: validationFilter.ForInput, then messageFilter.ForInput, each with its own
// composition). Taking them must not change a thing: the same values and errors, and each batch
// charged the variables' cost as if it had evaluated them, so the budget runs out at the same
// expression. The oracle is each batch evaluated on its own (no memo).

const none = { hasParams: false, hasAuthorizer: false }

function compiled(variables: { name: string; expression: string }[], validations: string[], messages: string[]) {
  const compiler = new CompositedCompiler({ expressions: 'stored' })
  compiler.compileAndStoreVariables(variables, none)
  return {
    variables: compiler.variables,
    validations: validations.map((e) => compiler.compile(e, [BoolType], none)),
    messages: messages.map((e) => compiler.compile(e, [StringType], none)),
  }
}

function batches(
  c: ReturnType<typeof compiled>,
  budget: number,
  memo: VariableMemo | undefined,
): [ForInputOutcome, ForInputOutcome] {
  const attributes = endpointCreateAttributes()
  const input = (): ActivationInput => ({
    attributes,
    request: createAdmissionRequest(attributes, attributes.resource, attributes.kind),
    namespace: null,
    bindings: {},
    variables: c.variables,
    ...(memo !== undefined ? { memo } : {}),
  })
  const v = forInput(c.validations, input(), budget)
  const left = 'remainingBudget' in v ? v.remainingBudget : budget
  return [v, forInput(c.messages, input(), left)]
}

describe('VariableMemo: the messages batch takes the validations batch variables', () => {
  const c = compiled(
    [
      { name: 'words', expression: "'a b c d e f g h'.split(' ')" },
      { name: 'joined', expression: "variables.words.join('-')" },
      { name: 'bad', expression: "variables.words[100] == 'x'" },
    ],
    ['size(variables.words) > 100', 'variables.joined.startsWith("a")'],
    ["'too few: ' + variables.joined", "'bad: ' + string(variables.bad)"],
  )

  it('gives the same results and budget left as evaluating each batch afresh', () => {
    const fresh = batches(c, 1_000_000, undefined)
    const shared = batches(c, 1_000_000, new VariableMemo(c.variables))
    expect(shared).toEqual(fresh)
    // the variable error is the same in both batches
    const messages = fresh[1]
    expect('results' in messages && messages.results[1]?.error).toMatch(/composited variable "bad" fails to evaluate/)
  })

  it('runs out of budget at the same point for every budget', () => {
    const [v] = batches(c, 1_000_000, undefined)
    const total = 1_000_000 - ('remainingBudget' in v ? v.remainingBudget : 0)
    expect(total).toBeGreaterThan(0)
    let outOfBudget = 0
    for (let budget = 0; budget <= total * 3; budget++) {
      const fresh = batches(c, budget, undefined)
      expect(batches(c, budget, new VariableMemo(c.variables)), `budget ${budget}`).toEqual(fresh)
      if ('batchError' in fresh[1]) outOfBudget++
    }
    expect(outOfBudget).toBeGreaterThan(0) // some budgets end in the messages batch
  })
})

describe('constant variables (CompilationResult.constant): computed once, charged at every use', () => {
  it('are the variables that read nothing of the request, directly or through other variables', () => {
    const compiler = new CompositedCompiler({ expressions: 'stored' })
    compiler.compileAndStoreVariables(
      [
        { name: 'hundred', expression: "[0, 1, 2].map(a, string(a)).join(',').split(',').map(s, int(s))" },
        { name: 'twice', expression: 'variables.hundred.map(x, x * 2)' },
        { name: 'name', expression: 'object.metadata.name' },
        { name: 'fromName', expression: "variables.name + '-x'" },
        { name: 'word', expression: "'request'" }, // names a request variable as a word: taken as reading it
        { name: 'indexed', expression: "variables['hundred']" }, // an access kelp does not follow
      ],
      none,
    )
    const constant = Object.fromEntries([...compiler.variables].map(([k, v]) => [k, v.constant === true]))
    expect(constant).toEqual({
      hundred: true,
      twice: true,
      name: false,
      fromName: false,
      word: false,
      indexed: false,
    })
  })

  it('give the same values, errors and budget in every batch as evaluating them afresh', () => {
    const kept = compiled(
      [
        { name: 'hundred', expression: "[0, 1, 2, 3].map(a, string(a)).join(',').split(',').map(s, int(s))" },
        { name: 'twice', expression: 'variables.hundred.map(x, x * 2)' },
        { name: 'bad', expression: 'variables.twice[10] == 1' },
        { name: 'name', expression: 'object.metadata.name' },
      ],
      ['size(variables.twice) == 4 && variables.name != ""', 'variables.bad'],
      ["'twice: ' + variables.twice.map(x, string(x)).join(',')", "'hundred: ' + string(size(variables.hundred))"],
    )
    expect([...kept.variables.values()].map((v) => v.constant === true)).toEqual([true, true, true, false])
    // the oracle: the same programs with the constant mark taken off (each evaluated afresh)
    const fresh = {
      ...kept,
      variables: new Map([...kept.variables].map(([k, v]) => [k, { ...v, constant: false }])),
    }
    const [v] = batches(fresh, 1_000_000, undefined)
    const total = 1_000_000 - ('remainingBudget' in v ? v.remainingBudget : 0)
    for (let budget = 0; budget <= total * 3; budget++)
      for (const memo of [undefined, new VariableMemo(kept.variables)])
        expect(batches(kept, budget, memo), `budget ${budget}`).toEqual(batches(fresh, budget, undefined))
  })
})
