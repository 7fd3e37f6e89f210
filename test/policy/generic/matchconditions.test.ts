import { describe, expect, it } from 'vitest'
import type { ValidatingAdmissionPolicy } from '../../../src/kube/admissionregistration/types.js'
import type { EvaluationResult, ForInputOutcome } from '../../../src/policy/cel/condition.js'
import { type FailurePolicy, matchResult } from '../../../src/policy/generic/matchconditions.js'
import { PolicyValidator } from '../../../src/policy/validating/validator.js'
import { newValidAttribute } from '../helpers.js'

// Transcribed from k8s.io/apiserver release-1.36 pkg/admission/plugin/webhook/matchconditions/
// matcher_test.go TestMatch. The Go test drives NewMatcher with a fake ConditionEvaluator whose
// ForInput returns canned evaluations (or the error `test error`); kelp's matcher is `matchResult`
// over a ForInput outcome, so the fake is that outcome. MatchCondition names are passed by index.

interface Evaluation {
  readonly value?: boolean
  readonly error?: string
  readonly name?: string
}

interface Case {
  readonly name: string
  readonly evaluations: readonly Evaluation[]
  readonly throwError?: boolean
  readonly shouldMatch: boolean
  readonly returnedName?: string
  /** undefined: the Go test's nil failPolicy. */
  readonly failPolicy?: FailurePolicy
  readonly expectError?: string
}

const T: Evaluation = { value: true }

const cases: readonly Case[] = [
  { name: 'test single matches', evaluations: [T], shouldMatch: true },
  { name: 'test multiple match', evaluations: [T, T], shouldMatch: true },
  { name: 'test empty evals', evaluations: [], shouldMatch: true },
  {
    name: 'test single no match',
    evaluations: [{ value: false, name: 'test1' }],
    shouldMatch: false,
    returnedName: 'test1',
  },
  {
    name: 'test multiple no match',
    evaluations: [
      { value: false, name: 'test1' },
      { value: false, name: 'test2' },
    ],
    shouldMatch: false,
    returnedName: 'test1',
  },
  {
    name: 'test mixed with no match first',
    evaluations: [
      { value: false, name: 'test1' },
      { value: true, name: 'test2' },
    ],
    shouldMatch: false,
    returnedName: 'test1',
  },
  {
    name: 'test mixed with no match last',
    evaluations: [
      { value: true, name: 'test2' },
      { value: false, name: 'test1' },
    ],
    shouldMatch: false,
    returnedName: 'test1',
  },
  {
    name: 'test mixed with no match middle',
    evaluations: [
      { value: true, name: 'test2' },
      { value: false, name: 'test1' },
      { value: true, name: 'test2' },
    ],
    shouldMatch: false,
    returnedName: 'test1',
  },
  {
    name: 'test error, no fail policy',
    evaluations: [T],
    shouldMatch: true,
    throwError: true,
    expectError: 'test error',
  },
  {
    name: 'test error, fail policy fail',
    evaluations: [T],
    failPolicy: 'Fail',
    shouldMatch: true,
    throwError: true,
    expectError: 'test error',
  },
  {
    name: 'test error, fail policy ignore',
    evaluations: [T],
    failPolicy: 'Ignore',
    shouldMatch: false,
    throwError: true,
  },
  {
    name: 'test mix of true, errors and false',
    evaluations: [T, { error: 'test error' }, { value: false }, T, { error: 'test error' }],
    shouldMatch: false,
  },
  {
    name: 'test mix of true, errors and fail policy not set',
    evaluations: [T, { error: 'test error' }, T, { error: 'test error' }],
    shouldMatch: false,
    expectError: 'test error',
  },
  {
    name: 'test mix of true, errors and fail policy fail',
    evaluations: [T, { error: 'test error' }, T, { error: 'test error' }],
    failPolicy: 'Fail',
    shouldMatch: false,
    expectError: 'test error',
  },
  {
    name: 'test mix of true, errors and fail policy ignore',
    evaluations: [T, { error: 'test error' }, T, { error: 'test error' }],
    failPolicy: 'Ignore',
    shouldMatch: false,
  },
]

/** fakeCelFilter.ForInput: the canned evaluations, or the error `test error`. */
function fakeForInput(evaluations: readonly Evaluation[], throwError: boolean): ForInputOutcome {
  if (throwError) return { batchError: 'test error', outOfBudget: false }
  const results: EvaluationResult[] = evaluations.map((e) =>
    e.error !== undefined ? { expression: '', error: e.error } : { expression: '', value: e.value ?? null },
  )
  return { results, remainingBudget: 0 }
}

describe('TestMatch', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const out = fakeForInput(tc.evaluations, tc.throwError ?? false)
      const m = matchResult(
        out,
        tc.evaluations.map((e) => e.name ?? ''),
        tc.failPolicy,
      )
      if (m.error !== undefined) {
        expect(tc.expectError, `unexpected error ${m.error}`).toBeDefined()
        expect(m.error).toContain(tc.expectError)
        return
      }
      expect(tc.expectError, 'expected error but did not get one').toBeUndefined()
      expect(m.matches).toBe(tc.shouldMatch)
      expect(m.failedConditionName ?? '').toBe(tc.returnedName ?? '')
    })
  }

  // utilerrors.NewAggregate(errorList).Error() (apimachinery pkg/util/errors/errors.go): one text
  // alone; several distinct texts in brackets; repeated texts once, and no brackets if all the same.
  it('aggregated evaluation errors read as utilerrors.NewAggregate', () => {
    const names = ['a', 'b', 'c']
    const agg = (errors: string[]) =>
      matchResult(
        fakeForInput(
          errors.map((error) => ({ error })),
          false,
        ),
        names,
      ).error
    expect(agg(['test error', 'test error'])).toBe('test error')
    expect(agg(['e1', 'e2', 'e1'])).toBe('[e1, e2]')
    expect(agg(['e1'])).toBe('e1')
  })
})

// The same rules through a compiled policy (matcher.go with real expressions, as validating
// plugin.go compilePolicy wires it): false stops without a decision, errors follow failurePolicy.
describe('TestMatch through PolicyValidator', () => {
  const policy = (
    matchConditions: { name: string; expression: string }[],
    failurePolicy: FailurePolicy,
  ): ValidatingAdmissionPolicy => ({
    metadata: { name: 'p' },
    spec: { failurePolicy, matchConditions, validations: [{ expression: 'false' }] },
  })
  const validate = (p: ValidatingAdmissionPolicy) =>
    new PolicyValidator(p).validate({
      matchedResource: { group: '', version: '', resource: '' },
      attributes: newValidAttribute(undefined, false),
      params: null,
      authorize: () => ({ decision: 'NoOpinion' }),
    })
  const err = "object.metadata.labels['x'] == 'y'"

  it('test mix of true, errors and false: no decisions', () => {
    const r = validate(
      policy(
        [
          { name: 'a', expression: 'true' },
          { name: 'b', expression: err },
          { name: 'c', expression: 'false' },
        ],
        'Fail',
      ),
    )
    expect(r.decisions).toEqual([])
  })
  it('test mix of true, errors and fail policy fail: one error decision', () => {
    const r = validate(
      policy(
        [
          { name: 'a', expression: 'true' },
          { name: 'b', expression: err },
          { name: 'c', expression: err },
        ],
        'Fail',
      ),
    )
    expect(r.decisions).toHaveLength(1)
    expect(r.decisions[0]?.action).toBe('Deny')
    expect(r.decisions[0]?.evaluation).toBe('Error')
    // the two identical evaluation errors aggregate to one text
    expect(r.decisions[0]?.message).toBe(`expression '${err}' resulted in error: no such key: labels`)
  })
  it('test mix of true, errors and fail policy ignore: no decisions', () => {
    const r = validate(
      policy(
        [
          { name: 'a', expression: 'true' },
          { name: 'b', expression: err },
        ],
        'Ignore',
      ),
    )
    expect(r.decisions).toEqual([])
  })
  it('test single matches: the validations run', () => {
    const r = validate(policy([{ name: 'a', expression: 'true' }], 'Fail'))
    expect(r.decisions.map((d) => d.action)).toEqual(['Deny'])
  })
})
