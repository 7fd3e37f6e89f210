import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Program } from '../../../src/cel/program.js'
import type { ValidatingAdmissionPolicy } from '../../../src/kube/admissionregistration/types.js'
import { RuntimeCELCostBudget } from '../../../src/kube/environment.js'
import { type ForInputOutcome, OutOfBudget } from '../../../src/policy/cel/condition.js'
import { type Filter, PolicyValidator, validateWith } from '../../../src/policy/validating/validator.js'
import { newValidAttribute } from '../helpers.js'

// The message batch left out when every validation admits and its worst case fits in the budget
// left (validator.ts messagesFit). k8s.io/apiserver pkg/admission/plugin/policy/validating/
// validator.go Validate evaluates the messageExpressions (messageFilter.ForInput with the budget the
// validations left) before it reads any outcome, and its loop tests `errors.Is(err, ErrInternal) ||
// errors.Is(err, ErrOutOfBudget)` before `evalResult.EvalResult != celtypes.True`: a message batch
// out of budget fails even a validation that admitted. validator_test.go "messageExpression out of
// budget after successful eval of expression" has a denying validation (kelp's validator.test.ts
// transcribes it); the admitting one below follows from the same branch order.

const attributes = newValidAttribute(undefined, false)

function validator(spec: NonNullable<ValidatingAdmissionPolicy['spec']>): PolicyValidator {
  return new PolicyValidator({ metadata: { name: 'p' }, spec })
}

function run(v: PolicyValidator) {
  return v.validate({
    matchedResource: { group: '', version: '', resource: '' },
    attributes,
    params: null,
    authorize: () => ({ decision: 'NoOpinion' }),
  })
}

/** The compiled messageExpression programs of a validator (after its first validate). */
function messagePrograms(v: PolicyValidator): Program[] {
  const c = (v as unknown as { c: { messageExpressions: ({ program?: Program } | undefined)[] } }).c
  return c.messageExpressions.flatMap((m) => (m?.program === undefined ? [] : [m.program]))
}

/** A list literal of 0..n-1: its size is known to the estimator, so the estimate is finite. */
const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`
/**
 * Estimated at 4,008,803 (the list sizes are known); at run time the per-call limit (1e6) stops it,
 * charged 1,000,003, an error only its own validation's message would show: ten of them exceed the
 * RuntimeCELCostBudget (1e7).
 */
const expensive = `string(size(${list(60)}.map(a, ${list(60)}.map(b, ${list(60)}.filter(c, c < a + b)))))`

afterEach(() => vi.restoreAllMocks())

describe('messageExpressions of a policy whose validations all admit', () => {
  it('(1) a message batch that exceeds the budget left still fails every decision (not skipped)', () => {
    // 13 messages: 13 × 1,000,003 charged (13 × 4,008,803 estimated), the batch runs out
    const validations = Array.from({ length: 13 }, () => ({ expression: 'true', messageExpression: expensive }))
    const r = run(validator({ validations }))
    const failure = { action: 'Deny', evaluation: 'Error', message: `failed messageExpression: ${OutOfBudget}` }
    expect(r.decisions).toEqual(validations.map(() => failure))
    // failurePolicy Ignore: the same errors, admitted
    const ignored = run(validator({ validations, failurePolicy: 'Ignore' }))
    expect(ignored.decisions).toEqual(validations.map(() => ({ ...failure, action: 'Admit' })))
  })

  it('(1) an unbounded estimate (sizes of the object) is evaluated, whatever its actual cost', () => {
    const v = validator({
      validations: [{ expression: 'true', messageExpression: "object.metadata.name + '!'" }],
    })
    expect(run(v).decisions).toEqual([{ action: 'Admit', evaluation: 'Admit', message: '' }])
    const [program] = messagePrograms(v)
    const spy = vi.spyOn(program as Program, 'tryRun')
    expect(run(v).decisions).toEqual([{ action: 'Admit', evaluation: 'Admit', message: '' }])
    expect(spy).toHaveBeenCalledTimes(1)
  })

  it('(2) a denying validation still gets its message', () => {
    const v = validator({
      validations: [
        { expression: 'true', messageExpression: "'not shown'" },
        { expression: 'false', messageExpression: "'evaluated ' + 'message'", message: 'overwritten' },
      ],
    })
    expect(run(v).decisions).toEqual([
      { action: 'Admit', evaluation: 'Admit', message: '' },
      { action: 'Deny', evaluation: 'Deny', message: 'evaluated message', reason: 'Invalid' },
    ])
    // every message of the batch was evaluated
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRun'))
    run(v)
    for (const s of spies) expect(s).toHaveBeenCalledTimes(1)
  })

  it('(1) one message of unbounded estimate keeps the whole batch evaluated', () => {
    const v = validator({
      variables: [{ name: 'n', expression: 'object.metadata.name' }],
      validations: [
        { expression: "variables.n == 'endpoints1'", messageExpression: "'bad name ' + variables.n" },
        { expression: 'true', messageExpression: "'cheap'" },
      ],
    })
    run(v)
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRun'))
    expect(run(v).decisions.map((d) => d.action)).toEqual(['Admit', 'Admit'])
    for (const s of spies) expect(s).toHaveBeenCalledTimes(1)
  })

  it('(3) messages whose worst cases fit: not evaluated, the same decisions', () => {
    // estimates 0 + 4,008,803 + 2, and `variables.n` charged its cost in the validations' batch
    const v = validator({
      variables: [{ name: 'n', expression: 'object.metadata.name' }],
      validations: [
        { expression: "variables.n == 'endpoints1'", messageExpression: "'bad name'" },
        { expression: 'true', messageExpression: expensive },
        { expression: 'size(variables.n) > 0', messageExpression: "variables.n == '' ? 'empty' : 'short'" },
      ],
    })
    const admit = { action: 'Admit', evaluation: 'Admit', message: '' }
    expect(run(v).decisions).toEqual([admit, admit, admit])
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRun'))
    expect(run(v).decisions).toEqual([admit, admit, admit])
    for (const s of spies) expect(s).not.toHaveBeenCalled()
  })
})

describe('validateWith: messagesFit consulted only when every validation admits', () => {
  const ok =
    (values: boolean[]): Filter =>
    (budget) => ({
      results: values.map((value) => ({ expression: 'x', value })),
      remainingBudget: budget - 1,
    })
  const outOfBudget: ForInputOutcome = { batchError: OutOfBudget, outOfBudget: true }

  it('all admit, fits: the message filter is not called', () => {
    const message = vi.fn((): ForInputOutcome => outOfBudget)
    const fit = vi.fn(() => true)
    const r = validateWith('Fail', [{ expression: 'x' }], [], {
      validation: ok([true]),
      message,
      audit: (b) => ({ results: [], remainingBudget: b }),
      messagesFit: fit,
    })
    expect(r.decisions).toEqual([{ action: 'Admit', evaluation: 'Admit', message: '' }])
    expect(message).not.toHaveBeenCalled()
    expect(fit).toHaveBeenCalledWith(RuntimeCELCostBudget - 1)
  })

  it('all admit, does not fit: the batch runs and its failure fails the decision', () => {
    const r = validateWith('Fail', [{ expression: 'x' }], [], {
      validation: ok([true]),
      message: () => outOfBudget,
      audit: (b) => ({ results: [], remainingBudget: b }),
      messagesFit: () => false,
    })
    expect(r.decisions).toEqual([
      { action: 'Deny', evaluation: 'Error', message: `failed messageExpression: ${OutOfBudget}` },
    ])
  })

  it('a validation denies: messagesFit is not asked, the batch runs', () => {
    const fit = vi.fn(() => true)
    const r = validateWith('Fail', [{ expression: 'x' }, { expression: 'y' }], [], {
      validation: ok([true, false]),
      message: (b) => ({ results: [{}, { expression: 'm', value: 'from message' }], remainingBudget: b }),
      audit: (b) => ({ results: [], remainingBudget: b }),
      messagesFit: fit,
    })
    expect(r.decisions[1]).toEqual({ action: 'Deny', evaluation: 'Deny', message: 'from message', reason: 'Invalid' })
    expect(fit).not.toHaveBeenCalled()
  })
})
