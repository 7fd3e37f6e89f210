import { describe, expect, it } from 'vitest'
import { BoolType, StringType } from '../../../src/cel/types/types.js'
import { RuntimeCELCostBudget } from '../../../src/kube/environment.js'
import { CompositedCompiler } from '../../../src/policy/cel/compile.js'
import { forInput } from '../../../src/policy/cel/condition.js'
import { createAdmissionRequest } from '../../../src/policy/cel/request.js'
import { endpointCreateAttributes } from '../helpers.js'

// Transcribed from k8s.io/apiserver release-1.36 pkg/admission/plugin/cel/composition_test.go:
// TestCompositedPolicies and TestCompilerIsolation. NewCompositedCompiler over the default base
// env; variables and the condition compiled for NewExpressions without params or authorizer; one
// ForInput with no namespace and no optional bindings.

interface Case {
  readonly name: string
  readonly variables: readonly { name: string; expression: string }[]
  readonly expression: string
  readonly expectedResult?: unknown
  readonly expectErr?: boolean
  readonly expectedErrorMessage?: string
  readonly runtimeCostBudget?: number
}

const cases: readonly Case[] = [
  {
    name: 'simple',
    variables: [{ name: 'name', expression: 'object.metadata.name' }],
    expression: "variables.name == 'endpoints1'",
    expectedResult: true,
  },
  {
    name: 'early compile error',
    variables: [{ name: 'name', expression: "1 == '1'" }],
    expression: "variables.name == 'endpoints1'",
    expectErr: true,
    expectedErrorMessage: "found no matching overload for '_==_' applied to '(int, string)'",
  },
  {
    name: 'delayed eval error',
    variables: [{ name: 'count', expression: 'object.subsets[114514].addresses.size()' }],
    expression: 'variables.count == 810',
    expectErr: true,
    expectedErrorMessage: 'composited variable "count" fails to evaluate: index out of bounds: 114514',
  },
  {
    name: 'out of budget during lazy evaluation',
    variables: [{ name: 'name', expression: 'object.metadata.name' }], // cost = 3
    expression: "variables.name == 'endpoints1'", // cost = 3
    expectedResult: true,
    runtimeCostBudget: 4, // enough for main variable but not for entire expression
    expectErr: true,
    expectedErrorMessage: 'running out of cost budget',
  },
  {
    name: 'lazy evaluation, budget counts only once',
    variables: [{ name: 'name', expression: 'object.metadata.name' }], // cost = 3
    expression: "variables.name == 'endpoints1' && variables.name == 'endpoints1' ", // cost = 7
    expectedResult: true,
    runtimeCostBudget: 10, // enough for one lazy evaluation but not two, should pass
  },
  {
    name: 'single boolean variable in expression',
    variables: [{ name: 'fortuneTelling', expression: 'true' }],
    expression: 'variables.fortuneTelling',
    expectedResult: true,
  },
  {
    name: 'variable of a list',
    variables: [{ name: 'list', expression: '[1, 2, 3, 4]' }],
    expression: 'variables.list.sum() == 10',
    expectedResult: true,
  },
  {
    name: 'variable of a map',
    variables: [{ name: 'dict', expression: '{"foo": "bar"}' }],
    expression: "variables.dict['foo'].contains('bar')",
    expectedResult: true,
  },
  {
    name: 'variable of a list but confused as a map',
    variables: [{ name: 'list', expression: '[1, 2, 3, 4]' }],
    expression: "variables.list['invalid'] == 'invalid'",
    expectErr: true,
    expectedErrorMessage: "found no matching overload for '_[_]' applied to '(list(int), string)'",
  },
  {
    name: 'list of strings, but element is confused as an integer',
    variables: [{ name: 'list', expression: "['1', '2', '3', '4']" }],
    expression: 'variables.list[0] == 1',
    expectErr: true,
    expectedErrorMessage: "found no matching overload for '_==_' applied to '(string, int)'",
  },
  {
    name: 'exceeds cost budget',
    variables: [{ name: 'dict', expression: "'abc 123 def 123'.split(' ')" }],
    expression: 'size(variables.dict) > 0',
    expectErr: true,
    expectedErrorMessage:
      'validation failed due to running out of cost budget, no further validation rules will be run',
    runtimeCostBudget: 5,
  },
]

const none = { hasParams: false, hasAuthorizer: false }

describe('TestCompositedPolicies', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const compiler = new CompositedCompiler({ expressions: 'new' })
      compiler.compileAndStoreVariables(tc.variables, none)
      const compiled = [compiler.compile(tc.expression, [BoolType], none)]
      const attributes = endpointCreateAttributes()
      const out = forInput(
        compiled,
        {
          attributes,
          request: createAdmissionRequest(attributes, attributes.resource, attributes.kind),
          namespace: null,
          bindings: {},
          variables: compiler.variables,
        },
        tc.runtimeCostBudget ?? RuntimeCELCostBudget,
      )
      // err: the batch error, else the first result's error (compile errors surface when evaluated)
      const err = 'batchError' in out ? out.batchError : out.results[0]?.error
      if (tc.expectErr) {
        expect(err).toBeDefined()
        expect(err).toContain(tc.expectedErrorMessage)
        return
      }
      expect(err).toBeUndefined()
      if ('batchError' in out) return
      expect(out.results).not.toHaveLength(0)
      expect(out.results[0]?.value).toBe(tc.expectedResult)
    })
  }
})

describe('TestCompilerIsolation', () => {
  it('variables of one compiler do not leak into another', () => {
    const compiler1 = new CompositedCompiler({ expressions: 'stored' })
    compiler1.compileAndStoreVariables([{ name: 'foo', expression: "'bar'" }], none)
    const compiler2 = new CompositedCompiler({ expressions: 'stored' })
    compiler2.compileAndStoreVariables([{ name: 'baz', expression: "'qux'" }], none)

    // Go inspects state.mapType.Fields; kelp's equivalent is the stored variables and the fields of
    // `kubernetes.variables` the checker sees
    expect([...compiler1.variables.keys()]).toEqual(['foo'])
    expect([...compiler2.variables.keys()]).toEqual(['baz'])
    expect(compiler1.compile('variables.baz', [StringType], none).error?.detail).toContain("undefined field 'baz'")
    expect(compiler2.compile('variables.foo', [StringType], none).error?.detail).toContain("undefined field 'foo'")
    expect(compiler1.compile('variables.foo', [StringType], none).error).toBeUndefined()
    expect(compiler2.compile('variables.baz', [StringType], none).error).toBeUndefined()
  })
})
