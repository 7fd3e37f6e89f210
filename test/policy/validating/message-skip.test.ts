import { readFileSync } from 'node:fs'
import { loadAll } from 'js-yaml'
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
/** A list length whose `filter(x, x < 0)` costs 600,002 (2 a step; under the per-call limit). */
const N = 300_000

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
    const spy = vi.spyOn(program as Program, 'tryRunInto')
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
    // both messages read no variable: their first evaluation traced their costs and results, so neither
    // is evaluated again (the batch's cost is known: it fits) and the denying one has its traced text
    const [notShown, denied] = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
    expect(run(v).decisions[1]?.message).toBe('evaluated message')
    expect(denied).not.toHaveBeenCalled()
    expect(notShown).not.toHaveBeenCalled()
  })

  it('(1) a denying validation beside admitting ones whose variables now cost more than the budget: the whole batch, out of budget', () => {
    // twenty variables read only by messages: [] for both objects, at a cost growing with the list
    const variables = Array.from({ length: 20 }, (_, k) => ({
      name: `v${k}`,
      expression: 'object.spec.xs.filter(x, x < 0)',
    }))
    const validations = [
      { expression: 'false', messageExpression: "'denied'" },
      ...variables.map((x) => ({ expression: 'true', messageExpression: `string(size(variables.${x.name}))` })),
    ]
    const v = validator({ variables, validations })
    const request = (n: number) =>
      v.validate({
        matchedResource: { group: '', version: '', resource: '' },
        attributes: newValidAttribute({ spec: { xs: Array.from({ length: n }, (_, i) => i) } }, false),
        params: null,
        authorize: () => ({ decision: 'NoOpinion' }),
      })
    expect(request(3).decisions[0]?.message).toBe('denied') // evaluated and traced
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
    expect(request(4).decisions[0]?.message).toBe('denied')
    // none: every message reads what its traced evaluation read (the denying one, nothing)
    expect(spies.filter((s) => s.mock.calls.length > 0)).toHaveLength(0)
    // the same values ([]), each variable now ~600,000: 20 of them exceed the 1e7 budget
    const failure = { action: 'Deny', evaluation: 'Error', message: `failed messageExpression: ${OutOfBudget}` }
    expect(request(N).decisions).toEqual(validations.map(() => failure))
  })

  it('(1) a traced batch is taken only for the same values: other values are evaluated (and run out)', () => {
    // messages reading only `variables`: estimates unbounded (sizes of the object), so messagesFit
    // goes by the trace of the last batch evaluated after every validation admitted
    const costly = 'string(size(variables.l.map(a, variables.l.map(b, variables.l.filter(c, c < a + b)))))'
    const validations = Array.from({ length: 13 }, () => ({
      expression: 'size(variables.l) >= 0',
      messageExpression: costly,
    }))
    const v = validator({ variables: [{ name: 'l', expression: 'object.spec.xs' }], validations })
    const request = (n: number) =>
      v.validate({
        matchedResource: { group: '', version: '', resource: '' },
        attributes: newValidAttribute({ spec: { xs: Array.from({ length: n }, (_, i) => i) } }, false),
        params: null,
        authorize: () => ({ decision: 'NoOpinion' }),
      })
    const admit = { action: 'Admit', evaluation: 'Admit', message: '' }
    const failure = { action: 'Deny', evaluation: 'Error', message: `failed messageExpression: ${OutOfBudget}` }
    expect(request(2).decisions).toEqual(validations.map(() => admit)) // evaluated and traced
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
    // a list of 60: the validations admit, the same messages now cost 13 × 1,000,003
    expect(request(60).decisions).toEqual(validations.map(() => failure))
    expect(spies.filter((s) => s.mock.calls.length > 0)).toHaveLength(10) // the 10th runs out
    for (const s of spies) s.mockClear()
    // another object whose `variables.l` is the same [0, 1]: the traced batch, not evaluated
    expect(request(2).decisions).toEqual(validations.map(() => admit))
    for (const s of spies) expect(s).not.toHaveBeenCalled()
    // [0, 1, 2]: evaluated (and traced anew)
    expect(request(3).decisions).toEqual(validations.map(() => admit))
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
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
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

// The bundled pack's PodSecurity policies (messageExpressions over `variables` only): a sequence of
// pods, passing and failing, checked by one validator (its trace taken and reused) gives what a fresh
// validator gives for each pod alone (nothing traced: every message batch evaluated).
describe('the bundled pack: the same decisions with and without the traced batch', () => {
  const pack = ['pod-security-baseline.yaml', 'pod-security-restricted.yaml'].flatMap((f) =>
    (
      loadAll(readFileSync(new URL(`../../../policies/${f}`, import.meta.url), 'utf8')) as ValidatingAdmissionPolicy[]
    ).filter((d) => d?.kind === 'ValidatingAdmissionPolicy'),
  )
  const restricted = {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  }
  const container = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    image: `r.example/${name}:1`,
    ...extra,
  })
  const pod = (spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec,
  })
  const pods = [
    pod({ containers: [container('a'), container('b')] }),
    pod({ containers: [container('c'), container('d', { ports: [{ containerPort: 80 }] })] }),
    pod({ containers: [container('a', { securityContext: restricted })] }),
    pod({ containers: [container('x', { securityContext: restricted })] }),
    pod({ hostNetwork: true, containers: [container('a')] }),
    pod({ containers: [container('a', { securityContext: { privileged: true } }), container('b')] }),
    pod({ containers: [container('a'), container('b')] }),
    pod({ containers: [container('a', { ports: [{ containerPort: 80, hostPort: 8080 }] })] }),
    pod({ containers: [container('a', { securityContext: { seLinuxOptions: { type: 'spc_t' } } })] }),
    pod({ containers: [container('a', { securityContext: { ...restricted, seLinuxOptions: { user: 'u' } } })] }),
    pod({ containers: Array.from({ length: 40 }, (_, i) => container(`c${i}`, { securityContext: restricted })) }),
    pod({
      securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] },
      containers: [container('a')],
    }),
    pod({ containers: [container('a')] }, { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' }),
    pod({ containers: [container('a', { securityContext: restricted })] }),
  ]
  const input = (object: Record<string, unknown>) => ({
    matchedResource: { group: '', version: 'v1', resource: 'pods' },
    attributes: {
      ...newValidAttribute(object, false),
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
    },
    params: null,
    authorize: () => ({ decision: 'NoOpinion' as const }),
  })

  for (const policy of pack) {
    it(policy.metadata?.name ?? '', () => {
      const reused = new PolicyValidator(policy)
      let skipped = 0
      let denied = 0
      for (const object of [...pods, ...pods]) {
        const spies = reused.policy.spec?.validations?.length
          ? messagePrograms(reused).map((p) => vi.spyOn(p, 'tryRunInto'))
          : []
        const got = reused.validate(input(object))
        if (spies.length > 0 && spies.every((s) => s.mock.calls.length === 0)) skipped++
        vi.restoreAllMocks()
        if (got.decisions.some((d) => d.action === 'Deny')) denied++
        expect(got).toEqual(new PolicyValidator(policy).validate(input(object)))
      }
      // the passing pods after the first of their shape
      expect(skipped).toBeGreaterThan(0)
      expect(denied).toBeGreaterThan(0)
    })
  }
})
