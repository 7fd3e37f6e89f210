import { describe, expect, it } from 'vitest'
import type { CelValue } from '../../../src/cel/values/values.js'
import type {
  AuditAnnotation,
  ValidatingAdmissionPolicy,
  Validation,
} from '../../../src/kube/admissionregistration/types.js'
import { RuntimeCELCostBudget } from '../../../src/kube/environment.js'
import { type EvaluationResult, type ForInputOutcome, OutOfBudget } from '../../../src/policy/cel/condition.js'
import type { FailurePolicy, MatchResult } from '../../../src/policy/generic/matchconditions.js'
import {
  type AuditAnnotationAction,
  type Filter,
  type PolicyDecisionAction,
  PolicyValidator,
  validateWith,
} from '../../../src/policy/validating/validator.js'
import { newValidAttribute } from '../helpers.js'

// Transcribed from k8s.io/apiserver release-1.36 pkg/admission/plugin/policy/validating/
// validator_test.go TestValidate (and TestContextCanceled, skipped). The Go test builds a
// `validator` from fake ConditionEvaluators and a fake matcher; kelp's equivalent is validateWith
// with fake filters (budget → ForInput outcome) and a fake matcher. The Go evaluations carry their
// ExpressionAccessor (ValidationCondition / AuditAnnotationCondition); kelp takes the policy's
// validations and auditAnnotations index for index, so each fake evaluation's accessor becomes
// the spec at its index. `Elapsed` is not modelled by kelp (no timings), so it is not compared.

interface Eval {
  readonly value?: CelValue
  readonly error?: string
  /** ValidationCondition fields of the accessor. */
  readonly expression?: string
  readonly message?: string
  readonly reason?: string
  /** AuditAnnotationCondition.ValueExpression. */
  readonly valueExpression?: string
}

interface Decision {
  readonly action: PolicyDecisionAction
  readonly message?: string
  readonly reason?: string
}

interface Audit {
  readonly action: AuditAnnotationAction
  readonly value?: string
  readonly error?: string
}

interface Case {
  readonly name: string
  readonly failPolicy?: FailurePolicy
  readonly matcher?: MatchResult
  readonly evaluations?: readonly Eval[]
  readonly messageEvaluations?: readonly Eval[]
  readonly auditEvaluations?: readonly Eval[]
  readonly policyDecision?: readonly Decision[]
  readonly auditAnnotations?: readonly Audit[]
  readonly throwError?: boolean
  readonly costBudget?: number
}

/**
 * fakeCelFilter.ForInput: a budget ≤ 0 is the out-of-budget error (the filter costs 1); else the
 * error `test error` when throwing; else the evaluations and the budget less 1.
 */
function fakeCelFilter(evaluations: readonly Eval[], throwError: boolean): Filter {
  return (budget): ForInputOutcome => {
    if (budget <= 0) return { batchError: OutOfBudget, outOfBudget: true }
    if (throwError) return { batchError: 'test error', outOfBudget: false }
    const results = evaluations.map((e): EvaluationResult => {
      if (e.error !== undefined) return { expression: e.expression ?? '', error: e.error }
      if (e.value === undefined) return {} // a zero EvaluationResult: placeholder
      return { expression: e.expression ?? '', value: e.value }
    })
    return { results, remainingBudget: budget - 1 }
  }
}

const V = (e: Partial<Eval> = {}): Eval => ({ value: true, ...e })
const ERR = (e: Partial<Eval> = {}): Eval => ({ error: '', ...e })
const admit: Decision = { action: 'Admit' }
const deny: Decision = { action: 'Deny' }
const forbidden = 'Forbidden'
const unauthorized = 'Unauthorized'
const unit = 'this.expression == unit.test'

const cases: readonly Case[] = [
  { name: 'test pass', evaluations: [V()], policyDecision: [admit] },
  { name: 'test multiple pass', evaluations: [V(), V()], policyDecision: [admit, admit] },
  { name: 'test error with failurepolicy ignore', evaluations: [ERR()], policyDecision: [admit], failPolicy: 'Ignore' },
  { name: 'test error with failurepolicy nil', evaluations: [ERR()], policyDecision: [deny] },
  { name: 'test fail with failurepolicy fail', evaluations: [ERR()], policyDecision: [deny], failPolicy: 'Fail' },
  {
    name: 'test fail with failurepolicy ignore with multiple validations',
    evaluations: [V(), ERR()],
    policyDecision: [admit, admit],
    failPolicy: 'Ignore',
  },
  {
    name: 'test fail with failurepolicy nil with multiple validations',
    evaluations: [V(), ERR()],
    policyDecision: [admit, deny],
  },
  {
    name: 'test fail with failurepolicy fail with multiple validations',
    evaluations: [V(), ERR()],
    policyDecision: [admit, deny],
    failPolicy: 'Fail',
  },
  {
    name: 'test fail with failurepolicy ignore with multiple failed validations',
    evaluations: [ERR(), ERR()],
    policyDecision: [admit, admit],
    failPolicy: 'Ignore',
  },
  {
    name: 'test fail with failurepolicy nil with multiple failed validations',
    evaluations: [ERR(), ERR()],
    policyDecision: [deny, deny],
  },
  {
    name: 'test fail with failurepolicy fail with multiple failed validations',
    evaluations: [ERR(), ERR()],
    policyDecision: [deny, deny],
    failPolicy: 'Fail',
  },
  {
    name: 'test reason for fail no reason set',
    evaluations: [V({ value: false, expression: unit })],
    policyDecision: [{ action: 'Deny', reason: 'Invalid', message: `failed expression: ${unit}` }],
    failPolicy: 'Fail',
  },
  {
    name: 'test reason for fail reason set',
    evaluations: [V({ value: false, reason: forbidden, expression: unit })],
    policyDecision: [{ action: 'Deny', reason: forbidden, message: `failed expression: ${unit}` }],
    failPolicy: 'Fail',
  },
  {
    name: 'test reason for failed validations multiple validations',
    evaluations: [
      V({ value: false, reason: forbidden, expression: unit }),
      V({ value: false, reason: unauthorized, expression: 'this.expression.2 == unit.test.2' }),
    ],
    policyDecision: [
      { action: 'Deny', reason: forbidden, message: `failed expression: ${unit}` },
      { action: 'Deny', reason: unauthorized, message: 'failed expression: this.expression.2 == unit.test.2' },
    ],
    failPolicy: 'Fail',
  },
  {
    name: 'test message for failed validations',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test' })],
    policyDecision: [{ action: 'Deny', reason: forbidden, message: 'test' }],
    failPolicy: 'Fail',
  },
  {
    name: 'test message for failed validations multiple validations',
    evaluations: [
      V({ value: false, reason: forbidden, expression: unit, message: 'test1' }),
      V({ value: false, reason: forbidden, expression: unit, message: 'test2' }),
    ],
    policyDecision: [
      { action: 'Deny', reason: forbidden, message: 'test1' },
      { action: 'Deny', reason: forbidden, message: 'test2' },
    ],
    failPolicy: 'Fail',
  },
  {
    name: 'test filter error',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    policyDecision: [{ action: 'Deny', message: 'test error' }],
    failPolicy: 'Fail',
    throwError: true,
  },
  {
    name: 'test filter error multiple evaluations',
    evaluations: [
      V({ value: false, reason: forbidden, expression: unit, message: 'test1' }),
      V({ value: false, reason: forbidden, expression: unit, message: 'test2' }),
    ],
    policyDecision: [{ action: 'Deny', message: 'test error' }],
    failPolicy: 'Fail',
    throwError: true,
  },
  {
    name: 'test empty validations with non-empty audit annotations',
    auditEvaluations: [{ value: 'string value', valueExpression: "'string value'" }],
    failPolicy: 'Fail',
    auditAnnotations: [{ action: 'Publish', value: 'string value' }],
  },
  {
    name: 'test non-empty validations with non-empty audit annotations',
    evaluations: [V({ value: true, reason: forbidden, expression: unit, message: 'test1' })],
    auditEvaluations: [{ value: 'string value', valueExpression: "'string value'" }],
    policyDecision: [admit],
    auditAnnotations: [{ action: 'Publish', value: 'string value' }],
    failPolicy: 'Fail',
  },
  {
    name: 'test audit annotations with null return',
    auditEvaluations: [
      { value: null, valueExpression: 'null' },
      { value: 'string value', valueExpression: "'string value'" },
    ],
    auditAnnotations: [{ action: 'Exclude' }, { action: 'Publish', value: 'string value' }],
    failPolicy: 'Fail',
  },
  {
    name: 'test audit annotations with failPolicy=fail',
    auditEvaluations: [
      {
        error: "valueExpression ''this is not valid CEL' resulted in error: <nil>",
        valueExpression: "'this is not valid CEL",
      },
    ],
    auditAnnotations: [{ action: 'Error', error: "valueExpression ''this is not valid CEL' resulted in error: <nil>" }],
    failPolicy: 'Fail',
  },
  {
    name: 'test audit annotations with failPolicy=ignore',
    auditEvaluations: [
      {
        error: "valueExpression ''this is not valid CEL' resulted in error: <nil>",
        valueExpression: "'this is not valid CEL",
      },
    ],
    auditAnnotations: [
      // the Go test's "TODO: is this right?": Exclude, with the error kept
      { action: 'Exclude', error: "valueExpression ''this is not valid CEL' resulted in error: <nil>" },
    ],
    failPolicy: 'Ignore',
  },
  {
    name: 'messageExpression successful, empty message',
    evaluations: [V({ value: false, reason: forbidden, expression: unit })],
    messageEvaluations: [{ value: 'evaluated message' }],
    policyDecision: [{ action: 'Deny', message: 'evaluated message', reason: forbidden }],
  },
  {
    name: 'messageExpression for multiple validations',
    evaluations: [
      V({ value: false, reason: forbidden, expression: unit, message: 'I am not overwritten' }),
      V({ value: false, reason: forbidden, expression: unit, message: 'I am overwritten' }),
    ],
    messageEvaluations: [{}, { value: 'evaluated message' }],
    policyDecision: [
      { action: 'Deny', message: 'I am not overwritten', reason: forbidden },
      { action: 'Deny', message: 'evaluated message', reason: forbidden },
    ],
  },
  {
    name: 'messageExpression successful, overwritten message',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'I am overwritten' })],
    messageEvaluations: [{ value: 'evaluated message' }],
    policyDecision: [{ action: 'Deny', message: 'evaluated message', reason: forbidden }],
  },
  {
    // Go: Error is an apiservercel.Error of type Invalid with an empty detail
    name: 'messageExpression user failure',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    messageEvaluations: [{ error: '' }],
    policyDecision: [{ action: 'Deny', message: 'test1', reason: forbidden }],
  },
  {
    name: 'messageExpression eval to empty',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    messageEvaluations: [{ value: ' ' }],
    policyDecision: [{ action: 'Deny', message: 'test1', reason: forbidden }],
  },
  {
    name: 'messageExpression eval to multi-line',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    messageEvaluations: [{ value: 'hello\nthere' }],
    policyDecision: [{ action: 'Deny', message: 'test1', reason: forbidden }],
  },
  {
    name: 'messageExpression eval result too long',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    messageEvaluations: [{ value: 'x'.repeat(5 * 1024 + 1) }],
    policyDecision: [{ action: 'Deny', message: 'test1', reason: forbidden }],
  },
  {
    name: 'messageExpression eval to null',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    messageEvaluations: [{ value: null }],
    policyDecision: [{ action: 'Deny', message: 'test1', reason: forbidden }],
  },
  {
    // Go's message evaluation holds celtypes.StringType ("does not matter"): the batch never runs
    name: 'messageExpression out of budget after successful eval of expression',
    evaluations: [V({ value: false, reason: forbidden, expression: unit, message: 'test1' })],
    messageEvaluations: [{ value: 'does not matter' }],
    policyDecision: [{ action: 'Deny', message: 'running out of cost budget' }],
    costBudget: 1, // shared between expression and messageExpression, needs 1 + 1 = 2 in total
  },
  {
    name: 'no match surpresses failure',
    matcher: { matches: false, failedConditionName: 'placeholder' },
    evaluations: [ERR({ error: 'expected' })],
    policyDecision: [],
    failPolicy: 'Fail',
  },
  {
    name: 'match error => presumed match',
    matcher: { matches: true, failedConditionName: 'placeholder', error: 'test error' },
    evaluations: [ERR({ error: 'expected' })],
    policyDecision: [deny],
    failPolicy: 'Fail',
  },
]

describe('TestValidate', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const matcher = tc.matcher ?? { matches: true, failedConditionName: 'placeholder' }
      const evaluations = tc.evaluations ?? []
      const audits = tc.auditEvaluations ?? []
      const validations: Validation[] = evaluations.map((e) => ({
        ...(e.expression === undefined ? {} : { expression: e.expression }),
        ...(e.message === undefined ? {} : { message: e.message }),
        ...(e.reason === undefined ? {} : { reason: e.reason }),
      }))
      const auditSpecs: AuditAnnotation[] = audits.map((e) => ({ key: '', valueExpression: e.valueExpression ?? '' }))
      const throwError = tc.throwError ?? false
      const result = validateWith(
        tc.failPolicy ?? 'Fail', // a nil failPolicy is Fail
        validations,
        auditSpecs,
        {
          matcher: () => matcher,
          validation: fakeCelFilter(evaluations, throwError),
          message: fakeCelFilter(tc.messageEvaluations ?? [], throwError),
          audit: fakeCelFilter(audits, throwError),
        },
        tc.costBudget ?? RuntimeCELCostBudget,
      )

      const want = tc.policyDecision ?? []
      expect(result.decisions).toHaveLength(want.length)
      for (const [i, d] of want.entries()) {
        const got = result.decisions[i]
        expect(got?.action).toBe(d.action)
        expect(got?.message).toContain(d.message ?? '')
        expect(got?.reason ?? '').toBe(d.reason ?? '')
      }
      expect(result.auditAnnotations).toHaveLength(audits.length)
      for (const [i, a] of (tc.auditAnnotations ?? []).entries()) {
        const got = result.auditAnnotations[i]
        expect(got?.action).toBe(a.action)
        expect(got?.error ?? '').toBe(a.error ?? '')
        expect(got?.value ?? '').toBe(a.value ?? '')
      }
    })
  }
})

describe('TestContextCanceled', () => {
  it.skip('a cancelled context interrupts evaluation (`operation interrupted`)', () => {
    // Skipped: kelp evaluates synchronously with no context to cancel; the Go test cancels the
    // context before Validate and expects cel-go's interrupt check (`operation interrupted`).
  })
})

// The decisions of TestValidate reached through a compiled policy (compilePolicy + Validate with
// the real ForInput), where the Go case can be produced by real expressions.
describe('TestValidate through PolicyValidator', () => {
  const validate = (spec: NonNullable<ValidatingAdmissionPolicy['spec']>) =>
    new PolicyValidator({ metadata: { name: 'p' }, spec }).validate({
      matchedResource: { group: '', version: '', resource: '' },
      attributes: newValidAttribute(undefined, false),
      params: null,
      authorize: () => ({ decision: 'NoOpinion' }),
    })

  it('test reason for fail no reason set / reason set', () => {
    const r = validate({
      validations: [{ expression: ' 1 == 2 ' }, { expression: '1 == 2', reason: forbidden }],
    })
    expect(r.decisions).toEqual([
      { action: 'Deny', evaluation: 'Deny', message: 'failed expression: 1 == 2', reason: 'Invalid' },
      { action: 'Deny', evaluation: 'Deny', message: 'failed expression: 1 == 2', reason: forbidden },
    ])
  })
  it('test error with failurepolicy ignore / nil', () => {
    const spec = { validations: [{ expression: "object.metadata.labels['x'] == 'y'" }] }
    const message = "expression 'object.metadata.labels['x'] == 'y'' resulted in error: no such key: labels"
    expect(validate({ ...spec, failurePolicy: 'Ignore' }).decisions).toEqual([
      { action: 'Admit', evaluation: 'Error', message },
    ])
    expect(validate(spec).decisions).toEqual([{ action: 'Deny', evaluation: 'Error', message }])
  })
  it('messageExpression: result, fallbacks (empty, multi-line, too long, error)', () => {
    const r = validate({
      validations: [
        { expression: 'false', messageExpression: "'evaluated message'", message: 'I am overwritten' },
        { expression: 'false', messageExpression: "' '", message: 'test1' },
        { expression: 'false', messageExpression: "'hello\\nthere'", message: 'test1' },
        { expression: 'false', messageExpression: "'x'.repeat(5121)", message: 'test1' },
        { expression: 'false', messageExpression: "string(object.metadata.labels['x'])", message: 'test1' },
      ],
    })
    expect(r.decisions.map((d) => d.message)).toEqual(['evaluated message', 'test1', 'test1', 'test1', 'test1'])
  })
  it('audit annotations: string published, null and empty excluded, errors under failurePolicy', () => {
    const auditAnnotations = [
      { key: 'a', valueExpression: "' string value '" },
      { key: 'b', valueExpression: 'null' },
      { key: 'c', valueExpression: "''" },
      { key: 'd', valueExpression: "string(object.metadata.labels['x'])" },
    ]
    const err = "expression 'string(object.metadata.labels['x'])' resulted in error: no such key: labels"
    expect(validate({ auditAnnotations }).auditAnnotations).toEqual([
      { key: 'a', action: 'Publish', value: 'string value' },
      { key: 'b', action: 'Exclude' },
      { key: 'c', action: 'Exclude' },
      { key: 'd', action: 'Error', error: err },
    ])
    expect(validate({ auditAnnotations, failurePolicy: 'Ignore' }).auditAnnotations[3]).toEqual({
      key: 'd',
      action: 'Exclude',
      error: err,
    })
  })
  // Go strings.TrimSpace trims unicode.IsSpace (U+0085 included, U+FEFF not); JavaScript's trim
  // differs on both
  it('messages are trimmed as strings.TrimSpace', () => {
    const r = validate({
      validations: [
        { expression: 'false', message: '\u0085test1\u0085' },
        { expression: 'false', message: '\ufefftest2' },
      ],
    })
    expect(r.decisions.map((d) => d.message)).toEqual(['test1', '\ufefftest2'])
  })
})
